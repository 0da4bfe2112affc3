/* SPDX-License-Identifier: MIT */
/*
 * scratch-disk.h - a writable disk per VM for what must reach a disk
 * (scratch-disk = MiB): a sparse ext4 image in the state directory,
 * journalled before it is made, removed when the VM ends.
 */
#ifndef CVMBENCH_SCRATCH_DISK_H
#define CVMBENCH_SCRATCH_DISK_H

#include <stddef.h>

/**
 * scratch_disk_make() - journal, then create a @mib MiB ext4 image labelled
 * AGENT_GUEST_SCRATCH_LABEL in the state directory; its path into @path and
 * the journal entry into *@id. 0 or -errno with @err (nothing left).
 */
int scratch_disk_make(int mib, char *path, size_t len, long *id, char *err, size_t errlen);

/** scratch_disk_remove() - remove the image of entry *@id (journal undo). */
void scratch_disk_remove(long *id);

#endif
