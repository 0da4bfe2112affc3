// SPDX-License-Identifier: MIT
/*
 * reply-line.c - the hand-made request parser and reply formatter of a warm
 * call (workloads/reply-line.c) against libc: every line must be the one
 * snprintf() writes, every request read as strtoul() reads it, over edge
 * values and a million random ones.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reply-line.h"
#include "tap.h"

static unsigned long long rnd_state = 0x9e3779b97f4a7c15ULL;

static unsigned long long rnd(void)
{
	rnd_state ^= rnd_state << 13;
	rnd_state ^= rnd_state >> 7;
	rnd_state ^= rnd_state << 17;
	return rnd_state;
}

/* A value spread over every length of decimal number. */
static unsigned long long rnd_spread(void)
{
	return rnd() >> (rnd() % 64);
}

static int done_matches(unsigned long seq, long long fn_ns)
{
	char want[REPLY_LINE_DONE_MAX], got[REPLY_LINE_DONE_MAX];
	int wn = snprintf(want, sizeof(want), "done %lu ok=1 fn_ns=%lld\ndigest %lu none\n",
			  seq, fn_ns, seq);
	int gn = reply_line_done_none(got, seq, fn_ns);

	return wn == gn && !strcmp(want, got);
}

/* What strtoul() makes of "invoke " + @digits, the reference. */
static int reference_parse(const char *digits, unsigned long *v)
{
	char *end;

	if (!*digits || strspn(digits, "0123456789") != strlen(digits))
		return -1;
	errno = 0;
	*v = strtoul(digits, &end, 10);
	return errno || *end ? -1 : 0;
}

static int parse_matches(const char *digits)
{
	char line[64];
	unsigned long want = 0, got = 0;
	int wr, gr;

	snprintf(line, sizeof(line), "invoke %s", digits);
	wr = reference_parse(digits, &want);
	gr = request_parse_invoke(line, &got);
	return wr == gr && (wr || want == got);
}

int main(void)
{
	static const long long edges[] = { 0, 1, 9, 10, 99, 100, LLONG_MAX, -1, LLONG_MIN };
	static const char *const odd[] = { "", "x", "12x", " 12", "-1", "+5", "1 2",
		"18446744073709551615", "18446744073709551616", "99999999999999999999" };
	const size_t nedge = sizeof(edges) / sizeof(edges[0]);
	char digits[32], line[REPLY_LINE_DONE_MAX];
	unsigned long seq;
	int bad = 0, i;
	size_t k;

	tap_plan(8);
	for (k = 0; k < nedge; k++)
		bad += !done_matches((unsigned long)edges[k] , edges[k]);
	bad += !done_matches(ULONG_MAX, 0);
	tap_ok(!bad, "done line: edge values as snprintf writes them (%d differ)", bad);
	for (bad = 0, i = 0; i < 1000000; i++)
		bad += !done_matches((unsigned long)rnd_spread(), (long long)rnd_spread());
	tap_ok(!bad, "done line: a million random values as snprintf writes them (%d differ)", bad);

	for (bad = 0, k = 0; k < sizeof(odd) / sizeof(odd[0]); k++)
		bad += !parse_matches(odd[k]);
	tap_ok(!bad, "invoke: odd and overflowing numbers read as strtoul reads them (%d differ)", bad);
	for (bad = 0, i = 0; i < 1000000; i++) {
		snprintf(digits, sizeof(digits), "%llu", rnd_spread());
		bad += !parse_matches(digits);
	}
	tap_ok(!bad, "invoke: a million random numbers read as strtoul reads them (%d differ)", bad);
	tap_ok(request_parse_invoke("invoke", &seq) && request_parse_invoke("invoke 5\n", &seq) &&
	       request_parse_invoke("invoked 5", &seq) && request_parse_invoke("mem", &seq),
	       "invoke: no number, a newline, another word: not a call");
	tap_ok(!request_parse_invoke("invoke 007", &seq) && seq == 7, "invoke 007 is call 7");
	tap_ok(!request_parse_invoke("invoke 0", &seq) && seq == 0, "invoke 0 is call 0");
	tap_ok(reply_line_done_none(line, 7, 42) == (int)strlen("done 7 ok=1 fn_ns=42\ndigest 7 none\n"),
	       "the length returned is the line's");
	return tap_done();
}
