// SPDX-License-Identifier: MIT
/*
 * cell-check.c - whether a cell can run here: its backend (built in and
 * usable), its knobs' settings (knob.h supported()), and, separately, its
 * probes (probe_cell_supported(), which the probe set asks too). `list`
 * prints these reasons and `run` stores them as skips, so the two can
 * never disagree.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "cell-check.h"
#include "cell-svc.h"
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
	if (!svc_cell_runnable(c, why, len))
		return 0;
	if (c->seed_layer[0] && strcmp(c->seed_layer, "none") &&
	    !(be->flags & (BACKEND_SEED | BACKEND_SEED_LAYER))) {
		snprintf(why, len, "seed-layer = %s: backend = %s does not fork instances from "
			 "a seed (it would ignore it)", c->seed_layer, c->backend);
		return 0;
	}
	if (be->supported && !be->supported(c, why, len))
		return 0;
	if (!knobs_supported(c, why, len))
		return 0;
	why[0] = '\0';
	return 1;
}

size_t cell_probe_skips(const struct cell *c, cell_probe_skip_fn fn, void *ctx)
{
	char *list = strdup(c->probes), *tok, *save = NULL, why[256], awhy[256];
	const char *accel = backend_cell_accel(c, awhy, sizeof(awhy));
	size_t n = 0;

	if (!list)
		return 0;
	for (tok = strtok_r(list, ", ", &save); tok; tok = strtok_r(NULL, ", ", &save)) {
		why[0] = '\0';
		if (probe_cell_supported(probe_find(tok), c, accel, why, sizeof(why)))
			continue;
		fn(ctx, tok, why);
		n++;
	}
	free(list);
	return n;
}
