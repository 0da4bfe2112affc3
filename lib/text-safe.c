// SPDX-License-Identifier: MIT
/*
 * text-safe.c - text from outside the program made safe for one kind of
 * output (text-safe.h says each rule): a terminal, a Markdown line, HTML,
 * JSON's UTF-8. One walk over the text, a valid UTF-8 character or an
 * invalid byte at a time; each kind decides what it writes for it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "text-safe.h"

#define MD_META "\\`*_[]<>|#&~"

/*
 * The length (1-4) of the valid UTF-8 sequence at @s, its code point in
 * *@cp; 0 when @s[0] starts none (a stray continuation byte, a lead byte
 * of an overlong form, a truncated sequence, a surrogate, beyond U+10FFFF).
 */
static int utf8_next(const unsigned char *s, unsigned int *cp)
{
	static const unsigned int least[] = { 0, 0, 0x80, 0x800, 0x10000 };
	int n = s[0] < 0x80 ? 1 : s[0] < 0xc2 ? 0 : s[0] < 0xe0 ? 2 : s[0] < 0xf0 ? 3 :
		s[0] < 0xf5 ? 4 : 0;
	int i;

	if (!n)
		return 0;
	*cp = n == 1 ? s[0] : s[0] & (0x7fu >> n);
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		*cp = *cp << 6 | (s[i] & 0x3f);
	}
	if (*cp < least[n] || *cp > 0x10ffff || (*cp >= 0xd800 && *cp <= 0xdfff))
		return 0;
	return n;
}

/* A character a terminal would act on or that reorders or breaks lines. */
static int is_control(unsigned int cp)
{
	return cp < 0x20 || (cp >= 0x7f && cp < 0xa0) || cp == 0x200e || cp == 0x200f ||
	       (cp >= 0x2028 && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069);
}

/* Bytes that are text to @kind, each written with @kind's own escaping. */
static void put_plain(FILE *f, const char *s, size_t n, enum text_kind kind)
{
	static const char html_chars[] = "&<>\"'";
	static const char *const html_refs[] = { "&amp;", "&lt;", "&gt;", "&quot;", "&#39;" };
	const char *h;
	size_t i;

	for (i = 0; i < n; i++) {
		h = kind == TEXT_HTML ? strchr(html_chars, s[i]) : NULL;
		if (h)
			fputs(html_refs[h - html_chars], f);
		else if (kind == TEXT_MD && strchr(MD_META, s[i]))
			fprintf(f, "\\%c", s[i]);
		else
			fputc(s[i], f);
	}
}

/* How a control character @cp (or, @invalid, the byte @cp) is shown. */
static void put_shown(FILE *f, unsigned int cp, int invalid, enum text_kind kind)
{
	char b[16];

	if (!invalid && (cp == '\n' || cp == '\r' || cp == '\t'))
		snprintf(b, sizeof(b), "\\%c", cp == '\n' ? 'n' : cp == '\r' ? 'r' : 't');
	else if (invalid || cp < 0x80)
		snprintf(b, sizeof(b), "\\x%02x", cp);
	else
		snprintf(b, sizeof(b), "\\u%04x", cp);
	put_plain(f, b, strlen(b), kind);
}

/**
 * text_put() - write @s (NULL: nothing) to @f by the rule of @kind
 * (text-safe.h); @flags: TEXT_LINES keeps LF and TAB.
 */
void text_put(FILE *f, const char *s, enum text_kind kind, unsigned int flags)
{
	const unsigned char *p = (const unsigned char *)s;
	unsigned int cp = 0;
	int n;

	while (p && *p) {
		n = utf8_next(p, &cp);
		if (!n && kind == TEXT_UTF8)
			fputs("\xef\xbf\xbd", f);
		else if (!n)
			put_shown(f, *p, 1, kind);
		else if (kind != TEXT_UTF8 && is_control(cp) &&
			 !(flags & TEXT_LINES && (cp == '\n' || cp == '\t')))
			put_shown(f, cp, 0, kind);
		else
			put_plain(f, (const char *)p, (size_t)n, kind);
		p += n ? n : 1;
	}
}

/**
 * text_dup() - @s by the rule of @kind as a new string (free() it), or
 * NULL when out of memory; NULL @s gives "".
 */
char *text_dup(const char *s, enum text_kind kind, unsigned int flags)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	text_put(f, s, kind, flags);
	if (fclose(f)) {
		free(buf);
		return NULL;
	}
	return buf;
}
