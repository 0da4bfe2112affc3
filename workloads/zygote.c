// SPDX-License-Identifier: MIT
/*
 * zygote.c - the seed of zygote.h. A layer is built once in the seed
 * (layer_build), each child does what remains (layer_finish), then the
 * warm-instance protocol (serve.c). Bare: cvmfn loaded, nothing set up.
 * Runtime: what every function shares (libcrypto's SHA-256 set up, the
 * entropy buffer filled, the data directory made). Warm: the function's
 * init done too (its instance open; its pool's workers re-started in the child).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "digest.h"
#include "entropy.h"
#include "memstat.h"
#include "protocol.h"
#include "serve.h"
#include "wlclock.h"
#include "wlfile.h"
#include "zygote.h"

struct seed {
	const struct workload_ops *ops;
	const struct wl_params *params;
	enum seed_layer layer;
	struct wl_instance inst;  /* open at the warm layer */
	int open;
	int report_fd;            /* the child's copy of the seed socket */
	long long fork_ns, init_ns;
};

/* The runtime layer's shared set-up; 0 or -errno with @err. */
static int runtime_build(struct wl_instance *scratch, char *err, size_t len)
{
	unsigned char id[8];

	if (digest_warm()) {
		snprintf(err, len, "SHA-256 from libcrypto is not available");
		return -ENOSYS;
	}
	if (entropy_bytes(id, sizeof(id))) {
		snprintf(err, len, "getrandom: %s", strerror(errno));
		return -EIO;
	}
	if (wl_make_data_dir(scratch)) {
		snprintf(err, len, "%s", scratch->error);
		return -EIO;
	}
	return 0;
}

/* Build what the seed holds at its layer; 0 or -errno with @err. */
static int layer_build(struct seed *s, char *err, size_t len)
{
	struct wl_instance probe = { .ops = s->ops, .params = *s->params };
	int ret;

	if (s->layer == SEED_BARE)
		return 0;
	ret = runtime_build(&probe, err, len);
	if (ret || s->layer == SEED_RUNTIME)
		return ret;
	ret = wl_instance_open(&s->inst, s->ops, s->params);
	if (ret) {
		snprintf(err, len, "%s", s->inst.error);
		return ret;
	}
	s->open = 1;
	return 0;
}

static int reseed_off(void)
{
	const char *v = getenv(ZYGOTE_NO_RESEED_ENV);

	return v && !strcmp(v, "1");
}

/* In the child: what its layer left to do; 0 or -errno with @err. */
static int layer_finish(struct seed *s, char *err, size_t len)
{
	struct wl_instance probe = { .ops = s->ops, .params = *s->params };
	int ret = 0;

	if (s->layer == SEED_BARE)
		ret = runtime_build(&probe, err, len);
	else if (!reseed_off() && entropy_reseed())
		ret = -EIO, snprintf(err, len, "getrandom: %s", strerror(errno));
	if (ret)
		return ret;
	if (s->layer == SEED_WARM) {
		if (pool_after_fork(s->inst.pool)) {
			snprintf(err, len, "cannot start the pool's workers again after fork");
			return -EAGAIN;
		}
		return 0;
	}
	ret = wl_instance_open(&s->inst, s->ops, s->params);
	if (ret)
		snprintf(err, len, "%s", s->inst.error);
	s->open = !ret;
	return ret;
}

/* Tests only (ZYGOTE_TOUCH_KB_ENV): write N kB of new anonymous pages, kept. */
static int touch_for_test(char *err, size_t len)
{
	const char *v = getenv(ZYGOTE_TOUCH_KB_ENV);
	long kb = v ? strtol(v, NULL, 10) : 0;
	long page = sysconf(_SC_PAGESIZE), i;
	char *p;

	if (kb <= 0)
		return 0;
	p = mmap(NULL, (size_t)kb * 1024, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		snprintf(err, len, "%s=%ld: mmap: %s", ZYGOTE_TOUCH_KB_ENV, kb, strerror(errno));
		return -ENOMEM;
	}
	madvise(p, (size_t)kb * 1024, MADV_NOHUGEPAGE);   /* exactly the pages written */
	for (i = 0; i < kb * 1024; i += page)
		p[i] = 1;
	return 0;
}

static int send_record(int fd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int send_record(int fd, const char *fmt, ...)
{
	char line[PROTO_LINE_MAX];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (n >= (int)sizeof(line))
		n = (int)sizeof(line) - 1;
	return send(fd, line, (size_t)n, MSG_NOSIGNAL) == n ? 0 : -errno;
}

static void report_first_call(void *ctx, long long fn_ns)
{
	struct seed *s = ctx;

	send_record(s->report_fd, "started pid=%d fork_ns=%lld init_ns=%lld first_call_ns=%lld\n",
		    (int)getpid(), s->fork_ns, s->init_ns, fn_ns);
	close(s->report_fd);
}

/* In the child, from its first instant: finish the layer, then serve. */
static void child_run(struct seed *s, const struct wl_digest_policy *policy, int req,
		      int rep, long long t_fork)
{
	struct serve_hooks hooks = { .first_call = report_first_call, .ctx = s };
	char extra[96], msg[512];
	long long t0;
	int code;

	s->fork_ns = wl_now_ns() - t_fork;
	t0 = wl_now_ns();
	signal(SIGCHLD, SIG_DFL);
	s->report_fd = fcntl(0, F_DUPFD_CLOEXEC, 3);
	if (s->report_fd < 0 || dup2(req, 0) < 0 || dup2(rep, 1) < 0)
		_exit(CVMFN_EXIT_INIT);
	close(req);
	close(rep);
	if (layer_finish(s, msg, sizeof(msg)) || touch_for_test(msg, sizeof(msg))) {
		serve_refuse(msg, 1);
		_exit(CVMFN_EXIT_INIT);
	}
	s->init_ns = wl_now_ns() - t0;
	snprintf(extra, sizeof(extra), " fork_ns=%lld layer=%s", s->fork_ns,
		 seed_layer_name(s->layer));
	hooks.ready_extra = extra;
	code = serve_instance(&s->inst, policy, 0, 1, s->init_ns, &hooks);
	wl_instance_close(&s->inst);
	_exit(code);
}

/*
 * One request record into @line and, with it, the two descriptors of a
 * fork request into @fds (-1 when none came). Its length, 0 on EOF, -errno.
 */
static ssize_t recv_request(int sock, char *line, size_t len, int fds[2])
{
	union { struct cmsghdr h; char buf[CMSG_SPACE(2 * sizeof(int))]; } u;
	struct iovec iov = { line, len - 1 };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1,
			     .msg_control = u.buf, .msg_controllen = sizeof(u.buf) };
	struct cmsghdr *cm;
	ssize_t n;

	fds[0] = fds[1] = -1;
	do
		n = recvmsg(sock, &mh, MSG_CMSG_CLOEXEC);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	line[n] = '\0';
	line[strcspn(line, "\n")] = '\0';
	cm = CMSG_FIRSTHDR(&mh);
	if (cm && cm->cmsg_level == SOL_SOCKET && cm->cmsg_type == SCM_RIGHTS &&
	    cm->cmsg_len == CMSG_LEN(2 * sizeof(int)))
		memcpy(fds, CMSG_DATA(cm), 2 * sizeof(int));
	return n;
}

static void fork_one(struct seed *s, const struct wl_digest_policy *policy, int fds[2])
{
	long long t = wl_now_ns();
	pid_t pid = fork();

	if (pid == 0)
		child_run(s, policy, fds[0], fds[1], t);
	close(fds[0]);
	close(fds[1]);
	if (pid < 0)
		send_record(0, "error fork: %s\n", strerror(errno));
	else
		send_record(0, "forked pid=%d\n", (int)pid);
}

static void refuse_request(int fds[2], const char *line)
{
	if (fds[0] >= 0)
		close(fds[0]);
	if (fds[1] >= 0)
		close(fds[1]);
	send_record(0, "error expected 'fork' with two descriptors, got '%.64s'\n", line);
}

int zygote_seed_main(const struct workload_ops *ops, const struct wl_params *params,
		     const struct wl_digest_policy *policy, enum seed_layer layer)
{
	struct seed s = { .ops = ops, .params = params, .layer = layer };
	char line[PROTO_LINE_MAX], msg[512];
	long long t0 = wl_now_ns();
	struct memstat m;
	int fds[2];

	signal(SIGCHLD, SIG_IGN);     /* children are reaped by the kernel */
	if (fork_manifest_gate(ops->info->name, layer, msg, sizeof(msg)) ||
	    layer_build(&s, msg, sizeof(msg))) {
		send_record(0, "error %s\n", msg);
		return CVMFN_EXIT_INIT;
	}
	memstat_read(0, &m);
	send_record(0, "seeded pid=%d layer=%s build_ns=%lld rss_kb=%ld pss_kb=%ld\n",
		    (int)getpid(), seed_layer_name(layer), wl_now_ns() - t0, m.rss_kb, m.pss_kb);
	while (recv_request(0, line, sizeof(line), fds) > 0) {
		if (!strcmp(line, "fork") && fds[0] >= 0)
			fork_one(&s, policy, fds);
		else
			refuse_request(fds, line);
	}
	if (s.open)
		wl_instance_close(&s.inst);
	return CVMFN_EXIT_OK;
}

/* What one child of the check drew: its pid, entropy and a temporary name. */
struct drawn {
	int pid;
	char entropy[33];
	char name[256];
};

/* In a child of the check's seed: finish the layer, draw, report, exit. */
static void check_child(struct seed *s, int out_fd)
{
	unsigned char b[16];
	char msg[512], name[256];
	int i, fd, n;

	if (layer_finish(s, msg, sizeof(msg)) || entropy_bytes(b, sizeof(b)))
		_exit(CVMFN_EXIT_INIT);
	snprintf(name, sizeof(name), "%s/cvmfn-fork-check.XXXXXX", s->params->data_dir);
	fd = mkstemp(name);
	if (fd < 0)
		_exit(CVMFN_EXIT_INIT);
	close(fd);
	unlink(name);
	n = snprintf(msg, sizeof(msg), "%d ", (int)getpid());
	for (i = 0; i < 16; i++)
		n += snprintf(msg + n, sizeof(msg) - (size_t)n, "%02x", b[i]);
	n += snprintf(msg + n, sizeof(msg) - (size_t)n, " %s\n", name);
	_exit(write(out_fd, msg, (size_t)n) == n ? 0 : CVMFN_EXIT_FAILED);
}

/* The check's seed at @layer: build it, fork @children, wait for them. */
static void check_seed(struct seed *s, int children, int out_fd)
{
	char msg[512];
	int i;

	if (layer_build(s, msg, sizeof(msg))) {
		dprintf(2, "cvmfn: fork-check %s: %s\n", seed_layer_name(s->layer), msg);
		_exit(CVMFN_EXIT_INIT);
	}
	for (i = 0; i < children; i++)
		if (fork() == 0)
			check_child(s, out_fd);
	while (wait(NULL) > 0)
		;
	_exit(0);
}

/* How many of @n drawn children share a field with an earlier one. */
static int repeats(const struct drawn *d, int n, size_t off, const char **what)
{
	int i, j, r = 0;

	for (i = 1; i < n; i++)
		for (j = 0; j < i; j++)
			if (!strcmp((const char *)&d[i] + off, (const char *)&d[j] + off)) {
				*what = (const char *)&d[i] + off;
				r++;
				break;
			}
	return r;
}

/* Read what the children wrote on @fd: up to @max lines into @d. */
static int read_drawn(int fd, struct drawn *d, int max)
{
	char buf[65536], *line, *save;
	size_t used = 0;
	ssize_t n;
	int k = 0;

	while (used < sizeof(buf) - 1 && (n = read(fd, buf + used, sizeof(buf) - 1 - used)) > 0)
		used += (size_t)n;
	buf[used] = '\0';
	for (line = strtok_r(buf, "\n", &save); line && k < max;
	     line = strtok_r(NULL, "\n", &save))
		if (sscanf(line, "%d %32s %255s", &d[k].pid, d[k].entropy, d[k].name) == 3)
			k++;
	return k;
}

/* One layer of the check; 1 when it passed, 0 when it failed. */
static int check_layer(const struct workload_ops *ops, const struct wl_params *params,
		       enum seed_layer layer, int children)
{
	struct seed s = { .ops = ops, .params = params, .layer = layer };
	struct drawn d[256];
	const char *what = "";
	int p[2], got, same_entropy, same_name;
	pid_t pid;

	if (pipe(p))
		return 0;
	pid = fork();
	if (pid == 0) {
		close(p[0]);
		check_seed(&s, children, p[1]);
	}
	close(p[1]);
	got = read_drawn(p[0], d, children);
	close(p[0]);
	if (pid > 0)
		waitpid(pid, NULL, 0);
	same_entropy = repeats(d, got, offsetof(struct drawn, entropy), &what);
	same_name = repeats(d, got, offsetof(struct drawn, name), &what);
	printf("%-8s %d/%d children reported; entropy repeated in %d, temporary names "
	       "repeated in %d%s%s: %s\n", seed_layer_name(layer), got, children, same_entropy,
	       same_name, what[0] ? ", e.g. " : "", what,
	       got == children && !same_entropy && !same_name ? "pass" : "FAIL");
	return got == children && !same_entropy && !same_name;
}

int zygote_fork_check(const struct workload_ops *ops, const struct wl_params *params,
		      int children)
{
	char why[512];
	int layer, ok = 1;

	if (children > 256)
		children = 256;
	for (layer = SEED_BARE; layer <= SEED_WARM; layer++) {
		if (fork_manifest_gate(ops->info->name, (enum seed_layer)layer, why, sizeof(why))) {
			printf("%-8s not offered: %s\n", seed_layer_name((enum seed_layer)layer),
			       why);
			continue;
		}
		fflush(stdout);
		ok &= check_layer(ops, params, (enum seed_layer)layer, children);
	}
	return ok ? CVMFN_EXIT_OK : CVMFN_EXIT_FAILED;
}
