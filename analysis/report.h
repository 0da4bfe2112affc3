/* SPDX-License-Identifier: MIT */
/*
 * report.h - the pages of `cvmbench report`: one body (report.c) written
 * through a small set of document operations, once as Markdown
 * (report-md.c) and once as HTML (report-html.c). Each backend escapes
 * every text it is given.
 */
#ifndef CVMBENCH_REPORT_H
#define CVMBENCH_REPORT_H

#include <stddef.h>
#include <stdio.h>

struct cJSON;
struct figure;
struct out_dir;

/* One figure of the registry and what became of it. */
struct report_fig {
	const struct figure *fig;
	long long run_id;         /* the run it was drawn for */
	char file[96];            /* its files FILE.png, FILE.svg; "": the figure's name */
	int drawn;                /* NAME.png and NAME.svg are in the directory */
	int failed;               /* not drawn for an error (an Errors row), not for want of data */
	char why[768];            /* why not, when not drawn */
	char source[768];         /* where its data came from (report-source.c) */
};

struct report_ops {
	const char *ext;          /* "md", "html" */
	void (*begin)(FILE *f, const char *title);
	void (*end)(FILE *f);
	/* @id: an anchor the contents link to, or NULL */
	void (*heading)(FILE *f, int level, const char *id, const char *text);
	/* a list of links to the anchors @ids, reading @texts */
	void (*toc)(FILE *f, const char *const *ids, const char *const *texts, int n);
	/* a block the reader may fold away, open or not at first */
	void (*fold_begin)(FILE *f, const char *summary, int open);
	void (*fold_end)(FILE *f);
	void (*para)(FILE *f, const char *text);
	void (*pre)(FILE *f, const char *text);
	void (*table_begin)(FILE *f, const char *const *head, int ncols);
	void (*table_row)(FILE *f, const char *const *cells, int ncols);
	void (*table_end)(FILE *f);
	/* figure NAME.png (NAME.svg), captioned what it shows, then its source */
	void (*image)(FILE *f, const char *name, const char *what, const char *source);
};

extern const struct report_ops report_md_ops;
extern const struct report_ops report_html_ops;

const char *report_fig_file(const struct report_fig *rf);
void report_heading(FILE *f, const struct report_ops *ops, long long rid, const char *id,
		    const char *title);
void report_lead(FILE *f, const struct report_ops *ops, const struct cJSON *run,
		 const struct report_fig *figs, size_t n);
void report_lead_runs(FILE *f, const struct report_ops *ops, const struct cJSON *chosen,
		      const struct report_fig *figs, size_t n);
void report_suite(FILE *f, const struct report_ops *ops, const struct cJSON *top);
void report_env(FILE *f, const struct report_ops *ops, const struct cJSON *env, long long rid);
int report_write(const struct out_dir *dir, const char *name, const struct report_ops *ops,
		 const struct cJSON *top, const struct report_fig *figs, size_t n);

#endif
