// SPDX-License-Identifier: MIT
/*
 * workload.c - the list of the workloads' ops (expanded from
 * workload-list.h, as workload-registry.c's list of their infos) and the
 * instance life cycle shared by `cvmfn run`, `prepare` and `serve`.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "workload-list.h"
#include "workload.h"

#define DECLARE_WORKLOAD(ident) extern const struct workload_ops wl_##ident;
WORKLOADS(DECLARE_WORKLOAD)
#undef DECLARE_WORKLOAD

#define LIST_WORKLOAD(ident) &wl_##ident,
static const struct workload_ops *const workloads[] = { WORKLOADS(LIST_WORKLOAD) };
#undef LIST_WORKLOAD

const struct workload_ops *workload_ops_at(size_t i)
{
	return i < workload_count() ? workloads[i] : NULL;
}

const struct workload_ops *workload_ops_find(const char *name)
{
	size_t i;

	for (i = 0; i < workload_count(); i++)
		if (!strcmp(workloads[i]->info->name, name))
			return workloads[i];
	return NULL;
}

int wl_error(struct wl_instance *inst, int err, const char *fmt, ...)
{
	va_list ap;

	if (inst->error[0])
		return err;
	va_start(ap, fmt);
	vsnprintf(inst->error, sizeof(inst->error), fmt, ap);
	va_end(ap);
	return err;
}

/* Refuse a --variant the workload does not list; 0 or -EINVAL. */
static int check_variant(struct wl_instance *inst, const struct workload_ops *ops)
{
	char msg[400];

	if (!wl_variant_check(ops->info, inst->params.variant, msg, sizeof(msg)))
		return 0;
	return wl_error(inst, -EINVAL, "%s", msg);
}

/* Teardown, then the state wl_instance_open() allocated. */
static void instance_release(struct wl_instance *inst)
{
	if (inst->ops && inst->ops->teardown)
		inst->ops->teardown(inst);
	free(inst->priv);
	inst->priv = NULL;
}

int wl_instance_open(struct wl_instance *inst, const struct workload_ops *ops,
		     const struct wl_params *params)
{
	int threads = params->threads, err;

	memset(inst, 0, sizeof(*inst));
	inst->ops = ops;
	inst->params = *params;
	if (ops->version != WL_OPS_VERSION)
		return wl_error(inst, -EINVAL, "workload %s has ops version %d, cvmfn needs %d",
				ops->info->name, ops->version, WL_OPS_VERSION);
	err = check_variant(inst, ops);
	if (err)
		return err;
	if (threads <= 0)
		threads = (int)sysconf(_SC_NPROCESSORS_ONLN);
	inst->params.threads = threads;
	if (ops->state_size && !(inst->priv = calloc(1, ops->state_size)))
		return wl_error(inst, -ENOMEM, "%s: out of memory", ops->info->name);
	inst->pool = pool_create(ops->uses_threads ? threads : 1, &params->wait);
	if (!inst->pool) {
		free(inst->priv);
		inst->priv = NULL;
		return wl_error(inst, -ENOMEM, "cannot start %d worker threads", threads);
	}
	err = ops->init ? ops->init(inst) : 0;
	if (err) {
		if (!inst->error[0])
			wl_error(inst, err, "%s: init failed: %s", ops->info->name, strerror(-err));
		instance_release(inst);
		pool_destroy(inst->pool);
		inst->pool = NULL;
	}
	return err;
}

void wl_instance_close(struct wl_instance *inst)
{
	instance_release(inst);
	pool_destroy(inst->pool);
	inst->pool = NULL;
}
