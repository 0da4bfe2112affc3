// SPDX-License-Identifier: MIT
/*
 * reply-line.c - the request and reply lines of a warm call, parsed and
 * formatted by hand (see reply-line.h for why).
 */
#include <string.h>

#include "reply-line.h"

int request_parse_invoke(const char *line, unsigned long *seq)
{
	unsigned long v = 0, digit;
	const char *p;

	if (strncmp(line, "invoke ", 7))
		return -1;
	for (p = line + 7; *p >= '0' && *p <= '9'; p++) {
		digit = (unsigned long)(*p - '0');
		if (v > (-1UL - digit) / 10)
			return -1;      /* does not fit */
		v = v * 10 + digit;
	}
	if (p == line + 7 || *p)
		return -1;
	*seq = v;
	return 0;
}

static char *put_str(char *p, const char *s)
{
	size_t n = strlen(s);

	memcpy(p, s, n);
	return p + n;
}

static char *put_u64(char *p, unsigned long long v)
{
	char tmp[20];
	int n = 0;

	do {
		tmp[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (n)
		*p++ = tmp[--n];
	return p;
}

static char *put_s64(char *p, long long v)
{
	if (v >= 0)
		return put_u64(p, (unsigned long long)v);
	*p++ = '-';
	return put_u64(p, -(unsigned long long)v);
}

int reply_line_done_none(char *buf, unsigned long seq, long long fn_ns)
{
	char *p = buf;

	p = put_str(p, "done ");
	p = put_u64(p, seq);
	p = put_str(p, " ok=1 fn_ns=");
	p = put_s64(p, fn_ns);
	p = put_str(p, "\ndigest ");
	p = put_u64(p, seq);
	p = put_str(p, " none\n");
	*p = '\0';
	return (int)(p - buf);
}
