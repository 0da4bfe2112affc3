// SPDX-License-Identifier: MIT
/*
 * trace-gen.c - synthetic traces in the 2019 format (trace-gen.h). Every
 * function draws from its own stream (seeded from the seed and its index),
 * so one function's counts do not change when others are added.
 *   poisson   each minute ~ Poisson(rate)
 *   periodic  one invocation every `period` minutes from a random phase
 *   diurnal   Poisson(rate (1 + 0.8 sin(2 pi (minute - peak + 360) / 1440))),
 *             the peak drawn per function within 4 h of 14:00
 *   bursty    on/off: bursts (mean 5 min) at 10 x rate, silences (mean 45
 *             min) of none; the long-run mean is the rate
 *   mix       per function log10(invocations a day) ~ Normal(1.60, 1.77)
 *             clipped to [0, 6]: 45 % at most once an hour, 81 % at most
 *             once a minute (ATC 2020, Fig. 5); then 20 % timers (periodic),
 *             45 % poisson, 25 % diurnal, 10 % bursty. --rate is ignored.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "stats-rng.h"
#include "trace-gen.h"

static const char *const kind_names[] = {
	[TRACE_POISSON] = "poisson", [TRACE_PERIODIC] = "periodic",
	[TRACE_DIURNAL] = "diurnal", [TRACE_BURSTY] = "bursty", [TRACE_MIX] = "mix",
};

int trace_kind_parse(const char *s, enum trace_kind *k)
{
	size_t i;

	for (i = 0; i < sizeof(kind_names) / sizeof(kind_names[0]); i++)
		if (!strcmp(s, kind_names[i])) {
			*k = (enum trace_kind)i;
			return 0;
		}
	return -EINVAL;
}

const char *trace_kind_name(enum trace_kind k)
{
	return kind_names[k];
}

/*
 * Knuth's product of uniforms below 30 (exact); above, the normal
 * approximation with continuity correction (the error in the
 * distribution's shape is below 1 % there and the mean is kept).
 */
unsigned trace_poisson(struct stats_rng *r, double lambda)
{
	double l, p = 1;
	unsigned k = 0;

	if (lambda <= 0)
		return 0;
	if (lambda >= 30) {
		double v = floor(lambda + sqrt(lambda) * stats_rng_normal(r) + 0.5);

		return v < 0 ? 0 : (unsigned)v;
	}
	l = exp(-lambda);
	for (;;) {
		p *= stats_rng_uniform(r);
		if (p <= l)
			return k;
		k++;
	}
}

/* One function: its kind, mean rate per minute, period and own stream. */
struct gen_fn {
	enum trace_kind kind;
	double rate, period, phase;
	int on;                  /* bursty: in a burst */
	struct stats_rng rng;
};

static void mix_draw(struct gen_fn *f)
{
	double lg = 1.60 + 1.77 * stats_rng_normal(&f->rng), u;

	lg = lg < 0 ? 0 : lg > 6 ? 6 : lg;
	f->rate = pow(10, lg) / 1440.0;
	u = stats_rng_uniform(&f->rng);
	f->kind = u < 0.20 ? TRACE_PERIODIC : u < 0.65 ? TRACE_POISSON :
		u < 0.90 ? TRACE_DIURNAL : TRACE_BURSTY;
	f->period = f->rate > 0 ? 1 / f->rate : 1440;
	if (f->period < 1)
		f->period = 1;
}

static void fn_init(struct gen_fn *f, const struct trace_gen *g, size_t i)
{
	stats_rng_seed(&f->rng, g->seed * 0x9E3779B97F4A7C15ULL + i + 1);
	f->kind = g->kind;
	f->rate = g->rate;
	f->period = g->period;
	f->on = 0;
	if (g->kind == TRACE_MIX)
		mix_draw(f);
	f->phase = f->kind == TRACE_DIURNAL ? 840 + 240 * (2 * stats_rng_uniform(&f->rng) - 1)
		: floor(stats_rng_uniform(&f->rng) * f->period);
}

/* Periodic: invocations at phase + k period that fall in minute @m. */
static unsigned periodic_count(const struct gen_fn *f, unsigned m)
{
	double first = ceil((m - f->phase) / f->period), last = ceil((m + 1 - f->phase) / f->period);

	if (m + 1 <= f->phase)
		return 0;
	if (first < 0)
		first = 0;
	return last > first ? (unsigned)(last - first) : 0;
}

static unsigned minute_count(struct gen_fn *f, unsigned m)
{
	double x;

	switch (f->kind) {
	case TRACE_PERIODIC:
		return periodic_count(f, m);
	case TRACE_DIURNAL:
		x = 2 * M_PI * ((double)m - f->phase + 360) / 1440.0;
		return trace_poisson(&f->rng, f->rate * (1 + 0.8 * sin(x)));
	case TRACE_BURSTY:
		/* geometric sojourns: leave a burst w.p. 1/5, a silence w.p. 1/45 */
		if (stats_rng_uniform(&f->rng) < (f->on ? 1 / 5.0 : 1 / 45.0))
			f->on = !f->on;
		return f->on ? trace_poisson(&f->rng, 10 * f->rate) : 0;
	default:
		return trace_poisson(&f->rng, f->rate);
	}
}

static const char *trigger_of(enum trace_kind k)
{
	return k == TRACE_PERIODIC ? "timer" : k == TRACE_BURSTY ? "queue" :
		k == TRACE_POISSON ? "event" : "http";
}

/* Decimal digits of @v at the end of @end; returns where they start. */
static char *utoa_end(char *end, unsigned v)
{
	do {
		*--end = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	return end;
}

static void write_header(FILE *out, unsigned minutes)
{
	unsigned m;

	fputs("HashOwner,HashApp,HashFunction,Trigger", out);
	for (m = 1; m <= minutes; m++)
		fprintf(out, ",%u", m);
	fputc('\n', out);
}

static uint64_t write_row(FILE *out, const struct trace_gen *g, size_t i)
{
	struct gen_fn f;
	uint64_t total = 0;
	char num[16];
	unsigned m, c;

	fn_init(&f, g, i);
	fprintf(out, "o%016llx,a%016llx,f%016llx,%s",
		(unsigned long long)(g->seed ^ (i / 4) * 0x2545F4914F6CDD1DULL),
		(unsigned long long)(g->seed ^ (i / 2) * 0x9E3779B97F4A7C15ULL),
		(unsigned long long)(g->seed ^ (i + 1) * 0xBF58476D1CE4E5B9ULL),
		trigger_of(f.kind));
	for (m = 0; m < g->minutes; m++) {
		char *s;

		c = minute_count(&f, m);
		total += c;
		s = utoa_end(num + sizeof(num), c);
		*--s = ',';
		fwrite(s, 1, (size_t)(num + sizeof(num) - s), out);
	}
	fputc('\n', out);
	return total;
}

int trace_gen_write(FILE *out, const struct trace_gen *g, uint64_t *total)
{
	size_t i;

	*total = 0;
	write_header(out, g->minutes);
	for (i = 0; i < g->functions; i++)
		*total += write_row(out, g, i);
	return ferror(out) ? -EIO : 0;
}
