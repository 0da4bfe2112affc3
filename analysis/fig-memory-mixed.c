// SPDX-License-Identifier: MIT
/*
 * fig-memory-mixed.c - `plot memory-mixed`, the study's Fig. 3 e: host
 * memory (memory cgroups, else summed PSS: memory-cells.h) of cells of several VMs with one instance each, a
 * group of bars (ksm on, ksm off, model) per VM count and functions: "3
 * VMs: hello-world" when every VM runs the cell's workload, "3 VMs:
 * hello-world+pyaes+compression" with vm-workloads (a workload per VM;
 * configs/memory-mixed.ini, docs/experiments/memory.md). Data and script:
 * memory-bars.c, memory-bars.gp.
 */
#include "memory-bars.h"

static const struct memory_bars bars = {
	.label_sql = "printf('%d VMs: %s', vms, COALESCE(vmwl, wl))",
	.where_sql = "vms >= 2 AND inst = vms",
	.title = "Host memory of several VMs, one function each",
	.nodata = "no cell of 2 or more VMs with one instance each measured with the "
		  "hostmem probe (vms = instances >= 2, probes = hostmem)",
};

/**
 * fig_memory_mixed_data() - write the memory-mixed figure's data (see the
 * top of this file); 0, -ENODATA or -errno.
 */
int fig_memory_mixed_data(struct figure_ctx *ctx)
{
	return memory_bars_data(ctx, &bars);
}

const struct figure figure_memory_mixed = {
	"memory-mixed", "Fig. 3 e: host memory of several VMs by function, KSM on, "
	"off, model", "memory-bars.gp", fig_memory_mixed_data, 0,
};
