// SPDX-License-Identifier: MIT
/*
 * report-html.c - the HTML backend of the report: one self-contained page,
 * every text escaped by TEXT_HTML of text-safe.h (& < > " ' as references,
 * control characters shown as escapes; preformatted text keeps LF and TAB).
 */
#include <stdio.h>

#include "report.h"
#include "text-safe.h"

static void esc(FILE *f, const char *s)
{
	text_put(f, s, TEXT_HTML, 0);
}

static const char style[] =
	"body{font-family:sans-serif;margin:1em 2em;max-width:80em;color:#222;"
	"line-height:1.35}h1{font-size:1.5em;margin:0.3em 0}h2{font-size:1.25em;"
	"margin:0.8em 0 0.3em;border-bottom:1px solid #ddd}h3{font-size:1.05em;margin:0.6em 0 0.3em}"
	"table{border-collapse:collapse;margin:0;font-size:0.92em;line-height:1.2}"
	"th,td{border:1px solid #ccc;padding:0.15em 0.5em;text-align:left;"
	"vertical-align:top;overflow-wrap:break-word}th{background:#f0f0f0}"
	"div.wide{overflow-x:auto;max-width:100%;margin:0.4em 0 1.2em}"
	"details td:first-child{white-space:nowrap}"
	"details td:nth-child(2){overflow-wrap:anywhere;min-width:20em}"
	"td.num{text-align:right;white-space:nowrap}pre{background:#f6f6f6;"
	"padding:0.8em;overflow:auto}img{max-width:100%;border:1px solid #eee}"
	"figure{margin:0.5em 0 1.5em}figcaption{font-size:0.9em;color:#444}"
	"ul.toc{padding:0;margin:0.3em 0}ul.toc li{display:inline;"
	"margin-right:1em}details{margin:0.3em 0}summary{cursor:pointer;"
	"font-weight:bold}";

static void html_begin(FILE *f, const char *title)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<title>", f);
	esc(f, title);
	fprintf(f, "</title>\n<style>%s</style>\n</head>\n<body>\n<h1>", style);
	esc(f, title);
	fputs("</h1>\n", f);
}

static void html_end(FILE *f)
{
	fputs("</body>\n</html>\n", f);
}

static void html_heading(FILE *f, int level, const char *id, const char *text)
{
	fprintf(f, "<h%d", level);
	if (id) {
		fputs(" id=\"", f);
		esc(f, id);
		fputc('"', f);
	}
	fputc('>', f);
	esc(f, text);
	fprintf(f, "</h%d>\n", level);
}

static void html_para(FILE *f, const char *text)
{
	fputs("<p>", f);
	esc(f, text);
	fputs("</p>\n", f);
}

static void html_pre(FILE *f, const char *text)
{
	fputs("<pre>", f);
	text_put(f, text, TEXT_HTML, TEXT_LINES);
	fputs("</pre>\n", f);
}

static void html_table_begin(FILE *f, const char *const *head, int ncols)
{
	int i;

	fputs("<div class=\"wide\"><table>\n<tr>", f);
	for (i = 0; i < ncols; i++) {
		fputs("<th>", f);
		esc(f, head[i]);
		fputs("</th>", f);
	}
	fputs("</tr>\n", f);
}

/* Right-align cells that are numbers (or "-"). */
static int numeric(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!(*s >= '0' && *s <= '9') && *s != '.' && *s != '-')
			return 0;
	return 1;
}

static void html_table_row(FILE *f, const char *const *cells, int ncols)
{
	int i;

	fputs("<tr>", f);
	for (i = 0; i < ncols; i++) {
		fputs(numeric(cells[i]) ? "<td class=\"num\">" : "<td>", f);
		esc(f, cells[i]);
		fputs("</td>", f);
	}
	fputs("</tr>\n", f);
}

static void html_table_end(FILE *f)
{
	fputs("</table></div>\n", f);
}

static void html_toc(FILE *f, const char *const *ids, const char *const *texts, int n)
{
	int i;

	fputs("<nav><ul class=\"toc\">\n", f);
	for (i = 0; i < n; i++) {
		fputs("<li><a href=\"#", f);
		esc(f, ids[i]);
		fputs("\">", f);
		esc(f, texts[i]);
		fputs("</a></li>\n", f);
	}
	fputs("</ul></nav>\n", f);
}

static void html_fold_begin(FILE *f, const char *summary, int open)
{
	fprintf(f, "<details%s><summary>", open ? " open" : "");
	esc(f, summary);
	fputs("</summary>\n", f);
}

static void html_fold_end(FILE *f)
{
	fputs("</details>\n", f);
}

static void html_image(FILE *f, const char *name, const char *caption,
		       const char *source)
{
	fputs("<figure>\n<a href=\"", f);
	esc(f, name);
	fputs(".svg\"><img src=\"", f);
	esc(f, name);
	fputs(".png\" alt=\"", f);
	esc(f, caption);
	fputs("\"></a>\n<figcaption>", f);
	esc(f, caption);
	fputs("<br>", f);
	esc(f, source);
	fputs(" (<a href=\"", f);
	esc(f, name);
	fputs(".svg\">SVG</a>, <a href=\"", f);
	esc(f, name);
	fputs(".png\">PNG</a>)</figcaption>\n</figure>\n", f);
}

const struct report_ops report_html_ops = {
	.ext = "html",
	.begin = html_begin,
	.end = html_end,
	.heading = html_heading,
	.toc = html_toc,
	.fold_begin = html_fold_begin,
	.fold_end = html_fold_end,
	.para = html_para,
	.pre = html_pre,
	.table_begin = html_table_begin,
	.table_row = html_table_row,
	.table_end = html_table_end,
	.image = html_image,
};
