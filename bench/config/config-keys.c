// SPDX-License-Identifier: MIT
/*
 * config-keys.c - the table of config keys: one entry per long option
 * name, with its type, default, allowed values and where it goes in a
 * cell, made from the list in cell-keys.h (which also makes struct cell),
 * and the checks of the keys whose values are names. Parsing, validation,
 * expansion and `list --keys` all read this table.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "cgroup-room.h"
#include "netns-room.h"
#include "config.h"
#include "plus-list.h"
#include "knob-idle.h"
#include "knob-halt-poll.h"
#include "placement.h"
#include "pmu-events.h"
#include "pool-wait.h"
#include "probe.h"
#include "svc-list.h"
#include "workload-registry.h"

static int config_check_workload(const char *v, char *err, size_t errlen);
/*
 * A variant is one word cvmfn and the guest agent take as it is; whether
 * the cell's workload has it is checked with the workload (config-variant.c).
 */
static int config_check_variant(const char *v, char *err, size_t errlen)
{
	static const char ok[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
				 "0123456789_.:-";

	if (strspn(v, ok) == strlen(v))
		return 0;
	snprintf(err, errlen, "bad value '%s' for variant: letters, digits, '_', '.', ':', "
		 "'-' (e.g. resnet152)", v);
	return -EINVAL;
}

/* A rootfs list's name (docs/rootfs.md); whether it exists is the backend's check. */
static int config_check_rootfs(const char *v, char *err, size_t errlen)
{
	if (strspn(v, "abcdefghijklmnopqrstuvwxyz0123456789-") == strlen(v) && strlen(v) < 32 &&
	    v[0] != '-')
		return 0;
	snprintf(err, errlen, "bad value '%s' for rootfs: a name of configs/rootfs/NAME.list "
		 "(a-z, 0-9, '-'), e.g. small", v);
	return -EINVAL;
}

static int config_check_wait(const char *v, char *err, size_t errlen);
static int config_check_idle(const char *v, char *err, size_t errlen);
static int config_check_host_idle(const char *v, char *err, size_t errlen);
static int config_check_probe(const char *v, char *err, size_t errlen);
static int config_check_halt_poll(const char *v, char *err, size_t errlen);
static int config_check_vm_workloads(const char *v, char *err, size_t errlen);
static int config_check_pmu_event(const char *v, char *err, size_t errlen);
static int config_check_pin(const char *v, char *err, size_t errlen);
static int config_check_corunner_pin(const char *v, char *err, size_t errlen);
static int config_check_variant(const char *v, char *err, size_t errlen);
static int config_check_cgroup_pool(const char *v, char *err, size_t errlen);
static int config_check_netns_pool(const char *v, char *err, size_t errlen);

#define KEY_ENTRY(name, field, ctype, dim, type, matrix, min, max, allowed, def, \
		  check, help) \
	{ name, type, matrix, offsetof(struct cell, field), \
	  sizeof(((struct cell *)0)->field), min, max, allowed, def, check, help },

const struct config_key config_keys[] = {
	CELL_KEYS(KEY_ENTRY)
	/* the one key a cell does not store */
	{ "description", KEY_STRING, 0, (size_t)-1, 0, 0, 0, NULL, "", NULL,
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

static const char *svc_name_at(size_t i)
{
	return svc_at((int)i)->name;
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
		snprintf(err, errlen, "bad value '%s' for %s: %s from %.15g to %.15g", v, k->name,
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
	    k->type == KEY_LIST || len < k->size)
		return 0;
	snprintf(err, errlen, "%s: value of %zu characters; at most %zu", k->name, len,
		 k->size - 1);
	return -EINVAL;
}

static int config_check_workload(const char *v, char *err, size_t errlen)
{
	char names[1024];

	char svcs[512];

	if (workload_find(v) || svc_find(v))
		return 0;
	join_names(names, sizeof(names), workload_count(), workload_name);
	join_names(svcs, sizeof(svcs), (size_t)svc_count(), svc_name_at);
	snprintf(err, errlen, "unknown workload '%s': known functions are %s; services %s", v,
		 names, svcs);
	return -EINVAL;
}

/* "a+b+a": every item a known workload, none empty (plus-list.h). */
static int config_check_vm_workloads(const char *v, char *err, size_t errlen)
{
	char name[48];
	int i, n = *v ? plus_list_item(v, 0, NULL, 0) : 0;

	if (n < 0) {
		snprintf(err, errlen, "vm-workloads = %s: an empty item (workloads joined by "
			 "'+', e.g. hello-world+image-recognition)", v);
		return -EINVAL;
	}
	for (i = 0; i < n; i++) {
		if (plus_list_item(v, i, name, sizeof(name)) < 0) {
			snprintf(err, errlen, "vm-workloads = %s: item %d is too long", v, i + 1);
			return -EINVAL;
		}
		if (config_check_workload(name, err, errlen))
			return -EINVAL;
	}
	return 0;
}

static int config_check_wait(const char *v, char *err, size_t errlen)
{
	struct pool_wait w;

	if (!pool_wait_parse(v, &w))
		return 0;
	snprintf(err, errlen, "bad value '%s' for wait: allowed spin, block, "
		 "hybrid, hybrid:MICROSECONDS", v);
	return -EINVAL;
}

static int check_idle_policy(const char *key, const char *v, char *err, size_t errlen)
{
	if (!idle_policy_parse(v, NULL))
		return 0;
	snprintf(err, errlen, "bad value '%s' for %s: allowed default, hlt, "
		 "poll, spin, haltpoll:NANOSECONDS (0 to %u)", v, key, IDLE_HALTPOLL_MAX_NS);
	return -EINVAL;
}

static int config_check_idle(const char *v, char *err, size_t errlen)
{
	return check_idle_policy("idle", v, err, errlen);
}

static int config_check_host_idle(const char *v, char *err, size_t errlen)
{
	return check_idle_policy("host-idle", v, err, errlen);
}

static int config_check_halt_poll(const char *v, char *err, size_t errlen)
{
	long long ns;

	if (!halt_poll_parse(v, &ns))
		return 0;
	snprintf(err, errlen, "bad value '%s' for halt-poll-ns: allowed unchanged, "
		 "NANOSECONDS (0 to %lld)", v, HALT_POLL_MAX_NS);
	return -EINVAL;
}

static int config_check_probe(const char *v, char *err, size_t errlen)
{
	char names[1024];

	if (probe_find(v))
		return 0;
	join_names(names, sizeof(names), probe_count(), probe_name);
	snprintf(err, errlen, "unknown probe '%s': known probes are %s", v, names);
	return -EINVAL;
}

/* `default`, or an event name libpfm4 (without it, the pmu probe's table) encodes. */
static int config_check_pmu_event(const char *v, char *err, size_t errlen)
{
	char why[256];

	if (!strcmp(v, "default") || !pmu_event_check(v, why, sizeof(why)))
		return 0;
	snprintf(err, errlen, "bad value '%s' for pmu-events: %s", v, why);
	return -EINVAL;
}

/* A placement spec (placement.h); whether this machine has it: knob pin. */
/*
 * A cgroup pool must fit in what this host allows: the memory controller's
 * free cgroup IDs (cgroup-room.c). Where no memory controller says so,
 * the key's own maximum is the limit.
 */
static int config_check_cgroup_pool(const char *v, char *err, size_t errlen)
{
	char why[128];
	long n = strtol(v, NULL, 10), room = n > 0 ? cgroup_room(why, sizeof(why)) : -1;

	if (room < 0 || n <= room)
		return 0;
	snprintf(err, errlen, "cgroup-pool = %ld: this host allows %ld more cgroups (memory "
		 "controller: %d IDs, %ld in use, /proc/cgroups)", n, room,
		 CGROUP_MEMCG_ID_MAX, CGROUP_MEMCG_ID_MAX - room);
	return -EINVAL;
}

/*
 * A namespace pool must fit in what this host allows: the user's network
 * namespaces (netns-room.c) less those in use. Where the limit cannot be
 * read, the key's own maximum is the limit.
 */
static int config_check_netns_pool(const char *v, char *err, size_t errlen)
{
	char why[128];
	long n = strtol(v, NULL, 10), max = 0, used = 0;
	long room = n > 0 ? netns_room(&max, &used, why, sizeof(why)) : -1;

	if (room < 0 || n <= room)
		return 0;
	snprintf(err, errlen, "netns-pool = %ld: this host allows %ld more network namespaces "
		 "(/proc/sys/user/max_net_namespaces = %ld, %ld in use by processes)", n, room,
		 max, used);
	return -EINVAL;
}

static int config_check_pin(const char *v, char *err, size_t errlen)
{
	struct placement_spec p;

	if (!placement_parse(v, &p))
		return 0;
	snprintf(err, errlen, "bad value '%s' for pin: allowed none, core, numa:N, llc:N", v);
	return -EINVAL;
}

static int config_check_corunner_pin(const char *v, char *err, size_t errlen)
{
	int ret = config_check_pin(v, err, errlen);

	if (ret)
		snprintf(err, errlen, "bad value '%s' for corunner-pin: allowed none, core, "
			 "numa:N, llc:N", v);
	return ret;
}

/* A backend of the registry (backend-list.h): no list of names copied here. */
static int config_check_backend(const struct config_key *k, const char *v, char *err,
				size_t errlen)
{
	char names[256];

	if (backend_find(v))
		return 0;
	backend_names(names, sizeof(names));
	snprintf(err, errlen, "bad value '%s' for %s: allowed %s", v, k->name, names);
	return -EINVAL;
}

static int check_value(const struct config_key *k, const char *v, char *err,
		       size_t errlen)
{
	switch (k->type) {
	case KEY_INT:
	case KEY_DOUBLE:             /* a number may have a check (cgroup-pool) */
		return check_number(k, v, err, errlen) ?:
		       (k->check ? k->check(v, err, errlen) : 0);
	case KEY_ENUM:
		if (enum_allows(k->allowed, v))
			return 0;
		snprintf(err, errlen, "bad value '%s' for %s: allowed %s", v, k->name,
			 k->allowed);
		return -EINVAL;
	case KEY_NAME:
	case KEY_LIST:
		return k->check(v, err, errlen);
	case KEY_BACKEND:
		return config_check_backend(k, v, err, errlen);
	default:
		if (strlen(v) < 1024)    /* a KEY_STRING may have a check (vm-workloads) */
			return k->check ? k->check(v, err, errlen) : 0;
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
	case KEY_LIST:
		store_list(v, field, k->size);
		break;
	default:
		snprintf(field, k->size, "%s", v);
	}
}
