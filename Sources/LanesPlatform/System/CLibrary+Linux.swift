#if canImport(Glibc)
// The C library, re-exported: a module that imports LanesPlatform gets the portable POSIX names
// (open, read, poll, pthread_create...) without naming an OS itself.
@_exported import Glibc
#endif
