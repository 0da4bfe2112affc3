// SPDX-License-Identifier: MIT
/*
 * tests/unit/slurm-script.c - the text of the batch script of `cvmbench
 * slurm` (slurm-script.c) with and without --balance DB: with it, the
 * database's path is one single-quoted shell word (shell_quote(), however
 * hostile the name: a quote, $(...), a newline), assigned once, and every
 * task's run line passes it as one argument (--balance "$balance") beside
 * --shard and --resume; without it, no --balance anywhere. The quoted word
 * is read back by bash and must give the name byte for byte.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "slurm-script.h"
#include "tap.h"

/* were it not quoted, it would only echo */
static const char hostile[] = "/data/it's $(echo unquoted) `echo unquoted`\nx.db";

static char *script(const char *balance)
{
	struct slurm_job j = { .cvmbench = "/opt/cvmbench", .config = "/c/study.ini",
			       .dir = "/d/job", .job_name = "cvmbench", .shards = 3,
			       .balance = balance };
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		return NULL;
	if (slurm_script_write(f, &j, "test")) {
		fclose(f);
		free(text);
		return NULL;
	}
	fclose(f);
	return text;
}

/* The value bash gives $balance after the script's assignment, or NULL. */
static char *bash_reads(const char *text)
{
	const char *from = strstr(text, "\nbalance="), *to = from ? strstr(from, "\nshards=") : NULL;
	char assignment[1024], out[1024];
	size_t n;
	FILE *p;

	if (!to || to - from > (long)sizeof(assignment) - 1)
		return NULL;
	snprintf(assignment, sizeof(assignment), "%.*s", (int)(to - from - 1), from + 1);
	setenv("ASSIGNMENT", assignment, 1);
	p = popen("bash -c 'eval \"$ASSIGNMENT\"; printf %s \"$balance\"'", "r");
	if (!p)
		return NULL;
	n = fread(out, 1, sizeof(out) - 1, p);
	out[n] = '\0';
	return pclose(p) ? NULL : strdup(out);
}

static int count(const char *s, const char *what)
{
	int n = 0;

	for (; (s = strstr(s, what)); s++)
		n++;
	return n;
}

int main(void)
{
	char *with = script(hostile), *without = script(NULL), *read;

	tap_plan(6);
	if (!with || !without) {
		tap_ok(0, "the script is written");
		return tap_done();
	}
	tap_contains(with, "--shard \"$i/$shards\" --resume --balance \"$balance\" $wait_lock"
		     " || rc=$?\n", "with --balance: the task's run line passes \"$balance\"");
	tap_contains(with, "\nbalance='/data/it'\\''s $(echo unquoted) `echo unquoted`\nx.db'\n",
		     "the database's path is one single-quoted word, its quote escaped");
	tap_ok(count(with, "\nbalance=") == 1 && count(with, "--balance \"$balance\"") == 1,
	       "assigned once, passed once");
	read = bash_reads(with);
	tap_ok(read && !strcmp(read, hostile), "bash reads the word back byte for byte (%s)",
	       read ? "same" : "no value");
	free(read);
	tap_ok(!strstr(without, "balance"), "without --balance: no balance in the script");
	tap_contains(without, "--shard \"$i/$shards\" --resume $wait_lock || rc=$?\n",
		     "without --balance: the run line as before");
	free(with);
	free(without);
	return tap_done();
}
