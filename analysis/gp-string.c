// SPDX-License-Identifier: MIT
/*
 * gp-string.c - strings for gnuplot. In the program text a string is
 * made of single-quoted constants: gnuplot expands no escape, no macro
 * (@name) and no backquote inside one; a quote is joined in as "'"; a
 * line break would end the command, so control characters are refused. In a data file a
 * label is a double-quoted field, which has no escape at all: a double
 * quote becomes a single one.
 *
 * The one rule for control characters in text from the database, the
 * same in every figure: a label is for reading (the database keeps the
 * exact text), so each control character (below 0x20, and 0x7f) is drawn
 * as a space, in a data-file field (gp_data_string()) and in a string
 * variable of the program (gp_printable(), figure_var_str()) alike.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "gp-string.h"

static int is_control(unsigned char c)
{
	return c < 0x20 || c == 0x7f;
}

/* A character of a label as drawn: the rule at the top of this file. */
static char printable(char c)
{
	return is_control((unsigned char)c) ? ' ' : c;
}

/**
 * gp_printable() - @s into @buf (@len bytes, cut to fit, NUL-terminated)
 * with every control character made printable by the rule at the top of
 * this file, for a label given to gnuplot as a string variable.
 */
void gp_printable(char *buf, size_t len, const char *s)
{
	size_t i;

	if (!len)
		return;
	for (i = 0; i + 1 < len && s[i]; i++)
		buf[i] = printable(s[i]);
	buf[i] = '\0';
}

/**
 * gp_string_quote() - write @s into @buf as a gnuplot string expression
 * made of single-quoted constants: "it's" becomes 'it'."'".'s' (gnuplot
 * 5.4 misreads '' next to another quote, so a quote is never doubled but
 * joined in as the double-quoted constant "'", which has no escape in
 * it). NUL-terminated. Returns 0; -EINVAL when @s holds a control
 * character (newline, tab, ...); -ENOSPC when it does not fit in @len
 * bytes. On error @buf is the empty string: a truncated constant is never
 * handed on.
 */
int gp_string_quote(char *buf, size_t len, const char *s)
{
	static const char joint[] = "'.\"'\".'";    /* ' . "'" . ' */
	size_t need = 3, l = 0;
	const char *p;

	for (p = s; *p; p++) {
		if (is_control((unsigned char)*p)) {
			if (len)
				buf[0] = '\0';
			return -EINVAL;
		}
		need += *p == '\'' ? sizeof(joint) - 1 : 1;
	}
	if (need > len) {
		if (len)
			buf[0] = '\0';
		return -ENOSPC;
	}
	buf[l++] = '\'';
	for (p = s; *p; p++) {
		if (*p == '\'') {
			memcpy(buf + l, joint, sizeof(joint) - 1);
			l += sizeof(joint) - 1;
		} else {
			buf[l++] = *p;
		}
	}
	buf[l++] = '\'';
	buf[l] = '\0';
	return 0;
}

/* Bytes of @s to keep from its start/end so that no UTF-8 character is cut. */
static size_t utf8_back(const char *s, size_t at)
{
	while (at > 0 && ((unsigned char)s[at] & 0xC0) == 0x80)
		at--;
	return at;
}

/**
 * gp_data_string() - write @s to the data file @f as one double-quoted
 * field (columnheader, xticlabels): '"' is written as '\'', a control
 * character as ' '. An empty @s is written as "-" so that the field
 * still counts as a column. A label longer than GP_LABEL_MAX bytes is
 * cut in its middle ("head…tail": the end often says N=) so that it fits
 * beside or under a plot; the database keeps the whole text.
 */
void gp_data_string(FILE *f, const char *s)
{
	size_t len = strlen(s), head = len, tail = len, i;

	if (len > GP_LABEL_MAX) {
		head = utf8_back(s, GP_LABEL_MAX - GP_LABEL_TAIL - 1);
		tail = utf8_back(s, len - GP_LABEL_TAIL);
	}
	fputc('"', f);
	if (!*s)
		fputc('-', f);
	for (i = 0; i < len; i++) {
		if (i == head && head < tail) {
			fputs("\u2026", f);        /* … */
			i = tail;
		}
		fputc(s[i] == '"' ? '\'' : printable(s[i]), f);
	}
	fputc('"', f);
}

/**
 * gp_label_len() - the characters gp_data_string() writes of @s (a
 * multi-byte character counted as one), for a figure that makes room for
 * its longest label.
 */
size_t gp_label_len(const char *s)
{
	size_t n = 0, len = strlen(s);

	for (; *s; s++)
		n += ((unsigned char)*s & 0xC0) != 0x80;
	return len > GP_LABEL_MAX ? GP_LABEL_MAX : n;
}
