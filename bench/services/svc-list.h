/* SPDX-License-Identifier: MIT */
/*
 * svc-list.h - the system suite's services (docs/experiments/system-suite.md):
 * each a server (or none), a load generator and the parser of its output
 * (svc-parse.h). A cell whose `workload` is one of these names is a service
 * cell: each measured window is one run of the load generator.
 */
#ifndef CVMBENCH_SVC_LIST_H
#define CVMBENCH_SVC_LIST_H

#include <stddef.h>

enum svc_server_kind { SVC_NONE, SVC_NGINX, SVC_REDIS, SVC_POSTGRES };

/* What one window asks of the load generator (the cell's svc-* keys, resolved). */
struct svc_params {
	int duration_s;           /* seconds per window */
	int connections;          /* connections, clients or threads */
	int rate;                 /* open loop: requests per second */
};

struct svc_info {
	const char *name;         /* the workload key's value */
	enum svc_server_kind server;
	const char *loadgen;      /* the load generator's program */
	const char *parser;       /* svc_parse()'s parser name = metric.probe */
	int on_disk;              /* writes files: a real disk, never tmpfs */
	int requests_per_s;       /* > 0: the generator takes a request count, not a
				   * time: this many per second of svc-duration */
	struct svc_params def;    /* its defaults (svc-* = 0) */
	const char *help;
};

/** svc_find() - the service called @name, or NULL. */
const struct svc_info *svc_find(const char *name);
/** svc_count() - how many services there are; svc_at(i) the i-th. */
int svc_count(void);
const struct svc_info *svc_at(int i);
/** svc_server_name() - "nginx", "redis-server", "postgres" or "none". */
const char *svc_server_name(enum svc_server_kind k);

/**
 * svc_params_resolve() - @svc's window parameters from a cell's svc-* keys
 * (0: the service's default) into @p.
 */
void svc_params_resolve(const struct svc_info *svc, int duration_s, int connections,
			int rate, struct svc_params *p);

/**
 * svc_loadgen_argv() - the load generator's argv for one window of @svc into
 * @argv (NULL terminated, at most @max entries), strings in @store: @prog its
 * resolved path, @port the server's loopback port, @dir the service's
 * directory (fio's files). 0, or -ENOSPC.
 */
/* Requests of one window when the tool takes a count, not a time
 * (redis-benchmark has no duration option: 10000 per second of svc-duration);
 * 0 for a timed window. */
long svc_window_requests(const struct svc_info *svc, const struct svc_params *p);

int svc_loadgen_argv(const struct svc_info *svc, const struct svc_params *p,
		     const char *prog, int port, const char *dir, char *store, size_t storelen,
		     char **argv, size_t max);

#endif
