// SPDX-License-Identifier: MIT
/*
 * workload.c - the workload registry (expanded from workload-list.h) and the
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

/* Whether @v is one of the "a|b" in @list. */
static int variant_listed(const char *list, const char *v)
{
	size_t n = strlen(v);
	const char *p;

	if (strchr(v, '|'))
		return 0;
	for (p = list; n && *p; p += strcspn(p, "|") + (p[strcspn(p, "|")] == '|'))
		if (!strncmp(p, v, n) && (p[n] == '|' || !p[n]))
			return 1;
	return 0;
}

int wl_variant_check(const struct workload_ops *ops, const char *v, char *err, size_t errlen)
{
	const char *p;
	char names[256];
	size_t i = 0;

	if (v && *v && !ops->variants && ops->variant_check)
		return ops->variant_check(v, err, errlen) ? -EINVAL : 0;
	if (!v || !ops->variants || variant_listed(ops->variants, v))
		return 0;
	if (!*ops->variants) {
		snprintf(err, errlen, "%s has no variants (got '%s')", ops->name, v);
		return -EINVAL;
	}
	for (p = ops->variants; *p && i + 3 < sizeof(names); p++) {
		if (*p == '|')
			names[i++] = ',';
		names[i++] = *p == '|' ? ' ' : *p;
	}
	names[i] = '\0';
	snprintf(err, errlen, "%s: unknown variant '%s' (variants: %s)", ops->name, v, names);
	return -EINVAL;
}

/* Refuse a --variant the workload does not list; 0 or -EINVAL. */
static int check_variant(struct wl_instance *inst, const struct workload_ops *ops)
{
	char msg[400];

	if (!wl_variant_check(ops, inst->params.variant, msg, sizeof(msg)))
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
				ops->name, ops->version, WL_OPS_VERSION);
	err = check_variant(inst, ops);
	if (err)
		return err;
	if (threads <= 0)
		threads = (int)sysconf(_SC_NPROCESSORS_ONLN);
	inst->params.threads = threads;
	if (ops->state_size && !(inst->priv = calloc(1, ops->state_size)))
		return wl_error(inst, -ENOMEM, "%s: out of memory", ops->name);
	inst->pool = pool_create(ops->uses_threads ? threads : 1, &params->wait);
	if (!inst->pool) {
		free(inst->priv);
		inst->priv = NULL;
		return wl_error(inst, -ENOMEM, "cannot start %d worker threads", threads);
	}
	err = ops->init ? ops->init(inst) : 0;
	if (err) {
		if (!inst->error[0])
			wl_error(inst, err, "%s: init failed: %s", ops->name, strerror(-err));
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
