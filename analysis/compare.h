/* SPDX-License-Identifier: MIT */
/*
 * compare.h - `cvmbench compare`: the cells of one or more databases,
 * loaded into memory (compare-load.c), given a side and a pair key
 * (compare-pair.c), paired with their baseline twin and summarized
 * (compare-stats.c) into a cJSON tree that compare-out.c prints as a
 * table, CSV or JSON; compare-find.c finds a cell's pair in that tree.
 * Service cells (the system suite) carry the metrics of their windows
 * (compare-catalog.c names them with a direction; compare-metrics.c gives
 * a pair's overhead per metric). docs/compare.md says what every number means.
 */
#ifndef CVMBENCH_COMPARE_H
#define CVMBENCH_COMPARE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct cJSON;
struct sqlite3;

/* A key = value fact (an environment fact, a cell note, a metric). */
struct cmp_kv {
	char *key, *value;
};

struct cmp_run {
	size_t db;                /* index into the database paths */
	int64_t id;
	char *vantage, *version;
	char *identity;           /* started_at, hostname, command line (merge's run identity) */
	struct cmp_kv *env;       /* sorted by key */
	size_t nenv;
	int dup;                  /* the same run as an earlier one: its cells not counted */
};

/* The values of one catalog metric over a cell's measured windows. */
struct cmp_svc {
	int metric;               /* index into the catalog (cmp_catalog_at()) */
	double *v;
	size_t n;
};

struct cmp_cell {
	size_t run;               /* index into cmp_data.runs */
	int64_t id;
	char *cell_key, *experiment, *workload, *size, *backend, *mode, *spec;
	int repeat;
	char *dim_value;          /* its value of the pairing dimension, as asked */
	char *side;               /* what it is on that dimension (NULL: unpaired) */
	char *why_unpaired;       /* why side is NULL */
	uint64_t pair;            /* cell_pair_hash() */
	double *lat_ns;           /* measured, successful invocations */
	size_t nlat;
	double mem_kb;            /* mean instance PSS (else RSS); NAN: none */
	struct cmp_kv *notes, *exits;  /* cell_param notes; vmexit rates per s */
	size_t nnotes, nexits;
	struct cmp_svc *svc;      /* service metrics, in catalog order */
	size_t nsvc;
	struct cmp_kv *svc_unknown;    /* parser, name of its metrics not in the catalog */
	size_t nunknown;
};

struct cmp_data {
	const char **paths;
	size_t npaths;
	struct cmp_run *runs;
	size_t nruns;
	struct cmp_cell *cells;
	size_t ncells;
};

struct cmp_opts {
	const char *pair_by;      /* a config key; "confidential" by default */
	const char *baseline;     /* its value on the baseline side */
	int allow_mismatch;
	double level;
	unsigned resamples;
	uint64_t seed;
};

/* One side of a pair: the cells (indexes into cmp_data.cells) pooled. */
struct cmp_side {
	size_t *cells;
	size_t n;
	const char *label;
};

int cmp_load(struct cmp_data *d, const char *path);
int cmp_grow(void **v, size_t n, size_t size);
void cmp_add_num(struct cJSON *o, const char *name, double v);
void cmp_add_range(struct cJSON *o, const char *name, double lo, double hi);
void cmp_csv_num(FILE *f, const struct cJSON *o, const char *name);
void cmp_csv_range(FILE *f, const struct cJSON *o, const char *name);
int cmp_load_handle(struct cmp_data *d, struct sqlite3 *h, const char *name);
void cmp_free(struct cmp_data *d);
void cmp_dedupe(struct cmp_data *d);
void cmp_cell_free(struct cmp_cell *c);
const char *cmp_kv_get(const struct cmp_kv *v, size_t n, const char *key);
const char *cmp_spec_value(const char *spec, const char *key, char *buf, size_t len);
int cmp_spec_pair(const char *spec, const char *pair_by, uint64_t *pair);

int cmp_assign(struct cmp_data *d, const struct cmp_opts *o);
struct cJSON *cmp_pairs(const struct cmp_data *d, const struct cmp_opts *o);
int cmp_env_diff(const struct cmp_data *d, const struct cmp_side *a,
		 const struct cmp_side *b, const struct cmp_opts *o, struct cJSON *out);
struct cJSON *cmp_pair_stats(const struct cmp_data *d, const struct cmp_side *base,
			     const struct cmp_side *other, const struct cmp_opts *o);

/* One metric of metrics/service-metrics.h (compare-catalog.c). */
struct cmp_metric_def {
	const char *parser, *name, *unit;
	int direction;            /* SVC_HIGHER, SVC_LOWER, SVC_INFO */
	const char *help;
};

const struct cmp_metric_def *cmp_catalog_at(size_t i);
int cmp_catalog_find(const char *parser, const char *name);
int cmp_catalog_parser(const char *parser);
const char *cmp_catalog_direction(int direction);
int cmp_cell_is_service(const struct cmp_cell *c);
int cmp_side_is_service(const struct cmp_data *d, const struct cmp_side *s);
int cmp_cell_svc_add(struct cmp_cell *c, const char *parser, const char *name, double v);
struct cJSON *cmp_svc_side_json(const struct cmp_data *d, const struct cmp_side *s, int metric);
struct cJSON *cmp_svc_metrics(const struct cmp_data *d, const struct cmp_side *base,
			      const struct cmp_side *other, const struct cmp_opts *o);
struct cJSON *cmp_svc_unknown(const struct cmp_data *d, const struct cmp_side *base,
			      const struct cmp_side *other);
int cmp_pair_is_service(const struct cJSON *pair);

/* cmp_pair_of(): how a cell stands in a pair */
#define CMP_ROLE_SIDE    1        /* the other (confidential) side */
#define CMP_ROLE_BASE    2        /* the baseline (regular twin) */
#define CMP_ROLE_REFUSED 4        /* the pair was refused (setups differ) */
const struct cJSON *cmp_pair_of(const struct cJSON *top, int64_t run, const char *cell_key,
				int *role);

void cmp_print_table(FILE *f, const struct cJSON *top);
void cmp_print_csv(FILE *f, const struct cJSON *top);
void cmp_print_svc_table(FILE *f, const struct cJSON *top);
void cmp_flags_text(const struct cJSON *list, const struct cJSON *p, char *buf, size_t len);
double cmp_range_at(const struct cJSON *o, const char *name, int i);
void cmp_print_svc_csv(FILE *f, const struct cJSON *m);
extern const char cmp_svc_csv_head[];

/* cmd-compare.c */
int compare_show_table(struct sqlite3 *h, const char *name, int json);

#endif
