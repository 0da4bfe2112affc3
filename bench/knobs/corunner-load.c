// SPDX-License-Identifier: MIT
/*
 * corunner-load.c - the co-runner's threads (corunner-load.h), in the
 * forked child: each pins itself when the plan says so, maps its buffer
 * (mmap: no malloc lock inherited from cvmbench's other threads) and loops
 * until the co-runner is killed. A buffer that cannot be mapped ends the
 * co-runner (exit 3), which the knob's verify() reports.
 */
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "corunner-load.h"

#define LINE 64
#define MIB (1024UL * 1024UL)

int corunner_kind_parse(const char *v, enum corunner_kind *k)
{
	if (!strcmp(v, "cpu"))
		*k = CORUNNER_CPU;
	else if (!strcmp(v, "cache"))
		*k = CORUNNER_CACHE;
	else if (!strcmp(v, "memory"))
		*k = CORUNNER_MEMORY;
	else if (!strcmp(v, "kv"))
		*k = CORUNNER_KV;
	else
		return -EINVAL;
	return 0;
}

size_t corunner_plan_bytes(enum corunner_kind kind, size_t llc, int threads)
{
	size_t b;

	if (!llc)
		llc = 32 * MIB;
	if (kind == CORUNNER_CPU || kind == CORUNNER_KV)
		return 0;
	if (kind == CORUNNER_CACHE)
		b = llc / (size_t)(threads > 0 ? threads : 1);     /* together: the LLC */
	else
		b = 2 * (4 * llc > 64 * MIB ? 4 * llc : 64 * MIB); /* two halves, each >> LLC */
	return (b + LINE - 1) / LINE * LINE;
}

struct worker {
	const struct corunner_plan *plan;
	int idx;
};

static void spin(void)
{
	unsigned long n = 0;

	for (;;) {
		__asm__ __volatile__("" : "+r"(n) : : "memory");
		n++;
	}
}

static void thrash(volatile uint8_t *p, size_t bytes)
{
	size_t i;

	for (;;)
		for (i = 0; i < bytes; i += LINE)
			p[i]++;
}

static void stream(uint8_t *p, size_t bytes)
{
	size_t half = bytes / 2;

	for (;;) {
		memcpy(p, p + half, half);
		memcpy(p + half, p, half);
		__asm__ __volatile__("" : : "r"(p) : "memory");
	}
}

static void *work(void *arg)
{
	const struct worker *w = arg;
	const struct corunner_plan *pl = w->plan;
	void *buf = MAP_FAILED;

	if (pl->pinned)
		sched_setaffinity(0, sizeof(pl->cpus[w->idx]), &pl->cpus[w->idx]);
	if (pl->bytes)
		buf = mmap(NULL, pl->bytes, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	if (pl->bytes && buf == MAP_FAILED)
		_exit(3);       /* never a cpu load in place of the one asked for */
	if (pl->kind == CORUNNER_CACHE)
		thrash(buf, pl->bytes);
	if (pl->kind == CORUNNER_MEMORY)
		stream(buf, pl->bytes);
	spin();
	return NULL;
}

void corunner_run(const struct corunner_plan *plan)
{
	static struct worker w[CORUNNER_MAX_THREADS];
	pthread_t t;
	int i, n = plan->threads < CORUNNER_MAX_THREADS ? plan->threads : CORUNNER_MAX_THREADS;

	for (i = 0; i < n; i++) {
		w[i].plan = plan;
		w[i].idx = i;
		if (i)
			pthread_create(&t, NULL, work, &w[i]);
	}
	work(&w[0]);
	_exit(0);
}
