// SPDX-License-Identifier: MIT
/*
 * map-reduce.c - word count as a map / shuffle / reduce job.
 *
 * Origin: FunctionBench "MapReduce" (word count over a text corpus, mapper
 * and reducer functions). init generates the text with wl_gen_text() (or
 * reads --input) and splits it into fixed chunks; invoke runs the job:
 *  map     one task per chunk (worker threads): tokenize and count into a
 *          local table (a combiner), then hash-partition the pairs into
 *          MR_PARTITIONS buckets;
 *  shuffle each reducer takes its bucket from every map task, in chunk order;
 *  reduce  one task per partition sums the counts;
 *  output  all (word, count) pairs sorted by count desc, then word asc;
 *          --output gets them, and the generated text goes beside it as
 *          OUTPUT.text (so --output must be a regular file, not a device).
 * Tokens are maximal runs of ASCII letters, case-folded to lower case when
 * the text is loaded; every other byte separates words. Counts are integers
 * and chunks do not depend on the thread count, so the result does not.
 * Sizes (bytes of text): test 64 KiB, small 8 MiB, large 64 MiB.
 */
#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "outpath.h"
#include "wlexport.h"
#include "wlfile.h"
#include "workload.h"

#define MR_PARTITIONS 16

struct word_count {
	const char *word;         /* points into the text */
	uint32_t len;
	uint64_t hash;
	uint64_t count;
};

/* Open addressing, power-of-two capacity, at most half full. */
struct word_table {
	struct word_count *slots;
	size_t cap, used;
};

/* A map task's output: its pairs grouped by partition. */
struct map_output {
	struct word_count *pairs;
	size_t start[MR_PARTITIONS + 1];
};

struct mr_state {
	char *text;
	size_t len;
	size_t *chunk_end;        /* chunk c is [chunk_end[c-1], chunk_end[c]) */
	size_t nchunks;
	int from_input;
};

struct mr_job {
	struct mr_state *st;
	struct map_output *maps;
	struct word_table reduced[MR_PARTITIONS];
	atomic_int failed;
};

static int is_letter(char c)
{
	return c >= 'a' && c <= 'z';
}

static uint64_t word_hash(const char *w, size_t len)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	size_t i;

	for (i = 0; i < len; i++)
		h = (h ^ (unsigned char)w[i]) * 0x100000001b3ULL;
	return h;
}

static int table_init(struct word_table *t, size_t cap)
{
	t->slots = calloc(cap, sizeof(*t->slots));
	t->cap = cap;
	t->used = 0;
	return t->slots ? 0 : -ENOMEM;
}

static int table_add(struct word_table *t, const char *w, uint32_t len,
		     uint64_t hash, uint64_t count);

static int table_grow(struct word_table *t)
{
	struct word_table bigger;
	size_t i;

	if (table_init(&bigger, t->cap * 2))
		return -ENOMEM;
	for (i = 0; i < t->cap; i++)
		if (t->slots[i].word)
			table_add(&bigger, t->slots[i].word, t->slots[i].len,
				  t->slots[i].hash, t->slots[i].count);
	free(t->slots);
	*t = bigger;
	return 0;
}

static int table_add(struct word_table *t, const char *w, uint32_t len,
		     uint64_t hash, uint64_t count)
{
	size_t i = hash & (t->cap - 1);

	for (;; i = (i + 1) & (t->cap - 1)) {
		struct word_count *s = &t->slots[i];

		if (!s->word)
			break;
		if (s->hash == hash && s->len == len && !memcmp(s->word, w, len)) {
			s->count += count;
			return 0;
		}
	}
	t->slots[i] = (struct word_count){ w, len, hash, count };
	if (++t->used * 2 > t->cap)
		return table_grow(t);
	return 0;
}

/* Tokenizes [begin, end) of the text into @t. */
static int map_count(const char *text, size_t begin, size_t end,
		     struct word_table *t)
{
	size_t i = begin;

	while (i < end) {
		size_t w;

		while (i < end && !is_letter(text[i]))
			i++;
		for (w = i; i < end && is_letter(text[i]); i++)
			;
		if (i > w && table_add(t, text + w, (uint32_t)(i - w),
				       word_hash(text + w, i - w), 1))
			return -ENOMEM;
	}
	return 0;
}

/* Counting sort of the local table's pairs by partition. */
static int map_partition(struct word_table *t, struct map_output *out)
{
	size_t i, fill[MR_PARTITIONS] = { 0 };

	out->pairs = malloc((t->used ? t->used : 1) * sizeof(*out->pairs));
	if (!out->pairs)
		return -ENOMEM;
	memset(out->start, 0, sizeof(out->start));
	for (i = 0; i < t->cap; i++)
		if (t->slots[i].word)
			out->start[t->slots[i].hash % MR_PARTITIONS + 1]++;
	for (i = 0; i < MR_PARTITIONS; i++)
		out->start[i + 1] += out->start[i];
	for (i = 0; i < t->cap; i++) {
		size_t p;

		if (!t->slots[i].word)
			continue;
		p = t->slots[i].hash % MR_PARTITIONS;
		out->pairs[out->start[p] + fill[p]++] = t->slots[i];
	}
	return 0;
}

static void map_task(void *arg, size_t begin, size_t end, int worker)
{
	struct mr_job *job = arg;
	struct mr_state *st = job->st;
	size_t c;

	(void)worker;
	for (c = begin; c < end; c++) {
		struct word_table local;
		size_t from = c ? st->chunk_end[c - 1] : 0;

		if (table_init(&local, 1024) ||
		    map_count(st->text, from, st->chunk_end[c], &local) ||
		    map_partition(&local, &job->maps[c]))
			job->failed = 1;
		free(local.slots);
	}
}

static void reduce_task(void *arg, size_t begin, size_t end, int worker)
{
	struct mr_job *job = arg;
	size_t p, c, i;

	(void)worker;
	for (p = begin; p < end; p++) {
		struct word_table *t = &job->reduced[p];

		if (table_init(t, 256)) {
			job->failed = 1;
			continue;
		}
		for (c = 0; c < job->st->nchunks; c++) {
			const struct map_output *m = &job->maps[c];

			for (i = m->start[p]; i < m->start[p + 1]; i++)
				if (table_add(t, m->pairs[i].word, m->pairs[i].len,
					      m->pairs[i].hash, m->pairs[i].count))
					job->failed = 1;
		}
	}
}

static int by_count_then_word(const void *a, const void *b)
{
	const struct word_count *x = a, *y = b;
	uint32_t n = x->len < y->len ? x->len : y->len;
	int cmp;

	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	cmp = memcmp(x->word, y->word, n);
	if (cmp)
		return cmp;
	return (x->len > y->len) - (x->len < y->len);
}

/* Gathers the reducers' tables into one array sorted for output. */
static struct word_count *gather_sorted(struct mr_job *job, size_t *n)
{
	struct word_count *all;
	size_t p, i, total = 0, k = 0;

	for (p = 0; p < MR_PARTITIONS; p++)
		total += job->reduced[p].used;
	all = malloc((total ? total : 1) * sizeof(*all));
	if (!all)
		return NULL;
	for (p = 0; p < MR_PARTITIONS; p++)
		for (i = 0; i < job->reduced[p].cap; i++)
			if (job->reduced[p].slots[i].word)
				all[k++] = job->reduced[p].slots[i];
	qsort(all, total, sizeof(*all), by_count_then_word);
	*n = total;
	return all;
}

static int write_counts(struct wl_instance *inst, const struct word_count *wc,
			size_t n, struct wl_output *out)
{
	size_t i, len = 0, cap = n * 32 + 1;
	char *buf = malloc(cap);

	if (!buf)
		return wl_error(inst, -ENOMEM, "map-reduce: out of memory for the output");
	for (i = 0; i < n; i++) {
		if (len + wc[i].len + 24 > cap) {
			char *p = realloc(buf, cap * 2 + wc[i].len);

			if (!p) {
				free(buf);
				return wl_error(inst, -ENOMEM, "map-reduce: out of memory");
			}
			buf = p;
			cap = cap * 2 + wc[i].len;
		}
		len += (size_t)sprintf(buf + len, "%llu ", (unsigned long long)wc[i].count);
		memcpy(buf + len, wc[i].word, wc[i].len);
		len += wc[i].len;
		buf[len++] = '\n';
	}
	wl_out_file_owned(out, inst->params.output, buf, len);
	return 0;
}

/* The generated text to @output.text, after the end time. */
static int write_text(struct wl_instance *inst, const char *output, void *arg)
{
	const struct mr_state *st = arg;
	char path[4096];

	return wl_out_beside(inst, output, ".text", path, sizeof(path)) ?:
	       wl_write_file_atomic(inst, path, st->text, st->len);
}

/* Has cvmfn write the counts to --output and the generated text to --output.text. */
static int write_output(struct wl_instance *inst, const struct word_count *wc,
			size_t n, struct wl_output *out)
{
	struct mr_state *st = inst->priv;
	int err = write_counts(inst, wc, n, out);

	if (!err && !st->from_input)
		wl_out_file_with(out, inst->params.output, write_text, st);
	return err;
}

static void output_counts(struct wl_instance *inst, struct wl_output *out,
			  const struct word_count *wc, size_t n)
{
	uint64_t words = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		wl_out_bytes(out, wc[i].word, wc[i].len);
		wl_out_bytes(out, "", 1);
		wl_out_u64(out, wc[i].count);
		words += wc[i].count;
	}
	snprintf(inst->summary, sizeof(inst->summary),
		 "%llu words, %zu distinct, top '%.*s' x%llu",
		 (unsigned long long)words, n, n ? (int)wc[0].len : 0,
		 n ? wc[0].word : "", n ? (unsigned long long)wc[0].count : 0ULL);
}

static void job_free(struct mr_job *job)
{
	size_t i;

	for (i = 0; job->maps && i < job->st->nchunks; i++)
		free(job->maps[i].pairs);
	free(job->maps);
	for (i = 0; i < MR_PARTITIONS; i++)
		free(job->reduced[i].slots);
}

static int mr_invoke(struct wl_instance *inst, struct wl_output *out)
{
	struct mr_job job = { .st = inst->priv };
	struct word_count *sorted = NULL;
	size_t n = 0;
	int err = 0;

	job.maps = calloc(job.st->nchunks + 1, sizeof(*job.maps));
	if (!job.maps)
		return wl_error(inst, -ENOMEM, "map-reduce: out of memory");
	pool_for_dynamic(inst->pool, job.st->nchunks, 1, map_task, &job);
	if (!job.failed)
		pool_for_dynamic(inst->pool, MR_PARTITIONS, 1, reduce_task, &job);
	if (!job.failed)
		sorted = gather_sorted(&job, &n);
	if (!sorted) {
		job_free(&job);
		return wl_error(inst, -ENOMEM, "map-reduce: out of memory");
	}
	output_counts(inst, out, sorted, n);
	if (inst->params.output)
		err = write_output(inst, sorted, n, out);
	free(sorted);
	job_free(&job);
	return err;
}

/* Chunks of about @size bytes, each ending at a non-letter (or the end). */
static int split_chunks(struct mr_state *st, size_t size)
{
	size_t pos = 0, max = st->len / size + 2;

	st->chunk_end = malloc(max * sizeof(*st->chunk_end));
	if (!st->chunk_end)
		return -ENOMEM;
	while (pos < st->len) {
		pos = pos + size < st->len ? pos + size : st->len;
		while (pos < st->len && is_letter(st->text[pos]))
			pos++;
		st->chunk_end[st->nchunks++] = pos;
	}
	return 0;
}

static int load_text(struct wl_instance *inst, struct mr_state *st)
{
	void *data;
	size_t i;
	int err;

	if (!inst->params.input) {
		st->len = (size_t)wl_pick(inst, 64 << 10, 8 << 20, 64 << 20);
		st->text = malloc(st->len);
		if (!st->text)
			return wl_error(inst, -ENOMEM, "map-reduce: out of memory for the text");
		wl_gen_text(inst->params.seed, st->text, st->len);
		return 0;
	}
	err = wl_read_file(inst, inst->params.input, &data, &st->len);
	if (err)
		return err;
	st->text = data;
	st->from_input = 1;
	for (i = 0; i < st->len; i++)
		if (st->text[i] >= 'A' && st->text[i] <= 'Z')
			st->text[i] = (char)(st->text[i] - 'A' + 'a');
	return 0;
}

static void mr_teardown(struct wl_instance *inst)
{
	struct mr_state *st = inst->priv;

	free(st->text);
	free(st->chunk_end);
}

static int mr_init(struct wl_instance *inst)
{
	struct mr_state *st = inst->priv;
	char path[4096];
	int err;

	err = load_text(inst, st);
	/* refused before any call: --output.text goes beside a regular file only */
	if (!err && inst->params.output && !st->from_input)
		err = wl_out_beside(inst, inst->params.output, ".text", path, sizeof(path));
	if (!err && split_chunks(st, (size_t)wl_pick(inst, 8 << 10, 256 << 10, 1 << 20)))
		err = wl_error(inst, -ENOMEM, "map-reduce: out of memory");
	return err;
}

/* For the Python twin: "text", the text as the map tasks read it. */
static int mr_export(struct wl_instance *inst)
{
	struct mr_state *st = inst->priv;

	return wl_export_write(inst, "text", st->text, st->len);
}

const struct workload_ops wl_map_reduce = {
	.version = WL_OPS_VERSION,
	.info = &wl_info_map_reduce,
	.uses_threads = 1,
	.state_size = sizeof(struct mr_state),
	.init = mr_init,
	.invoke = mr_invoke,
	.teardown = mr_teardown,
	.export_inputs = mr_export,
};
