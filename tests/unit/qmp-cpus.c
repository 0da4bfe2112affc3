// SPDX-License-Identifier: MIT
/*
 * tests/unit/qmp-cpus.c - the vCPU threads of a QEMU from its QMP
 * query-cpus-fast reply (lib/qmp-cpus.c), without a VM: replies
 * captured from QEMU 7.2 under multi-threaded TCG (a thread per vCPU) and
 * single-threaded TCG (one thread for both), tests/fixtures/qmp/; the
 * thread ids expected are the files' top-level thread-id, read by hand
 * (props.thread-id, a topology index of 0, is the trap); and the replies a
 * parser must refuse: QEMU's error, not a list, a vCPU without a thread,
 * more vCPUs than room, none.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qmp-cpus.h"
#include "fixture-line.h"
#include "tap.h"

#define FIX "tests/fixtures/qmp/"

static int parse_file(const char *f, struct qmp_vcpu *v, int max, int *n, char *err,
		      size_t len)
{
	char *j = first_line(f);
	int ret = j ? qmp_cpus_parse(j, v, max, n, err, len) : -ENOENT;

	free(j);
	return ret;
}

static void captured(void)
{
	struct qmp_vcpu v[4];
	char err[256] = "";
	int n = -1, ret = parse_file(FIX "query-cpus-fast-mttcg.json", v, 4, &n, err,
				     sizeof(err));

	tap_ok(!ret && n == 2 && v[0].index == 0 && v[0].tid == 6399 && v[1].index == 1 &&
	       v[1].tid == 6400, "multi-threaded TCG: vCPU 0 on thread 6399, 1 on 6400 "
	       "(the top-level thread-id, not props') [%d %s]", ret, err);
	ret = parse_file(FIX "query-cpus-fast-single.json", v, 4, &n, err, sizeof(err));
	tap_ok(!ret && n == 2 && v[0].tid == 6407 && v[1].tid == 6407 && v[1].index == 1,
	       "single-threaded TCG: both vCPUs on the one thread 6407");
	ret = parse_file(FIX "query-cpus-fast-mttcg.json", v, 1, &n, err, sizeof(err));
	tap_ok(ret == -ENOSPC && strstr(err, "more than 1"),
	       "two vCPUs, room for one: -ENOSPC (%s)", err);
}

static void refused(void)
{
	struct qmp_vcpu v[4];
	char err[256] = "";
	int n, ret;

	ret = qmp_cpus_parse("{\"error\": {\"class\": \"CommandNotFound\", \"desc\": "
			     "\"The command query-cpus-fast has not been found\"}}", v, 4, &n,
			     err, sizeof(err));
	tap_ok(ret == -EREMOTEIO && strstr(err, "CommandNotFound") && strstr(err, "not been"),
	       "QEMU's error is the reason (%s)", err);
	ret = qmp_cpus_parse("{\"return\": {}}", v, 4, &n, err, sizeof(err));
	tap_ok(ret == -EPROTO && strstr(err, "not a query-cpus-fast reply"),
	       "a reply that is not a list: -EPROTO");
	ret = qmp_cpus_parse("{\"return\": [{\"cpu-index\": 0, \"props\": {\"thread-id\": 0}}]}",
			     v, 4, &n, err, sizeof(err));
	tap_ok(ret == -EPROTO, "a vCPU with no thread-id of its own: -EPROTO");
	ret = qmp_cpus_parse("{\"return\": [{\"cpu-index\": 0, \"thread-id\": 0}]}", v, 4, &n,
			     err, sizeof(err));
	tap_ok(ret == -EPROTO, "thread-id 0 is no thread: -EPROTO");
	ret = qmp_cpus_parse("{\"return\": []}", v, 4, &n, err, sizeof(err));
	tap_ok(ret == -ENODATA && n == 0, "no vCPU: -ENODATA (%s)", err);
	ret = qmp_cpus_parse("not json", v, 4, &n, err, sizeof(err));
	tap_ok(ret == -EPROTO, "not JSON: -EPROTO");
}

int main(void)
{
	tap_plan(9);
	captured();
	refused();
	return tap_failed != 0;
}
