/* SPDX-License-Identifier: MIT */
/*
 * paths.h - where cvmbench finds its companions: the cvmfn binary, the
 * analysis scripts, the configs, and where workload data goes.
 */
#ifndef CVMBENCH_PATHS_H
#define CVMBENCH_PATHS_H

#include <stddef.h>

#include "protocol.h"

/* shared with cvmfn (workloads/protocol.h): one data directory for both */
#define DEFAULT_DATA_DIR DATA_DIR_DEFAULT

/** exe_dir() - the directory of the running cvmbench binary. */
int exe_dir(char *buf, size_t len);
/**
 * exe_beside() - the path of the program @name beside the running cvmbench
 * into @path: 0 when it is there and executable, else -errno.
 */
int exe_beside(const char *name, char *path, size_t len);
/** find_cvmfn() - $CVMBENCH_CVMFN, else cvmfn next to cvmbench, else "cvmfn". */
void find_cvmfn(char *buf, size_t len);
/** find_configs_dir() - $CVMBENCH_CONFIGS, else configs/ next to cvmbench. */
void find_configs_dir(char *buf, size_t len);
/**
 * datadir_path() - the path of data file @rel (e.g. "analysis/views.sql"):
 * under $CVMBENCH_SHARE_DIR when set, else next to the executable (a build
 * tree), else in ../share/cvmbench (installed). 0 or -ENOENT (reported).
 */
int datadir_path(const char *rel, char *buf, size_t len);
/** default_data_dir() - $CVMBENCH_DATA_DIR, else DEFAULT_DATA_DIR (as cvmfn). */
const char *default_data_dir(void);

#endif
