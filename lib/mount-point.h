/* SPDX-License-Identifier: MIT */
/*
 * mount-point.h - mount points read from /proc/self/mountinfo: one line's
 * mount point, and the unmounting of every mount at or below a directory
 * (what a killed mmdebstrap leaves in its tree), deepest first.
 */
#ifndef CVMBENCH_MOUNT_POINT_H
#define CVMBENCH_MOUNT_POINT_H

#include <stddef.h>

/**
 * mountinfo_point() - the mount point of the mountinfo @line (its fifth
 * field, octal escapes such as \040 undone) into @dir. 0, -EINVAL for a
 * line without one, -ENAMETOOLONG (never a cut path).
 */
int mountinfo_point(const char *line, char *dir, size_t len);

/**
 * mount_unmount_under() - unmount every mount whose mount point is @dir
 * itself or lies below "@dir/" (never a sibling that only shares the
 * prefix), the deepest first, one at a time as /proc/self/mountinfo lists
 * them; a busy one is detached (MNT_DETACH: its path no longer leads into
 * it). Returns the number unmounted, or -errno when one could not be
 * (-EBUSY when mounts are still there after many rounds).
 */
int mount_unmount_under(const char *dir);

#endif
