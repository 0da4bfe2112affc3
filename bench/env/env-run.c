// SPDX-License-Identifier: MIT
/*
 * env-run.c - run a program the way the env collectors need it: look it up
 * in PATH (then the usual sbin directories), fork and execvp an argv array
 * (never a shell), capture its stdout and stderr into a buffer, and kill it
 * (its own process group) when it outlives a timeout. Nothing is left
 * behind: the pipe is closed and the child reaped on every path.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "env-local.h"

#define ENV_SBIN_DIRS "/usr/local/sbin:/usr/sbin:/sbin"

static int which_in(const char *dirs, const char *name, char *path, size_t len)
{
	const char *p = dirs, *end;
	struct stat st;

	while (p && *p) {
		end = strchr(p, ':');
		snprintf(path, len, "%.*s/%s",
			 (int)(end ? (size_t)(end - p) : strlen(p)), p, name);
		if (!stat(path, &st) && S_ISREG(st.st_mode) && !access(path, X_OK))
			return 0;
		p = end ? end + 1 : NULL;
	}
	return -ENOENT;
}

/**
 * env_which() - the full path of executable @name: searched in $PATH, then
 * in /usr/local/sbin, /usr/sbin and /sbin (absent from a user's PATH).
 * @name: program name, e.g. "runc"
 * @path: receives the full path
 * @len: size of @path
 *
 * Return: 0, or -ENOENT when not found.
 */
int env_which(const char *name, char *path, size_t len)
{
	const char *env = getenv("PATH");

	if (!which_in(env ? env : "/usr/local/bin:/usr/bin:/bin", name, path, len))
		return 0;
	return which_in(ENV_SBIN_DIRS, name, path, len);
}

static long ms_since(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (t.tv_sec - t0->tv_sec) * 1000 + (t.tv_nsec - t0->tv_nsec) / 1000000;
}

static void run_child(char *const argv[], int out)
{
	int null = open("/dev/null", O_RDONLY | O_CLOEXEC);

	setpgid(0, 0);
	if (null >= 0)
		dup2(null, STDIN_FILENO);
	dup2(out, STDOUT_FILENO);
	dup2(out, STDERR_FILENO);
	execvp(argv[0], argv);
	_exit(127);
}

/* Read @fd into @buf until EOF or the deadline; 0 on EOF, -ETIMEDOUT. */
static int run_drain(int fd, char *buf, size_t len, const struct timespec *t0,
		     int timeout_ms)
{
	size_t got = 0;
	char sink[512];

	for (;;) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		long left = timeout_ms - ms_since(t0);
		ssize_t n;
		int r;

		if (left <= 0)
			return -ETIMEDOUT;
		r = poll(&pfd, 1, (int)left);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -errno;
		if (r == 0)
			return -ETIMEDOUT;
		if (got < len - 1)
			n = read(fd, buf + got, len - 1 - got);
		else
			n = read(fd, sink, sizeof(sink));	/* discard the rest */
		if (n == 0)
			return 0;
		if (n > 0 && got < len - 1) {
			got += (size_t)n;
			buf[got] = '\0';
		}
		if (n < 0 && errno != EINTR && errno != EAGAIN)
			return -errno;
	}
}

/* Wait for @pid until the deadline, then kill its process group. */
static int run_reap(pid_t pid, const struct timespec *t0, int timeout_ms,
		    int *status)
{
	pid_t r;

	while ((r = waitpid(pid, status, WNOHANG)) == 0 &&
	       ms_since(t0) < timeout_ms)
		usleep(5000);
	if (r == pid)
		return 0;
	kill(-pid, SIGKILL);
	kill(pid, SIGKILL);
	while (waitpid(pid, status, 0) < 0 && errno == EINTR)
		;
	return -ETIMEDOUT;
}

/**
 * env_run_capture() - run @argv (fork + execvp, no shell) with stdin from
 * /dev/null and capture stdout and stderr together.
 * @argv: NULL-ended argument vector; argv[0] is the program (a full path
 *	or a name looked up by execvp)
 * @buf: receives the output, NUL-ended (the excess is discarded)
 * @len: size of @buf, at least 1
 * @timeout_s: the program is killed after this many seconds
 * @status: receives the wait status
 *
 * Return: 0 when the program exited on its own (see @status), -ETIMEDOUT
 * when it was killed, or -errno when it could not be started.
 */
int env_run_capture(char *const argv[], char *buf, size_t len, int timeout_s,
		    int *status)
{
	int fds[2], ret, ret2;
	struct timespec t0;
	pid_t pid;

	buf[0] = '\0';
	if (pipe2(fds, O_CLOEXEC) < 0)
		return -errno;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	pid = fork();
	if (pid < 0) {
		ret = -errno;
		close(fds[0]);
		close(fds[1]);
		return ret;
	}
	if (pid == 0)
		run_child(argv, fds[1]);
	close(fds[1]);
	ret = run_drain(fds[0], buf, len, &t0, timeout_s * 1000);
	close(fds[0]);
	ret2 = run_reap(pid, &t0, ret ? 0 : timeout_s * 1000, status);
	return ret ? ret : ret2;
}
