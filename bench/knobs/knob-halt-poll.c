// SPDX-License-Identifier: MIT
/*
 * knob-halt-poll.c - the host's KVM halt polling for a cell (key
 * halt-poll-ns = unchanged | NANOSECONDS): the kvm module parameter
 * /sys/module/kvm/parameters/halt_poll_ns, how long a vCPU thread that
 * halted polls for a wake-up before it sleeps (0: never polls). KVM reads
 * the parameter at each halt of a VM that did not set its own limit
 * (KVM_CAP_HALT_POLL), so running VMs follow it too. The value found is
 * journalled (journal_set) before the write, so the cell's end, Ctrl-C
 * and `cvmbench restore` after a kill -9 write it back. Nothing is written
 * when it already reads the value asked for. No kvm module, or a kernel
 * without the parameter: the cell is skipped with the reason.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "journal.h"
#include "knob-halt-poll.h"
#include "knob.h"
#include "sysfs.h"
#include "sysroot.h"

#define KVM_MOD "/sys/module/kvm"
#define HALT_POLL_NS KVM_MOD "/parameters/halt_poll_ns"

static struct {
	long id;
	char applied[96];
} hp;

int halt_poll_parse(const char *v, long long *ns)
{
	char *end;

	*ns = -1;
	if (!v[0] || !strcmp(v, "unchanged"))
		return 0;
	if (v[0] < '0' || v[0] > '9')
		return -EINVAL;
	errno = 0;
	*ns = strtoll(v, &end, 10);
	if (*end || errno || *ns > HALT_POLL_MAX_NS) {
		*ns = -1;
		return -EINVAL;
	}
	return 0;
}

/* The nanoseconds @c asks for, or -1: unchanged (also an empty, zeroed cell). */
static long long wanted(const struct cell *c)
{
	long long ns;

	return halt_poll_parse(c->halt_poll_ns, &ns) ? -1 : ns;
}

/* The parameter's value, or -errno. */
static long long hp_read(void)
{
	char buf[64], *end;
	long long v;
	int ret = sysfs_read_line(HALT_POLL_NS, buf, sizeof(buf));

	if (ret < 0)
		return ret;
	v = strtoll(buf, &end, 10);
	return end == buf || v < 0 ? -EINVAL : v;
}

/*
 * The parameter's mode when no one may write it (a kernel can make it
 * 0444; access(2) says yes to root regardless), else 0.
 */
static unsigned int read_only(void)
{
	char buf[256];
	struct stat st;

	if (stat(sysroot_path(HALT_POLL_NS, buf, sizeof(buf)), &st))
		return 0;
	return st.st_mode & 0222 ? 0 : (unsigned int)(st.st_mode & 07777);
}

static int hp_supported(const struct cell *c, char *why, size_t len)
{
	long long ns = wanted(c);

	if (ns < 0)
		return 1;
	if (sysroot_access(KVM_MOD, F_OK)) {
		snprintf(why, len, "halt-poll-ns = %s: the kvm module is not loaded (no "
			 KVM_MOD ")", c->halt_poll_ns);
		return 0;
	}
	if (sysroot_access(HALT_POLL_NS, F_OK)) {
		snprintf(why, len, "halt-poll-ns = %s: this kernel's kvm module has no "
			 "halt_poll_ns parameter (no " HALT_POLL_NS ")", c->halt_poll_ns);
		return 0;
	}
	if (hp_read() != ns && read_only()) {
		snprintf(why, len, "halt-poll-ns = %s: " HALT_POLL_NS " is read-only on this "
			 "kernel (mode %04o)", c->halt_poll_ns, read_only());
		return 0;
	}
	if (hp_read() != ns && sysroot_access(HALT_POLL_NS, W_OK)) {
		snprintf(why, len, "halt-poll-ns = %s: cannot write " HALT_POLL_NS ": %s%s",
			 c->halt_poll_ns, strerror(errno), geteuid() ? " (needs root)" : "");
		return 0;
	}
	return 1;
}

static int hp_apply(const struct cell *c, char *why, size_t len)
{
	long long was, ns = wanted(c);
	char v[32];

	memset(&hp, 0, sizeof(hp));
	if (ns < 0)
		return 0;
	if (!hp_supported(c, why, len))
		return KNOB_SKIP;
	was = hp_read();
	if (was < 0) {
		snprintf(why, len, "halt-poll-ns: cannot read " HALT_POLL_NS ": %s",
			 strerror((int)-was));
		return (int)was;
	}
	if (was == ns) {
		snprintf(hp.applied, sizeof(hp.applied), "%lld (already)", was);
		return 0;
	}
	snprintf(v, sizeof(v), "%lld", ns);       /* "010" would be octal to the kernel */
	hp.id = journal_set(HALT_POLL_NS, v);
	if (hp.id < 0) {
		snprintf(why, len, "halt-poll-ns: cannot set " HALT_POLL_NS " = %s: %s", v,
			 strerror((int)-hp.id));
		return (int)hp.id;
	}
	snprintf(hp.applied, sizeof(hp.applied), "%lld (was %lld)", ns, was);
	return 0;
}

static int hp_verify(const struct cell *c, char *why, size_t len)
{
	long long now, ns = wanted(c);

	if (ns < 0)
		return 0;
	now = hp_read();
	if (now != ns) {
		snprintf(why, len, "halt-poll-ns = %s: " HALT_POLL_NS " reads %lld at the "
			 "cell's end: something else changed it", c->halt_poll_ns, now);
		return -EBUSY;
	}
	return 0;
}

static void hp_restore(const struct cell *c)
{
	(void)c;
	journal_undo_or_warn(&hp.id, "halt-poll-ns");
}

static void hp_describe(const struct cell *c, char *buf, size_t len)
{
	(void)c;
	snprintf(buf, len, "%s", hp.applied);
}

const struct knob_ops knob_halt_poll = {
	.name = "halt-poll-ns",
	.supported = hp_supported,
	.apply = hp_apply,
	.verify = hp_verify,
	.restore = hp_restore,
	.describe = hp_describe,
};
