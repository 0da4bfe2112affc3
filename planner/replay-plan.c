// SPDX-License-Identifier: MIT
/*
 * replay-plan.c - the plan of a live replay (replay-plan.h). Arrival k of
 * a function's minute m with c invocations is at 60 m + 60 (k + 1/2) / c
 * trace seconds, the simulator's uniform spread (sim-feed.c), then divided
 * by the compression factor and taken from the function's first arrival.
 * Functions without an invocation are left out; the first max_functions
 * with one are kept (trace order). The config runs each function as a
 * replay cell (bench/run/cell-replay.c): workload, backend, size, its
 * schedule, replay-ttl = ttl / compress, every arrival measured
 * (warmup 0). Writes only into the folder it is given.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "exitcode.h"
#include "log.h"
#include "plan-map.h"
#include "replay-plan.h"
#include "trace-azure19.h"

/* The workloads of the comma list @list, sorted, as plan_map_make() wants them. */
static int workloads_of(const char *list, struct plan_inputs *in)
{
	char buf[1024], *save = NULL, *w;

	snprintf(buf, sizeof(buf), "%s", list);
	for (w = strtok_r(buf, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
		char (*p)[64] = realloc(in->wl, (size_t)(in->nwl + 1) * sizeof(*p));

		if (!p)
			return EXIT_FAILED;
		in->wl = p;
		snprintf(in->wl[in->nwl++], sizeof(*p), "%s", w + strspn(w, " "));
	}
	if (!in->nwl) {
		pr_err("replay: --workloads: give at least one workload");
		return EXIT_USAGE;
	}
	qsort(in->wl, (size_t)in->nwl, sizeof(*in->wl), (int (*)(const void *, const void *))strcmp);
	in->nplat = 1;
	in->m = calloc((size_t)in->nwl, sizeof(*in->m));
	return in->m ? 0 : EXIT_FAILED;
}

/* Function @f's arrivals, compressed by @k, from its first. */
static int arrivals(const struct trace19 *t, size_t f, double k, struct replay_fn *r)
{
	const uint32_t *c = t->counts + f * t->minutes;
	size_t total = 0, i = 0;
	unsigned m, j;
	double first = -1, at;

	for (m = 0; m < t->minutes; m++)
		total += c[m];
	r->at = malloc((total ? total : 1) * sizeof(*r->at));
	if (!r->at)
		return -ENOMEM;
	for (m = 0; m < t->minutes; m++)
		for (j = 0; j < c[m]; j++) {
			at = (60.0 * m + 60.0 * (j + 0.5) / c[m]) / k;
			if (first < 0)
				first = at;
			r->at[i++] = at - first;
		}
	r->n = total;
	return 0;
}

static int write_schedule(const char *dir, size_t idx, struct replay_fn *r)
{
	FILE *f;
	size_t i;

	snprintf(r->schedule, sizeof(r->schedule), "%s/replay-%zu.schedule", dir, idx);
	f = fopen(r->schedule, "we");
	if (!f)
		return -errno;
	fprintf(f, "# cvmbench replay: trace function %s as %s, %zu arrivals (ms)\n", r->name,
		r->workload, r->n);
	for (i = 0; i < r->n; i++)
		fprintf(f, "%.3f\n", r->at[i] * 1e3);
	return fclose(f) ? -errno : 0;
}

static int write_config(const struct replay_args *a, struct replay_set *s)
{
	FILE *f;
	size_t i;

	snprintf(s->config, sizeof(s->config), "%s/replay.ini", a->dir);
	f = fopen(s->config, "we");
	if (!f)
		return -errno;
	fprintf(f, "; cvmbench replay %s: %zu trace functions, time compressed %g x, TTL %g s "
		"(%g s replayed)\n[defaults]\nbackend = %s\nsize = %s\nwarmup = 0\nprobes = "
		"latency\nreplay-ttl = %g\n", a->trace, s->n, a->compress, a->ttl,
		a->ttl / a->compress, a->backend, a->size, a->ttl / a->compress);
	for (i = 0; i < s->n; i++)
		fprintf(f, "\n[experiment replay-%zu]\nworkload = %s\ninvocations = %zu\n"
			"replay-schedule = %s\n", i, s->fn[i].workload, s->fn[i].n,
			s->fn[i].schedule);
	return fclose(f) ? -errno : 0;
}

static int make_fns(const struct replay_args *a, const struct trace19 *t,
		    const struct plan_inputs *in, const uint32_t *map, struct replay_set *s)
{
	size_t f;
	int r;

	s->fn = calloc(t->fns.n, sizeof(*s->fn));
	if (!s->fn)
		return EXIT_FAILED;
	for (f = 0; f < t->fns.n && s->n < a->max_functions; f++) {
		struct replay_fn *x = &s->fn[s->n];

		if (arrivals(t, f, a->compress, x))
			return EXIT_FAILED;
		if (!x->n) {
			free(x->at);
			x->at = NULL;
			continue;
		}
		snprintf(x->name, sizeof(x->name), "%s", t->fns.name[f]);
		snprintf(x->workload, sizeof(x->workload), "%s", in->wl[map[f]]);
		s->span += x->at[x->n - 1];
		s->n++;           /* freed with the set from here */
		r = write_schedule(a->dir, s->n - 1, x);
		if (r) {
			pr_err("replay: %s: %s", x->schedule, strerror(-r));
			return EXIT_USAGE;
		}
	}
	return 0;
}

int replay_plan_make(const struct replay_args *a, struct replay_set *s)
{
	struct plan_inputs in = { 0 };
	struct trace19 t;
	uint32_t *map = NULL;
	int r;

	memset(s, 0, sizeof(*s));
	r = trace19_read(&t, a->trace);
	if (r) {
		pr_err("replay: %s: %s", a->trace, r == -EINVAL ? "not a trace in the 2019 format "
		       "(cvmbench trace gen writes one)" : strerror(-r));
		return EXIT_USAGE;
	}
	if (mkdir(a->dir, 0755) && errno != EEXIST) {
		pr_err("replay: %s: %s", a->dir, strerror(errno));
		r = EXIT_USAGE;
	}
	r = r ?: workloads_of(a->workloads, &in) ?: plan_map_make(&t.fns, &in, a->map, &map);
	r = r ?: make_fns(a, &t, &in, map, s);
	if (!r && s->span > a->max_seconds) {
		pr_err("replay: %s replays for %.0f s after compressing %g x (its functions one "
		       "after another): over --max-seconds %g; compress more or take fewer "
		       "--functions", a->trace, s->span, a->compress, a->max_seconds);
		r = EXIT_USAGE;
	}
	if (!r && write_config(a, s)) {
		pr_err("replay: %s: %s", s->config, strerror(errno));
		r = EXIT_USAGE;
	}
	free(map);
	free(in.wl);
	free(in.m);
	trace19_free(&t);
	return r;
}

void replay_plan_free(struct replay_set *s)
{
	size_t i;

	for (i = 0; s->fn && i < s->n; i++)
		free(s->fn[i].at);
	free(s->fn);
	memset(s, 0, sizeof(*s));
}
