// SPDX-License-Identifier: MIT
/* probe.c - the probe registry (expanded from probe-list.h) and the sink. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "db.h"
#include "probe-list.h"
#include "probe.h"
#include "sink.h"

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
	if (!ops->supported)
		return 1;
	why[0] = '\0';
	return ops->supported(why, len);
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

int sink_metric(struct sink *s, const char *name, double value, const char *unit)
{
	return db_metric_add(s->db, s->cell_id, s->invocation_id, s->probe, name,
			     value, unit);
}

int sink_skip(struct sink *s, const char *reason)
{
	return db_skip_add(s->db, s->run_id, s->cell_id, s->probe, reason);
}

int sink_note(struct sink *s, const char *key, const char *value)
{
	char k[128];

	snprintf(k, sizeof(k), "%s.%s", s->probe, key);
	return db_cell_note(s->db, s->cell_id, k, value);
}
