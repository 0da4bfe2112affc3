// SPDX-License-Identifier: MIT
/*
 * seed-client.c - seed-client.h: a socketpair, fork and exec; sendmsg with
 * SCM_RIGHTS; poll and recv for the records; sscanf for their fields.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "seed-client.h"

static void exec_seed(char *const argv[], char *const envp[], int sock)
{
	int devnull = open("/dev/null", O_WRONLY);

	signal(SIGINT, SIG_IGN);
	signal(SIGPIPE, SIG_DFL);
	if (dup2(sock, 0) < 0 || devnull < 0 || dup2(devnull, 1) < 0)
		_exit(127);
	if (envp)
		execve(argv[0], argv, envp);
	else
		execv(argv[0], argv);
	_exit(127);
}

int seed_client_exec(struct seed_client *sc, char *const argv[], char *const envp[],
		     char *err, size_t errlen)
{
	int sv[2];

	sc->pid = -1;
	sc->sock = -1;
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv)) {
		snprintf(err, errlen, "socketpair: %s", strerror(errno));
		return -errno;
	}
	sc->pid = fork();
	if (sc->pid == 0)
		exec_seed(argv, envp, sv[1]);
	close(sv[1]);
	sc->sock = sv[0];
	if (sc->pid < 0) {
		snprintf(err, errlen, "fork: %s", strerror(errno));
		return -errno;
	}
	return 0;
}

int seed_client_reply(struct seed_client *sc, char *line, size_t len, int timeout_ms,
		      seed_started_fn fn, void *ctx)
{
	long long deadline = clock_now_ns() + (long long)timeout_ms * 1000000;
	struct pollfd pfd = { .fd = sc->sock, .events = POLLIN };
	struct seed_started s;
	ssize_t n;

	for (;;) {
		int left = (int)((deadline - clock_now_ns()) / 1000000);

		if (poll(&pfd, 1, left > 0 ? left : 0) <= 0)
			return -ETIMEDOUT;
		n = recv(sc->sock, line, len - 1, 0);
		if (n <= 0)
			return n ? -errno : -EPIPE;
		line[n] = '\0';
		line[strcspn(line, "\n")] = '\0';
		if (strncmp(line, "started ", 8))
			return 0;
		if (fn && !seed_started_parse(line, &s))
			fn(ctx, &s, line);
	}
}

int seed_client_fork(struct seed_client *sc, int rd, int wr)
{
	union { struct cmsghdr h; char buf[CMSG_SPACE(2 * sizeof(int))]; } u;
	struct iovec iov = { "fork\n", 5 };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1,
			     .msg_control = u.buf, .msg_controllen = sizeof(u.buf) };
	struct cmsghdr *cm = CMSG_FIRSTHDR(&mh);
	int fds[2] = { rd, wr };

	memset(&u, 0, sizeof(u));
	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = SCM_RIGHTS;
	cm->cmsg_len = CMSG_LEN(sizeof(fds));
	memcpy(CMSG_DATA(cm), fds, sizeof(fds));
	return sendmsg(sc->sock, &mh, MSG_NOSIGNAL) == 5 ? 0 : -errno;
}

void seed_client_stop(struct seed_client *sc)
{
	struct timespec pause = { 0, 10000000 };
	int i;

	if (sc->sock >= 0)
		close(sc->sock);
	sc->sock = -1;
	if (sc->pid <= 0)
		return;
	/* 0: still running; -1 also when a SIGCHLD of SIG_IGN reaped it already */
	for (i = 0; i < 200 && waitpid(sc->pid, NULL, WNOHANG) == 0; i++)
		nanosleep(&pause, NULL);
	if (i == 200) {
		kill(sc->pid, SIGKILL);
		waitpid(sc->pid, NULL, 0);
	}
	sc->pid = -1;
}

int seed_started_parse(const char *line, struct seed_started *s)
{
	return sscanf(line, "started pid=%lld fork_ns=%lld init_ns=%lld first_call_ns=%lld",
		      &s->pid, &s->fork_ns, &s->init_ns, &s->first_call_ns) == 4 ? 0 : -EPROTO;
}

int seed_seeded_parse(const char *line, struct seed_seeded *s)
{
	return sscanf(line, "seeded pid=%lld layer=%15s build_ns=%lld rss_kb=%lld pss_kb=%lld",
		      &s->pid, s->layer, &s->build_ns, &s->rss_kb, &s->pss_kb) == 5 ? 0 : -EPROTO;
}

int seed_forked_parse(const char *line)
{
	int pid;

	return sscanf(line, "forked pid=%d", &pid) == 1 && pid > 0 ? pid : -EPROTO;
}
