/* SPDX-License-Identifier: MIT */
/*
 * thp-mode.h - the transparent hugepage mode file, which lists the modes
 * and brackets the current one ("always [madvise] never").
 */
#ifndef CVMBENCH_THP_MODE_H
#define CVMBENCH_THP_MODE_H

#include <stddef.h>

#define THP_ENABLED "/sys/kernel/mm/transparent_hugepage/enabled"

/**
 * thp_mode_parse() - the bracketed word of @line into @mode.
 * Returns 0, -EINVAL (no bracketed word) or -E2BIG.
 */
int thp_mode_parse(const char *line, char *mode, size_t len);
/** thp_mode_offered() - 1 if @mode is one of @line's words (bracketed or not). */
int thp_mode_offered(const char *line, const char *mode);

#endif
