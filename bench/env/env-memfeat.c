// SPDX-License-Identifier: MIT
/*
 * env-memfeat.c - memory features that change what a VM costs in memory:
 * every readable value of /sys/kernel/mm/ksm (run, pages_to_scan,
 * sleep_millisecs, pages_shared, pages_sharing, full_scans, ...), and
 * transparent huge pages: the [selected] value of
 * /sys/kernel/mm/transparent_hugepage/{enabled,defrag,shmem_enabled};
 * where a VM's memory cgroup would be made (memcg.h: the hostmem probe
 * counts a CVM's guest_memfd only there), or why there is none.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "env-local.h"
#include "memcg.h"
#include "sysfs.h"

#define KSM_DIR	"/sys/kernel/mm/ksm"
#define THP_DIR	"/sys/kernel/mm/transparent_hugepage"

static void memfeat_put_ksm(const struct env_sink *s)
{
	int n = env_put_dir(s, "ksm", KSM_DIR);

	if (n < 0)
		env_put_unavail(s, "ksm.run", KSM_DIR "/run", "%s",
				n == -ENOENT ? "kernel built without KSM" :
				strerror(-n));
}

static void memfeat_put_thp_one(const struct env_sink *s, const char *file)
{
	char path[128], key[64], line[256], sel[64];
	int n;

	snprintf(path, sizeof(path), THP_DIR "/%s", file);
	snprintf(key, sizeof(key), "thp.%s", file);
	n = sysfs_read_line(path, line, sizeof(line));
	if (n < 0)
		env_put_unavail(s, key, path, "%s", n == -ENOENT ?
				"kernel built without transparent huge pages" :
				strerror(-n));
	else if (!env_selected(line, sel, sizeof(sel)))
		env_put(s, key, path, "%s", line);
	else
		env_put(s, key, path, "%s", sel);
}

static void memfeat_put_memcg(const struct env_sink *s)
{
	struct memcg_host h;

	memcg_detect(&h);
	if (h.version == MEMCG_NONE)
		env_put_unavail(s, "memcg.version", "/proc/self/mountinfo", "%s", h.why);
	else {
		env_put(s, "memcg.version", "/proc/self/mountinfo", "%d", (int)h.version);
		env_put(s, "memcg.parent", "/proc/self/cgroup", "%s", h.parent);
	}
}

/**
 * env_collect_memfeat() - emit the ksm.* and thp.* facts.
 * @s: the sink
 */
void env_collect_memfeat(const struct env_sink *s)
{
	memfeat_put_ksm(s);
	memfeat_put_thp_one(s, "enabled");
	memfeat_put_thp_one(s, "defrag");
	memfeat_put_thp_one(s, "shmem_enabled");
	memfeat_put_memcg(s);
}
