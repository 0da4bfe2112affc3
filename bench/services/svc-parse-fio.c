// SPDX-License-Identifier: MIT
/*
 * svc-parse-fio.c - fio 3.33's --output-format=json for one write job
 * (randwrite): from jobs[0].write, iops -> write_iops, bw_bytes ->
 * write_bytes_per_s, clat_ns.mean -> write_clat_mean_ns and
 * clat_ns.percentile "50.000000" / "99.000000" / "99.900000" -> the
 * percentiles (already ns). A job with jobs[0].error set is refused, and so
 * is an output with more than one job: run fio with --group_reporting (its
 * one entry then holds all jobs), else jobs[0] would be one job's share. Lines
 * before the JSON (fio's notes, when they reach stdout) are skipped.
 */
#include <string.h>

#include <cjson/cJSON.h>

#include "svc-parse-local.h"

/* The number at @path below @obj, or a failure naming @path. */
static int fio_num(struct svc_parse_ctx *c, const cJSON *obj, const char *const *path,
		   const char *where, double *v)
{
	const cJSON *o = obj;

	for (; *path; path++) {
		o = cJSON_GetObjectItemCaseSensitive(o, *path);
		if (!o)
			return svc_fail(c, "%s: missing", where);
	}
	if (!cJSON_IsNumber(o))
		return svc_fail(c, "%s: not a number", where);
	*v = o->valuedouble;
	return 0;
}

static int fio_metric(struct svc_parse_ctx *c, const cJSON *w, const char *name,
		      const char *const *path, const char *where)
{
	double v;

	if (fio_num(c, w, path, where, &v))
		return -1;
	return svc_put(c, name, v, 0);
}

static int fio_write(struct svc_parse_ctx *c, const cJSON *job)
{
	static const struct {
		const char *name, *where, *path[4];
	} m[] = {
		{ "write_iops", "jobs[0].write.iops", { "iops" } },
		{ "write_bytes_per_s", "jobs[0].write.bw_bytes", { "bw_bytes" } },
		{ "write_clat_mean_ns", "jobs[0].write.clat_ns.mean", { "clat_ns", "mean" } },
		{ "write_clat_p50_ns", "jobs[0].write.clat_ns.percentile.50.000000",
		  { "clat_ns", "percentile", "50.000000" } },
		{ "write_clat_p99_ns", "jobs[0].write.clat_ns.percentile.99.000000",
		  { "clat_ns", "percentile", "99.000000" } },
		{ "write_clat_p999_ns", "jobs[0].write.clat_ns.percentile.99.900000",
		  { "clat_ns", "percentile", "99.900000" } },
	};
	const cJSON *w = cJSON_GetObjectItemCaseSensitive(job, "write");
	size_t i;

	if (!cJSON_IsObject(w))
		return svc_fail(c, "jobs[0].write: missing (not a write job?)");
	for (i = 0; i < sizeof(m) / sizeof(m[0]); i++)
		if (fio_metric(c, w, m[i].name, m[i].path, m[i].where))
			return -1;
	return 0;
}

int svc_parse_fio(struct svc_parse_ctx *c)
{
	static const char *const error_path[] = { "error", NULL };
	const char *start = c->text;
	cJSON *root, *job;
	double error = -1;
	int ret = -1;

	while (*start && *start != '{') {
		start = strchr(start, '\n');
		start = start ? start + 1 : "";
	}
	root = cJSON_Parse(start);
	if (!root)
		return svc_fail(c, "not JSON (run fio with --output-format=json; truncated?)");
	job = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(root, "jobs"), 0);
	if (!cJSON_IsObject(job))
		svc_fail(c, "jobs[0]: missing");
	else if (cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(root, "jobs")) > 1)
		svc_fail(c, "jobs: %d entries, one job's share each (run fio with "
			 "--group_reporting)",
			 cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(root, "jobs")));
	else if (!fio_num(c, job, error_path, "jobs[0].error", &error) && error != 0)
		svc_fail(c, "jobs[0].error: %g: the job failed", error);
	else if (error == 0)
		ret = fio_write(c, job);
	cJSON_Delete(root);
	return ret;
}
