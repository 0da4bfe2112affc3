// SPDX-License-Identifier: MIT
/*
 * env-pmu.c - is there a hardware PMU: perf_event_open(2) of
 * PERF_COUNT_HW_INSTRUCTIONS for this process (user space only), opened and
 * closed at once. Guests often have none (the open fails with ENOENT or
 * EOPNOTSUPP). Under a test root (sysroot.h) the captured file `pmu`
 * holds the answer.
 */
#include <errno.h>
#include <linux/perf_event.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "env-local.h"
#include "sysfs.h"
#include "sysroot.h"

#define PMU_SRC "perf_event_open(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS)"

/**
 * env_pmu_open() - try to open a hardware instruction counter.
 * Return: 0 if it opened (and was closed again), else -errno.
 */
int env_pmu_open(void)
{
	struct perf_event_attr a;
	long fd;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_HARDWARE;
	a.config = PERF_COUNT_HW_INSTRUCTIONS;
	a.disabled = 1;
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	fd = syscall(SYS_perf_event_open, &a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		return -errno;
	close((int)fd);
	return 0;
}

/**
 * env_collect_pmu() - emit pmu.hardware.
 * @s: the sink
 */
void env_collect_pmu(const struct env_sink *s)
{
	int err;

	if (sysroot()) {
		env_put_file(s, "pmu.hardware", "/pmu");
		return;
	}
	err = env_pmu_open();
	if (!err)
		env_put(s, "pmu.hardware", PMU_SRC, "yes");
	else
		env_put(s, "pmu.hardware", PMU_SRC, "no: %s", strerror(-err));
}
