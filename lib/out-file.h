/* SPDX-License-Identifier: MIT */
/*
 * out-file.h - output files that cannot be turned against the writer
 * (cvmbench runs as root): the output directory is opened without
 * following a symlink, each file is made under a temporary name in it
 * (O_EXCL) and renamed into place when complete, so a symlink planted in
 * a file's place is never written through and an existing file is never
 * lost on failure. Tools that open files by name (gnuplot) write into a
 * private directory (out_tmpdir_make()) and the file is moved from there.
 *
 * Every function names the path in its message (pr_err) and returns 0,
 * -EPERM when refused (a symlink, not a directory, not a regular file),
 * or another -errno.
 */
#ifndef CVMBENCH_OUT_FILE_H
#define CVMBENCH_OUT_FILE_H

#include <limits.h>
#include <stdio.h>

struct out_dir {
	int fd;
	char path[PATH_MAX];      /* as given, for messages */
};

struct out_file {
	const struct out_dir *dir;
	FILE *f;                  /* the temporary file, open for writing */
	char name[NAME_MAX + 1];
	char tmp[NAME_MAX + 1];
};

/* Open directory @path, made first (mode 0777 less umask) when @make. */
int out_dir_open(struct out_dir *d, const char *path, int make);
/* Open the directory of file @path; *@base: its last component in @path. */
int out_dir_of(struct out_dir *d, const char *path, const char **base);
void out_dir_close(struct out_dir *d);

int out_file_check(const struct out_dir *d, const char *name);
int out_file_create_tmp(struct out_file *o, const struct out_dir *d, const char *name);
int out_file_adopt(struct out_file *o, int srcdir, const char *srcname);
int out_file_commit(struct out_file *o);
void out_file_abort(struct out_file *o);

int out_tmpdir_make(char *path, size_t len);
void out_tmpdir_remove(const char *path);

#endif
