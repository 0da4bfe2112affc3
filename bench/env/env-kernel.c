// SPDX-License-Identifier: MIT
/*
 * env-kernel.c - the running kernel: release, version and machine from
 * uname(2), and the boot command line from /proc/cmdline.
 */
#include <errno.h>
#include <string.h>
#include <sys/utsname.h>

#include "env-local.h"

/**
 * env_collect_kernel() - emit the kernel.* facts.
 * @s: the sink
 */
void env_collect_kernel(const struct env_sink *s)
{
	struct utsname u;

	if (uname(&u) < 0) {
		const char *why = strerror(errno);

		env_put_unavail(s, "kernel.release", "uname(2) release", "%s", why);
		env_put_unavail(s, "kernel.version", "uname(2) version", "%s", why);
		env_put_unavail(s, "kernel.machine", "uname(2) machine", "%s", why);
	} else {
		env_put(s, "kernel.release", "uname(2) release", "%s", u.release);
		env_put(s, "kernel.version", "uname(2) version", "%s", u.version);
		env_put(s, "kernel.machine", "uname(2) machine", "%s", u.machine);
	}
	env_put_file(s, "kernel.cmdline", "/proc/cmdline");
}
