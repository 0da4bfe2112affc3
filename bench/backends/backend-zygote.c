// SPDX-License-Identifier: MIT
/*
 * backend-zygote.c - instances forked from a seed (`cvmfn seed`,
 * workloads/zygote.h; runtime = python: the same protocol from
 * workloads/python/seed.py) on this machine: prepare starts one seed for the
 * cell at its seed-layer (journalled; it ends when its socket closes, so
 * also when cvmbench is killed, and `cvmbench restore` ends it too), spawn
 * passes the child's two protocol pipes over the seed's Unix socket. What
 * the harness sees is the usual protocol; what this backend adds goes to
 * its own tables (results-schema/012-seed.sql): each child's start-up split
 * as the child reports it, and the children's PSS, USS and kB still on the
 * seed's frames, read before each fork and after the calls. After the
 * calls it emits the planner's layer metrics (docs/capacity.md). All but
 * starting the seed is shared (zygote-seed.h) with oci-seed.c, whose seed
 * is a runc / crun container.
 */
#include <errno.h>
#include <stdint.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "backend.h"
#include "clock.h"
#include "journal.h"
#include "sink.h"
#include "zygote-mem.h"
#include "zygote-seed.h"

struct seed_start_row {
	long long pid, fork_ns, init_ns, first_call_ns;
	const char *layer;
};

static const struct sink_column seed_start_cols[] = {
	SINK_CELL("cell_id"),
	SINK_INT(struct seed_start_row, pid),
	SINK_TEXT(struct seed_start_row, layer),
	SINK_INT(struct seed_start_row, fork_ns),
	SINK_INT(struct seed_start_row, init_ns),
	SINK_INT(struct seed_start_row, first_call_ns),
};
static const struct sink_table seed_start_table = SINK_TABLE("seed_start", seed_start_cols);

struct seed_memory_row {
	long long children, called, pid, pss_kb, uss_kb, private_dirty_kb;
	long long seed_shared_kb, seed_pss_kb;
};

static const struct sink_column seed_memory_cols[] = {
	SINK_CELL("cell_id"),
	SINK_INT(struct seed_memory_row, children),
	SINK_INT(struct seed_memory_row, called),
	SINK_INT(struct seed_memory_row, pid),
	SINK_KNOWN(struct seed_memory_row, pss_kb),
	SINK_KNOWN(struct seed_memory_row, uss_kb),
	SINK_KNOWN(struct seed_memory_row, private_dirty_kb),
	SINK_KNOWN(struct seed_memory_row, seed_shared_kb),
	SINK_KNOWN(struct seed_memory_row, seed_pss_kb),
};
static const struct sink_table seed_memory_table = SINK_TABLE("seed_memory", seed_memory_cols);

/* A "started" record: into seed_start and the start times. */
static void take_started(struct zygote_state *z, const char *line)
{
	struct seed_start_row r = { .layer = z->layer };
	int i;

	if (sscanf(line, "started pid=%lld fork_ns=%lld init_ns=%lld first_call_ns=%lld",
		   &r.pid, &r.fork_ns, &r.init_ns, &r.first_call_ns) != 4)
		return;
	for (i = 0; i < z->nseen; i++)  /* the seed's pid namespace to ours */
		if (z->seen_pid[i][0] == r.pid)
			r.pid = z->seen_pid[i][1];
	if (z->nstarts < ZYGOTE_MAX_STARTS)
		z->start_s[z->nstarts++] = (r.fork_ns + r.init_ns + r.first_call_ns) / 1e9;
	if (z->sink)
		sink_row(z->sink, &seed_start_table, &r);
}

/*
 * The next record from the seed that is not a child's "started" (those are
 * taken on the way), within @timeout_ms; @timeout_ms 0: only what is there.
 * 0, -ETIMEDOUT, -EPIPE (the seed is gone) or -errno.
 */
static int seed_reply(struct zygote_state *z, char *line, size_t len, int timeout_ms)
{
	long long deadline = clock_now_ns() + (long long)timeout_ms * 1000000;
	struct pollfd pfd = { .fd = z->sock, .events = POLLIN };
	ssize_t n;

	for (;;) {
		int left = (int)((deadline - clock_now_ns()) / 1000000);

		if (poll(&pfd, 1, left > 0 ? left : 0) <= 0)
			return -ETIMEDOUT;
		n = recv(z->sock, line, len - 1, 0);
		if (n <= 0)
			return n ? -errno : -EPIPE;
		line[n] = '\0';
		line[strcspn(line, "\n")] = '\0';
		if (strncmp(line, "started ", 8))
			return 0;
		take_started(z, line);
	}
}

static void exec_seed(char **argv, int sock)
{
	int devnull = open("/dev/null", O_WRONLY);

	signal(SIGINT, SIG_IGN);
	signal(SIGPIPE, SIG_DFL);
	if (dup2(sock, 0) < 0 || devnull < 0 || dup2(devnull, 1) < 0)
		_exit(127);
	execv(argv[0], argv);
	_exit(127);
}

/* Fork and exec `cvmfn seed`; its pid and our socket end into @z. */
static int seed_exec(struct zygote_state *z, const struct cell *c,
		     const struct backend_env *env, char *err, size_t errlen)
{
	char store[1024], *argv[28];
	int sv[2];
	size_t n = 0;

	cvmfn_argv(env, "seed", c, store, sizeof(store), argv, 24);
	while (argv[n])
		n++;
	argv[n++] = "--layer";
	argv[n++] = (char *)c->seed_layer;
	argv[n] = NULL;
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv)) {
		snprintf(err, errlen, "socketpair: %s", strerror(errno));
		return -errno;
	}
	z->seed = fork();
	if (z->seed == 0)
		exec_seed(argv, sv[1]);
	close(sv[1]);
	z->sock = sv[0];
	if (z->seed < 0) {
		snprintf(err, errlen, "fork: %s", strerror(errno));
		return -errno;
	}
	return 0;
}

/*
 * Close the socket (the seed exits at EOF); kill it if it has not in 2 s
 * (our own child only: another's seed is its starter's to end).
 */
void zygote_seed_stop(struct zygote_state *z)
{
	struct timespec pause = { 0, 10000000 };
	int i;

	if (z->sock >= 0)
		close(z->sock);
	z->sock = -1;
	if (z->seed <= 0)
		return;
	for (i = 0; i < 200 && waitpid(z->seed, NULL, WNOHANG) == 0; i++)
		nanosleep(&pause, NULL);
	if (i == 200) {
		kill(z->seed, SIGKILL);
		waitpid(z->seed, NULL, 0);
	}
	z->seed = -1;
	journal_undo_or_warn(&z->journal_id, "zygote");
}

int zygote_seed_ready(struct zygote_state *z, const struct cell *c, char *err,
		      size_t errlen)
{
	char line[1024];
	long long rss, pss;
	int ret = seed_reply(z, line, sizeof(line), 60000);

	if (!ret && sscanf(line, "seeded pid=%*d layer=%*s build_ns=%*d rss_kb=%lld pss_kb=%lld",
			   &rss, &pss) == 2) {
		z->seed_pss_kb = pss;
		return 0;
	}
	snprintf(err, errlen, "seed %s at layer %s: %.400s", c->workload, c->seed_layer,
		 ret ? strerror(-ret) : line);
	return -EIO;
}

/* Start the cell's seed and wait for "seeded"; 0 or -errno with @err. */
static int seed_start(struct zygote_state *z, const struct cell *c,
		      const struct backend_env *env, char *err, size_t errlen)
{
	int ret = seed_exec(z, c, env, err, errlen);

	if (ret)
		return ret;
	z->journal_id = journal_process(z->seed);
	if (z->journal_id < 0) {
		snprintf(err, errlen, "cannot journal the seed: %s",
			 strerror((int)-z->journal_id));
		z->journal_id = 0;
		zygote_seed_stop(z);
		return -EIO;
	}
	ret = zygote_seed_ready(z, c, err, errlen);
	if (ret)
		zygote_seed_stop(z);
	return ret;
}

static int zygote_prepare(const struct cell *c, const struct backend_env *env, void *state,
			  char *err, size_t errlen)
{
	return cvmfn_prepare_here(c, env, err, errlen) ?:
	       (strcmp(c->runtime, "python") ? 0 : cvmfn_python_check_here(c, env, err, errlen)) ?:
	       seed_start(state, c, env, err, errlen);
}

/*
 * One seed_memory row per live child, @nkids of them alive; @called: 0
 * before the next fork (every child ready, none called yet), 1 after the
 * cell's calls.
 */
static void sample_memory(struct zygote_state *z, int called)
{
	struct seed_memory_row r = { .children = z->nkids, .called = called };
	struct frame_set fs;
	struct proc_mem m;
	int i, frames;

	if (!z->sink || !z->nkids)
		return;
	frames = frame_set_load(z->seed, &fs);
	proc_mem_read(z->seed, &m);
	r.seed_pss_kb = m.pss_kb;
	for (i = 0; i < z->nkids; i++) {
		r.pid = z->kids[i];
		proc_mem_read(z->kids[i], &m);
		r.pss_kb = m.pss_kb;
		r.uss_kb = m.uss_kb;
		r.private_dirty_kb = m.private_dirty_kb;
		r.seed_shared_kb = frames ? -1 : frame_set_common_kb(z->kids[i], &fs);
		sink_row(z->sink, &seed_memory_table, &r);
	}
	if (frames && z->sink)
		sink_note(z->sink, "seed_shared_kb", frames == -EPERM ?
			  "not measured: /proc/PID/pagemap gives no frame numbers without "
			  "CAP_SYS_ADMIN" : "not measured: /proc/PID/pagemap unreadable");
	if (!frames)
		frame_set_free(&fs);
}

/* Send "fork" with the child's ends of the two pipes. 0 or -errno. */
static int send_fork(int sock, int rd, int wr)
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
	return sendmsg(sock, &mh, MSG_NOSIGNAL) == 5 ? 0 : -errno;
}

/* The seed's pid of a child to ours, remembered for its "started"; 0 or -errno. */
static int host_pid(struct zygote_state *z, int *pid)
{
	pid_t ours = z->host_pid ? z->host_pid(z->host_ctx, *pid) : *pid;

	if (ours < 0)
		return (int)ours;
	if (z->host_pid && z->nseen < ZYGOTE_MAX_STARTS) {
		z->seen_pid[z->nseen][0] = *pid;
		z->seen_pid[z->nseen++][1] = ours;
	}
	*pid = ours;
	return 0;
}

int zygote_spawn(const struct cell *c, const struct backend_env *env, void *state,
		 struct instance *in, char *err, size_t errlen)
{
	struct zygote_state *z = state;
	char line[1024];
	int req[2], rep[2], pid, ret;

	(void)c;
	(void)env;
	if (z->nkids == ZYGOTE_MAX_KIDS) {
		snprintf(err, errlen, "backend zygote forks at most %d live instances",
			 ZYGOTE_MAX_KIDS);
		return -E2BIG;
	}
	sample_memory(z, 0);
	if (pipe2(req, O_CLOEXEC) || (pipe2(rep, O_CLOEXEC) && (close(req[0]), close(req[1]), 1))) {
		snprintf(err, errlen, "pipe: %s", strerror(errno));
		return -errno;
	}
	in->spawn_ns = clock_now_ns();
	ret = send_fork(z->sock, req[0], rep[1]);
	close(req[0]);
	close(rep[1]);
	if (!ret)
		ret = seed_reply(z, line, sizeof(line), 10000);
	if (ret || sscanf(line, "forked pid=%d", &pid) != 1 || (ret = host_pid(z, &pid))) {
		snprintf(err, errlen, "seed: %.400s", ret ? strerror(-ret) : line);
		close(req[1]);
		close(rep[0]);
		return ret ? ret : -EIO;
	}
	in->pid = pid;
	in->pid_shared = 1;       /* the seed's child: the seed reaps it */
	in->to_fd = req[1];
	in->from_fd = rep[0];
	in->len = 0;
	in->priv = (void *)(intptr_t)pid;
	z->kids[z->nkids++] = pid;
	return 0;
}

void zygote_cleanup(void *state, struct instance *in)
{
	struct zygote_state *z = state;
	struct timespec pause = { 0, 1000000 };
	pid_t pid = (pid_t)(intptr_t)in->priv;   /* in->pid is -1 once closed */
	int i;

	for (i = 0; i < z->nkids; i++)
		if (z->kids[i] == pid) {
			z->kids[i] = z->kids[--z->nkids];
			break;
		}
	/* it ends at the EOF instance_close() gave it; the seed reaps it */
	for (i = 0; pid > 0 && i < 1000 && kill(pid, 0) == 0; i++)
		nanosleep(&pause, NULL);
	if (pid > 0 && i == 1000)
		kill(pid, SIGKILL);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* The planner's metrics this cell measured (plan-policy.h LAYER_METRICS). */
static void emit_layer_metrics(struct zygote_state *z)
{
	char name[40];

	snprintf(name, sizeof(name), "layer_%s_mem_kb", z->layer);
	if (z->seed_pss_kb >= 0)
		sink_metric(z->sink, name, (double)z->seed_pss_kb, "kB");
	if (!strcmp(z->layer, "warm"))
		return;           /* the planner takes a warm start from the calls */
	snprintf(name, sizeof(name), "layer_%s_start_s", z->layer);
	if (!z->nstarts) {
		sink_skip(z->sink, "no child reported its first call: no layer start time");
		return;
	}
	qsort(z->start_s, (size_t)z->nstarts, sizeof(double), cmp_double);
	sink_metric(z->sink, name, z->start_s[z->nstarts / 2], "s");
}

/* After the calls: the children's reports, their memory, the layer metrics. */
int zygote_verify(void *state, const struct cell *c, char *why, size_t len)
{
	struct zygote_state *z = state;
	char line[1024];

	(void)c;
	(void)why;
	(void)len;
	while (seed_reply(z, line, sizeof(line), 200) == 0)
		;                 /* only "started" records are expected now */
	sample_memory(z, 1);
	if (z->sink)
		emit_layer_metrics(z);
	return 0;
}

void zygote_state_init(struct zygote_state *z, const struct cell *c, struct sink *sink)
{
	memset(z, 0, sizeof(*z));
	z->seed = -1;
	z->sock = -1;
	z->seed_pss_kb = -1;
	z->sink = sink;
	snprintf(z->layer, sizeof(z->layer), "%s", c->seed_layer);
}

static int zygote_cell_begin(const struct cell *c, const struct backend_env *env,
			     void **state, char *err, size_t errlen)
{
	struct zygote_state *z = malloc(sizeof(*z));

	if (!z) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	zygote_state_init(z, c, env->sink);
	*state = z;
	return 0;
}

static void zygote_cell_end(void *state)
{
	zygote_seed_stop(state);
	free(state);
}

static int zygote_supported(const struct cell *c, char *why, size_t len)
{
	if (!strcmp(c->seed_layer, "none"))
		snprintf(why, len, "backend zygote needs seed-layer = bare, runtime or warm");
	else if (c->rootfs[0])
		snprintf(why, len, "rootfs = %s: backend zygote runs on this machine's own root",
			 c->rootfs);
	else
		return 1;
	return 0;
}

const struct backend_ops backend_zygote = {
	.name = "zygote",
	.flags = BACKEND_SEED,
	.supported = zygote_supported,
	.cell_begin = zygote_cell_begin,
	.prepare = zygote_prepare,
	.spawn = zygote_spawn,
	.verify = zygote_verify,
	.cleanup = zygote_cleanup,
	.cell_end = zygote_cell_end,
};
