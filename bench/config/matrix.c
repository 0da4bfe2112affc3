// SPDX-License-Identifier: MIT
/*
 * matrix.c - expand each experiment of a config into cells: the cartesian
 * product of its comma-list keys, times its repeats. Each cell carries its
 * spec (every key = value, verbatim, however long) and a stable key derived
 * from the keys not at their default (cell-hash.c). The cells are counted before any is made: more than the config's
 * max_cells is refused with the count.
 */
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cell-hash.h"
#include "config.h"

struct dimension {
	const struct config_key *key;
	struct config_values vals;
};

struct expansion {
	const struct config *cfg;
	struct cell *cells;
	size_t n, cap;
	char *err;
	size_t errlen;
};

static const char *lookup(const struct config_section *s, const char *key)
{
	size_t i;

	for (i = 0; s && i < s->nentries; i++)
		if (!strcmp(s->entries[i].key, key))
			return s->entries[i].value;
	return NULL;
}

static const struct config_section *defaults_of(const struct config *cfg)
{
	size_t i;

	for (i = 0; i < cfg->nsections; i++)
		if (cfg->sections[i].is_defaults)
			return &cfg->sections[i];
	return NULL;
}

static void free_dimensions(struct dimension *dims)
{
	size_t i;

	for (i = 0; dims && i < config_key_count; i++)
		config_values_free(&dims[i].vals);
	free(dims);
}

/* A matrix key's values; any other key's whole text as its one value. */
static int dimension_values(const struct config_key *k, const char *v,
			    struct config_values *vals)
{
	if (k->matrix)
		return config_values_split(k, v, vals);
	vals->n = 0;
	vals->v = malloc(sizeof(*vals->v));
	if (!vals->v)
		return -ENOMEM;
	vals->v[0] = strdup(v);
	if (!vals->v[0]) {
		free(vals->v);
		vals->v = NULL;
		return -ENOMEM;
	}
	vals->n = 1;
	return 0;
}

static int build_dimensions(const struct expansion *x, const struct config_section *s,
			    struct dimension **out)
{
	const struct config_section *defaults = defaults_of(x->cfg);
	struct dimension *dims = calloc(config_key_count, sizeof(*dims));
	const char *v;
	size_t i;

	if (!dims)
		goto err_nomem;
	for (i = 0; i < config_key_count; i++) {
		dims[i].key = &config_keys[i];
		v = lookup(s, dims[i].key->name);
		v = v ? v : lookup(defaults, dims[i].key->name);
		v = v ? v : dims[i].key->def;
		if (v && dimension_values(dims[i].key, v, &dims[i].vals))
			goto err_dims;
		if (!v || !dims[i].vals.n) {
			snprintf(x->err, x->errlen, "%s:%d: [experiment %s] has no %s: set it "
				 "there or in [defaults]", x->cfg->path, s->line, s->name,
				 dims[i].key->name);
			free_dimensions(dims);
			return -EINVAL;
		}
	}
	*out = dims;
	return 0;
err_dims:
	free_dimensions(dims);
err_nomem:
	snprintf(x->err, x->errlen, "%s: out of memory", x->cfg->path);
	return -ENOMEM;
}

/* The line of @key in experiment @s, or else in [defaults]; 0: not set. */
static int line_of(const struct config *cfg, const struct config_section *s,
		   const char *key)
{
	const struct config_section *d = defaults_of(cfg);
	size_t i;

	for (i = 0; i < s->nentries; i++)
		if (!strcmp(s->entries[i].key, key))
			return s->entries[i].line;
	for (i = 0; d && i < d->nentries; i++)
		if (!strcmp(d->entries[i].key, key))
			return d->entries[i].line;
	return 0;
}

static const struct config_values *values_of(const struct dimension *dims, const char *key)
{
	size_t i;

	for (i = 0; i < config_key_count; i++)
		if (!strcmp(dims[i].key->name, key))
			return &dims[i].vals;
	return NULL;
}

/* Every variant of the experiment is one its workloads have (config-variant.c). */
static int check_variants(const struct expansion *x, const struct config_section *s,
			  const struct dimension *dims)
{
	char why[512];

	if (!config_variants_check(values_of(dims, "workload"), values_of(dims, "vm-workloads"),
				   values_of(dims, "variant"), why, sizeof(why)))
		return 0;
	snprintf(x->err, x->errlen, "%s:%d: [experiment %s] variant: %s", x->cfg->path,
		 line_of(x->cfg, s, "variant"), s->name, why);
	return -EINVAL;
}

/* Whether @v holds a value other than @k's default. */
static int off_default(const struct config_key *k, const struct config_values *v)
{
	size_t i;

	for (i = 0; i < v->n; i++)
		if (!config_value_same(k, v->v[i], k->def))
			return 1;
	return 0;
}

/*
 * guest-accept = lazy must not meet a regular cell: a regular VM's RAM is
 * neither preallocated nor accepted (qemu allocates it on touch, mergeable),
 * so the key means nothing for it, and its eager and lazy cells would be the
 * same cell. The default (eager) written out changes nothing and passes.
 */
static int check_accept(const struct expansion *x, const struct config_section *s,
			const struct dimension *dims)
{
	const struct config_values *conf = values_of(dims, "confidential");
	const struct config_key *k = config_key_find("guest-accept");
	const char *text = lookup(s, k->name);
	size_t i;

	if (!text)
		text = lookup(defaults_of(x->cfg), k->name);
	if (!text || !off_default(k, values_of(dims, k->name)))
		return 0;
	for (i = 0; i < conf->n; i++) {
		if (strcmp(conf->v[i], "none"))
			continue;
		snprintf(x->err, x->errlen, "%s:%d: [experiment %s] guest-accept = %s: applies "
			 "to confidential = model, sev-snp or tdx, and this experiment has "
			 "confidential = none cells; give guest-accept in an experiment "
			 "without them", x->cfg->path, line_of(x->cfg, s, k->name), s->name, text);
		return -EINVAL;
	}
	return 0;
}

/* Every value of the dimension @key is @want; the first that is not, or NULL. */
static const char *first_other(const struct dimension *dims, const char *key, const char *want)
{
	const struct config_values *v = values_of(dims, key);
	size_t i;

	for (i = 0; v && i < v->n; i++)
		if (strcmp(v->v[i], want))
			return v->v[i];
	return NULL;
}

/*
 * corunner-in = vm is the kv co-runner in a second VM beside a qemu cell's
 * VMs: with another corunner-kind or backend it would mean nothing, and its
 * cells would equal their corunner-in = host twins.
 */
static int check_corunner_in(const struct expansion *x, const struct config_section *s,
			     const struct dimension *dims)
{
	const struct config_key *k = config_key_find("corunner-in");
	const char *other = first_other(dims, "backend", "qemu"), *key = "backend";

	if (!off_default(k, values_of(dims, k->name)))
		return 0;
	if (!other) {
		other = first_other(dims, "corunner-kind", "kv");
		key = "corunner-kind";
	}
	if (!other)
		return 0;
	snprintf(x->err, x->errlen, "%s:%d: [experiment %s] corunner-in = vm: the co-runner "
		 "VM runs the kv co-runner beside qemu cells, and this experiment has %s = %s "
		 "cells; give corunner-in = vm with backend = qemu and corunner-kind = kv",
		 x->cfg->path, line_of(x->cfg, s, k->name), s->name, key, other);
	return -EINVAL;
}

/* A replay cell (replay-schedule) times its cold starts itself: mode = warm only. */
static int check_replay(const struct expansion *x, const struct config_section *s,
			const struct dimension *dims)
{
	const struct config_key *k = config_key_find("replay-schedule");
	const char *other = first_other(dims, "mode", "warm");

	if (!off_default(k, values_of(dims, k->name)) || !other)
		return 0;
	snprintf(x->err, x->errlen, "%s:%d: [experiment %s] replay-schedule: a replay cell "
		 "starts and keeps its instances itself (cold and warm calls as the schedule "
		 "and replay-ttl give them); give it with mode = warm, not mode = %s",
		 x->cfg->path, line_of(x->cfg, s, k->name), s->name, other);
	return -EINVAL;
}

/* Cells of one experiment: the product of its dimensions, times its repeats. */
static unsigned long long section_cells(const struct dimension *dims)
{
	unsigned long long n = 1, f;
	size_t i;

	for (i = 0; i < config_key_count; i++) {
		f = dims[i].vals.n;
		if (!strcmp(dims[i].key->name, "repeats"))
			f = strtoull(dims[i].vals.v[0], NULL, 10);
		if (__builtin_mul_overflow(n, f, &n))
			return ULLONG_MAX;
	}
	return n;
}

static int set_key(struct cell *c, int salt)
{
	uint32_t h;

	if (cell_hash(c->spec, salt, &h))
		return -ENOMEM;
	snprintf(c->key, sizeof(c->key), "%s-%08x", c->experiment, h);
	return 0;
}

/* "experiment = E\n", every stored key = its value, "repeat = R\n". */
static char *make_spec(const char *experiment, const struct dimension *dims,
		       const size_t *pick, int repeat)
{
	char *spec = NULL;
	size_t len = 0, i;
	FILE *f = open_memstream(&spec, &len);

	if (!f)
		return NULL;
	fprintf(f, "experiment = %s\n", experiment);
	for (i = 0; i < config_key_count; i++)
		if (dims[i].key->offset != (size_t)-1)
			fprintf(f, "%s = %s\n", dims[i].key->name, dims[i].vals.v[pick[i]]);
	fprintf(f, "repeat = %d\n", repeat);
	if (ferror(f) | fclose(f)) {
		free(spec);
		return NULL;
	}
	return spec;
}

static int fill_cell(const char *experiment, const struct dimension *dims,
		     const size_t *pick, int repeat, struct cell *c)
{
	size_t i;

	memset(c, 0, sizeof(*c));
	snprintf(c->experiment, sizeof(c->experiment), "%s", experiment);
	for (i = 0; i < config_key_count; i++)
		config_value_store(dims[i].key, dims[i].vals.v[pick[i]], c);
	c->repeat_index = repeat;
	c->spec = make_spec(experiment, dims, pick, repeat);
	if (!c->spec)
		return -ENOMEM;
	return set_key(c, 0);
}

/* Odometer over the dimensions: the last key varies fastest. 0 when done. */
static int advance(const struct dimension *dims, size_t *pick)
{
	size_t i = config_key_count;

	while (i-- > 0) {
		if (++pick[i] < dims[i].vals.n)
			return 1;
		pick[i] = 0;
	}
	return 0;
}

static int repeats_of(const struct dimension *dims)
{
	size_t i;

	for (i = 0; i < config_key_count; i++)
		if (!strcmp(dims[i].key->name, "repeats"))
			return atoi(dims[i].vals.v[0]);
	return 1;
}

/*
 * The cells were counted first: x->cells has room for all of them. Repeats
 * vary slowest: the whole matrix of the experiment once per repeat, so the
 * cells of a pair (confidential = none, sev-snp) run interleaved, A B A B,
 * and a drift of the host lands on both sides instead of on one. The order
 * they ran in is recorded (cell.id, cell.started_at).
 */
static int expand_section(struct expansion *x, const struct config_section *s,
			  const struct dimension *dims)
{
	size_t *pick = calloc(config_key_count, sizeof(*pick));
	int r, repeats = repeats_of(dims), ret = 0;

	if (!pick)
		return -ENOMEM;
	for (r = 0; r < repeats && !ret; r++) {
		memset(pick, 0, config_key_count * sizeof(*pick));
		do {
			if (x->n >= x->cap)
				break;
			ret = fill_cell(s->name, dims, pick, r, &x->cells[x->n]);
			if (!ret) {
				x->cells[x->n].index = (int)x->n;
				x->n++;
			}
		} while (!ret && advance(dims, pick));
	}
	free(pick);
	if (ret)
		snprintf(x->err, x->errlen, "%s: out of memory after %zu cells", x->cfg->path,
			 x->n);
	return ret;
}

static int by_key(const void *a, const void *b)
{
	const struct cell *x = *(const struct cell *const *)a, *y = *(const struct cell *const *)b;
	int c = strcmp(x->key, y->key);

	return c ? c : (x->index > y->index) - (x->index < y->index);
}

/*
 * Two specs can hash alike (one pair in about 2^32): the later cell of such
 * a pair takes the hash of its spec and "#1" (then "#2", ...), so every cell
 * keeps a key of its own and every other key stays as it was.
 */
static int unique_keys(struct cell *cells, size_t n)
{
	struct cell **v = malloc((n + 1) * sizeof(*v));
	int salt, clash = 1, ret = 0;
	size_t i;

	if (!v)
		return -ENOMEM;
	for (salt = 1; clash && !ret; salt++) {
		for (i = 0; i < n; i++)
			v[i] = &cells[i];
		qsort(v, n, sizeof(*v), by_key);
		clash = 0;
		for (i = 1; i < n; i++)
			if (!strcmp(v[i - 1]->key, v[i]->key) && !ret) {
				ret = set_key(v[i], salt);
				clash = 1;
			}
	}
	free(v);
	return ret;
}

/* "experiment a: 12, experiment b: 3" into @buf. */
static void describe_counts(const struct config *cfg, const unsigned long long *counts,
			    char *buf, size_t len)
{
	size_t i, used = 0;

	buf[0] = '\0';
	for (i = 0; i < cfg->nsections && used < len; i++)
		if (!cfg->sections[i].is_defaults)
			used += (size_t)snprintf(buf + used, len - used, "%sexperiment %s: %llu",
						 used ? ", " : "", cfg->sections[i].name,
						 counts[i]);
}

/* Build every experiment's dimensions and count the cells, before making any. */
static int count_cells(struct expansion *x, struct dimension **dims,
		       unsigned long long *counts)
{
	const struct config *cfg = x->cfg;
	unsigned long long total = 0, max = cfg->max_cells ? cfg->max_cells : CONFIG_MAX_CELLS;
	char what[512];
	size_t i;
	int ret;

	for (i = 0; i < cfg->nsections; i++) {
		if (cfg->sections[i].is_defaults)
			continue;
		ret = build_dimensions(x, &cfg->sections[i], &dims[i]);
		if (!ret)
			ret = check_variants(x, &cfg->sections[i], dims[i]);
		if (!ret)
			ret = check_accept(x, &cfg->sections[i], dims[i]);
		if (!ret)
			ret = check_corunner_in(x, &cfg->sections[i], dims[i]);
		if (!ret)
			ret = check_replay(x, &cfg->sections[i], dims[i]);
		if (ret)
			return ret;
		counts[i] = section_cells(dims[i]);
		if (__builtin_add_overflow(total, counts[i], &total))
			total = ULLONG_MAX;
	}
	if (total <= max) {
		x->cap = (size_t)total;
		return 0;
	}
	describe_counts(cfg, counts, what, sizeof(what));
	snprintf(x->err, x->errlen, "%s: %llu cells (%s); the limit is %llu (--max-cells)",
		 cfg->path, total, what, max);
	return -E2BIG;
}

int config_expand(const struct config *cfg, struct cell **cells, size_t *ncells,
		  char *err, size_t errlen)
{
	struct expansion x = { .cfg = cfg, .err = err, .errlen = errlen };
	struct dimension **dims = calloc(cfg->nsections + 1, sizeof(*dims));
	unsigned long long *counts = calloc(cfg->nsections + 1, sizeof(*counts));
	size_t i;
	int ret;

	err[0] = '\0';
	ret = dims && counts ? count_cells(&x, dims, counts) : -ENOMEM;
	if (!ret && !(x.cells = calloc(x.cap + 1, sizeof(*x.cells))))
		ret = -ENOMEM;
	if (ret == -ENOMEM && !err[0])
		snprintf(err, errlen, "%s: out of memory", cfg->path);
	for (i = 0; i < cfg->nsections && !ret; i++)
		if (dims[i])
			ret = expand_section(&x, &cfg->sections[i], dims[i]);
	if (!ret && unique_keys(x.cells, x.n)) {
		snprintf(err, errlen, "%s: out of memory", cfg->path);
		ret = -ENOMEM;
	}
	for (i = 0; dims && i < cfg->nsections; i++)
		free_dimensions(dims[i]);
	free(dims);
	free(counts);
	if (ret) {
		config_cells_free(x.cells, x.n);
		x.cells = NULL;
		x.n = 0;
	}
	*cells = x.cells;
	*ncells = x.n;
	return ret;
}

void config_cells_free(struct cell *cells, size_t n)
{
	size_t i;

	for (i = 0; cells && i < n; i++)
		free(cells[i].spec);
	free(cells);
}
