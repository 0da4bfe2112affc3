/* SPDX-License-Identifier: MIT */
/*
 * file-tail.h - the last line of a log file, for an error message that
 * says why a child (a server, a load generator, a co-runner) failed.
 */
#ifndef CVMBENCH_FILE_TAIL_H
#define CVMBENCH_FILE_TAIL_H

#include <stddef.h>

/**
 * file_tail_line() - the last non-empty line of the file @path (read from
 * its last KiB; trailing CR/LF dropped) into @buf, or "(nothing)" when the
 * file is empty, missing or unreadable.
 */
void file_tail_line(const char *path, char *buf, size_t len);

#endif
