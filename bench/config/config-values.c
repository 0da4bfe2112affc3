// SPDX-License-Identifier: MIT
/*
 * config-values.c - the values of one config entry: split a comma list
 * into its elements and check the whole of it. An element must parse
 * whole, a single-value key takes one, no value is listed twice (two cells
 * would share a key), and every value fits its field of struct cell.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"

static int is_free_text(const struct config_key *k)
{
	return k->type == KEY_STRING && !k->matrix;
}

static int values_push(struct config_values *vals, const char *s, size_t len)
{
	char **v = realloc(vals->v, (vals->n + 1) * sizeof(*v));

	if (!v)
		return -ENOMEM;
	vals->v = v;
	v[vals->n] = strndup(s, len);
	if (!v[vals->n])
		return -ENOMEM;
	vals->n++;
	return 0;
}

int config_values_split(const struct config_key *k, const char *value,
			struct config_values *out)
{
	const char *p = value, *end;
	int ret = 0;

	out->v = NULL;
	out->n = 0;
	if (is_free_text(k))
		return values_push(out, value, strlen(value));
	while (*p && !ret) {
		while (isspace((unsigned char)*p))
			p++;
		end = p + strcspn(p, ",");
		while (end > p && isspace((unsigned char)end[-1]))
			end--;
		if (end > p)
			ret = values_push(out, p, (size_t)(end - p));
		p = end + strcspn(end, ",");
		if (*p)
			p++;
	}
	/* a free-text dimension may be empty ("" = unset) */
	if (!ret && !out->n && k->type == KEY_STRING)
		ret = values_push(out, "", 0);
	if (ret)
		config_values_free(out);
	return ret;
}

void config_values_free(struct config_values *vals)
{
	size_t i;

	for (i = 0; i < vals->n; i++)
		free(vals->v[i]);
	free(vals->v);
	vals->v = NULL;
	vals->n = 0;
}

int config_value_same(const struct config_key *k, const char *a, const char *b)
{
	if (k->type == KEY_INT)
		return strtoll(a, NULL, 10) == strtoll(b, NULL, 10);
	if (k->type == KEY_DOUBLE)
		return strtod(a, NULL) == strtod(b, NULL);
	return !strcmp(a, b);
}

static int check_duplicates(const struct config_key *k, const struct config_values *vals,
			    char *err, size_t errlen)
{
	size_t i, j;

	for (j = 1; j < vals->n; j++)
		for (i = 0; i < j; i++) {
			if (!config_value_same(k, vals->v[i], vals->v[j]))
				continue;
			if (!strcmp(vals->v[i], vals->v[j]))
				snprintf(err, errlen, "%s lists '%s' twice", k->name, vals->v[j]);
			else
				snprintf(err, errlen, "%s lists '%s' twice (as '%s')", k->name,
					 vals->v[j], vals->v[i]);
			return -EINVAL;
		}
	return 0;
}

/* A list stored whole (probes) is stored as "a,b,c": that must fit too. */
static int check_list_length(const struct config_key *k, const struct config_values *vals,
			     char *err, size_t errlen)
{
	size_t i, len = 0;

	if (k->matrix || k->offset == (size_t)-1 || k->type != KEY_LIST)
		return 0;
	for (i = 0; i < vals->n; i++)
		len += strlen(vals->v[i]) + (i > 0);
	if (len < k->size)
		return 0;
	snprintf(err, errlen, "%s: a list of %zu characters; at most %zu", k->name, len,
		 k->size - 1);
	return -EINVAL;
}

/* "1,,2", ",1" or "1,": an element left empty is a typo, not nothing. */
static int check_empty_elements(const struct config_key *k, const char *value,
				char *err, size_t errlen)
{
	const char *p = value, *end;
	int n = 1;

	if (is_free_text(k) || !strchr(value, ','))
		return 0;
	for (;; n++) {
		end = p + strcspn(p, ",");
		while (p < end && isspace((unsigned char)*p))
			p++;
		if (p == end) {
			snprintf(err, errlen, "%s: element %d of '%s' is empty "
				 "(two commas, or a comma at the start or end)", k->name, n, value);
			return -EINVAL;
		}
		if (!*end)
			return 0;
		p = end + 1;
	}
}

int config_entry_check(const struct config_key *k, const char *value, char *err,
		       size_t errlen)
{
	struct config_values vals;
	size_t i;
	int ret;

	if (config_values_split(k, value, &vals)) {
		snprintf(err, errlen, "%s: out of memory", k->name);
		return -ENOMEM;
	}
	ret = -EINVAL;
	if (!vals.n)    /* also a list of nothing but commas: `probes = ,,,` */
		snprintf(err, errlen, "empty value for %s", k->name);
	else if (vals.n > 1 && !k->matrix && k->type != KEY_LIST)
		snprintf(err, errlen, "%s takes one value, not a list", k->name);
	else
		ret = check_empty_elements(k, value, err, errlen);
	for (i = 0; i < vals.n && !ret; i++)
		ret = config_value_check(k, vals.v[i], err, errlen);
	if (!ret)
		ret = check_duplicates(k, &vals, err, errlen);
	if (!ret)
		ret = check_list_length(k, &vals, err, errlen);
	config_values_free(&vals);
	return ret;
}
