/* SPDX-License-Identifier: MIT */
/*
 * slurm-script.h - the sbatch array script of `cvmbench slurm`: one task
 * per shard, each running `cvmbench run --shard I/N --resume` into its own
 * database, and the merge of the shards' databases (a job that depends on
 * the array: sbatch --dependency=afterok).
 */
#ifndef CVMBENCH_SLURM_SCRIPT_H
#define CVMBENCH_SLURM_SCRIPT_H

#include <stdio.h>

struct slurm_job {
	const char *cvmbench;     /* absolute path of the cvmbench binary */
	const char *config;       /* absolute path of the config */
	const char *dir;          /* absolute path: shard databases, merged.db */
	const char *partition;    /* NULL: the cluster's default */
	const char *constraint;   /* NULL: none */
	const char *job_name;
	int shards;
	int max_parallel;         /* tasks at once (%K); 0: no limit */
	double wait_lock;         /* run --wait-lock; 0: none */
	const char *balance;      /* absolute path: run --balance DB; NULL: modulo shards */
};

int slurm_value_check(const char *what, const char *value, char *err, size_t len);
int slurm_script_write(FILE *f, const struct slurm_job *j, const char *version);

#endif
