// SPDX-License-Identifier: MIT
/*
 * tests/unit/text-safe.c - the rules for text from a database
 * (lib/text-safe.c) against hostile payloads: a terminal title and a
 * screen clear, CR and LF, invalid UTF-8 (a stray \xff, a truncated
 * sequence, an overlong slash), a ``` fence, a table's |. Each output is
 * checked against a string written out by hand. Then analysis/'s JSON
 * printer (valid UTF-8 whatever the strings) and its terminal rewrite of
 * a tree.
 */
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "analysis.h"
#include "tap.h"
#include "text-safe.h"

/* One payload and what each rule makes of it. */
struct payload {
	const char *what, *in, *term, *md, *html, *utf8;
};

static const struct payload payloads[] = {
	{ "terminal title (ESC ] 0 ; title BEL)", "a\x1b]0;pwned\x07z",
	  "a\\x1b]0;pwned\\x07z", "a\\\\x1b\\]0;pwned\\\\x07z", "a\\x1b]0;pwned\\x07z",
	  "a\x1b]0;pwned\x07z" },
	{ "screen clear (ESC [ 2 J)", "\x1b[2Jx", "\\x1b[2Jx", "\\\\x1b\\[2Jx", "\\x1b[2Jx",
	  "\x1b[2Jx" },
	{ "CR and LF forging a row", "k\r\nok 1", "k\\r\\nok 1", "k\\\\r\\\\nok 1",
	  "k\\r\\nok 1", "k\r\nok 1" },
	{ "TAB, DEL, C1 NEL (U+0085), RLO (U+202E)", "a\tb\x7f" "c\xc2\x85" "d\xe2\x80\xae",
	  "a\\tb\\x7fc\\u0085d\\u202e", "a\\\\tb\\\\x7fc\\\\u0085d\\\\u202e",
	  "a\\tb\\x7fc\\u0085d\\u202e", "a\tb\x7f" "c\xc2\x85" "d\xe2\x80\xae" },
	{ "invalid byte \\xff", "a\xff" "b", "a\\xffb", "a\\\\xffb", "a\\xffb",
	  "a\xef\xbf\xbd" "b" },
	{ "truncated sequence \\xe2\\x82", "x\xe2\x82", "x\\xe2\\x82", "x\\\\xe2\\\\x82",
	  "x\\xe2\\x82", "x\xef\xbf\xbd\xef\xbf\xbd" },
	{ "overlong / (\\xc0\\xaf)", "\xc0\xaf", "\\xc0\\xaf", "\\\\xc0\\\\xaf", "\\xc0\\xaf",
	  "\xef\xbf\xbd\xef\xbf\xbd" },
	{ "surrogate U+D800 (\\xed\\xa0\\x80)", "\xed\xa0\x80", "\\xed\\xa0\\x80",
	  "\\\\xed\\\\xa0\\\\x80", "\\xed\\xa0\\x80",
	  "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd" },
	{ "a ``` fence", "```\nrest", "```\\nrest", "\\`\\`\\`\\\\nrest", "```\\nrest",
	  "```\nrest" },
	{ "a table's |", "a|b", "a|b", "a\\|b", "a|b", "a|b" },
	{ "link, HTML, heading, entity", "# [x](y) <b>&amp;'\"",
	  "# [x](y) <b>&amp;'\"", "\\# \\[x\\](y) \\<b\\>\\&amp;'\"",
	  "# [x](y) &lt;b&gt;&amp;amp;&#39;&quot;", "# [x](y) <b>&amp;'\"" },
	{ "valid UTF-8 kept (é, €, µs, 😀)", "\xc3\xa9 \xe2\x82\xac \xc2\xb5s \xf0\x9f\x98\x80",
	  "\xc3\xa9 \xe2\x82\xac \xc2\xb5s \xf0\x9f\x98\x80",
	  "\xc3\xa9 \xe2\x82\xac \xc2\xb5s \xf0\x9f\x98\x80",
	  "\xc3\xa9 \xe2\x82\xac \xc2\xb5s \xf0\x9f\x98\x80",
	  "\xc3\xa9 \xe2\x82\xac \xc2\xb5s \xf0\x9f\x98\x80" },
};

#define NPAY (sizeof(payloads) / sizeof(payloads[0]))

static void check(const char *rule, const struct payload *p, enum text_kind kind,
		  unsigned int flags, const char *want)
{
	char *got = text_dup(p->in, kind, flags);

	if (!tap_ok(got && !strcmp(got, want), "%s: %s", rule, p->what))
		printf("#   got:  '%s'\n#   want: '%s'\n", got ? got : "(null)", want);
	free(got);
}

static void test_rules(void)
{
	size_t i;

	for (i = 0; i < NPAY; i++) {
		check("terminal", &payloads[i], TEXT_TERM, 0, payloads[i].term);
		check("markdown", &payloads[i], TEXT_MD, 0, payloads[i].md);
		check("html", &payloads[i], TEXT_HTML, 0, payloads[i].html);
		check("json utf-8", &payloads[i], TEXT_UTF8, 0, payloads[i].utf8);
	}
}

static void test_lines(void)
{
	static const struct payload pre = { "preformatted: LF and TAB kept, CR and ESC shown",
		"k = v\r\n\tw<\x1b[2J\n", "k = v\\r\n\tw<\\x1b[2J\n", NULL,
		"k = v\\r\n\tw&lt;\\x1b[2J\n", NULL };
	char *s = text_dup(NULL, TEXT_TERM, 0);

	check("terminal", &pre, TEXT_TERM, TEXT_LINES, pre.term);
	check("html", &pre, TEXT_HTML, TEXT_LINES, pre.html);
	tap_ok(s && !strcmp(s, ""), "NULL is the empty string");
	free(s);
}

/* The JSON printer: control characters as \u00XX, invalid UTF-8 as U+FFFD. */
static void test_json(void)
{
	cJSON *o = cJSON_CreateObject();
	char *text;

	cJSON_AddStringToObject(o, "k\xff", "\x1b]0;t\x07\r\n\xe2\x82|\xc0\xaf");
	text = analysis_json_print(o, 0);
	if (!tap_ok(text && !strcmp(text, "{\"k\xef\xbf\xbd\":\"\\u001b]0;t\\u0007\\r\\n"
				    "\xef\xbf\xbd\xef\xbf\xbd|\xef\xbf\xbd\xef\xbf\xbd\"}"),
		    "JSON: control bytes escaped, invalid UTF-8 in a name and a value as U+FFFD"))
		printf("#   got: '%s'\n", text ? text : "(null)");
	free(text);
	tap_ok(!analysis_json_term(o) && o->child && !strcmp(o->child->string, "k\\xff") &&
	       !strcmp(o->child->valuestring, "\\x1b]0;t\\x07\\r\\n\\xe2\\x82|\\xc0\\xaf"),
	       "terminal rewrite of a tree: its names and strings as a terminal shows them");
	cJSON_Delete(o);
}

int main(void)
{
	tap_plan((int)NPAY * 4 + 5);
	test_rules();
	test_lines();
	test_json();
	return tap_done();
}
