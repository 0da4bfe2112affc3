// SPDX-License-Identifier: MIT
/* probe.c - the probe registry (expanded from probe-list.h). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "probe-list.h"
#include "probe.h"

#define DECLARE_PROBE(ident) extern const struct probe_ops probe_##ident;
PROBES(DECLARE_PROBE)
#undef DECLARE_PROBE

#define LIST_PROBE(ident) &probe_##ident,
static const struct probe_ops *const probes[] = { PROBES(LIST_PROBE) };
#undef LIST_PROBE

size_t probe_count(void)
{
	return sizeof(probes) / sizeof(probes[0]);
}

const struct probe_ops *probe_at(size_t i)
{
	return i < probe_count() ? probes[i] : NULL;
}

const struct probe_ops *probe_find(const char *name)
{
	size_t i;

	for (i = 0; i < probe_count(); i++)
		if (!strcmp(probes[i]->name, name))
			return probes[i];
	return NULL;
}

int probe_supported(const struct probe_ops *ops, char *why, size_t len)
{
	if (!ops) {
		snprintf(why, len, "not a probe of this build (cvmbench list)");
		return 0;
	}
	if (ops->version != PROBE_OPS_VERSION) {
		snprintf(why, len, "probe %s has ops version %d, cvmbench needs %d",
			 ops->name, ops->version, PROBE_OPS_VERSION);
		return 0;
	}
	if (ops->side != PROBE_HOST && ops->side != PROBE_INSTANCE) {
		snprintf(why, len, "probe %s does not say which side it measures", ops->name);
		return 0;
	}
	if (!ops->supported)
		return 1;
	why[0] = '\0';
	return ops->supported(why, len);
}

int probe_cell_supported(const struct probe_ops *ops, const struct cell *c,
			 const char *accel, char *why, size_t len)
{
	if (!probe_supported(ops, why, len))
		return 0;
	if (!ops->cell_supported)
		return 1;
	why[0] = '\0';
	return ops->cell_supported(c, accel, why, len);
}

int probe_error(struct probe *p, int err, const char *fmt, ...)
{
	va_list ap;

	if (p->error[0])
		return err;
	va_start(ap, fmt);
	vsnprintf(p->error, sizeof(p->error), fmt, ap);
	va_end(ap);
	return err;
}

const char *probe_side_name(enum probe_side side)
{
	return side == PROBE_INSTANCE ? "instance" : "host";
}
