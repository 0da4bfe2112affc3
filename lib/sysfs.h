/* SPDX-License-Identifier: MIT */
/*
 * sysfs.h - small kernel files: read a value, read its first line, write
 * one; remove a kernel directory that may still be busy.
 */
#ifndef CVMBENCH_SYSFS_H
#define CVMBENCH_SYSFS_H

#include <stddef.h>

int sysfs_read(const char *path, char *buf, size_t len);
int sysfs_read_line(const char *path, char *buf, size_t len);
int sysfs_write(const char *path, const char *value);
int sysfs_rmdir_busy(const char *dir, int ms);

#endif
