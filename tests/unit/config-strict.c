// SPDX-License-Identifier: MIT
/*
 * tests/unit/config-strict.c - no config value is silently cut, dropped or
 * misread (issues 8 and 9): section and field lengths, continuation lines,
 * values that do not parse whole, list and matrix sizes, duplicates, and
 * config files that are not regular files. Each case failed before its fix.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "config-test.h"

#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif
#ifndef UNDER_ASAN
#define UNDER_ASAN 0
#endif

/* Issue 9.5: inih cuts section names at 50 bytes. */
static void test_section_names(void)
{
	char text[512], name[64];
	struct cell *cells;
	size_t n;
	char err[1024];

	memset(name, 'x', 45);
	name[45] = '\0';
	snprintf(text, sizeof(text), "[defaults]\nworkload = null\n[experiment %s]\n"
		 "threads = 1\n", name);
	expect_error(text, "t.ini:3: section name 'experiment xxxxxxxxxx",
		     "a section name longer than the parser keeps is an error");
	name[CONFIG_NAME_MAX] = '\0';
	snprintf(text, sizeof(text), "[defaults]\nworkload = null\n[experiment %s]\n"
		 "threads = 1\n", name);
	tap_ok(!load_expand(text, &cells, &n, err, sizeof(err)) && n == 1 &&
	       !strcmp(cells[0].experiment, name),
	       "an experiment name of %d characters is kept whole (%s)", CONFIG_NAME_MAX, err);
	config_cells_free(cells, n);
	expect_error("[experiment a\nworkload = null\n[experiment b]\nworkload = null\n",
		     "t.ini:1: section header without ']'",
		     "[experiment a without ] is a one-line error");
	expect_error("[experiment a] workload = null\n",
		     "t.ini:1: text after ']'", "text after a section header is an error");
}

/* Issue 9.6: an indented key after a section header is a key, not a continuation. */
static void test_indented_key(void)
{
	struct cell *cells;
	size_t n;
	char err[1024];

	tap_ok(!load_expand("[experiment a]\nworkload = null\n[experiment b]\n"
			    "  workload = hello-world\n", &cells, &n, err, sizeof(err)) &&
	       n == 2 && !strcmp(cells[0].workload, "null") &&
	       !strcmp(cells[1].workload, "hello-world"),
	       "an indented key at the start of a section belongs to it (%s)", err);
	config_cells_free(cells, n);
	tap_ok(!load_expand("[experiment a]\nworkload = null, ; first\n  hello-world ; second\n",
			    &cells, &n, err, sizeof(err)) && n == 2,
	       "a ; comment ends a continuation line as it ends a key line (%s)", err);
	config_cells_free(cells, n);
	expect_error("[experiment a]\nworkload = null\n\n  threads = 2\n",
		     "t.ini:4: this indented line continues workload",
		     "an indented key after a key is named as a continuation");
}

/* Issue 9.7 and 9.11: a value that does not parse whole is an error. */
static void test_whole_values(void)
{
	expect_error("[experiment a]\nworkload = null hello-world\n",
		     "t.ini:2: unknown workload 'null hello-world'",
		     "a second workload after a space is not dropped");
	expect_error("[experiment a]\nworkload = null\nthreads = 1\t2\n",
		     "t.ini:3: bad value '1\t2' for threads", "threads = 1<TAB>2");
	expect_error("[experiment a]\nworkload = null\nthreads = 2 # x\n",
		     "t.ini:3: bad value '2 # x' for threads", "threads = 2 # x");
	expect_error("[experiment a]\nworkload = null\ntimeout = 5\n  6\n",
		     "t.ini:3: bad value '5 6' for timeout",
		     "a continued single-value key is an error");
	expect_error("[experiment a]\nworkload = null\ntimeout = 0x10\n",
		     "t.ini:3: bad value '0x10' for timeout", "hexadecimal numbers");
	expect_error("[experiment a]\nworkload = null\ntimeout = inf\n",
		     "t.ini:3: bad value 'inf' for timeout", "infinity");
	expect_error("[experiment a]\nworkload = null\nsize = test|small\n",
		     "t.ini:3: bad value 'test|small' for size", "an enum value is one name");
	expect_error("[experiment a]\nworkload = null\nseed = 99999999999999999999\n",
		     "t.ini:3: bad value '99999999999999999999' for seed", "integer overflow");
}

/* One +1 per line of CELL_KEYS: the keys struct cell has fields for. */
#define COUNT_KEY(...) + 1

/* "[experiment a]", then @k = a value of @len zeros (on indented lines of 150). */
static void long_value_config(const struct config_key *k, size_t len, char *text,
			      size_t size)
{
	size_t used = (size_t)snprintf(text, size, "[experiment a]\n%s = ", k->name), chunk;

	while (len) {
		chunk = len > 150 ? 150 : len;
		used += (size_t)snprintf(text + used, size - used, "%0*d\n%s", (int)chunk, 0,
					 len > chunk ? "  " : "");
		len -= chunk;
		len -= len > 0;   /* the continuation joins with one space */
	}
	if (strcmp(k->name, "workload"))
		snprintf(text + used, size - used, "workload = null\n");
}

/* Whether the default and every allowed value of @k fit its field. */
static int values_fit(const struct config_key *k)
{
	const char *p = k->allowed;
	size_t n;

	if (k->def && strlen(k->def) >= k->size)
		return 0;
	while (p && *p) {
		n = strcspn(p, "|");
		if (n >= k->size)
			return 0;
		p += n + (p[n] == '|');
	}
	return 1;
}

/*
 * Issue 11.6: struct cell and the key table come from one list (cell-keys.h).
 * Every stored key has a field of its own (no two overlap, all inside struct
 * cell), their number is the list's; a text key's default and allowed values
 * fit its field, and a value as long as its field (one more than fits) is an
 * error naming file:line, for every such key.
 */
static void test_key_table(void)
{
	size_t i, j, stored = 0, overlap = 0, outside = 0, refused = 0, texts = 0, fit = 0;
	const struct config_key *a, *b;
	char text[2048], err[1024] = "";
	struct cell *cells;
	size_t n;

	for (i = 0; i < config_key_count; i++) {
		a = &config_keys[i];
		if (a->offset == (size_t)-1)
			continue;
		stored++;
		outside += a->offset < offsetof(struct cell, experiment) + 64 ||
			   a->offset + a->size > offsetof(struct cell, repeat_index);
		for (j = 0; j < i; j++) {
			b = &config_keys[j];
			overlap += b->offset != (size_t)-1 && a->offset < b->offset + b->size &&
				   b->offset < a->offset + a->size;
		}
		if (a->type == KEY_INT || a->type == KEY_DOUBLE || a->type == KEY_LIST)
			continue;
		texts++;
		fit += values_fit(a);
		long_value_config(a, a->size, text, sizeof(text));
		refused += load_expand(text, &cells, &n, err, sizeof(err)) == -EINVAL &&
			   !strncmp(err, "t.ini:2: ", 9) && strstr(err, a->name);
		config_cells_free(cells, n);
	}
	tap_ok(stored == 0 CELL_KEYS(COUNT_KEY) && !overlap && !outside,
	       "%zu keys stored, one field each in struct cell (%zu overlap, %zu outside)",
	       stored, overlap, outside);
	tap_ok(texts >= 10 && refused == texts && fit == texts, "%zu of %zu text keys refuse "
	       "a value as long as their field, naming file:line; defaults and allowed "
	       "values fit in %zu (%s)", refused, texts, fit, err);
}

/* Issue 8: no field is cut; a long list of probes does not crash `list`. */
static void test_field_lengths(void)
{
	char text[2048], path[300], probes[400];
	struct cell *cells;
	size_t n;
	char err[1024];

	/* 150 + 1 + 149 characters: the line limit wants a continuation line */
	memset(path, 'p', 150);
	path[0] = '/';
	path[150] = '\0';
	snprintf(text, sizeof(text), "[experiment a]\nworkload = null\nruntime-path = %s\n"
		 "  %.149s\n", path, path + 1);
	expect_error(text, "t.ini:3: runtime-path: value of 300 characters; at most 255",
		     "a runtime-path longer than its field is an error");
	expect_error("[experiment a]\nworkload = null\n"
		     "wait = hybrid:0000000000000000000000000000000000200\n",
		     "t.ini:3: wait: value of 44 characters; at most 31",
		     "a wait mode longer than its field is an error");
	/* 296 characters of valid probes, two lines: 255 bytes ended inside "exitcost" */
	snprintf(text, sizeof(text), "[experiment a]\nworkload = null\nprobes = latency,%120snull,\n"
		 "  cpu,%113sexitcost,%33sidle\n", "", "", "");
	snprintf(probes, sizeof(probes), "latency,%120snull,cpu,%113sexitcost,%33sidle", "", "",
		 "");
	tap_ok(strlen(probes) == 296, "the probes value is 296 characters (%zu)", strlen(probes));
	tap_ok(!load_expand(text, &cells, &n, err, sizeof(err)) && n == 1 &&
	       !strcmp(cells[0].probes, "latency,null,cpu,exitcost,idle"),
	       "a 296-character probes list loads, stored as its names (%s)",
	       n ? cells[0].probes : err);
	tap_contains(n ? cells[0].spec : "", probes, "and the spec keeps it verbatim");
	config_cells_free(cells, n);
	expect_error("[experiment a]\nworkload = null\nprobes = latency, null, latency\n",
		     "t.ini:3: probes lists 'latency' twice", "a probe listed twice");
}

/* Issue 8: the spec is never cut, so two repeats never share a key. */
static void test_long_spec(void)
{
	static const char *const keys[] = { "threads", "instances", "invocations", "warmup",
					    "seed", "cpus", "cpu-quota", "corunner",
					    "parallel", "timeout", "start-timeout" };
	char text[4096], zeros[181], err[1024];
	struct cell *cells;
	size_t i, used, n;

	memset(zeros, '0', 180);
	zeros[180] = '\0';
	used = (size_t)snprintf(text, sizeof(text), "[experiment a]\nworkload = null\n"
				"repeats = 2\n");
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		used += (size_t)snprintf(text + used, sizeof(text) - used, "%s = %s1\n",
					 keys[i], zeros);
	tap_ok(!load_expand(text, &cells, &n, err, sizeof(err)) && n == 2,
	       "a config with a 2 kB spec expands (%s)", err);
	if (n != 2)
		return;
	tap_ok(strlen(cells[0].spec) > 2048, "its spec is longer than 2048 (%zu)",
	       strlen(cells[0].spec));
	tap_contains(cells[1].spec, "\nrepeat = 1\n", "the last line of the spec is kept");
	tap_ok(strcmp(cells[0].key, cells[1].key) != 0, "two repeats have two keys (%s, %s)",
	       cells[0].key, cells[1].key);
	config_cells_free(cells, n);
}

/* The key's hash as docs/configs.md defines it: FNV-1a of the lines, folded. */
static uint32_t fnv32(const char *a, const char *b, const char *c)
{
	const char *parts[3] = { a, b, c }, *p;
	uint64_t h = 0xcbf29ce484222325ULL;
	int i;

	for (i = 0; i < 3; i++)
		for (p = parts[i]; *p; p++)
			h = (h ^ (unsigned char)*p) * 0x100000001b3ULL;
	return (uint32_t)(h ^ (h >> 32));
}

static int by_hash(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/*
 * Two seeds whose cells' keys hash alike (2^19 seeds hold about 32 such pairs).
 * The hashed text of "[experiment c] workload = null, seed = S" is its lines
 * not at their default, sorted (docs/configs.md); seed 1 is the default.
 */
#define C_HEAD "experiment = c\nrepeat = 0\n"
#define C_TAIL "workload = null\n"
static int find_collision(unsigned *a, unsigned *b)
{
	const size_t n = 1 << 19;
	uint64_t *v = malloc(n * sizeof(*v));
	char line[32];
	size_t i;
	int found = 0;

	for (i = 2; v && i < n; i++) {
		snprintf(line, sizeof(line), "seed = %zu\n", i);
		v[i] = (uint64_t)fnv32(C_HEAD, line, C_TAIL) << 32 | i;
	}
	if (v)
		qsort(v + 2, n - 2, sizeof(*v), by_hash);
	for (i = 3; v && i < n && !found; i++)
		if (v[i] >> 32 == v[i - 1] >> 32) {
			*a = (unsigned)v[i - 1];
			*b = (unsigned)v[i];
			found = 1;
		}
	free(v);
	return found;
}

/* Issue 9.10: two cells never share a key, even when their specs hash alike. */
static void test_key_collision(void)
{
	char text[256], err[1024], want[32];
	struct cell *cells;
	size_t n;
	unsigned a = 0, b = 0;
	char line_buf[32];
	int found;

	load_expand("[experiment c]\nworkload = null\nseed = 7\n", &cells, &n, err, sizeof(err));
	snprintf(want, sizeof(want), "c-%08x", fnv32(C_HEAD, "seed = 7\n", C_TAIL));
	tap_ok(n == 1 && !strcmp(cells[0].key, want), "a cell's key is c-FNV32(its lines not "
	       "at their default, sorted) (%s)", want);
	config_cells_free(cells, n);
	found = find_collision(&a, &b);
	tap_ok(found, "seeds %u and %u make keys that hash alike", a, b);
	snprintf(text, sizeof(text), "[experiment c]\nworkload = null\nseed = %u, %u\n", a, b);
	load_expand(text, &cells, &n, err, sizeof(err));
	tap_ok(n == 2 && strcmp(cells[0].key, cells[1].key) != 0, "they still get two keys "
	       "(%s, %s)", n == 2 ? cells[0].key : err, n == 2 ? cells[1].key : "");
	snprintf(line_buf, sizeof(line_buf), "seed = %u\n", a);
	snprintf(want, sizeof(want), "c-%08x", fnv32(C_HEAD, line_buf, C_TAIL));
	tap_ok(n == 2 && !strcmp(cells[0].key, want), "the first keeps its hash as key");
	config_cells_free(cells, n);
}

/*
 * Issue 11.6: a key at its default is not part of the cell's key, so adding a
 * key with a default (every existing config leaves it at its default) changes
 * no existing key. Every key of the table with a default, written out at its
 * default (numbers as "0..." too), gives the keys of the config without them.
 */
static void test_key_defaults(void)
{
	char *text = NULL, err[1024];
	size_t len = 0, i, n1 = 0, n2 = 0;
	struct cell *c1 = NULL, *c2 = NULL;
	FILE *f = open_memstream(&text, &len);
	const struct config_key *k;
	int stored = 0;

	fprintf(f, "[experiment d]\nworkload = null\nthreads = 1, 2\n");
	for (i = 0; i < config_key_count; i++) {
		k = &config_keys[i];
		if (!k->def || k->offset == (size_t)-1 || !strcmp(k->name, "threads"))
			continue;
		stored++;
		if (k->type == KEY_INT || k->type == KEY_DOUBLE)
			fprintf(f, "%s = 0%s\n", k->name, k->def);
		else
			fprintf(f, "%s = %s\n", k->name, k->def);
	}
	fclose(f);
	load_expand("[experiment d]\nworkload = null\nthreads = 1, 2\n", &c1, &n1, err,
		    sizeof(err));
	load_expand(text, &c2, &n2, err, sizeof(err));
	tap_ok(stored > 20 && n1 == 2 && n2 == 2 && !strcmp(c1[0].key, c2[0].key) &&
	       !strcmp(c1[1].key, c2[1].key), "%d keys written at their default leave the "
	       "cell keys as they were (%s, %s; %s)", stored, n1 ? c1[0].key : "",
	       n2 ? c2[0].key : "", err);
	tap_ok(n1 == 2 && strcmp(c1[0].key, c1[1].key), "a key not at its default is hashed");
	config_cells_free(c1, n1);
	config_cells_free(c2, n2);
	free(text);
}

/* Issue 9.8: lists are not cut at 64 values. */
static void test_long_lists(void)
{
	char text[2048], err[1024];
	struct cell *cells;
	size_t used, n;
	int i;

	used = (size_t)snprintf(text, sizeof(text), "[experiment a]\nworkload = null\nseed = 1");
	for (i = 2; i <= 100; i++)
		used += (size_t)snprintf(text + used, sizeof(text) - used, "%s%d",
					 i % 20 ? ", " : ",\n  ", i);
	snprintf(text + used, sizeof(text) - used, "\n");
	tap_ok(!load_expand(text, &cells, &n, err, sizeof(err)) && n == 100 &&
	       cells[99].seed == 100, "a list of 100 seeds makes 100 cells (%zu; %s)", n, err);
	config_cells_free(cells, n);
}

/* Issue 9.9: the number of cells is capped, and the cap can be raised. */
static void test_max_cells(void)
{
	char text[4096], err[1024], list[400];
	struct config *cfg;
	struct cell *cells = NULL;
	size_t used = 0, n = 0;
	int i;

	for (i = 1; i <= 64; i++)
		used += (size_t)snprintf(list + used, sizeof(list) - used, "%s%d",
					 i > 1 ? "," : "", i);
	snprintf(text, sizeof(text), "[experiment a]\nworkload = null\nrepeats = 1000\n"
		 "seed = %s\nthreads = %s\ninstances = %s\ninvocations = %s\n",
		 list, list, list, list);
	tap_ok(!load(text, &cfg, err, sizeof(err)), "64^4 x 1000 loads (%s)", err);
	tap_ok(config_expand(cfg, &cells, &n, err, sizeof(err)) == -E2BIG && !cells,
	       "but does not expand");
	tap_contains(err, "t.ini: 16777216000 cells (experiment a: 16777216000); the "
		     "limit is 10000 (--max-cells)", "the message gives the count and the limit");
	config_free(cfg);
	load("[experiment a]\nworkload = null\nthreads = 1, 2, 3\n", &cfg, err, sizeof(err));
	cfg->max_cells = 2;
	tap_ok(config_expand(cfg, &cells, &n, err, sizeof(err)) == -E2BIG,
	       "3 cells with a limit of 2 are refused");
	cfg->max_cells = 3;
	tap_ok(!config_expand(cfg, &cells, &n, err, sizeof(err)) && n == 3,
	       "and allowed with a limit of 3");
	config_cells_free(cells, n);
	config_free(cfg);
}

/* Issue 9.10: a value listed twice would make two cells with one key. */
static void test_duplicates(void)
{
	expect_error("[experiment a]\nworkload = null\nthreads = 1, 1\n",
		     "t.ini:3: threads lists '1' twice", "threads = 1, 1");
	expect_error("[experiment a]\nworkload = null\nthreads = 1, 01\n",
		     "t.ini:3: threads lists '01' twice (as '1')", "threads = 1, 01");
	expect_error("[experiment a]\nworkload = null, hello-world,\n  null\n",
		     "t.ini:2: workload lists 'null' twice", "a workload repeated on a continuation");
}

/* An empty list element was dropped silently: `threads = 1,,2` ran 1 and 2. */
static void test_empty_elements(void)
{
	expect_error("[experiment a]\nworkload = null\nthreads = 1,,2\n",
		     "t.ini:3: threads: element 2 of '1,,2' is empty", "threads = 1,,2");
	expect_error("[experiment a]\nworkload = null\nthreads = 1, 2,\n",
		     "t.ini:3: threads: element 3 of '1, 2,' is empty", "a trailing comma");
	expect_error("[experiment a]\nworkload = null\nprobes = , latency\n",
		     "t.ini:3: probes: element 1 of ', latency' is empty", "a leading comma");
}

/* Issue 9.9: out of memory says so (the message was empty or garbage). */
static void test_out_of_memory(void)
{
	char text[1024], list[200], err[256];
	struct config *cfg;
	struct cell *cells = NULL;
	struct rlimit as = { 1UL << 30, 1UL << 30 };
	size_t used = 0, n = 0;
	int i, fd[2], status = -1;
	pid_t pid;

	if (UNDER_ASAN) {
		for (i = 0; i < 2; i++)
			printf("ok %d # SKIP an address-space limit and ASan's shadow memory do "
			       "not mix\n", ++tap_count);
		return;
	}
	for (i = 1; i <= 64; i++)
		used += (size_t)snprintf(list + used, sizeof(list) - used, "%s%d",
					 i > 1 ? "," : "", i);
	snprintf(text, sizeof(text), "[experiment a]\nworkload = null\nseed = %s\n"
		 "threads = %s\ninstances = %s\ninvocations = %s\n", list, list, list, list);
	if (pipe(fd))
		return;
	pid = fork();
	if (!pid) {
		/* 16.7 million cells in 1 GiB of address space */
		setrlimit(RLIMIT_AS, &as);
		memset(err, 'X', sizeof(err));
		if (load(text, &cfg, err, sizeof(err)))
			_exit(3);
		cfg->max_cells = 100000000;
		i = config_expand(cfg, &cells, &n, err, sizeof(err));
		if (write(fd[1], err, strnlen(err, sizeof(err) - 1)) < 0)
			_exit(4);
		_exit(i == -ENOMEM ? 0 : 1);
	}
	close(fd[1]);
	memset(err, 0, sizeof(err));
	if (read(fd[0], err, sizeof(err) - 1) < 0)
		err[0] = '\0';
	close(fd[0]);
	waitpid(pid, &status, 0);
	tap_ok(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	       "16.7 million cells in 1 GiB: -ENOMEM (status %d)", status);
	tap_contains(err, "t.ini: out of memory", "and a message saying so");
}

/* Issue 9.9 and 9.11: configs are regular files of bounded size. */
static void test_files(void)
{
	char dir[] = "/tmp/cvmbench-config-XXXXXX", path[64], err[1024];
	struct config *cfg = NULL;
	FILE *f;

	tap_ok(mkdtemp(dir) != NULL, "a temporary directory");
	tap_ok(config_load(dir, &cfg, err, sizeof(err)) == -EISDIR, "a directory is refused");
	tap_contains(err, ": is a directory", "saying so");
	tap_ok(config_load("/dev/zero", &cfg, err, sizeof(err)) == -EINVAL,
	       "/dev/zero is refused (without reading it)");
	tap_contains(err, "/dev/zero: not a regular file (a character device)", "saying what it is");
	snprintf(path, sizeof(path), "%s/fifo", dir);
	mkfifo(path, 0600);
	tap_ok(config_load(path, &cfg, err, sizeof(err)) == -EINVAL, "a FIFO is refused, no hang");
	tap_contains(err, "fifo: not a regular file (a FIFO)", "saying what it is");
	unlink(path);
	snprintf(path, sizeof(path), "%s/big.ini", dir);
	f = fopen(path, "w");
	if (f) {
		fprintf(f, "[experiment a]\nworkload = null\n");
		fseek(f, CONFIG_MAX_BYTES, SEEK_SET);
		fputc('\n', f);
		fclose(f);
	}
	tap_ok(config_load(path, &cfg, err, sizeof(err)) == -EFBIG, "a config over 1 MiB");
	tap_contains(err, "big.ini: larger than 1048576 bytes", "is refused with its size");
	unlink(path);
	rmdir(dir);
}

int main(void)
{
	tap_plan(56);
	test_section_names();
	test_indented_key();
	test_whole_values();
	test_field_lengths();
	test_key_table();
	test_long_spec();
	test_long_lists();
	test_max_cells();
	test_duplicates();
	test_empty_elements();
	test_key_collision();
	test_key_defaults();
	test_out_of_memory();
	test_files();
	return tap_done();
}
