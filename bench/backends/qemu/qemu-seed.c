// SPDX-License-Identifier: MIT
/*
 * qemu-seed.c - qemu-seed.h: the host's half of a seed in each guest. It
 * sends the agent's seed lines (agent-guest.h) on each VM's control port
 * and turns what comes back (the seed's and its children's own records,
 * the memory the agent read from the guest's /proc) into seed_start and
 * seed_memory rows (seed-rows.h). What the guest could not read is NULL
 * there, with a note saying why; nothing is measured on the host.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "agent-guest.h"
#include "qemu-seed.h"
#include "sink.h"

/* a seed's layer is built within this in a guest (TCG: slow) */
#define SEED_START_MS 300000
#define SEED_REPLY_MS 30000

int qemu_seed_supported(const struct cell *c, char *why, size_t len)
{
	if (!strcmp(c->seed_layer, "none"))
		return 1;
	if (strcmp(c->runtime, "c"))
		snprintf(why, len, "runtime = %s: a seed in a guest holds the C functions only "
			 "(Python layers come with issue 32's runtime)", c->runtime);
	else if (c->vm_workloads[0])
		snprintf(why, len, "seed-layer = %s: one seed per VM of the cell's workload, not "
			 "vm-workloads = %s", c->seed_layer, c->vm_workloads);
	else
		return 1;
	return 0;
}

void qemu_seed_init(struct qemu_seed *s, const struct cell *c, const struct backend_env *env)
{
	s->on = strcmp(c->seed_layer, "none") != 0;
	s->env = env;
	seed_tally_init(&s->tally, env->sink, c->seed_layer);
}

/* seed.vmI.build_ns: how long VM @i's seed took to build its layer, in the guest. */
static void note_build(struct qemu_seed *s, int i, long long build_ns)
{
	char key[48], val[32];

	if (!s->env->note)
		return;
	snprintf(key, sizeof(key), "seed.vm%d.build_ns", i);
	snprintf(val, sizeof(val), "%lld", build_ns);
	s->env->note(s->env->note_ctx, key, val);
}

/* VM @i's seed: seed-start, then its "seeded" record. */
static int start_one(struct qemu_seed *s, struct qemu_vm *q, int i, const struct cell *c,
		     char *err, size_t errlen)
{
	struct backend_env genv = { .cvmfn = AGENT_GUEST_CVMFN, .data_dir = "/data",
				    .scratch_dir = AGENT_GUEST_SCRATCH };
	char store[1024], *argv[AGENT_SPAWN_MAXARGS + 2], line[AGENT_LINE_MAX], e[256];
	struct seed_seeded sd;
	int ret;

	cvmfn_argv(&genv, "seed", c, store, sizeof(store), argv, AGENT_SPAWN_MAXARGS + 2);
	ret = agent_seed_encode(argv + 1, line, sizeof(line), e, sizeof(e));
	if (!ret)
		ret = vm_send(&q->vm, line);
	if (!ret)
		ret = vm_recv(&q->vm, line, sizeof(line), SEED_START_MS);
	if (!ret && !seed_seeded_parse(line, &sd)) {
		q->seed_pid = (int)sd.pid;
		if (!i)
			s->tally.seed_pss_kb = sd.pss_kb;
		note_build(s, i, sd.build_ns);
		return 0;
	}
	snprintf(err, errlen, "vm %d: seed %s at layer %s: %.400s", i, c->workload,
		 c->seed_layer, ret == -EINVAL ? e : ret ? strerror(-ret) :
		 !strncmp(line, "error seed ", 11) ? line + 11 : line);
	return ret ? ret : -EIO;
}

int qemu_seed_start(struct qemu_seed *s, struct qemu_vms *v, const struct cell *c,
		    char *err, size_t errlen)
{
	int i, ret;

	for (i = 0; s->on && i < v->n; i++) {
		ret = start_one(s, &v->vm[i], i, c, err, errlen);
		if (ret)
			return ret;
	}
	return 0;
}

/* "seed-mem PID ..." for VM @q's live children; their lines into @kids. */
static int read_memory(struct qemu_vm *q, struct seed_child_mem *kids, long long *seed_pid,
		       long long *seed_pss, int *frames)
{
	char line[AGENT_LINE_MAX];
	size_t o = (size_t)snprintf(line, sizeof(line), "%s", AGENT_SEED_MEM_REQ);
	int i, n = 0, bad = 0, ret;

	for (i = 0; i < q->nkids; i++)
		o += (size_t)snprintf(line + o, sizeof(line) - o, " %d", q->kids[i]);
	ret = vm_send(&q->vm, line);
	/* to the end line, also past a bad one: no reply's rest is left for the next */
	while (!ret && !(ret = vm_recv(&q->vm, line, sizeof(line), SEED_REPLY_MS))) {
		if (!agent_mem_end_decode(line, seed_pid, seed_pss, frames))
			return n == q->nkids && !bad ? 0 : -EPROTO;
		if (n == q->nkids || agent_mem_decode(line, &kids[n]))
			bad = 1;
		else
			n++;
	}
	return ret;
}

/* seed_memory rows of VM @q's children; their parents, as the guest read them, into @par. */
static void sample(struct qemu_seed *s, struct qemu_vm *q, int called, char *par, size_t len)
{
	struct seed_child_mem kids[QEMU_MAX_INSTANCE_PORTS];
	long long seed_pid, seed_pss;
	size_t o = 0;
	int i, frames, ret;

	if (!q->nkids)
		return;
	ret = read_memory(q, kids, &seed_pid, &seed_pss, &frames);
	if (ret) {
		if (s->tally.sink)
			sink_skip(s->tally.sink, "the guest's agent did not send its seed's memory");
		return;
	}
	seed_tally_memory(&s->tally, called, kids, q->nkids, seed_pss, frames, frames ?
			  (frames == -EPERM ? "not measured: the guest's /proc/PID/pagemap gives "
			   "no frame numbers" : "not measured: the guest's /proc/PID/pagemap "
			   "unreadable") : NULL);
	for (i = 0; par && i < q->nkids; i++)
		o += (size_t)snprintf(par + o, len - o, "%s%lld:%lld", i ? " " : "", kids[i].pid,
				      kids[i].ppid);
}

void qemu_seed_before_fork(struct qemu_seed *s, struct qemu_vms *v)
{
	if (s->on && v->n)
		sample(s, &v->vm[v->nspawned % v->n], 0, NULL, 0);
}

static void take_started(struct qemu_seed *s, const char *line)
{
	struct seed_started st;

	if (!seed_started_parse(line, &st))
		seed_tally_started(&s->tally, &st);
}

/* "seed-report": VM @q's children's "started" records since the last. */
static int read_report(struct qemu_seed *s, struct qemu_vm *q)
{
	char line[AGENT_LINE_MAX];
	int ret = vm_send(&q->vm, "seed-report");

	while (!ret && !(ret = vm_recv(&q->vm, line, sizeof(line), SEED_REPLY_MS))) {
		if (!strncmp(line, "seed-report-end ", 16))
			return 0;
		if (strncmp(line, "started ", 8))
			return -EPROTO;
		take_started(s, line);
	}
	return ret;
}

/* seed.vmI.pid and seed.vmI.parents (CHILD:PARENT ...): where the children came from. */
static void note_parents(struct qemu_seed *s, int i, int seed_pid, const char *par)
{
	char key[48], val[32];

	if (!s->env->note)
		return;
	snprintf(key, sizeof(key), "seed.vm%d.pid", i);
	snprintf(val, sizeof(val), "%d", seed_pid);
	s->env->note(s->env->note_ctx, key, val);
	snprintf(key, sizeof(key), "seed.vm%d.parents", i);
	s->env->note(s->env->note_ctx, key, par);
}

int qemu_seed_verify(struct qemu_seed *s, struct qemu_vms *v, char *why, size_t len)
{
	char par[QEMU_MAX_INSTANCE_PORTS * 24];
	int i, ret;

	for (i = 0; s->on && i < v->n; i++) {
		ret = read_report(s, &v->vm[i]);
		if (ret) {
			snprintf(why, len, "vm %d: the agent's seed-report: %s", i, ret == -EPROTO ?
				 "a malformed line" : strerror(-ret));
			return ret;
		}
		par[0] = '\0';
		sample(s, &v->vm[i], 1, par, sizeof(par));
		note_parents(s, i, v->vm[i].seed_pid, par);
	}
	if (s->on)
		seed_tally_metrics(&s->tally);
	return 0;
}

void qemu_seed_gone(struct qemu_vms *v, const struct instance *in)
{
	struct qemu_vm *q;
	int vi, pid, i;

	qemu_vms_kid(in->priv, &vi, &pid);
	if (pid <= 0 || vi < 0 || vi >= v->n)
		return;
	q = &v->vm[vi];
	for (i = 0; i < q->nkids; i++)
		if (q->kids[i] == pid) {
			q->kids[i] = q->kids[--q->nkids];
			break;
		}
}
