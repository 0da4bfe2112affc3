// SPDX-License-Identifier: MIT
/*
 * agent-svc.c - a service inside the guest (the system suite, backend =
 * qemu): the agent runs the host's service code (bench/services/svc-proc.c:
 * the server from the guest's rootfs on the guest's loopback, its files
 * under /scratch, the load generator by argv) on request, and sends the
 * generator's stdout back whole; the host parses it. The lines: svc-wire.h.
 * With `host` (loadgen = host) only the server runs here, on the NIC's
 * address (cvmbench.net=, agent-net.c) at AGENT_GUEST_SVC_PORT, QEMU's forward.
 * `svc stop` answers with nginx's own count of the requests it served (its
 * access log's lines, read before it stops).
 * While a service runs, SIGCHLD is default here (the agent otherwise
 * ignores it, so children reap themselves): the window needs its
 * generator's exit status. In a service container (runc, crun) the same
 * code runs as the container's process (agent-main.c --stdio), its files
 * under the --scratch directory the host bound in.
 */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

#include "agent.h"
#include "agent-guest-local.h"
#include "svc-proc.h"
#include "svc-wire.h"

static struct svc_proc sp;
static int svc_running;
static const char *scratch_dir = AGENT_GUEST_SCRATCH, *bin_dir = "/bin";

void agent_svc_dirs(const char *scratch, const char *bin)
{
	scratch_dir = scratch ? scratch : AGENT_GUEST_SCRATCH;
	bin_dir = bin ? bin : "/bin";
}

void agent_svc_end(void)
{
	if (svc_running)
		svc_proc_stop(&sp);
	svc_running = 0;
}

static int reply(int fd, char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int reply(int fd, char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, len, fmt, ap);
	va_end(ap);
	return agent_send_line(fd, buf);
}

static int svc_start(int fd, const char *name, int dur, int conn, int rate, int host)
{
	const struct svc_info *svc = svc_find(name);
	struct svc_params p;
	char why[768], line[AGENT_LINE_MAX], addr[64] = "127.0.0.1";
	int ret;

	if (!svc)
		return reply(fd, line, sizeof(line), "error svc unknown service '%.60s'", name);
	if (svc_running)
		return reply(fd, line, sizeof(line), "error svc a service already runs here");
	if (host && (!svc->server || agent_net_addr(addr, sizeof(addr))))
		return reply(fd, line, sizeof(line), "error svc %d %s", -ENODEV, svc->server ?
			     "no network device here (no cvmbench.net= on the kernel command "
			     "line) for a load generator on the host" : "no server to reach");
	svc_params_resolve(svc, dur, conn, rate, &p);
	signal(SIGCHLD, SIG_DFL);
	ret = svc_proc_start_at(&sp, svc, &p, scratch_dir, bin_dir, addr,
				host ? AGENT_GUEST_SVC_PORT : 0, why, sizeof(why));
	if (ret) {
		signal(SIGCHLD, SIG_IGN);
		return reply(fd, line, sizeof(line), "error svc %d %.900s", ret, why);
	}
	svc_running = 1;
	return reply(fd, line, sizeof(line), "svc started %d %s", sp.port, sp.user);
}

/* The generator's stdout as `svc out` lines. */
static int send_output(int fd, const char *s, size_t n)
{
	char esc[3 * SVC_WIRE_CHUNK + 1], line[AGENT_LINE_MAX];
	size_t i = 0, k, end;
	int ret = 0;

	while (i < n && !ret) {
		for (end = i; end < n && s[end] != '\n'; end++)
			;
		k = end - i > SVC_WIRE_CHUNK ? SVC_WIRE_CHUNK : end - i;
		svc_wire_escape(s + i, k, esc);
		snprintf(line, sizeof(line), "svc out%s %s", i + k < end ? "+" : "", esc);
		ret = agent_send_line(fd, line);
		i += k;
		if (i == end)
			i++;        /* past the '\n' */
	}
	return ret;
}

static int svc_window(int fd, double timeout_s)
{
	struct svc_window w;
	char why[768], line[AGENT_LINE_MAX];
	int ret;

	if (!svc_running)
		return reply(fd, line, sizeof(line), "error svc no service runs (svc start first)");
	ret = svc_proc_window(&sp, timeout_s, &w, why, sizeof(why));
	if (w.out && send_output(fd, w.out, w.len)) {
		svc_window_free(&w);
		return -EIO;
	}
	svc_window_free(&w);
	if (ret)
		return reply(fd, line, sizeof(line), "error svc %d %.900s", ret, why);
	return reply(fd, line, sizeof(line), "svc done %d %lld", w.status, w.wall_ns);
}

int agent_svc(int fd, const char *line)
{
	char name[64], buf[AGENT_LINE_MAX], end;
	int d, c, r, n = 0;
	long served;
	double t;

	if (sscanf(line, "svc start %63s %d %d %d%c", name, &d, &c, &r, &end) == 4)
		return svc_start(fd, name, d, c, r, 0);
	if (sscanf(line, "svc start %63s %d %d %d host%n", name, &d, &c, &r, &n) == 4 && n &&
	    !line[n])
		return svc_start(fd, name, d, c, r, 1);
	if (sscanf(line, "svc window %lf%c", &t, &end) == 1 && t > 0 && t < 86400)
		return svc_window(fd, t);
	if (!strcmp(line, "svc stop")) {
		served = svc_running ? svc_proc_requests(&sp) : -1;
		agent_svc_end();
		signal(SIGCHLD, SIG_IGN);
		return reply(fd, buf, sizeof(buf), "svc stopped %ld", served);
	}
	return reply(fd, buf, sizeof(buf), "error svc cannot parse '%.100s'", line);
}
