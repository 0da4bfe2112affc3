// SPDX-License-Identifier: MIT
/*
 * knob-favordynmods.c - cgroup2's favordynmods mount option (key
 * favordynmods = default | on | off) for the cells of a backend whose
 * instances live in cgroups (BACKEND_CGROUPS: runc, crun). A host-wide
 * setting, not a backend's: the remount changes the whole hierarchy for
 * every process, so it is journalled like the other host settings and
 * undone after the cell, on Ctrl-C, or by `cvmbench restore`.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>

#include "backend.h"
#include "cgroup2-mount.h"
#include "journal.h"
#include "knob.h"
#include "log.h"

static long mountopt_id;

static int wanted(const struct cell *c)
{
	const struct backend_ops *be = backend_find(c->backend);

	return be && (be->flags & BACKEND_CGROUPS) && strcmp(c->favordynmods, "default");
}

/*
 * The remount read back: the kernel applies cgroup2's mount flags only in
 * the initial cgroup namespace, and elsewhere (a container) accepts the
 * remount and changes nothing. Then the cell is a skip, never a cell that
 * says favordynmods = on while it ran without.
 */
static int favordynmods_took(const char *path, int want, char *why, size_t len)
{
	char now_path[PATH_MAX], opts[512];
	int favor = -1;

	if (!cgroup2_mount(now_path, sizeof(now_path), opts, sizeof(opts), &favor) &&
	    favor == want)
		return 0;
	snprintf(why, len, "favordynmods: the remount of %s was accepted but did not take "
		 "effect (cgroup2 applies it only in the initial cgroup namespace: in a "
		 "container?)", path);
	journal_undo_or_warn(&mountopt_id, "favordynmods");
	return KNOB_SKIP;
}

static int favordynmods_set(const struct cell *c, char *why, size_t len)
{
	char path[PATH_MAX], opts[512], old[PATH_MAX + 600], now[600];
	int favor, want = !strcmp(c->favordynmods, "on");

	if (cgroup2_mount(path, sizeof(path), opts, sizeof(opts), &favor)) {
		snprintf(why, len, "favordynmods: no cgroup2 hierarchy is mounted");
		return KNOB_SKIP;
	}
	if (favor == want)
		return 0;
	snprintf(old, sizeof(old), "%s\t%s%s%s", path, opts,
		 favor && opts[0] ? "," : "", favor ? "favordynmods" : "");
	snprintf(now, sizeof(now), "%s%s%s", opts, want && opts[0] ? "," : "",
		 want ? "favordynmods" : "");
	mountopt_id = journal_object("oci-mountopt", old);
	if (mountopt_id < 0) {
		snprintf(why, len, "cannot journal oci-mountopt %s (so it is not changed): %s",
			 old, strerror((int)-mountopt_id));
		return (int)mountopt_id;
	}
	if (mount(NULL, path, NULL, MS_REMOUNT, now)) {
		snprintf(why, len, "favordynmods: cannot remount %s with '%s': %s", path,
			 now, strerror(errno));
		if (journal_forget(mountopt_id))
			pr_warn("cannot close journal entry %ld (%s)", mountopt_id,
				journal_path());
		mountopt_id = 0;
		return KNOB_SKIP;
	}
	return favordynmods_took(path, want, why, len);
}

static int favordynmods_apply(const struct cell *c, char *why, size_t len)
{
	mountopt_id = 0;
	return wanted(c) ? favordynmods_set(c, why, len) : 0;
}

static void favordynmods_restore(const struct cell *c)
{
	(void)c;
	journal_undo_or_warn(&mountopt_id, "favordynmods");
}

const struct knob_ops knob_favordynmods = {
	.name = "favordynmods",
	.apply = favordynmods_apply,
	.restore = favordynmods_restore,
};
