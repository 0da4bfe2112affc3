// SPDX-License-Identifier: MIT
/*
 * guest-exec.c - run the programs the guest image is built with (apt-get,
 * apt-cache, dpkg, dpkg-deb, mkfs.ext4, xz, cvmfn) from argv arrays with
 * fork and exec: never a shell, so no string reaches one.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "guest-local.h"

int guest_which(const char *name, char *buf, size_t len)
{
	const char *path = getenv("PATH");
	char dirs[4096], *save = NULL, *d;

	if (strchr(name, '/')) {
		snprintf(buf, len, "%s", name);
		return access(buf, X_OK) ? -errno : 0;
	}
	snprintf(dirs, sizeof(dirs), "%s:/usr/sbin:/sbin", path ? path : "/usr/bin:/bin");
	for (d = strtok_r(dirs, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
		snprintf(buf, len, "%s/%s", d, name);
		if (!access(buf, X_OK))
			return 0;
	}
	return -ENOENT;
}

static void child(char *const argv[], const char *prog, const char *cwd,
		  int outfd, int errfd)
{
	int null = open("/dev/null", O_RDWR);

	if (null < 0 || dup2(null, 0) < 0)
		_exit(126);
	if (dup2(outfd >= 0 ? outfd : null, 1) < 0)
		_exit(126);
	if (errfd >= 0 && dup2(errfd, 2) < 0)
		_exit(126);
	if (cwd && chdir(cwd))
		_exit(126);
	execv(prog, argv);
	_exit(127);
}

/* Read both pipes until both end (so neither child write blocks). */
static void drain(int outfd, char *out, size_t outlen, int errfd, char *err, size_t errlen)
{
	struct pollfd p[2] = { { outfd, POLLIN, 0 }, { errfd, POLLIN, 0 } };
	size_t have[2] = { 0, 0 }, cap[2] = { outlen, errlen };
	char *buf[2] = { out, err }, sink[4096];
	int i, open_fds = (outfd >= 0) + (errfd >= 0);
	ssize_t n;

	while (open_fds > 0 && poll(p, 2, -1) >= 0) {
		for (i = 0; i < 2; i++) {
			if (p[i].fd < 0 || !p[i].revents)
				continue;
			if (buf[i] && have[i] + 1 < cap[i])
				n = read(p[i].fd, buf[i] + have[i], cap[i] - 1 - have[i]);
			else
				n = read(p[i].fd, sink, sizeof(sink));
			if (n > 0 && buf[i] && have[i] + 1 < cap[i])
				have[i] += (size_t)n;
			if (n <= 0) {
				p[i].fd = -1;
				open_fds--;
			}
		}
	}
	if (out && outlen)
		out[have[0]] = '\0';
	if (err && errlen)
		err[have[1]] = '\0';
}

static int open_out(int pipefd[2], const char *out_path, int want)
{
	pipefd[0] = pipefd[1] = -1;
	if (out_path) {
		pipefd[1] = open(out_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		return pipefd[1] < 0 ? -errno : 0;
	}
	if (want && pipe2(pipefd, O_CLOEXEC))
		return -errno;
	return 0;
}

static int status_of(int status, const char *prog, char *err, size_t errlen)
{
	char msg[1024];
	size_t n;

	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 0;
	if (!err || !errlen)
		return -ECHILD;
	n = strlen(err);
	while (n && (err[n - 1] == '\n' || err[n - 1] == ' '))
		err[--n] = '\0';
	snprintf(msg, sizeof(msg), "%s: %s %d%s%s", prog,
		 WIFEXITED(status) ? "exit status" : "killed by signal",
		 WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status),
		 n ? ": " : "", err);
	snprintf(err, errlen, "%s", msg);
	return -ECHILD;
}

int guest_exec(char *const argv[], const char *cwd, char *out, size_t outlen,
	       const char *out_path, char *err, size_t errlen)
{
	char prog[PATH_MAX];
	int o[2], e[2] = { -1, -1 }, status = 0, ret;
	pid_t pid;

	ret = guest_which(argv[0], prog, sizeof(prog));
	if (ret) {
		if (err)
			snprintf(err, errlen, "%s: not found (PATH, /usr/sbin, /sbin)", argv[0]);
		return ret;
	}
	ret = open_out(o, out_path, out != NULL);
	if (!ret && err && pipe2(e, O_CLOEXEC))
		ret = -errno;
	if (ret)
		goto out_close;
	pid = fork();
	if (pid == 0)
		child(argv, prog, cwd, o[1], e[1]);
	if (pid < 0) {
		ret = -errno;
		goto out_close;
	}
	close(o[1]);
	close(e[1]);
	o[1] = e[1] = -1;
	drain(o[0], out, outlen, e[0], err, errlen);
	if (waitpid(pid, &status, 0) < 0)
		ret = -errno;
	else
		ret = status_of(status, argv[0], err, errlen);
out_close:
	for (int i = 0; i < 2; i++) {
		if (o[i] >= 0)
			close(o[i]);
		if (e[i] >= 0)
			close(e[i]);
	}
	return ret;
}
