/* SPDX-License-Identifier: MIT */
/*
 * state-dir.h - cvmbench's state directory: $CVMBENCH_STATE_DIR, else
 * /var/lib/cvmbench (root) or $HOME/.local/state/cvmbench. It holds the
 * journal and what runs build there (OCI bundles and rootfs trees). It is
 * created 0700, and the only trees cvmbench ever deletes lie inside it
 * (or inside a directory of its own cache: state_dir_remove_tree_in()).
 */
#ifndef CVMBENCH_STATE_DIR_H
#define CVMBENCH_STATE_DIR_H

#include <stddef.h>

/** state_dir_path() - the state directory's path (not created). */
void state_dir_path(char *buf, size_t len);

/**
 * state_dir_create() - create the state directory and its missing parents
 * with mode 0700. Returns 0 or -errno.
 */
int state_dir_create(const char *dir);

/**
 * state_dir_open() - open the state directory @dir (an existing one) for the
 * journal, refusing one that others could write into: a symbolic link (not
 * followed), not a directory, not owned by the effective user, or group- or
 * world-writable (its journal's "set PATH VALUE" entries are replayed as
 * root). Returns the directory's fd, -EPERM with the reason in @err, or
 * -errno (message in @err).
 */
int state_dir_open(const char *dir, char *err, size_t errlen);

/**
 * state_dir_remove_tree() - remove @path and everything below it, only if
 * it lies strictly inside the state directory: its real path must be below
 * the state directory's real path, every component is opened with
 * O_NOFOLLOW from the state directory down (a symlink planted on the way
 * is refused), and the walk stays on the state directory's file system.
 * A missing @path is not an error. Returns 0, -EPERM for a path outside,
 * or -errno.
 */
int state_dir_remove_tree(const char *path);

/**
 * state_dir_remove_tree_in() - state_dir_remove_tree() inside the
 * directory @top instead (the cache's rootfs directory for a killed
 * build's tree, rootfs-build-dir.c): the same checks, the walk staying on
 * @top's file system. Returns 0, -EPERM for a path outside, or -errno.
 */
int state_dir_remove_tree_in(const char *top, const char *path);

#endif
