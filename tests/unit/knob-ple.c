// SPDX-License-Identifier: MIT
/*
 * tests/unit/knob-ple.c - the ple knob on fake trees (CVMBENCH_SYSROOT)
 * with a fake modprobe first in PATH (a shell script this test writes: it
 * logs its argv and loads/unloads a module by editing the fake tree, so
 * the knob's reload is checked against what modprobe was really asked and
 * what the tree holds after). No KVM vendor module: ple = off is a skip
 * saying so. kvm_intel with ple_gap 128, refcnt 0: apply unloads and loads
 * it with ple_gap=0 (journalled first: one open entry), the cell's restore
 * loads it with 128 again; kvm_amd likewise with pause_filter_count. In use
 * (refcnt 1), no modprobe in PATH, modprobe failing, modprobe failing only
 * the load: a skip with the reason, the tree as found, no entry left open;
 * a read-back that differs: an error, the tree as found. A child that
 * applied and was killed (kill -9): journal_restore_all() - what `cvmbench
 * restore` runs - loads 128 again. pause_filter_count 0: off already,
 * nothing run. ple = default: nothing to do. A cell that boots no KVM
 * guest (native, runc, qemu with accel = tcg, accel = auto without
 * /dev/kvm): a skip saying so, modprobe not run, though the module could be
 * reloaded; accel = auto with /dev/kvm: reloaded. No root: a temp directory.
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
#include "fake-file.h"
#include "journal.h"
#include "knob.h"
#include "tap.h"
#include "test-journal.h"

extern const struct knob_ops knob_ple;

#define GAP "/sys/module/kvm_intel/parameters/ple_gap"
/* A cell that boots a KVM guest: the qemu backend, accel = kvm. */
#define KVM_GUEST .backend = "qemu", .accel = "kvm"
#define HPN "/sys/module/kvm/parameters/halt_poll_ns"

static char tmp[PATH_MAX / 4], root[PATH_MAX / 4 + 8], path0[PATH_MAX];

/*
 * modprobe [-r] MODULE [PARAM=VALUE], and rmmod MODULE (the same script,
 * told apart by its name); files beside the tree steer it. Like the real
 * one, `modprobe -r` also unloads kvm, now unused: kvm comes back with its
 * defaults (halt_poll_ns 200000). `rmmod` removes the one module only.
 * Steering file "kvmreset": the load resets kvm's parameter anyway.
 */
static const char fake_modprobe[] =
	"#!/bin/sh\n"
	"t=$CVMBENCH_SYSROOT/..; m=$CVMBENCH_SYSROOT/sys/module; me=${0##*/}\n"
	"echo \"$me $*\" >> \"$t/log\"\n"
	"[ -e \"$t/fail\" ] && { echo \"$me: FATAL: fake failure\" >&2; exit 1; }\n"
	"[ \"$me\" = rmmod ] && set -- -r \"$1\"\n"
	"if [ \"$1\" = -r ]; then\n"
	"  [ \"$(cat \"$m/$2/refcnt\")\" = 0 ] || { echo \"$me: FATAL: Module $2 is in use.\" >&2; exit 1; }\n"
	"  rm -r \"$m/$2\"\n"
	"  [ \"$me\" = modprobe ] && echo 200000 > \"$m/kvm/parameters/halt_poll_ns\"\n"
	"  exit 0\n"
	"fi\n"
	"[ -e \"$t/slow\" ] && sleep 1\n"
	"[ -e \"$t/fail-load\" ] && { echo 'modprobe: ERROR: fake load' >&2; exit 1; }\n"
	"[ -e \"$t/fail-0\" ] && [ \"${2#*=}\" = 0 ] && { echo 'modprobe: ERROR: fake load' >&2; exit 1; }\n"
	"[ -e \"$t/kvmreset\" ] && [ \"${2#*=}\" = 0 ] && echo 200000 > \"$m/kvm/parameters/halt_poll_ns\"\n"
	"v=${2#*=}; [ -e \"$t/mangle\" ] && [ \"$v\" = 0 ] && v=1\n"
	"mkdir -p \"$m/$1/parameters\" && echo 0 > \"$m/$1/refcnt\" && echo \"$v\" > \"$m/$1/parameters/${2%%=*}\"\n";

static const char *get(const char *rel)
{
	static char buf[4096];

	return fake_file_get(root, rel, buf, sizeof(buf));
}

static void sh(const char *fmt, const char *a)
{
	char cmd[4 * PATH_MAX];

	snprintf(cmd, sizeof(cmd), fmt, a, a, a, a);
	if (system(cmd))
		exit(1);
}

/* A fresh tree: @module (NULL: none) with @param = @value and refcnt @ref; no steering files. */
static void tree(const char *module, const char *param, const char *value, const char *ref)
{
	char rel[PATH_MAX];

	sh("rm -rf '%s/root' '%s/log' '%s/fail' '%s/fail-0'", tmp);
	sh("rm -f '%s/mangle' '%s/kvmreset' '%s/fail-load' '%s/slow'", tmp);
	sh("touch '%s/log'", tmp);
	sh("mkdir -p '%s/root/sys/module/kvm/parameters'", tmp);
	fake_file_put(root, HPN, "0\n");       /* set at run time, not kvm's default */
	if (!module)
		return;
	snprintf(rel, sizeof(rel), "%s/sys/module/%s/parameters", root, module);
	sh("mkdir -p '%s'", rel);
	snprintf(rel, sizeof(rel), "/sys/module/%s/parameters/%s", module, param);
	fake_file_put(root, rel, value);
	snprintf(rel, sizeof(rel), "/sys/module/%s/refcnt", module);
	fake_file_put(root, rel, ref);
}

/* What the fake modprobe was asked, lines joined by '|'. */
static const char *logged(void)
{
	static char buf[512];
	char *p;

	snprintf(buf, sizeof(buf), "%s", get("/../log"));
	while ((p = strchr(buf, '\n')))
		*p = p[1] ? '|' : '\0';
	return buf;
}


static void test_reload(void)
{
	struct cell c = { .ple = "off", KVM_GUEST };
	char why[512] = "", desc[256] = "";

	tree("kvm_intel", "ple_gap", "128\n", "0\n");
	tap_ok(knob_ple.supported(&c, why, sizeof(why)), "ple_gap 128, refcnt 0: supported");
	tap_ok(knob_ple.apply(&c, why, sizeof(why)) == 0 && !strcmp(get(GAP), "0\n"),
	       "apply: ple_gap reads 0 (%s)", why);
	tap_ok(!strcmp(logged(), "rmmod kvm_intel|modprobe kvm_intel ple_gap=0"),
	       "asked: rmmod kvm_intel, then modprobe kvm_intel ple_gap=0 (%s)", logged());
	tap_ok(!strcmp(get(HPN), "0\n"), "kvm stayed loaded: its halt_poll_ns still 0 (%.*s)",
	       (int)strcspn(get(HPN), "\n"), get(HPN));
	tap_ok(journal_open_entries() == 1, "one journal entry open while the cell runs");
	knob_ple.describe(&c, desc, sizeof(desc));
	tap_ok(!strcmp(desc, "off (kvm_intel reloaded with ple_gap=0, was 128)"),
	       "describe: %s", desc);
	knob_ple.restore(&c);
	tap_ok(!strcmp(get(GAP), "128\n") && journal_open_entries() == 0 &&
	       !strcmp(get(HPN), "0\n") &&
	       !strcmp(logged(), "rmmod kvm_intel|modprobe kvm_intel ple_gap=0|rmmod kvm_intel|"
		       "modprobe kvm_intel ple_gap=128"),
	       "restore: reloaded with ple_gap=128, no entry open (%s)", logged());
	tree("kvm_amd", "pause_filter_count", "3000\n", "0\n");
	tap_ok(knob_ple.apply(&c, why, sizeof(why)) == 0 &&
	       !strcmp(get("/sys/module/kvm_amd/parameters/pause_filter_count"), "0\n"),
	       "kvm_amd: pause_filter_count reads 0 (%s)", logged());
	knob_ple.restore(&c);
	tap_ok(!strcmp(get("/sys/module/kvm_amd/parameters/pause_filter_count"), "3000\n"),
	       "and 3000 again after restore");
}

/* @steer: a file beside the tree that makes the fake modprobe misbehave. */
static void test_refused(const char *ref, const char *steer, int want, const char *says,
			 const char *log)
{
	struct cell c = { .ple = "off", KVM_GUEST };
	char why[512] = "";
	int ret;

	tree("kvm_intel", "ple_gap", "128\n", ref);
	if (steer)
		sh("touch '%s'", steer);
	ret = knob_ple.apply(&c, why, sizeof(why));
	tap_ok(ret == want && strstr(why, says), "%s: %s (%d)", steer ? strrchr(steer, '/') + 1 :
	       "refused", why, ret);
	tap_ok(!strcmp(get(GAP), "128\n") && !strcmp(get("/sys/module/kvm_intel/refcnt"), ref) &&
	       journal_open_entries() == 0 && !strcmp(logged(), log),
	       "  the tree as found, no entry open, modprobe asked: '%s'", logged());
	knob_ple.restore(&c);
}

static char put_key[64], put_val[160];

static void put(void *ctx, const char *key, const char *value)
{
	(void)ctx;
	snprintf(put_key, sizeof(put_key), "%s", key);
	snprintf(put_val, sizeof(put_val), "%s", value);
}

static const struct knob_sink sink = { .put = put };

/* Restore while the module is busy: a bounded wait, then later cells fail until it is back. */
static void test_busy_restore(void)
{
	struct cell c = { .ple = "off", KVM_GUEST }, d = { .ple = "default", KVM_GUEST };
	char why[512] = "";
	pid_t pid;
	int ret;

	tree("kvm_intel", "ple_gap", "128\n", "0\n");
	ret = knob_ple.apply(&c, why, sizeof(why));
	knob_ple.report(&c, &sink);
	tap_ok(!ret && !strcmp(put_key, "ple.actual") && !strcmp(put_val, "kvm_intel ple_gap = 0"),
	       "report: %s = %s", put_key, put_val);
	fake_file_put(root, "/sys/module/kvm_intel/refcnt", "1\n");
	pid = fork();
	if (pid == 0) {
		usleep(800 * 1000);
		fake_file_put(root, "/sys/module/kvm_intel/refcnt", "0\n");
		_exit(0);
	}
	knob_ple.restore(&c);
	waitpid(pid, NULL, 0);
	tap_ok(!strcmp(get(GAP), "128\n") && journal_open_entries() == 0,
	       "restore waits for refcnt 0 (freed after 0.8 s): ple_gap 128 again");
	knob_ple.apply(&c, why, sizeof(why));
	fake_file_put(root, "/sys/module/kvm_intel/refcnt", "1\n");
	setenv("CVMBENCH_TEST_UNDO_WAIT_MS", "200", 1);   /* not 5 s: no one frees it */
	knob_ple.restore(&c);    /* gives up after its wait */
	ret = knob_ple.apply(&d, why, sizeof(why));
	unsetenv("CVMBENCH_TEST_UNDO_WAIT_MS");
	tap_ok(ret == -EBUSY && strstr(why, "could not be put back") && !strcmp(get(GAP), "0\n"),
	       "still in use: restore gave up, the next ple = default cell fails (%s)", why);
	knob_ple.restore(&d);
	fake_file_put(root, "/sys/module/kvm_intel/refcnt", "0\n");
	ret = knob_ple.apply(&d, why, sizeof(why));
	knob_ple.report(&d, &sink);
	tap_ok(!ret && !strcmp(get(GAP), "128\n") && journal_open_entries() == 0 &&
	       !strcmp(put_val, "kvm_intel ple_gap = 128"),
	       "once free, the next cell puts it back first and runs (%s)", put_val);
	knob_ple.restore(&d);
}

/* The reload fails and so does putting it back: an error, not a skip; the entry stays. */
static void test_unrecoverable(void)
{
	struct cell c = { .ple = "off", KVM_GUEST };
	char why[512] = "";
	int ret, failed = -1;

	tree("kvm_intel", "ple_gap", "128\n", "0\n");
	sh("touch '%s/fail-load'", tmp);
	ret = knob_ple.apply(&c, why, sizeof(why));
	tap_ok(ret == -ENOTRECOVERABLE && strstr(why, "back failed too") &&
	       journal_open_entries() == 1, "load and undo both fail: %d, %s", ret, why);
	knob_ple.restore(&c);
	sh("rm '%s/fail-load'", tmp);
	tap_ok(journal_restore_all(NULL, &failed) == 1 && !failed && !strcmp(get(GAP), "128\n"),
	       "  `cvmbench restore` puts it back later");
}

/* ple = off in a cell of @backend and @accel, kvm_intel reloadable; @says: the skip's reason. */
static void test_no_guest(const char *backend, const char *accel, const char *says)
{
	struct cell c = { .ple = "off" };
	char why[512] = "", sup[512] = "";
	int ok, ret;

	snprintf(c.backend, sizeof(c.backend), "%s", backend);
	snprintf(c.accel, sizeof(c.accel), "%s", accel);
	tree("kvm_intel", "ple_gap", "128\n", "0\n");
	ok = knob_ple.supported(&c, sup, sizeof(sup));
	ret = knob_ple.apply(&c, why, sizeof(why));
	tap_ok(!ok && ret == KNOB_SKIP && strstr(why, says) && !strcmp(sup, why),
	       "%s, accel = %s: a skip (%d): %s", backend, accel, ret, why);
	tap_ok(!logged()[0] && !strcmp(get(GAP), "128\n") && journal_open_entries() == 0,
	       "  rmmod and modprobe not run, ple_gap 128, no entry (asked: '%s')", logged());
	knob_ple.restore(&c);
}

/* accel = auto: TCG without /dev/kvm (a skip), KVM with it (reloaded). */
static void test_auto(void)
{
	struct cell c = { .ple = "off", .backend = "qemu", .accel = "auto" };
	char why[512] = "";
	int ret;

	test_no_guest("qemu", "auto", "the cell runs no KVM guest (accel = auto gives TCG here: "
		      "/dev/kvm: absent");
	tree("kvm_intel", "ple_gap", "128\n", "0\n");
	fake_file_put(root, "/dev-kvm", "present\n");
	ret = knob_ple.apply(&c, why, sizeof(why));
	tap_ok(!ret && !strcmp(get(GAP), "0\n") &&
	       !strcmp(logged(), "rmmod kvm_intel|modprobe kvm_intel ple_gap=0"),
	       "qemu, accel = auto with /dev/kvm: reloaded with ple_gap=0 (%d, %s)", ret, logged());
	knob_ple.restore(&c);
}

static void on_alarm(int sig)
{
	(void)sig;
}

/* A signal (Ctrl-C's kind: no SA_RESTART) while modprobe runs: not a timeout, nothing killed. */
static void test_eintr(void)
{
	struct sigaction sa = { .sa_handler = on_alarm };
	struct cell c = { .ple = "off", KVM_GUEST };
	char why[512] = "";
	int ret;

	tree("kvm_intel", "ple_gap", "128\n", "0\n");
	sh("touch '%s/slow'", tmp);
	sigaction(SIGALRM, &sa, NULL);
	alarm(1);       /* lands in the first slow (1 s) modprobe or rmmod */
	ret = knob_ple.apply(&c, why, sizeof(why));
	alarm(0);
	tap_ok(ret == 0 && !strcmp(get(GAP), "0\n"), "a signal during modprobe: it ran to its end "
	       "(%d, %s)", ret, why);
	knob_ple.restore(&c);
}

static void test_kill(void)
{
	struct cell c = { .ple = "off", KVM_GUEST };
	char why[512];
	int st = 0, failed = -1, n;
	pid_t pid;

	journal_close();
	tree("kvm_intel", "ple_gap", "128\n", "0\n");
	pid = fork();
	if (pid == 0) {
		if (test_journal_reopen() || knob_ple.apply(&c, why, sizeof(why)))
			_exit(3);
		raise(SIGKILL);
	}
	waitpid(pid, &st, 0);
	tap_ok(WIFSIGNALED(st) && !strcmp(get(GAP), "0\n"), "a child turned PLE off and was "
	       "killed (ple_gap 0)");
	n = test_journal_reopen() ? -1 : journal_restore_all(NULL, &failed);
	tap_ok(n == 1 && failed == 0 && !strcmp(get(GAP), "128\n"),
	       "restore after kill -9 reloads ple_gap=128 (%d undone, %d failed)", n, failed);
}

int main(void)
{
	struct cell c = { .ple = "off", KVM_GUEST };
	char why[PATH_MAX] = "", desc[PATH_MAX] = "", bin[PATH_MAX];
	FILE *f;

	tap_plan(48);
	snprintf(tmp, sizeof(tmp), "/tmp/knob-ple-XXXXXX");
	if (!mkdtemp(tmp))
		return 1;
	snprintf(root, sizeof(root), "%s/root", tmp);
	snprintf(bin, sizeof(bin), "%s/bin/modprobe", tmp);
	sh("mkdir -p '%s/bin' '%s/state'", tmp);
	f = fopen(bin, "w");
	if (!f || fputs(fake_modprobe, f) < 0 || fclose(f) || chmod(bin, 0755))
		return 1;
	sh("cp '%s/bin/modprobe' '%s/bin/rmmod'", tmp);     /* a script's $0 is its file */
	snprintf(path0, sizeof(path0), "%s/bin:%s", tmp, getenv("PATH") ? getenv("PATH") : "");
	setenv("PATH", path0, 1);
	setenv("CVMBENCH_SYSROOT", root, 1);
	snprintf(desc, sizeof(desc), "%s/state", tmp);
	setenv("CVMBENCH_STATE_DIR", desc, 1);
	snprintf(desc, sizeof(desc), "%s/lock", tmp);
	setenv("CVMBENCH_TEST_HOST_LOCK", desc, 1);
	if (test_journal_reopen())
		return 1;

	tree(NULL, NULL, NULL, NULL);
	tap_ok(!knob_ple.supported(&c, why, sizeof(why)) &&
	       strstr(why, "neither kvm_intel (ple_gap) nor kvm_amd"), "no module: %s", why);
	tap_ok(knob_ple.apply(&c, why, sizeof(why)) == KNOB_SKIP && !logged()[0],
	       "  and apply is a skip, modprobe not run");
	test_reload();
	test_no_guest("native", "auto", "ple = off: the cell runs no KVM guest (backend native)");
	test_no_guest("runc", "kvm", "ple = off: the cell runs no KVM guest (backend runc)");
	test_no_guest("qemu", "tcg", "ple = off: the cell runs no KVM guest (accel = tcg)");
	test_auto();
	test_refused("1\n", NULL, KNOB_SKIP, "kvm_intel is in use (/sys/module/kvm_intel/refcnt "
		     "= 1: a VM or an open /dev/kvm)", "");
	snprintf(why, sizeof(why), "%s/fail", tmp);
	test_refused("0\n", why, KNOB_SKIP, "rmmod kvm_intel failed: rmmod: FATAL: fake failure",
		     "rmmod kvm_intel");
	snprintf(why, sizeof(why), "%s/fail-0", tmp);
	test_refused("0\n", why, KNOB_SKIP, "kvm_intel ple_gap=0 failed: modprobe: ERROR: fake load",
		     "rmmod kvm_intel|modprobe kvm_intel ple_gap=0|modprobe kvm_intel ple_gap=128");
	snprintf(why, sizeof(why), "%s/mangle", tmp);
	test_refused("0\n", why, -EIO, "kvm_intel ple_gap=0: ple_gap reads back 1",
		     "rmmod kvm_intel|modprobe kvm_intel ple_gap=0|rmmod kvm_intel|"
		     "modprobe kvm_intel ple_gap=128");
	snprintf(why, sizeof(why), "%s/kvmreset", tmp);
	test_refused("0\n", why, -EIO, "the reload changed other KVM parameters: "
		     "kvm/halt_poll_ns 0 -> 200000", "rmmod kvm_intel|modprobe kvm_intel ple_gap=0|"
		     "rmmod kvm_intel|modprobe kvm_intel ple_gap=128");
	tap_ok(strspn(get(HPN), "0\n") == strlen(get(HPN)) && get(HPN)[0] == '0',
	       "  and kvm's halt_poll_ns written back to 0 (%s)",
	       get(HPN));
	if (!chdir(tmp)) {     /* a relative PATH entry: the program is run by its real path */
		setenv("PATH", "bin:/usr/bin:/bin", 1);
		snprintf(why, sizeof(why), "%s/fail-0", tmp);
		snprintf(desc, sizeof(desc), ": %s/bin/modprobe kvm_intel ple_gap=0 failed", tmp);
		test_refused("0\n", why, KNOB_SKIP, desc, "rmmod kvm_intel|modprobe kvm_intel "
			     "ple_gap=0|modprobe kvm_intel ple_gap=128");
		if (chdir("/"))
			return 1;
	}
	setenv("PATH", "/usr/bin:/bin", 1);     /* modprobe is in sbin */
	test_refused("0\n", NULL, KNOB_SKIP, "cannot be reloaded with ple_gap=0: no modprobe or "
		     "rmmod in PATH", "");
	setenv("PATH", path0, 1);
	test_busy_restore();
	test_unrecoverable();
	test_eintr();
	test_kill();

	tree("kvm_amd", "pause_filter_count", "0\n", "0\n");
	tap_ok(knob_ple.apply(&c, why, sizeof(why)) == 0 && !logged()[0],
	       "pause_filter_count 0: applies, modprobe not run");
	knob_ple.describe(&c, desc, sizeof(desc));
	tap_ok(!strcmp(desc, "off (already: kvm_amd pause_filter_count = 0)"),
	       "and says it was off already (%s)", desc);
	knob_ple.restore(&c);
	snprintf(c.ple, sizeof(c.ple), "default");
	tree("kvm_intel", "ple_gap", "128\n", "0\n");
	tap_ok(knob_ple.supported(&c, why, sizeof(why)) &&
	       knob_ple.apply(&c, why, sizeof(why)) == 0 && !logged()[0],
	       "ple = default: always, modprobe not run");
	knob_ple.describe(&c, desc, sizeof(desc));
	tap_ok(!desc[0], "and says nothing");
	knob_ple.restore(&c);
	journal_close();
	sh("rm -rf '%s'", tmp);
	return tap_done();
}
