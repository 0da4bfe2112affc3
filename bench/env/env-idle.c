// SPDX-License-Identifier: MIT
/*
 * env-idle.c - the idle policy: cpuidle driver, governor and available
 * governors from /sys/devices/system/cpu/cpuidle, the idle states of cpu0
 * (name, desc, latency, residency, disable) from
 * /sys/devices/system/cpu/cpu0/cpuidle/stateK, and the guest halt-polling
 * parameters of /sys/module/haltpoll/parameters (guest_halt_poll_ns, ...).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "env-local.h"
#include "sysroot.h"

#define CPUIDLE_DIR	"/sys/devices/system/cpu/cpuidle"
#define CPU0_IDLE_DIR	"/sys/devices/system/cpu/cpu0/cpuidle"
#define HALTPOLL_DIR	"/sys/module/haltpoll/parameters"

static const struct {
	const char *file;
	const char *suffix;	/* key: cpuidle.cpu0.stateK.<suffix> */
} idle_state_files[] = {
	{ "name", "name" },
	{ "desc", "desc" },
	{ "latency", "latency_us" },
	{ "residency", "residency_us" },
	{ "disable", "disable" },
};

static void idle_put_policy(const struct env_sink *s)
{
	/* current_governor is writable (cpuidle_sysfs_switch) or absent;
	 * current_governor_ro is always there on kernels with cpuidle. */
	if (!sysroot_access(CPUIDLE_DIR "/current_governor", R_OK))
		env_put_file(s, "cpuidle.governor", CPUIDLE_DIR "/current_governor");
	else
		env_put_file(s, "cpuidle.governor", CPUIDLE_DIR "/current_governor_ro");
	env_put_file(s, "cpuidle.driver", CPUIDLE_DIR "/current_driver");
	env_put_file(s, "cpuidle.governors_available",
		     CPUIDLE_DIR "/available_governors");
}

static void idle_put_states(const struct env_sink *s)
{
	char dir[128], path[192], key[96];
	int k;
	size_t i;

	for (k = 0;; k++) {
		snprintf(dir, sizeof(dir), CPU0_IDLE_DIR "/state%d", k);
		if (sysroot_access(dir, F_OK))
			break;
		for (i = 0; i < sizeof(idle_state_files) / sizeof(idle_state_files[0]); i++) {
			snprintf(path, sizeof(path), "%s/%s", dir,
				 idle_state_files[i].file);
			snprintf(key, sizeof(key), "cpuidle.cpu0.state%d.%s", k,
				 idle_state_files[i].suffix);
			env_put_file(s, key, path);
		}
	}
	if (k)
		env_put(s, "cpuidle.cpu0.states", CPU0_IDLE_DIR "/state*", "%d", k);
	else
		env_put_unavail(s, "cpuidle.cpu0.states", CPU0_IDLE_DIR "/state*",
				"no idle states (no cpuidle driver registered, "
				"cpuidle.off=1, or cpuidle not built)");
}

static void idle_put_haltpoll(const struct env_sink *s)
{
	int n = env_put_dir(s, "cpuidle.haltpoll", HALTPOLL_DIR);

	if (n < 0)
		env_put_unavail(s, "cpuidle.haltpoll.guest_halt_poll_ns",
				HALTPOLL_DIR "/guest_halt_poll_ns",
				"%s", n == -ENOENT ? "haltpoll not loaded" :
				strerror(-n));
}

/**
 * env_collect_idle() - emit the cpuidle.* facts.
 * @s: the sink
 */
void env_collect_idle(const struct env_sink *s)
{
	idle_put_policy(s);
	idle_put_states(s);
	idle_put_haltpoll(s);
}
