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
 */
#ifndef CVMBENCH_CONFIG_H
#define CVMBENCH_CONFIG_H

#include <stddef.h>

#include "cell.h"

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
 * repeats vary fastest of all. *@cells is malloc'd.
 */
int config_expand(const struct config *cfg, struct cell **cells, size_t *ncells,
		  char *err, size_t errlen);

/* The key table (config-keys.c). */
enum config_key_type { KEY_STRING, KEY_INT, KEY_DOUBLE, KEY_ENUM, KEY_WORKLOAD,
		       KEY_WAIT, KEY_PROBES, KEY_IDLE };

struct config_key {
	const char *name;
	enum config_key_type type;
	int matrix;               /* a comma list makes a dimension */
	size_t offset;            /* into struct cell; (size_t)-1: not stored */
	size_t size;              /* of the field in struct cell */
	double min, max;          /* for numbers */
	const char *allowed;      /* for enums: "a|b|c" */
	const char *def;          /* default value, NULL = required */
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

#endif
