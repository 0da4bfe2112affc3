// SPDX-License-Identifier: MIT
/*
 * knob-idle.c - the idle policy of the machine a cell runs on, as this
 * host applies it: the `idle` key where the functions run on the host
 * (native, runc, crun), the `host-idle` key always (the same machine there:
 * both set to different policies is a skip). For a cell whose functions run
 * in a guest (qemu) `idle` is the guest's (idle-guest.c: its kernel command
 * line, checked in the booted guest by the backend) and is only judged
 * here, never applied on the host; `host-idle` alone acts on the host.
 * The cell records idle.applied_in (host, or guest from the backend) and,
 * for a qemu cell's host policy, host-idle.applied.
 *
 * poll: hold /dev/cpu_dma_latency open with 0: every governor then picks
 * the POLL state (writing stateK/disable does not work under the haltpoll
 * governor, which ignores it). The request ends when the fd is closed - in
 * restore, or by the kernel if cvmbench dies - so it needs no journal.
 * hlt and haltpoll:N set the haltpoll governor's guest_halt_poll_ns through
 * journal_set(): restored at cell end, on Ctrl-C and by `cvmbench restore`.
 *
 * spin: one SCHED_IDLE busy thread per CPU (idle-spin.c), no kernel help.
 * Without a cpuidle driver the kernel idles with HLT (default_idle): hlt is
 * then measured as it is ("hlt, no cpuidle driver"), while poll and
 * haltpoll:N cannot be chosen at run time and their cells are skipped.
 * idle_policy_usable() is the one decision, for `list` and for `run`.
 *
 * verify(): under poll the non-POLL states' usage must not grow during the
 * cell; under hlt and haltpoll:N guest_halt_poll_ns must still hold; under
 * spin the CPUs must not have idled.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backend.h"
#include "cpuidle.h"
#include "idle-guest.h"
#include "idle-spin.h"
#include "journal.h"
#include "knob-idle.h"
#include "log.h"
#include "sysfs.h"
#include "sysroot.h"

static struct {
	int dma_fd;               /* poll: the held request, else -1 */
	long journal_id;          /* hlt / haltpoll: the journalled write */
	int spinners;             /* spin: threads running */
	struct cpuidle_set set;
	uint64_t halt_usage;      /* at apply */
	char applied[160];        /* what the cell ran under, for cell_param */
} idle = { .dma_fd = -1 };

int idle_policy_parse(const char *s, struct idle_policy *p)
{
	struct idle_policy tmp = { IDLE_DEFAULT, 0 };
	unsigned long long ns;
	char *end;

	if (!strcmp(s, "hlt")) {
		tmp.kind = IDLE_HLT;
	} else if (!strcmp(s, "poll")) {
		tmp.kind = IDLE_POLL;
	} else if (!strcmp(s, "spin")) {
		tmp.kind = IDLE_SPIN;
	} else if (!strncmp(s, "haltpoll:", 9)) {
		errno = 0;
		ns = strtoull(s + 9, &end, 10);
		if (errno || end == s + 9 || *end || s[9] == '-' ||
		    ns > IDLE_HALTPOLL_MAX_NS)
			return -EINVAL;
		tmp.kind = IDLE_HALTPOLL;
		tmp.poll_ns = (unsigned int)ns;
	} else if (strcmp(s, "default")) {
		return -EINVAL;
	}
	if (p)
		*p = tmp;
	return 0;
}

/*
 * Wake every CPU by running on each in turn: a CPU halted before the
 * request counts its halt entry when it wakes, and must do so before the
 * baseline is read.
 */
static void kick_cpus(const struct cpuidle_set *s)
{
	cpu_set_t old, one;
	int i;

	if (sched_getaffinity(0, sizeof(old), &old))
		return;
	for (i = 0; i < s->ncpus; i++) {
		CPU_ZERO(&one);
		CPU_SET(s->cpu[i], &one);
		if (!sched_setaffinity(0, sizeof(one), &one))
			sched_yield();
	}
	sched_setaffinity(0, sizeof(old), &old);
}

static int apply_poll(char *why, size_t len)
{
	int32_t zero = 0;
	int ret;

	ret = cpuidle_open(&idle.set, why, len);
	if (ret == -ENOENT)
		return KNOB_SKIP;
	if (ret) {
		snprintf(why, len, "cannot read cpuidle counters: %s",
			 strerror(-ret));
		return ret;
	}
	if (cpuidle_poll_state(&idle.set) < 0) {
		snprintf(why, len, "the cpuidle driver has no POLL state");
		return KNOB_SKIP;
	}
	/* O_CLOEXEC: the function instances must not hold the request. */
	idle.dma_fd = open(IDLE_DMA_LATENCY, O_WRONLY | O_CLOEXEC);
	if (idle.dma_fd < 0) {
		ret = errno;
		snprintf(why, len, "cannot open " IDLE_DMA_LATENCY ": %s%s",
			 strerror(ret), ret == EACCES || ret == EPERM ? " (needs root)" : "");
		return ret == ENOENT || ret == EACCES || ret == EPERM ? KNOB_SKIP : -ret;
	}
	if (write(idle.dma_fd, &zero, sizeof(zero)) != sizeof(zero)) {
		ret = errno;
		snprintf(why, len, "cannot write 0 to " IDLE_DMA_LATENCY
			 ": %s", strerror(ret));
		return -ret;
	}
	kick_cpus(&idle.set);
	snprintf(idle.applied, sizeof(idle.applied), "poll: " IDLE_DMA_LATENCY
		 " held at 0");
	return cpuidle_read_halt_usage(&idle.set, &idle.halt_usage);
}

/* guest_halt_poll_ns acts only under the haltpoll governor. */
static int haltpoll_usable(char *why, size_t len)
{
	char gov[64] = "";

	if (sysroot_access(IDLE_HALTPOLL_PARAM, F_OK)) {
		snprintf(why, len, "no " IDLE_HALTPOLL_PARAM " (the haltpoll cpuidle "
			 "governor is not built or loaded)");
		return 0;
	}
	if (sysfs_read_line(IDLE_GOVERNOR_FILE, gov, sizeof(gov)) < 0 ||
	    strcmp(gov, "haltpoll")) {
		snprintf(why, len, "the cpuidle governor is '%s', not haltpoll: "
			 "guest_halt_poll_ns would have no effect", gov);
		return 0;
	}
	if (sysroot_access(IDLE_HALTPOLL_PARAM, W_OK)) {
		snprintf(why, len, "cannot write " IDLE_HALTPOLL_PARAM ": %s%s",
			 strerror(errno), geteuid() ? " (needs root)" : "");
		return 0;
	}
	return 1;
}

static int apply_halt_poll_ns(const struct idle_policy *p, char *why, size_t len)
{
	char value[16];
	long id;

	if (!haltpoll_usable(why, len))
		return KNOB_SKIP;
	snprintf(value, sizeof(value), "%u", p->poll_ns);
	id = journal_set(IDLE_HALTPOLL_PARAM, value);
	if (id < 0) {
		snprintf(why, len, "cannot set " IDLE_HALTPOLL_PARAM " = %s: %s", value,
			 strerror((int)-id));
		return id == -EACCES || id == -EPERM || id == -EROFS ? KNOB_SKIP : (int)id;
	}
	idle.journal_id = id;
	return 0;
}

static void idle_restore(const struct cell *c);

/* POLL at run time: a cpuidle driver with a POLL state, and the QoS file. */
static int poll_usable(char *why, size_t len)
{
	char drv[64];
	struct cpuidle_set set;
	int ret;

	if (cpuidle_driver(drv, sizeof(drv)) || !strcmp(drv, "none")) {
		snprintf(why, len, "no cpuidle driver (current_driver is '%s'): the "
			 "kernel idles with HLT and POLL cannot be chosen at run time "
			 "(idle = spin keeps the CPUs busy instead)", drv);
		return 0;
	}
	ret = cpuidle_open(&set, why, len);
	if (ret)
		return 0;
	ret = cpuidle_poll_state(&set) >= 0;
	cpuidle_close(&set);
	if (!ret) {
		snprintf(why, len, "the cpuidle driver %s has no POLL state", drv);
		return 0;
	}
	if (access(IDLE_DMA_LATENCY, W_OK)) {	/* a device: never in a test root */
		snprintf(why, len, "cannot open " IDLE_DMA_LATENCY ": %s%s",
			 strerror(errno), geteuid() ? " (needs root)" : "");
		return 0;
	}
	return 1;
}

int idle_policy_usable(const struct idle_policy *p, char *why, size_t len)
{
	char tmp[400] = "";
	int ok = 1;

	switch (p->kind) {
	case IDLE_POLL:
		ok = poll_usable(tmp, sizeof(tmp));
		break;
	case IDLE_HLT:            /* without a driver: HLT is what the kernel does */
		ok = !cpuidle_has_driver() || haltpoll_usable(tmp, sizeof(tmp));
		break;
	case IDLE_HALTPOLL:
		if (!cpuidle_has_driver()) {
			snprintf(tmp, sizeof(tmp), "no cpuidle driver: guest halt-polling "
				 "needs the haltpoll cpuidle driver");
			ok = 0;
		} else {
			ok = haltpoll_usable(tmp, sizeof(tmp));
		}
		break;
	default:
		break;
	}
	if (!ok)
		snprintf(why, len, "%s", tmp);
	return ok;
}

/*
 * The policy this host applies for @c and the key it comes from: host-idle
 * for a cell in a guest; else idle, or host-idle where idle is default.
 */
static const char *host_policy(const struct cell *c, const char **key)
{
	*key = "host-idle";
	if (backend_boots_guests(c->backend) || !strcmp(c->idle, "default"))
		return c->host_idle;
	*key = "idle";
	return c->idle;
}

/* "KEY = POLICY: " before @why, so that a skip says which key and policy. */
static void prefix_key(const char *key, const char *policy, char *why, size_t len)
{
	char tmp[512];

	snprintf(tmp, sizeof(tmp), "%s", why);
	snprintf(why, len, "%s = %s: %s", key, policy, tmp);
}

/* A cell in a guest: its idle judged for the guest its backend will start. */
static int guest_supported(const struct cell *c, char *why, size_t len)
{
	struct idle_policy p;
	char host[200];
	const char *accel = backend_cell_accel(c, host, sizeof(host));

	if (idle_policy_parse(c->idle, &p) || p.kind == IDLE_DEFAULT ||
	    idle_guest_usable(&p, accel, why, len))
		return 1;
	prefix_key("idle", c->idle, why, len);
	return 0;
}

/* Native and containers: idle and host-idle name one machine. */
static int one_machine(const struct cell *c, char *why, size_t len)
{
	if (backend_boots_guests(c->backend) || !strcmp(c->idle, "default") ||
	    !strcmp(c->host_idle, "default") || !strcmp(c->idle, c->host_idle))
		return 1;
	snprintf(why, len, "idle = %s and host-idle = %s name two policies for one machine "
		 "(backend %s runs the functions on the host): set one", c->idle,
		 c->host_idle, c->backend);
	return 0;
}

static int idle_supported(const struct cell *c, char *why, size_t len)
{
	struct idle_policy p;
	const char *key, *policy = host_policy(c, &key);

	if (!one_machine(c, why, len))
		return 0;
	if (backend_boots_guests(c->backend) && !guest_supported(c, why, len))
		return 0;
	if (idle_policy_parse(policy, &p) || p.kind == IDLE_DEFAULT)
		return 1;
	if (idle_policy_usable(&p, why, len))
		return 1;
	prefix_key(key, policy, why, len);
	return 0;
}

static int apply_spin(char *why, size_t len)
{
	int n = idle_spin_start(why, len);

	if (n < 0)
		return n;
	idle.spinners = n;
	snprintf(idle.applied, sizeof(idle.applied), "spin: %d SCHED_IDLE busy "
		 "thread(s), one per CPU", n);
	return 0;
}

/* hlt and haltpoll:N; hlt without a cpuidle driver changes nothing. */
static int apply_halt(const struct idle_policy *p, char *why, size_t len)
{
	char drv[64];

	if (p->kind == IDLE_HLT && !cpuidle_has_driver()) {
		cpuidle_driver(drv, sizeof(drv));
		snprintf(idle.applied, sizeof(idle.applied), "hlt, no cpuidle driver "
			 "(current_driver '%s': the kernel's default_idle halts)", drv);
		return 0;
	}
	snprintf(idle.applied, sizeof(idle.applied), "%s: guest_halt_poll_ns = %u "
		 "under the haltpoll governor", p->kind == IDLE_HLT ? "hlt" :
		 "haltpoll", p->poll_ns);
	return apply_halt_poll_ns(p, why, len);
}

static int idle_apply(const struct cell *c, char *why, size_t len)
{
	struct idle_policy p;
	const char *key, *policy = host_policy(c, &key);
	int ret = 0;

	idle.dma_fd = -1;
	idle.journal_id = 0;
	idle.spinners = 0;
	idle.applied[0] = '\0';
	if (!idle_supported(c, why, len))
		return KNOB_SKIP;
	if (idle_policy_parse(policy, &p)) {
		snprintf(why, len, "bad %s policy '%s'", key, policy);
		return -EINVAL;
	}
	if (p.kind == IDLE_DEFAULT)
		return 0;
	/* machine-wide: the run holds the journal's host lock */
	if (p.kind == IDLE_POLL)
		ret = apply_poll(why, len);
	else if (p.kind == IDLE_SPIN)
		ret = apply_spin(why, len);
	else
		ret = apply_halt(&p, why, len);
	if (ret)
		prefix_key(key, policy, why, len);
	if (ret)                  /* knobs_apply() restores only earlier knobs */
		idle_restore(c);
	return ret;
}

static int verify_poll(char *why, size_t len)
{
	uint64_t now = 0;

	if (cpuidle_read_halt_usage(&idle.set, &now))
		return 0;
	if (now <= idle.halt_usage)
		return 0;
	snprintf(why, len, "idle = poll did not hold: the halt state's usage grew by "
		 "%" PRIu64 " during the cell (something else decides the idle state)",
		 now - idle.halt_usage);
	return -EAGAIN;
}

static int idle_verify(const struct cell *c, char *why, size_t len)
{
	struct idle_policy p;
	char now[32] = "";
	const char *key, *policy = host_policy(c, &key);

	if (idle_policy_parse(policy, &p) || p.kind == IDLE_DEFAULT)
		return 0;
	if (p.kind == IDLE_POLL)
		return idle.dma_fd >= 0 ? verify_poll(why, len) : 0;
	if (p.kind == IDLE_SPIN)
		return idle_spin_held(why, len);
	if (!idle.journal_id)     /* hlt without a driver: nothing was set */
		return 0;
	if (sysfs_read_line(IDLE_HALTPOLL_PARAM, now, sizeof(now)) < 0 ||
	    strtoul(now, NULL, 10) != p.poll_ns) {
		snprintf(why, len, "%s = %s did not hold: guest_halt_poll_ns is '%s' "
			 "at the end of the cell (changed by someone else)", key, policy, now);
		return -EAGAIN;
	}
	return 0;
}

static void idle_restore(const struct cell *c)
{
	(void)c;
	if (idle.spinners)
		idle_spin_stop();
	idle.spinners = 0;
	if (idle.dma_fd >= 0)
		close(idle.dma_fd);
	idle.dma_fd = -1;
	if (idle.journal_id > 0 && journal_undo(idle.journal_id))
		pr_warn("cannot restore " IDLE_HALTPOLL_PARAM " (journal %s)", journal_path());
	idle.journal_id = 0;
	cpuidle_close(&idle.set);
}

/* idle.applied where the host applied `idle`; a qemu cell's is the backend's. */
static void idle_describe(const struct cell *c, char *buf, size_t len)
{
	const char *key;

	host_policy(c, &key);
	snprintf(buf, len, "%s", strcmp(key, "idle") ? "" : idle.applied);
}

/* Where `idle` was applied (a guest says so itself), and the host's host-idle. */
static void idle_report(const struct cell *c, const struct knob_sink *s)
{
	const char *key;

	host_policy(c, &key);
	if (!backend_boots_guests(c->backend) && strcmp(c->idle, "default"))
		s->put(s->ctx, "idle.applied_in", "host");
	if (!strcmp(key, "host-idle") && idle.applied[0])
		s->put(s->ctx, "host-idle.applied", idle.applied);
}

const struct knob_ops knob_idle = {
	.name = "idle",
	.describe = idle_describe,
	.report = idle_report,
	.supported = idle_supported,
	.apply = idle_apply,
	.verify = idle_verify,
	.restore = idle_restore,
};
