// SPDX-License-Identifier: MIT
/*
 * tests/bench/pingpong.c - the floor of any request/reply harness: two
 * processes, two pipes, one byte each way, N round trips, each timed with
 * CLOCK_MONOTONIC as cvmbench times a call (just before the write, just
 * after the read). Prints the median and the minimum in ns:
 *
 *   pingpong N   ->   "p50_ns=... min_ns=... rounds=N"
 *
 * Built by tests/bench/harness-cost.sh; not part of cvmbench.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long long now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static int cmp(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return x < y ? -1 : x > y;
}

static void pong(int in, int out)
{
	char c;

	while (read(in, &c, 1) == 1)
		if (write(out, &c, 1) != 1)
			break;
	_exit(0);
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 20000, i;
	int req[2], rep[2];
	long long *t = malloc((size_t)n * sizeof(*t)), t0;
	char c = 'x';
	pid_t pid;

	if (!t || n < 1 || pipe(req) || pipe(rep) || (pid = fork()) < 0)
		return 1;
	if (!pid) {
		close(req[1]);
		close(rep[0]);
		pong(req[0], rep[1]);
	}
	close(req[0]);
	close(rep[1]);
	for (i = 0; i < n; i++) {
		t0 = now();
		if (write(req[1], &c, 1) != 1 || read(rep[0], &c, 1) != 1)
			return 1;
		t[i] = now() - t0;
	}
	close(req[1]);
	waitpid(pid, NULL, 0);
	qsort(t, (size_t)n, sizeof(*t), cmp);
	printf("p50_ns=%lld min_ns=%lld rounds=%ld\n", t[n / 2], t[0], n);
	free(t);
	return 0;
}
