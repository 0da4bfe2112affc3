// SPDX-License-Identifier: MIT
/*
 * probe-set.c - the probes of a cell on their sides (probe-set.h). Host
 * probes go through probe-window.c here; instance probes through the agent,
 * which runs probe-window.c on its side and streams the rows back.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "backend.h"
#include "db.h"
#include "log.h"
#include "probe-set.h"
#include "probe-window.h"

static int remote(const struct probe *p)
{
	return p->ops->side == PROBE_INSTANCE;
}

static void fail(struct probe_set *ps, const char *probe, const char *msg)
{
	if (ps->fail)
		ps->fail(ps->fail_ctx, probe, msg);
}

static struct sink probe_sink(const struct probe_set *ps, const char *name, int64_t inv)
{
	struct sink s = ps->agent.base;

	s.probe = name;
	s.invocation_id = inv;
	return s;
}

static void skip_probe(struct probe_set *ps, const char *name, const char *why)
{
	struct sink s = probe_sink(ps, name, 0);

	pr_warn("probe %s skipped: %s", name, why);
	sink_skip(&s, why);
}

static int agent_req(struct probe_set *ps, enum agent_op op, const char *name,
		     enum probe_window w, long seq)
{
	struct agent_req q = { .op = op, .w = w, .seq = seq };
	int err;

	snprintf(q.probe, sizeof(q.probe), "%s", name);
	ps->agent.error[0] = '\0';
	if (ps->broken)
		return -ENOTCONN;    /* said once already */
	err = agent_client_call(&ps->agent, &q);
	if (err && ps->agent.error[0]) {      /* the link, not the probe */
		ps->broken = 1;
		snprintf(ps->link_error, sizeof(ps->link_error), "the agent's link broke (%s): %s",
			 ps->vantage, ps->agent.error);
		if (op != AGENT_EMIT)     /* emit_one() says it after the window's rollback */
			fail(ps, name, ps->link_error);
	}
	return err;
}

int probe_set_windows(const struct probe_set *ps)
{
	int i, w = 0;

	for (i = 0; i < ps->n; i++)
		w |= ps->p[i].ops->windows;
	return w;
}

int probe_set_broken(const struct probe_set *ps)
{
	return ps->broken;
}

/*
 * The agent: the backend's (a guest's, over its control port) when it has
 * one, else one in this process. ps->vantage says which, for P.vantage.
 */
static int connect_agent(struct probe_set *ps, const char *name, const struct probe_target *t)
{
	const struct backend_ops *be = t->backend;
	int to_fd, from_fd, err;

	if (!be || !be->agent_link || !t->backend_state) {
		snprintf(ps->vantage, sizeof(ps->vantage),
			 "host: in-process agent of cvmbench (the instances run on this machine)");
		return agent_client_loopback(&ps->agent, t) ? -1 : 0;
	}
	err = be->agent_link(t->backend_state, &to_fd, &from_fd, ps->vantage,
			     sizeof(ps->vantage));
	if (err) {
		fail(ps, name, ps->vantage);
		return -1;
	}
	agent_client_fds(&ps->agent, to_fd, from_fd);
	return 0;
}

/* Open one instance probe in the agent; its skip row comes from there. */
static int open_remote(struct probe_set *ps, const struct probe_ops *ops,
		       const struct probe_target *t)
{
	int err;

	if (!ps->have_agent) {
		if (connect_agent(ps, ops->name, t))
			return -1;
		ps->have_agent = 1;
	}
	err = agent_req(ps, AGENT_OPEN, ops->name, 0, 0);
	if (err && !ps->agent.error[0])
		pr_warn("probe %s skipped: %s", ops->name, ps->agent.ack.text);
	return err;
}

static int open_one(struct probe_set *ps, const char *name, const struct probe_target *t)
{
	const struct probe_ops *ops = probe_find(name);
	struct probe *p = &ps->p[ps->n];
	struct sink s = probe_sink(ps, name, 0);
	char why[256];

	/* what `cvmbench list` says too (cell-check.c), with the accelerator used */
	if (!probe_cell_supported(ops, t->cell, t->accel, why, sizeof(why))) {
		skip_probe(ps, name, why);
		return -1;
	}
	memset(p, 0, sizeof(*p));
	p->ops = ops;
	p->target = t;
	if (remote(p) ? open_remote(ps, ops, t) : ops->open && ops->open(p)) {
		if (!remote(p))
			skip_probe(ps, name, p->error[0] ? p->error : "could not open");
		else if (ps->have_agent && !ps->broken)   /* whose skip it is */
			sink_note(&s, "vantage", ps->vantage);
		return -1;
	}
	ps->n++;
	if (remote(p) && sink_note(&s, "vantage", ps->vantage))
		return -1;
	return sink_note(&s, "side", probe_side_name(ops->side));
}

void probe_set_open(struct probe_set *ps, const char *list,
		    const struct probe_target *target, const struct sink *base,
		    agent_inv_id_fn inv_id, void *inv_ctx)
{
	char buf[256], *tok, *save = NULL;

	ps->n = 0;
	ps->broken = 0;
	ps->agent.base = *base;
	ps->agent.inv_id = inv_id;
	ps->agent.inv_ctx = inv_ctx;
	snprintf(buf, sizeof(buf), "%s", list);
	for (tok = strtok_r(buf, ", ", &save); tok && ps->n < PROBE_SET_MAX;
	     tok = strtok_r(NULL, ", ", &save)) {
		open_one(ps, tok, target);
	}
}

/* Start (in order) or stop (in reverse) the probes of window @w with .outer == @outer. */
static void bracket_some(struct probe_set *ps, enum agent_op op, enum probe_window w,
			 long seq, int outer)
{
	struct sink s;
	int k;

	for (k = 0; k < ps->n; k++) {
		struct probe *p = &ps->p[op == AGENT_START ? k : ps->n - 1 - k];

		if (!(p->ops->windows & w) || !p->ops->outer != !outer)
			continue;
		if (remote(p)) {
			agent_req(ps, op, p->ops->name, w, seq);
			continue;
		}
		/* a window that fails to start or stop is a skip row already */
		s = probe_sink(ps, p->ops->name, 0);
		if (op == AGENT_START)
			probe_window_start(p, w, seq, &s);
		else
			probe_window_stop(p, w, seq, &s);
	}
}

/*
 * Every probe that wants window @w: the .outer ones start first and stop
 * last, so what their stop waits for (KSM convergence) is in no other
 * probe's window.
 */
static void bracket(struct probe_set *ps, enum agent_op op, enum probe_window w, long seq)
{
	int outer_first = op == AGENT_START;

	bracket_some(ps, op, w, seq, outer_first);
	bracket_some(ps, op, w, seq, !outer_first);
}

void probe_set_start(struct probe_set *ps, enum probe_window w, long seq)
{
	bracket(ps, AGENT_START, w, seq);
}

void probe_set_stop(struct probe_set *ps, enum probe_window w, long seq)
{
	bracket(ps, AGENT_STOP, w, seq);
}

static void emit_one(struct probe_set *ps, struct probe *p, enum probe_window w, long seq,
		     int64_t inv_id)
{
	struct sink s = probe_sink(ps, p->ops->name, inv_id);
	char msg[AGENT_LINE_MAX] = "";
	int ret;

	/* one probe's rows of one window: one transaction, rolled back if it fails */
	if (db_window_begin(s.db)) {
		fail(ps, p->ops->name, "cannot begin the window's transaction");
		return;
	}
	if (remote(p)) {
		ret = agent_req(ps, AGENT_EMIT, p->ops->name, w, seq);
		if (ret && ret != -ENOTCONN)
			snprintf(msg, sizeof(msg), "%s", ps->agent.error[0] ? ps->link_error :
				 ps->agent.ack.text);
	} else {
		ret = probe_window_emit(p, w, seq, &s);
		if (ret)
			snprintf(msg, sizeof(msg), "%s", p->error[0] ? p->error :
				 "could not emit its rows");
	}
	if (db_window_end(s.db, !ret) && !msg[0])
		snprintf(msg, sizeof(msg), "cannot commit the window's rows");
	if (msg[0])               /* after the rollback, so the error row stays */
		fail(ps, p->ops->name, msg);
}

void probe_set_emit(struct probe_set *ps, enum probe_window w, long seq, int64_t inv_id)
{
	int i;

	for (i = 0; i < ps->n; i++)
		if (ps->p[i].ops->windows & w)
			emit_one(ps, &ps->p[i], w, seq, inv_id);
}

void probe_set_close(struct probe_set *ps)
{
	int i;

	for (i = ps->n - 1; i >= 0; i--) {
		struct probe *p = &ps->p[i];

		if (remote(p))
			agent_req(ps, AGENT_CLOSE, p->ops->name, 0, 0);
		else if (p->ops->close)
			p->ops->close(p);
	}
	ps->n = 0;
	if (ps->have_agent)
		agent_client_close(&ps->agent);
	ps->have_agent = 0;
}
