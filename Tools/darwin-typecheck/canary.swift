// Linux spellings a Mac's compiler rejects, one per function. run.sh type-checks this file after lanes'
// own and requires exactly one error for each function below: a stub that has drifted towards
// glibc (or a check that stopped checking) fails the run instead of passing quietly.
import LanesPlatform

// planted: glibc's field; Darwin's stat has st_mtimespec (sys/stat.h)
func modificationTime(_ info: stat) -> timespec { info.st_mtim }

// planted: in an expression `kevent` is the function, not the struct (sys/event.h declares both)
func eventBuffer() -> [kevent] { [kevent](repeating: kevent(), count: 8) }

// planted: tv_usec is __darwin_suseconds_t, an Int32 (sys/_types/_timeval.h); glibc's is Int
func receiveTimeout(microseconds: Int) -> timeval { timeval(tv_sec: 0, tv_usec: microseconds) }

// planted: FIONREAD is _IOR('f', 127, int) (sys/filio.h), a function-like macro Swift does not import
func bytesWaiting(_ descriptor: Int32) -> UInt { UInt(FIONREAD) }

// planted: an opaque pointer on Darwin (spawn.h), a struct with an empty initializer on glibc
func spawnActions() -> posix_spawn_file_actions_t { posix_spawn_file_actions_t() }

// planted: glibc imports RUSAGE_SELF as an enum case; Darwin's is a plain Int32 macro (sys/resource.h)
func ownUsage() -> Int32 { RUSAGE_SELF.rawValue }

// planted: a non-optional pointer to an opaque struct on Darwin (pthread.h), an integer on glibc
func noThread() -> pthread_t { pthread_t() }
