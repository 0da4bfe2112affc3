// SPDX-License-Identifier: MIT
/*
 * cpuidle.c - per-CPU, per-state cpuidle counters from sysfs
 * (/sys/devices/system/cpu/cpuN/cpuidle/stateK/{name,usage,time}), kept
 * open and re-read with pread(): kernfs regenerates the text at offset 0.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cpuidle.h"
#include "sysfs.h"
#include "sysroot.h"

/* CPUs to look at: one past the highest online CPU, else sysconf's count. */
static long cpu_span(void)
{
	char buf[256], *last;
	long conf = sysconf(_SC_NPROCESSORS_CONF);

	if (sysfs_read_line(CPUIDLE_SYSFS "/online", buf, sizeof(buf)) > 0) {
		last = buf + strcspn(buf, "\0");
		while (last > buf && last[-1] >= '0' && last[-1] <= '9')
			last--;
		if (*last)
			return strtol(last, NULL, 10) + 1;
	}
	return conf < 1 ? 1 : conf;
}

static int find_cpus(struct cpuidle_set *s)
{
	long conf = cpu_span();
	char path[128];
	int i;

	s->cpu = calloc((size_t)conf, sizeof(*s->cpu));
	if (!s->cpu)
		return -ENOMEM;
	for (i = 0; i < conf; i++) {
		snprintf(path, sizeof(path), CPUIDLE_SYSFS "/cpu%d/cpuidle/state0", i);
		if (!sysroot_access(path, F_OK))
			s->cpu[s->ncpus++] = i;
	}
	return 0;
}

static int find_states(struct cpuidle_set *s)
{
	char path[160];
	int k;

	for (k = 0; k < CPUIDLE_MAX_STATES; k++) {
		snprintf(path, sizeof(path), CPUIDLE_SYSFS "/cpu%d/cpuidle/state%d/name",
			 s->cpu[0], k);
		if (sysfs_read_line(path, s->names[k], sizeof(s->names[k])) < 0)
			break;
		s->is_poll[k] = !strcmp(s->names[k], "POLL");
	}
	s->nstates = k;
	return k ? 0 : -ENOENT;
}

static int open_counters(struct cpuidle_set *s)
{
	static const char *const files[2] = { "usage", "time" };
	char path[160];
	int i, k, f, *fd;

	s->fd = malloc((size_t)s->ncpus * s->nstates * 2 * sizeof(*s->fd));
	if (!s->fd)
		return -ENOMEM;
	fd = s->fd;
	for (i = 0; i < s->ncpus; i++)
		for (k = 0; k < s->nstates; k++)
			for (f = 0; f < 2; f++) {
				snprintf(path, sizeof(path),
					 CPUIDLE_SYSFS "/cpu%d/cpuidle/state%d/%s",
					 s->cpu[i], k, files[f]);
				*fd++ = sysroot_open(path, O_RDONLY | O_CLOEXEC);
			}
	return 0;
}

int cpuidle_open(struct cpuidle_set *s, char *why, size_t len)
{
	int ret;

	memset(s, 0, sizeof(*s));
	ret = find_cpus(s);
	if (!ret && !s->ncpus)
		ret = -ENOENT;
	if (!ret)
		ret = find_states(s);
	if (ret == -ENOENT)
		snprintf(why, len, "no cpuidle states under " CPUIDLE_SYSFS
			 "/cpu*/cpuidle (no cpuidle driver, or cpuidle.off=1)");
	if (!ret)
		ret = open_counters(s);
	if (ret)
		cpuidle_close(s);
	return ret;
}

int cpuidle_open_cpus(struct cpuidle_set *s)
{
	cpu_set_t set;
	int c;

	memset(s, 0, sizeof(*s));
	if (sched_getaffinity(0, sizeof(set), &set))
		return -errno;
	s->cpu = calloc((size_t)CPU_COUNT(&set) + 1, sizeof(*s->cpu));
	if (!s->cpu)
		return -ENOMEM;
	for (c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &set))
			s->cpu[s->ncpus++] = c;
	return 0;
}

void cpuidle_close(struct cpuidle_set *s)
{
	int i;

	for (i = 0; s->fd && i < s->ncpus * s->nstates * 2; i++)
		if (s->fd[i] >= 0)
			close(s->fd[i]);
	free(s->fd);
	free(s->cpu);
	memset(s, 0, sizeof(*s));
}

int cpuidle_sample_alloc(const struct cpuidle_set *s, struct cpuidle_sample *x)
{
	size_t n = (size_t)s->ncpus * s->nstates;

	x->usage = calloc(n ? n : 1, sizeof(*x->usage));
	x->time = calloc(n ? n : 1, sizeof(*x->time));
	if (x->usage && x->time)
		return 0;
	cpuidle_sample_free(x);
	return -ENOMEM;
}

void cpuidle_sample_free(struct cpuidle_sample *x)
{
	free(x->usage);
	free(x->time);
	x->usage = x->time = NULL;
}

static uint64_t read_u64(int fd)
{
	char buf[32];
	ssize_t n;

	if (fd < 0)
		return 0;
	n = pread(fd, buf, sizeof(buf) - 1, 0);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	return strtoull(buf, NULL, 10);
}

int cpuidle_read(const struct cpuidle_set *s, struct cpuidle_sample *x)
{
	int i, n = s->ncpus * s->nstates;

	for (i = 0; i < n; i++) {
		x->usage[i] = read_u64(s->fd[2 * i]);
		x->time[i] = read_u64(s->fd[2 * i + 1]);
	}
	return 0;
}

uint64_t cpuidle_halt_usage(const struct cpuidle_set *s, const struct cpuidle_sample *x)
{
	uint64_t sum = 0;
	int i, k;

	for (i = 0; i < s->ncpus; i++)
		for (k = 0; k < s->nstates; k++)
			if (!s->is_poll[k])
				sum += x->usage[i * s->nstates + k];
	return sum;
}

int cpuidle_read_halt_usage(const struct cpuidle_set *s, uint64_t *out)
{
	struct cpuidle_sample x;
	int ret = cpuidle_sample_alloc(s, &x);

	if (ret)
		return ret;
	cpuidle_read(s, &x);
	*out = cpuidle_halt_usage(s, &x);
	cpuidle_sample_free(&x);
	return 0;
}

int cpuidle_poll_state(const struct cpuidle_set *s)
{
	int k;

	for (k = 0; k < s->nstates; k++)
		if (s->is_poll[k])
			return k;
	return -1;
}

int cpuidle_driver(char *buf, size_t len)
{
	int n = sysfs_read_line(CPUIDLE_SYSFS "/cpuidle/current_driver", buf, len);

	if (n < 0) {
		snprintf(buf, len, "none");
		return n;
	}
	if (!n)
		snprintf(buf, len, "none");
	return 0;
}

int cpuidle_has_driver(void)
{
	char drv[64];

	return !cpuidle_driver(drv, sizeof(drv)) && strcmp(drv, "none");
}
