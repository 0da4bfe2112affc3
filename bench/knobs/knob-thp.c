// SPDX-License-Identifier: MIT
/*
 * knob-thp.c - the host's transparent hugepage mode for a cell (key thp =
 * unchanged | always | madvise | never): the `enabled` file of
 * /sys/kernel/mm/transparent_hugepage, which reads "always [madvise]
 * never" and is set by writing one word. The bracketed word is journalled
 * (journal_set_old) before the write, so the cell's end, Ctrl-C and
 * `cvmbench restore` after a kill -9 write it back. Nothing is written
 * when the mode is already the one asked for.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "journal.h"
#include "knob.h"
#include "sysfs.h"
#include "sysroot.h"
#include "thp-mode.h"

static struct {
	long id;
	char applied[128];
} thp;

/* Anything to change? (An empty thp, as in a zeroed test cell, is unchanged.) */
static int wanted(const struct cell *c)
{
	return c->thp[0] && strcmp(c->thp, "unchanged");
}

/* The current mode into @mode; the whole line into @line. 0 or -errno. */
static int thp_read(char *line, size_t llen, char *mode, size_t mlen)
{
	int ret = sysfs_read_line(THP_ENABLED, line, llen);

	if (ret < 0)
		return ret;
	return thp_mode_parse(line, mode, mlen);
}

static int thp_supported(const struct cell *c, char *why, size_t len)
{
	char line[128], mode[32];

	if (!wanted(c))
		return 1;
	if (thp_read(line, sizeof(line), mode, sizeof(mode))) {
		snprintf(why, len, "thp = %s: no transparent hugepages here (cannot read "
			 THP_ENABLED ")", c->thp);
		return 0;
	}
	if (!thp_mode_offered(line, c->thp)) {
		snprintf(why, len, "thp = %s: not offered by this kernel (" THP_ENABLED
			 " reads '%s')", c->thp, line);
		return 0;
	}
	if (strcmp(mode, c->thp) && sysroot_access(THP_ENABLED, W_OK)) {
		snprintf(why, len, "thp = %s: cannot write " THP_ENABLED ": %s%s", c->thp,
			 strerror(errno), geteuid() ? " (needs root)" : "");
		return 0;
	}
	return 1;
}

static int thp_apply(const struct cell *c, char *why, size_t len)
{
	char line[128], mode[32];

	memset(&thp, 0, sizeof(thp));
	if (!wanted(c))
		return 0;
	if (!thp_supported(c, why, len))
		return KNOB_SKIP;
	if (thp_read(line, sizeof(line), mode, sizeof(mode)))
		return -EIO;
	if (!strcmp(mode, c->thp)) {
		snprintf(thp.applied, sizeof(thp.applied), "%s (already)", mode);
		return 0;
	}
	thp.id = journal_set_old(THP_ENABLED, mode, c->thp);
	if (thp.id < 0) {
		snprintf(why, len, "thp: cannot set " THP_ENABLED " = %s: %s", c->thp,
			 strerror((int)-thp.id));
		return (int)thp.id;
	}
	snprintf(thp.applied, sizeof(thp.applied), "%s (was %s)", c->thp, mode);
	return 0;
}

static int thp_verify(const struct cell *c, char *why, size_t len)
{
	char line[128], mode[32];

	if (!wanted(c))
		return 0;
	if (thp_read(line, sizeof(line), mode, sizeof(mode)) || strcmp(mode, c->thp)) {
		snprintf(why, len, "thp = %s: " THP_ENABLED " reads '%s' at the cell's end: "
			 "something else changed it", c->thp, line);
		return -EBUSY;
	}
	return 0;
}

static void thp_restore(const struct cell *c)
{
	(void)c;
	journal_undo_or_warn(&thp.id, "thp");
}

static void thp_describe(const struct cell *c, char *buf, size_t len)
{
	(void)c;
	snprintf(buf, len, "%s", thp.applied);
}

const struct knob_ops knob_thp = {
	.name = "thp",
	.supported = thp_supported,
	.apply = thp_apply,
	.verify = thp_verify,
	.restore = thp_restore,
	.describe = thp_describe,
};
