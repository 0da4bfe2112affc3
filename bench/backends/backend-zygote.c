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
 * is a runc / crun container; the protocol (seed-client.h) and the rows
 * (seed-rows.h) also with the guests' seeds (qemu-seed.c, the agent).
 */
#include <errno.h>
#include <stdint.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "backend.h"
#include "clock.h"
#include "journal.h"
#include "zygote-mem.h"
#include "zygote-seed.h"

/* A child's "started" record: its pid made ours, then into seed_start. */
static void take_started(void *ctx, const struct seed_started *s, const char *line)
{
	struct zygote_state *z = ctx;
	struct seed_started ours = *s;
	int i;

	(void)line;
	for (i = 0; i < z->nseen; i++)  /* the seed's pid namespace to ours, used up */
		if (z->seen_pid[i][0] == s->pid) {
			ours.pid = z->seen_pid[i][1];
			z->seen_pid[i][0] = z->seen_pid[z->nseen - 1][0];
			z->seen_pid[i][1] = z->seen_pid[--z->nseen][1];
			break;
		}
	seed_tally_started(&z->tally, &ours);
}

/* The next record from the seed that is not a child's "started" (taken on the way). */
static int seed_reply(struct zygote_state *z, char *line, size_t len, int timeout_ms)
{
	return seed_client_reply(&z->sc, line, len, timeout_ms, take_started, z);
}

/* Fork and exec `cvmfn seed`: its pid and our socket end into @z. */
static int seed_exec(struct zygote_state *z, const struct cell *c,
		     const struct backend_env *env, char *err, size_t errlen)
{
	char store[1024], *argv[28];

	cvmfn_argv(env, "seed", c, store, sizeof(store), argv, 28);
	return seed_client_exec(&z->sc, argv, NULL, err, errlen);
}

/*
 * Close the socket (the seed exits at EOF); kill it if it has not in 2 s
 * (our own child only: another's seed is its starter's to end).
 */
void zygote_seed_stop(struct zygote_state *z)
{
	int started = z->sc.pid > 0;

	seed_client_stop(&z->sc);
	if (started)
		journal_undo_or_warn(&z->journal_id, "zygote");
}

int zygote_seed_ready(struct zygote_state *z, const struct cell *c, char *err,
		      size_t errlen)
{
	char line[1024];
	struct seed_seeded sd;
	int ret = seed_reply(z, line, sizeof(line), 60000);

	if (!ret && !seed_seeded_parse(line, &sd)) {
		z->tally.seed_pss_kb = sd.pss_kb;
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
	z->journal_id = journal_process(z->sc.pid);
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
	static struct seed_child_mem kids[ZYGOTE_MAX_KIDS];
	long long seed_pss;
	int frames;

	if (!z->tally.sink || !z->nkids)
		return;
	frames = seed_mem_sample(z->sc.pid, z->kids, z->nkids, kids, &seed_pss);
	seed_tally_memory(&z->tally, called, kids, z->nkids, seed_pss, frames, NULL);
}

/*
 * The seed's pid of a child to ours, remembered until its "started" record
 * (take_started() uses it up); 0 or -errno (-EMFILE: too many children
 * that have not reported yet to tell their pids apart).
 */
static int host_pid(struct zygote_state *z, int *pid)
{
	pid_t ours = z->host_pid ? z->host_pid(z->host_ctx, *pid) : *pid;

	if (ours < 0)
		return (int)ours;
	if (z->host_pid) {
		if (z->nseen == ZYGOTE_MAX_STARTS)
			return -EMFILE;
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
	int req[2], rep[2], pid = -1, ret;

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
	ret = seed_client_fork(&z->sc, req[0], rep[1]);
	close(req[0]);
	close(rep[1]);
	if (!ret)
		ret = seed_reply(z, line, sizeof(line), 10000);
	if (ret || (pid = seed_forked_parse(line)) < 0 || (ret = host_pid(z, &pid))) {
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
	seed_tally_metrics(&z->tally);
	return 0;
}

void zygote_state_init(struct zygote_state *z, const struct cell *c, struct sink *sink)
{
	memset(z, 0, sizeof(*z));
	z->sc.pid = -1;
	z->sc.sock = -1;
	seed_tally_init(&z->tally, sink, c->seed_layer);
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
