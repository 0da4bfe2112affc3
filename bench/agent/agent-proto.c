// SPDX-License-Identifier: MIT
/*
 * agent-proto.c - encode and decode the lines of agent-proto.h. Strict:
 * a line that is not exactly one of the messages is -EPROTO, never a
 * guess; a name that cannot be sent as one word is -EINVAL at the sender.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent-proto.h"

static const char *const op_names[] = {
	[AGENT_OPEN] = "open", [AGENT_START] = "start", [AGENT_STOP] = "stop",
	[AGENT_EMIT] = "emit", [AGENT_CLOSE] = "close",
};

#define NOPS (sizeof(op_names) / sizeof(op_names[0]))

const char *agent_op_name(enum agent_op op)
{
	return (unsigned int)op < NOPS ? op_names[op] : "?";
}

static int op_parse(const char *s, enum agent_op *op)
{
	size_t i;

	for (i = 0; i < NOPS; i++)
		if (!strcmp(s, op_names[i])) {
			*op = (enum agent_op)i;
			return 0;
		}
	return -EPROTO;
}

/* A word: not empty, no space or control character, fits in @max. */
static int word_ok(const char *s, size_t max)
{
	size_t n = strlen(s), i;

	for (i = 0; i < n; i++)
		if ((unsigned char)s[i] <= ' ')
			return 0;
	return n > 0 && n < max;
}

/* The next word of *@p into @out; *@p then points past one space or at NUL. */
static int take_word(const char **p, char *out, size_t len)
{
	const char *s = *p, *e = s;

	while (*e && *e != ' ')
		e++;
	if (e == s || (size_t)(e - s) >= len || (*e == ' ' && (!e[1] || e[1] == ' ')))
		return -EPROTO;
	memcpy(out, s, (size_t)(e - s));
	out[e - s] = '\0';
	*p = *e ? e + 1 : e;
	return 0;
}

static int take_long(const char **p, long *v)
{
	char w[32], *end;

	if (take_word(p, w, sizeof(w)))
		return -EPROTO;
	errno = 0;
	*v = strtol(w, &end, 10);
	return *end || errno ? -EPROTO : 0;
}

static int window_str(enum probe_window w, long seq, char *buf, size_t len)
{
	if (w == PROBE_WINDOW_CELL)
		return snprintf(buf, len, "cell 0");
	if (w == PROBE_WINDOW_INVOCATION && seq >= 0)
		return snprintf(buf, len, "inv %ld", seq);
	return -EINVAL;
}

static int take_window(const char **p, enum probe_window *w, long *seq)
{
	char kind[8];

	if (take_word(p, kind, sizeof(kind)) || take_long(p, seq))
		return -EPROTO;
	if (!strcmp(kind, "cell") && *seq == 0)
		*w = PROBE_WINDOW_CELL;
	else if (!strcmp(kind, "inv") && *seq >= 0)
		*w = PROBE_WINDOW_INVOCATION;
	else
		return -EPROTO;
	return 0;
}

/* Free text: one line, control characters become spaces. */
static void flat_copy(char *out, size_t len, const char *s)
{
	size_t i;

	for (i = 0; s[i] && i + 1 < len; i++)
		out[i] = (unsigned char)s[i] < ' ' ? ' ' : s[i];
	out[i] = '\0';
}

/* snprintf's result as a line length: -ENOSPC if it did not fit. */
static int fitted(int n, size_t len)
{
	if (n < 0)
		return -EINVAL;
	return (size_t)n < len ? n : -ENOSPC;
}

static int has_window(enum agent_op op)
{
	return op == AGENT_START || op == AGENT_STOP || op == AGENT_EMIT;
}

int agent_req_encode(const struct agent_req *r, char *buf, size_t len)
{
	char win[40] = "";

	if (!word_ok(r->probe, AGENT_NAME_MAX) || (unsigned int)r->op >= NOPS)
		return -EINVAL;
	if (has_window(r->op) && window_str(r->w, r->seq, win, sizeof(win)) < 0)
		return -EINVAL;
	return fitted(snprintf(buf, len, "probe %s %s%s%s\n", agent_op_name(r->op),
			       r->probe, win[0] ? " " : "", win), len);
}

int agent_req_decode(const char *line, struct agent_req *r)
{
	char word[16];

	memset(r, 0, sizeof(*r));
	if (strncmp(line, "probe ", 6))
		return -EPROTO;
	line += 6;
	if (take_word(&line, word, sizeof(word)) || op_parse(word, &r->op) ||
	    take_word(&line, r->probe, sizeof(r->probe)))
		return -EPROTO;
	if (has_window(r->op) && take_window(&line, &r->w, &r->seq))
		return -EPROTO;
	return *line ? -EPROTO : 0;
}

static const char *const kind_names[] = {
	[AGENT_ROW_METRIC] = "metric", [AGENT_ROW_SKIP] = "skip",
	[AGENT_ROW_NOTE] = "note", [AGENT_ROW_ACK] = "ack",
};

static int encode_ack(const struct agent_row *r, const char *win, char *buf, size_t len)
{
	char text[AGENT_LINE_MAX];

	if ((unsigned int)r->op >= NOPS || r->err > 0)
		return -EINVAL;
	if (!r->err)
		return fitted(snprintf(buf, len, "ack %s %s %s 0\n", r->probe,
				       agent_op_name(r->op), win), len);
	flat_copy(text, sizeof(text), r->text[0] ? r->text : strerror(-r->err));
	return fitted(snprintf(buf, len, "ack %s %s %s %d %s\n", r->probe,
			       agent_op_name(r->op), win, r->err, text), len);
}

int agent_row_encode(const struct agent_row *r, char *buf, size_t len)
{
	char win[40] = "none 0", text[AGENT_LINE_MAX];

	if (!word_ok(r->probe, AGENT_NAME_MAX) || (unsigned int)r->kind > AGENT_ROW_ACK)
		return -EINVAL;
	if (r->w && window_str(r->w, r->seq, win, sizeof(win)) < 0)
		return -EINVAL;
	if (!r->w && r->kind != AGENT_ROW_ACK)
		return -EINVAL;
	flat_copy(text, sizeof(text), r->text);
	switch (r->kind) {
	case AGENT_ROW_METRIC:
		if (!word_ok(r->name, AGENT_NAME_MAX) || !word_ok(r->unit, sizeof(r->unit)))
			return -EINVAL;
		return fitted(snprintf(buf, len, "metric %s %s %s %.17g %s\n", r->probe, win,
				       r->name, r->value, r->unit), len);
	case AGENT_ROW_SKIP:
		return fitted(snprintf(buf, len, "skip %s %s %s\n", r->probe, win, text), len);
	case AGENT_ROW_NOTE:
		if (!word_ok(r->name, AGENT_NAME_MAX))
			return -EINVAL;
		return fitted(snprintf(buf, len, "note %s %s %s %s\n", r->probe, win, r->name,
				       text), len);
	default:
		return encode_ack(r, win, buf, len);
	}
}

/* "none 0" (acks of open and close) or a window. */
static int take_any_window(const char **p, enum probe_window *w, long *seq)
{
	if (!strncmp(*p, "none 0", 6) && ((*p)[6] == ' ' || !(*p)[6])) {
		*p += (*p)[6] ? 7 : 6;
		*w = 0;
		*seq = 0;
		return 0;
	}
	return take_window(p, w, seq);
}

static int decode_metric(const char *p, struct agent_row *r)
{
	char num[64], *end;

	if (take_word(&p, r->name, sizeof(r->name)) || take_word(&p, num, sizeof(num)) ||
	    take_word(&p, r->unit, sizeof(r->unit)) || *p)
		return -EPROTO;
	r->value = strtod(num, &end);
	return *end ? -EPROTO : 0;
}

static int decode_ack(const char *p, struct agent_row *r)
{
	long err;

	/* "ack P OP WINDOW ERR [MESSAGE]": here from ERR on */
	if (take_long(&p, &err) || err > 0 || err < -4095 || (!err && *p))
		return -EPROTO;
	r->err = (int)err;
	if (err && !*p)
		return -EPROTO;
	snprintf(r->text, sizeof(r->text), "%s", p);
	return 0;
}

int agent_row_decode(const char *line, struct agent_row *r)
{
	char kind[16], op[16];
	const char *p = line;
	size_t k;

	memset(r, 0, sizeof(*r));
	if (take_word(&p, kind, sizeof(kind)))
		return -EPROTO;
	for (k = 0; k < sizeof(kind_names) / sizeof(kind_names[0]); k++)
		if (!strcmp(kind, kind_names[k]))
			break;
	if (k > AGENT_ROW_ACK || take_word(&p, r->probe, sizeof(r->probe)))
		return -EPROTO;
	r->kind = (enum agent_row_kind)k;
	if (r->kind == AGENT_ROW_ACK && (take_word(&p, op, sizeof(op)) || op_parse(op, &r->op)))
		return -EPROTO;
	if (take_any_window(&p, &r->w, &r->seq) || (!r->w && r->kind != AGENT_ROW_ACK))
		return -EPROTO;
	switch (r->kind) {
	case AGENT_ROW_METRIC:
		return decode_metric(p, r);
	case AGENT_ROW_SKIP:
		snprintf(r->text, sizeof(r->text), "%s", p);
		return *p ? 0 : -EPROTO;
	case AGENT_ROW_NOTE:
		if (take_word(&p, r->name, sizeof(r->name)))
			return -EPROTO;
		snprintf(r->text, sizeof(r->text), "%s", p);
		return 0;
	default:
		return decode_ack(p, r);
	}
}
