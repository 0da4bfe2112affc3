/* SPDX-License-Identifier: MIT */
/*
 * probe-set.h - the probes of one cell, each run on its side: host probes
 * in cvmbench, instance probes through the agent protocol (for the native
 * and container backends an in-process agent; a VM backend will hand its
 * guest agent's link here). Start in config order, stop in reverse (probes
 * marked .outer, probe.h, start first and stop last), emit;
 * a window whose start or stop failed is a skip row, never numbers.
 */
#ifndef CVMBENCH_PROBE_SET_H
#define CVMBENCH_PROBE_SET_H

#include "agent-client.h"
#include "probe.h"
#include "sink.h"

#define PROBE_SET_MAX 16

/* A probe whose rows could not be written: the cell records an error. */
typedef void (*probe_set_fail_fn)(void *ctx, const char *probe, const char *msg);

struct probe_set {
	struct probe p[PROBE_SET_MAX];    /* instance probes: ops only, run by the agent */
	int n;
	struct agent_client agent;
	int have_agent;
	char vantage[256];                /* where the instance probes run (P.vantage) */
	int broken;                       /* the agent's link failed: nothing more is sent */
	char link_error[AGENT_LINE_MAX];  /* how it failed */
	probe_set_fail_fn fail;
	void *fail_ctx;
};

/**
 * probe_set_open() - open the probes named in @list (comma or space
 * separated) for the cell of @base (db, run, cell). A probe that is not
 * supported or does not open is a skip row; each opened one is noted as
 * cell_param "P.side" (host or instance). @inv_id maps a call's sequence
 * number to its invocation row, for rows the agent sends later.
 */
void probe_set_open(struct probe_set *ps, const char *list,
		    const struct probe_target *target, const struct sink *base,
		    agent_inv_id_fn inv_id, void *inv_ctx);
/** probe_set_start() - start every probe for window @w (@seq: the call). */
void probe_set_start(struct probe_set *ps, enum probe_window w, long seq);
/** probe_set_stop() - stop them in reverse order. */
void probe_set_stop(struct probe_set *ps, enum probe_window w, long seq);
/** probe_set_emit() - their rows; invocation rows with @inv_id. */
void probe_set_emit(struct probe_set *ps, enum probe_window w, long seq, int64_t inv_id);
/**
 * probe_set_broken() - 1 when the agent's link failed (a malformed line, a
 * closed channel): the cell cannot be measured further and must fail.
 */
int probe_set_broken(const struct probe_set *ps);
/** probe_set_windows() - the windows its open probes measure (PROBE_WINDOW_*, or'ed). */
int probe_set_windows(const struct probe_set *ps);
/** probe_set_close() - close every probe, end the agent. */
void probe_set_close(struct probe_set *ps);

#endif
