/* SPDX-License-Identifier: MIT */
/*
 * plan-config.h - the plan config (`cvmbench plan --config FILE`,
 * docs/capacity.md): a [plan] section (the trace, the TTL ladder searched
 * for the cold-start targets, the targets, a budget, seeds, bootstrap
 * resamples, the price, a mapping file) and one [platform NAME] section per
 * platform, naming its cells by backend, confidential type as obtained,
 * KSM setting and workloads; a CVM platform names its regular twin.
 */
#ifndef CVMBENCH_PLAN_CONFIG_H
#define CVMBENCH_PLAN_CONFIG_H

#include <stdint.h>

#define PLAN_MAX_PLATFORMS 16
#define PLAN_MAX_LADDER 48
#define PLAN_MAX_TARGETS 8
#define PLAN_MAX_WORKLOADS 64

struct plan_platform_conf {
	char name[48];
	char backend[32];        /* "" any */
	char conf[16];           /* none, model, sev-snp, tdx ("" any) */
	char ksm[16];            /* on, off, unchanged ("" any) */
	char twin[48];           /* its regular twin's name, or "" */
	int minmem;              /* memory = minmem: a VM's provisioned minimum
				  * (`cvmbench minmem`), not its measured host memory */
};

struct plan_config {
	const char *path;
	char trace[1024], format[16], map[1024];
	char workloads[PLAN_MAX_WORKLOADS][64];
	int nworkloads;
	int64_t run_id;          /* cells of this run only; 0: every run */
	double ladder[PLAN_MAX_LADDER];  /* TTLs (s), ascending */
	int nladder;
	double target[PLAN_MAX_TARGETS]; /* cold-start fractions */
	int ntarget;
	double budget;           /* bytes; 0: no budget question */
	int seeds, bootstrap;
	uint64_t seed;
	double price;
	struct plan_platform_conf plat[PLAN_MAX_PLATFORMS];
	int nplat;
};

/**
 * plan_config_read() - read @path into *@c (defaults first). Returns 0 or
 * EXIT_USAGE after naming the file, line and key that is wrong.
 */
int plan_config_read(const char *path, struct plan_config *c);

#endif
