// SPDX-License-Identifier: MIT
/*
 * cell-check.c - whether a cell can run here: its backend (built in and
 * usable), its knobs' settings (knob.h supported()), and, separately, its
 * probes. `list` prints these reasons and `run` stores them as skips, so
 * the two can never disagree.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "cell-check.h"
#include "knob.h"
#include "probe.h"

int cell_runnable(const struct cell *c, char *why, size_t len)
{
	const struct backend_ops *be = backend_find(c->backend);

	why[0] = '\0';
	if (!be) {
		snprintf(why, len, "backend %s is not built in", c->backend);
		return 0;
	}
	if (c->vm_workloads[0] && !(be->flags & BACKEND_GUEST)) {
		snprintf(why, len, "vm-workloads = %s: only backend = qemu runs a workload per "
			 "VM (backend = %s)", c->vm_workloads, c->backend);
		return 0;
	}
	if (be->supported && !be->supported(c, why, len))
		return 0;
	if (!knobs_supported(c, why, len))
		return 0;
	why[0] = '\0';
	return 1;
}

int cell_probes_runnable(const struct cell *c, char *why, size_t len)
{
	char *list = strdup(c->probes), *tok, *save = NULL, pwhy[256];
	const struct probe_ops *ops;
	int ok = 1;

	why[0] = '\0';
	if (!list)
		return 1;
	for (tok = strtok_r(list, ", ", &save); tok && ok;
	     tok = strtok_r(NULL, ", ", &save)) {
		ops = probe_find(tok);
		if (!ops)
			snprintf(pwhy, sizeof(pwhy), "not built in");
		if (!ops || !probe_supported(ops, pwhy, sizeof(pwhy))) {
			snprintf(why, len, "probe %s: %s", tok, pwhy);
			ok = 0;
		}
	}
	free(list);
	return ok;
}
