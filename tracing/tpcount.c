// SPDX-License-Identifier: MIT
/*
 * tpcount.c - a trace event counted by the values of one field, per thread
 * or CPU, with filtered perf tracepoint counters (tpcount.h). The event id
 * and the field are checked against the event's format (tp-format.c), so a
 * missing event or field is named before the kernel is asked.
 */
#include <errno.h>
#include <limits.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "tp-format.h"
#include "tpcount-local.h"
#include "tpcount.h"
#include "tracefs-host.h"

struct tpcount {
	size_t nvalues, nids;
	int *fd;                  /* [id * nvalues + value]; leader of id: value 0 */
	size_t nopen;
	enum tpcount_method method;
	uint64_t *buf;            /* one group read */
	struct tpstream *st;      /* the trace-stream method */
	struct tpbpf *bp;         /* the bpf method */
};

static long perf_open(struct perf_event_attr *a, pid_t pid, int cpu, int group)
{
	return syscall(SYS_perf_event_open, a, pid, cpu, group, PERF_FLAG_FD_CLOEXEC);
}

/* Room for @need more descriptors: raise the soft limit (as kvm_stat does). */
static int fd_room(size_t need)
{
	struct rlimit rl;
	rlim_t want = (rlim_t)need + 64;

	if (getrlimit(RLIMIT_NOFILE, &rl))
		return -errno;
	if (rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur < want) {
		if (rl.rlim_max != RLIM_INFINITY && rl.rlim_max < want)
			return -EMFILE;
		rl.rlim_cur = want;
		if (setrlimit(RLIMIT_NOFILE, &rl))
			return -errno;
	}
	return 0;
}

static int open_one(struct tpcount *tc, const struct tpcount_spec *spec, int id,
		    size_t ii, size_t vi, pid_t who, unsigned int flags, char *err,
		    size_t errlen)
{
	struct perf_event_attr a = { .type = PERF_TYPE_TRACEPOINT, .size = sizeof(a) };
	char filter[4096];
	int cpus = !!(flags & TPCOUNT_CPUS), lead = vi == 0, e;
	long fd;

	a.config = (uint64_t)id;
	a.disabled = lead;
	a.inherit = !cpus && (flags & TPCOUNT_INHERIT);
	a.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED |
			PERF_FORMAT_TOTAL_TIME_RUNNING;
	fd = perf_open(&a, cpus ? -1 : who, cpus ? who : -1,
		       lead ? -1 : tc->fd[ii * tc->nvalues]);
	if (fd < 0) {
		e = errno;
		snprintf(err, errlen, "perf_event_open(%s:%s, %s %d): %s%s", spec->system,
			 spec->event, cpus ? "cpu" : "thread", (int)who, strerror(e),
			 e == EACCES || e == EPERM ? " (needs root or CAP_PERFMON, or "
			 "kernel.perf_event_paranoid = -1)" : "");
		return -e;
	}
	tc->fd[ii * tc->nvalues + vi] = (int)fd;
	tc->nopen++;
	if (spec->filters && !spec->filters[vi][0] && !spec->extra)
		return 0;         /* every event */
	if (spec->filters && !spec->filters[vi][0])
		snprintf(filter, sizeof(filter), "%s", spec->extra);
	else if (spec->filters)
		snprintf(filter, sizeof(filter), "(%s)%s%s", spec->filters[vi],
			 spec->extra ? " && " : "", spec->extra ? spec->extra : "");
	else
		snprintf(filter, sizeof(filter), "%s == %llu%s%s", spec->field,
			 spec->values[vi], spec->extra ? " && " : "",
			 spec->extra ? spec->extra : "");
	if (ioctl((int)fd, PERF_EVENT_IOC_SET_FILTER, filter)) {
		e = errno;
		snprintf(err, errlen, "the kernel refused the filter '%s' on %s:%s: %s",
			 filter, spec->system, spec->event, strerror(e));
		return -e;
	}
	return 0;
}

/*
 * Where the spec's extra condition's field is, when the condition is one
 * "FIELD == VALUE" or "FIELD != VALUE" (the bpf method tests that itself);
 * else cond_size 0.
 */
static void cond_field(const struct tpcount_spec *spec, const struct tp_format *f,
		       struct tpbpf_field *fl)
{
	char name[64], op[3];
	int end = -1;

	fl->cond_size = 0;
	if (!spec->extra || sscanf(spec->extra, " %63[A-Za-z0-9_] %2[=!] %llu %n", name, op,
				   &fl->cond_value, &end) != 3 ||
	    (strcmp(op, "==") && strcmp(op, "!=")) ||
	    (size_t)end != strlen(spec->extra) ||
	    tp_format_field(f, name, &fl->cond_offset, &fl->cond_size))
		fl->cond_size = 0;
	fl->cond_ne = end > 0 && !strcmp(op, "!=");
}

/*
 * The event's id, after checking it has the field (from its format); where
 * the field is into *@fl when not NULL (one lookup: the field's place is
 * never a default).
 */
static int event_id(const struct tpcount_spec *spec, struct tpbpf_field *fl, char *err,
		    size_t errlen)
{
	struct tpbpf_field here;
	struct tp_format f;
	char dir[PATH_MAX];
	int ret = tracefs_host_dir(dir, sizeof(dir), err, errlen);

	if (ret)
		return ret;
	ret = tp_format_load(&f, dir, spec->system, spec->event, err, errlen);
	if (ret)
		return ret;
	if (spec->field && tp_format_field(&f, spec->field, fl ? &fl->offset : &here.offset,
					   fl ? &fl->size : &here.size)) {
		snprintf(err, errlen, "trace event %s:%s has no field %s", spec->system,
			 spec->event, spec->field);
		ret = -ENOENT;
	} else {
		ret = tp_format_id(&f);
	}
	if (ret >= 0 && fl)
		cond_field(spec, &f, fl);
	tp_format_free(&f);
	return ret;
}

static int alloc_set(struct tpcount **out, size_t nvalues, size_t nids)
{
	struct tpcount *tc = calloc(1, sizeof(*tc));
	size_t i;

	if (!tc)
		return -ENOMEM;
	tc->nvalues = nvalues;
	tc->nids = nids;
	tc->method = TPCOUNT_PERF_FILTER;
	tc->fd = malloc(nvalues * nids * sizeof(*tc->fd));
	tc->buf = malloc((3 + nvalues) * sizeof(*tc->buf));
	if (!tc->fd || !tc->buf) {
		tpcount_close(tc);
		return -ENOMEM;
	}
	for (i = 0; i < nvalues * nids; i++)
		tc->fd[i] = -1;
	*out = tc;
	return 0;
}

/* perf cannot count here at all (not a refused filter): stream instead. */
static int perf_refused(int ret, unsigned int flags)
{
	return (flags & TPCOUNT_STREAM) || ret == -EACCES || ret == -EPERM ||
	       ret == -ENOSYS || ret == -EOPNOTSUPP || ret == -ENODEV;
}

static int stream_instead(struct tpcount *tc, const struct tpcount_spec *spec,
			  const pid_t *ids, size_t nids, unsigned int flags, char *err,
			  size_t errlen)
{
	char perr[512] = "";
	size_t i, used;
	int ret;

	if (!(flags & TPCOUNT_STREAM))
		snprintf(perr, sizeof(perr), "%s", err);
	for (i = 0; i < tc->nvalues * tc->nids; i++)
		if (tc->fd[i] >= 0) {
			close(tc->fd[i]);
			tc->fd[i] = -1;
		}
	tc->nopen = 0;
	ret = tpstream_open(&tc->st, spec, ids, nids, flags, err, errlen);
	if (ret && perr[0]) {
		used = strlen(err);
		snprintf(err + used, errlen - used, " (after %s)", perr);
	}
	tc->method = TPCOUNT_TRACE_STREAM;
	return ret;
}

/* The bpf method by default: a spec it counts, of more than one value (the numbers). */
static int bpf_default(const struct tpcount_spec *spec, unsigned int flags)
{
	return !(flags & (TPCOUNT_PERF_M | TPCOUNT_STREAM | TPCOUNT_INHERIT)) &&
	       !spec->filters && spec->field && spec->nvalues >= 2;
}

static int bpf_open(struct tpcount **out, const struct tpcount_spec *spec,
		    const struct tpbpf_field *fl, int id, const pid_t *ids, size_t nids,
		    unsigned int flags, char *err, size_t errlen)
{
	struct tpcount *tc = NULL;
	int ret = alloc_set(&tc, spec->nvalues, nids);

	if (!ret) {
		tc->method = TPCOUNT_BPF;
		ret = tpbpf_open(&tc->bp, spec, fl, id, ids, nids, flags, err, errlen);
	}
	if (ret) {
		tpcount_close(tc);
		return ret;
	}
	*out = tc;
	return 0;
}

int tpcount_open(struct tpcount **out, const struct tpcount_spec *spec,
		 const pid_t *ids, size_t nids, unsigned int flags, char *err, size_t errlen)
{
	struct tpcount *tc = NULL;
	struct tpbpf_field fl = { 0, 0, 0, 0, 0, 0 };
	size_t ii, vi;
	int id, ret;

	*out = NULL;
	if (!spec->nvalues || !nids) {
		snprintf(err, errlen, "nothing to count (%zu values, %zu %s)", spec->nvalues,
			 nids, flags & TPCOUNT_CPUS ? "CPUs" : "threads");
		return -EINVAL;
	}
	id = event_id(spec, &fl, err, errlen);
	if (id < 0)
		return id;
	if (flags & (TPCOUNT_BPF_M | TPCOUNT_TGID | TPCOUNT_REST))
		return bpf_open(out, spec, &fl, id, ids, nids, flags, err, errlen);
	if (bpf_default(spec, flags) &&
	    !bpf_open(out, spec, &fl, id, ids, nids, flags, err, errlen))
		return 0;         /* else (bpf refused here): perf-filter counters */
	ret = fd_room(spec->nvalues * nids);
	if (ret) {
		snprintf(err, errlen, "%zu counters need more open files than "
			 "RLIMIT_NOFILE allows", spec->nvalues * nids);
		return ret;
	}
	ret = alloc_set(&tc, spec->nvalues, nids);
	for (ii = 0; !ret && !(flags & TPCOUNT_STREAM) && ii < nids; ii++)
		for (vi = 0; !ret && vi < spec->nvalues; vi++)
			ret = open_one(tc, spec, id, ii, vi, ids[ii], flags, err, errlen);
	if (perf_refused(ret, flags))
		ret = stream_instead(tc, spec, ids, nids, flags, err, errlen);
	if (ret) {
		tpcount_close(tc);
		return ret;
	}
	*out = tc;
	return 0;
}

static int group_ioctl(struct tpcount *tc, unsigned long req)
{
	size_t ii;
	int ret = 0;

	for (ii = 0; ii < tc->nids; ii++)
		if (ioctl(tc->fd[ii * tc->nvalues], req, PERF_IOC_FLAG_GROUP) && !ret)
			ret = -errno;
	return ret;
}

int tpcount_enable(struct tpcount *tc)
{
	if (tc->bp)
		return tpbpf_enable(tc->bp);
	return tc->st ? tpstream_enable(tc->st) : group_ioctl(tc, PERF_EVENT_IOC_ENABLE);
}

int tpcount_disable(struct tpcount *tc)
{
	if (tc->bp)
		return tpbpf_disable(tc->bp);
	return tc->st ? tpstream_disable(tc->st) : group_ioctl(tc, PERF_EVENT_IOC_DISABLE);
}

int tpcount_snap_init(const struct tpcount *tc, struct tpcount_snap *s)
{
	memset(s, 0, sizeof(*s));
	s->v = calloc(tc->nvalues * tc->nids, sizeof(*s->v));
	return s->v ? 0 : -ENOMEM;
}

void tpcount_snap_free(struct tpcount_snap *s)
{
	free(s->v);
	memset(s, 0, sizeof(*s));
}

/* One group: { nr, time_enabled, time_running, value[nr] }. */
int tpcount_read(struct tpcount *tc, struct tpcount_snap *s)
{
	size_t ii, want = (3 + tc->nvalues) * sizeof(uint64_t);
	ssize_t r;

	s->enabled_ns = s->running_ns = 0;
	s->gone = 0;
	s->lost = 0;
	if (tc->st)
		return tpstream_read(tc->st, s->v, &s->lost);
	if (tc->bp)
		return tpbpf_read(tc->bp, s->v);
	for (ii = 0; ii < tc->nids; ii++) {
		r = read(tc->fd[ii * tc->nvalues], tc->buf, want);
		if (r < 0)
			return -errno;
		if ((size_t)r != want || tc->buf[0] != tc->nvalues) {
			s->gone++;        /* a counter in error state reads as EOF */
			continue;
		}
		s->enabled_ns += tc->buf[1];
		s->running_ns += tc->buf[2];
		memcpy(s->v + ii * tc->nvalues, tc->buf + 3, tc->nvalues * sizeof(uint64_t));
	}
	return 0;
}

uint64_t tpcount_diff(const struct tpcount *tc, const struct tpcount_snap *a,
		      const struct tpcount_snap *b, size_t vi, int ti)
{
	size_t ii, lo = ti < 0 ? 0 : (size_t)ti, hi = ti < 0 ? tc->nids : (size_t)ti + 1;
	uint64_t sum = 0;

	for (ii = lo; ii < hi; ii++)
		sum += b->v[ii * tc->nvalues + vi] - a->v[ii * tc->nvalues + vi];
	return sum;
}

size_t tpcount_nvalues(const struct tpcount *tc)
{
	return tc->nvalues;
}

size_t tpcount_nids(const struct tpcount *tc)
{
	return tc->nids;
}

size_t tpcount_ncounters(const struct tpcount *tc)
{
	return tc->st || tc->bp ? tc->nvalues * tc->nids : tc->nopen;
}

enum tpcount_method tpcount_method(const struct tpcount *tc)
{
	return tc->method;
}

const char *tpcount_method_name(enum tpcount_method m)
{
	return m == TPCOUNT_PERF_FILTER ? "perf-filter" :
	       m == TPCOUNT_TRACE_STREAM ? "trace-stream" : m == TPCOUNT_BPF ? "bpf" : "unknown";
}

void tpcount_close(struct tpcount *tc)
{
	size_t i;

	if (!tc)
		return;
	tpstream_close(tc->st);
	tpbpf_close(tc->bp);
	for (i = 0; tc->fd && i < tc->nvalues * tc->nids; i++)
		if (tc->fd[i] >= 0)
			close(tc->fd[i]);
	free(tc->fd);
	free(tc->buf);
	free(tc);
}
