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
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "corunner-load.h"

#define LINE 64

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

size_t corunner_budget(long long mem_total_kb)
{
	size_t share = mem_total_kb > 0 ?
		(size_t)mem_total_kb * 1024 / CORUNNER_BUDGET_SHARE : CORUNNER_BUDGET_MAX;

	return share < CORUNNER_BUDGET_MAX ? share : CORUNNER_BUDGET_MAX;
}

static size_t lines(size_t b)
{
	return b / LINE * LINE;
}

/* cache: the LLC split over the threads, or the budget when the LLC is larger. */
static int size_cache(struct corunner_plan *p, size_t llc, size_t budget, char *why, size_t len)
{
	size_t n = (size_t)p->threads;

	if (!llc) {
		snprintf(why, len, "corunner-kind = cache: hwloc knows no L2 or L3 cache here");
		return -ENODEV;
	}
	p->rule = llc <= budget ? CORUNNER_SIZE_LLC : CORUNNER_SIZE_BUDGET;
	p->bytes = lines((llc <= budget ? llc : budget) / n);
	return 0;
}

/*
 * memory: two halves, each >> the LLC (4 x, at least 64 MiB in all); over
 * the budget, the budget if each half still exceeds the LLC, else a skip.
 */
static int size_memory(struct corunner_plan *p, size_t llc, size_t budget, char *why,
		       size_t len)
{
	size_t n = (size_t)p->threads, l = llc ? llc : CORUNNER_LLC_ASSUMED;
	size_t want = 2 * (4 * l > 64 * MIB ? 4 * l : 64 * MIB);

	p->rule = llc ? CORUNNER_SIZE_4X_LLC : CORUNNER_SIZE_NO_LLC;
	if (want <= budget / n) {
		p->bytes = lines(want);
		return 0;
	}
	p->rule = CORUNNER_SIZE_BUDGET;
	p->bytes = lines(budget / n);
	if (p->bytes / 2 > l)
		return 0;
	snprintf(why, len, "corunner-kind = memory: each half of a thread's buffer would be "
		 "%zu KiB (the co-runner's memory budget, %zu KiB, over %zu thread(s)), not more "
		 "than the LLC's %zu KiB", p->bytes / 2 / 1024, budget / 1024, n, l / 1024);
	return -E2BIG;
}

int corunner_plan_size(struct corunner_plan *p, size_t llc, size_t budget, char *why,
		       size_t len)
{
	p->bytes = 0;
	p->rule = CORUNNER_SIZE_NONE;
	p->llc = llc;
	p->budget = budget;
	if (p->threads <= 0)
		p->threads = 1;
	if (p->kind == CORUNNER_CACHE)
		return size_cache(p, llc, budget, why, len);
	if (p->kind == CORUNNER_MEMORY)
		return size_memory(p, llc, budget, why, len);
	return 0;
}

const char *corunner_size_rule_name(enum corunner_size_rule r)
{
	static const char *const names[] = { "none", "llc", "budget", "4x-llc", "no-llc" };

	return (unsigned int)r < sizeof(names) / sizeof(names[0]) ? names[r] : "?";
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
