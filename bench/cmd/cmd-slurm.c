// SPDX-License-Identifier: MIT
/*
 * cmd-slurm.c - `cvmbench slurm CONFIG --shards N [--partition P]
 * [--constraint C] [--dir DIR] [--balance DB] [--submit]`: write the sbatch
 * array script of the config in N shards to DIR/job.sbatch (slurm-script.c),
 * print it,
 * and with --submit hand it to sbatch: the array, then the merge job that
 * depends on it (afterok). sbatch runs as an argument vector in DIR (its
 * logs go there), never through a shell. Without Slurm the script is
 * written and printed all the same, and the command says so.
 */
#include <errno.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "command.h"
#include "config.h"
#include "exitcode.h"
#include "log.h"
#include "opts.h"
#include "runner.h"
#include "shard-split.h"
#include "slurm-script.h"
#include "version.h"

enum { SL_SHARDS, SL_PARTITION, SL_CONSTRAINT, SL_DIR, SL_SUBMIT, SL_NAME, SL_PARALLEL,
       SL_WAIT_LOCK, SL_BALANCE };

static const struct opt slurm_opts[] = {
	{ "shards", 1, "N", "array tasks: shard I/N of the config each (required)", SL_SHARDS },
	{ "partition", 1, "P", "sbatch --partition", SL_PARTITION },
	{ "constraint", 1, "C", "sbatch --constraint (node features)", SL_CONSTRAINT },
	{ "dir", 1, "DIR", "the script, the shards' databases and merged.db (default "
	  "cvmbench-slurm)", SL_DIR },
	{ "job-name", 1, "NAME", "sbatch --job-name (default cvmbench)", SL_NAME },
	{ "max-parallel", 1, "K", "at most K tasks at once (--array=1-N%K)", SL_PARALLEL },
	{ "wait-lock", 1, "SECONDS", "each task's run --wait-lock", SL_WAIT_LOCK },
	{ "balance", 1, "DB", "each task's run --balance DB: shards of equal expected time by "
	  "the cells' wall time in an earlier run of the config in DB (else index modulo N)",
	  SL_BALANCE },
	{ "submit", 0, NULL, "submit the array and the merge job with sbatch", SL_SUBMIT },
	OPT_END
};

struct slurm_args {
	struct slurm_job job;
	const char *dir;
	const char *balance;      /* --balance as given */
	size_t shards, parallel;
	int submit;
};

static int on_opt(void *ctx, int id, const char *arg)
{
	struct slurm_args *a = ctx;
	char err[512];

	switch (id) {
	case SL_SHARDS: return opts_count("slurm", "shards", arg, &a->shards);
	case SL_PARALLEL: return opts_count("slurm", "max-parallel", arg, &a->parallel);
	case SL_WAIT_LOCK: return opts_seconds("slurm", "--wait-lock", arg, &a->job.wait_lock);
	case SL_DIR: a->dir = arg; return 0;
	case SL_BALANCE: a->balance = arg; return 0;
	case SL_SUBMIT: a->submit = 1; return 0;
	case SL_PARTITION: a->job.partition = arg; break;
	case SL_CONSTRAINT: a->job.constraint = arg; break;
	default: a->job.job_name = arg; break;
	}
	if (!slurm_value_check(id == SL_PARTITION ? "--partition" : id == SL_CONSTRAINT ?
			       "--constraint" : "--job-name", arg, err, sizeof(err)))
		return 0;
	fprintf(stderr, "cvmbench slurm: %s\n", err);
	return 1;
}

/*
 * --balance: the database must give the split the tasks will compute (a
 * run of this config with cells that ended ok), checked here once rather
 * than in every task after it waited in the queue.
 */
static int check_balance(const char *path, const char *balance, const struct config *cfg,
			 const struct cell *cells, size_t n, size_t shards)
{
	struct runner_opts o = { .config_path = path, .db_path = "", .balance_db = balance,
				 .shard_i = 1, .shard_n = (int)shards };
	int *shard_of = calloc(n + 1, sizeof(*shard_of));
	int ret = shard_of ? shard_split(&o, cfg, cells, n, shard_of) : -ENOMEM;

	free(shard_of);
	return !ret ? EXIT_OK : ret == -EINVAL ? EXIT_USAGE : EXIT_FAILED;
}

/* The config's cells: it must load, and hold at least @shards cells. */
static int check_config(const char *path, size_t shards, const char *balance)
{
	struct config *cfg = NULL;
	struct cell *cells = NULL;
	char err[1600];
	size_t n = 0;
	int ret = EXIT_OK;

	if (config_load(path, &cfg, err, sizeof(err)) ||
	    config_expand(cfg, &cells, &n, err, sizeof(err))) {
		pr_err("%s", err);
		ret = EXIT_USAGE;
	} else if (shards > n) {
		pr_err("slurm: --shards %zu: %s has only %zu cells (a shard would be empty)",
		       shards, path, n);
		ret = EXIT_USAGE;
	} else if (balance) {
		ret = check_balance(path, balance, cfg, cells, n, shards);
	}
	config_cells_free(cells, n);
	config_free(cfg);
	return ret;
}

/*
 * --balance @bal must not be a database the job writes (DIR/shard-*.db,
 * DIR/merged.db): a split computed from it would change as the job runs,
 * and a requeued task would compute another one.
 */
static int balance_apart(const char *bal, const char *dir)
{
	size_t l = strlen(dir);
	const char *base = bal + l + 1;

	if (strncmp(bal, dir, l) || bal[l] != '/' || strchr(base, '/') ||
	    (fnmatch("shard-*-of-*.db", base, 0) && strcmp(base, "merged.db")))
		return EXIT_OK;
	pr_err("slurm: --balance %s is a database this job writes (a split computed from it "
	       "would change as the tasks run): copy it out of %s first", bal, dir);
	return EXIT_USAGE;
}

/* Absolute paths of cvmbench, the config, DIR (made if absent, 0755) and --balance. */
static int resolve(struct slurm_args *a, const char *config, char *exe, char *cfg,
		   char *dir, char *bal)
{
	ssize_t n = readlink("/proc/self/exe", exe, PATH_MAX - 1);

	if (n <= 0 || !realpath(config, cfg)) {
		pr_err("slurm: %s: %s", n <= 0 ? "/proc/self/exe" : config, strerror(errno));
		return EXIT_USAGE;
	}
	exe[n] = '\0';
	if (mkdir(a->dir, 0755) && errno != EEXIST) {
		pr_err("slurm: cannot make %s: %s", a->dir, strerror(errno));
		return EXIT_USAGE;
	}
	if (!realpath(a->dir, dir)) {
		pr_err("slurm: %s: %s", a->dir, strerror(errno));
		return EXIT_USAGE;
	}
	a->job.cvmbench = exe;
	a->job.config = cfg;
	a->job.dir = dir;
	if (a->balance && !realpath(a->balance, bal)) {
		pr_err("slurm: --balance %s: %s", a->balance, strerror(errno));
		return EXIT_USAGE;
	}
	a->job.balance = a->balance ? bal : NULL;
	return a->balance ? balance_apart(bal, dir) : EXIT_OK;
}

/* Write the script to @path (0755) and to stdout. */
static int write_script(const struct slurm_job *j, const char *path)
{
	FILE *f = fopen(path, "w");
	int ret;

	if (!f) {
		pr_err("slurm: cannot write %s: %s", path, strerror(errno));
		return EXIT_USAGE;
	}
	ret = slurm_script_write(f, j, cvmbench_version);
	if (fclose(f) || ret || chmod(path, 0755)) {
		pr_err("slurm: cannot write %s", path);
		return EXIT_FAILED;
	}
	ret = slurm_script_write(stdout, j, cvmbench_version);
	return ret || fflush(stdout) ? EXIT_FAILED : EXIT_OK;
}

/*
 * sbatch in $PATH into @buf, as an absolute path (a relative PATH entry,
 * "." or "bin", names the cwd's, and sbatch is run from the job
 * directory); -ENOENT when Slurm is not installed here.
 */
static int find_sbatch(char *buf, size_t len)
{
	const char *path = getenv("PATH");
	char cand[PATH_MAX];
	const char *p, *end;

	for (p = path ? path : "/usr/bin:/bin"; *p; p = *end ? end + 1 : end) {
		end = p + strcspn(p, ":");
		snprintf(cand, sizeof(cand), "%.*s/sbatch", (int)(end - p), p);
		if (end > p && !access(cand, X_OK) && len >= PATH_MAX && realpath(cand, buf))
			return 0;
	}
	return -ENOENT;
}

/* Wait for @pid: 0 and its exit status in @code, or -1 (waitpid failed, or a signal). */
static int reap(pid_t pid, int *code)
{
	int status;

	*code = -1;
	if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status))
		return -1;
	*code = WEXITSTATUS(status);
	return 0;
}

/* Run @argv in @dir; its stdout (a job id: digits before any ';') into @id. */
static int sbatch(char *const argv[], const char *dir, char *id, size_t len)
{
	int fds[2], code, err;
	ssize_t n;
	pid_t pid;

	if (pipe(fds))
		return -errno;
	pid = fork();
	if (pid < 0) {
		err = errno;
		close(fds[0]);
		close(fds[1]);
		pr_err("slurm: cannot start %s: %s", argv[0], strerror(err));
		return -err;
	}
	if (!pid) {
		dup2(fds[1], 1);
		close(fds[0]);
		if (!chdir(dir))
			execv(argv[0], argv);
		_exit(127);
	}
	close(fds[1]);
	n = read(fds[0], id, len - 1);
	close(fds[0]);
	id[n > 0 ? n : 0] = '\0';
	id[strspn(id, "0123456789")] = '\0';
	if (reap(pid, &code) || code || !*id) {
		pr_err("slurm: %s failed (exit %d)", argv[0], code);
		return -EIO;
	}
	return 0;
}

/* The array job, then the merge job after it (afterok). */
static int submit(const char *exe, const char *script, const char *dir)
{
	char id[64], merge_id[64], dep[96];
	char *array_argv[] = { (char *)exe, "--parsable", (char *)script, NULL };
	/* the merge needs no whole node: --oversubscribe overrides the script's --exclusive */
	char *merge_argv[] = { (char *)exe, "--parsable", "--array=0", "--oversubscribe", dep,
			       (char *)script, "merge", NULL };

	if (sbatch(array_argv, dir, id, sizeof(id)))
		return EXIT_FAILED;
	snprintf(dep, sizeof(dep), "--dependency=afterok:%s", id);
	if (sbatch(merge_argv, dir, merge_id, sizeof(merge_id))) {
		pr_err("slurm: the array is job %s, but its merge was not submitted: submit it "
		       "with: sbatch --array=0 --oversubscribe %s %s merge", id, dep, script);
		return EXIT_FAILED;
	}
	fprintf(stderr, "cvmbench slurm: submitted array job %s and merge job %s "
		"(afterok): %s/merged.db\n", id, merge_id, dir);
	printf("# array job %s, merge job %s\n", id, merge_id);
	return EXIT_OK;
}

/**
 * cmd_slurm() - `cvmbench slurm CONFIG --shards N ...` (top of this file).
 * Returns EXIT_OK, EXIT_USAGE (bad options or config, named) or
 * EXIT_FAILED (a write or sbatch failed; Slurm absent with --submit).
 */
int cmd_slurm(int argc, char **argv)
{
	static const char synopsis[] = "slurm CONFIG --shards N [options]";
	struct slurm_args a = { .dir = "cvmbench-slurm", .job.job_name = "cvmbench" };
	char exe[PATH_MAX], cfg[PATH_MAX], dir[PATH_MAX], script[PATH_MAX + 16], sb[PATH_MAX];
	char bal[PATH_MAX];
	int first, ret;

	ret = opts_parse(argc, argv, synopsis, slurm_opts, on_opt, &a, &first);
	if (ret)
		return ret == 1 ? EXIT_OK : EXIT_USAGE;
	if (argc - first != 1 || !a.shards || a.shards > 100000) {
		pr_err("slurm: needs one CONFIG and --shards N (1 to 100000)");
		return EXIT_USAGE;
	}
	a.job.shards = (int)a.shards;
	a.job.max_parallel = a.parallel > a.shards ? (int)a.shards : (int)a.parallel;
	ret = check_config(argv[first], a.shards, a.balance) ?:
	      resolve(&a, argv[first], exe, cfg, dir, bal);
	if (ret)
		return ret;
	snprintf(script, sizeof(script), "%s/job.sbatch", dir);
	ret = write_script(&a.job, script);
	if (ret)
		return ret;
	if (find_sbatch(sb, sizeof(sb))) {
		pr_warn("slurm: Slurm is not installed here (no sbatch in PATH): %s written and "
			"printed, not submitted; on the cluster: cvmbench slurm ... --submit, or "
			"jid=$(sbatch --parsable %s) && sbatch --array=0 --oversubscribe "
			"--dependency=afterok:$jid %s merge", script, script, script);
		return a.submit ? EXIT_FAILED : EXIT_OK;
	}
	if (!a.submit)
		fprintf(stderr, "cvmbench slurm: %s written; submit it with --submit\n", script);
	return a.submit ? submit(sb, script, dir) : EXIT_OK;
}
