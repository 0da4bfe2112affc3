/* SPDX-License-Identifier: MIT */
/*
 * config.h - experiment configs (INI, parsed with inih) and their
 * expansion into cells.
 *
 *   [defaults]                 keys every experiment starts from
 *   [experiment NAME]          one experiment; keys are the long option names
 *   size = test, small         a comma list is a matrix dimension
 *
 * Every error names the file, the line and the key, with the allowed values.
 * Nothing is cut or dropped: a value that does not parse whole, or does not
 * fit its field, is an error (config-values.c).
 */
#ifndef CVMBENCH_CONFIG_H
#define CVMBENCH_CONFIG_H

#include <stddef.h>

#include "cell.h"

/* inih keeps 49 bytes of a section name: "experiment " and 38 more. */
#define CONFIG_SECTION_MAX 49
#define CONFIG_NAME_MAX (CONFIG_SECTION_MAX - 11)
/* A config is a regular file of at most this many bytes. */
#define CONFIG_MAX_BYTES (1 << 20)
/* Expanding refuses more cells than this unless the user raises it (--max-cells). */
#define CONFIG_MAX_CELLS 10000
#define CONFIG_STR_(x) #x
#define CONFIG_STR(x) CONFIG_STR_(x)
#define CONFIG_MAX_CELLS_STR CONFIG_STR(CONFIG_MAX_CELLS)

struct config_entry {
	char *key;
	char *value;
	int line;
};

struct config_section {
	char name[64];            /* experiment name; "" for [defaults] */
	int is_defaults;
	int line;
	struct config_entry *entries;
	size_t nentries;
};

struct config {
	char *path;
	char *text;               /* the file as read, stored with the run */
	struct config_section *sections;
	size_t nsections;
	size_t max_cells;         /* config_expand() refuses more; CONFIG_MAX_CELLS */
};

/**
 * config_load() - read and validate @path: syntax, sections, keys, values.
 * Returns 0, or -EINVAL / -errno with a message in @err.
 */
int config_load(const char *path, struct config **out, char *err, size_t errlen);
/** config_load_string() - the same from memory (@path names it in errors). */
int config_load_string(const char *path, const char *text, struct config **out,
		       char *err, size_t errlen);
void config_free(struct config *cfg);

/**
 * config_expand() - the cells of every experiment, in file order; within an
 * experiment the last dimension of the key table varies fastest and
 * repeats vary fastest of all. Free *@cells with config_cells_free().
 * Returns 0, -E2BIG if there would be more than @cfg->max_cells cells
 * (the message gives the count), or -ENOMEM; the message is in @err.
 */
int config_expand(const struct config *cfg, struct cell **cells, size_t *ncells,
		  char *err, size_t errlen);
/** config_cells_free() - free @n cells from config_expand() and their specs. */
void config_cells_free(struct cell *cells, size_t n);

/* The key table (config-keys.c, from the list in cell-keys.h). */
enum config_key_type {
	KEY_STRING,               /* free text; as a dimension it may be "" */
	KEY_INT,
	KEY_DOUBLE,
	KEY_ENUM,                 /* one of allowed "a|b|c" */
	KEY_NAME,                 /* a name that check() accepts (workload, wait, ...) */
	KEY_LIST,                 /* a list stored whole as "a,b"; check() each name */
	KEY_BACKEND,              /* a name of the backend registry (backend_find) */
};

struct config_key {
	const char *name;
	enum config_key_type type;
	int matrix;               /* a comma list makes a dimension */
	size_t offset;            /* into struct cell; (size_t)-1: not stored */
	size_t size;              /* of the field in struct cell */
	double min, max;          /* for numbers */
	const char *allowed;      /* for enums: "a|b|c"; KEY_BACKEND: backend_names() */
	const char *def;          /* default value, NULL = required */
	/* KEY_NAME, KEY_LIST: 0, or -EINVAL with "bad value ..." in @err */
	int (*check)(const char *value, char *err, size_t errlen);
	const char *help;
};

extern const struct config_key config_keys[];
extern const size_t config_key_count;

/** config_key_find() - the key named @name (or an alias of it), or NULL. */
const struct config_key *config_key_find(const char *name);
/**
 * config_value_check() - validate one value (one element of a comma list)
 * for @key; on error write "bad value 'x' for key: allowed ..." to @err.
 */
int config_value_check(const struct config_key *key, const char *value,
		       char *err, size_t errlen);
/** config_value_store() - write a checked value into @c. */
void config_value_store(const struct config_key *key, const char *value,
			struct cell *c);
/** config_key_names() - "a, b, c": every key, for error messages. */
void config_key_names(char *buf, size_t len);

/* Values of one entry (config-values.c). */
struct config_values {
	char **v;                 /* trimmed, in order; malloc'd */
	size_t n;
};

/**
 * config_values_split() - the values of @value for key @k: a comma list
 * (trimmed, empty elements left out) for list keys, the whole text for
 * free text. Checks nothing. Returns 0 or -ENOMEM.
 */
int config_values_split(const struct config_key *k, const char *value,
			struct config_values *out);
/**
 * config_value_same() - whether @a and @b are the same value of @k for a
 * cell: numbers compare as numbers ("1" and "01"), other values as text.
 */
int config_value_same(const struct config_key *k, const char *a, const char *b);
/** config_values_free() - free what config_values_split() made. */
void config_values_free(struct config_values *vals);
/**
 * config_variants_check() - whether each of @variants ("" = none) is a
 * variant of the workloads its cells run: each of @workloads, or where a
 * value of @vm_workloads ("a+b") is set, each workload in it. 0, or
 * -EINVAL with the reason in @err (config-variant.c).
 */
int config_variants_check(const struct config_values *workloads,
			  const struct config_values *vm_workloads,
			  const struct config_values *variants, char *err, size_t errlen);
/**
 * config_entry_check() - check the whole value of one entry: each element
 * whole, one value for a single-value key, no value twice, and every value
 * fits the cell's field. On error writes "key: why" to @err, one line.
 */
int config_entry_check(const struct config_key *k, const char *value, char *err,
		       size_t errlen);

#endif
