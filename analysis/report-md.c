// SPDX-License-Identifier: MIT
/*
 * report-md.c - the Markdown backend of the report (CommonMark with GFM
 * tables). Text is backslash-escaped where Markdown would read it as
 * markup (\ ` * _ [ ] < > | #); line breaks in a table cell become
 * spaces; preformatted text goes in a fence longer than any run of
 * backticks inside it.
 */
#include <stdio.h>
#include <string.h>

#include "report.h"

static void esc(FILE *f, const char *s, int in_table)
{
	for (; s && *s; s++) {
		if (in_table && (*s == '\n' || *s == '\r')) {
			fputc(' ', f);
			continue;
		}
		if (strchr("\\`*_[]<>|#", *s))
			fputc('\\', f);
		fputc(*s, f);
	}
}

static void md_begin(FILE *f, const char *title)
{
	fputs("# ", f);
	esc(f, title, 1);
	fputs("\n\n", f);
}

static void md_end(FILE *f)
{
	(void)f;
}

static void md_heading(FILE *f, int level, const char *text)
{
	int i;

	for (i = 0; i < level; i++)
		fputc('#', f);
	fputc(' ', f);
	esc(f, text, 1);
	fputs("\n\n", f);
}

static void md_para(FILE *f, const char *text)
{
	esc(f, text, 0);
	fputs("\n\n", f);
}

static void md_pre(FILE *f, const char *text)
{
	size_t run = 0, longest = 0, i, len = strlen(text);

	for (i = 0; i < len; i++) {
		run = text[i] == '`' ? run + 1 : 0;
		longest = run > longest ? run : longest;
	}
	for (i = 0; i < (longest < 3 ? 3 : longest + 1); i++)
		fputc('`', f);
	fprintf(f, "\n%s%s", text, len && text[len - 1] == '\n' ? "" : "\n");
	for (i = 0; i < (longest < 3 ? 3 : longest + 1); i++)
		fputc('`', f);
	fputs("\n\n", f);
}

static void md_row(FILE *f, const char *const *cells, int ncols)
{
	int i;

	fputc('|', f);
	for (i = 0; i < ncols; i++) {
		fputc(' ', f);
		esc(f, cells[i], 1);
		fputs(" |", f);
	}
	fputc('\n', f);
}

static void md_table_begin(FILE *f, const char *const *head, int ncols)
{
	int i;

	md_row(f, head, ncols);
	fputc('|', f);
	for (i = 0; i < ncols; i++)
		fputs(" --- |", f);
	fputc('\n', f);
}

static void md_table_end(FILE *f)
{
	fputc('\n', f);
}

static void md_image(FILE *f, const char *name, const char *caption)
{
	fputs("![", f);
	esc(f, caption, 1);
	fprintf(f, "](%s.png)\n\n", name);
	esc(f, caption, 0);
	fprintf(f, " ([SVG](%s.svg), [PNG](%s.png))\n\n", name, name);
}

const struct report_ops report_md_ops = {
	.ext = "md",
	.begin = md_begin,
	.end = md_end,
	.heading = md_heading,
	.para = md_para,
	.pre = md_pre,
	.table_begin = md_table_begin,
	.table_row = md_row,
	.table_end = md_table_end,
	.image = md_image,
};
