// SPDX-License-Identifier: MIT
/*
 * svc-list.c - the system suite's services and their load generators' argv
 * (svc-list.h), shaped after the OCI blog's five tools and scaled to a
 * 2-vCPU machine: nginx serving a static file under an open-loop rate
 * (cvmload, wrk2's way: latency from the intended send time) and under
 * closed-loop wrk; redis-benchmark SET/GET; pgbench's TPC-B-like script at
 * scale 1; sysbench cpu (primes up to 20000) and memory (1 KiB blocks);
 * fio 4 KiB random writes, O_DIRECT, libaio queue depth 16, on a 128 MiB file.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "svc-list.h"

static const struct svc_info services[] = {
	{ "nginx-open", SVC_NGINX, "cvmload", "cvmload", 0, 0, { 10, 8, 1000 },
	  "nginx static file, open loop at svc-rate requests/s (cvmload)" },
	{ "nginx-wrk", SVC_NGINX, "wrk", "wrk", 0, 0, { 10, 8, 0 },
	  "nginx static file, closed loop (wrk, one thread, svc-connections)" },
	{ "redis", SVC_REDIS, "redis-benchmark", "redis-benchmark", 0, 10000, { 10, 16, 0 },
	  "redis-server, redis-benchmark SET and GET (10000 requests per second of svc-duration)" },
	{ "pgbench", SVC_POSTGRES, "pgbench", "pgbench", 1, 0, { 10, 4, 0 },
	  "PostgreSQL, pgbench TPC-B-like at scale 1 (data on a real disk)" },
	{ "sysbench-cpu", SVC_NONE, "sysbench", "sysbench-cpu", 0, 0, { 10, 2, 0 },
	  "sysbench cpu: prime search up to 20000, svc-connections threads" },
	{ "sysbench-memory", SVC_NONE, "sysbench", "sysbench-memory", 0, 0, { 10, 2, 0 },
	  "sysbench memory: 1 KiB block writes, svc-connections threads" },
	{ "fio", SVC_NONE, "fio", "fio", 1, 0, { 10, 1, 0 },
	  "fio 4 KiB random writes, O_DIRECT, libaio depth 16 (a real disk)" },
};

#define NSERVICES ((int)(sizeof(services) / sizeof(services[0])))

const struct svc_info *svc_find(const char *name)
{
	int i;

	for (i = 0; name && i < NSERVICES; i++)
		if (!strcmp(services[i].name, name))
			return &services[i];
	return NULL;
}

int svc_count(void)
{
	return NSERVICES;
}

const struct svc_info *svc_at(int i)
{
	return i >= 0 && i < NSERVICES ? &services[i] : NULL;
}

const char *svc_server_name(enum svc_server_kind k)
{
	static const char *const names[] = { "none", "nginx", "redis-server", "postgres" };

	return (unsigned)k < 4 ? names[k] : "?";
}

void svc_params_resolve(const struct svc_info *svc, int duration_s, int connections,
			int rate, struct svc_params *p)
{
	p->duration_s = duration_s > 0 ? duration_s : svc->def.duration_s;
	p->connections = connections > 0 ? connections : svc->def.connections;
	p->rate = rate > 0 ? rate : svc->def.rate;
}

/* Append @s to @store and make it argv[(*n)++]. */
static int arg(char **argv, size_t max, size_t *n, char *store, size_t len, size_t *used,
	       const char *s)
{
	size_t w = strlen(s);

	if (*n + 1 >= max || *used >= len || w >= len - *used)
		return -ENOSPC;
	memcpy(store + *used, s, w + 1);
	argv[(*n)++] = store + *used;
	argv[*n] = NULL;
	*used += (size_t)w + 1;
	return 0;
}

#define S(x) ret = ret ?: arg(argv, max, &n, store, len, &used, x)
#define N(f, v) do { char t_[96]; snprintf(t_, sizeof(t_), f, (long)(v)); S(t_); } while (0)

/* Each tool's argv; the URL, port and directory from the server. */
static int argv_of(const struct svc_info *svc, const struct svc_params *p, int port,
		   const char *dir, char *store, size_t len, size_t used, char **argv,
		   size_t max, size_t n)
{
	int ret = 0;

	if (!strcmp(svc->name, "nginx-open")) {
		S("--url"); N("http://127.0.0.1:%ld/index.html", port);
		S("--rate"); N("%ld", p->rate); S("--duration"); N("%ld", p->duration_s);
		S("--connections"); N("%ld", p->connections);
	} else if (!strcmp(svc->name, "nginx-wrk")) {
		S("-t1"); N("-c%ld", p->connections); N("-d%lds", p->duration_s);
		S("--latency"); N("http://127.0.0.1:%ld/index.html", port);
	} else if (!strcmp(svc->name, "redis")) {
		S("-h"); S("127.0.0.1"); S("-p"); N("%ld", port); S("-c");
		N("%ld", p->connections); S("-n"); N("%ld", svc_window_requests(svc, p));
		S("-t"); S("set,get"); S("--csv");
	} else if (!strcmp(svc->name, "pgbench")) {
		S("-h"); S("127.0.0.1"); S("-p"); N("%ld", port); S("-U"); S("postgres");
		S("-c"); N("%ld", p->connections); S("-j"); N("%ld", p->connections);
		S("-T"); N("%ld", p->duration_s); S("postgres");
	} else if (!strncmp(svc->name, "sysbench-", 9)) {
		S(svc->name + 9); N("--threads=%ld", p->connections);
		N("--time=%ld", p->duration_s);
		S(!strcmp(svc->name, "sysbench-cpu") ? "--cpu-max-prime=20000" :
		  "--memory-block-size=1K");
		if (strcmp(svc->name, "sysbench-cpu"))
			S("--memory-total-size=1000G");
		S("run");
	} else if (!strcmp(svc->name, "fio")) {
		S("--name=randwrite"); S("--directory"); S(dir); S("--rw=randwrite");
		S("--bs=4k"); S("--size=128M"); S("--ioengine=libaio"); S("--iodepth=16");
		S("--direct=1"); N("--numjobs=%ld", p->connections); S("--group_reporting");
		S("--time_based");
		N("--runtime=%ld", p->duration_s); S("--output-format=json");
	} else {
		ret = -EINVAL;
	}
	return ret;
}

long svc_window_requests(const struct svc_info *svc, const struct svc_params *p)
{
	return (long)svc->requests_per_s * p->duration_s;
}

int svc_loadgen_argv(const struct svc_info *svc, const struct svc_params *p,
		     const char *prog, int port, const char *dir, char *store, size_t storelen,
		     char **argv, size_t max)
{
	size_t n = 0, used = 0;
	int ret = 0;
	size_t len = storelen;

	if (max < 2)
		return -ENOSPC;
	argv[0] = NULL;
	S(prog);
	return ret ?: argv_of(svc, p, port, dir, store, storelen, used, argv, max, n);
}
