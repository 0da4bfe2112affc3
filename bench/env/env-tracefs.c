// SPDX-License-Identifier: MIT
/*
 * env-tracefs.c - whether tracefs is mounted, or could be, found without
 * mounting it (tracefs-find.c: /proc/self/mountinfo, /proc/filesystems and
 * the mount point /sys/kernel/tracing). `cvmbench env` changes nothing.
 */
#include <stdio.h>

#include "env-local.h"
#include "tracefs-find.h"

/**
 * env_collect_tracefs() - emit tracefs.mounted and tracefs.mountable.
 * @s: the sink
 */
void env_collect_tracefs(const struct env_sink *s)
{
	struct tracefs_place p;
	int usable = tracefs_find(&p);

	if (p.mounted) {
		env_put(s, "tracefs.mounted", "/proc/self/mountinfo", "yes, at %s", p.dir);
		env_put(s, "tracefs.mountable", "/proc/self/mountinfo", "yes (mounted)");
		return;
	}
	env_put(s, "tracefs.mounted", "/proc/self/mountinfo", "no");
	if (usable)
		env_put(s, "tracefs.mountable", "/proc/filesystems, " TRACEFS_MOUNT_POINT,
			"yes (the kernel has tracefs; mounting needs root)");
	else
		env_put(s, "tracefs.mountable", "/proc/filesystems, " TRACEFS_MOUNT_POINT,
			"no: %s", p.why);
}
