// SPDX-License-Identifier: MIT
/*
 * cmd-env.c - `cvmbench env [--json]`: what this machine offers, as
 * gathered by env_collect() (env.c) and what the backends can say without
 * starting anything (backend_env_facts(): the qemu backend's accelerator
 * and CPU model for a default cell), printed as an aligned
 * "key  value  (source)" table (long values wrapped at blanks, summaries
 * of the facts under them left out) or as a JSON object
 * {key: {"value": ..., "source": ...}}.
 */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "command.h"
#include "env.h"
#include "exitcode.h"
#include "log.h"
#include "opts.h"

#define ENV_VALUE_COL_MAX 40	/* longer values push their source right */
#define ENV_WRAP 72		/* longer values go on more lines, cut at blanks */

enum { OPT_JSON };

static const struct opt env_opts[] = {
	{ "json", 0, NULL, "print a JSON object {key: {value, source}}", OPT_JSON },
	OPT_END
};

struct env_fact {
	char *key, *value, *source;
};

struct env_facts {
	struct env_fact *v;
	size_t n, cap;
	int oom;
};

struct env_cmd {
	int json;
};

static int env_opt(void *ctx, int id, const char *arg)
{
	struct env_cmd *cmd = ctx;

	(void)arg;
	if (id == OPT_JSON)
		cmd->json = 1;
	return 0;
}

static void env_facts_add(void *ctx, const char *key, const char *value,
			  const char *source)
{
	struct env_facts *f = ctx;
	struct env_fact *e;

	if (f->n == f->cap) {
		size_t cap = f->cap ? 2 * f->cap : 128;
		struct env_fact *v = realloc(f->v, cap * sizeof(*v));

		if (!v) {
			f->oom = 1;
			return;
		}
		f->v = v;
		f->cap = cap;
	}
	e = &f->v[f->n];
	e->key = strdup(key);
	e->value = strdup(value);
	e->source = strdup(source);
	if (!e->key || !e->value || !e->source) {
		free(e->key);
		free(e->value);
		free(e->source);
		f->oom = 1;
		return;
	}
	f->n++;
}

static void env_facts_free(struct env_facts *f)
{
	size_t i;

	for (i = 0; i < f->n; i++) {
		free(f->v[i].key);
		free(f->v[i].value);
		free(f->v[i].source);
	}
	free(f->v);
}

/*
 * A summary fact that only joins the facts under it (source "KEY.* checks",
 * e.g. cvm.evidence): the table shows those facts, one a line, instead.
 */
static int env_is_summary(const struct env_fact *e)
{
	size_t l = strlen(e->key);

	return !strncmp(e->source, e->key, l) && !strcmp(e->source + l, ".* checks");
}

/*
 * Print @v from column @col on, cut at blanks into lines of at most
 * ENV_WRAP characters (a word longer than that stays whole); the source
 * @src follows the first line. The stored value is whole (kernel.cmdline).
 */
static void env_print_wrapped(const char *v, int col, int vw, const char *src)
{
	int first = 1, n;

	do {
		n = (int)strlen(v);
		if (n > ENV_WRAP) {
			for (n = ENV_WRAP; n > 0 && v[n] != ' '; n--)
				;
			if (!n)
				n = (int)strcspn(v, " ");
		}
		if (first)
			printf("%-*.*s  (%s)\n", vw, n, v, src);
		else
			printf("%*s%.*s\n", col, "", n, v);
		first = 0;
		v += n;
		v += strspn(v, " ");
	} while (*v);
}

static void env_print_table(const struct env_facts *f)
{
	int kw = 0, vw = 0, l;
	size_t i;

	for (i = 0; i < f->n; i++) {
		l = (int)strlen(f->v[i].key);
		kw = l > kw ? l : kw;
		l = (int)strlen(f->v[i].value);
		if (l > vw && l <= ENV_VALUE_COL_MAX)
			vw = l;
	}
	for (i = 0; i < f->n; i++) {
		if (env_is_summary(&f->v[i]))
			continue;
		printf("%-*s  ", kw, f->v[i].key);
		if (!f->v[i].value[0])
			printf("%-*s  (%s)\n", vw, "", f->v[i].source);
		else
			env_print_wrapped(f->v[i].value, kw + 2, vw, f->v[i].source);
	}
}

static int env_print_json(const struct env_facts *f)
{
	cJSON *root = cJSON_CreateObject(), *item;
	char *text;
	size_t i;

	if (!root)
		return -1;
	for (i = 0; i < f->n; i++) {
		item = cJSON_CreateObject();
		if (!item || !cJSON_AddStringToObject(item, "value", f->v[i].value) ||
		    !cJSON_AddStringToObject(item, "source", f->v[i].source)) {
			cJSON_Delete(item);
			cJSON_Delete(root);
			return -1;
		}
		if (cJSON_GetObjectItemCaseSensitive(root, f->v[i].key))
			cJSON_ReplaceItemInObjectCaseSensitive(root, f->v[i].key, item);
		else
			cJSON_AddItemToObject(root, f->v[i].key, item);
	}
	text = cJSON_Print(root);
	cJSON_Delete(root);
	if (!text)
		return -1;
	printf("%s\n", text);
	cJSON_free(text);
	return 0;
}

/**
 * cmd_env() - `cvmbench env [--json]`: print every fact env_collect()
 * and backend_env_facts() find, with where it was read.
 * @argc: argument count
 * @argv: argv[0] is "env"
 *
 * Return: EXIT_OK, EXIT_USAGE on a bad command line, EXIT_FAILED when out
 * of memory.
 */
int cmd_env(int argc, char **argv)
{
	struct env_cmd cmd = { 0 };
	struct env_facts facts = { 0 };
	int first, ret;

	ret = opts_parse(argc, argv, "env [--json]", env_opts, env_opt, &cmd, &first);
	if (ret)
		return ret == 1 ? EXIT_OK : EXIT_USAGE;
	if (first < argc) {
		pr_err("env: unexpected argument '%s'", argv[first]);
		return EXIT_USAGE;
	}
	env_collect(env_facts_add, &facts);
	backend_env_facts(env_facts_add, &facts);
	ret = EXIT_OK;
	if (facts.oom) {
		pr_err("env: out of memory");
		ret = EXIT_FAILED;
	} else if (cmd.json) {
		if (env_print_json(&facts) < 0) {
			pr_err("env: cannot build the JSON output");
			ret = EXIT_FAILED;
		}
	} else {
		env_print_table(&facts);
	}
	env_facts_free(&facts);
	return ret;
}
