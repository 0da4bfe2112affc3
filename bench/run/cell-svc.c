// SPDX-License-Identifier: MIT
/*
 * cell-svc.c - a service cell (cell-svc.h). Native: the server and each
 * window's load generator are processes of this machine (svc-proc.c,
 * journalled). qemu: VM 0's agent runs them inside the guest (svc-wire.h)
 * and sends each window's stdout back; with loadgen = host the agent runs
 * only the server (on the guest's user-mode NIC) and the windows run here,
 * the generator aimed at the host port QEMU forwards to it (the backend's
 * svc_host_port()). runc, crun: the same agent is the process of one
 * container of the cell (cell-svc-ct.c), the same lines on its stdin and
 * stdout. Either way the host stores the
 * output whole (service_output, results-schema/015-service.sql) and parses
 * it (svc_parse(), bench/services/svc-parse.h) into metric rows with
 * probe = the parser's name. A window's time is its generator's run, from
 * fork to exit, as the side that ran it measured it (latency_ns).
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "agent-guest.h"
#include "cell-run.h"
#include "cell-svc.h"
#include "cell-svc-ct.h"
#include "clock.h"
#include "db.h"
#include "log.h"
#include "paths.h"
#include "proc-stat.h"
#include "sink.h"
#include "svc-list.h"
#include "svc-parse.h"
#include "svc-proc.h"
#include "svc-wire.h"

#define GUEST_START_MS 600000      /* initdb + pgbench -i under TCG */
#define LINE_MAX_ 2048

struct svc_cell {
	struct cell_ctx *ctx;
	const struct svc_info *svc;
	struct svc_params p;
	struct svc_proc sp;        /* native */
	int local;
	int host_gen;              /* qemu, loadgen = host: server in the guest,
				    * generator here (sp: its directory only) */
	int to_fd, from_fd;        /* qemu: VM 0's agent; runc, crun: the container's */
	const struct backend_ops *be;  /* runc, crun: the container's backend, */
	void *be_state;
	struct instance ct;        /* ... the container, */
	pid_t ct_server;           /* ... and its server's pid here (0: none) */
	char buf[LINE_MAX_];
	size_t blen;
	char *out;                 /* the last window's stdout */
	size_t len, cap;
	int status;                /* its waitpid() status, -1 unknown */
};

/* Where the server and the generator run: "host", "container" or "guest". */
static const char *svc_where(const struct svc_cell *s)
{
	return s->local ? "host" : s->be ? "container" : "guest";
}

int svc_cell_is(const struct cell *c)
{
	return svc_find(c->workload) != NULL;
}

static const char *loadgen_dir(char *buf, size_t len)
{
	return exe_dir(buf, len) ? NULL : buf;
}

/* loadgen = host in a guest: a server to reach, its forward, the generator here. */
static int host_gen_runnable(const struct svc_info *svc, const struct backend_ops *be,
			     char *why, size_t len)
{
	char dir[PATH_MAX];

	if (!svc->server || svc->server == SVC_POSTGRES || !be->svc_host_port) {
		snprintf(why, len, "loadgen = host: %s", !svc->server ?
			 "the service has no server: its tool is the workload, run in the guest "
			 "(loadgen = same)" : svc->server == SVC_POSTGRES ?
			 "not for pgbench (initdb trusts 127.0.0.1 only; the forwarded "
			 "connection comes from QEMU's 10.0.2.2)" :
			 "the backend forwards no host port to its guest");
		return 0;
	}
	return svc_loadgen_found(svc, loadgen_dir(dir, sizeof(dir)), why, len);
}

int svc_cell_runnable(const struct cell *c, char *why, size_t len)
{
	const struct svc_info *svc = svc_find(c->workload);
	const struct backend_ops *be = backend_find(c->backend);
	char dir[PATH_MAX];

	if (!svc || !be)
		return 1;
	if (be->flags & BACKEND_SEED) {
		snprintf(why, len, "workload %s is a service: backend %s does not run services "
			 "yet (native, runc, crun and qemu do)", c->workload, c->backend);
		return 0;
	}
	if (c->seed_layer[0] && strcmp(c->seed_layer, "none")) {
		snprintf(why, len, "workload %s is a service: seed-layer = %s has no meaning "
			 "for it (its server is started as a program, not forked from a seed)",
			 c->workload, c->seed_layer);
		return 0;
	}
	if (!strcmp(c->mode, "cold")) {
		snprintf(why, len, "workload %s is a service: mode = cold has no meaning for it "
			 "(one server per cell)", c->workload);
		return 0;
	}
	if (be->flags & BACKEND_CGROUPS)
		return svc_ct_runnable(c, svc, why, len);
	if (!(be->flags & BACKEND_GUEST)) {
		if (strcmp(c->loadgen, "same")) {
			snprintf(why, len, "loadgen = %s: backend %s runs the server on this host, "
				 "so its load generator is on the host too (loadgen = same)",
				 c->loadgen, c->backend);
			return 0;
		}
		return svc_found(svc, loadgen_dir(dir, sizeof(dir)), why, len);
	}
	if (strcmp(c->loadgen, "same") && !host_gen_runnable(svc, be, why, len))
		return 0;
	if (strcmp(c->rootfs, "system")) {
		snprintf(why, len, "workload %s is a service: its guest needs rootfs = system "
			 "(the servers and load generators), not '%s'", c->workload, c->rootfs);
		return 0;
	}
	return 1;
}

/* --- the agent link (qemu) ------------------------------------------------ */

static int link_send(struct svc_cell *s, const char *line)
{
	size_t n = strlen(line);

	if (write(s->to_fd, line, n) != (ssize_t)n || write(s->to_fd, "\n", 1) != 1)
		return -EIO;
	return 0;
}

/* The next line from the agent within @deadline (CLOCK_MONOTONIC ns). */
static int link_line(struct svc_cell *s, char *line, size_t len, long long deadline)
{
	struct pollfd p = { s->from_fd, POLLIN, 0 };
	char *nl;
	ssize_t n;

	while (!(nl = memchr(s->buf, '\n', s->blen))) {
		long long left = (deadline - clock_now_ns()) / 1000000;

		if (s->blen == sizeof(s->buf))
			return -EPROTO;
		if (left <= 0)
			return -ETIMEDOUT;
		if (poll(&p, 1, (int)(left > 1000 ? 1000 : left)) != 1)
			continue;
		n = read(s->from_fd, s->buf + s->blen, sizeof(s->buf) - s->blen);
		if (n <= 0)
			return n ? -errno : -EPIPE;
		s->blen += (size_t)n;
	}
	*nl = '\0';
	snprintf(line, len, "%s", s->buf);
	s->blen -= (size_t)(nl + 1 - s->buf);
	memmove(s->buf, nl + 1, s->blen);
	return 0;
}

/* An agent line that is not ours (a probe's row out of turn): said, skipped. */
static int ours(const char *line)
{
	if (!strncmp(line, "svc ", 4) || !strncmp(line, "error svc ", 10))
		return 1;
	pr_warn("service: a line from the agent that is not a service's: '%.100s'",
		line);
	return 0;
}

/* Keep @n bytes of output and a '\n' when @nl. */
static int out_add(struct svc_cell *s, const char *t, size_t n, int nl)
{
	size_t need = s->len + n + 2;
	char *b = s->out;

	if (need > s->cap) {
		s->cap = need > 2 * s->cap ? need + 65536 : 2 * s->cap;
		b = realloc(s->out, s->cap);
		if (!b)
			return -ENOMEM;
		s->out = b;
	}
	memcpy(b + s->len, t, n);
	s->len += n;
	if (nl)
		b[s->len++] = '\n';
	b[s->len] = '\0';
	return 0;
}

/* "error svc -ERRNO MESSAGE": the errno, the message into @why. */
static int agent_error(const struct svc_cell *s, const char *line, char *why, size_t len)
{
	char *end;
	long e = strtol(line + 10, &end, 10);

	snprintf(why, len, "in the %s: %.400s", svc_where(s), *end == ' ' ? end + 1 : line + 10);
	return e < 0 ? (int)e : -EIO;
}

/* loadgen = host: the generator's side here, aimed at the forwarded port. */
static int host_client(struct svc_cell *s, const struct backend_ops *be, void *state,
		       char *why, size_t len)
{
	char dir[PATH_MAX], user[32];
	int port = be->svc_host_port(state), ret;

	if (port <= 0) {
		snprintf(why, len, "loadgen = host but the VM has no forwarded port");
		return -ENOENT;
	}
	snprintf(user, sizeof(user), "%s", s->sp.user);
	ret = svc_proc_client(&s->sp, s->svc, &s->p, port, loadgen_dir(dir, sizeof(dir)), why,
			      len);
	snprintf(s->sp.user, sizeof(s->sp.user), "%s", user);
	return ret;
}

/* `svc start` to the agent: VM 0's, or a container's (to_fd already set). */
static int guest_begin(struct svc_cell *s, const struct backend_ops *be, void *state,
		       char *why, size_t len)
{
	char line[LINE_MAX_], who[256], user[32];
	int ret, port;

	if (s->to_fd < 0 &&
	    (!be->agent_link || be->agent_link(state, &s->to_fd, &s->from_fd, who, sizeof(who)))) {
		snprintf(why, len, "no agent in the guest to run the service: %s", who);
		return -ENOTCONN;
	}
	snprintf(line, sizeof(line), "svc start %s %d %d %d%s", s->svc->name, s->p.duration_s,
		 s->p.connections, s->p.rate, s->host_gen ? " host" : "");
	ret = link_send(s, line);
	while (!ret && !(ret = link_line(s, line, sizeof(line),
					 clock_now_ns() + GUEST_START_MS * 1000000LL)) && !ours(line))
		;
	if (ret) {
		snprintf(why, len, "the %s's agent did not answer svc start: %s", svc_where(s),
			 strerror(-ret));
		return ret;
	}
	if (!strncmp(line, "error svc ", 10))
		return agent_error(s, line, why, len);
	if (sscanf(line, "svc started %d %31s", &port, user) != 2) {
		snprintf(why, len, "the %s's agent answered '%.100s' to svc start", svc_where(s),
			 line);
		return -EPROTO;
	}
	snprintf(s->sp.user, sizeof(s->sp.user), "%s", user);
	s->sp.port = port;
	return s->host_gen ? host_client(s, be, state, why, len) : 0;
}

/* The container's agent says it is up (its first line). */
static int ct_ready(struct svc_cell *s, char *why, size_t len)
{
	char line[LINE_MAX_];
	int ret = link_line(s, line, sizeof(line), clock_now_ns() + GUEST_START_MS * 1000000LL);

	if (!ret && !strncmp(line, AGENT_READY_PREFIX, strlen(AGENT_READY_PREFIX)))
		return 0;
	snprintf(why, len, "the container's agent did not say it was up: %s",
		 ret ? strerror(-ret) : line);
	return ret ? ret : -EPROTO;
}

/* runc, crun: one container of the cell runs the agent, the agent the service. */
static int ct_begin(struct svc_cell *s, const struct backend_ops *be, void *state,
		    char *why, size_t len)
{
	int ret = svc_ct_open(s->ctx, be, state, &s->ct, why, len);

	if (ret)
		return ret;
	s->be = be;
	s->be_state = state;
	s->to_fd = s->ct.to_fd;
	s->from_fd = s->ct.from_fd;
	ret = ct_ready(s, why, len) ?: guest_begin(s, be, state, why, len);
	if (ret) {
		svc_ct_close(be, state, &s->ct);
		return ret;
	}
	if (s->svc->server)
		s->ct_server = svc_ct_server(&s->ct, svc_server_name(s->svc->server));
	return 0;
}

static void note_start(struct svc_cell *s)
{
	struct cell_ctx *c = s->ctx;
	long requests = svc_window_requests(s->svc, &s->p);
	char v[128];

	db_cell_note(c->db, c->cell_id, "svc.server", svc_server_name(s->svc->server));
	db_cell_note(c->db, c->cell_id, "svc.server_user", s->sp.user);
	db_cell_note(c->db, c->cell_id, "svc.loadgen", s->svc->loadgen);
	db_cell_note(c->db, c->cell_id, "svc.parser", s->svc->parser);
	db_cell_note(c->db, c->cell_id, "svc.where", svc_where(s));
	db_cell_note(c->db, c->cell_id, "svc.loadgen_where",
		     s->local || s->host_gen ? "host" : svc_where(s));
	if (s->host_gen) {
		snprintf(v, sizeof(v), "host 127.0.0.1:%d, QEMU user-mode NIC (SLIRP), guest "
			 AGENT_GUEST_NET_ADDR ":%d", s->sp.port, AGENT_GUEST_SVC_PORT);
		db_cell_note(c->db, c->cell_id, "svc.path", v);
	}
	db_cell_note(c->db, c->cell_id, "svc.window", "one load-generator run: fork to exit");
	if (s->svc->server == SVC_NGINX)   /* a cost of every request: say it, compare shows it */
		db_cell_note(c->db, c->cell_id, "svc.nginx_access_log",
			     "on: one unbuffered line per request, as Debian ships nginx");
	if (requests) {
		snprintf(v, sizeof(v), "%ld", requests);
		db_cell_note(c->db, c->cell_id, "svc.requests", v);
	} else {
		snprintf(v, sizeof(v), "%d", s->p.duration_s);
		db_cell_note(c->db, c->cell_id, "svc.duration_s", v);
	}
	snprintf(v, sizeof(v), "%d", s->p.connections);
	db_cell_note(c->db, c->cell_id, "svc.connections", v);
	if (!strcmp(s->svc->loadgen, "cvmload")) {
		snprintf(v, sizeof(v), "%d", s->p.rate);
		db_cell_note(c->db, c->cell_id, "svc.rate_per_s", v);
	}
	db_cell_note(c->db, c->cell_id, "svc.loop", !strcmp(s->svc->loadgen, "cvmload") ?
		     "open" : s->svc->server ? "closed" : "none");
}

int svc_cell_begin(struct cell_ctx *ctx, const struct backend_ops *be, void *be_state,
		   struct svc_cell **out, pid_t *pid, char *why, size_t len)
{
	const struct cell *c = ctx->cell;
	struct svc_cell *s = calloc(1, sizeof(*s));
	char dir[PATH_MAX];
	int ret;

	if (!s)
		return -ENOMEM;
	s->ctx = ctx;
	s->svc = svc_find(c->workload);
	s->to_fd = s->from_fd = -1;
	s->local = !(be->flags & (BACKEND_GUEST | BACKEND_CGROUPS));
	s->host_gen = (be->flags & BACKEND_GUEST) && !strcmp(c->loadgen, "host");
	svc_params_resolve(s->svc, c->svc_duration, c->svc_connections, c->svc_rate, &s->p);
	ret = s->local ? svc_proc_start(&s->sp, s->svc, &s->p, NULL,
					loadgen_dir(dir, sizeof(dir)), why, len) :
	      be->flags & BACKEND_CGROUPS ? ct_begin(s, be, be_state, why, len) :
	      guest_begin(s, be, be_state, why, len);
	if (ret) {
		free(s);
		return ret == -ENOENT || ret == -EXDEV ? BACKEND_SKIP : ret;
	}
	*pid = s->local ? s->sp.server : s->ct_server;
	*out = s;
	note_start(s);
	return 0;
}

static int guest_window(struct svc_cell *s, double timeout_s, struct invoke_result *r)
{
	long long deadline = clock_now_ns() + (long long)((timeout_s + 30) * 1e9);
	char line[LINE_MAX_];
	long long wall;
	size_t n;
	int ret;

	snprintf(line, sizeof(line), "svc window %.0f", timeout_s);
	ret = link_send(s, line);
	while (!ret && !(ret = link_line(s, line, sizeof(line), deadline))) {
		if (!ours(line))
			continue;
		if (!strncmp(line, "svc out", 7) && (line[7] == ' ' || line[7] == '+')) {
			n = svc_wire_unescape(line + 8 + (line[7] == '+'));
			ret = out_add(s, line + 8 + (line[7] == '+'), n, line[7] == ' ');
		} else if (!strncmp(line, "error svc ", 10)) {
			return agent_error(s, line, r->error, sizeof(r->error));
		} else if (sscanf(line, "svc done %d %lld", &s->status, &wall) == 2) {
			r->latency_ns = wall;
			return 0;
		} else {
			snprintf(r->error, sizeof(r->error), "the %s's agent sent '%.100s'",
				 svc_where(s), line);
			return -EPROTO;
		}
	}
	snprintf(r->error, sizeof(r->error), "no answer from the %s's agent to a window: %s",
		 svc_where(s), strerror(-ret));
	return ret;
}

int svc_cell_call(struct svc_cell *s, long seq, struct invoke_result *r)
{
	double timeout_s = s->p.duration_s + s->ctx->cell->timeout;
	struct svc_window w;
	int ret;

	(void)seq;
	memset(r, 0, sizeof(*r));
	r->latency_ns = r->fn_ns = r->digest_ns = -1;
	s->len = 0;
	s->status = -1;
	if (!s->local && !s->host_gen) {
		ret = guest_window(s, timeout_s, r);
	} else {
		ret = svc_proc_window(&s->sp, timeout_s, &w, r->error, sizeof(r->error));
		r->latency_ns = w.wall_ns;
		s->status = w.status;
		if (w.out && out_add(s, w.out, w.len, 0))
			ret = ret ?: -ENOMEM;
		svc_window_free(&w);
	}
	r->ok = !ret;
	return ret;
}

struct output_row {
	const char *service, *tool, *side, *output;
	long long exit_status;
};

static const struct sink_column output_cols[] = {
	SINK_CELL("cell_id"),
	SINK_INVOCATION("invocation_id"),
	SINK_TEXT(struct output_row, service),
	SINK_TEXT(struct output_row, tool),
	SINK_TEXT(struct output_row, side),
	SINK_KNOWN(struct output_row, exit_status),
	SINK_TEXT(struct output_row, output),
};
static const struct sink_table output_table = SINK_TABLE("service_output", output_cols);

/* The window's metrics, parsed from its output (kept in service_output
 * whatever the parse says). */
static int store_metrics(struct svc_cell *s, int64_t inv_id)
{
	struct cell_ctx *c = s->ctx;
	struct svc_result res;
	char err[512];
	int i;

	memset(&res, 0, sizeof(res));
	if (svc_parse(s->svc->parser, s->out ? s->out : "", s->len, &res, err, sizeof(err))) {
		cell_fail(c, "window %lld: %s output: %s (its text: service_output)",
			  (long long)inv_id, s->svc->parser, err);
		return -EIO;
	}
	for (i = 0; i < res.n; i++)
		if (db_metric_add(c->db, c->cell_id, inv_id, s->svc->parser, res.v[i].name,
				  res.v[i].value, res.v[i].unit))
			return -EIO;
	return 0;
}

int svc_cell_store(struct svc_cell *s, int64_t inv_id, int measured)
{
	struct cell_ctx *c = s->ctx;
	struct sink sk = { .db = c->db, .run_id = c->run_id, .cell_id = c->cell_id,
			   .invocation_id = inv_id, .probe = s->svc->parser, .ops = &sink_db_ops };
	struct output_row row = {
		.service = s->svc->name, .tool = s->svc->parser,
		/* a container's generator ran on this machine's kernel: side host */
		.side = s->local || s->host_gen || s->be ? "host" : "guest",
		.output = s->out ? s->out : "",
		.exit_status = s->status >= 0 && WIFEXITED(s->status) ? WEXITSTATUS(s->status) : -1,
	};

	if (inv_id <= 0)
		return -EIO;
	if (sink_row(&sk, &output_table, &row) < 0) {
		cell_fail(c, "cannot store window %lld's output", (long long)inv_id);
		return -EIO;
	}
	return measured && (row.exit_status == 0) ? store_metrics(s, inv_id) : 0;
}

int svc_cell_alive(struct svc_cell *s)
{
	if (!s || (!s->local && (!s->ct_server || !proc_ended(s->ct_server))) ||
	    (s->local && svc_proc_alive(&s->sp)))
		return 0;
	cell_fail(s->ctx, "%s ended during the cell", svc_server_name(s->svc->server));
	return -EIO;
}

/* nginx's own count of the requests it served (its access log), as a note. */
static void note_served(struct svc_cell *s, long served)
{
	char v[32];

	if (served < 0)
		return;
	snprintf(v, sizeof(v), "%ld", served);
	db_cell_note(s->ctx->db, s->ctx->cell_id, "svc.server_requests", v);
}

/* svc stop to the agent (guest's or container's): its server's count of requests, or -1. */
static long guest_stop(struct svc_cell *s)
{
	char line[LINE_MAX_], end;
	long served = -1;
	int ret;

	if (link_send(s, "svc stop"))
		return -1;
	while (!(ret = link_line(s, line, sizeof(line), clock_now_ns() + 30000000000LL)) &&
	       !ours(line))
		;
	if (ret || sscanf(line, "svc stopped %ld%c", &served, &end) != 1) {
		pr_warn("service: the %s did not confirm svc stop (it ends anyway)",
			svc_where(s));
		return -1;
	}
	return served;
}

void svc_cell_end(struct svc_cell *s)
{
	if (!s)
		return;
	if (s->local)
		note_served(s, svc_proc_requests(&s->sp));
	else
		note_served(s, guest_stop(s));
	if (s->local || s->host_gen)
		svc_proc_stop(&s->sp);
	if (s->be)
		svc_ct_close(s->be, s->be_state, &s->ct);
	free(s->out);
	free(s);
}
