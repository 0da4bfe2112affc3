// SPDX-License-Identifier: MIT
/*
 * config-diff.c - config_diff(), what run --resume names when a config is
 * not the run's: no difference for comments, blank lines, key order and
 * the spelling of a number; each differing, missing or extra key named with
 * its section and both values; a list compared element by element; a
 * section only one config has.
 */
#include <stdio.h>
#include <string.h>

#include "config-diff.h"
#include "config-test.h"

static const char base[] =
	"[defaults]\nsize = test\nprobes = latency\n"
	"[experiment warm]\nworkload = null, hello-world\nthreads = 1, 2\ninvocations = 40\n";

/* config_diff(base, @text): the count, and the text into @out. */
static int diff(const char *text, char *out, size_t len)
{
	struct config *a = NULL, *b = NULL;
	char err[512];
	int n = -1;

	if (!load(base, &a, err, sizeof(err)) && !load(text, &b, err, sizeof(err)))
		n = config_diff(a, b, out, len);
	else
		snprintf(out, len, "load: %s", err);
	config_free(a);
	config_free(b);
	return n;
}

static void same(const char *text, const char *what)
{
	char out[1024];
	int n = diff(text, out, sizeof(out));

	tap_ok(n == 0, "%s: no difference (%d: %s)", what, n, out);
}

static void differs(const char *text, int want_n, const char *want, const char *what)
{
	char out[1024];
	int n = diff(text, out, sizeof(out));

	tap_ok(n == want_n && strstr(out, want), "%s: %d difference(s), '%s' (got %d: %s)",
	       what, want_n, want, n, out);
}

int main(void)
{
	tap_plan(8);
	same(base, "the same text");
	same("# a comment\n[experiment warm]\ninvocations = 040\nthreads = 1,2\n\n"
	     "workload = null ,hello-world\n[defaults]\nprobes = latency\nsize = test\n",
	     "comments, order, blanks and 040 for 40");
	differs("[defaults]\nsize = test\nprobes = latency\n[experiment warm]\n"
		"workload = null, hello-world\nthreads = 1, 2\ninvocations = 41\n", 1,
		"[experiment warm] invocations: '40' vs '41'", "a number");
	differs("[defaults]\nsize = test\nprobes = latency\n[experiment warm]\n"
		"workload = null, hello-world\nthreads = 2, 1\ninvocations = 40\n", 1,
		"threads: '1, 2' vs '2, 1'", "a list in another order (another matrix order)");
	differs("[defaults]\nsize = test\nprobes = latency\n[experiment warm]\n"
		"workload = null, hello-world\ninvocations = 40\n", 1,
		"[experiment warm] threads: '1, 2' vs absent", "a key the config lacks");
	differs("[defaults]\nsize = test\nprobes = latency\nwarmup = 3\n[experiment warm]\n"
		"workload = null, hello-world\nthreads = 1, 2\ninvocations = 40\n", 1,
		"[defaults] warmup: absent vs '3'", "a key only the config has");
	differs("[defaults]\nsize = test\nprobes = latency\n[experiment warm]\n"
		"workload = null, hello-world\nthreads = 1, 2\ninvocations = 40\n"
		"[experiment more]\n", 1, "[experiment more] (section): absent vs 'present'",
		"an experiment of defaults only the config has");
	differs("[defaults]\nsize = small\nprobes = latency\n[experiment cold]\n"
		"workload = null, hello-world\nthreads = 1, 2\ninvocations = 40\n", 7,
		"[defaults] size: 'test' vs 'small'", "another experiment and size");
	return tap_failed ? 1 : 0;
}
