/* SPDX-License-Identifier: MIT */
/*
 * wlexport.h - the inputs a function generates from its seed, written as
 * files for its Python twin (workloads/python/): `cvmfn prepare` calls the
 * workload's export_inputs() after init, so the Python function reads the
 * very bytes the C function computes on, never a second generator.
 *
 * A file is "<data_dir>/<workload>-<size>-seed<N>.<part>", raw bytes (the
 * layout is said by each workload's export_inputs()), rewritten atomically
 * by every prepare.
 */
#ifndef CVMFN_WLEXPORT_H
#define CVMFN_WLEXPORT_H

#include <stddef.h>

#include "workload.h"

/**
 * wl_export_write() - write @len bytes at @data as the instance's input file
 * @part. 0 or -errno with inst->error naming the file.
 */
int wl_export_write(struct wl_instance *inst, const char *part, const void *data,
		    size_t len);

#endif
