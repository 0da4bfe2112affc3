// SPDX-License-Identifier: MIT
/*
 * tests/unit/knob-memory.c - the ksm and thp knobs on fake sysfs trees
 * (CVMBENCH_SYSROOT): what each writes, that each file is journalled with
 * its old value before the write, that the cell's restore and, after a
 * kill -9, journal_restore_all() put back every file byte for byte; KSM
 * stopped with nothing merged is left alone by ksm = off; KSM or THP
 * absent is a skip with the reason. No root: a temporary directory.
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
#include "journal.h"
#include "knob.h"
#include "fake-file.h"
#include "tap.h"
#include "test-journal.h"

extern const struct knob_ops knob_ksm, knob_thp;

static char tmp[PATH_MAX / 2], root[PATH_MAX / 2 + 8];

static void put(const char *rel, const char *s)
{
	fake_file_put(root, rel, s);
}

static const char *get(const char *rel)
{
	static char buf[256];
	char path[PATH_MAX];
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "%s%s", root, rel);
	f = fopen(path, "r");
	n = f ? fread(buf, 1, sizeof(buf) - 1, f) : 0;
	if (f)
		fclose(f);
	buf[n] = '\0';
	return f ? buf : "(absent)";
}

#define KSM "/sys/kernel/mm/ksm/"
#define THP "/sys/kernel/mm/transparent_hugepage/enabled"

/* A fresh tree: KSM (if @ksm) with @run and @shared, THP (if @thp). */
static void tree(int ksm, const char *run, const char *shared, int thp)
{
	char cmd[3 * sizeof(root) + 128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s' && mkdir -p '%s" KSM "' '%s/sys/kernel/mm/"
		 "transparent_hugepage'", root, root, root);
	if (system(cmd))
		exit(1);
	if (ksm) {
		put(KSM "run", run);
		put(KSM "pages_to_scan", "100\n");
		put(KSM "sleep_millisecs", "20\n");
		put(KSM "pages_shared", shared);
	} else {
		snprintf(cmd, sizeof(cmd), "rmdir '%s" KSM "'", root);
		if (system(cmd))
			exit(1);
	}
	if (thp)
		put(THP, "always [madvise] never\n");
}

static void cell_init(struct cell *c, const char *ksm, int pts, int sleep_ms,
		      const char *thp)
{
	memset(c, 0, sizeof(*c));
	snprintf(c->ksm, sizeof(c->ksm), "%s", ksm);
	snprintf(c->thp, sizeof(c->thp), "%s", thp);
	c->ksm_pages_to_scan = pts;
	c->ksm_sleep_ms = sleep_ms;
}

static void test_ksm_on(void)
{
	struct cell c;
	char why[512] = "", desc[256] = "";

	tree(1, "0\n", "0\n", 1);
	cell_init(&c, "on", 5000, 10, "unchanged");
	tap_ok(test_journal_reopen() == 0, "journal opens");
	tap_ok(knob_ksm.apply(&c, why, sizeof(why)) == 0, "ksm = on applies (%s)", why);
	tap_ok(!strcmp(get(KSM "run"), "1") && !strcmp(get(KSM "pages_to_scan"), "5000") &&
	       !strcmp(get(KSM "sleep_millisecs"), "10"),
	       "run 1, pages_to_scan 5000, sleep_millisecs 10 written");
	tap_ok(journal_open_entries() == 3, "three entries journalled (%zu)",
	       journal_open_entries());
	knob_ksm.describe(&c, desc, sizeof(desc));
	tap_contains(desc, "run 1 (was 0)", "describe says what it changed from what");
	knob_ksm.restore(&c);
	tap_ok(!strcmp(get(KSM "run"), "0\n") || !strcmp(get(KSM "run"), "0"),
	       "restore: run 0 again");
	tap_ok(!strcmp(get(KSM "pages_to_scan"), "100") &&
	       !strcmp(get(KSM "sleep_millisecs"), "20"), "restore: 100 and 20 again");
	tap_ok(journal_open_entries() == 0, "restore closes its entries");
	journal_close();
}

static void test_ksm_off(void)
{
	struct cell c;
	char why[512] = "";

	tree(1, "1\n", "345\n", 1);
	cell_init(&c, "off", 0, 0, "unchanged");
	tap_ok(test_journal_reopen() == 0 && knob_ksm.apply(&c, why, sizeof(why)) == 0,
	       "ksm = off applies (%s)", why);
	tap_ok(!strcmp(get(KSM "run"), "0"), "run = 2 then 0: reads 0 (%s)", get(KSM "run"));
	tap_ok(journal_open_entries() == 1, "run journalled once, with its first value");
	knob_ksm.restore(&c);
	tap_ok(!strcmp(get(KSM "run"), "1"), "restore: run 1 again, not 2 (%s)",
	       get(KSM "run"));
	tree(1, "0\n", "0\n", 1);
	tap_ok(knob_ksm.apply(&c, why, sizeof(why)) == 0 && journal_open_entries() == 0 &&
	       !strcmp(get(KSM "run"), "0\n"),
	       "ksm = off with KSM stopped and nothing shared writes nothing");
	knob_ksm.restore(&c);
	journal_close();
}

static void test_absent(void)
{
	struct cell c;
	char why[512] = "";

	tree(0, NULL, NULL, 0);
	cell_init(&c, "on", 0, 0, "never");
	tap_ok(!knob_ksm.supported(&c, why, sizeof(why)), "no KSM: not supported");
	tap_contains(why, "KSM is not built", "the reason says KSM is not built");
	tap_ok(knob_ksm.apply(&c, why, sizeof(why)) == KNOB_SKIP, "no KSM: apply is a skip");
	tap_ok(!knob_thp.supported(&c, why, sizeof(why)), "no THP: not supported");
	tap_contains(why, "no transparent hugepages", "the reason says no THP");
	cell_init(&c, "unchanged", 0, 0, "unchanged");
	tap_ok(knob_ksm.supported(&c, why, sizeof(why)) &&
	       knob_ksm.apply(&c, why, sizeof(why)) == 0,
	       "no KSM, ksm = unchanged: nothing to do, not a skip");
}

static void test_thp(void)
{
	struct cell c;
	char why[512] = "";

	tree(1, "0\n", "0\n", 1);
	cell_init(&c, "unchanged", 0, 0, "never");
	tap_ok(test_journal_reopen() == 0 && knob_thp.apply(&c, why, sizeof(why)) == 0,
	       "thp = never applies (%s)", why);
	tap_ok(!strcmp(get(THP), "never"), "the word 'never' is written (%s)", get(THP));
	knob_thp.restore(&c);
	tap_ok(!strcmp(get(THP), "madvise"), "restore writes the bracketed word 'madvise' "
	       "back, not the whole line (%s)", get(THP));
	put(THP, "always [madvise] never\n");
	cell_init(&c, "unchanged", 0, 0, "madvise");
	tap_ok(knob_thp.apply(&c, why, sizeof(why)) == 0 && journal_open_entries() == 0,
	       "thp = madvise when already madvise: nothing written or journalled");
	knob_thp.restore(&c);
	put(THP, "[always] never\n");
	cell_init(&c, "unchanged", 0, 0, "madvise");
	tap_ok(knob_thp.apply(&c, why, sizeof(why)) == KNOB_SKIP, "a mode the kernel does "
	       "not offer is a skip");
	tap_contains(why, "not offered", "the reason names it");
	journal_close();
}

/* A child applies both knobs and is killed; the parent restores. */
static void test_kill(void)
{
	struct cell c;
	char why[512];
	int st = 0, failed = -1, n;
	pid_t pid;

	tree(1, "0\n", "0\n", 1);
	pid = fork();
	if (pid == 0) {
		cell_init(&c, "on", 4000, 7, "always");
		if (test_journal_reopen() || knob_thp.apply(&c, why, sizeof(why)) ||
		    knob_ksm.apply(&c, why, sizeof(why)))
			_exit(3);
		raise(SIGKILL);
	}
	waitpid(pid, &st, 0);
	tap_ok(WIFSIGNALED(st) && !strcmp(get(KSM "run"), "1") &&
	       !strcmp(get(THP), "always"), "a child set run 1, thp always and was killed");
	n = test_journal_reopen() ? -1 : journal_restore_all(NULL, &failed);
	tap_ok(n == 4 && failed == 0, "restore after kill -9 undoes 4 entries (%d, %d failed)",
	       n, failed);
	tap_ok(!strcmp(get(KSM "run"), "0") && !strcmp(get(KSM "pages_to_scan"), "100") &&
	       !strcmp(get(KSM "sleep_millisecs"), "20") && !strcmp(get(THP), "madvise"),
	       "every file is back: run 0, 100, 20, madvise");
	journal_close();
}

int main(void)
{
	char path[PATH_MAX], cmd[PATH_MAX + 16];

	snprintf(tmp, sizeof(tmp), "/tmp/knob-memory-XXXXXX");
	if (!mkdtemp(tmp))
		return 1;
	snprintf(root, sizeof(root), "%s/root", tmp);
	snprintf(path, sizeof(path), "%s/state", tmp);
	setenv("CVMBENCH_STATE_DIR", path, 1);
	snprintf(path, sizeof(path), "%s/lock", tmp);
	setenv("CVMBENCH_TEST_HOST_LOCK", path, 1);
	setenv("CVMBENCH_SYSROOT", root, 1);
	tap_plan(28);
	test_ksm_on();
	test_ksm_off();
	test_absent();
	test_thp();
	test_kill();
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmp);
	return system(cmd) ? 1 : tap_done();
}
