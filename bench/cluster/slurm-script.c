// SPDX-License-Identifier: MIT
/*
 * slurm-script.c - write the batch script of `cvmbench slurm` (see
 * slurm-script.h and docs/cluster.md). Every value from the command line
 * or the file system (paths, names) enters the shell part only through
 * shell_quote(); the few values of #SBATCH lines, which sbatch itself
 * reads and no shell does, are first held to a strict set of characters
 * (slurm_value_check()).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shell-quote.h"
#include "slurm-script.h"

/**
 * slurm_value_check() - 0 when @value (of option @what) may stand on an
 * #SBATCH line: 1 to 200 bytes of letters, digits and _ - . , : & | ! * ( )
 * [ ] (partition lists, constraint expressions); else -EINVAL with the
 * reason, naming the value, in @err.
 */
int slurm_value_check(const char *what, const char *value, char *err, size_t len)
{
	static const char ok[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
				 "0123456789_-.,:&|!*()[]";
	size_t n = strlen(value);

	if (n && n <= 200 && strspn(value, ok) == n)
		return 0;
	snprintf(err, len, "%s '%.*s': expected 1 to 200 letters, digits or _-.,:&|!*()[] "
		 "(it goes on an #SBATCH line)", what, n > 200 ? 200 : (int)n, value);
	return -EINVAL;
}

/* "NAME=WORD\n", WORD the shell word of @value; -ENOMEM. */
static int assign(FILE *f, const char *name, const char *value)
{
	char *q = shell_quote(value);

	if (!q)
		return -ENOMEM;
	fprintf(f, "%s=%s\n", name, q);
	free(q);
	return 0;
}

static void header(FILE *f, const struct slurm_job *j, const char *version)
{
	fprintf(f, "#!/bin/bash\n"
		"# Written by cvmbench slurm (%s): the config in %d shards, one array task\n"
		"# each (cvmbench run --shard I/%d --resume into its own database in the\n"
		"# directory below; a requeued task continues its shard), then the merge of\n"
		"# the shards' databases into merged.db, a job that depends on the array:\n"
		"#   jid=$(sbatch --parsable THIS) && sbatch --array=0 --oversubscribe "
		"--dependency=afterok:$jid THIS merge\n"
		"# (cvmbench slurm --submit does both). Host-vantage cells change host\n"
		"# settings (idle policy, KSM, THP, halt polling, cgroups) and need root and\n"
		"# whole nodes: each task takes its node exclusively (--exclusive), so no two\n"
		"# shards share a node (the merge job, given --oversubscribe, needs no whole\n"
		"# node); without root those cells are skipped with the reason.\n"
		"# A comparison is fair only between nodes alike: docs/cluster.md.\n",
		version, j->shards, j->shards);
	if (j->balance)
		fputs("# The shards are split by the cells' wall time in an earlier run of the\n"
		      "# config (run --balance, below): every task reads the same database and\n"
		      "# computes the same split; it must not change until every task has begun.\n", f);
	fprintf(f, "#SBATCH --job-name=%s\n", j->job_name);
	if (j->max_parallel)
		fprintf(f, "#SBATCH --array=1-%d%%%d\n", j->shards, j->max_parallel);
	else
		fprintf(f, "#SBATCH --array=1-%d\n", j->shards);
	fprintf(f, "#SBATCH --nodes=1\n#SBATCH --exclusive\n");
	if (j->partition)
		fprintf(f, "#SBATCH --partition=%s\n", j->partition);
	if (j->constraint)
		fprintf(f, "#SBATCH --constraint=%s\n", j->constraint);
}

/* The shard task, and the merge (argument "merge"). */
static void body(FILE *f, const struct slurm_job *j)
{
	fprintf(f, "shards=%d\n", j->shards);
	/*
	 * no array: "${a[@]}" of an empty array is an unbound variable under
	 * set -u in bash before 4.4 (RHEL 7); the option is written out or not
	 */
	if (j->wait_lock > 0)
		fprintf(f, "wait_lock='--wait-lock %g'\n", j->wait_lock);
	else
		fputs("wait_lock=''\n", f);
	fputs("db_of() { printf '%s/shard-%s-of-%s.db' \"$dir\" \"$1\" \"$shards\"; }\n"
	      "if [ \"${1:-}\" = merge ]; then\n"
	      "\tdbs=()\n"
	      "\tfor ((i = 1; i <= shards; i++)); do dbs+=(\"$(db_of $i)\"); done\n"
	      "\texec \"$cvmbench\" merge --out \"$dir/merged.db\" \"${dbs[@]}\"\n"
	      "fi\n"
	      "i=${SLURM_ARRAY_TASK_ID:?submit with sbatch: a task of the array runs one shard}\n"
	      "[ \"$(id -u)\" = 0 ] || echo \"cvmbench slurm: not root on $(hostname): cells that "
	      "change host settings are skipped, with the reason\" >&2\n"
	      "rc=0\n"
	      "\"$cvmbench\" run \"$config\" --db \"$(db_of \"$i\")\" --shard \"$i/$shards\" "
	      "--resume ", f);
	/* the split by cost: every task computes the same one from the same database */
	if (j->balance)
		fputs("--balance \"$balance\" ", f);
	fputs("$wait_lock || rc=$?\n"
	      "# 3: finished, some cells or probes skipped (recorded with the reason):\n"
	      "# the shard is done and the merge may run\n"
	      "[ $rc = 3 ] && rc=0\n"
	      "exit $rc\n", f);
}

/**
 * slurm_script_write() - write the batch script of job @j to @f (made by
 * cvmbench @version). Returns 0, -ENOMEM, or -EIO when @f failed.
 */
int slurm_script_write(FILE *f, const struct slurm_job *j, const char *version)
{
	header(f, j, version);
	fputs("set -u\n", f);
	if (assign(f, "cvmbench", j->cvmbench) || assign(f, "config", j->config) ||
	    assign(f, "dir", j->dir) || (j->balance && assign(f, "balance", j->balance)))
		return -ENOMEM;
	body(f, j);
	return ferror(f) ? -EIO : 0;
}
