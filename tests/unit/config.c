// SPDX-License-Identifier: MIT
/*
 * tests/unit/config.c - config parsing and matrix expansion: what a good
 * config expands to, and the message of every kind of bad config (each
 * must name the file, the line and the key, with the allowed values).
 */
#include "config-test.h"

static void test_expansion(void)
{
	const char *text =
		"; a comment\n"
		"[defaults]\n"
		"size = test\n"
		"invocations = 3\n"
		"\n"
		"[experiment sweep]\n"
		"workload = null, hello-world\n"
		"threads = 1,2\n"
		"repeats = 2\n"
		"[experiment one]\n"
		"workload = hello-world\n"
		"size = small\n";
	struct config *cfg;
	struct cell *cells, *again;
	char err[1024];
	size_t n = 0, n2 = 0;

	tap_ok(load(text, &cfg, err, sizeof(err)) == 0, "a good config loads (%s)", err);
	tap_ok(config_expand(cfg, &cells, &n, err, sizeof(err)) == 0, "and expands");
	tap_ok(n == 9, "2 workloads x 2 threads x 2 repeats + 1 = 9 cells (got %zu)", n);
	tap_ok(!strcmp(cells[0].workload, "null") && cells[0].threads == 1 &&
	       cells[0].repeat_index == 0 && cells[1].threads == 2 &&
	       cells[1].repeat_index == 0 && !strcmp(cells[2].workload, "hello-world") &&
	       cells[4].repeat_index == 1 && !strcmp(cells[4].workload, "null") &&
	       cells[4].threads == 1,
	       "first key varies slowest within a repeat; repeats slowest of all");
	tap_ok(cells[0].invocations == 3 && !strcmp(cells[8].size, "small") &&
	       cells[8].invocations == 3 && cells[8].warmup == 2,
	       "defaults section, then built-in defaults, then the experiment's keys");
	tap_ok(!strncmp(cells[0].key, "sweep-", 6) && strlen(cells[0].key) == 14,
	       "cell key is experiment-8hex (%s)", cells[0].key);
	tap_ok(strcmp(cells[0].key, cells[1].key) != 0, "repeats have their own keys");
	tap_contains(cells[1].spec, "threads = 2\n", "spec holds every key verbatim");
	tap_contains(cells[2].spec, "experiment = sweep\n", "spec names the experiment");
	config_expand(cfg, &again, &n2, err, sizeof(err));
	tap_ok(n2 == n && !strcmp(again[5].key, cells[5].key),
	       "the same config gives the same keys");
	config_cells_free(again, n2);
	config_cells_free(cells, n);
	config_free(cfg);
}

/* Issue 15: the two sides of a pair run interleaved, A B A B, by repeat. */
static void test_interleaved(void)
{
	const char *text = "[experiment p]\nworkload = null\nbackend = qemu\n"
			   "confidential = none, model\nrepeats = 3\n";
	static const char *const want[6] = { "none", "model", "none", "model", "none", "model" };
	struct config *cfg;
	struct cell *cells;
	char err[1024];
	size_t n = 0, i;
	int good;

	load(text, &cfg, err, sizeof(err));
	config_expand(cfg, &cells, &n, err, sizeof(err));
	good = n == 6;
	for (i = 0; good && i < n; i++)
		good = !strcmp(cells[i].confidential, want[i]) &&
		       cells[i].repeat_index == (int)i / 2;
	tap_ok(good, "confidential = none, model with 3 repeats runs none model none model "
	       "none model, repeat 0 0 1 1 2 2 (%zu cells)", n);
	config_cells_free(cells, n);
	config_free(cfg);
}

static void test_errors(void)
{
	expect_error("", "t.ini: no [experiment NAME] section", "empty config");
	expect_error("[defaults]\nsize = test\n", "no [experiment NAME] section",
		     "defaults only");
	expect_error("[experiment a]\nworkload = null\nthis is not ini\n",
		     "t.ini:3: syntax error", "malformed line names the line");
	expect_error("[experiment a]\nworkload = null\ntreads = 2\n",
		     "t.ini:3: unknown key 'treads' in [experiment a]; keys are: workload, size",
		     "unknown key lists the keys");
	expect_error("[experiment a]\nworkload = null\nsize = huge\n",
		     "t.ini:3: bad value 'huge' for size: allowed test|small|large",
		     "bad enum value lists the allowed ones");
	expect_error("[experiment a]\nworkload = null\nthreads = two\n",
		     "t.ini:3: bad value 'two' for threads: an integer from 0 to 1024",
		     "non-numeric value");
	expect_error("[experiment a]\nworkload = null\ninvocations = 0\n",
		     "bad value '0' for invocations: an integer from 1",
		     "out-of-range value");
	expect_error("[experiment a]\nworkload = null, nope\n",
		     "t.ini:2: unknown workload 'nope': known functions are null, hello-world",
		     "unknown workload lists the functions");
	expect_error("[experiment a]\nworkload = nope\n",
		     "; services nginx-open, nginx-wrk, redis, pgbench",
		     "... and the services");
	expect_error("[experiment a]\nworkload = null\nprobes = latency, nosuch\n",
		     "t.ini:3: unknown probe 'nosuch': known probes are null, latency",
		     "unknown probe lists the probes");
	expect_error("[experiment a]\nworkload = null\nwait = sometimes\n",
		     "bad value 'sometimes' for wait: allowed spin, block, hybrid",
		     "bad wait mode");
	expect_error("[experiment a]\nworkload = null\nwait = hybrid:x\n",
		     "bad value 'hybrid:x' for wait", "bad hybrid spin time");
	expect_error("[experment a]\nworkload = null\n",
		     "t.ini:1: section [experment a]: expected [defaults] or [experiment NAME]",
		     "misspelt section");
	expect_error("[experiment A B]\nworkload = null\n",
		     "experiment name 'A B': use a-z", "bad experiment name");
	expect_error("workload = null\n[experiment a]\nworkload = null\n",
		     "t.ini:1: key 'workload' outside a section", "key before any section");
	expect_error("[experiment a]\nworkload = null\nsize = test\nsize = small\n",
		     "t.ini:4: size given twice in this section (first at line 3)",
		     "duplicate key");
	expect_error("[experiment a]\nsize = test\n",
		     "t.ini:1: [experiment a] has no workload: set it there or in [defaults]",
		     "missing required key");
	expect_error("[experiment a]\nworkload = null\ntimeout = 1, 2\n",
		     "t.ini:3: timeout takes one value, not a list", "list for a non-matrix key");
	expect_error("[experiment a]\nworkload = null\nthreads =\n",
		     "t.ini:3: empty value for threads", "empty value");
	expect_error("[experiment a]\nworkload = null\nprobes = ,,,\n",
		     "t.ini:3: empty value for probes", "a list of no probe is an empty value");
	expect_error("[experiment a]\nworkload = null\nseed = 99999999999\n",
		     "t.ini:3: bad value '99999999999' for seed: an integer from 0 to 2147483647",
		     "a range's bounds are printed as integers");
	expect_error("[experiment a]\nworkload = null\n[experiment a]\nsize = large\n",
		     "t.ini:3: section [experiment a] given twice (first at line 1)",
		     "repeated section");
}

static void test_long_values(void)
{
	const char *text =
		"[experiment a]\n"
		"description = free text, with commas\n"
		"workload = null,\n"
		"\thello-world\n"
		"threads = 1\n";
	char err[1024], longline[400];
	struct config *cfg;
	struct cell *cells;
	size_t n = 0;

	tap_ok(load(text, &cfg, err, sizeof(err)) == 0 &&
	       config_expand(cfg, &cells, &n, err, sizeof(err)) == 0 && n == 2,
	       "an indented line continues a list; commas in free text are text (%s)", err);
	if (n == 2) {
		config_cells_free(cells, n);
		config_free(cfg);
	}
	snprintf(longline, sizeof(longline), "[experiment a]\nworkload = null\n"
		 "description = %0300d\n", 0);
	expect_error(longline, "t.ini:3: line longer than", "an over-long line is an error");
}

static void test_missing_file(void)
{
	struct config *cfg;
	char err[512];

	tap_ok(config_load("/nonexistent/x.ini", &cfg, err, sizeof(err)) < 0,
	       "a missing file is an error");
	tap_contains(err, "cannot open config /nonexistent/x.ini: No such file",
		     "naming the file and why");
}

int main(void)
{
	tap_plan(37);
	test_expansion();
	test_interleaved();
	test_errors();
	test_long_values();
	test_missing_file();
	return tap_done();
}
