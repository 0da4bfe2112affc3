// SPDX-License-Identifier: MIT
/*
 * oci-seccomp.c - the seccomp section of a bundle's config.json: deny by
 * default (EPERM) and allow the system calls Docker's default profile
 * allows on x86-64, so that building and installing the filter costs what
 * it costs for a real container (`seccomp = off` drops the section).
 */
#include <cjson/cJSON.h>

#include "oci-bundle.h"

static const char *const allowed[] = {
	"accept", "accept4", "access", "adjtimex", "alarm", "bind", "brk",
	"capget", "capset", "chdir", "chmod", "chown", "clock_adjtime",
	"clock_getres", "clock_gettime", "clock_nanosleep", "clone", "clone3",
	"close", "close_range", "connect", "copy_file_range", "creat", "dup",
	"dup2", "dup3", "epoll_create", "epoll_create1", "epoll_ctl",
	"epoll_pwait", "epoll_pwait2", "epoll_wait", "eventfd", "eventfd2",
	"execve", "execveat", "exit", "exit_group", "faccessat", "faccessat2",
	"fadvise64", "fallocate", "fanotify_mark", "fchdir", "fchmod",
	"fchmodat", "fchown", "fchownat", "fcntl", "fdatasync", "fgetxattr",
	"flistxattr", "flock", "fork", "fremovexattr", "fsetxattr", "fstat",
	"fstatfs", "fsync", "ftruncate", "futex", "futex_waitv", "futimesat",
	"getcpu", "getcwd", "getdents", "getdents64", "getegid", "geteuid",
	"getgid", "getgroups", "getitimer", "getpeername", "getpgid", "getpgrp",
	"getpid", "getppid", "getpriority", "getrandom", "getresgid",
	"getresuid", "getrlimit", "get_robust_list", "getrusage", "getsid",
	"getsockname", "getsockopt", "get_thread_area", "gettid",
	"gettimeofday", "getuid", "getxattr", "inotify_add_watch",
	"inotify_init", "inotify_init1", "inotify_rm_watch", "io_cancel",
	"ioctl", "io_destroy", "io_getevents", "io_pgetevents", "ioprio_get",
	"ioprio_set", "io_setup", "io_submit", "io_uring_enter",
	"io_uring_register", "io_uring_setup", "kill", "lchown", "lgetxattr",
	"link", "linkat", "listen", "listxattr", "llistxattr", "lremovexattr",
	"lseek", "lsetxattr", "lstat", "madvise", "membarrier", "memfd_create",
	"mincore", "mkdir", "mkdirat", "mknod", "mknodat", "mlock", "mlock2",
	"mlockall", "mmap", "mprotect", "mq_getsetattr", "mq_notify", "mq_open",
	"mq_timedreceive", "mq_timedsend", "mq_unlink", "mremap", "msgctl",
	"msgget", "msgrcv", "msgsnd", "msync", "munlock", "munlockall",
	"munmap", "name_to_handle_at", "nanosleep", "newfstatat", "open",
	"openat", "openat2", "pause", "pidfd_open", "pidfd_send_signal", "pipe",
	"pipe2", "pkey_alloc", "pkey_free", "pkey_mprotect", "poll", "ppoll",
	"prctl", "pread64", "preadv", "preadv2", "prlimit64", "process_mrelease",
	"pselect6", "pwrite64", "pwritev", "pwritev2", "read", "readahead",
	"readlink", "readlinkat", "readv", "recvfrom", "recvmmsg", "recvmsg",
	"remap_file_pages", "removexattr", "rename", "renameat", "renameat2",
	"restart_syscall", "rmdir", "rseq", "rt_sigaction", "rt_sigpending",
	"rt_sigprocmask", "rt_sigqueueinfo", "rt_sigreturn", "rt_sigsuspend",
	"rt_sigtimedwait", "rt_tgsigqueueinfo", "sched_getaffinity",
	"sched_getattr", "sched_getparam", "sched_get_priority_max",
	"sched_get_priority_min", "sched_getscheduler", "sched_rr_get_interval",
	"sched_setaffinity", "sched_setattr", "sched_setparam",
	"sched_setscheduler", "sched_yield", "seccomp", "select", "semctl",
	"semget", "semop", "semtimedop", "sendfile", "sendmmsg", "sendmsg",
	"sendto", "setfsgid", "setfsuid", "setgid", "setgroups", "setitimer",
	"setpgid", "setpriority", "setregid", "setresgid", "setresuid",
	"setreuid", "setrlimit", "set_robust_list", "setsid", "setsockopt",
	"set_thread_area", "set_tid_address", "setuid", "setxattr", "shmat",
	"shmctl", "shmdt", "shmget", "shutdown", "sigaltstack", "signalfd",
	"signalfd4", "socket", "socketpair", "splice", "stat", "statfs",
	"statx", "symlink", "symlinkat", "sync", "sync_file_range", "syncfs",
	"sysinfo", "tee", "tgkill", "time", "timer_create", "timer_delete",
	"timer_getoverrun", "timer_gettime", "timer_settime", "timerfd_create",
	"timerfd_gettime", "timerfd_settime", "times", "tkill", "truncate",
	"umask", "uname", "unlink", "unlinkat", "utime", "utimensat", "utimes",
	"vfork", "vmsplice", "wait4", "waitid", "waitpid", "write", "writev",
	"arch_prctl", "modify_ldt", "personality",
};

const char *const *oci_seccomp_allowed(size_t *n)
{
	*n = sizeof(allowed) / sizeof(allowed[0]);
	return allowed;
}

/**
 * oci_seccomp_profile() - {"defaultAction": "SCMP_ACT_ERRNO",
 * "architectures": [...], "syscalls": [{"names": [...], "action":
 * "SCMP_ACT_ALLOW"}]}.
 */
cJSON *oci_seccomp_profile(void)
{
	static const char *const arches[] = { "SCMP_ARCH_X86_64", "SCMP_ARCH_X86",
					      "SCMP_ARCH_X32" };
	cJSON *s = cJSON_CreateObject(), *rules, *rule;

	cJSON_AddStringToObject(s, "defaultAction", "SCMP_ACT_ERRNO");
	cJSON_AddNumberToObject(s, "defaultErrnoRet", 1);
	cJSON_AddItemToObject(s, "architectures",
			      cJSON_CreateStringArray(arches, 3));
	rules = cJSON_AddArrayToObject(s, "syscalls");
	rule = cJSON_CreateObject();
	cJSON_AddItemToObject(rule, "names", cJSON_CreateStringArray(
		allowed, (int)(sizeof(allowed) / sizeof(allowed[0]))));
	cJSON_AddStringToObject(rule, "action", "SCMP_ACT_ALLOW");
	cJSON_AddItemToArray(rules, rule);
	return s;
}
