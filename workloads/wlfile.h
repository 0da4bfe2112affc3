/* SPDX-License-Identifier: MIT */
/*
 * wlfile.h - model and data files of workloads, and output files that are
 * never left half-written.
 *
 * A model file is what a framework checkpoint is: weights written once and
 * loaded by init(). Here the weights come from a seed (nothing can be
 * downloaded), so the file header records the workload, the seed and a
 * SHA-256 of the payload; loading checks all three.
 */
#ifndef CVMFN_WLFILE_H
#define CVMFN_WLFILE_H

#include <stddef.h>
#include <stdint.h>

#include "workload.h"

/* Fills @buf with @len bytes of model or data, deterministically. */
typedef int (*wl_gen_fn)(struct wl_instance *inst, void *buf, size_t len,
			 void *arg);

/**
 * wl_make_data_dir() - create params.data_dir and its parents if missing.
 * Returns 0 or -errno (with inst->error naming the directory).
 */
int wl_make_data_dir(struct wl_instance *inst);

/**
 * wl_data_path() - "<data_dir>/<name>", creating data_dir when preparing.
 * Returns 0 or -errno (with inst->error set).
 */
int wl_data_path(struct wl_instance *inst, const char *name, char *buf,
		 size_t len);

/**
 * wl_model_load() - load the model @name ("<workload>-<variant>.model") of
 * the instance's seed into a new buffer of @len bytes. Each seed has its own
 * file, "<workload>-<variant>-seed<N>.model" in data_dir, so models of
 * several seeds live side by side. If params.prepare is set, a missing file,
 * or one that fails its checks, is generated with @gen and written first.
 * Errors name the file and say what is wrong: missing, truncated, another
 * workload, another seed, checksum mismatch. On success *@out is malloc'd
 * and owned by the caller.
 */
int wl_model_load(struct wl_instance *inst, const char *name, size_t len,
		  wl_gen_fn gen, void *arg, void **out);

/**
 * wl_write_file_atomic() - write @len bytes to @path through a temporary
 * file in the same directory and rename(); nothing is left on failure.
 * What is not a regular file (a device, a FIFO) is written in place, never
 * renamed over; a symlink's target is replaced, not the link (outpath.h).
 */
int wl_write_file_atomic(struct wl_instance *inst, const char *path,
			 const void *data, size_t len);

/**
 * wl_output_write_files() - write the files @out holds (wl_out_file*()), in
 * the order they were recorded, each as wl_write_file_atomic() does or by its
 * writer. cvmfn calls it after the function's end time. Stops at the first
 * failure: 0 or -errno with inst->error naming the file.
 */
int wl_output_write_files(struct wl_instance *inst, const struct wl_output *out);

/** wl_read_file() - read a whole file into a malloc'd buffer. */
int wl_read_file(struct wl_instance *inst, const char *path, void **data,
		 size_t *len);

/**
 * wl_gen_text() - @len bytes of English-like text (words from a fixed
 * vocabulary, Zipf-distributed, with spaces, punctuation and newlines),
 * deterministic in @seed. Used by map-reduce, sentiment, compression, ...
 */
void wl_gen_text(uint64_t seed, char *buf, size_t len);

/** wl_vocabulary() - the fixed word list wl_gen_text() draws from. */
const char *const *wl_vocabulary(size_t *count);

#endif
