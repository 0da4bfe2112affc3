/* SPDX-License-Identifier: MIT */
/*
 * file-copy.h - copy one regular file into a new one (the container
 * rootfs's files, cvmfn and the agent into a guest's new root).
 */
#ifndef CVMBENCH_FILE_COPY_H
#define CVMBENCH_FILE_COPY_H

#include <sys/types.h>

/**
 * file_copy() - the bytes of @src into the new file @dst (O_EXCL: an
 * existing @dst is -EEXIST) with @mode. 0 or -errno.
 */
int file_copy(const char *src, const char *dst, mode_t mode);

#endif
