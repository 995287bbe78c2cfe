// Linux event descriptors the daemon sleeps on (Glibc's Swift module leaves these headers out).
#include <sys/signalfd.h>
#include <sys/timerfd.h>
#include <sys/inotify.h>
