/* SPDX-License-Identifier: MIT */
/*
 * datadir.h - where cvmbench finds its data files (analysis/views.sql, the
 * gnuplot scripts): $CVMBENCH_DATADIR, else the executable's directory (a
 * build tree), else <executable's directory>/../share/cvmbench (installed).
 */
#ifndef CVMBENCH_DATADIR_H
#define CVMBENCH_DATADIR_H

#include <stddef.h>

int datadir_path(const char *rel, char *buf, size_t len);

#endif
