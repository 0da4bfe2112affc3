// SPDX-License-Identifier: MIT
/*
 * pidns.c - this process's pid namespace, and whether a thread is in it
 * (pidns.h). The namespace is the device and inode of /proc/self/ns/pid;
 * the device is converted to the kernel's dev_t encoding (MKDEV: major << 20
 * | minor), which bpf_get_ns_current_pid_tgid() compares it with.
 */
#include <errno.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "pidns.h"

static int ns_stat(const char *path, struct pidns_id *ns)
{
	struct stat st;

	if (stat(path, &st))
		return -errno;
	ns->dev = ((uint64_t)major(st.st_dev) << 20) | minor(st.st_dev);
	ns->ino = st.st_ino;
	return 0;
}

int pidns_self(struct pidns_id *ns)
{
	return ns_stat("/proc/self/ns/pid", ns);
}

int pidns_is_initial(const struct pidns_id *ns)
{
	return ns->ino == PIDNS_INIT_INO;
}

int pidns_of_task(pid_t tid, const struct pidns_id *ns)
{
	struct pidns_id t;
	char path[64];
	int ret;

	snprintf(path, sizeof(path), "/proc/%d/ns/pid", (int)tid);
	ret = ns_stat(path, &t);
	if (ret)
		return ret;
	return t.dev == ns->dev && t.ino == ns->ino ? 0 : -EXDEV;
}
