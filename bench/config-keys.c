// SPDX-License-Identifier: MIT
/*
 * config-keys.c - the table of config keys: one entry per long option
 * name, with its type, default, allowed values and where it goes in a
 * cell. Parsing, validation, expansion and `--help` all read this table.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "config.h"
#include "knob-idle.h"
#include "pool.h"
#include "probe.h"
#include "workload.h"

#define STR(field) offsetof(struct cell, field), sizeof(((struct cell *)0)->field)
#define NUM(field) offsetof(struct cell, field), sizeof(((struct cell *)0)->field)
#define NOT_STORED ((size_t)-1), 0

const struct config_key config_keys[] = {
	{ "workload", KEY_WORKLOAD, 1, STR(workload), 0, 0, NULL, NULL,
	  "function(s) to run (cvmbench list)" },
	{ "size", KEY_ENUM, 1, STR(size), 0, 0, "test|small|large", "test",
	  "input size" },
	{ "backend", KEY_BACKEND, 1, STR(backend), 0, 0, NULL, "native",
	  "where an instance runs" },
	{ "threads", KEY_INT, 1, NUM(threads), 0, 1024, NULL, "0",
	  "worker threads per instance; 0 = its CPUs" },
	{ "wait", KEY_WAIT, 1, STR(wait), 0, 0, NULL, "hybrid:200",
	  "how idle workers wait: spin, block, hybrid[:US]" },
	{ "idle", KEY_IDLE, 1, STR(idle), 0, 0, NULL, "default",
	  "guest idle policy: default, hlt, poll, spin, haltpoll:NANOSECONDS" },
	{ "mode", KEY_ENUM, 1, STR(mode), 0, 0, "warm|cold", "warm",
	  "warm: one serving instance; cold: a new instance per call" },
	{ "instances", KEY_INT, 1, NUM(instances), 1, 256, NULL, "1",
	  "warm instances alive at once (calls go round-robin)" },
	{ "invocations", KEY_INT, 1, NUM(invocations), 1, 1000000, NULL, "20",
	  "measured calls per cell" },
	{ "warmup", KEY_INT, 1, NUM(warmup), 0, 1000000, NULL, "2",
	  "calls before measuring (stored as phase warmup)" },
	{ "repeats", KEY_INT, 0, NUM(repeats), 1, 1000, NULL, "1",
	  "run each cell this many times, fresh instances each" },
	{ "seed", KEY_INT, 1, NUM(seed), 0, 2147483647, NULL, "1",
	  "seed of models and inputs" },
	{ "probes", KEY_PROBES, 0, STR(probes), 0, 0, NULL, "latency",
	  "probes to run (a list, not a dimension)" },
	{ "timeout", KEY_DOUBLE, 0, NUM(timeout), 0.001, 86400, NULL, "60",
	  "seconds one call (or one instance start) may take" },
	{ "runtime-path", KEY_STRING, 1, STR(runtime_path), 0, 0, NULL, "",
	  "runc / crun binary (e.g. a patched build); empty = from PATH" },
	{ "cpus", KEY_INT, 1, NUM(cpus), 0, 1024, NULL, "0",
	  "runc/crun: CPUs the runtime and container may use (0 = all)" },
	{ "cpu-quota", KEY_INT, 1, NUM(cpu_quota), 1, 100, NULL, "100",
	  "runc/crun: CPU quota of the runtime's cgroup, % of a period" },
	{ "corunner", KEY_INT, 1, NUM(corunner), 0, 256, NULL, "0",
	  "CPU-bound threads running beside the calls (any backend)" },
	{ "parallel", KEY_INT, 1, NUM(parallel), 1, 64, NULL, "1",
	  "cold mode: simultaneous starts per call" },
	{ "seccomp", KEY_ENUM, 1, STR(seccomp), 0, 0, "on|off", "on",
	  "runc/crun: install a seccomp filter in the container" },
	{ "netns", KEY_ENUM, 1, STR(netns), 0, 0, "new|shared", "new",
	  "runc/crun: a new network namespace, or join one shared by the cell" },
	{ "cgroups", KEY_ENUM, 1, STR(cgroups), 0, 0, "on|off", "on",
	  "runc/crun: a cgroup per container (off: crun only)" },
	{ "favordynmods", KEY_ENUM, 1, STR(favordynmods), 0, 0, "default|on|off",
	  "default", "runc/crun: remount cgroup2 with(out) favordynmods" },
	{ "start-timeout", KEY_DOUBLE, 0, NUM(start_timeout), 0, 86400, NULL, "0",
	  "seconds one instance start may take; 0 = timeout" },
	{ "description", KEY_STRING, 0, NOT_STORED, 0, 0, NULL, "",
	  "free text shown by cvmbench list" },
};

const size_t config_key_count = sizeof(config_keys) / sizeof(config_keys[0]);

const struct config_key *config_key_find(const char *name)
{
	size_t i;

	if (!strcmp(name, "workloads"))
		name = "workload";
	for (i = 0; i < config_key_count; i++)
		if (!strcmp(config_keys[i].name, name))
			return &config_keys[i];
	return NULL;
}

/* "a, b, c" from @count names, for error messages. */
static void join_names(char *buf, size_t len, size_t count,
		       const char *(*name_at)(size_t i))
{
	size_t i, used = 0;

	buf[0] = '\0';
	for (i = 0; i < count && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? ", " : "",
					 name_at(i));
}

static const char *key_name(size_t i)
{
	return config_keys[i].name;
}

static const char *workload_name(size_t i)
{
	return workload_at(i)->name;
}

static const char *probe_name(size_t i)
{
	return probe_at(i)->name;
}

void config_key_names(char *buf, size_t len)
{
	join_names(buf, len, config_key_count, key_name);
}

static int enum_allows(const char *allowed, const char *value)
{
	size_t n = strlen(value);
	const char *p = allowed;

	if (!n || strchr(value, '|'))
		return 0;
	while (p) {
		if (!strncmp(p, value, n) && (p[n] == '|' || p[n] == '\0'))
			return 1;
		p = strchr(p, '|');
		if (p)
			p++;
	}
	return 0;
}

/* Decimal only: strtod() would take "0x10", "inf" and "nan" too. */
static int is_decimal(const char *v)
{
	return v[strspn(v, "0123456789.eE+-")] == '\0' && strpbrk(v, "0123456789");
}

static int check_number(const struct config_key *k, const char *v, char *err,
			size_t errlen)
{
	char *end;
	double d;

	errno = 0;
	d = k->type == KEY_INT ? (double)strtoll(v, &end, 10) : strtod(v, &end);
	if (errno || end == v || *end || !is_decimal(v) || isnan(d) || d < k->min ||
	    d > k->max) {
		snprintf(err, errlen, "bad value '%s' for %s: %s from %g to %g", v, k->name,
			 k->type == KEY_INT ? "an integer" : "a number", k->min, k->max);
		return -EINVAL;
	}
	return 0;
}

/* A value stored as text must fit its field of struct cell whole. */
static int check_fits(const struct config_key *k, const char *v, char *err, size_t errlen)
{
	size_t len = strlen(v);

	if (k->offset == (size_t)-1 || k->type == KEY_INT || k->type == KEY_DOUBLE ||
	    k->type == KEY_PROBES || len < k->size)
		return 0;
	snprintf(err, errlen, "%s: value of %zu characters; at most %zu", k->name, len,
		 k->size - 1);
	return -EINVAL;
}

static int check_value(const struct config_key *k, const char *v, char *err,
		       size_t errlen)
{
	char names[1024];
	struct pool_wait w;

	switch (k->type) {
	case KEY_INT:
	case KEY_DOUBLE:
		return check_number(k, v, err, errlen);
	case KEY_ENUM:
		if (enum_allows(k->allowed, v))
			return 0;
		snprintf(err, errlen, "bad value '%s' for %s: allowed %s", v, k->name,
			 k->allowed);
		return -EINVAL;
	case KEY_BACKEND:
		if (backend_find(v))
			return 0;
		backend_names(names, sizeof(names));
		snprintf(err, errlen, "bad value '%s' for %s: allowed %s", v, k->name, names);
		return -EINVAL;
	case KEY_WORKLOAD:
		if (workload_find(v))
			return 0;
		join_names(names, sizeof(names), workload_count(), workload_name);
		snprintf(err, errlen, "unknown workload '%s': known workloads are %s", v, names);
		return -EINVAL;
	case KEY_WAIT:
		if (!pool_wait_parse(v, &w))
			return 0;
		snprintf(err, errlen, "bad value '%s' for wait: allowed spin, block, "
			 "hybrid, hybrid:MICROSECONDS", v);
		return -EINVAL;
	case KEY_IDLE:
		if (!idle_policy_parse(v, NULL))
			return 0;
		snprintf(err, errlen, "bad value '%s' for idle: allowed default, hlt, "
			 "poll, spin, haltpoll:NANOSECONDS (0 to %u)", v, IDLE_HALTPOLL_MAX_NS);
		return -EINVAL;
	case KEY_PROBES:
		if (probe_find(v))
			return 0;
		join_names(names, sizeof(names), probe_count(), probe_name);
		snprintf(err, errlen, "unknown probe '%s': known probes are %s", v, names);
		return -EINVAL;
	default:
		if (strlen(v) < 1024)
			return 0;
		snprintf(err, errlen, "value of %s is too long", k->name);
		return -EINVAL;
	}
}

int config_value_check(const struct config_key *k, const char *v, char *err,
		       size_t errlen)
{
	return check_value(k, v, err, errlen) || check_fits(k, v, err, errlen) ? -EINVAL : 0;
}

/* Store a list as "a,b,c" (config_entry_check() made sure it fits). */
static void store_list(const char *v, char *field, size_t size)
{
	size_t n = 0;

	for (; *v && n + 1 < size; v++) {
		if (isspace((unsigned char)*v) || (*v == ',' && (!n || field[n - 1] == ',')))
			continue;
		field[n++] = *v;
	}
	if (n && field[n - 1] == ',')
		n--;
	field[n] = '\0';
}

void config_value_store(const struct config_key *k, const char *v, struct cell *c)
{
	char *field;

	if (k->offset == (size_t)-1)
		return;
	field = (char *)c + k->offset;
	switch (k->type) {
	case KEY_INT:
		if (k->size == sizeof(long long))
			*(long long *)field = strtoll(v, NULL, 10);
		else
			*(int *)field = (int)strtol(v, NULL, 10);
		break;
	case KEY_DOUBLE:
		*(double *)field = strtod(v, NULL);
		break;
	case KEY_PROBES:
		store_list(v, field, k->size);
		break;
	default:
		snprintf(field, k->size, "%s", v);
	}
}
