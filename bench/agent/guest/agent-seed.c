// SPDX-License-Identifier: MIT
/*
 * agent-seed.c - a seed in the guest (agent-guest.h: seed-start, fork,
 * seed-report, seed-mem): the agent starts one `cvmfn seed` on a socket of
 * its own (seed-client.h, the code backend zygote runs on the host), passes
 * it an instance port per fork, keeps the children's "started" records
 * until the host asks for them, and reads the seed's and its children's
 * memory from the guest's /proc (zygote-mem.h), with each child's parent.
 * Nothing is measured on the host: every number here is the guest's own.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "agent-guest-local.h"
#include "agent.h"
#include "seed-client.h"
#include "zygote-mem.h"

/* the seed's records must come within these (a TCG guest is slow) */
#define SEED_BUILD_MS 300000
#define SEED_FORK_MS 30000
#define SEED_DRAIN_MS 200
#define SEED_KEPT 256

static struct seed_client seed = { -1, -1 };
static char kept[SEED_KEPT][160];     /* "started" records not yet reported */
static int nkept;

static void keep_started(void *ctx, const struct seed_started *s, const char *line)
{
	(void)ctx;
	(void)s;
	if (nkept < SEED_KEPT)
		snprintf(kept[nkept++], sizeof(kept[0]), "%s", line);
}

/* seed-start: a new seed (the one before it is stopped), its "seeded" forwarded. */
static int seed_start(int fd, const char *line)
{
	static char *const envp[] = { "PATH=/bin", NULL };
	char err[512], reply[AGENT_LINE_MAX];
	struct agent_spawn s;
	int ret;

	seed_client_stop(&seed);
	nkept = 0;
	if (agent_seed_parse(line, &s, err, sizeof(err)) ||
	    seed_client_exec(&seed, s.argv, envp, err, sizeof(err))) {
		snprintf(reply, sizeof(reply), "error seed %s", err);
		return agent_send_line(fd, reply);
	}
	ret = seed_client_reply(&seed, reply, sizeof(reply), SEED_BUILD_MS, keep_started, NULL);
	if (ret || strncmp(reply, "seeded ", 7)) {
		snprintf(err, sizeof(err), "error seed %.400s", ret ? strerror(-ret) : reply);
		seed_client_stop(&seed);
		return agent_send_line(fd, err);
	}
	return agent_send_line(fd, reply);
}

/* fork I: instance port I as the child's requests and replies. */
static int seed_fork(int fd, const char *line)
{
	char reply[AGENT_LINE_MAX], rec[AGENT_LINE_MAX];
	int port = -1, pfd, ret, pid;

	if (sscanf(line, "fork %d", &port) != 1 || seed.sock < 0) {
		snprintf(reply, sizeof(reply), "error fork %d %s", port, seed.sock < 0 ?
			 "no seed runs in this guest (seed-start first)" : "no port number");
		return agent_send_line(fd, reply);
	}
	pfd = agent_port_open(port, "fork", reply, sizeof(reply));
	if (pfd < 0)
		return agent_send_line(fd, reply);
	ret = seed_client_fork(&seed, pfd, pfd);
	close(pfd);
	if (!ret)
		ret = seed_client_reply(&seed, rec, sizeof(rec), SEED_FORK_MS, keep_started, NULL);
	if (ret || (pid = seed_forked_parse(rec)) < 0)
		snprintf(reply, sizeof(reply), "error fork %d seed: %.400s", port,
			 ret ? strerror(-ret) : rec);
	else
		snprintf(reply, sizeof(reply), "forked %d %d", port, pid);
	return agent_send_line(fd, reply);
}

/* seed-report: the records kept, and what arrives within SEED_DRAIN_MS. */
static int seed_report(int fd)
{
	char rec[AGENT_LINE_MAX];
	int i, n, ret = 0;

	while (seed.sock >= 0 && !seed_client_reply(&seed, rec, sizeof(rec), SEED_DRAIN_MS,
						    keep_started, NULL))
		;                 /* only "started" records are expected now */
	for (i = 0; !ret && i < nkept; i++)
		ret = agent_send_line(fd, kept[i]);
	n = nkept;
	nkept = 0;
	snprintf(rec, sizeof(rec), "seed-report-end %d", n);
	return ret ?: agent_send_line(fd, rec);
}

/* seed-mem PID ...: each child's memory and parent, then the seed's. */
static int seed_mem(int fd, const char *line)
{
	struct seed_child_mem kids[AGENT_MAX_PORTS];
	pid_t pids[AGENT_MAX_PORTS];
	int ipids[AGENT_MAX_PORTS];
	char out[AGENT_LINE_MAX];
	long long seed_pss = -1;
	int i, n = agent_seed_mem_parse(line, ipids, AGENT_MAX_PORTS), frames = -ESRCH, ret = 0;

	if (n < 0 || seed.pid <= 0) {
		snprintf(out, sizeof(out), "error seed-mem %s", n < 0 ?
			 "expected seed-mem PID ..." : "no seed runs in this guest");
		return agent_send_line(fd, out);
	}
	for (i = 0; i < n; i++)
		pids[i] = ipids[i];
	frames = seed_mem_sample(seed.pid, pids, n, kids, &seed_pss);
	for (i = 0; !ret && i < n; i++)
		ret = agent_mem_encode(&kids[i], out, sizeof(out)) < 0 ? -E2BIG :
			agent_send_line(fd, out);
	snprintf(out, sizeof(out), "mem-end seed_pid=%d seed_pss_kb=%lld frames=%d",
		 (int)seed.pid, seed_pss, frames);
	return ret ?: agent_send_line(fd, out);
}

int agent_seed(int fd, const char *line)
{
	if (!strncmp(line, AGENT_SEED_REQ, strlen(AGENT_SEED_REQ)))
		return seed_start(fd, line);
	if (!strncmp(line, "fork ", 5))
		return seed_fork(fd, line);
	if (!strcmp(line, "seed-report"))
		return seed_report(fd);
	return seed_mem(fd, line);
}
