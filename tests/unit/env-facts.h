/* SPDX-License-Identifier: MIT */
/*
 * env-facts.h - for unit tests of the environment collectors: keep the
 * facts env_collect() emits (collect() is its sink), look one up by key
 * (fact(): "(missing)" when absent), and free them between trees.
 * `root` is the test's fake tree, for the test's own use.
 */
#ifndef CVMBENCH_TEST_ENV_FACTS_H
#define CVMBENCH_TEST_ENV_FACTS_H

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#define MAX_FACTS 1024

static struct { char *key, *value; } facts[MAX_FACTS];
static int n_facts;
static char root[PATH_MAX];

static void collect(void *ctx, const char *key, const char *value, const char *source)
{
	(void)ctx;
	(void)source;
	if (n_facts < MAX_FACTS) {
		facts[n_facts].key = strdup(key);
		facts[n_facts++].value = strdup(value);
	}
}

static const char *fact(const char *key)
{
	int i;

	for (i = 0; i < n_facts; i++)
		if (!strcmp(facts[i].key, key))
			return facts[i].value;
	return "(missing)";
}

static void facts_free(void)
{
	while (n_facts > 0) {
		n_facts--;
		free(facts[n_facts].key);
		free(facts[n_facts].value);
	}
}

#endif
