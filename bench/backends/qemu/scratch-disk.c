// SPDX-License-Identifier: MIT
/*
 * scratch-disk.c - the writable scratch disk of a VM (scratch-disk = MiB):
 * the state directory (on the host's disk, unlike a tmpfs $TMPDIR) gets
 * qemu-scratch-PID-N.img, journalled (kind qemu-scratch-disk: its undo
 * removes that file only) before it is made, then `mkfs.ext4 -q -F -L
 * cvmbench-scratch -m 0 IMG SIZE` (an argv); the guest's agent mounts it
 * read-write on /scratch. Removed when the VM ends, or by restore.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "agent-guest.h"
#include "guest-local.h"
#include "journal.h"
#include "scratch-disk.h"
#include "state-dir.h"

static int scratch_unlink(const char *path)
{
	return unlink(path) && errno != ENOENT ? -errno : 0;
}

static const struct journal_kind kind_scratch = { "qemu-scratch-disk", scratch_unlink };
JOURNAL_KIND_REGISTER(kind_scratch)

int scratch_disk_make(int mib, char *path, size_t len, long *id, char *err, size_t errlen)
{
	static unsigned int n;
	char dir[PATH_MAX - 64], size[32];
	char *mkfs[] = { "mkfs.ext4", "-q", "-F", "-L", AGENT_GUEST_SCRATCH_LABEL, "-m", "0",
			 path, size, NULL };
	int fd, ret;

	state_dir_path(dir, sizeof(dir));
	if (state_dir_create(dir) ||
	    guest_path(path, len, "%s/qemu-scratch-%d-%u.img", dir, (int)getpid(), n++))
		return -ENAMETOOLONG;
	*id = journal_object("qemu-scratch-disk", path);
	if (*id <= 0) {
		snprintf(err, errlen, "cannot journal the scratch disk %s: %s", path,
			 strerror((int)-*id));
		return *id ? (int)*id : -EIO;
	}
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	ret = fd < 0 ? -errno : 0;
	if (fd >= 0)
		close(fd);
	snprintf(size, sizeof(size), "%dM", mib);
	ret = ret ?: guest_exec(mkfs, NULL, NULL, 0, NULL, err, errlen);
	if (ret) {
		if (!err[0])
			snprintf(err, errlen, "%s: %s", path, strerror(-ret));
		scratch_disk_remove(id);
	}
	return ret;
}

void scratch_disk_remove(long *id)
{
	journal_undo_or_warn(id, "scratch disk");
}
