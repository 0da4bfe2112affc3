// SPDX-License-Identifier: MIT
/*
 * agent-guest.c - the guest agent's control lines besides the probe
 * protocol (agent-guest.h): spawn and seed requests split into an argv and
 * checked word by word, facts of the guest's environment, the ready line's
 * fields, the seed's memory lines.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent-guest.h"

static const char word_chars[] =
	"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.,:=/+-";

/* A word the agent will pass to execve: non-empty, only word_chars. */
static int word_ok(const char *w)
{
	return *w && strspn(w, word_chars) == strlen(w);
}

static int bad(char *err, size_t errlen, const char *what, const char *word)
{
	snprintf(err, errlen, "spawn: %s '%.80s'", what, word);
	return -EINVAL;
}

/* The port number: decimal, 0 .. AGENT_MAX_PORTS - 1. */
static int parse_port(const char *w, int *port)
{
	char *end;
	long v;

	if (!*w || strspn(w, "0123456789") != strlen(w) || strlen(w) > 3)
		return -EINVAL;
	v = strtol(w, &end, 10);
	if (v < 0 || v >= AGENT_MAX_PORTS)
		return -EINVAL;
	*port = (int)v;
	return 0;
}

/* The words of @p (split at single spaces, each checked) after argv[0]. */
static int split_words(char *p, struct agent_spawn *s, const char *line, char *err,
		       size_t errlen)
{
	char *sp;

	for (;; p = sp + 1) {
		sp = strchr(p, ' ');
		if (sp)
			*sp = '\0';
		if (!word_ok(p))
			return bad(err, errlen, *p ? "refused word" : "empty word in", *p ? p : line);
		if (s->argc == AGENT_SPAWN_MAXARGS + 1)
			return bad(err, errlen, "too many words in", line);
		s->argv[s->argc++] = p;
		if (!sp)
			break;
	}
	s->argv[s->argc] = NULL;
	return 0;
}

int agent_spawn_parse(const char *line, struct agent_spawn *s, char *err, size_t errlen)
{
	char *sp;

	memset(s, 0, sizeof(*s));
	if (strncmp(line, "spawn ", 6) || strlen(line + 6) >= sizeof(s->buf))
		return bad(err, errlen, "not a spawn request", line);
	strcpy(s->buf, line + 6);
	s->argv[s->argc++] = (char *)AGENT_GUEST_CVMFN;
	sp = strchr(s->buf, ' ');
	if (!sp || (*sp = '\0', parse_port(s->buf, &s->port)))
		return bad(err, errlen, "no instance port number (0 to 28) in", line);
	if (split_words(sp + 1, s, line, err, errlen))
		return -EINVAL;
	if (strcmp(s->argv[1], "serve"))
		return bad(err, errlen, "only `cvmfn serve` is started, not", s->argv[1]);
	return 0;
}

int agent_seed_parse(const char *line, struct agent_spawn *s, char *err, size_t errlen)
{
	size_t n = strlen(AGENT_SEED_REQ);

	memset(s, 0, sizeof(*s));
	s->port = -1;
	if (strncmp(line, AGENT_SEED_REQ, n) || strlen(line + n) >= sizeof(s->buf))
		return bad(err, errlen, "not a seed request", line);
	strcpy(s->buf, line + n);
	s->argv[s->argc++] = (char *)AGENT_GUEST_CVMFN;
	if (split_words(s->buf, s, line, err, errlen))
		return -EINVAL;
	if (strcmp(s->argv[1], "seed"))
		return bad(err, errlen, "only `cvmfn seed` is started as a seed, not", s->argv[1]);
	return 0;
}

/* " ARG ..." of @args after @o bytes of @line. 0, -EINVAL with @err or -E2BIG. */
static int encode_words(char *const args[], char *line, size_t len, size_t o, char *err,
			size_t errlen)
{
	int i, n;

	for (i = 0; args[i]; i++) {
		if (!word_ok(args[i]) || i == AGENT_SPAWN_MAXARGS)
			return bad(err, errlen, "argument cannot be sent to the guest", args[i]);
		n = snprintf(line + o, len - o, " %s", args[i]);
		if (n < 0 || (size_t)n >= len - o)
			return -E2BIG;
		o += (size_t)n;
	}
	return 0;
}

int agent_seed_encode(char *const args[], char *line, size_t len, char *err, size_t errlen)
{
	int n = snprintf(line, len, "%.*s", (int)strlen(AGENT_SEED_REQ) - 1, AGENT_SEED_REQ);

	return encode_words(args, line, len, (size_t)n, err, errlen);
}

int agent_spawn_encode(int port, char *const args[], char *line, size_t len,
		       char *err, size_t errlen)
{
	int n;

	if (port < 0 || port >= AGENT_MAX_PORTS) {
		snprintf(err, errlen, "spawn: instance port %d out of range", port);
		return -EINVAL;
	}
	n = snprintf(line, len, "spawn %d", port);
	return encode_words(args, line, len, (size_t)n, err, errlen);
}

int agent_fact_decode(char *line, char **key, char **value)
{
	char *sp;

	if (strncmp(line, "fact ", 5))
		return -EPROTO;
	*key = line + 5;
	sp = strchr(*key, ' ');
	if (!sp || sp == *key)
		return -EPROTO;
	*sp = '\0';
	*value = sp + 1;
	return 0;
}

int agent_ready_field(const char *line, const char *name, char *buf, size_t len)
{
	size_t n = strlen(name);
	const char *p;

	for (p = line; (p = strstr(p, name)); p += n) {
		if ((p == line || p[-1] == ' ') && p[n] == '=') {
			p += n + 1;
			snprintf(buf, len, "%.*s", (int)strcspn(p, " "), p);
			return 0;
		}
	}
	return -ENOENT;
}

int agent_mem_encode(const struct seed_child_mem *k, char *line, size_t len)
{
	int n = snprintf(line, len, "mem pid=%lld ppid=%lld pss_kb=%lld uss_kb=%lld "
			 "private_dirty_kb=%lld seed_shared_kb=%lld", k->pid, k->ppid,
			 k->m.pss_kb, k->m.uss_kb, k->m.private_dirty_kb, k->seed_shared_kb);

	return n < 0 || (size_t)n >= len ? -E2BIG : n;
}

int agent_mem_decode(const char *line, struct seed_child_mem *k)
{
	int end = 0;

	if (sscanf(line, "mem pid=%lld ppid=%lld pss_kb=%lld uss_kb=%lld private_dirty_kb=%lld "
		   "seed_shared_kb=%lld%n", &k->pid, &k->ppid, &k->m.pss_kb, &k->m.uss_kb,
		   &k->m.private_dirty_kb, &k->seed_shared_kb, &end) != 6 || line[end] || k->pid <= 0)
		return -EPROTO;
	return 0;
}

int agent_mem_end_decode(const char *line, long long *seed_pid, long long *seed_pss_kb,
			 int *frames)
{
	int end = 0;

	if (sscanf(line, "mem-end seed_pid=%lld seed_pss_kb=%lld frames=%d%n", seed_pid,
		   seed_pss_kb, frames, &end) != 3 || line[end] || *frames > 0)
		return -EPROTO;
	return 0;
}

int agent_seed_mem_parse(const char *line, int *pids, int max)
{
	const char *p = line + strlen(AGENT_SEED_MEM_REQ);
	int n = 0, used;
	long v;

	if (strncmp(line, AGENT_SEED_MEM_REQ, strlen(AGENT_SEED_MEM_REQ)))
		return -EPROTO;
	while (*p) {
		if (sscanf(p, " %ld%n", &v, &used) != 1 || v <= 0 || v > 0x7fffffff || n == max)
			return -EPROTO;
		pids[n++] = (int)v;
		p += used;
	}
	return n;
}
