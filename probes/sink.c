// SPDX-License-Identifier: MIT
/*
 * sink.c - the sink's four calls, passed to the sink's ops: the store's
 * (bench/store/db-sink.c) or the agent's (bench/agent/agent.c). A probe links
 * against these and never against either side.
 */
#include <errno.h>

#include "sink.h"

int sink_metric(struct sink *s, const char *name, double value, const char *unit)
{
	return s->ops ? s->ops->metric(s, name, value, unit) : -EINVAL;
}

int sink_skip(struct sink *s, const char *reason)
{
	return s->ops ? s->ops->skip(s, reason) : -EINVAL;
}

int sink_note(struct sink *s, const char *key, const char *value)
{
	return s->ops ? s->ops->note(s, key, value) : -EINVAL;
}

int64_t sink_row(struct sink *s, const struct sink_table *t, const void *row)
{
	if (!s->ops)
		return -EINVAL;
	return s->ops->row ? s->ops->row(s, t, row) : -EOPNOTSUPP;
}
