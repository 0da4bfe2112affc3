// SPDX-License-Identifier: MIT
/*
 * agent-main.c - cvmbench-agent, the static program the guest's /init
 * execs (guest-init.c): `cvmbench-agent --init "MODULES"` (the agent does
 * the boot's work itself, agent-init.c) or `--port /dev/vportNpM --data D`.
 * It writes the ready line on the control port, gathers the guest's
 * facts, then serves one request line at a time (agent-guest.h): probe
 * requests go to the agent module (agent.c: the instance-side probes run
 * here, in the guest), `spawn` starts cvmfn on an instance port,
 * `seed-start`, `fork`, `seed-report` and `seed-mem` run a seed and its
 * children (agent-seed.c), `env`
 * sends the facts, `kv` runs the kv co-runner of a co-runner VM
 * (agent-kv.c). It never opens a database and never runs a shell.
 *
 * For the tests, cvmbench.fault=malformed@N or exit@N on the kernel
 * command line makes the agent answer its Nth probe request with a
 * malformed line, or exit there (PID 1 exiting: the guest panics and QEMU
 * ends), so the host's handling of a broken agent can be checked.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "agent-guest-local.h"
#include "agent.h"
#include "cell.h"
#include "version.h"

struct fault {
	char kind[16];          /* "", "malformed" or "exit" */
	long at, seen;          /* at the at-th probe request */
};

static struct cell guest_cell = { .idle = "default" };

static double uptime_s(void)
{
	double up = -1;
	FILE *f = fopen("/proc/uptime", "re");

	if (f) {
		if (fscanf(f, "%lf", &up) != 1)
			up = -1;
		fclose(f);
	}
	return up;
}

static int ready(int fd, const char *data, int nports)
{
	char line[512];
	struct utsname u;

	if (uname(&u))
		snprintf(u.release, sizeof(u.release), "unknown");
	snprintf(line, sizeof(line), "%suptime=%.2f data=%s kernel=%s agent=%s ports=%d",
		 AGENT_READY_PREFIX, uptime_s(), data, u.release, cvmbench_version, nports);
	return agent_send_line(fd, line);
}

/* The test fault, if the kernel command line asks for one at this request. */
static int fault_now(struct fault *f, int fd)
{
	if (!f->kind[0] || ++f->seen != f->at)
		return 0;
	if (!strcmp(f->kind, "exit"))
		exit(3);
	return agent_send_line(fd, "metric this line is not a row") ?: 1;
}

struct serve_ctx {
	struct agent *a;
	struct fault f;
	int fd;                 /* replies (and requests, but with --stdio) */
};

static int handle(void *ctx, const char *line)
{
	struct serve_ctx *c = ctx;
	char reply[AGENT_LINE_MAX];
	int ret;

	if (!strncmp(line, "probe ", 6)) {
		ret = fault_now(&c->f, c->fd);
		if (ret)
			return ret < 0 ? ret : 0;
		ret = agent_handle(c->a, line);
		return ret == -EPROTO ? 0 : ret;
	}
	if (!strcmp(line, "env")) {     /* read now: the host asks again at a cell's end */
		agent_facts_collect();
		return agent_facts_send(c->fd);
	}
	if (!strncmp(line, "spawn ", 6)) {
		agent_spawn(line, reply, sizeof(reply));
		return agent_send_line(c->fd, reply);
	}
	if (!strncmp(line, "svc ", 4))
		return agent_svc(c->fd, line);
	if (!strncmp(line, AGENT_SEED_REQ, strlen(AGENT_SEED_REQ)) || !strncmp(line, "fork ", 5) ||
	    !strcmp(line, "seed-report") || !strncmp(line, AGENT_SEED_MEM_REQ " ", 9))
		return agent_seed(c->fd, line);
	if (!strncmp(line, "kv ", 3)) {
		agent_kv(line, reply, sizeof(reply));
		return agent_send_line(c->fd, reply);
	}
	snprintf(reply, sizeof(reply), "error unknown request '%.100s'", line);
	return agent_send_line(c->fd, reply);
}

static void read_fault(struct fault *f)
{
	char v[64], *at;

	memset(f, 0, sizeof(*f));
	if (agent_cmdline_value("cvmbench.fault", v, sizeof(v)) || !(at = strchr(v, '@')))
		return;
	*at = '\0';
	if (strcmp(v, "malformed") && strcmp(v, "exit"))
		return;
	snprintf(f->kind, sizeof(f->kind), "%.15s", v);
	f->at = atol(at + 1);
}

struct args {
	const char *port, *data, *init, *scratch, *bin;
	int stdio;              /* --stdio: requests on fd 0, replies on fd 1 */
};

static int parse_args(int argc, char **argv, struct args *a)
{
	int i;

	for (i = 1; i < argc; i += 2) {
		if (!strcmp(argv[i], "--stdio")) {
			a->stdio = 1;
			i--;
		} else if (i + 1 == argc) {
			return -EINVAL;
		} else if (!strcmp(argv[i], "--port")) {
			a->port = argv[i + 1];
		} else if (!strcmp(argv[i], "--data")) {
			a->data = argv[i + 1];
		} else if (!strcmp(argv[i], "--init")) {
			a->init = argv[i + 1];
		} else if (!strcmp(argv[i], "--scratch")) {
			a->scratch = argv[i + 1];
		} else if (!strcmp(argv[i], "--bin")) {
			a->bin = argv[i + 1];
		} else {
			return -EINVAL;
		}
	}
	return !!a->port + !!a->init + a->stdio >= 1 && !(a->stdio && (a->port || a->init)) ?
	       0 : -EINVAL;
}

int main(int argc, char **argv)
{
	struct args a = { .data = "none" };
	struct probe_target target = { .cell = &guest_cell };
	struct serve_ctx c;
	char who[256], vm[16] = "?", found[300];
	struct utsname u;
	int ret;

	if (parse_args(argc, argv, &a)) {
		fprintf(stderr, "usage: cvmbench-agent --port DEV [--data ro|none|error]\n"
			"       cvmbench-agent --init \"MODULE...\"\n"
			"       cvmbench-agent --stdio [--scratch DIR] [--bin DIR]\n");
		return 2;
	}
	if (a.init && !a.port) {
		ret = agent_init_boot(a.init, found, sizeof(found), &a.data);
		if (ret < 0)
			return 1;
		a.port = found;
		if (ret == 1) { /* the agent of the new root, still PID 1 */
			execl(AGENT_GUEST_SELF, "cvmbench-agent", "--port", a.port, "--data",
			      a.data, (char *)NULL);
			fprintf(stderr, "cvmbench-agent: exec %s in the new root: %s (serving "
				"from the initramfs's copy)\n", AGENT_GUEST_SELF, strerror(errno));
		}
	}
	agent_svc_dirs(a.scratch, a.bin);
	c.fd = a.stdio ? 1 : open(a.port, O_RDWR | O_CLOEXEC);
	if (c.fd < 0) {
		fprintf(stderr, "cvmbench-agent: %s: %s\n", a.port, strerror(errno));
		return 1;
	}
	signal(SIGPIPE, SIG_IGN);
	ret = ready(c.fd, a.data, a.stdio ? 0 : agent_ports_find());
	signal(SIGCHLD, SIG_IGN);       /* spawned instances are reaped by the kernel */
	read_fault(&c.f);
	agent_cmdline_value("cvmbench.vm", vm, sizeof(vm));
	if (uname(&u))
		snprintf(u.release, sizeof(u.release), "unknown");
	if (a.stdio)
		snprintf(who, sizeof(who), "cvmbench-agent %s in a container (kernel %s)",
			 cvmbench_version, u.release);
	else
		snprintf(who, sizeof(who), "cvmbench-agent %s in guest (vm %s, kernel %s)",
			 cvmbench_version, vm, u.release);
	c.a = agent_new(&target, who, agent_fd_writer, &c.fd);
	if (!c.a)
		return 1;
	if (!ret)   /* a container's stdin ends with its host: no waiting */
		ret = agent_read_lines(a.stdio ? 0 : c.fd, handle, &c, !a.stdio);
	if (ret || !a.stdio)    /* a container's host closing its stdin is its end */
		fprintf(stderr, "cvmbench-agent: control port: %s\n",
			ret ? strerror(-ret) : "closed");
	agent_svc_end();
	agent_free(c.a);
	return 1;
}
