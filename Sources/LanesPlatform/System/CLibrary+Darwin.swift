#if canImport(Darwin)
// The C library, re-exported: see CLibrary+Linux.swift.
@_exported import Darwin
#endif
