// SPDX-License-Identifier: MIT
/*
 * workload.c - the workload registry (expanded from workload-list.h) and the
 * instance life cycle shared by `cvmfn run`, `prepare` and `serve`.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
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

size_t workload_count(void)
{
	return sizeof(workloads) / sizeof(workloads[0]);
}

const struct workload_ops *workload_at(size_t i)
{
	return i < workload_count() ? workloads[i] : NULL;
}

const struct workload_ops *workload_find(const char *name)
{
	size_t i;

	for (i = 0; i < workload_count(); i++)
		if (!strcmp(workloads[i]->name, name))
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

static const char *const size_names[] = { "test", "small", "large" };

const char *wl_size_name(enum wl_size size)
{
	return size <= WL_SIZE_LARGE ? size_names[size] : "?";
}

int wl_size_parse(const char *s, enum wl_size *size)
{
	int i;

	for (i = 0; i <= WL_SIZE_LARGE; i++)
		if (!strcmp(s, size_names[i])) {
			*size = (enum wl_size)i;
			return 0;
		}
	return -EINVAL;
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
				ops->name, ops->version, WL_OPS_VERSION);
	if (threads <= 0)
		threads = (int)sysconf(_SC_NPROCESSORS_ONLN);
	inst->params.threads = threads;
	inst->pool = pool_create(ops->uses_threads ? threads : 1, &params->wait);
	if (!inst->pool)
		return wl_error(inst, -ENOMEM, "cannot start %d worker threads", threads);
	err = ops->init ? ops->init(inst) : 0;
	if (err) {
		if (!inst->error[0])
			wl_error(inst, err, "%s: init failed: %s", ops->name, strerror(-err));
		pool_destroy(inst->pool);
		inst->pool = NULL;
	}
	return err;
}

void wl_instance_close(struct wl_instance *inst)
{
	if (inst->ops && inst->ops->teardown)
		inst->ops->teardown(inst);
	pool_destroy(inst->pool);
	inst->pool = NULL;
	inst->priv = NULL;
}
