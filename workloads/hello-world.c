// SPDX-License-Identifier: MIT
/*
 * hello-world.c - the lightest real function (SeBS-style): formats a small
 * JSON greeting for a request. The memory study's baseline instance.
 */
#include <stdio.h>
#include <string.h>

#include "workload.h"

struct hello_state {
	unsigned long requests;
};

static int hello_invoke(struct wl_instance *inst, struct wl_output *out)
{
	struct hello_state *st = inst->priv;
	char body[128];
	int n;

	st->requests++;
	n = snprintf(body, sizeof(body), "{\"message\":\"Hello, World!\",\"seed\":%llu}",
		     (unsigned long long)inst->params.seed);
	wl_out_bytes(out, body, (size_t)n);
	snprintf(inst->summary, sizeof(inst->summary), "%s", body);
	return 0;
}

const struct workload_ops wl_hello_world = {
	.version = WL_OPS_VERSION,
	.info = &wl_info_hello_world,
	.state_size = sizeof(struct hello_state),
	.invoke = hello_invoke,
};
