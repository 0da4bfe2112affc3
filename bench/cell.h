/* SPDX-License-Identifier: MIT */
/*
 * cell.h - one point of an experiment matrix, fully expanded. Every field
 * is a config key (see config-keys.c); spec holds them all as text.
 * Cells come from config_expand() and go with config_cells_free().
 */
#ifndef CVMBENCH_CELL_H
#define CVMBENCH_CELL_H

#include <stdint.h>

struct cell {
	char key[112];            /* "<experiment>-<8 hex>": stable, for --only */
	char experiment[64];
	char workload[48];
	char size[8];             /* test | small | large */
	char backend[16];         /* native */
	int threads;              /* 0 = as many as the instance has CPUs */
	char wait[32];            /* spin | block | hybrid[:US] */
	char idle[32];            /* default | hlt | poll | haltpoll:NS (knob-idle.c) */
	char mode[8];             /* warm | cold */
	int instances;
	int invocations;          /* measured invocations */
	int warmup;               /* warm-up invocations (recorded as phase warmup) */
	int repeats;              /* how many times the cell is repeated */
	int repeat_index;         /* 0 .. repeats-1 */
	long long seed;
	char probes[256];         /* comma list of probe names */
	double timeout;           /* seconds per invocation */
	/* OCI backends (runc, crun): bench/backends/backend-oci.c, bench/oci-*.c */
	char runtime_path[256];   /* "" = runc / crun from PATH */
	int cpus;                 /* CPUs the runtime may use; 0 = all */
	int cpu_quota;            /* % of a period for the runtime's cgroup */
	int corunner;             /* CPU-bound threads beside the starts */
	int parallel;             /* simultaneous cold starts */
	char seccomp[4];          /* on | off */
	char netns[8];            /* new | shared */
	char cgroups[4];          /* on | off */
	char favordynmods[8];     /* default | on | off */
	double start_timeout;     /* seconds an instance start may take; 0 = timeout */
	char *spec;               /* `key = value` lines, verbatim; malloc'd */
	int index;                /* position in the expanded matrix */
};

#endif
