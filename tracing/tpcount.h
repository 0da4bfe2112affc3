/* SPDX-License-Identifier: MIT */
/*
 * tpcount.h - count a trace event by the values of one of its fields, for
 * a set of threads (or CPUs), in the kernel: the method of the kernel's
 * kvm_stat. One perf_event_open(PERF_TYPE_TRACEPOINT) counter per (value,
 * thread), each with a filter (PERF_EVENT_IOC_SET_FILTER "FIELD == VALUE",
 * and'ed with an optional extra condition such as "isa == 2"); the counters
 * of one thread are one group, read with one read() (PERF_FORMAT_GROUP).
 * No event is streamed to user space: a window is the difference of two
 * reads (tpcount_read() at its start and at its end). Where perf refuses
 * (no perf events, not permitted), or with TPCOUNT_STREAM, the same
 * interface streams the event into a tracefs instance of its own and
 * counts at each read (tpcount-stream.c); tpcount_method() says which.
 * The bpf method (tpcount-bpf.c): one eBPF program on the tracepoint counts
 * every value, a cost per event that does not grow with the values (about
 * 130 ns here against 1.1 us for 40 perf counters, docs/performance.md). It
 * is the default for a spec of two or more values, no extra condition but
 * one "FIELD == N", no filters and no inherit, where the kernel loads it
 * (else perf-filter);
 * TPCOUNT_BPF_M asks for it (an error where it cannot), TPCOUNT_PERF_M for
 * perf-filter counters.
 *
 *	struct tpcount_spec spec = { "raw_syscalls", "sys_enter", "id", ... };
 *	tpcount_open(&tc, &spec, tids, n, 0, err, sizeof(err));
 *	tpcount_enable(tc);
 *	tpcount_read(tc, &a);  ... the window ...  tpcount_read(tc, &b);
 *	tpcount_diff(tc, &a, &b, value_idx, thread_idx or -1 for all);
 */
#ifndef CVMBENCH_TPCOUNT_H
#define CVMBENCH_TPCOUNT_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* How a row's count was made (every row names one). */
enum tpcount_method {
	TPCOUNT_PERF_FILTER = 1,  /* perf tracepoint counter with a filter */
	TPCOUNT_TRACE_STREAM = 2, /* events streamed into a tracefs instance, counted at reads */
	TPCOUNT_BPF = 3,          /* an eBPF program on the tracepoint counts by value */
};

/* What to count. */
struct tpcount_spec {
	const char *system;       /* e.g. "kvm" */
	const char *event;        /* e.g. kvm_exit */
	const char *field;        /* the field whose values are counted */
	const char *extra;        /* and'ed to each filter, or NULL */
	const unsigned long long *values;
	size_t nvalues;           /* counters per thread */
	/*
	 * Or, when not NULL: counter i counts what filters[i] lets through
	 * (e.g. one counter per class, "exit_reason == 120 || exit_reason ==
	 * 166"; "" for every event); @values and @field are then ignored.
	 */
	const char *const *filters;
};

/* tpcount_open() flags */
#define TPCOUNT_CPUS    1u        /* @ids are CPU numbers, every task on them */
#define TPCOUNT_INHERIT 2u        /* also threads the counted threads create later */
#define TPCOUNT_STREAM  4u        /* the trace-stream method, not perf (tests, fallback) */
#define TPCOUNT_BPF_M   8u        /* the bpf method (tpcount-bpf.c): values only, no extra */
#define TPCOUNT_PERF_M  16u       /* perf-filter counters, not the bpf default */
/*
 * The bpf method only (else -EOPNOTSUPP with the reason): TPCOUNT_TGID:
 * @ids are processes, every thread of each is counted, also the threads
 * they start later (index: the process). TPCOUNT_REST: the last counter
 * counts the events whose value is none of the others' (its own value is
 * not used), so the counters sum to every event that passed the extra
 * condition.
 */
#define TPCOUNT_TGID    32u
#define TPCOUNT_REST    64u

struct tpcount;

/* The counters of every (value, thread) at one instant. */
struct tpcount_snap {
	uint64_t *v;              /* [thread * nvalues + value] */
	uint64_t enabled_ns;      /* summed over threads */
	uint64_t running_ns;      /* < enabled_ns: a counter was not counting */
	int gone;                 /* threads whose counters read short (error state) */
	uint64_t lost;            /* trace-stream: events the buffer dropped since open */
};

/**
 * tpcount_open() - one counter per (value, id) of @spec, disabled. @ids are
 * thread ids (or CPUs with TPCOUNT_CPUS). Needs tracefs mounted (the event
 * id and fields come from its format through libtraceevent; call
 * tracefs_host_dir() first). Returns 0, or -errno with the reason in @err:
 * -ENOENT no such event or field, -EACCES/-EPERM perf_event_open refused
 * (not root, perf_event_paranoid), -EINVAL the kernel refused the filter,
 * -EMFILE too many counters. The trace-stream method journals its tracefs
 * instance: the journal must be open.
 */
int tpcount_open(struct tpcount **out, const struct tpcount_spec *spec,
		 const pid_t *ids, size_t nids, unsigned int flags, char *err, size_t errlen);
/** tpcount_enable() - start every counter (one ioctl per group). */
int tpcount_enable(struct tpcount *tc);
/** tpcount_disable() - stop every counter; their values stay readable. */
int tpcount_disable(struct tpcount *tc);
/** tpcount_snap_init() - allocate @s for @tc's counters. */
int tpcount_snap_init(const struct tpcount *tc, struct tpcount_snap *s);
/** tpcount_snap_free() - release @s. */
void tpcount_snap_free(struct tpcount_snap *s);
/** tpcount_read() - every counter into @s (one read() per thread). */
int tpcount_read(struct tpcount *tc, struct tpcount_snap *s);
/**
 * tpcount_diff() - events of value @vi between @a and @b, for thread @ti
 * (an index into the ids given at open), or summed over all when @ti < 0.
 */
uint64_t tpcount_diff(const struct tpcount *tc, const struct tpcount_snap *a,
		      const struct tpcount_snap *b, size_t vi, int ti);
/** tpcount_nvalues() - values counted. */
size_t tpcount_nvalues(const struct tpcount *tc);
/** tpcount_nids() - threads (or CPUs) counted. */
size_t tpcount_nids(const struct tpcount *tc);
/** tpcount_ncounters() - counters (perf: file descriptors; trace-stream: values x ids). */
size_t tpcount_ncounters(const struct tpcount *tc);
/** tpcount_method() - how this counter set counts. */
enum tpcount_method tpcount_method(const struct tpcount *tc);
/** tpcount_method_name() - "perf-filter", ... (stored with each row). */
const char *tpcount_method_name(enum tpcount_method m);
/** tpcount_close() - close every counter and free @tc (NULL is fine). */
void tpcount_close(struct tpcount *tc);

#endif
