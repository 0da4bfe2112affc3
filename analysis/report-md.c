// SPDX-License-Identifier: MIT
/*
 * report-md.c - the Markdown backend of the report (CommonMark with GFM
 * tables). Every text stays on its line with its markup escaped (TEXT_MD
 * of text-safe.h: control characters shown as escapes, \ ` * _ [ ] < > |
 * # & ~ backslash-escaped); text inside HTML (a fold's summary) is
 * escaped as HTML; preformatted text goes in a fence longer than any run
 * of backticks inside it, with its control characters but LF and TAB
 * shown as escapes.
 */
#include <stdio.h>
#include <string.h>

#include "report.h"
#include "text-safe.h"

static void esc(FILE *f, const char *s)
{
	text_put(f, s, TEXT_MD, 0);
}

static void md_begin(FILE *f, const char *title)
{
	fputs("# ", f);
	esc(f, title);
	fputs("\n\n", f);
}

static void md_end(FILE *f)
{
	(void)f;
}

/* An anchor id is ours (a section or figure name): letters, digits, '-' only. */
static void anchor(FILE *f, const char *id)
{
	for (; *id; id++)
		fputc(strchr("abcdefghijklmnopqrstuvwxyz0123456789-", *id) ? *id : '-', f);
}

static void md_heading(FILE *f, int level, const char *id, const char *text)
{
	int i;

	if (id) {
		fputs("<a id=\"", f);
		anchor(f, id);
		fputs("\"></a>\n\n", f);
	}
	for (i = 0; i < level; i++)
		fputc('#', f);
	fputc(' ', f);
	esc(f, text);
	fputs("\n\n", f);
}

static void md_para(FILE *f, const char *text)
{
	esc(f, text);
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
	fputc('\n', f);
	text_put(f, text, TEXT_TERM, TEXT_LINES);
	fputs(len && text[len - 1] == '\n' ? "" : "\n", f);
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
		esc(f, cells[i]);
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

static void md_toc(FILE *f, const char *const *ids, const char *const *texts, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		fputs("- [", f);
		esc(f, texts[i]);
		fputs("](#", f);
		anchor(f, ids[i]);
		fputs(")\n", f);
	}
	fputc('\n', f);
}

static void md_fold_begin(FILE *f, const char *summary, int open)
{
	fprintf(f, "<details%s><summary>", open ? " open" : "");
	text_put(f, summary, TEXT_HTML, 0);
	fputs("</summary>\n\n", f);
}

static void md_fold_end(FILE *f)
{
	fputs("</details>\n\n", f);
}

static void md_image(FILE *f, const char *name, const char *what, const char *source)
{
	fputs("![", f);
	esc(f, what);
	fprintf(f, "](%s.png)\n\n", name);
	esc(f, what);
	fputs("  \n", f);
	esc(f, source);
	fprintf(f, " ([SVG](%s.svg), [PNG](%s.png))\n\n", name, name);
}

const struct report_ops report_md_ops = {
	.ext = "md",
	.begin = md_begin,
	.end = md_end,
	.heading = md_heading,
	.toc = md_toc,
	.fold_begin = md_fold_begin,
	.fold_end = md_fold_end,
	.para = md_para,
	.pre = md_pre,
	.table_begin = md_table_begin,
	.table_row = md_row,
	.table_end = md_table_end,
	.image = md_image,
};
