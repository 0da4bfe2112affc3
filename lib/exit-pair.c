// SPDX-License-Identifier: MIT
/*
 * exit-pair.c - exit-handling time per reason from kvm_exit -> kvm_entry
 * record pairs (exit-pair.h). Fields are read at the offsets and sizes of
 * the events' format files, never assumed.
 * Its input must be one stream merged by timestamp across CPUs (not each
 * CPU's buffer in turn): a vCPU thread that migrates exits on one CPU and
 * enters on another, and read per CPU its kvm_entry would come before its
 * kvm_exit, so the pair would be counted unpaired.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exit-pair.h"

struct exit_pair_pending {
	int tid, open;
	uint32_t isa, reason;
	uint64_t ts;
};

/* Grow an array of @size-byte items at *@a (cap *@cap) to hold @n + 1. */
static int grow(void **a, size_t *cap, size_t n, size_t size)
{
	void *na;
	size_t nc = *cap ? *cap * 2 : 16;

	if (n < *cap)
		return 0;
	na = realloc(*a, nc * size);
	if (!na)
		return -ENOMEM;
	*a = na;
	*cap = nc;
	return 0;
}

static struct exit_pair_pending *pending(struct exit_pair *p, int tid, int make)
{
	size_t i;

	for (i = 0; i < p->npend; i++)
		if (p->pend[i].tid == tid)
			return &p->pend[i];
	if (!make || grow((void **)&p->pend, &p->cap_pend, p->npend, sizeof(*p->pend)))
		return NULL;
	p->pend[p->npend] = (struct exit_pair_pending){ .tid = tid };
	return &p->pend[p->npend++];
}

static struct exit_pair_reason *reason_slot(struct exit_pair *p, uint32_t isa, uint32_t r)
{
	struct exit_pair_reason *s = (struct exit_pair_reason *)exit_pair_find(p, isa, r);

	if (s)
		return s;
	if (grow((void **)&p->r, &p->cap_r, p->nr, sizeof(*p->r)))
		return NULL;
	p->r[p->nr] = (struct exit_pair_reason){ .isa = isa, .reason = r };
	return &p->r[p->nr++];
}

int exit_pair_exit(struct exit_pair *p, int tid, uint64_t ts_ns, uint32_t isa, uint32_t reason)
{
	struct exit_pair_pending *e = pending(p, tid, 1);

	if (!e)
		return -ENOMEM;
	p->exits_unpaired += e->open;   /* the last exit's entry never came */
	*e = (struct exit_pair_pending){ tid, 1, isa, reason, ts_ns };
	return 0;
}

int exit_pair_entry(struct exit_pair *p, int tid, uint64_t ts_ns)
{
	struct exit_pair_pending *e = pending(p, tid, 0);
	struct exit_pair_reason *s;

	if (!e || !e->open) {
		p->entries_unpaired++;
		return 0;
	}
	e->open = 0;
	if (ts_ns < e->ts) {
		p->backwards++;
		return 0;
	}
	s = reason_slot(p, e->isa, e->reason);
	if (!s)
		return -ENOMEM;
	s->count++;
	s->time_ns += ts_ns - e->ts;
	return 0;
}

const struct exit_pair_reason *exit_pair_find(const struct exit_pair *p, uint32_t isa,
					      uint32_t reason)
{
	size_t i;

	for (i = 0; i < p->nr; i++)
		if (p->r[i].isa == isa && p->r[i].reason == reason)
			return &p->r[i];
	return NULL;
}

/* The unsigned number of @size bytes at @off of @data (little-endian host). */
static uint64_t num(const unsigned char *data, unsigned int off, unsigned int size)
{
	uint64_t v = 0;

	memcpy(&v, data + off, size > 8 ? 8 : size);
	return v;
}

int exit_pair_feed(struct exit_pair *p, const struct exit_pair_fields *fl, const void *data,
		   size_t len, uint64_t ts_ns)
{
	const unsigned char *d = data;
	unsigned int need;
	int type;

	if (len < fl->type_off + fl->type_size)
		return -EINVAL;
	type = (int)num(d, fl->type_off, fl->type_size);
	if (type == fl->entry_id)
		return len < fl->pid_off + fl->pid_size ? -EINVAL :
		       exit_pair_entry(p, (int)num(d, fl->pid_off, fl->pid_size), ts_ns);
	if (type != fl->exit_id) {
		p->other++;
		return 0;
	}
	need = fl->reason_off + fl->reason_size;
	if (fl->isa_off + fl->isa_size > need)
		need = fl->isa_off + fl->isa_size;
	if (len < need || len < fl->xpid_off + fl->xpid_size)
		return -EINVAL;
	return exit_pair_exit(p, (int)num(d, fl->xpid_off, fl->xpid_size), ts_ns,
			      fl->isa_size ? (uint32_t)num(d, fl->isa_off, fl->isa_size) : 0,
			      (uint32_t)num(d, fl->reason_off, fl->reason_size));
}

/* Field @name of @f into (@off, @size), or -ENOENT naming it in @err. */
static int field(const struct tp_format *f, const char *ev, const char *name,
		 unsigned int *off, unsigned int *size, char *err, size_t errlen)
{
	if (!tp_format_field(f, name, off, size) && *size <= 8)
		return 0;
	snprintf(err, errlen, "%s has no field %s of at most 8 bytes", ev, name);
	return -ENOENT;
}

int exit_pair_fields_load(struct exit_pair_fields *fl, const struct tp_format *x,
			  const struct tp_format *e, char *err, size_t errlen)
{
	int ret;

	memset(fl, 0, sizeof(*fl));
	fl->exit_id = tp_format_id(x);
	fl->entry_id = tp_format_id(e);
	ret = field(x, "the exit event", "common_type", &fl->type_off, &fl->type_size, err, errlen) ?:
	      field(x, "the exit event", "common_pid", &fl->xpid_off, &fl->xpid_size, err, errlen) ?:
	      field(e, "the entry event", "common_pid", &fl->pid_off, &fl->pid_size, err, errlen) ?:
	      field(x, "the exit event", "exit_reason", &fl->reason_off, &fl->reason_size, err,
		    errlen);
	if (!ret && tp_format_field(x, "isa", &fl->isa_off, &fl->isa_size))
		fl->isa_size = 0;         /* an older kernel's kvm_exit: no isa */
	return ret;
}

void exit_pair_free(struct exit_pair *p)
{
	free(p->pend);
	free(p->r);
	memset(p, 0, sizeof(*p));
}
