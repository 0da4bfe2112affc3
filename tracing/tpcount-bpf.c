// SPDX-License-Identifier: MIT
/*
 * tpcount-bpf.c - the "bpf" method of the counting engine (tpcount-local.h):
 * one small eBPF program on the tracepoint (BPF_PROG_TYPE_TRACEPOINT,
 * attached with PERF_EVENT_IOC_SET_BPF to one perf event) counts each
 * event by the value of the field into one array of counters, so an event
 * costs one program run whatever the number of values: the cost of a
 * perf counter grows with the counters on the thread (docs/performance.md).
 *
 * The program, written here as instructions (no compiler, no libbpf):
 *   if (!ctl[0]) return 1;                    counting enabled? (1: see end())
 *   if (!(record.cond_field == cond_value)) return;  the extra condition (or !=)
 *   t = index of the current tid, tgid (TPCOUNT_TGID) or CPU; if none, return;
 *                                             (compares, or a map)
 *   v = vals[the field's value, read at its offset in the record]; if none,
 *       return (TPCOUNT_REST: v = the last counter);
 *                                             (an array map for values < 65536)
 *   counts[0][t * nvalues + v] += 1           (atomic add)
 * The kernel runs it for every hit of the tracepoint by any task (the
 * program array belongs to the event, not to the perf event it was
 * attached through), which is why it looks the thread up itself. Read:
 * one BPF_MAP_LOOKUP_ELEM returns every counter. Only specs that count a
 * field's values, with no extra condition but one "FIELD == N", no
 * per-counter filter, and not threads started later as TPCOUNT_INHERIT
 * (TPCOUNT_TGID counts processes, every thread of them, later ones too):
 * anything else is -EOPNOTSUPP.
 * The program returns 1, so every other perf user of the tracepoint still
 * sees each hit (see end()).
 * Nothing outlives the process: no object is pinned, so its exit (also by
 * kill -9) closes the perf event, program and maps, and the kernel frees them.
 * CVMBENCH_TEST_BPF_MAPS (tests) makes it look up threads and values in
 * hash maps always, the path of more than 32 threads and of large values.
 * Thread ids: bpf_get_current_pid_tgid() gives the initial pid namespace's
 * ids, the ids given here are this process's; in a pid namespace of its
 * own (a container, `unshare -p`) the program asks for the ids of that
 * namespace instead (bpf_get_ns_current_pid_tgid, kernel 5.7+), and only
 * threads of that very namespace can be counted (-EXDEV for others).
 */
#include <errno.h>
#include <stdint.h>
#include <linux/bpf.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "pidns.h"
#include "tpcount-local.h"

struct tpbpf {
	int ctl, ids, vals, counts;   /* map fds */
	int prog, ev;                 /* program and the perf event it hangs on */
	size_t n, nids;               /* counters: nids x nvalues */
	uint32_t vals_max;            /* vals is an array of this many, or 0: a hash */
	int maps_only;                /* test: hash maps for ids and values, no shortcut */
	int ns_own;                   /* in a pid namespace of its own: ids of @ns */
	int tgid, rest;               /* TPCOUNT_TGID, TPCOUNT_REST */
	struct pidns_id ns;
};

#define I(c, d, s, o, i) ((struct bpf_insn){ .code = (c), .dst_reg = (d), .src_reg = (s), \
					      .off = (o), .imm = (i) })
#define MOV_REG(d, s)       I(BPF_ALU64 | BPF_MOV | BPF_X, d, s, 0, 0)
#define MOV_IMM(d, i)       I(BPF_ALU64 | BPF_MOV | BPF_K, d, 0, 0, i)
#define ALU_IMM(op, d, i)   I(BPF_ALU64 | (op) | BPF_K, d, 0, 0, i)
#define ALU_REG(op, d, s)   I(BPF_ALU64 | (op) | BPF_X, d, s, 0, 0)
#define LDX(sz, d, s, o)    I(BPF_LDX | (sz) | BPF_MEM, d, s, o, 0)
#define STX(sz, d, s, o)    I(BPF_STX | (sz) | BPF_MEM, d, s, o, 0)
#define ST(sz, d, o, i)     I(BPF_ST | (sz) | BPF_MEM, d, 0, o, i)
#define CALL(f)             I(BPF_JMP | BPF_CALL, 0, 0, 0, f)
#define EXIT()              I(BPF_JMP | BPF_EXIT, 0, 0, 0, 0)
#define LD64(d, v)          I(BPF_LD | BPF_DW | BPF_IMM, d, 0, 0, (int)(uint32_t)(v)), \
			    I(0, 0, 0, 0, (int)(uint32_t)((uint64_t)(v) >> 32))
#define XADD64(d, s, o)     I(BPF_STX | BPF_DW | BPF_ATOMIC, d, s, o, BPF_ADD)

#define IDS_INLINE 32      /* up to this many threads or CPUs: compared inline */
#define PROG_MAX (64 + 3 * IDS_INLINE)
#define VALS_ARRAY_MAX 65536  /* values below this: an array map, else a hash */

/* A program being written; jumps to its end are patched when it ends. */
struct prog {
	struct bpf_insn i[PROG_MAX];
	int n, out[16], nout;
	int found[IDS_INLINE], nfound;
};

static void emit(struct prog *p, struct bpf_insn x)
{
	if (p->n < PROG_MAX)
		p->i[p->n++] = x;
}

/* if (reg OP imm) goto out */
static void jmp_out(struct prog *p, int op, int reg, int imm)
{
	if (p->nout < 16)
		p->out[p->nout++] = p->n;
	emit(p, I(BPF_JMP | op | BPF_K, reg, 0, 0, imm));
}

/* r0 = map_lookup_elem(@fd, fp + @key); if (!r0) goto out */
static void lookup(struct prog *p, int fd, int key)
{
	emit(p, I(BPF_LD | BPF_DW | BPF_IMM, 1, BPF_PSEUDO_MAP_FD, 0, fd));
	emit(p, I(0, 0, 0, 0, 0));
	emit(p, MOV_REG(2, 10));
	emit(p, ALU_IMM(BPF_ADD, 2, key));
	emit(p, CALL(BPF_FUNC_map_lookup_elem));
	jmp_out(p, BPF_JEQ, 0, 0);
}

/*
 * out: return 1; patch the jumps to it. The program belongs to the
 * tracepoint, not to our perf event: a 0 would drop the hit for every perf
 * event on it, system-wide (perf_trace_run_bpf_submit()), so a `perf stat`,
 * `perf kvm stat` or another cvmbench counting kvm_exit with perf-filter
 * counters would read nothing while this program is attached. With 1 they
 * see every hit, and our own perf event counts it too (read by no one).
 */
static void end(struct prog *p)
{
	int k;

	for (k = 0; k < p->nout; k++)
		p->i[p->out[k]].off = (short)(p->n - p->out[k] - 1);
	emit(p, MOV_IMM(0, 1));
	emit(p, EXIT());
}

static long sys_bpf(int cmd, union bpf_attr *a)
{
	return syscall(SYS_bpf, cmd, a, sizeof(*a));
}

static int map_new(enum bpf_map_type type, unsigned int ksz, unsigned int vsz,
		   unsigned int max)
{
	union bpf_attr a;

	memset(&a, 0, sizeof(a));
	a.map_type = type;
	a.key_size = ksz;
	a.value_size = vsz;
	a.max_entries = max;
	return (int)sys_bpf(BPF_MAP_CREATE, &a);
}

static int map_put(int fd, const void *key, const void *val)
{
	union bpf_attr a;

	memset(&a, 0, sizeof(a));
	a.map_fd = (unsigned int)fd;
	a.key = (unsigned long)key;
	a.value = (unsigned long)val;
	return sys_bpf(BPF_MAP_UPDATE_ELEM, &a) ? -errno : 0;
}

/* The load size of a field of @size bytes (1, 2, 4 or 8), or -1 for any other. */
static int ld_size(unsigned int size)
{
	return size == 1 ? BPF_B : size == 2 ? BPF_H : size == 4 ? BPF_W :
	       size == 8 ? BPF_DW : -1;
}

/*
 * The current thread's id into r0: of the initial pid namespace, or (in a
 * namespace of its own) of @b->ns: bpf_get_ns_current_pid_tgid(dev, ino,
 * &info, 8) fills { pid (the thread's), tgid } at fp - 24; goto out when
 * the thread is not in that namespace.
 */
static void current_tid(struct prog *p, const struct tpbpf *b)
{
	struct bpf_insn dev[2] = { LD64(1, b->ns.dev) }, ino[2] = { LD64(2, b->ns.ino) };

	if (!b->ns_own) {
		emit(p, CALL(BPF_FUNC_get_current_pid_tgid));
		if (b->tgid)
			emit(p, ALU_IMM(BPF_RSH, 0, 32));         /* the tgid: the upper half */
		return;
	}
	emit(p, dev[0]);
	emit(p, dev[1]);
	emit(p, ino[0]);
	emit(p, ino[1]);
	emit(p, MOV_REG(3, 10));
	emit(p, ALU_IMM(BPF_ADD, 3, -24));
	emit(p, MOV_IMM(4, 8));
	emit(p, CALL(BPF_FUNC_get_ns_current_pid_tgid));
	jmp_out(p, BPF_JNE, 0, 0);
	emit(p, LDX(BPF_W, 0, 10, b->tgid ? -20 : -24));
}

/* The extra condition: if (record.field != value) goto out (== for "!="). */
static void cond(struct prog *p, const struct tpbpf_field *f)
{
	struct bpf_insn v[2] = { LD64(2, f->cond_value) };

	if (!f->cond_size)
		return;
	emit(p, LDX(ld_size(f->cond_size), 1, 6, (short)f->cond_offset));
	emit(p, v[0]);
	emit(p, v[1]);
	if (p->nout < 16)
		p->out[p->nout++] = p->n;
	emit(p, I(BPF_JMP | (f->cond_ne ? BPF_JEQ : BPF_JNE) | BPF_X, 1, 2, 0, 0));
}

/*
 * The index of the thread (or CPU) in r0 into r7, or goto out: a chain of
 * compares for a few (cheaper than the hash map's lookup), else the map.
 */
static void id_index(struct prog *p, const struct tpbpf *b, const pid_t *ids)
{
	size_t i;
	int k;

	emit(p, I(BPF_ALU | BPF_MOV | BPF_X, 0, 0, 0, 0));   /* w0 = w0: the low half */
	if (b->nids > IDS_INLINE || b->maps_only) {
		emit(p, STX(BPF_W, 10, 0, -8));
		lookup(p, b->ids, -8);
		emit(p, LDX(BPF_W, 7, 0, 0));
		return;
	}
	for (i = 0; i < b->nids; i++) {
		emit(p, I(BPF_JMP | BPF_JNE | BPF_K, 0, 0, 2, (int)ids[i]));
		emit(p, MOV_IMM(7, (int)i));
		p->found[p->nfound++] = p->n;
		emit(p, I(BPF_JMP | BPF_JA, 0, 0, 0, 0));
	}
	jmp_out(p, BPF_JA, 0, 0);
	for (k = 0; k < p->nfound; k++)
		p->i[p->found[k]].off = (short)(p->n - p->found[k] - 1);
}

/* if (reg OP imm) goto the rest (patched by value_index()) */
static void jmp_rest(struct prog *p, int *rest, int *nrest, int op, int reg, int imm)
{
	rest[(*nrest)++] = p->n;
	emit(p, I(BPF_JMP | op | BPF_K, reg, 0, 0, imm));
}

/*
 * The value's index into r8: an array map holds index + 1 (0: not
 * counted). A value not counted: goto out, or (TPCOUNT_REST) r8 = the
 * last counter.
 */
static void value_index(struct prog *p, const struct tpbpf *b, const struct tpbpf_field *f,
			size_t nvalues)
{
	int rest[3], nrest = 0, k;

	emit(p, LDX(ld_size(f->size), 1, 6, (short)f->offset));
	if (b->vals_max) {
		jmp_rest(p, rest, &nrest, BPF_JGE, 1, (int)b->vals_max);
		emit(p, STX(BPF_W, 10, 1, -16));
	} else {
		emit(p, STX(BPF_DW, 10, 1, -16));
	}
	emit(p, I(BPF_LD | BPF_DW | BPF_IMM, 1, BPF_PSEUDO_MAP_FD, 0, b->vals));
	emit(p, I(0, 0, 0, 0, 0));
	emit(p, MOV_REG(2, 10));
	emit(p, ALU_IMM(BPF_ADD, 2, -16));
	emit(p, CALL(BPF_FUNC_map_lookup_elem));
	jmp_rest(p, rest, &nrest, BPF_JEQ, 0, 0);
	emit(p, LDX(BPF_W, 8, 0, 0));
	if (b->vals_max) {
		jmp_rest(p, rest, &nrest, BPF_JEQ, 8, 0);
		emit(p, ALU_IMM(BPF_SUB, 8, 1));
	}
	if (!b->rest) {           /* the jumps to the rest go out */
		for (k = 0; k < nrest && p->nout < 16; k++)
			p->out[p->nout++] = rest[k];
		return;
	}
	emit(p, I(BPF_JMP | BPF_JA, 0, 0, 1, 0));                 /* over the rest */
	for (k = 0; k < nrest; k++)
		p->i[rest[k]].off = (short)(p->n - rest[k] - 1);
	emit(p, MOV_IMM(8, (int)nvalues - 1));
}

/* The program (above) for these maps, the field and the id kind. */
static int prog_load(struct tpbpf *b, const struct tpbpf_field *f, size_t nvalues,
		     const pid_t *ids, int cpus, char *log, size_t loglen)
{
	struct prog p = { .n = 0 };
	union bpf_attr a;

	emit(&p, MOV_REG(6, 1));                         /* r6: the record */
	emit(&p, ST(BPF_W, 10, -4, 0));
	lookup(&p, b->ctl, -4);                          /* enabled? */
	emit(&p, LDX(BPF_W, 1, 0, 0));
	jmp_out(&p, BPF_JEQ, 1, 0);
	cond(&p, f);
	if (cpus)
		emit(&p, CALL(BPF_FUNC_get_smp_processor_id));
	else
		current_tid(&p, b);
	id_index(&p, b, ids);                            /* r7: the tid's or CPU's index */
	value_index(&p, b, f, nvalues);                  /* r8: the value's */
	emit(&p, ALU_IMM(BPF_MUL, 7, (int)nvalues));
	emit(&p, ALU_REG(BPF_ADD, 7, 8));
	jmp_out(&p, BPF_JGE, 7, (int)b->n);              /* bounds, for the verifier */
	emit(&p, ST(BPF_W, 10, -4, 0));
	lookup(&p, b->counts, -4);
	emit(&p, ALU_IMM(BPF_LSH, 7, 3));
	emit(&p, ALU_REG(BPF_ADD, 0, 7));
	emit(&p, MOV_IMM(1, 1));
	emit(&p, XADD64(0, 1, 0));                       /* counts[r7] += 1 */
	end(&p);
	memset(&a, 0, sizeof(a));
	a.prog_type = BPF_PROG_TYPE_TRACEPOINT;
	a.insns = (unsigned long)p.i;
	a.insn_cnt = (unsigned int)p.n;
	a.license = (unsigned long)"Dual MIT/GPL";
	b->prog = (int)sys_bpf(BPF_PROG_LOAD, &a);
	if (b->prog >= 0)
		return 0;
	/* again with the verifier's log, for the reason (a full log of a good load overflows) */
	a.log_buf = (unsigned long)log;
	a.log_size = (unsigned int)loglen;
	a.log_level = 1;
	b->prog = (int)sys_bpf(BPF_PROG_LOAD, &a);
	return b->prog < 0 ? -errno : 0;
}

static int set_ctl(struct tpbpf *b, uint32_t on)
{
	uint32_t k = 0;

	return map_put(b->ctl, &k, &on);
}

/* The maps: ctl[1], ids (tid or CPU -> index), vals (value -> index), counts[1][n]. */
static int maps_fill(struct tpbpf *b, const struct tpcount_spec *spec,
		     const struct tpbpf_field *f, const pid_t *ids, size_t nids)
{
	uint64_t mask = f->size >= 8 ? ~0ULL : (1ULL << (8 * f->size)) - 1, key, max = 0;
	uint32_t i, k, v;
	int ret = 0;

	for (i = 0; i + b->rest < spec->nvalues; i++)
		max = (spec->values[i] & mask) > max ? spec->values[i] & mask : max;
	b->vals_max = max < VALS_ARRAY_MAX && !b->maps_only ? (uint32_t)max + 1 : 0;
	b->ctl = map_new(BPF_MAP_TYPE_ARRAY, 4, 4, 1);
	b->ids = map_new(BPF_MAP_TYPE_HASH, 4, 4, (unsigned int)nids);
	b->vals = b->vals_max ? map_new(BPF_MAP_TYPE_ARRAY, 4, 4, b->vals_max) :
		  map_new(BPF_MAP_TYPE_HASH, 8, 4, (unsigned int)spec->nvalues);
	b->counts = map_new(BPF_MAP_TYPE_ARRAY, 4, (unsigned int)(8 * b->n), 1);
	if (b->ctl < 0 || b->ids < 0 || b->vals < 0 || b->counts < 0)
		return -errno;
	for (i = 0; !ret && i < nids; i++) {
		k = (uint32_t)ids[i];
		ret = map_put(b->ids, &k, &i);
	}
	for (i = 0; !ret && i + b->rest < spec->nvalues; i++) {
		key = spec->values[i] & mask;
		k = (uint32_t)key;
		v = i + 1;
		ret = b->vals_max ? map_put(b->vals, &k, &v) : map_put(b->vals, &key, &i);
	}
	return ret ?: set_ctl(b, 0);
}

/* One perf event of the tracepoint, any scope: the program runs on every hit. */
static int attach(struct tpbpf *b, int id, pid_t who, int cpus)
{
	struct perf_event_attr a = { .type = PERF_TYPE_TRACEPOINT, .size = sizeof(a) };
	long fd;

	a.config = (uint64_t)id;
	fd = syscall(SYS_perf_event_open, &a, cpus ? -1 : who, cpus ? who : -1, -1,
		     PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		return -errno;
	b->ev = (int)fd;
	return ioctl(b->ev, PERF_EVENT_IOC_SET_BPF, b->prog) ? -errno : 0;
}

/* The reason a spec is not for this method, or NULL. */
static const char *unsupported(const struct tpcount_spec *spec, const struct tpbpf_field *f,
			       unsigned int flags)
{
	if (spec->filters || !spec->field)
		return "counters with filters of their own";
	if (spec->extra && !f->cond_size)
		return "an extra condition other than one FIELD == N or FIELD != N";
	if (f->cond_size && ld_size(f->cond_size) < 0)
		return "a condition on a field of a size other than 1, 2, 4 or 8 bytes";
	/* the field is loaded zero-extended: a negative N (sign-extended) never matches */
	if (f->cond_size && f->cond_size < 8 && f->cond_value >> (8 * f->cond_size))
		return "a condition value outside 0..2^(8*size)-1 on a field narrower than 8 bytes";
	if ((flags & TPCOUNT_REST) && spec->nvalues < 2)
		return "the rest of the values without a value of its own";
	if (flags & TPCOUNT_INHERIT)
		return "threads started later by inherit (TPCOUNT_TGID counts processes)";
	if ((flags & TPCOUNT_TGID) && (flags & TPCOUNT_CPUS))
		return "processes and CPUs at once";
	if (ld_size(f->size) < 0)
		return "a field of a size other than 1, 2, 4 or 8 bytes";
	return NULL;
}

/*
 * Which thread ids the program sees: in a pid namespace of its own, those
 * of this namespace, and every counted thread must be in it.
 */
static int ns_setup(struct tpbpf *b, const pid_t *ids, size_t nids, unsigned int flags,
		    char *err, size_t errlen)
{
	size_t i;
	int ret;

	if (flags & TPCOUNT_CPUS)
		return 0;
	ret = pidns_self(&b->ns);
	if (ret) {
		snprintf(err, errlen, "/proc/self/ns/pid: %s", strerror(-ret));
		return ret;
	}
	b->ns_own = !pidns_is_initial(&b->ns);
	for (i = 0; b->ns_own && i < nids; i++) {
		ret = pidns_of_task(ids[i], &b->ns);
		if (ret) {
			snprintf(err, errlen, "the bpf method in a pid namespace counts only "
				 "threads of that namespace; thread %d: %s", (int)ids[i],
				 ret == -EXDEV ? "in another" : strerror(-ret));
			return ret;
		}
	}
	return 0;
}

/* The program loaded, or the kernel's reason in @err. */
static int load(struct tpbpf *b, const struct tpcount_spec *spec, const struct tpbpf_field *f,
		const pid_t *ids, unsigned int flags, char *err, size_t errlen)
{
	char *log = calloc(1, 4096);
	int ret;

	if (!log)
		return -ENOMEM;
	ret = prog_load(b, f, spec->nvalues, ids, !!(flags & TPCOUNT_CPUS), log, 4096);
	if (ret)
		snprintf(err, errlen, "the kernel refused the bpf program for %s:%s%s: %s%s%.200s",
			 spec->system, spec->event, b->ns_own ? " (in a pid namespace of its "
			 "own: needs bpf_get_ns_current_pid_tgid, kernel 5.7+)" : "",
			 strerror(-ret), log[0] ? ": " : "", log);
	free(log);
	return ret;
}

int tpbpf_open(struct tpbpf **out, const struct tpcount_spec *spec,
	       const struct tpbpf_field *f, int id, const pid_t *ids, size_t nids,
	       unsigned int flags, char *err, size_t errlen)
{
	const char *no = unsupported(spec, f, flags);
	struct tpbpf *b;
	int ret;

	*out = NULL;
	if (no) {
		snprintf(err, errlen, "the bpf method does not count %s", no);
		return -EOPNOTSUPP;
	}
	b = calloc(1, sizeof(*b));
	if (!b)
		return -ENOMEM;
	b->ctl = b->ids = b->vals = b->counts = b->prog = b->ev = -1;
	b->n = nids * spec->nvalues;
	b->nids = nids;
	b->maps_only = getenv("CVMBENCH_TEST_BPF_MAPS") != NULL;
	b->tgid = !!(flags & TPCOUNT_TGID);
	b->rest = !!(flags & TPCOUNT_REST);
	ret = ns_setup(b, ids, nids, flags, err, errlen);
	if (!ret && (ret = maps_fill(b, spec, f, ids, nids)))
		snprintf(err, errlen, "bpf maps for %s:%s: %s", spec->system, spec->event,
			 strerror(-ret));
	if (!ret)
		ret = load(b, spec, f, ids, flags, err, errlen);
	if (!ret && (ret = attach(b, id, ids[0], !!(flags & TPCOUNT_CPUS))))
		snprintf(err, errlen, "attaching the bpf program to %s:%s: %s", spec->system,
			 spec->event, strerror(-ret));
	if (ret) {
		tpbpf_close(b);
		return ret;
	}
	*out = b;
	return 0;
}

int tpbpf_enable(struct tpbpf *b)
{
	return set_ctl(b, 1);
}

int tpbpf_disable(struct tpbpf *b)
{
	return set_ctl(b, 0);
}

int tpbpf_read(struct tpbpf *b, uint64_t *v)
{
	union bpf_attr a;
	uint32_t k = 0;

	memset(&a, 0, sizeof(a));
	a.map_fd = (unsigned int)b->counts;
	a.key = (unsigned long)&k;
	a.value = (unsigned long)v;
	return sys_bpf(BPF_MAP_LOOKUP_ELEM, &a) ? -errno : 0;
}

void tpbpf_close(struct tpbpf *b)
{
	int *fds[6];
	size_t i;

	if (!b)
		return;
	fds[0] = &b->ev, fds[1] = &b->prog, fds[2] = &b->counts;
	fds[3] = &b->vals, fds[4] = &b->ids, fds[5] = &b->ctl;
	for (i = 0; i < sizeof(fds) / sizeof(fds[0]); i++)
		if (*fds[i] >= 0)
			close(*fds[i]);
	free(b);
}
