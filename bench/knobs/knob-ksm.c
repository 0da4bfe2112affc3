// SPDX-License-Identifier: MIT
/*
 * knob-ksm.c - the host's KSM for a cell (keys ksm = unchanged | on | off,
 * ksm-pages-to-scan, ksm-sleep-ms; 0 = unchanged).
 *
 * on: run = 1, after pages_to_scan and sleep_millisecs. off: unmerge what
 * is merged first (run = 2, which returns when every page is unmerged),
 * then run = 0; nothing is written when KSM is stopped and holds no page.
 * Every file is journalled (journal_set) before its first write, so the
 * cell's end, Ctrl-C and `cvmbench restore` after a kill -9 write back
 * the values found; `run` is journalled once, with its original value,
 * before "2" and "0" are written. Restored newest first.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "journal.h"
#include "knob.h"
#include "sysfs.h"
#include "sysroot.h"

#define KSM_DIR "/sys/kernel/mm/ksm"
#define KSM_RUN KSM_DIR "/run"
#define KSM_MAX_IDS 4

static struct {
	long id[KSM_MAX_IDS];
	int n;
	char applied[256];
} ksm;

/* Anything to change? (An empty ksm, as in a zeroed test cell, is unchanged.) */
static int wanted(const struct cell *c)
{
	return (c->ksm[0] && strcmp(c->ksm, "unchanged")) || c->ksm_pages_to_scan > 0 ||
	       c->ksm_sleep_ms > 0;
}

static int ksm_supported(const struct cell *c, char *why, size_t len)
{
	if (!wanted(c))
		return 1;
	if (sysroot_access(KSM_RUN, F_OK)) {
		snprintf(why, len, "ksm = %s: KSM is not built into this kernel (no "
			 KSM_RUN ")", c->ksm);
		return 0;
	}
	if (sysroot_access(KSM_RUN, W_OK)) {
		snprintf(why, len, "ksm = %s: cannot write " KSM_RUN ": %s%s", c->ksm,
			 strerror(errno), geteuid() ? " (needs root)" : "");
		return 0;
	}
	return 1;
}

/* "name v (was w)" after what is already in ksm.applied. */
static void note(const char *name, const char *value, const char *was)
{
	size_t o = strlen(ksm.applied);

	snprintf(ksm.applied + o, sizeof(ksm.applied) - o, "%s%s %s (was %s)",
		 o ? ", " : "", name, value, was);
}

/* Journal and write KSM_DIR/@name = @value. */
static int ksm_write(const char *name, const char *value, char *why, size_t len)
{
	char path[128], was[64] = "?";
	long id;

	snprintf(path, sizeof(path), KSM_DIR "/%s", name);
	sysfs_read_line(path, was, sizeof(was));
	id = journal_set(path, value);
	if (id < 0) {
		snprintf(why, len, "ksm: cannot set %s = %s: %s", path, value,
			 strerror((int)-id));
		return (int)id;
	}
	ksm.id[ksm.n++] = id;
	note(name, value, was);
	return 0;
}

static long long read_ll(const char *name)
{
	char path[128], buf[64];

	snprintf(path, sizeof(path), KSM_DIR "/%s", name);
	if (sysfs_read_line(path, buf, sizeof(buf)) < 0)
		return -1;
	return strtoll(buf, NULL, 10);
}

/* off: unmerge (run = 2 returns when done), then stop (run = 0). */
static int ksm_off(char *why, size_t len)
{
	int ret;

	if (read_ll("run") == 0 && read_ll("pages_shared") == 0)
		return 0;
	ret = ksm_write("run", "2", why, len);
	if (ret)
		return ret;
	ret = sysfs_write(KSM_RUN, "0");
	if (ret) {
		snprintf(why, len, "ksm: cannot write 0 to " KSM_RUN " after unmerging: %s",
			 strerror(-ret));
		return ret;
	}
	snprintf(ksm.applied + strlen(ksm.applied),
		 sizeof(ksm.applied) - strlen(ksm.applied), ", then run 0");
	return 0;
}

static void ksm_restore(const struct cell *c)
{
	(void)c;
	journal_undo_each_or_warn(ksm.id, (size_t)ksm.n, "ksm");
	ksm.n = 0;
}

static int ksm_apply(const struct cell *c, char *why, size_t len)
{
	char v[32];
	int ret = 0;

	memset(&ksm, 0, sizeof(ksm));
	if (!wanted(c))
		return 0;
	if (!ksm_supported(c, why, len))
		return KNOB_SKIP;
	if (c->ksm_pages_to_scan > 0) {
		snprintf(v, sizeof(v), "%d", c->ksm_pages_to_scan);
		ret = ksm_write("pages_to_scan", v, why, len);
	}
	if (!ret && c->ksm_sleep_ms > 0) {
		snprintf(v, sizeof(v), "%d", c->ksm_sleep_ms);
		ret = ksm_write("sleep_millisecs", v, why, len);
	}
	if (!ret && !strcmp(c->ksm, "on") && read_ll("run") != 1)
		ret = ksm_write("run", "1", why, len);
	if (!ret && !strcmp(c->ksm, "off"))
		ret = ksm_off(why, len);
	if (ret)
		ksm_restore(c);
	return ret;
}

/* The settings still hold after the cell (nobody else changed them). */
static int ksm_verify(const struct cell *c, char *why, size_t len)
{
	long long run = read_ll("run");

	if (!strcmp(c->ksm, "on") && run != 1)
		goto changed;
	if (!strcmp(c->ksm, "off") && run != 0)
		goto changed;
	if (c->ksm_pages_to_scan > 0 && read_ll("pages_to_scan") != c->ksm_pages_to_scan) {
		snprintf(why, len, "ksm: pages_to_scan changed during the cell");
		return -EBUSY;
	}
	if (c->ksm_sleep_ms > 0 && read_ll("sleep_millisecs") != c->ksm_sleep_ms) {
		snprintf(why, len, "ksm: sleep_millisecs changed during the cell");
		return -EBUSY;
	}
	return 0;
changed:
	snprintf(why, len, "ksm = %s: " KSM_RUN " reads %lld at the cell's end: "
		 "something else changed it", c->ksm, run);
	return -EBUSY;
}

static void ksm_describe(const struct cell *c, char *buf, size_t len)
{
	(void)c;
	snprintf(buf, len, "%s", ksm.applied);
}

const struct knob_ops knob_ksm = {
	.name = "ksm",
	.supported = ksm_supported,
	.apply = ksm_apply,
	.verify = ksm_verify,
	.restore = ksm_restore,
	.describe = ksm_describe,
};
