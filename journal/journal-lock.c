// SPDX-License-Identifier: MIT
/*
 * journal-lock.c - the machine-wide lock on host settings: an flock on
 * /run/cvmbench.lock, held by a run (or restore) from before it creates
 * anything to its exit, whatever its state directory. The holder writes
 * its PID into the file; a refusal names the holder as the kernel reports
 * it (/proc/locks), else as the file says. Read-only commands never take it.
 * The holder removes the file when it lets go, so nothing stays in /run; a
 * killed holder's file is removed by the next run or `restore`. A taker
 * that locked a file already unlinked by the previous holder opens the
 * path again (the lock counts only on the file the path names).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "journal.h"
#include "runner-stop.h"

static int host_fd = -1;
static int host_unlocked;         /* not root and no lock file: nothing to lock */

static const char *lock_path(void)
{
	const char *t = getenv("CVMBENCH_TEST_HOST_LOCK");

	return t && *t ? t : JOURNAL_HOST_LOCK;
}

/* The PID holding an flock on @fd's file, from /proc/locks; 0 if unknown. */
static long lock_holder(int fd)
{
	char line[256], want[64], dev[64];
	long pid = 0, p;
	struct stat st;
	FILE *f;

	if (fstat(fd, &st) || !(f = fopen("/proc/locks", "re")))
		return 0;
	snprintf(want, sizeof(want), "%02x:%02x:%llu", major(st.st_dev), minor(st.st_dev),
		 (unsigned long long)st.st_ino);
	while (!pid && fgets(line, sizeof(line), f))
		if (sscanf(line, "%*s FLOCK %*s %*s %ld %63s", &p, dev) == 2 &&
		    !strcmp(dev, want))
			pid = p;
	fclose(f);
	if (!pid && pread(fd, line, sizeof(line) - 1, 0) > 0)
		pid = strtol(line, NULL, 10);
	return pid;
}

static int open_lock(char *err, size_t errlen)
{
	const char *path = lock_path();

	host_fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
	if (host_fd < 0 && errno == EACCES)
		host_fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (host_fd >= 0)
		return 0;
	if (geteuid() != 0 && (errno == EACCES || errno == ENOENT || errno == EROFS)) {
		host_unlocked = 1;    /* cannot change host settings either */
		return 0;
	}
	snprintf(err, errlen, "cannot open the host lock %s: %s", path, strerror(errno));
	return -errno;
}

/* 1 if @fd is still the file the lock path names (not unlinked by its holder). */
static int lock_is_current(int fd)
{
	struct stat a, b;

	return !fstat(fd, &a) && !stat(lock_path(), &b) && a.st_dev == b.st_dev &&
	       a.st_ino == b.st_ino;
}

/*
 * Earlier versions of cvmbench took a lock of the idle knob only, in a file
 * they never removed: remove it (empty and regular, or it is not that file).
 */
static void remove_legacy_lock(void)
{
	struct stat st;

	if (getenv("CVMBENCH_TEST_HOST_LOCK"))
		return;
	if (!lstat(JOURNAL_LEGACY_IDLE_LOCK, &st) && S_ISREG(st.st_mode) && !st.st_size)
		unlink(JOURNAL_LEGACY_IDLE_LOCK);
}

static void write_pid(void)
{
	char buf[32];
	int n = snprintf(buf, sizeof(buf), "%d\n", (int)getpid());

	if (ftruncate(host_fd, 0) || pwrite(host_fd, buf, (size_t)n, 0) != n)
		return;           /* read-only file: /proc/locks still names us */
}

/*
 * @wait_s, or CVMBENCH_TEST_WAIT_LOCK seconds when longer: the test suite
 * waits for other cvmbench runs on a shared machine instead of failing.
 */
static double wait_seconds(double wait_s)
{
	const char *t = getenv("CVMBENCH_TEST_WAIT_LOCK");
	double v = t && *t ? strtod(t, NULL) : 0;

	return v > wait_s ? v : wait_s;
}

int journal_lock_host(double wait_s, char *err, size_t errlen)
{
	struct timespec pause = { 0, 50 * 1000 * 1000 };
	long long t0;
	int ret, e;

	if (host_fd >= 0 || host_unlocked)
		return 0;
	wait_s = wait_seconds(wait_s);
	ret = open_lock(err, errlen);
	if (ret || host_unlocked)
		return ret;
	t0 = clock_now_ns();
	for (;;) {
		if (!flock(host_fd, LOCK_EX | LOCK_NB)) {
			if (lock_is_current(host_fd)) {
				write_pid();
				remove_legacy_lock();
				return 0;
			}
			close(host_fd);   /* its holder removed it: open the path again */
			ret = open_lock(err, errlen);
			if (ret || host_unlocked)
				return ret;
			continue;
		}
		e = errno;
		if (e != EWOULDBLOCK || (double)(clock_now_ns() - t0) / 1e9 >= wait_s)
			break;
		if (runner_stop) {        /* SIGINT or SIGTERM while waiting */
			e = EINTR;
			break;
		}
		nanosleep(&pause, NULL);
	}
	ret = e == EWOULDBLOCK ? -EBUSY : -e;
	if (ret == -EBUSY)
		snprintf(err, errlen, "another cvmbench (pid %ld) holds the host-settings "
			 "lock %s%s; wait for it to end, or use --wait-lock SECONDS",
			 lock_holder(host_fd), lock_path(), wait_s > 0 ? " (waited)" : "");
	else
		snprintf(err, errlen, "cannot lock %s: %s", lock_path(), strerror(-ret));
	close(host_fd);
	host_fd = -1;
	return ret;
}

void journal_unlock_host(void)
{
	if (host_fd >= 0) {
		/* removed while still held: a waiter sees it gone and opens anew */
		if (lock_is_current(host_fd))
			unlink(lock_path());
		close(host_fd);
	}
	host_fd = -1;
	host_unlocked = 0;
}
