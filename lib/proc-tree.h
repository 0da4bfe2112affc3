/* SPDX-License-Identifier: MIT */
/*
 * proc-tree.h - processes and all their descendants, from the parent pid
 * of every process in /proc: what an instance is when it is a container
 * runtime (runc's child is the container's cvmfn).
 */
#ifndef CVMBENCH_PROC_TREE_H
#define CVMBENCH_PROC_TREE_H

#include <stddef.h>
#include <sys/types.h>

/**
 * proc_tree() - @pids and every living descendant of theirs into a
 * malloc'd array @out (@n of them, @pids first). Returns 0 or -errno.
 */
int proc_tree(const pid_t *pids, size_t npids, pid_t **out, size_t *n);

#endif
