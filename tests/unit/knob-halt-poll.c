// SPDX-License-Identifier: MIT
/*
 * tests/unit/knob-halt-poll.c - the halt-poll-ns knob and the halt-polling
 * and PLE facts of `cvmbench env`, on fake sysfs trees (CVMBENCH_SYSROOT):
 * the key's values; what the knob writes, that the old value is journalled
 * first and put back byte for byte by the cell's restore and, after a
 * kill -9, by journal_restore_all(); no kvm module or no parameter is a
 * skip with the reason. env: the captured machines A and B (their kvm
 * parameters read from the fixture files by this test), a tree with
 * kvm_intel's PLE parameters, and one without any kvm module ("unavailable"
 * with the reason). No root: a temporary directory.
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cell.h"
#include "env.h"
#include "fake-file.h"
#include "journal.h"
#include "knob-halt-poll.h"
#include "knob.h"
#include "sysroot.h"
#include "tap.h"
#include "test-journal.h"

extern const struct knob_ops knob_halt_poll;

#define KVMP "/sys/module/kvm/parameters/"
#define HP KVMP "halt_poll_ns"

static char tmp[PATH_MAX / 2], root[PATH_MAX / 2 + 8];

static const char *get(const char *rel)
{
	static char buf[256];

	return fake_file_get(root, rel, buf, sizeof(buf));
}

/* A fresh tree: 0 no kvm module, 1 kvm without halt_poll_ns, 2 with it (@hp). */
static void tree(int kvm, const char *hp)
{
	char cmd[3 * sizeof(root) + 128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s' && mkdir -p '%s/sys/module'%s%s%s", root, root,
		 kvm ? " '" : "", kvm ? root : "", kvm ? KVMP "'" : "");
	if (system(cmd))
		exit(1);
	if (kvm == 2)
		fake_file_put(root, HP, hp);
}

static void cell_init(struct cell *c, const char *ns)
{
	memset(c, 0, sizeof(*c));
	snprintf(c->halt_poll_ns, sizeof(c->halt_poll_ns), "%s", ns);
}

static void test_parse(void)
{
	static const char *const bad[] = { "-1", "1e5", " 5", "5 ", "4294967296", "200us",
					   "+5", "x" };
	long long ns = 7;
	size_t i, nbad = 0;

	tap_ok(!halt_poll_parse("unchanged", &ns) && ns == -1, "unchanged: -1");
	tap_ok(!halt_poll_parse("", &ns) && ns == -1, "empty (a zeroed cell): unchanged");
	tap_ok(!halt_poll_parse("0", &ns) && ns == 0, "0: polling off, a value");
	tap_ok(!halt_poll_parse("4294967295", &ns) && ns == 4294967295LL, "the largest uint");
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		nbad += halt_poll_parse(bad[i], &ns) == -EINVAL;
	tap_ok(nbad == sizeof(bad) / sizeof(bad[0]), "signs, units, spaces, too large: "
	       "-EINVAL (%zu of %zu)", nbad, sizeof(bad) / sizeof(bad[0]));
}

static void test_apply(void)
{
	struct cell c;
	char why[512] = "", desc[128] = "";

	tree(2, "200000\n");
	cell_init(&c, "050000");
	tap_ok(test_journal_reopen() == 0, "journal opens");
	tap_ok(knob_halt_poll.apply(&c, why, sizeof(why)) == 0, "050000 applies (%s)", why);
	tap_ok(!strcmp(get(HP), "50000"), "50000 written in decimal, not 050000 (octal to "
	       "the kernel) (%s)", get(HP));
	tap_ok(journal_open_entries() == 1, "one entry journalled");
	tap_ok(knob_halt_poll.verify(&c, why, sizeof(why)) == 0, "verify: it held");
	knob_halt_poll.describe(&c, desc, sizeof(desc));
	tap_ok(!strcmp(desc, "50000 (was 200000)"), "describe: %s", desc);
	fake_file_put(root, HP, "10\n");
	tap_ok(knob_halt_poll.verify(&c, why, sizeof(why)) == -EBUSY &&
	       strstr(why, "reads 10"), "verify: a change by someone else is named (%s)", why);
	knob_halt_poll.restore(&c);
	tap_ok(!strncmp(get(HP), "200000", 6), "restore: 200000 again (%s)", get(HP));
	tap_ok(journal_open_entries() == 0, "restore closes its entry");
	cell_init(&c, "200000");
	tap_ok(knob_halt_poll.apply(&c, why, sizeof(why)) == 0 && journal_open_entries() == 0,
	       "the value it already has: nothing written or journalled");
	knob_halt_poll.restore(&c);
	journal_close();
}

static void test_absent(void)
{
	struct cell c;
	char why[512] = "", path[PATH_MAX];

	tree(0, NULL);
	cell_init(&c, "0");
	tap_ok(!knob_halt_poll.supported(&c, why, sizeof(why)) &&
	       strstr(why, "kvm module is not loaded"), "no kvm module: not supported (%s)",
	       why);
	tap_ok(knob_halt_poll.apply(&c, why, sizeof(why)) == KNOB_SKIP, "... apply: a skip");
	tree(1, NULL);
	tap_ok(!knob_halt_poll.supported(&c, why, sizeof(why)) &&
	       strstr(why, "no halt_poll_ns parameter"), "kvm without the parameter: not "
	       "supported (%s)", why);
	tree(2, "200000\n");
	snprintf(path, sizeof(path), "%s" HP, root);
	chmod(path, 0444);
	cell_init(&c, "0");
	tap_ok(!knob_halt_poll.supported(&c, why, sizeof(why)) && strstr(why, "read-only") &&
	       strstr(why, "0444"), "a 0444 parameter (as on a kernel that fixes it): not "
	       "supported, also for root (%s)", why);
	cell_init(&c, "200000");
	tap_ok(knob_halt_poll.supported(&c, why, sizeof(why)), "... unless it already has the "
	       "value asked for");
	tree(1, NULL);
	cell_init(&c, "unchanged");
	tap_ok(knob_halt_poll.supported(&c, why, sizeof(why)) &&
	       knob_halt_poll.apply(&c, why, sizeof(why)) == 0,
	       "unchanged without the parameter: nothing to do, not a skip");
}

/* A child applies the knob and is killed; the parent restores. */
static void test_kill(void)
{
	struct cell c;
	char why[512];
	int st = 0, failed = -1, n;
	pid_t pid;

	tree(2, "200000\n");
	pid = fork();
	if (pid == 0) {
		cell_init(&c, "77777");
		if (test_journal_reopen() || knob_halt_poll.apply(&c, why, sizeof(why)))
			_exit(3);
		raise(SIGKILL);
	}
	waitpid(pid, &st, 0);
	tap_ok(WIFSIGNALED(st) && !strcmp(get(HP), "77777"), "a child set 77777 and was "
	       "killed");
	n = test_journal_reopen() ? -1 : journal_restore_all(NULL, &failed);
	tap_ok(n == 1 && failed == 0, "restore after kill -9 undoes 1 entry (%d, %d failed)",
	       n, failed);
	tap_ok(!strncmp(get(HP), "200000", 6), "halt_poll_ns is 200000 again (%s)", get(HP));
	journal_close();
}

/* env: the value of fact @key, from a fresh collection. */
static char fact_val[256];

static void collect(void *ctx, const char *key, const char *value, const char *source)
{
	(void)source;
	if (!strcmp(key, (const char *)ctx))
		snprintf(fact_val, sizeof(fact_val), "%s", value);
}

static const char *fact(const char *key)
{
	snprintf(fact_val, sizeof(fact_val), "(missing)");
	env_collect(collect, (void *)key);
	return fact_val;
}

/* The first line of @rel under the root, read here with stdio. */
static const char *line_of(const char *rel)
{
	static char buf[256];

	snprintf(buf, sizeof(buf), "%s", get(rel));
	buf[strcspn(buf, "\n")] = '\0';
	return buf;
}

static void is(const char *got, const char *want, const char *what)
{
	if (!tap_ok(!strcmp(got, want), "%s", what))
		printf("#   got '%s', want '%s'\n", got, want);
}

/* A captured machine: kvm's halt-polling parameters as its files say, no PLE module. */
static void test_env_machine(const char *name)
{
	const char *dir = getenv("CVMBENCH_FIXTURES");
	char rel[PATH_MAX], what[128];

	snprintf(rel, sizeof(rel), "%s/%s/root", dir ? dir : "tests/fixtures/machines", name);
	if (!realpath(rel, root)) {
		printf("Bail out! no fixture %s (run from the source tree)\n", rel);
		exit(1);
	}
	setenv(SYSROOT_ENV, root, 1);
	snprintf(what, sizeof(what), "%s: kvm.halt_poll_ns as captured", name);
	is(fact("kvm.halt_poll_ns"), line_of(HP), what);
	snprintf(what, sizeof(what), "%s: kvm.halt_poll_ns_grow as captured", name);
	is(fact("kvm.halt_poll_ns_grow"), line_of(KVMP "halt_poll_ns_grow"), what);
	snprintf(what, sizeof(what), "%s: kvm.halt_poll_ns_shrink as captured", name);
	is(fact("kvm.halt_poll_ns_shrink"), line_of(KVMP "halt_poll_ns_shrink"), what);
	snprintf(what, sizeof(what), "%s: no kvm_intel: ple_window unavailable, why", name);
	is(fact("kvm.intel.ple_window"), "unavailable: kvm_intel not loaded", what);
	snprintf(what, sizeof(what), "%s: no kvm_amd: pause_filter_thresh unavailable", name);
	is(fact("kvm.amd.pause_filter_thresh"), "unavailable: kvm_amd not loaded", what);
}

/* Fake trees: kvm_intel with PLE, kvm_amd without pause_filter_thresh, no kvm. */
static void test_env_fake(void)
{
	char cmd[3 * sizeof(root) + 128];

	snprintf(root, sizeof(root), "%s/root", tmp);
	setenv(SYSROOT_ENV, root, 1);
	tree(2, "0\n");
	snprintf(cmd, sizeof(cmd), "mkdir -p '%s/sys/module/kvm_intel/parameters' "
		 "'%s/sys/module/kvm_amd/parameters'", root, root);
	if (system(cmd))
		exit(1);
	fake_file_put(root, "/sys/module/kvm_intel/parameters/ple_gap", "128\n");
	fake_file_put(root, "/sys/module/kvm_intel/parameters/ple_window", "4096\n");
	fake_file_put(root, "/sys/module/kvm_amd/parameters/pause_filter_count", "3000\n");
	is(fact("kvm.intel.ple_gap"), "128", "kvm_intel: ple_gap read");
	is(fact("kvm.intel.ple_window"), "4096", "kvm_intel: ple_window read");
	is(fact("kvm.amd.pause_filter_count"), "3000", "kvm_amd: pause_filter_count read");
	is(fact("kvm.amd.pause_filter_thresh"), "unavailable: no such parameter in this "
	   "kernel", "kvm_amd without pause_filter_thresh: unavailable, why");
	is(fact("kvm.halt_poll_ns"), "0", "halt_poll_ns 0 (polling off) is a value");
	tree(0, NULL);
	is(fact("kvm.halt_poll_ns"), "unavailable: kvm not loaded", "no kvm module: "
	   "halt_poll_ns unavailable, why");
	is(fact("kvm.halt_poll_ns_grow"), "unavailable: kvm not loaded", "... and "
	   "halt_poll_ns_grow");
}

int main(void)
{
	char path[PATH_MAX], cmd[PATH_MAX + 16];

	snprintf(tmp, sizeof(tmp), "/tmp/knob-halt-poll-XXXXXX");
	if (!mkdtemp(tmp))
		return 1;
	snprintf(root, sizeof(root), "%s/root", tmp);
	snprintf(path, sizeof(path), "%s/state", tmp);
	setenv("CVMBENCH_STATE_DIR", path, 1);
	snprintf(path, sizeof(path), "%s/lock", tmp);
	setenv("CVMBENCH_TEST_HOST_LOCK", path, 1);
	setenv(SYSROOT_ENV, root, 1);
	tap_plan(41);
	test_parse();
	test_apply();
	test_absent();
	test_kill();
	test_env_fake();
	test_env_machine("A-kvm-haltpoll");
	test_env_machine("B-pvm-no-cpuidle");
	unsetenv(SYSROOT_ENV);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmp);
	return system(cmd) ? 1 : tap_done();
}
