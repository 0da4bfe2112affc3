// SPDX-License-Identifier: MIT
/*
 * agent-guest.c - the guest agent's control lines besides the probe
 * protocol (agent-guest.h): spawn requests split into an argv and checked
 * word by word, facts of the guest's environment, the ready line's fields.
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

int agent_spawn_parse(const char *line, struct agent_spawn *s, char *err, size_t errlen)
{
	char *p, *sp;

	memset(s, 0, sizeof(*s));
	if (strncmp(line, "spawn ", 6) || strlen(line + 6) >= sizeof(s->buf))
		return bad(err, errlen, "not a spawn request", line);
	strcpy(s->buf, line + 6);
	s->argv[s->argc++] = (char *)AGENT_GUEST_CVMFN;
	p = s->buf;
	sp = strchr(p, ' ');
	if (!sp || (*sp = '\0', parse_port(p, &s->port)))
		return bad(err, errlen, "no instance port number (0 to 28) in", line);
	for (p = sp + 1;; p = sp + 1) {
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
	if (strcmp(s->argv[1], "serve"))
		return bad(err, errlen, "only `cvmfn serve` is started, not", s->argv[1]);
	return 0;
}

int agent_spawn_encode(int port, char *const args[], char *line, size_t len,
		       char *err, size_t errlen)
{
	size_t o;
	int i, n;

	if (port < 0 || port >= AGENT_MAX_PORTS) {
		snprintf(err, errlen, "spawn: instance port %d out of range", port);
		return -EINVAL;
	}
	n = snprintf(line, len, "spawn %d", port);
	o = (size_t)n;
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
