// SPDX-License-Identifier: MIT
/*
 * guest-exec.c - run the programs the guest image is built with (apt-get,
 * apt-cache, dpkg, dpkg-deb, mkfs.ext4, xz, cvmfn) from argv arrays with
 * fork and exec: never a shell, so no string reaches one. A long one
 * (mmdebstrap) is tied to cvmbench: it dies with it (PR_SET_PDEATHSIG)
 * and is journalled by pid before it execs, so `cvmbench restore` ends it.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "guest-local.h"
#include "journal.h"
#include "log.h"

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

/* In a tied child: die with @parent, and exec only after its go byte on @go. */
static void tie_child(int go[2], pid_t parent)
{
	char byte;

	close(go[1]);
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) || getppid() != parent)
		_exit(126);
	if (read(go[0], &byte, 1) != 1)
		_exit(126);       /* the parent could not journal it: do not run */
	close(go[0]);
}

/*
 * In the parent: journal the tied child @pid (no journal open, -EBADF: it
 * still dies with us), then let it exec; a child that cannot be journalled
 * is killed before it runs. 0 with the entry in *@jid (0: none), or -errno.
 */
static int tie_parent(pid_t pid, int go[2], long *jid, char *err, size_t errlen)
{
	long id = journal_process(pid);
	int ret = id > 0 || id == -EBADF ? 0 : id ? (int)id : -EIO;

	*jid = id > 0 ? id : 0;
	close(go[0]);
	if (!ret && write(go[1], "g", 1) != 1)
		ret = -EPIPE;
	close(go[1]);
	go[0] = go[1] = -1;
	if (ret && err)
		snprintf(err, errlen, "cannot journal the child %d: %s", (int)pid, strerror(-ret));
	return ret;
}

/* The pipes: stdout @o (or a file), stderr @e when @err, @go when @tied. */
static int open_pipes(int o[2], int e[2], int go[2], const char *out_path, int want_out,
		      const char *err, int tied)
{
	int ret = open_out(o, out_path, want_out);

	if (!ret && err && pipe2(e, O_CLOEXEC))
		ret = -errno;
	if (!ret && tied && pipe2(go, O_CLOEXEC))
		ret = -errno;
	return ret;
}

static void close_pipes(int *fds, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (fds[i] >= 0)
			close(fds[i]);
}

static int exec_argv(char *const argv[], const char *cwd, char *out, size_t outlen,
		     const char *out_path, char *err, size_t errlen, int tied)
{
	char prog[PATH_MAX];
	int fd[6] = { -1, -1, -1, -1, -1, -1 }, *o = fd, *e = fd + 2, *go = fd + 4;
	int status = 0, ret;
	pid_t pid, me = getpid();
	long jid = 0;

	ret = guest_which(argv[0], prog, sizeof(prog));
	if (ret) {
		if (err)
			snprintf(err, errlen, "%s: not found (PATH, /usr/sbin, /sbin)", argv[0]);
		return ret;
	}
	ret = open_pipes(o, e, go, out_path, out != NULL, err, tied);
	pid = ret ? -1 : fork();
	if (pid == 0) {
		if (tied)
			tie_child(go, me);
		child(argv, prog, cwd, o[1], e[1]);
	}
	if (!ret && pid < 0)
		ret = -errno;
	if (ret)
		goto out_close;
	close(o[1]);
	close(e[1]);
	o[1] = e[1] = -1;
	if (tied && tie_parent(pid, go, &jid, err, errlen)) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		ret = -EIO;
		goto out_close;
	}
	drain(o[0], out, outlen, e[0], err, errlen);
	if (waitpid(pid, &status, 0) < 0)
		ret = -errno;
	else
		ret = status_of(status, argv[0], err, errlen);
	if (jid > 0 && journal_forget(jid))
		pr_warn("journal %s: cannot close entry %ld", journal_path(), jid);
out_close:
	close_pipes(fd, 6);
	return ret;
}

int guest_exec(char *const argv[], const char *cwd, char *out, size_t outlen,
	       const char *out_path, char *err, size_t errlen)
{
	return exec_argv(argv, cwd, out, outlen, out_path, err, errlen, 0);
}

int guest_exec_tied(char *const argv[], char *err, size_t errlen)
{
	return exec_argv(argv, NULL, NULL, 0, NULL, err, errlen, 1);
}
