// SPDX-License-Identifier: MIT
/*
 * output.c - record a function's output during invoke() and digest it
 * afterwards (see output.h). Segments refer either to the workload's own
 * memory or to offsets in one growing byte arena, so that recording costs
 * a pointer or a short copy and the arena can move when it grows.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output.h"

enum seg_kind { SEG_REF, SEG_COPY, SEG_DOUBLE };

struct wl_out_seg {
	enum seg_kind kind;
	const void *ref;          /* SEG_REF */
	size_t off;               /* SEG_COPY / SEG_DOUBLE: offset in bytes */
	size_t len;
	int decimals;             /* SEG_DOUBLE */
};

static void files_clear(struct wl_output *o)
{
	size_t i;

	for (i = 0; i < o->nfile; i++) {
		free(o->file[i].path);
		free(o->file[i].owned);
	}
	o->nfile = 0;
}

void wl_output_reset(struct wl_output *o)
{
	files_clear(o);
	o->nseg = 0;
	o->nbytes = 0;
	o->err = 0;
}

void wl_output_free(struct wl_output *o)
{
	files_clear(o);
	free(o->file);
	free(o->seg);
	free(o->bytes);
	memset(o, 0, sizeof(*o));
}

/* Grow *@p (of *@cap elements of @size) to hold @need; 0 or -ENOMEM. */
static int grow(void **p, size_t *cap, size_t need, size_t size)
{
	size_t n = *cap ? *cap : 64;
	void *q;

	if (need <= *cap)
		return 0;
	while (n < need)
		n *= 2;
	q = realloc(*p, n * size);
	if (!q)
		return -ENOMEM;
	*p = q;
	*cap = n;
	return 0;
}

static struct wl_out_seg *new_seg(struct wl_output *o, enum seg_kind kind)
{
	struct wl_out_seg *s;

	if (o->err)
		return NULL;
	o->err = grow((void **)&o->seg, &o->seg_cap, o->nseg + 1, sizeof(*o->seg));
	if (o->err)
		return NULL;
	s = &o->seg[o->nseg++];
	memset(s, 0, sizeof(*s));
	s->kind = kind;
	return s;
}

/* Append @len bytes to the arena; the offset where they went, or -1. */
static long arena_put(struct wl_output *o, const void *p, size_t len)
{
	size_t off = o->nbytes;

	if (o->err)
		return -1;
	o->err = grow((void **)&o->bytes, &o->bytes_cap, off + len, 1);
	if (o->err)
		return -1;
	memcpy(o->bytes + off, p, len);
	o->nbytes += len;
	return (long)off;
}

void wl_out_ref(struct wl_output *o, const void *p, size_t len)
{
	struct wl_out_seg *s;

	if (!len)
		return;
	s = new_seg(o, SEG_REF);
	if (!s)
		return;
	s->ref = p;
	s->len = len;
}

void wl_out_bytes(struct wl_output *o, const void *p, size_t len)
{
	struct wl_out_seg *last = o->nseg ? &o->seg[o->nseg - 1] : NULL;
	struct wl_out_seg *s;
	long off;

	if (!len)
		return;
	off = arena_put(o, p, len);
	if (off < 0)
		return;
	/* a copy right after a copy extends it: one segment, one update */
	if (last && last->kind == SEG_COPY && last->off + last->len == (size_t)off) {
		last->len += len;
		return;
	}
	s = new_seg(o, SEG_COPY);
	if (s) {
		s->off = (size_t)off;
		s->len = len;
	}
}

void wl_out_u64(struct wl_output *o, uint64_t v)
{
	uint8_t b[8];
	int i;

	for (i = 0; i < 8; i++)
		b[i] = (uint8_t)(v >> (8 * i));
	wl_out_bytes(o, b, sizeof(b));
}

void wl_out_double(struct wl_output *o, double v, int decimals)
{
	long off = arena_put(o, &v, sizeof(v));
	struct wl_out_seg *s;

	if (off < 0)
		return;
	s = new_seg(o, SEG_DOUBLE);
	if (s) {
		s->off = (size_t)off;
		s->len = sizeof(v);
		s->decimals = decimals;
	}
}

void wl_out_str(struct wl_output *o, const char *s)
{
	wl_out_bytes(o, s, strlen(s) + 1);
}

/* A new file entry owning @owned (freed here on failure); NULL on failure. */
static struct wl_out_file *new_file(struct wl_output *o, const char *path, void *owned)
{
	struct wl_out_file *f;
	char *copy;

	if (!o->err)
		o->err = grow((void **)&o->file, &o->file_cap, o->nfile + 1, sizeof(*o->file));
	copy = o->err ? NULL : strdup(path);
	if (!copy) {
		o->err = o->err ? o->err : -ENOMEM;
		free(owned);
		return NULL;
	}
	f = &o->file[o->nfile++];
	memset(f, 0, sizeof(*f));
	f->path = copy;
	f->owned = owned;
	return f;
}

void wl_out_file(struct wl_output *o, const char *path, const void *data, size_t len)
{
	struct wl_out_file *f = new_file(o, path, NULL);

	if (f) {
		f->data = data;
		f->len = len;
	}
}

void wl_out_file_owned(struct wl_output *o, const char *path, void *buf, size_t len)
{
	struct wl_out_file *f = new_file(o, path, buf);

	if (f) {
		f->data = buf;
		f->len = len;
	}
}

void wl_out_file_with(struct wl_output *o, const char *path, wl_out_writer write,
		      void *arg)
{
	struct wl_out_file *f = new_file(o, path, NULL);

	if (f) {
		f->write = write;
		f->arg = arg;
	}
}

/* The text a recorded double stands for, as the digest reads it. */
static void digest_double_text(struct digest *d, const uint8_t *raw, int decimals)
{
	char buf[400];
	double v;
	int n;

	memcpy(&v, raw, sizeof(v));
	n = snprintf(buf, sizeof(buf), "%.*f;", decimals, v);
	if (n < 0 || n >= (int)sizeof(buf)) {
		d->err = d->err ? d->err : -ERANGE;
		return;
	}
	/* "-0.000" and "0.000" are the same result */
	if (strspn(buf, "-0.;") == (size_t)n && buf[0] == '-')
		digest_update(d, buf + 1, (size_t)n - 1);
	else
		digest_update(d, buf, (size_t)n);
}

int wl_output_digest(const struct wl_output *o, char hex[DIGEST_HEX_LEN])
{
	struct digest d;
	size_t i;

	hex[0] = '\0';
	if (o->err)
		return o->err;
	digest_init(&d);
	for (i = 0; i < o->nseg; i++) {
		const struct wl_out_seg *s = &o->seg[i];

		if (s->kind == SEG_REF)
			digest_update(&d, s->ref, s->len);
		else if (s->kind == SEG_COPY)
			digest_update(&d, o->bytes + s->off, s->len);
		else
			digest_double_text(&d, o->bytes + s->off, s->decimals);
	}
	return digest_final(&d, hex);
}

int wl_digest_policy_parse(const char *s, struct wl_digest_policy *p)
{
	char *end;
	long n;

	if (!strcmp(s, "every")) {
		p->every = 1;
		return 0;
	}
	if (!strcmp(s, "first")) {
		p->every = 0;
		return 0;
	}
	errno = 0;
	n = strtol(s, &end, 10);
	if (errno || end == s || *end || n < 1)
		return -EINVAL;
	p->every = n;
	return 0;
}

int wl_digest_due(const struct wl_digest_policy *p, unsigned long index)
{
	if (index == 0)
		return 1;
	return p->every > 0 && index % (unsigned long)p->every == 0;
}
