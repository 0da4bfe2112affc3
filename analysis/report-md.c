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

static void md_toc(FILE *f, const char *const *ids, const char *const *texts, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		fputs("- [", f);
		esc(f, texts[i], 1);
		fputs("](#", f);
		anchor(f, ids[i]);
		fputs(")\n", f);
	}
	fputc('\n', f);
}

static void md_fold_begin(FILE *f, const char *summary, int open)
{
	fprintf(f, "<details%s><summary>", open ? " open" : "");
	esc(f, summary, 1);
	fputs("</summary>\n\n", f);
}

static void md_fold_end(FILE *f)
{
	fputs("</details>\n\n", f);
}

static void md_image(FILE *f, const char *name, const char *what, const char *source)
{
	fputs("![", f);
	esc(f, what, 1);
	fprintf(f, "](%s.png)\n\n", name);
	esc(f, what, 0);
	fputs("  \n", f);
	esc(f, source, 0);
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
