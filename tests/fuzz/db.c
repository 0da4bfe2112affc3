// SPDX-License-Identifier: MIT
/*
 * tests/fuzz/db.c - libFuzzer target for the readers of a results database,
 * modelled on SQLite's dbsqlfuzz and built with ASan and UBSan by
 * `make fuzz`. An input is the bytes of a database file (libFuzzer's
 * mutations are page-level ones), optionally followed by FUZZ_SQL_MARK and
 * SQL text that a plain connection applies to the file first (SQL-level
 * mutations: odd values, rows gone, rows added). The file is written to a
 * private temporary directory and every read-only command runs on it
 * in-process, through its entry function with an argv as main() passes
 * it: show --run all (text and --json: every run), each show --table (text
 * or --json), export (--csv into the directory, --json), compare (text,
 * --json). Each opens the file anew, as the command does. report and plot
 * would run gnuplot, so their part without it is called directly: every
 * figure's data function (what plot writes for gnuplot), the captions'
 * sources, and report's Markdown and HTML pages (report_write()).
 * Standard output goes to /dev/null; no process is started. Any crash,
 * leak or sanitizer report is a finding (its directory, with the database
 * as it was read, stays in $TMPDIR). SQLite's allocations go through
 * ASan too; a smaller quarantine (__asan_default_options()) halves the
 * time an input takes.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cjson/cJSON.h>
#include <sqlite3.h>

#include "analysis.h"
#include "command.h"
#include "figures.h"
#include "idle-tables.h"
#include "log.h"
#include "out-file.h"
#include "report.h"
#include "report-source.h"
#include "report-summary.h"
#include "summary.h"

/* what separates the database image from the SQL applied to it */
#define FUZZ_SQL_MARK "\n--cvmbench-fuzz-sql--\n"
/* the SQL stage's budget: progress callbacks of 1000 VM steps each */
#define FUZZ_SQL_STEPS 200

static char tmp_dir[PATH_MAX], db_path[PATH_MAX + 16], out_path[PATH_MAX + 16];

/* The commands, as main() would call them: "@db" and "@out" are replaced. */
static const char *const commands[][10] = {
	{ "show", "--db", "@db", "--run", "all" },
	{ "show", "--db", "@db", "--run", "all", "--json" },
	{ "show", "--db", "@db", "--table", "overhead" },
	{ "show", "--db", "@db", "--table", "vmexit" },
	{ "show", "--db", "@db", "--table", "idle-policy", "--json" },
	{ "show", "--db", "@db", "--table", "exitcost" },
	{ "show", "--db", "@db", "--table", "memory", "--json" },
	{ "export", "--csv", "--db", "@db", "--out", "@out/x.csv" },
	{ "export", "--json", "--db", "@db" },
	{ "compare", "--db", "@db", "--resamples", "20" },
	{ "compare", "--db", "@db", "--json", "--resamples", "20", "--allow-mismatch" },
};

#define N_COMMANDS (sizeof(commands) / sizeof(commands[0]))

static void run_command(const char *const *words)
{
	char *argv[10], out[PATH_MAX + 32];
	int argc;

	for (argc = 0; argc < 9 && words[argc]; argc++) {
		argv[argc] = (char *)words[argc];
		if (!strcmp(words[argc], "@db"))
			argv[argc] = db_path;
		else if (!strncmp(words[argc], "@out", 4)) {
			snprintf(out, sizeof(out), "%s%s", out_path, words[argc] + 4);
			argv[argc] = out;
		}
	}
	argv[argc] = NULL;
	if (!strcmp(argv[0], "show"))
		cmd_show(argc, argv);
	else if (!strcmp(argv[0], "export"))
		cmd_export(argc, argv);
	else
		cmd_compare(argc, argv);
}

/* One figure's data (plot's part before gnuplot) and its caption's source. */
static void figure_data(struct report_fig *rf, struct analysis *an, int64_t run_id)
{
	struct figure_ctx *ctx = calloc(1, sizeof(*ctx));
	int ret;

	if (!ctx || !(ctx->data = fopen("/dev/null", "w"))) {
		free(ctx);
		snprintf(rf->why, sizeof(rf->why), "no memory");
		return;
	}
	ctx->h = an->h;
	ctx->run_id = run_id;
	ret = rf->fig->write_data(ctx);
	fclose(ctx->data);
	rf->drawn = !ret && !ctx->vars_err;
	rf->failed = !rf->drawn && ret != -ENODATA;
	if (rf->drawn)
		report_source_text(an->h, ctx, rf->source, sizeof(rf->source));
	else
		snprintf(rf->why, sizeof(rf->why), "%s", ret == -ENODATA ? ctx->why : "failed");
	free(ctx);
}

/* report's pages, as cmd-report.c's report() builds them, figures unrun. */
static void report_pages(struct analysis *an, int64_t run_id)
{
	struct report_fig *figs;
	struct out_dir dir;
	cJSON *top, *run;
	size_t i, n;

	for (n = 0; figure_at(n); n++)
		;
	figs = calloc(n, sizeof(*figs));
	for (i = 0; figs && i < n; i++) {
		figs[i].fig = figure_at(i);
		if (run_id >= 0)
			figure_data(&figs[i], an, run_id);
	}
	top = summary_build(an->db, run_id);
	run = cJSON_GetObjectItem(top, "run");
	if (run_id >= 0 && cJSON_IsObject(run)) {
		cJSON_AddItemToObject(run, "tables", idle_tables_json(an->h, run_id));
		cJSON_AddItemToObject(run, "experiments", report_summary_json(an->h, run_id, run));
	}
	if (figs && top && !out_dir_open(&dir, out_path, 1)) {
		report_write(&dir, "index.md", &report_md_ops, top, figs, n);
		report_write(&dir, "index.html", &report_html_ops, top, figs, n);
		out_dir_close(&dir);
	}
	cJSON_Delete(top);
	free(figs);
}

static void report_run(void)
{
	struct analysis an;
	int64_t run_id = -1;

	if (analysis_open(&an, db_path))
		return;
	if (analysis_run_pick(&an, NULL, &run_id) != -EINVAL)
		report_pages(&an, run_id);
	analysis_close(&an);
}

/*
 * The SQL stage may change the file's rows and schema, nothing else: no
 * other file (ATTACH, VACUUM INTO) and no extension.
 */
static int sql_auth(void *ctx, int action, const char *a, const char *b,
		    const char *schema, const char *trigger)
{
	static const char *const pragmas[] = { "user_version", "application_id",
		"journal_mode", "writable_schema", "foreign_keys" };
	size_t i;

	(void)ctx; (void)schema; (void)trigger;
	if (action == SQLITE_ATTACH || action == SQLITE_DETACH)
		return SQLITE_DENY;
	if (action == SQLITE_FUNCTION)
		return b && !strcasecmp(b, "load_extension") ? SQLITE_DENY : SQLITE_OK;
	if (action != SQLITE_PRAGMA)
		return SQLITE_OK;
	for (i = 0; a && i < sizeof(pragmas) / sizeof(pragmas[0]); i++)
		if (!strcasecmp(a, pragmas[i]))
			return SQLITE_OK;
	return SQLITE_DENY;
}

static int sql_progress(void *ctx)
{
	return ++*(int *)ctx > FUZZ_SQL_STEPS;
}

/* Apply @sql to the file; its errors only end the stage. */
static void sql_apply(const char *sql)
{
	sqlite3 *h = NULL;
	int steps = 0;

	if (sqlite3_open_v2(db_path, &h, SQLITE_OPEN_READWRITE, NULL) == SQLITE_OK) {
		sqlite3_limit(h, SQLITE_LIMIT_ATTACHED, 0);
		sqlite3_limit(h, SQLITE_LIMIT_LENGTH, 100000);
		sqlite3_set_authorizer(h, sql_auth, NULL);
		sqlite3_progress_handler(h, 1000, sql_progress, &steps);
		sqlite3_exec(h, sql, NULL, NULL, NULL);
	}
	sqlite3_close(h);
}

/* Remove what the last input left: the directory's files, the database's. */
static void clean_dir(const char *path)
{
	DIR *d = opendir(path);
	struct dirent *e;

	while (d && (e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			unlinkat(dirfd(d), e->d_name, 0);
	if (d)
		closedir(d);
}

static int write_db(const uint8_t *data, size_t size)
{
	int fd;
	ssize_t n = 0;

	clean_dir(out_path);
	clean_dir(tmp_dir);
	fd = open(db_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0)
		return -errno;
	if (size)
		n = write(fd, data, size);
	close(fd);
	return n == (ssize_t)size ? 0 : -EIO;
}

static void cleanup(void)
{
	clean_dir(out_path);
	rmdir(out_path);
	clean_dir(tmp_dir);
	rmdir(tmp_dir);
}

/* The share directory (analysis/views.sql): the tree above build-fuzz/. */
static void find_share_dir(void)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	char *slash;

	if (getenv("CVMBENCH_SHARE_DIR") || n <= 0)
		return;
	exe[n] = '\0';
	for (int i = 0; i < 2 && (slash = strrchr(exe, '/')); i++)
		*slash = '\0';
	setenv("CVMBENCH_SHARE_DIR", exe[0] ? exe : "/", 1);
}

/* Freed memory is reused sooner: fewer fresh pages to fault in per input. */
const char *__asan_default_options(void)
{
	return "quarantine_size_mb=16";
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *tmp = getenv("TMPDIR");
	int fd = open("/dev/null", O_WRONLY);

	(void)argc; (void)argv;
	snprintf(tmp_dir, sizeof(tmp_dir), "%s/cvmbench-fuzz-db.XXXXXX", tmp ? tmp : "/tmp");
	if (fd < 0 || dup2(fd, STDOUT_FILENO) < 0 || !mkdtemp(tmp_dir)) {
		perror("fuzz-db: setting up");
		abort();
	}
	close(fd);
	snprintf(db_path, sizeof(db_path), "%s/fuzz.db", tmp_dir);
	snprintf(out_path, sizeof(out_path), "%s/out", tmp_dir);
	if (mkdir(out_path, 0700)) {
		perror("fuzz-db: setting up");
		abort();
	}
	atexit(cleanup);
	find_share_dir();
	log_set_level(LOG_ERR);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *mark = memmem(data, size, FUZZ_SQL_MARK, strlen(FUZZ_SQL_MARK));
	size_t db_size = mark ? (size_t)(mark - data) : size, i;
	char *sql = NULL;

	if (mark)
		sql = strndup((const char *)mark + strlen(FUZZ_SQL_MARK),
			      size - db_size - strlen(FUZZ_SQL_MARK));
	if (write_db(data, db_size)) {
		free(sql);
		return 0;
	}
	if (sql)
		sql_apply(sql);
	free(sql);
	for (i = 0; i < N_COMMANDS; i++)
		run_command(commands[i]);
	report_run();
	return 0;
}
