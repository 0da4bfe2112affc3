/* SPDX-License-Identifier: MIT */
/*
 * tpcount-local.h - the engine's second method, inside tpcount.c's
 * interface: the event streamed into a tracefs instance of its own
 * (tpcount-stream.c) and counted by value in user space at each read.
 */
#ifndef CVMBENCH_TPCOUNT_LOCAL_H
#define CVMBENCH_TPCOUNT_LOCAL_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "tpcount.h"

struct tpstream;

/** tpstream_open() - the instance, its pid filter and event filter, tracing off. */
int tpstream_open(struct tpstream **out, const struct tpcount_spec *spec, const pid_t *ids,
		  size_t nids, unsigned int flags, char *err, size_t errlen);
/** tpstream_enable() - tracing on. */
int tpstream_enable(struct tpstream *st);
/** tpstream_disable() - tracing off (what is buffered is still counted at a read). */
int tpstream_disable(struct tpstream *st);
/**
 * tpstream_read() - consume what the instance buffered, count it, and copy
 * the running counts [id * nvalues + value] into @v; @lost: events the
 * ring buffer dropped since the open.
 */
int tpstream_read(struct tpstream *st, uint64_t *v, uint64_t *lost);
/** tpstream_close() - the instance removed, everything freed (NULL is fine). */
void tpstream_close(struct tpstream *st);

/* The bpf method (tpcount-bpf.c): where the counted field is in a record. */
struct tpbpf;
struct tpbpf_field {
	unsigned int offset, size;
	/* the spec's extra condition when it is "FIELD == VALUE" or "!=" (cond_size != 0) */
	unsigned int cond_offset, cond_size;
	unsigned long long cond_value;
	int cond_ne;
};

/**
 * tpbpf_open() - maps, the program and the perf event of tracepoint @id
 * it is attached to, counting disabled. -EOPNOTSUPP for a spec it cannot
 * count (filters, an extra condition not in @f, inherit), -EPERM/-EACCES/-EINVAL when the kernel
 * refuses (the verifier's last line in @err).
 */
int tpbpf_open(struct tpbpf **out, const struct tpcount_spec *spec,
	       const struct tpbpf_field *f, int id, const pid_t *ids, size_t nids,
	       unsigned int flags, char *err, size_t errlen);
/** tpbpf_enable() - counting on. */
int tpbpf_enable(struct tpbpf *b);
/** tpbpf_disable() - counting off. */
int tpbpf_disable(struct tpbpf *b);
/** tpbpf_read() - every counter, [id * nvalues + value], into @v. */
int tpbpf_read(struct tpbpf *b, uint64_t *v);
/** tpbpf_close() - the perf event, program and maps closed (NULL is fine). */
void tpbpf_close(struct tpbpf *b);

#endif
