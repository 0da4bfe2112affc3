// SPDX-License-Identifier: MIT
/*
 * tpcount-stream.c - the "trace-stream" method of the counting engine
 * (tpcount-local.h), for kernels where a filtered perf tracepoint counter
 * cannot be opened: a tracefs instance of its own (journalled, removed at
 * close) with set_event_pid = the counted threads (options/event-fork for
 * inherit), the event enabled with the or of the counters' filters as its
 * kernel filter, and each read consuming the buffer through libtracefs
 * and matching each record in user space: the field's value through
 * libtraceevent, or each counter's filter through tep_filter_match.
 * Costlier than perf (every counted event is written to a ring buffer)
 * and exact only while the buffer does not overrun, which it reports.
 * Trace records and set_event_pid carry the initial pid namespace's thread
 * ids: in a pid namespace of its own this method counts CPUs only, and
 * refuses threads with the reason (-EXDEV).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pidns.h"
#include "tpcount-local.h"

#ifdef HAVE_TRACEFS
#include <event-parse.h>
#include <tracefs.h>

#include "tracefs-host.h"

#define STREAM_BUFFER_KB 4096

struct tpstream {
	struct tracefs_instance *inst;
	long jid;
	struct tep_handle *tep;
	struct tep_event *ev;
	struct tep_format_field *field;
	struct tep_event_filter **filt;   /* per counter, when the spec has filters */
	const unsigned long long *values;
	size_t nvalues, nids;
	pid_t *ids;
	int cpus, inherit;
	uint64_t *tot;
	int err;
};

static int seq;

/* The instance's filter: the counters' filters or'ed, and'ed with extra. */
static char *kernel_filter(const struct tpcount_spec *spec)
{
	size_t i, cap = 64 + (spec->extra ? strlen(spec->extra) : 0), used = 0;
	int all = 0;
	char *f;

	for (i = 0; i < spec->nvalues; i++) {
		cap += spec->filters ? strlen(spec->filters[i]) + 8 : strlen(spec->field) + 32;
		all |= spec->filters && !spec->filters[i][0];   /* a counter of every event */
	}
	f = malloc(cap);
	if (!f)
		return NULL;
	f[0] = '\0';
	for (i = 0; !all && i < spec->nvalues; i++) {
		used += (size_t)snprintf(f + used, cap - used, "%s", i ? " || " : "(");
		used += (size_t)(spec->filters ?
			snprintf(f + used, cap - used, "(%s)", spec->filters[i]) :
			snprintf(f + used, cap - used, "%s == %llu", spec->field, spec->values[i]));
	}
	if (used)
		used += (size_t)snprintf(f + used, cap - used, ")");
	if (spec->extra)
		snprintf(f + used, cap - used, "%s(%s)", used ? " && " : "", spec->extra);
	return f;
}

/* Counter @i's filter for tep_filter_match: "SYS/EVENT[:COND]". */
static int user_filter(struct tpstream *st, const struct tpcount_spec *spec, size_t i)
{
	size_t len = 64 + strlen(spec->system) + strlen(spec->event) + strlen(spec->filters[i]) +
		     (spec->extra ? strlen(spec->extra) : 0);
	char *f = malloc(len);
	int c = spec->filters[i][0] != '\0', x = spec->extra != NULL;
	enum tep_errno e;

	if (!f)
		return -ENOMEM;
	snprintf(f, len, "%s/%s%s%s%s%s%s%s", spec->system, spec->event, c || x ? ":" : "",
		 c ? "(" : "", c ? spec->filters[i] : "", c ? ")" : "", c && x ? " && " : "",
		 x ? spec->extra : "");
	st->filt[i] = tep_filter_alloc(st->tep);
	e = st->filt[i] ? tep_filter_add_filter_str(st->filt[i], f) : TEP_ERRNO__MEM_ALLOC_FAILED;
	free(f);
	return e ? -EINVAL : 0;
}

static int setup_instance(struct tpstream *st, const struct tpcount_spec *spec, char *err,
			  size_t errlen)
{
	char name[64], *kf = kernel_filter(spec), pids[16 * 64] = "";
	size_t i, used = 0;
	int ret;

	snprintf(name, sizeof(name), "cvmbench-tpcount-%d-%d", (int)getpid(), ++seq);
	ret = kf ? tracefs_host_instance(name, &st->inst, &st->jid, err, errlen) : -ENOMEM;
	for (i = 0; !ret && !st->cpus && i < st->nids && used < sizeof(pids) - 16; i++)
		used += (size_t)snprintf(pids + used, sizeof(pids) - used, "%s%d",
					 i ? " " : "", (int)st->ids[i]);
	if (!ret && (tracefs_instance_set_buffer_size(st->inst, STREAM_BUFFER_KB, -1) ||
		     (!st->cpus && tracefs_instance_file_write(st->inst, "set_event_pid",
							       pids) < 0) ||
		     (st->inherit && tracefs_option_enable(st->inst,
							   TRACEFS_OPTION_EVENT_FORK)) ||
		     (kf[0] && tracefs_event_file_write(st->inst, spec->system, spec->event,
							"filter", kf) < 0) ||
		     tracefs_event_enable(st->inst, spec->system, spec->event))) {
		snprintf(err, errlen, "cannot set up tracefs instance %s for %s:%s (filter "
			 "'%s')", name, spec->system, spec->event, kf);
		ret = -EIO;
	}
	free(kf);
	return ret;
}

static int load_event(struct tpstream *st, const struct tpcount_spec *spec, char *err,
		      size_t errlen)
{
	const char *systems[] = { spec->system, NULL };
	char dir[PATH_MAX];
	int ret = tracefs_host_dir(dir, sizeof(dir), err, errlen);

	if (ret)
		return ret;
	st->tep = tracefs_local_events_system(dir, systems);
	st->ev = st->tep ? tep_find_event_by_name(st->tep, spec->system, spec->event) : NULL;
	st->field = st->ev && spec->field ? tep_find_field(st->ev, spec->field) : NULL;
	if (!st->ev || (!spec->filters && !st->field)) {
		snprintf(err, errlen, "trace event %s:%s%s%s is not in this kernel",
			 spec->system, spec->event, spec->filters ? "" : " with field ",
			 spec->filters ? "" : spec->field);
		return -ENOENT;
	}
	return 0;
}

/* Thread ids of this namespace mean the same in trace records: in the initial one only. */
static int ids_comparable(unsigned int flags, char *err, size_t errlen)
{
	struct pidns_id ns;
	int ret = flags & TPCOUNT_CPUS ? 0 : pidns_self(&ns);

	if (ret)
		snprintf(err, errlen, "/proc/self/ns/pid: %s", strerror(-ret));
	else if (!(flags & TPCOUNT_CPUS) && !pidns_is_initial(&ns)) {
		snprintf(err, errlen, "the trace-stream method cannot count threads from a "
			 "pid namespace of its own (trace records carry the initial "
			 "namespace's thread ids)");
		ret = -EXDEV;
	}
	return ret;
}

int tpstream_open(struct tpstream **out, const struct tpcount_spec *spec, const pid_t *ids,
		  size_t nids, unsigned int flags, char *err, size_t errlen)
{
	struct tpstream *st;
	size_t i;
	int ret = ids_comparable(flags, err, errlen);

	*out = NULL;
	if (ret)
		return ret;
	st = calloc(1, sizeof(*st));
	ret = st ? 0 : -ENOMEM;
	if (st) {
		st->nvalues = spec->nvalues;
		st->nids = nids;
		st->values = spec->values;
		st->cpus = !!(flags & TPCOUNT_CPUS);
		st->inherit = !st->cpus && (flags & TPCOUNT_INHERIT);
		st->ids = malloc(nids * sizeof(*ids));
		st->tot = calloc(nids * spec->nvalues, sizeof(*st->tot));
		st->filt = spec->filters ? calloc(spec->nvalues, sizeof(*st->filt)) : NULL;
		if (!st->ids || !st->tot || (spec->filters && !st->filt))
			ret = -ENOMEM;
		else
			memcpy(st->ids, ids, nids * sizeof(*ids));
	}
	ret = ret ?: load_event(st, spec, err, errlen);
	for (i = 0; !ret && spec->filters && i < spec->nvalues; i++)
		if ((ret = user_filter(st, spec, i)))
			snprintf(err, errlen, "libtraceevent refused the filter '%s'",
				 spec->filters[i]);
	ret = ret ?: setup_instance(st, spec, err, errlen);
	if (ret) {
		tpstream_close(st);
		return ret;
	}
	*out = st;
	return 0;
}

int tpstream_enable(struct tpstream *st)
{
	return tracefs_trace_on(st->inst) ? -EIO : 0;
}

int tpstream_disable(struct tpstream *st)
{
	return tracefs_trace_off(st->inst) ? -EIO : 0;
}

/* Which counted thread (or CPU) a record is of, or -1. */
static long id_of(const struct tpstream *st, struct tep_record *rec, int cpu)
{
	pid_t who = st->cpus ? (pid_t)cpu : (pid_t)tep_data_pid(st->tep, rec);
	size_t i;

	for (i = 0; i < st->nids; i++)
		if (st->ids[i] == who)
			return (long)i;
	return st->inherit ? 0 : -1;  /* a thread started later: its creator's unknown */
}

static int on_record(struct tep_event *ev, struct tep_record *rec, int cpu, void *ctx)
{
	struct tpstream *st = ctx;
	unsigned long long val;
	long id;
	size_t i;

	if (ev->id != st->ev->id || (id = id_of(st, rec, cpu)) < 0)
		return 0;
	if (st->filt) {
		for (i = 0; i < st->nvalues; i++)
			if (tep_filter_match(st->filt[i], rec) == TEP_ERRNO__FILTER_MATCH)
				st->tot[(size_t)id * st->nvalues + i]++;
		return 0;
	}
	if (tep_read_number_field(st->field, rec->data, &val))
		return 0;
	for (i = 0; i < st->nvalues; i++)
		if (st->values[i] == val)
			st->tot[(size_t)id * st->nvalues + i]++;
	return 0;
}

int tpstream_read(struct tpstream *st, uint64_t *v, uint64_t *lost)
{
	if (tracefs_iterate_raw_events(st->tep, st->inst, NULL, 0, on_record, st) < 0)
		return -EIO;
	memcpy(v, st->tot, st->nids * st->nvalues * sizeof(*v));
	*lost = (uint64_t)tracefs_host_overruns(st->inst);
	return 0;
}

void tpstream_close(struct tpstream *st)
{
	size_t i;

	if (!st)
		return;
	if (st->inst || st->jid)
		tracefs_host_instance_remove(st->inst, st->jid);
	for (i = 0; st->filt && i < st->nvalues; i++)
		if (st->filt[i])
			tep_filter_free(st->filt[i]);
	free(st->filt);
	if (st->tep)
		tep_free(st->tep);
	free(st->ids);
	free(st->tot);
	free(st);
}

#else /* !HAVE_TRACEFS */

int tpstream_open(struct tpstream **out, const struct tpcount_spec *spec, const pid_t *ids,
		  size_t nids, unsigned int flags, char *err, size_t errlen)
{
	(void)spec, (void)ids, (void)nids, (void)flags;
	*out = NULL;
	snprintf(err, errlen, "built without libtracefs");
	return -ENOTSUP;
}

int tpstream_enable(struct tpstream *st)
{
	(void)st;
	return -ENOTSUP;
}

int tpstream_disable(struct tpstream *st)
{
	(void)st;
	return -ENOTSUP;
}

int tpstream_read(struct tpstream *st, uint64_t *v, uint64_t *lost)
{
	(void)st, (void)v, (void)lost;
	return -ENOTSUP;
}

void tpstream_close(struct tpstream *st)
{
	(void)st;
}

#endif
