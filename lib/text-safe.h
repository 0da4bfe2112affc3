/* SPDX-License-Identifier: MIT */
/*
 * text-safe.h - the one rule per output kind for text that came from
 * outside the program (a results database: names, keys, messages, values),
 * so that printing it can never be turned against the reader. Every
 * output of such text goes through text_put() or text_dup() with its kind.
 */
#ifndef CVMBENCH_TEXT_SAFE_H
#define CVMBENCH_TEXT_SAFE_H

#include <stdio.h>

enum text_kind {
	/*
	 * A terminal. Control characters (C0 with CR, LF and TAB, DEL, C1,
	 * the bidirectional overrides and U+2028/U+2029) are shown as escapes
	 * (\n \r \t, \x1b, \u0085, \u202e), never sent; each byte that is not
	 * part of valid UTF-8 (truncated, overlong, surrogate) is shown as
	 * \xNN; the rest, valid printable UTF-8, is kept. For display only:
	 * a backslash is kept as it is, so the escapes cannot be undone.
	 */
	TEXT_TERM,
	/*
	 * A value inside a Markdown line (heading, table cell, caption, link
	 * text): what TEXT_TERM shows, so no line break, then every Markdown
	 * metacharacter that could start markup backslash-escaped:
	 * \ ` * _ [ ] < > | # & ~ (a ``` fence, a table's |, link and image
	 * text, HTML and entities, headings, emphasis, strikethrough).
	 */
	TEXT_MD,
	/* HTML text or attribute: what TEXT_TERM shows, & < > " ' as references */
	TEXT_HTML,
	/*
	 * Valid UTF-8 for JSON: each byte that is not part of valid UTF-8
	 * becomes U+FFFD; the rest is kept (the JSON printer escapes control
	 * characters as \u00XX).
	 */
	TEXT_UTF8,
};

/* Keep LF and TAB as they are: a preformatted block (TEXT_TERM, TEXT_HTML). */
#define TEXT_LINES 0x1

void text_put(FILE *f, const char *s, enum text_kind kind, unsigned int flags);
char *text_dup(const char *s, enum text_kind kind, unsigned int flags);

#endif
