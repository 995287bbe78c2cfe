// Linux event descriptors the daemon and the host monitor sleep on (pidfd: a child's end as a descriptor) (Glibc's Swift module leaves these headers out).
#include <sys/signalfd.h>
#include <sys/timerfd.h>
#include <sys/inotify.h>
#include <sys/pidfd.h>
