// SPDX-License-Identifier: MIT
/*
 * null.c - the empty function. It does nothing, so that a round trip of
 * `null` measures the harness itself (fio's null engine, for cvmbench).
 */
#include "workload.h"

static int null_invoke(struct wl_instance *inst, struct wl_output *out)
{
	(void)inst;
	(void)out;
	return 0;
}

const struct workload_ops wl_null = {
	.version = WL_OPS_VERSION,
	.info = &wl_info_null,
	.invoke = null_invoke,
};
