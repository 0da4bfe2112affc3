// SPDX-License-Identifier: MIT
/*
 * agent-kv.c - the kv co-runner inside a guest (corunner-in = vm): the
 * agent of the co-runner VM runs the host's kv co-runner code
 * (bench/knobs/corunner-kv.c: redis-server and redis-benchmark rounds from
 * the guest's rootfs, by argv) on request. In a guest of two or more
 * vCPUs the server runs on vCPU 0 and the load on vCPU 1, as the host's
 * kv co-runner puts them on corunner-pin's objects 0 and 1. The lines
 * (agent-guest.h):
 *
 *   kv start CLIENTS ALONE_MS  kv started PORT alone RPS ROWS WIDENED_MS
 *                              | kv started PORT alone -ERRNO
 *   kv mark 0|1                kv marked
 *   kv load MAX_MS             kv load RPS ROWS WIDENED_MS | kv load -ERRNO
 *   kv alive                   kv alive
 *   kv stop                    kv stopped
 *
 * and `error kv MESSAGE` for a request that fails or makes no sense now.
 */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "agent-guest-local.h"
#include "corunner-kv.h"

#define KV_MAX_CLIENTS 1000
#define KV_MAX_MS 120000

static struct corunner_kv kv;
static int kv_running;

static void kv_start(int clients, int alone_ms, char *reply, size_t len)
{
	cpu_set_t cpus[2];
	int two = sysconf(_SC_NPROCESSORS_ONLN) >= 2, ret, rows;
	char why[512];
	double rps;

	CPU_ZERO(&cpus[0]);
	CPU_ZERO(&cpus[1]);
	CPU_SET(0, &cpus[0]);
	CPU_SET(1, &cpus[1]);
	if (kv_running) {
		snprintf(reply, len, "error kv a kv co-runner already runs in this guest");
		return;
	}
	ret = corunner_kv_start(&kv, two ? &cpus[0] : NULL, two ? &cpus[1] : NULL, clients,
				why, sizeof(why));
	if (ret) {
		snprintf(reply, len, "error kv %s", why);
		return;
	}
	kv_running = 1;
	ret = corunner_kv_alone(&kv, alone_ms, &rps, &rows);
	if (ret)
		snprintf(reply, len, "kv started %d alone %d", kv.port, ret);
	else
		snprintf(reply, len, "kv started %d alone %.1f %d %ld", kv.port, rps, rows,
			 kv.alone_widened_ms);
}

static void kv_load(int max_ms, char *reply, size_t len)
{
	double rps;
	int rows, ret = corunner_kv_load_widened(&kv, max_ms, &rps, &rows);

	if (ret)
		snprintf(reply, len, "kv load %d", ret);
	else
		snprintf(reply, len, "kv load %.1f %d %ld", rps, rows, kv.widened_ms);
}

static void kv_alive(char *reply, size_t len)
{
	char why[256];

	if (corunner_kv_alive(&kv, why, sizeof(why)))
		snprintf(reply, len, "error kv %s", why);
	else
		snprintf(reply, len, "kv alive");
}

void agent_kv(const char *line, char *reply, size_t len)
{
	int a, b;
	char end;

	if (sscanf(line, "kv start %d %d%c", &a, &b, &end) == 2 && a > 0 &&
	    a <= KV_MAX_CLIENTS && b >= 0 && b <= KV_MAX_MS)
		return kv_start(a, b, reply, len);
	if (!strcmp(line, "kv stop")) {
		if (kv_running)
			corunner_kv_stop(&kv);
		kv_running = 0;
		snprintf(reply, len, "kv stopped");
		return;
	}
	if (!kv_running) {
		snprintf(reply, len, "error kv no kv co-runner runs (kv start first): '%.100s'",
			 line);
		return;
	}
	if ((!strcmp(line, "kv mark 0") || !strcmp(line, "kv mark 1"))) {
		corunner_kv_mark(&kv, line[8] == '1');
		snprintf(reply, len, "kv marked");
	} else if (sscanf(line, "kv load %d%c", &a, &end) == 1 && a >= 0 && a <= KV_MAX_MS) {
		kv_load(a, reply, len);
	} else if (!strcmp(line, "kv alive")) {
		kv_alive(reply, len);
	} else {
		snprintf(reply, len, "error kv cannot parse '%.100s'", line);
	}
}
