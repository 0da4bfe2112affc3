// SPDX-License-Identifier: MIT
/*
 * tracefs-host.c - the journal kinds "tracefs-mount" (a tracefs mount a run
 * made: unmounted) and "tracefs-instance" (a probe's instance directory:
 * removed), and mounting tracefs through the journal. Both undos first
 * check that the path is tracefs (statfs magic), so a recorded name can
 * only ever unmount or rmdir a tracefs directory.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "journal.h"
#include "sysfs.h"
#include "sysroot.h"
#include "tracefs-host.h"

#define TRACEFS_MAGIC_NR 0x74726163

static int is_tracefs(const char *path)
{
	struct statfs sf;

	return !statfs(path, &sf) && sf.f_type == TRACEFS_MAGIC_NR;
}

static int mounted_by_run;

int tracefs_host_dir(char *dir, size_t len, char *err, size_t errlen)
{
	struct tracefs_place place;
	long id;

	if (!tracefs_find(&place)) {      /* not in this kernel, or no mount point */
		snprintf(err, errlen, "%s", place.why);
		return -ENOENT;
	}
	if (sysroot() && !place.mounted) { /* a test root never mounts the real one */
		snprintf(err, errlen, "tracefs is not mounted in the test root");
		return -ENOENT;
	}
	/* from the mount table: a statfs of debug/tracing would automount it */
	if (place.mounted) {
		snprintf(dir, len, "%s", place.dir);
		return 0;
	}
	id = journal_object("tracefs-mount", TRACEFS_HOST_MOUNT);
	if (id < 0) {
		snprintf(err, errlen, "cannot journal a tracefs mount: %s", strerror((int)-id));
		return (int)id;
	}
	if (mount("nodev", TRACEFS_HOST_MOUNT, "tracefs", 0, NULL)) {
		int e = errno;

		snprintf(err, errlen, "tracefs is not mounted and cannot be mounted at "
			 TRACEFS_HOST_MOUNT ": %s", strerror(e));
		if (journal_forget(id))
			snprintf(err, errlen, "cannot journal the end of a failed tracefs mount");
		return -e;
	}
	mounted_by_run = 1;
	snprintf(dir, len, "%s", TRACEFS_HOST_MOUNT);
	return 0;
}

int tracefs_host_mounted_by_run(void)
{
	return mounted_by_run;
}

static int mount_undo(const char *path)
{
	if (!is_tracefs(path))
		return 0;         /* unmounted already */
	if (!umount2(path, 0))
		return 0;
	if (errno == EBUSY && !umount2(path, MNT_DETACH))
		return 0;         /* in use: detached, gone when released */
	return -errno;
}

/* rmdir PATH, only if it is TRACING/instances/NAME on a tracefs. */
static int instance_undo(const char *path)
{
	char parent[PATH_MAX], *slash;

	if (snprintf(parent, sizeof(parent), "%s", path) >= (int)sizeof(parent))
		return -ENAMETOOLONG;
	slash = strrchr(parent, '/');
	if (!slash || !slash[1] || slash - parent < 10 || strncmp(slash - 10, "/instances/", 11))
		return -EPERM;
	*slash = '\0';
	if (!is_tracefs(parent))
		return access(parent, F_OK) ? -ENOENT : -EPERM;
	return sysfs_rmdir_busy(path, 1000);
}

static const struct journal_kind kind_mount = { "tracefs-mount", mount_undo };
static const struct journal_kind kind_instance = { "tracefs-instance", instance_undo };
JOURNAL_KIND_REGISTER(kind_mount)
JOURNAL_KIND_REGISTER(kind_instance)

#ifdef HAVE_TRACEFS
#include <tracefs.h>

int tracefs_host_instance(const char *name, struct tracefs_instance **out, long *jid,
			  char *err, size_t errlen)
{
	char top[PATH_MAX], dir[PATH_MAX + 80];
	int ret = tracefs_host_dir(top, sizeof(top), err, errlen);

	*out = NULL;
	*jid = 0;
	if (ret)
		return ret;
	snprintf(dir, sizeof(dir), "%s/instances/%s", top, name);
	*jid = journal_object("tracefs-instance", dir);
	if (*jid < 0) {
		ret = (int)*jid;
		snprintf(err, errlen, "cannot journal tracefs instance %s (so it is not "
			 "created): %s", name, strerror(-ret));
		*jid = 0;
		return ret;
	}
	*out = tracefs_instance_create(name);
	if (!*out) {
		snprintf(err, errlen, "cannot create tracefs instance %s", name);
		tracefs_host_instance_remove(NULL, *jid);
		*jid = 0;
		return -EIO;
	}
	tracefs_trace_off(*out);
	return 0;
}

long long tracefs_host_overruns(struct tracefs_instance *inst)
{
	long ncpu = sysconf(_SC_NPROCESSORS_CONF), cpu;
	long long sum = 0, v;
	char file[64], *text, *o;

	for (cpu = 0; cpu < ncpu; cpu++) {
		snprintf(file, sizeof(file), "per_cpu/cpu%ld/stats", cpu);
		text = tracefs_instance_file_read(inst, file, NULL);
		o = text ? strstr(text, "overrun:") : NULL;
		if (o && sscanf(o + 8, "%lld", &v) == 1)
			sum += v;
		free(text);
	}
	return sum;
}

void tracefs_host_instance_remove(struct tracefs_instance *inst, long jid)
{
	if (inst) {
		tracefs_trace_off(inst);
		tracefs_instance_destroy(inst);
		tracefs_instance_free(inst);
	}
	if (jid > 0 && journal_forget(jid))
		fprintf(stderr, "cvmbench: journal %s: cannot close the entry of a tracefs "
			"instance\n", journal_path());
}
#endif
