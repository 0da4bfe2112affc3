/* SPDX-License-Identifier: MIT */
/*
 * workload-registry.h - what is known of every workload without its code:
 * name, origin, description, the --variant values it takes (and the check
 * of those video-processing parses itself) and the input sizes. One
 * struct workload_info per line of workload-list.h, all in
 * workload-registry.c; each workload's ops (workload.h) point at theirs.
 * cvmbench links this part alone (a config's workload and variant keys,
 * `cvmbench list`, guest disks), not the functions.
 */
#ifndef CVMFN_WORKLOAD_REGISTRY_H
#define CVMFN_WORKLOAD_REGISTRY_H

#include <stddef.h>

#include "workload-list.h"

/* workload_info.variants of a workload that takes no --variant */
#define WL_NO_VARIANTS ""

enum wl_size { WL_SIZE_TEST, WL_SIZE_SMALL, WL_SIZE_LARGE };

struct workload_info {
	const char *name;
	const char *origin;       /* e.g. "SeBS 411" */
	const char *description;
	/*
	 * The --variant values it accepts, "a|b" (the first is not implied: no
	 * --variant is always allowed); WL_NO_VARIANTS: none; NULL: its init()
	 * and variant_check parse them. wl_instance_open() refuses any other
	 * before init.
	 */
	const char *variants;
	/*
	 * With variants NULL: whether @v is one of its variants, without an
	 * instance (config check, guest disk): 0, or -EINVAL with the message
	 * init() would give in @err. NULL: any is accepted until init().
	 */
	int (*variant_check)(const char *v, char *err, size_t errlen);
	/* 1: it writes no file (its result is the digest and the summary), so
	 * cvmfn refuses --output rather than take it and write nothing */
	int no_output;
};

#define WL_DECLARE_INFO(ident) extern const struct workload_info wl_info_##ident;
WORKLOADS(WL_DECLARE_INFO)
#undef WL_DECLARE_INFO

/** workload_find() - the workload called @name, or NULL. */
const struct workload_info *workload_find(const char *name);
/** workload_count() / workload_at() - all workloads, in workload-list.h's order. */
size_t workload_count(void);
const struct workload_info *workload_at(size_t i);

/**
 * wl_variant_check() - whether @v (NULL: none) is a variant of @w: 0, or
 * -EINVAL with the reason in @err (a workload without variants, or one it
 * does not list). A workload whose init() checks its variants itself
 * (variants NULL) is asked through its variant_check (without one it
 * accepts any here).
 */
int wl_variant_check(const struct workload_info *w, const char *v, char *err,
		     size_t errlen);

/** wl_size_name() / wl_size_parse() - "test", "small", "large". */
const char *wl_size_name(enum wl_size size);
int wl_size_parse(const char *s, enum wl_size *size);

#endif
