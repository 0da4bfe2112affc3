// SPDX-License-Identifier: MIT
/*
 * fig-consolidation.c - `plot consolidation`: host memory (memory
 * cgroups, else summed PSS: memory-cells.h) of
 * the same number of instances hosted in different numbers of VMs (4 VMs x
 * 1 instance against 1 VM x 4 instances, configs/consolidation.ini), a
 * group of bars (ksm on, ksm off, model) per workload and layout; every
 * cell with 2 or more instances is taken. Data and script: memory-bars.c,
 * memory-bars.gp.
 */
#include "memory-bars.h"

static const struct memory_bars bars = {
	.label_sql = "printf('%s: %d instances in %d VM%s', wl, inst, vms,"
		     " CASE WHEN vms = 1 THEN '' ELSE 's' END)",
	.where_sql = "inst >= 2",
	.title = "Consolidation: host memory of instances in one VM or one VM each",
	.nodata = "no cell of 2 or more instances measured with the hostmem probe "
		  "(instances >= 2, probes = hostmem)",
};

/**
 * fig_consolidation_data() - write the consolidation figure's data (see
 * the top of this file); 0, -ENODATA or -errno.
 */
int fig_consolidation_data(struct figure_ctx *ctx)
{
	return memory_bars_data(ctx, &bars);
}

const struct figure figure_consolidation = {
	"consolidation", "host memory of N instances in N VMs against 1 VM, KSM on, "
	"off, model", "memory-bars.gp", fig_consolidation_data, 0,
};
