/* SPDX-License-Identifier: MIT */
/*
 * scratch.h - private scratch directories under the data directory, for
 * workloads that need files on disk (compression's input tree,
 * random-disk-io's file): one per instance, removed at teardown.
 */
#ifndef CVMFN_SCRATCH_H
#define CVMFN_SCRATCH_H

#include <stddef.h>

#include "workload.h"

/**
 * wl_scratch_dir() - create "<dir>/<tag>.XXXXXX" and put its path in @buf:
 * dir is params.scratch_dir (created if missing), else params.data_dir
 * (created with its parents if missing). Returns 0 or -errno with
 * inst->error naming the directory that could not be created.
 */
int wl_scratch_dir(struct wl_instance *inst, const char *tag, char *buf,
		   size_t len);

/**
 * wl_scratch_remove() - remove @path and everything under it (no symlinks
 * followed). Errors are ignored: it is cleanup.
 */
void wl_scratch_remove(const char *path);

#endif
