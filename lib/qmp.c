// SPDX-License-Identifier: MIT
/*
 * qmp.c - KVM's per-vCPU statistics from a running QEMU over QMP (qmp.h):
 * one JSON object per line each way; the greeting, qmp_capabilities, then
 *   -> {"execute":"query-stats","arguments":{"target":"vcpu",
 *       "providers":[{"provider":"kvm","names":["exits",...]}]}}
 *   <- {"return":[{"provider":"kvm","qom-path":"/machine/...",
 *       "stats":[{"name":"exits","value":123}, ...]}, ...]}
 * (QEMU's qapi/stats.json: StatsFilter, StatsResult; a value is a u64 or,
 * for a histogram, a list). Asynchronous events ({"event": ...}) may come
 * between a command and its reply and are skipped. Only the statistics
 * asked for are requested (a vCPU's histograms are ~2 KB each), and a reply
 * line may be as long as QMP_LINE_MAX: the buffer grows to hold it.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "qmp.h"

/*
 * The socket path of a "unix:PATH[,option...]" argument: QEMU's option
 * syntax writes a comma of PATH as ",," (qemu-argv.c), undone here.
 */
static int unix_path(const char *v, char *path, size_t plen)
{
	size_t n = 0;

	for (; *v && (*v != ',' || v[1] == ','); v += *v == ',' ? 2 : 1) {
		if (n + 1 >= plen)
			return -ENAMETOOLONG;
		path[n++] = *v;
	}
	path[n] = '\0';
	return 0;
}

int qmp_cmdline_find(const char *cmd, size_t len, char *path, size_t plen, int *vm_idx)
{
	const char *a = cmd, *end = cmd + len, *v;
	int found = 0;

	*vm_idx = -1;
	for (; a < end; a += strnlen(a, (size_t)(end - a)) + 1) {
		if ((v = strstr(a, "cvmbench.vm=")) && (v == a || v[-1] == ' '))
			*vm_idx = atoi(v + 12);
		if (strcmp(a, "-qmp") || a + 5 >= end || strncmp(a + 5, "unix:", 5))
			continue;
		if (unix_path(a + 10, path, plen))
			return -ENAMETOOLONG;
		found = 1;
	}
	return found ? 0 : -ENOENT;
}

int qmp_pid_find(pid_t pid, char *path, size_t plen, int *vm_idx)
{
	char f[64], buf[16384];
	ssize_t n;
	int fd;

	snprintf(f, sizeof(f), "/proc/%d/cmdline", (int)pid);
	fd = open(f, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	return qmp_cmdline_find(buf, (size_t)n, path, plen, vm_idx);
}

#ifdef HAVE_CJSON
#include <cjson/cJSON.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>

#define QMP_BUF_MIN 65536
#define QMP_LINE_MAX (64u << 20)   /* a reply longer than this is refused */

struct qmp {
	int fd;
	char *buf;
	size_t len;               /* bytes in buf not yet returned */
	size_t cap;               /* grows (doubling) to QMP_LINE_MAX for a long line */
};

/* Room for more in @q's buffer: doubled when full, -EMSGSIZE past QMP_LINE_MAX. */
static int room(struct qmp *q)
{
	char *nb;

	if (q->len < q->cap)
		return 0;
	if (q->cap >= QMP_LINE_MAX)
		return -EMSGSIZE;
	nb = realloc(q->buf, q->cap * 2);
	if (!nb)
		return -ENOMEM;
	q->buf = nb;
	q->cap *= 2;
	return 0;
}

/* The next line (no newline) into *@line, malloc'ed. */
static int read_line(struct qmp *q, char **line, int timeout_ms)
{
	struct pollfd p = { q->fd, POLLIN, 0 };
	char *nl;
	ssize_t r;
	int ret;

	while (!(nl = memchr(q->buf, '\n', q->len))) {
		if ((ret = room(q)))
			return ret;
		if (poll(&p, 1, timeout_ms) != 1)
			return -ETIMEDOUT;
		r = read(q->fd, q->buf + q->len, q->cap - q->len);
		if (r <= 0)
			return r ? -errno : -ECONNRESET;
		q->len += (size_t)r;
	}
	*line = strndup(q->buf, (size_t)(nl - q->buf));
	q->len -= (size_t)(nl + 1 - q->buf);
	memmove(q->buf, nl + 1, q->len);
	return *line ? 0 : -ENOMEM;
}

/* The next line that is not an event ({"event": ...}): a greeting or a reply. */
static int read_reply(struct qmp *q, char **line, int timeout_ms)
{
	int ret;

	while (!(ret = read_line(q, line, timeout_ms)) && strstr(*line, "\"event\"") &&
	       !strstr(*line, "\"return\"") && !strstr(*line, "\"QMP\""))
		free(*line);
	return ret;
}

/* @cmd to QEMU; a QEMU gone is -EPIPE, never a SIGPIPE that ends cvmbench. */
static int send_cmd(struct qmp *q, const char *cmd)
{
	size_t n = strlen(cmd);

	return send(q->fd, cmd, n, MSG_NOSIGNAL) == (ssize_t)n ? 0 : -EPIPE;
}

static int handshake(struct qmp *q, int timeout_ms, char *err, size_t errlen)
{
	char *line = NULL;
	int ret = read_reply(q, &line, timeout_ms);

	if (!ret && !strstr(line, "\"QMP\""))
		ret = -EPROTO;
	free(line);
	line = NULL;
	ret = ret ?: send_cmd(q, "{\"execute\":\"qmp_capabilities\"}\n");
	ret = ret ?: read_reply(q, &line, timeout_ms);
	if (!ret && !strstr(line, "\"return\""))
		ret = -EPROTO;
	if (ret)
		snprintf(err, errlen, "QMP handshake: %s", ret == -EPROTO ?
			 "not a QMP greeting or reply" : strerror(-ret));
	free(line);
	return ret;
}

int qmp_open(struct qmp **out, const char *path, int timeout_ms, char *err, size_t errlen)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct qmp *q;
	int ret;

	*out = NULL;
	if (strlen(path) >= sizeof(sa.sun_path)) {
		snprintf(err, errlen, "%s: path too long for a socket", path);
		return -ENAMETOOLONG;
	}
	strcpy(sa.sun_path, path);
	q = calloc(1, sizeof(*q));
	if (!q || !(q->buf = malloc(QMP_BUF_MIN))) {
		free(q);
		return -ENOMEM;
	}
	q->cap = QMP_BUF_MIN;
	q->fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (q->fd < 0 || connect(q->fd, (struct sockaddr *)&sa, sizeof(sa))) {
		ret = -errno;
		snprintf(err, errlen, "QMP socket %s: %s", path, strerror(-ret));
		qmp_close(q);
		return ret;
	}
	ret = handshake(q, timeout_ms, err, errlen);
	if (ret) {
		qmp_close(q);
		return ret;
	}
	*out = q;
	return 0;
}

void qmp_close(struct qmp *q)
{
	if (!q)
		return;
	if (q->fd >= 0)
		close(q->fd);
	free(q->buf);
	free(q);
}

/* Add the scalar statistics of one StatsResult @r named in @names to @sums. */
static int add_result(const cJSON *r, const char *const *names, size_t n, uint64_t *sums)
{
	const cJSON *st = cJSON_GetObjectItemCaseSensitive(r, "stats"), *s, *nm, *v;
	size_t i;

	if (!cJSON_IsArray(st))
		return -EPROTO;
	cJSON_ArrayForEach(s, st) {
		nm = cJSON_GetObjectItemCaseSensitive(s, "name");
		v = cJSON_GetObjectItemCaseSensitive(s, "value");
		if (!cJSON_IsString(nm) || !v)
			return -EPROTO;
		for (i = 0; i < n && strcmp(names[i], nm->valuestring); i++)
			;
		if (i == n || !cJSON_IsNumber(v) || v->valuedouble < 0)
			continue;         /* not asked for, or a histogram */
		sums[i] = (sums[i] == QMP_STAT_ABSENT ? 0 : sums[i]) +
			  (uint64_t)v->valuedouble;
	}
	return 0;
}

/* QEMU's {"error": {"class": ..., "desc": ...}} into @err. */
static int remote_error(const cJSON *e, char *err, size_t errlen)
{
	const cJSON *c = cJSON_GetObjectItemCaseSensitive(e, "class"),
		    *d = cJSON_GetObjectItemCaseSensitive(e, "desc");

	snprintf(err, errlen, "QEMU answered query-stats with %s: %s",
		 cJSON_IsString(c) ? c->valuestring : "an error",
		 cJSON_IsString(d) ? d->valuestring : "(no description)");
	return -EREMOTEIO;
}

static int parse_results(const cJSON *ret, const char *const *names, size_t n,
			 uint64_t *sums, int *nvcpus)
{
	const cJSON *r, *pr;
	int rc = 0;

	cJSON_ArrayForEach(r, ret) {
		pr = cJSON_GetObjectItemCaseSensitive(r, "provider");
		if (!cJSON_IsString(pr))
			return -EPROTO;
		if (strcmp(pr->valuestring, "kvm"))
			continue;
		rc = add_result(r, names, n, sums);
		if (rc)
			return rc;
		(*nvcpus)++;
	}
	return *nvcpus ? 0 : -ENODATA;
}

int qmp_stats_parse(const char *json, const char *const *names, size_t n, uint64_t *sums,
		    int *nvcpus, char *err, size_t errlen)
{
	cJSON *root = cJSON_Parse(json);
	const cJSON *ret, *e;
	size_t i;
	int rc;

	*nvcpus = 0;
	for (i = 0; i < n; i++)
		sums[i] = QMP_STAT_ABSENT;
	ret = cJSON_GetObjectItemCaseSensitive(root, "return");
	e = cJSON_GetObjectItemCaseSensitive(root, "error");
	if (e)
		rc = remote_error(e, err, errlen);
	else if (!cJSON_IsArray(ret))
		rc = -EPROTO;
	else
		rc = parse_results(ret, names, n, sums, nvcpus);
	if (rc == -EPROTO)
		snprintf(err, errlen, "not a query-stats reply: %.80s", json);
	else if (rc == -ENODATA)
		snprintf(err, errlen, "query-stats returned no kvm vCPU statistics (the VM "
			 "does not run under KVM)");
	cJSON_Delete(root);
	return rc;
}

int qmp_execute(struct qmp *q, const char *cmd, char **reply, int timeout_ms)
{
	int ret = send_cmd(q, cmd);

	*reply = NULL;
	return ret ?: read_reply(q, reply, timeout_ms);
}

/* The query-stats command for @names (JSON strings: names of [A-Za-z0-9_] only). */
static char *stats_cmd(const char *const *names, size_t n)
{
	size_t i, cap = 128, used;
	char *c;

	for (i = 0; i < n; i++) {
		if (strspn(names[i], "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			   "0123456789_") != strlen(names[i]))
			return NULL;
		cap += strlen(names[i]) + 3;
	}
	c = malloc(cap);
	if (!c)
		return NULL;
	used = (size_t)snprintf(c, cap, "{\"execute\":\"query-stats\",\"arguments\":"
				"{\"target\":\"vcpu\",\"providers\":[{\"provider\":\"kvm\","
				"\"names\":[");
	for (i = 0; i < n; i++)
		used += (size_t)snprintf(c + used, cap - used, "%s\"%s\"", i ? "," : "",
					 names[i]);
	snprintf(c + used, cap - used, "]}]}}\n");
	return c;
}

int qmp_vcpu_stats(struct qmp *q, const char *const *names, size_t n, uint64_t *sums,
		   int *nvcpus, int timeout_ms, char *err, size_t errlen)
{
	char *line = NULL, *cmd = stats_cmd(names, n);
	int ret = cmd ? send_cmd(q, cmd) : -EINVAL;

	free(cmd);
	ret = ret ?: read_reply(q, &line, timeout_ms);
	if (ret) {
		snprintf(err, errlen, "QMP query-stats: %s", strerror(-ret));
		return ret;
	}
	ret = qmp_stats_parse(line, names, n, sums, nvcpus, err, errlen);
	free(line);
	return ret;
}

#else /* !HAVE_CJSON: the static guest agent, which never asks QEMU */

static int no_cjson(char *err, size_t errlen)
{
	snprintf(err, errlen, "built without cJSON: no QMP client");
	return -ENOTSUP;
}

int qmp_open(struct qmp **out, const char *path, int timeout_ms, char *err, size_t errlen)
{
	(void)path;
	(void)timeout_ms;
	*out = NULL;
	return no_cjson(err, errlen);
}

void qmp_close(struct qmp *q)
{
	(void)q;
}

int qmp_execute(struct qmp *q, const char *cmd, char **reply, int timeout_ms)
{
	(void)q;
	(void)cmd;
	(void)timeout_ms;
	*reply = NULL;
	return -ENOTSUP;
}

int qmp_stats_parse(const char *json, const char *const *names, size_t n, uint64_t *sums,
		    int *nvcpus, char *err, size_t errlen)
{
	(void)json;
	(void)names;
	(void)n;
	(void)sums;
	*nvcpus = 0;
	return no_cjson(err, errlen);
}

int qmp_vcpu_stats(struct qmp *q, const char *const *names, size_t n, uint64_t *sums,
		   int *nvcpus, int timeout_ms, char *err, size_t errlen)
{
	(void)q;
	(void)timeout_ms;
	return qmp_stats_parse(NULL, names, n, sums, nvcpus, err, errlen);
}

#endif
