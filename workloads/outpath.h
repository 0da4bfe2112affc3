/* SPDX-License-Identifier: MIT */
/*
 * outpath.h - where a --output goes, and how, so that cvmfn never damages
 * what it writes to. A regular file (or a missing one) is replaced
 * atomically: a temporary file in its directory, then rename(). A symlink
 * is followed, and the file it points to is what gets replaced. Anything
 * that is not a regular file - a character device such as /dev/null or
 * /dev/full, a FIFO, a dangling symlink - is written in place and never
 * renamed over. Directories, block devices and sockets are refused. A
 * function that writes a second file beside its --output refuses an
 * --output that is not a regular file (wl_out_beside()).
 */
#ifndef CVMFN_OUTPATH_H
#define CVMFN_OUTPATH_H

#include <limits.h>
#include <stddef.h>

#include "workload.h"

struct wl_out_target {
	char path[PATH_MAX];      /* the path to write: @path, or a symlink's target */
	int in_place;             /* 1: open and write into it, no temporary, no rename */
};

/**
 * wl_out_target() - decide how to write @path. 0 or -errno with inst->error
 * naming the path (a directory, a block device, a socket, no access).
 */
int wl_out_target(struct wl_instance *inst, const char *path, struct wl_out_target *t);

/**
 * wl_write_in_place() - open @path for writing (creating it if missing,
 * truncating a regular file) and write @a then @b into it. 0 or -errno with
 * inst->error set (e.g. "No space left on device" for /dev/full).
 */
int wl_write_in_place(struct wl_instance *inst, const char *path,
		      const void *a, size_t alen, const void *b, size_t blen);

/** wl_write_fd() - write @a then @b to @fd, all of it. 0 or -errno. */
int wl_write_fd(int fd, const void *a, size_t alen, const void *b, size_t blen);

/**
 * wl_out_beside() - the path of a second output file, @output followed by
 * @suffix, into @path. Refused (-EINVAL, inst->error naming @output) when
 * @output exists and is not a regular file: no file is ever made beside a
 * device or FIFO (/dev/null.text). 0 or -errno.
 */
int wl_out_beside(struct wl_instance *inst, const char *output, const char *suffix,
		  char *path, size_t len);

#endif
