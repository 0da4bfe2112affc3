// SPDX-License-Identifier: MIT
/*
 * loadgen-report.c - from each measured request's times to cvmload's
 * report. Latency = end of the response - intended send time (so the
 * wait for a busy connection and the sender's own lateness are in it, as
 * they are for a user of an open system); the send lag (actual - intended
 * send time) is reported beside it so a generator that fell behind shows.
 * Percentiles are exact: all latencies are sorted and the p-th is the
 * value of rank ceil(p * n) (nearest rank). The achieved rate is the
 * successful responses over the measured window (--duration), or over the
 * time to the last response when that ran past the window.
 */
#include <math.h>
#include <stdlib.h>
#include <sys/resource.h>

#include "loadgen-report.h"

static const char *const status_names[REQ_STATUS_N] = {
	"pending", "ok", "connect", "status", "read", "timeout",
};

static int by_value(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

/* Nearest rank: the value of rank ceil(p * n), 1-based. */
static int64_t rank(const int64_t *v, long long n, double p)
{
	long long k = (long long)ceil(p * (double)n);

	return v[k < 1 ? 0 : k - 1];
}

static void print_dist(FILE *out, const char *prefix, const int64_t *v, long long n,
		       int with_mean)
{
	static const struct { const char *name; double p; } pct[] = {
		{ "p50", 0.50 }, { "p90", 0.90 }, { "p99", 0.99 }, { "p999", 0.999 },
	};
	long double sum = 0;
	long long i;
	size_t k;

	for (i = 0; i < n; i++)
		sum += v[i];
	if (with_mean) {
		if (n)
			fprintf(out, "%s_mean_ns %.0Lf\n", prefix, sum / n);
		else
			fprintf(out, "%s_mean_ns none\n", prefix);
	}
	for (k = 0; k < sizeof(pct) / sizeof(pct[0]); k++) {
		if (n)
			fprintf(out, "%s_%s_ns %lld\n", prefix, pct[k].name,
				(long long)rank(v, n, pct[k].p));
		else
			fprintf(out, "%s_%s_ns none\n", prefix, pct[k].name);
	}
	if (n)
		fprintf(out, "%s_max_ns %lld\n", prefix, (long long)v[n - 1]);
	else
		fprintf(out, "%s_max_ns none\n", prefix);
}

/* Latencies (@lat) and send lags (@lag) of the measured requests, sorted;
 * their counts, per-status counts and the last response's end. */
static void collect(const struct loadgen_result *r, int64_t *lat, long long *nlat,
		    int64_t *lag, long long *nlag, long long *count, int64_t *last_end)
{
	const struct loadgen_req *q;
	long long i;

	*nlat = *nlag = 0;
	*last_end = 0;
	for (i = r->n_warm; i < r->n_total; i++) {
		q = &r->req[i];
		count[q->status]++;
		if (q->sent_ns)
			lag[(*nlag)++] = q->sent_ns - loadgen_intended_ns(r, i);
		if (q->status == REQ_OK)
			lat[(*nlat)++] = q->end_ns - loadgen_intended_ns(r, i);
		if (q->end_ns > *last_end)
			*last_end = q->end_ns;
	}
	qsort(lat, *nlat, sizeof(*lat), by_value);
	qsort(lag, *nlag, sizeof(*lag), by_value);
}

static void print_head(FILE *out, const struct loadgen_opts *o, const struct loadgen_result *r,
		       const long long *count)
{
	long long errors = 0;
	int s;

	for (s = REQ_ERR_CONNECT; s < REQ_STATUS_N; s++)
		errors += count[s];
	fprintf(out, "cvmload 1\nurl %s\nconnections %d\ntarget_per_s %.3f\nduration_s %.3f\n"
		"warmup_s %.3f\nwarmup_requests %lld\nrequests %lld\nok %lld\nerrors %lld\n",
		o->url, o->connections, o->rate, o->duration, o->warmup, r->n_warm,
		r->n_total - r->n_warm, count[REQ_OK], errors);
	for (s = REQ_ERR_CONNECT; s < REQ_STATUS_N; s++)
		fprintf(out, "errors_%s %lld\n", status_names[s], count[s]);
}

int loadgen_report(FILE *out, const struct loadgen_opts *o, const struct loadgen_result *r)
{
	long long n = r->n_total - r->n_warm, nlat, nlag, count[REQ_STATUS_N] = { 0 };
	int64_t *lat = malloc((n + 1) * sizeof(*lat)), *lag = malloc((n + 1) * sizeof(*lag));
	int64_t start = r->t0_ns + (int64_t)(o->warmup * 1e9), last_end;
	double span;
	struct rusage ru;

	if (!lat || !lag) {
		free(lat);
		free(lag);
		return -1;
	}
	collect(r, lat, &nlat, lag, &nlag, count, &last_end);
	span = fmax(o->duration, (double)(last_end - start) / 1e9);
	print_head(out, o, r, count);
	fprintf(out, "achieved_per_s %.3f\nwindow_s %.6f\n", (double)count[REQ_OK] / span, span);
	print_dist(out, "latency", lat, nlat, 1);
	print_dist(out, "send_lag", lag, nlag, 0);
	getrusage(RUSAGE_SELF, &ru);
	fprintf(out, "cpu_user_s %.3f\ncpu_sys_s %.3f\n",
		ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6,
		ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6);
	free(lat);
	free(lag);
	return 0;
}

int loadgen_dump(const char *path, const struct loadgen_result *r)
{
	FILE *f = fopen(path, "w");
	const struct loadgen_req *q;
	long long i;

	if (!f)
		return -1;
	fprintf(f, "# index warm intended_ns sent_ns end_ns status\n");
	for (i = 0; i < r->n_total; i++) {
		q = &r->req[i];
		fprintf(f, "%lld %d %lld %lld %lld %s\n", i, i < r->n_warm,
			(long long)loadgen_intended_ns(r, i), (long long)q->sent_ns,
			(long long)q->end_ns, status_names[q->status]);
	}
	return fclose(f);
}
