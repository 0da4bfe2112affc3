// SPDX-License-Identifier: MIT
/*
 * qmp-cpus.c - a running QEMU's vCPU threads over QMP (qmp-cpus.h):
 *   -> {"execute":"query-cpus-fast"}
 *   <- {"return":[{"cpu-index":0,"thread-id":6399,"props":{"core-id":0,
 *       "thread-id":0,...},"qom-path":"/machine/unattached/device[0]",
 *       "target":"x86_64"}, ...]}
 * (QEMU 7.2's reply, tests/fixtures/qmp/query-cpus-fast-mttcg.json).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qmp-cpus.h"

#ifdef HAVE_CJSON
#include <cjson/cJSON.h>

/* One CpuInfoFast @c into @v: 0, or -EPROTO. */
static int one_cpu(const cJSON *c, struct qmp_vcpu *v)
{
	const cJSON *idx = cJSON_GetObjectItemCaseSensitive(c, "cpu-index"),
		    *tid = cJSON_GetObjectItemCaseSensitive(c, "thread-id");

	if (!cJSON_IsNumber(idx) || !cJSON_IsNumber(tid) || idx->valuedouble < 0 ||
	    tid->valuedouble < 1 || tid->valuedouble > 4194304)
		return -EPROTO;
	v->index = (int)idx->valuedouble;
	v->tid = (pid_t)tid->valuedouble;
	return 0;
}

static int parse_list(const cJSON *ret, struct qmp_vcpu *out, int max, int *n)
{
	const cJSON *c;
	int rc;

	cJSON_ArrayForEach(c, ret) {
		if (*n >= max)
			return -ENOSPC;
		rc = one_cpu(c, &out[*n]);
		if (rc)
			return rc;
		(*n)++;
	}
	return *n ? 0 : -ENODATA;
}

static void remote_error(const cJSON *e, char *err, size_t errlen)
{
	const cJSON *c = cJSON_GetObjectItemCaseSensitive(e, "class"),
		    *d = cJSON_GetObjectItemCaseSensitive(e, "desc");

	snprintf(err, errlen, "QEMU answered query-cpus-fast with %s: %s",
		 cJSON_IsString(c) ? c->valuestring : "an error",
		 cJSON_IsString(d) ? d->valuestring : "(no description)");
}

int qmp_cpus_parse(const char *json, struct qmp_vcpu *out, int max, int *n, char *err,
		   size_t errlen)
{
	cJSON *root = cJSON_Parse(json);
	const cJSON *ret = cJSON_GetObjectItemCaseSensitive(root, "return"),
		    *e = cJSON_GetObjectItemCaseSensitive(root, "error");
	int rc;

	*n = 0;
	if (e) {
		remote_error(e, err, errlen);
		rc = -EREMOTEIO;
	} else {
		rc = cJSON_IsArray(ret) ? parse_list(ret, out, max, n) : -EPROTO;
	}
	if (rc == -EPROTO)
		snprintf(err, errlen, "not a query-cpus-fast reply: %.80s", json);
	else if (rc == -ENOSPC)
		snprintf(err, errlen, "query-cpus-fast lists more than %d vCPUs", max);
	else if (rc == -ENODATA)
		snprintf(err, errlen, "query-cpus-fast lists no vCPU");
	cJSON_Delete(root);
	return rc;
}

int qmp_vcpu_threads(struct qmp *q, struct qmp_vcpu *out, int max, int *n, int timeout_ms,
		     char *err, size_t errlen)
{
	char *line = NULL;
	int ret = qmp_execute(q, "{\"execute\":\"query-cpus-fast\"}\n", &line, timeout_ms);

	*n = 0;
	if (ret) {
		snprintf(err, errlen, "QMP query-cpus-fast: %s", strerror(-ret));
		return ret;
	}
	ret = qmp_cpus_parse(line, out, max, n, err, errlen);
	free(line);
	return ret;
}

#else /* !HAVE_CJSON: the static guest agent */

int qmp_cpus_parse(const char *json, struct qmp_vcpu *out, int max, int *n, char *err,
		   size_t errlen)
{
	(void)json;
	(void)out;
	(void)max;
	*n = 0;
	snprintf(err, errlen, "built without cJSON: no QMP client");
	return -ENOTSUP;
}

int qmp_vcpu_threads(struct qmp *q, struct qmp_vcpu *out, int max, int *n, int timeout_ms,
		     char *err, size_t errlen)
{
	(void)q;
	(void)timeout_ms;
	return qmp_cpus_parse(NULL, out, max, n, err, errlen);
}

#endif
