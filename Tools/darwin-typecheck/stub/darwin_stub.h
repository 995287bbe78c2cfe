/* A stand-in for the macOS SDK's Darwin module, for type-checking lanes' Darwin branches on Linux.
   Every declaration is copied (types, field names, widths, constant values, nullability) from
   apple-oss-distributions xnu-11417.101.15 (bsd/sys/*.h, bsd/arm/_types.h, libsyscall spawn.h),
   Libc-1725.0.11 (include/_time.h, crt_externs.h) and libpthread-539 (pthread.h). No glibc header is
   included. Function-like macros and casts the Swift importer drops on a Mac are left out on purpose. */
#ifndef LANES_DARWIN_STUB_H
#define LANES_DARWIN_STUB_H

/* arm/_types.h, sys/_types.h (LP64) */
typedef signed char __int8_t;   typedef unsigned char __uint8_t;
typedef short __int16_t;        typedef unsigned short __uint16_t;
typedef int __int32_t;          typedef unsigned int __uint32_t;
typedef long long __int64_t;    typedef unsigned long long __uint64_t;
typedef long __darwin_intptr_t; typedef unsigned int __darwin_natural_t;
typedef unsigned long __darwin_size_t; typedef long __darwin_ssize_t; typedef long __darwin_time_t;
typedef __uint32_t __darwin_socklen_t;
typedef __int32_t __darwin_dev_t; typedef __uint32_t __darwin_gid_t; typedef __uint64_t __darwin_ino64_t;
typedef __uint16_t __darwin_mode_t; typedef __int64_t __darwin_off_t; typedef __int32_t __darwin_pid_t;
typedef __uint32_t __darwin_sigset_t; typedef __int32_t __darwin_suseconds_t; typedef __uint32_t __darwin_uid_t;
typedef __int64_t __darwin_blkcnt_t; typedef __int32_t __darwin_blksize_t; typedef __uint32_t __darwin_useconds_t;

typedef __int8_t int8_t; typedef __int16_t int16_t; typedef __int32_t int32_t; typedef __int64_t int64_t;
typedef __uint8_t uint8_t; typedef __uint16_t uint16_t; typedef __uint32_t uint32_t; typedef __uint64_t uint64_t;
typedef long intptr_t; typedef unsigned long uintptr_t;
typedef __darwin_size_t size_t; typedef __darwin_ssize_t ssize_t; typedef __darwin_time_t time_t;
typedef __darwin_dev_t dev_t; typedef __darwin_gid_t gid_t; typedef __darwin_ino64_t ino_t;
typedef __darwin_mode_t mode_t; typedef __uint16_t nlink_t; typedef __darwin_off_t off_t; typedef __darwin_pid_t pid_t;
typedef __darwin_sigset_t sigset_t; typedef __darwin_suseconds_t suseconds_t; typedef __darwin_uid_t uid_t;
typedef __darwin_blkcnt_t blkcnt_t; typedef __darwin_blksize_t blksize_t; typedef __darwin_socklen_t socklen_t;
typedef __darwin_useconds_t useconds_t; typedef __uint64_t rlim_t; typedef char *caddr_t; typedef unsigned int u_int;
typedef __uint8_t sa_family_t;

/* sys/_types/_timespec.h, _timeval.h */
struct timespec { __darwin_time_t tv_sec; long tv_nsec; };
struct timeval { __darwin_time_t tv_sec; __darwin_suseconds_t tv_usec; };

/* sys/errno.h */
#define EPERM 1
#define ENOENT 2
#define ESRCH 3
#define EINTR 4
#define ECHILD 10
#define EACCES 13
#define EEXIST 17
#define EISDIR 21
#define EINVAL 22
#define EPIPE 32
#define EAGAIN 35
#define ELOOP 62
#define ETIMEDOUT 60
#define ECANCELED 89
#define EINPROGRESS 36

/* sys/fcntl.h */
#define O_RDONLY 0x0000
#define O_WRONLY 0x0001
#define O_RDWR 0x0002
#define O_NONBLOCK 0x00000004
#define O_APPEND 0x00000008
#define O_CREAT 0x00000200
#define O_TRUNC 0x00000400
#define O_EXCL 0x00000800
#define O_EVTONLY 0x00008000
#define O_NOFOLLOW 0x00000100
#define O_DIRECTORY 0x00100000
#define O_CLOEXEC 0x01000000
#define F_GETFD 1
#define F_SETFD 2
#define F_GETFL 3
#define F_SETFL 4
#define F_SETNOSIGPIPE 73
#define FD_CLOEXEC 1
#define AT_FDCWD -2
#define AT_EACCESS 0x0010
#define LOCK_SH 0x01
#define LOCK_EX 0x02
#define LOCK_NB 0x04
#define LOCK_UN 0x08
int flock(int, int);
int faccessat(int, const char *, int, int);

/* unistd.h */
#define F_OK 0
#define X_OK (1<<0)
#define W_OK (1<<1)
#define R_OK (1<<2)
#define SEEK_SET 0
ssize_t read(int, void *, size_t);
ssize_t write(int __fd, const void * __buf, size_t __nbyte);
ssize_t pread(int __fd, void * __buf, size_t __nbyte, off_t __offset);
ssize_t pwrite(int __fd, const void * __buf, size_t __nbyte, off_t __offset);
int close(int);
int pipe(int [2]);
int unlink(const char *);
int rmdir(const char *);
int link(const char *, const char *);
int access(const char *, int);
int fsync(int);
int ftruncate(int, off_t);
off_t lseek(int, off_t, int);
pid_t getpid(void);
long sysconf(int);
#define _SC_NPROCESSORS_ONLN 58
uid_t getuid(void);
uid_t geteuid(void);
gid_t getegid(void);
gid_t getgid(void);
char *getcwd(char *, size_t);
int execve(const char * __file, char * const * __argv, char * const * __envp);
int execv(const char * __path, char * const * __argv);
unsigned int sleep(unsigned int);
int fchown(int, uid_t, gid_t);
int sched_yield(void);
int isatty(int);

/* stdlib.h, string.h */
void free(void *);
void *malloc(size_t __size);
char *getenv(const char *);
char *realpath(const char * __restrict, char * __restrict);
int mkstemp(char *);
void exit(int) __attribute__((noreturn));
void _exit(int) __attribute__((noreturn));
char *strerror(int __errnum);
char *strdup(const char * __s1);
size_t strlen(const char * __s);

/* sys/stat.h */
struct stat {
	dev_t st_dev; mode_t st_mode; nlink_t st_nlink; __darwin_ino64_t st_ino; uid_t st_uid; gid_t st_gid; dev_t st_rdev;
	struct timespec st_atimespec; struct timespec st_mtimespec; struct timespec st_ctimespec; struct timespec st_birthtimespec;
	off_t st_size; blkcnt_t st_blocks; blksize_t st_blksize; __uint32_t st_flags; __uint32_t st_gen; __int32_t st_lspare; __int64_t st_qspare[2];
};
int stat(const char *, struct stat *);
int lstat(const char *, struct stat *);
int fstat(int, struct stat *);
int chmod(const char *, mode_t);
int fchmod(int, mode_t);
int mkdir(const char *, mode_t);

/* dirent.h (64-bit inodes) */
struct dirent { __uint64_t d_ino; __uint64_t d_seekoff; __uint16_t d_reclen; __uint16_t d_namlen; __uint8_t d_type; char d_name[1024]; };
typedef struct { int __dd_fd; long __dd_loc; long __dd_size; char *__dd_buf; int __dd_len; long __dd_seek; long __padding; int __dd_flags; } DIR;
DIR *opendir(const char *);
struct dirent *readdir(DIR *);
int closedir(DIR *);

/* pwd.h */
struct passwd { char *pw_name; char *pw_passwd; uid_t pw_uid; gid_t pw_gid; __darwin_time_t pw_change; char *pw_class; char *pw_gecos; char *pw_dir; char *pw_shell; __darwin_time_t pw_expire; };
struct passwd *getpwuid(uid_t);

/* stdio.h */
int rename(const char * __old, const char * __new);
/* FILE's fields are left out: lanes only passes NULL (flush every stream). */
struct __sFILE;
typedef struct __sFILE FILE;
int fflush(FILE *);

/* sys/signal.h */
#define SIGHUP 1
#define SIGINT 2
#define SIGKILL 9
#define SIGPIPE 13
#define SIGTERM 15
#define SIGCHLD 20
#define SA_RESTART 0x0002
#define SA_RESETHAND 0x0004
#define SIG_BLOCK 1
#define SIG_UNBLOCK 2
#define SIG_SETMASK 3
struct __siginfo;
union __sigaction_u { void (*__sa_handler)(int); void (*__sa_sigaction)(int, struct __siginfo *, void *); };
struct sigaction { union __sigaction_u __sigaction_u; sigset_t sa_mask; int sa_flags; };
typedef void (*sig_t)(int);
void (*signal(int, void (*)(int)))(int);
int sigaction(int, const struct sigaction * __restrict, struct sigaction * __restrict);
int sigemptyset(sigset_t *);
int sigfillset(sigset_t *);
int sigaddset(sigset_t *, int);
int sigismember(const sigset_t *, int);
int kill(pid_t, int);
int pthread_sigmask(int, const sigset_t *, sigset_t *);

/* sys/wait.h */
#define WNOHANG 0x00000001
pid_t waitpid(pid_t, int *, int);

/* time.h (Libc _time.h) */
typedef enum { _CLOCK_REALTIME = 0, _CLOCK_MONOTONIC = 6 } clockid_t;
#define CLOCK_REALTIME _CLOCK_REALTIME
#define CLOCK_MONOTONIC _CLOCK_MONOTONIC
int clock_gettime(clockid_t __clock_id, struct timespec *__tp) __attribute__((availability(macos,introduced=10.12)));
int nanosleep(const struct timespec *__rqtp, struct timespec *__rmtp);
time_t time(time_t *);

/* sys/resource.h */
#define RUSAGE_SELF 0
#define RLIMIT_CORE 4
struct rusage { struct timeval ru_utime; struct timeval ru_stime; long ru_maxrss; long ru_ixrss; long ru_idrss; long ru_isrss; long ru_minflt; long ru_majflt; long ru_nswap; long ru_inblock; long ru_oublock; long ru_msgsnd; long ru_msgrcv; long ru_nsignals; long ru_nvcsw; long ru_nivcsw; };
struct rlimit { rlim_t rlim_cur; rlim_t rlim_max; };
int getrusage(int, struct rusage *);
int setrlimit(int, const struct rlimit *);

/* poll.h */
#define POLLIN 0x0001
#define POLLOUT 0x0004
struct pollfd { int fd; short events; short revents; };
typedef unsigned int nfds_t;
int poll(struct pollfd *, nfds_t, int);

/* sys/socket.h */
#define SOCK_STREAM 1
#define SOL_SOCKET 0xffff
#define SO_REUSEADDR 0x0004
#define SO_LINGER 0x0080
#define SO_SNDBUF 0x1001
#define SO_RCVBUF 0x1002
#define SO_SNDTIMEO 0x1005
#define SO_RCVTIMEO 0x1006
#define SO_ERROR 0x1007
#define SO_NOSIGPIPE 0x1022
#define MSG_NOSIGNAL 0x80000
struct sockaddr { __uint8_t sa_len; sa_family_t sa_family; char sa_data[14]; };
struct linger { int l_onoff; int l_linger; };
int socket(int, int, int);
int accept(int, struct sockaddr * __restrict, socklen_t * __restrict);
ssize_t send(int, const void *, size_t, int);
int getsockopt(int, int, int, void * __restrict, socklen_t * __restrict);
int setsockopt(int, int, int, const void *, socklen_t);

/* netinet/in.h, netinet/tcp.h */
#define IPPROTO_TCP 6
#define TCP_NODELAY 0x01

/* sys/event.h */
#define EVFILT_VNODE (-4)
#define EVFILT_SIGNAL (-6)
#define EVFILT_TIMER (-7)
#define EV_ADD 0x0001
#define EV_DELETE 0x0002
#define EV_ONESHOT 0x0010
#define EV_CLEAR 0x0020
#define NOTE_DELETE 0x00000001
#define NOTE_WRITE 0x00000002
#define NOTE_EXTEND 0x00000004
#define NOTE_ATTRIB 0x00000008
#define NOTE_RENAME 0x00000020
#define NOTE_MACH_CONTINUOUS_TIME 0x00000080 /* EVFILT_TIMER: an interval timer keeps counting across sleep */
struct kevent { uintptr_t ident; int16_t filter; uint16_t flags; uint32_t fflags; intptr_t data; void *udata; };
int kqueue(void);
int kevent(int kq, const struct kevent *changelist, int nchanges, struct kevent *eventlist, int nevents, const struct timespec *timeout);

/* sys/sysctl.h, sys/proc.h (kinfo_proc as the SDK lays it out; only the fields lanes reads matter here) */
#define CTL_KERN 1
#define KERN_PROC 14
#define KERN_PROC_PID 1
#define KERN_PROC_UID 5
#define P_TRACED 0x00000800 /* sys/proc.h: a debugger or DTrace is attached */
#define KERN_PROCARGS2 49
struct proc; struct pgrp; struct session; struct vmspace; struct user; struct sigacts; struct ucred;
struct extern_proc {
	union { struct { struct proc *__p_forw; struct proc *__p_back; } p_st1; struct timeval __p_starttime; } p_un;
	struct vmspace *p_vmspace; struct sigacts *p_sigacts; int p_flag; char p_stat; pid_t p_pid; pid_t p_oppid; int p_dupfd;
	caddr_t user_stack; void *exit_thread; int p_debugger; int sigwait; u_int p_estcpu; int p_cpticks; __uint32_t p_pctcpu;
	void *p_wchan; char *p_wmesg; u_int p_swtime; u_int p_slptime; struct itimerval_stub { struct timeval a, b; } p_realtimer;
	struct timeval p_rtime; __uint64_t p_uticks; __uint64_t p_sticks; __uint64_t p_iticks; int p_traceflag; void *p_tracep;
	int p_siglist; void *p_textvp; int p_holdcnt; sigset_t p_sigmask; sigset_t p_sigignore; sigset_t p_sigcatch;
	unsigned char p_priority; unsigned char p_usrpri; char p_nice; char p_comm[17]; struct pgrp *p_pgrp; struct user *p_addr;
	unsigned short p_xstat; unsigned short p_acflag; struct rusage *p_ru;
};
struct eproc { struct proc *e_paddr; struct session *e_sess; char e_pcred_stub[72]; char e_ucred_stub[80]; char e_vm_stub[168]; pid_t e_ppid; pid_t e_pgid; short e_jobc; dev_t e_tdev; pid_t e_tpgid; struct session *e_tsess; char e_wmesg[8]; int e_xsize; short e_xrssize; short e_xccount; short e_xswrss; __int32_t e_flag; char e_login[12]; __int32_t e_spare[4]; };
struct kinfo_proc { struct extern_proc kp_proc; struct eproc kp_eproc; };
int sysctl(int *, u_int, void *, size_t *oldlenp, void *, size_t newlen);

/* spawn.h (libsyscall/wrappers/spawn/spawn.h) */
typedef void *posix_spawnattr_t;
typedef void *posix_spawn_file_actions_t;
#define POSIX_SPAWN_SETPGROUP 0x0002
#define POSIX_SPAWN_SETSIGDEF 0x0004
#define POSIX_SPAWN_SETSIGMASK 0x0008
int posix_spawn(pid_t * __restrict, const char * __restrict, const posix_spawn_file_actions_t *, const posix_spawnattr_t * __restrict, char *const __argv[__restrict], char *const __envp[__restrict]);
int posix_spawnp(pid_t * __restrict, const char * __restrict, const posix_spawn_file_actions_t *, const posix_spawnattr_t * __restrict, char *const __argv[__restrict], char *const __envp[__restrict]);
int posix_spawn_file_actions_addclose(posix_spawn_file_actions_t *, int);
int posix_spawn_file_actions_adddup2(posix_spawn_file_actions_t *, int, int);
int posix_spawn_file_actions_addopen(posix_spawn_file_actions_t * __restrict, int, const char * __restrict, int, mode_t);
int posix_spawn_file_actions_destroy(posix_spawn_file_actions_t *);
int posix_spawn_file_actions_init(posix_spawn_file_actions_t *);
int posix_spawnattr_destroy(posix_spawnattr_t *);
int posix_spawnattr_init(posix_spawnattr_t *);
int posix_spawnattr_setflags(posix_spawnattr_t *, short);
int posix_spawnattr_setpgroup(posix_spawnattr_t *, pid_t);
int posix_spawnattr_setsigdefault(posix_spawnattr_t * __restrict, const sigset_t * __restrict);
int posix_spawnattr_setsigmask(posix_spawnattr_t * __restrict, const sigset_t * __restrict);
int posix_spawn_file_actions_addchdir_np(posix_spawn_file_actions_t *, const char * __restrict)
    __attribute__((availability(macos,introduced=10.15,deprecated=26.0,message="posix_spawn_file_actions_addchdir(3) has replaced posix_spawn_file_actions_addchdir_np(3)")));
/* macOS 26 SDK: the POSIX 2024 name, macOS 26 only (php-src #21552; schismtracker #844) */
int posix_spawn_file_actions_addchdir(posix_spawn_file_actions_t * __restrict, const char * __restrict) __attribute__((availability(macos,introduced=26.0)));

/* pthread.h (libpthread-539, the Swift-importer branch of _PTHREAD_SWIFT_IMPORTER_NULLABILITY_COMPAT) */
struct _opaque_pthread_t { long __sig; void *__cleanup_stack; char __opaque[8176]; };
struct _opaque_pthread_attr_t { long __sig; char __opaque[56]; };
typedef struct _opaque_pthread_t *pthread_t;
typedef struct _opaque_pthread_attr_t pthread_attr_t;
/* sys/_pthread/_pthread_types.h (LP64 sizes) */
struct _opaque_pthread_mutex_t { long __sig; char __opaque[56]; };
struct _opaque_pthread_mutexattr_t { long __sig; char __opaque[8]; };
struct _opaque_pthread_cond_t { long __sig; char __opaque[40]; };
struct _opaque_pthread_condattr_t { long __sig; char __opaque[8]; };
typedef struct _opaque_pthread_mutex_t pthread_mutex_t;
typedef struct _opaque_pthread_mutexattr_t pthread_mutexattr_t;
typedef struct _opaque_pthread_cond_t pthread_cond_t;
typedef struct _opaque_pthread_condattr_t pthread_condattr_t;
int pthread_mutex_init(pthread_mutex_t * __restrict, const pthread_mutexattr_t * _Nullable __restrict);
int pthread_mutex_destroy(pthread_mutex_t *);
int pthread_mutex_lock(pthread_mutex_t *);
int pthread_mutex_unlock(pthread_mutex_t *);
int pthread_cond_init(pthread_cond_t * __restrict, const pthread_condattr_t * _Nullable __restrict);
int pthread_cond_destroy(pthread_cond_t *);
int pthread_cond_signal(pthread_cond_t *);
int pthread_cond_wait(pthread_cond_t * __restrict, pthread_mutex_t * __restrict);
int pthread_cond_timedwait(pthread_cond_t * __restrict, pthread_mutex_t * __restrict, const struct timespec * _Nullable __restrict);
int pthread_create(pthread_t _Nullable * _Nonnull __restrict, const pthread_attr_t * _Nullable __restrict, void * _Nullable (* _Nonnull)(void * _Nullable), void * _Nullable __restrict);
int pthread_detach(pthread_t);
int pthread_join(pthread_t , void * _Nullable * _Nullable);

/* dlfcn.h */
void *dlsym(void * __handle, const char * __symbol);

/* sys/ptrace.h */
#define PT_DENY_ATTACH 31
int ptrace(int _request, pid_t _pid, caddr_t _addr, int _data);

/* crt_externs.h (Libc) and mach-o/dyld.h: assumed visible through `import Darwin` (see the report) */
extern char ***_NSGetEnviron(void);
extern int _NSGetExecutablePath(char* buf, uint32_t* bufsize);
#endif
