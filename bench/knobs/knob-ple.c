// SPDX-License-Identifier: MIT
/*
 * knob-ple.c - the `ple` key: pause-loop exiting of the host's KVM for the
 * cell, ple = default | off. `default` changes nothing. PLE is a module
 * parameter: kvm_intel's ple_gap, kvm_amd's pause_filter_count (0 = off),
 * read-only at run time (0444), so `off` reloads the vendor module with
 * the parameter at 0 (kvm-module.c: old value journalled first, modprobe
 * as an argv array, the value read back) and the cell's restore reloads it
 * with the old value (after a kill -9: `cvmbench restore`). Only when
 * nothing uses KVM through the module (its refcnt is 0); a module in use,
 * no modprobe, a modprobe that fails: the cell is skipped with the reason
 * and the host left as found; a read-back that differs, another KVM
 * parameter changed by the reload, or a failure that could not be put back
 * fails the cell. A restore that could not put PLE back (module still in
 * use after a wait) fails every later cell until a retry works. Every cell
 * records the parameter's value during it (cell_param ple.actual).
 * No vendor module loaded: a skip saying so. Loaded with PLE off already:
 * measured as it is, nothing changed. A cell that boots no KVM guest (a
 * backend without a guest: native, runc, crun; qemu with accel = tcg, or
 * accel = auto where /dev/kvm does not open, as the backend decides it:
 * backend_cell_accel(), for qemu qemu_accel_for_cell()) is a
 * skip saying so, before the module is looked at: PLE concerns KVM guests
 * only, and a reload for a cell without one would change the host for
 * nothing.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "backend.h"
#include "journal.h"
#include "knob.h"
#include "kvm-module.h"
#include "log.h"
#include "sysfs.h"

static const struct {
	const char *module, *param;
} ple_params[] = {
	{ "kvm_intel", "ple_gap" },
	{ "kvm_amd", "pause_filter_count" },
};

static char ple_applied[200];
static long ple_id;       /* the journal entry of a reload, 0 = none */
static long ple_stuck;    /* a reload whose restore failed: still open */

/* The loaded module's parameter: index into ple_params and its value, or -1. */
static int ple_find(char *value, size_t len)
{
	char path[160];
	size_t i;

	for (i = 0; i < sizeof(ple_params) / sizeof(ple_params[0]); i++) {
		snprintf(path, sizeof(path), "/sys/module/%s/parameters/%s",
			 ple_params[i].module, ple_params[i].param);
		if (sysfs_read_line(path, value, len) >= 0)     /* under the test root, if set */
			return (int)i;
	}
	return -1;
}

/* ple = off with @i's module at @value (not 0): could it be reloaded now? */
static int ple_reloadable(int i, const char *value, char *why, size_t len)
{
	char r[400], prog[PATH_MAX];

	if (kvm_module_in_use(ple_params[i].module, r, sizeof(r)) ||
	    kvm_module_modprobe(prog, sizeof(prog), r, sizeof(r))) {
		snprintf(why, len, "ple = off: %s is loaded with %s = %s and cannot be "
			 "reloaded with %s=0: %s", ple_params[i].module, ple_params[i].param,
			 value, ple_params[i].param, r);
		return 0;
	}
	return 1;
}

/*
 * Does @c boot a KVM guest? 1, or 0 with the reason in @why: a backend
 * without a VM, or one whose VMs start under TCG (backend_cell_accel():
 * accel = tcg, or accel = auto where /dev/kvm does not open).
 */
static int ple_kvm_guest(const struct cell *c, char *why, size_t len)
{
	char host[200];
	const char *accel = backend_cell_accel(c, host, sizeof(host));

	if (!accel)
		snprintf(why, len, "ple = off: the cell runs no KVM guest (backend %s)",
			 c->backend);
	else if (!strcmp(accel, "kvm"))
		return 1;
	else if (strcmp(c->accel, "auto"))
		snprintf(why, len, "ple = off: the cell runs no KVM guest (accel = %s)", accel);
	else
		snprintf(why, len, "ple = off: the cell runs no KVM guest (accel = auto "
			 "gives TCG here: %s)", host);
	return 0;
}

static int ple_supported(const struct cell *c, char *why, size_t len)
{
	char value[32];
	int i;

	if (strcmp(c->ple, "off"))
		return 1;
	if (!ple_kvm_guest(c, why, len))
		return 0;
	i = ple_find(value, sizeof(value));
	if (i < 0) {
		snprintf(why, len, "ple = off: neither kvm_intel (ple_gap) nor kvm_amd "
			 "(pause_filter_count) is loaded here: no pause-loop exiting to turn off");
		return 0;
	}
	return !strcmp(value, "0") || ple_reloadable(i, value, why, len);
}

/* Reload @i's module with PLE off; 0, KNOB_SKIP or -errno, reason in @why. */
static int ple_reload(int i, const char *value, char *why, size_t len)
{
	char r[400];
	long id = kvm_module_set(ple_params[i].module, ple_params[i].param, "0", r, sizeof(r));

	if (id > 0) {
		ple_id = id;
		snprintf(ple_applied, sizeof(ple_applied), "off (%s reloaded with %s=0, was %s)",
			 ple_params[i].module, ple_params[i].param, value);
		return 0;
	}
	snprintf(why, len, "ple = off: reloading %s with %s=0 (it was %s): %s",
		 ple_params[i].module, ple_params[i].param, value, r);
	return id == -EIO || id == -EINVAL || id == -ENOTRECOVERABLE ? (int)id : KNOB_SKIP;
}

/* A reload left open by an earlier cell's failed restore: retried; -EBUSY if still open. */
static int ple_unstuck(char *why, size_t len)
{
	int ret;

	if (ple_stuck <= 0)
		return 0;
	ret = journal_undo(ple_stuck);
	if (!ret) {
		ple_stuck = 0;
		return 0;
	}
	snprintf(why, len, "ple: an earlier cell's reload with PLE off could not be put back (%s):"
		 " PLE is not at its default; see `cvmbench restore`", strerror(-ret));
	return -EBUSY;
}

static int ple_apply(const struct cell *c, char *why, size_t len)
{
	char value[32];
	int i, ret;

	ple_applied[0] = '\0';
	ple_id = 0;
	ret = ple_unstuck(why, len);
	if (ret)
		return ret;
	if (!ple_supported(c, why, len))
		return KNOB_SKIP;
	if (strcmp(c->ple, "off"))
		return 0;
	i = ple_find(value, sizeof(value));
	if (i >= 0 && !strcmp(value, "0")) {
		snprintf(ple_applied, sizeof(ple_applied), "off (already: %s %s = 0)",
			 ple_params[i].module, ple_params[i].param);
		return 0;
	}
	return i < 0 ? KNOB_SKIP : ple_reload(i, value, why, len);
}

/* Reload the module with its old value; a failure stays in the journal. */
static void ple_restore(const struct cell *c)
{
	int ret;

	(void)c;
	if (ple_id > 0 && (ret = journal_undo(ple_id))) {
		pr_warn("ple: putting PLE back failed (%s): left in the journal for "
			"`cvmbench restore`; the next cells fail until it is back", strerror(-ret));
		ple_stuck = ple_id;
	}
	ple_id = 0;
	ple_applied[0] = '\0';
}

static void ple_describe(const struct cell *c, char *buf, size_t len)
{
	(void)c;
	snprintf(buf, len, "%s", ple_applied);
}

/* The PLE parameter as it is during the cell, where readable: cell_param ple.actual. */
static void ple_report(const struct cell *c, const struct knob_sink *s)
{
	char value[32], words[160];
	int i = ple_find(value, sizeof(value));

	(void)c;
	if (i < 0)
		return;
	snprintf(words, sizeof(words), "%s %s = %s", ple_params[i].module,
		 ple_params[i].param, value);
	s->put(s->ctx, "ple.actual", words);
}

const struct knob_ops knob_ple = {
	.name = "ple",
	.supported = ple_supported,
	.apply = ple_apply,
	.restore = ple_restore,
	.describe = ple_describe,
	.report = ple_report,
};
