// SPDX-License-Identifier: MIT
/*
 * logistic-regression.c - TF-IDF features of review texts and an L2
 * logistic-regression classifier trained on them.
 *
 * Origin: FunctionBench "model_training" (scikit-learn TfidfVectorizer and
 * LogisticRegression on Amazon fine-food reviews). No reviews can be
 * downloaded, so init generates labelled reviews from the seed: filler
 * words (wl_vocabulary() and seed-made product words) with ~15% sentiment
 * words, three in four of them of the review's polarity, and 5% of labels
 * flipped. init tokenizes them as sklearn does (lower-cased runs of 2+
 * [A-Za-z0-9_]) and builds the sorted vocabulary; --input reads
 * "LABEL<TAB>TEXT" lines instead.
 * invoke = one training request:
 *  TF-IDF  raw counts x idf, idf = ln((1 + n) / (1 + df)) + 1, each row
 *          L2-normalized (TfidfVectorizer defaults: smooth_idf, norm l2);
 *  train   LR_ITERATIONS of Nesterov-accelerated gradient descent on
 *          mean log-loss + lambda/2 |w|^2, lambda = 1 / (C n), C = 1 (as
 *          sklearn's LogisticRegression(C=1)), intercept not penalized;
 *          gradients summed per block of LR_BLOCK samples in the pool and
 *          the blocks added in order, so threads do not change a bit;
 *  report  training accuracy.
 * Sizes (reviews): test 200, small 5000, large 20000.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rng.h"
#include "wlexport.h"
#include "wlfile.h"
#include "workload.h"

#define LR_ITERATIONS 300
#define LR_BLOCK 256
#define LR_C 1.0
#define PRODUCT_WORDS 2000
#define SENTIMENT_PERCENT 15
#define LABEL_NOISE_PERCENT 5

static const char *const positive_words[] = {
	"good", "great", "excellent", "love", "happy", "nice", "best", "perfect",
	"amazing", "fast", "wonderful", "fantastic", "reliable", "helpful",
	"friendly", "recommend", "smooth", "delicious",
};

static const char *const negative_words[] = {
	"bad", "terrible", "awful", "poor", "worst", "slow", "broken", "boring",
	"cheap", "useless", "disappointing", "refund", "rude", "crash",
	"expensive", "stale", "bland", "waste",
};

#define NPOS (sizeof(positive_words) / sizeof(positive_words[0]))
#define NNEG (sizeof(negative_words) / sizeof(negative_words[0]))

struct lr_state {
	size_t ndocs, nvocab;
	int *label;
	char *text;               /* all documents, one per line */
	size_t *text_start;       /* document i is text[text_start[i] .. +1) */
	uint32_t *tokens;         /* vocabulary ids, document by document */
	size_t *tok_start;        /* also the row capacity of the matrix */
	char **vocab;             /* sorted: index = feature id */
	char *vocab_text;
	/* invoke: TF-IDF matrix (CSR rows at tok_start, row_nnz used) */
	uint32_t *row_nnz, *col, *df;
	double *val, *idf;
	/* invoke: model and the gradient of each block */
	double *w, *w_prev, *look, *grad, *block_grad, *prob;
	size_t nblocks;
	double accuracy;          /* of the last invoke, for --output */
};

/* ---- review generation --------------------------------------------------- */

static int is_sentiment_word(const char *w)
{
	size_t i;

	for (i = 0; i < NPOS; i++)
		if (!strcmp(w, positive_words[i]))
			return 1;
	for (i = 0; i < NNEG; i++)
		if (!strcmp(w, negative_words[i]))
			return 1;
	return 0;
}

/* A seed-made product word: 4 to 9 letters. */
static void product_word(uint64_t seed, size_t k, char *out)
{
	struct rng r;
	size_t i, len;

	rng_seed_stream(&r, seed, 0x9d0000 + k);
	len = 4 + rng_below(&r, 6);
	for (i = 0; i < len; i++)
		out[i] = (char)('a' + rng_below(&r, 26));
	out[len] = '\0';
}

static const char *filler_word(struct rng *r, uint64_t seed, char *buf)
{
	size_t nvocab;
	const char *const *vocab = wl_vocabulary(&nvocab);
	const char *w;

	if (rng_below(r, 2)) {
		product_word(seed, rng_below(r, PRODUCT_WORDS), buf);
		return buf;
	}
	do {
		double u = rng_unit(r);

		w = vocab[(size_t)((double)nvocab * u * u) % nvocab];
	} while (is_sentiment_word(w));
	return w;
}

/* Appends one review (ending in '\n') at @out; returns its length. */
static size_t make_review(struct rng *r, uint64_t seed, int label, char *out)
{
	size_t i, len = 0, words = 20 + rng_below(r, 41);
	char buf[16];

	for (i = 0; i < words; i++) {
		const char *w;

		if (rng_below(r, 100) < SENTIMENT_PERCENT) {
			int positive = (rng_below(r, 4) != 0) == (label == 1);

			w = positive ? positive_words[rng_below(r, NPOS)] :
				       negative_words[rng_below(r, NNEG)];
		} else {
			w = filler_word(r, seed, buf);
		}
		memcpy(out + len, w, strlen(w));
		if (i == 0 && out[0] >= 'a' && out[0] <= 'z')
			out[0] = (char)(out[0] - 32);
		len += strlen(w);
		out[len++] = i + 1 == words ? '.' : rng_below(r, 10) ? ' ' : ',';
		if (out[len - 1] == ',')
			out[len++] = ' ';
	}
	out[len++] = '\n';
	return len;
}

static int reviews_generate(struct wl_instance *inst, struct lr_state *st)
{
	struct rng r;
	size_t i, pos = 0;

	st->ndocs = (size_t)wl_pick(inst, 200, 5000, 20000);
	st->label = malloc(st->ndocs * sizeof(*st->label));
	st->text_start = malloc((st->ndocs + 1) * sizeof(*st->text_start));
	st->text = malloc(st->ndocs * 61 * 16 + 1);
	if (!st->label || !st->text_start || !st->text)
		return wl_error(inst, -ENOMEM, "logistic-regression: out of memory");
	rng_seed_stream(&r, inst->params.seed, 0x10617);
	for (i = 0; i < st->ndocs; i++) {
		int label = (int)rng_below(&r, 2);

		st->text_start[i] = pos;
		pos += make_review(&r, inst->params.seed, label, st->text + pos);
		if (rng_below(&r, 100) < LABEL_NOISE_PERCENT)
			label = !label;
		st->label[i] = label;
	}
	st->text_start[st->ndocs] = pos;
	return 0;
}

/* "LABEL<TAB>TEXT" lines: the labels are cut off, the texts kept. */
static int reviews_read(struct wl_instance *inst, struct lr_state *st)
{
	size_t len, i, lines = 0, out = 0;
	void *data;
	char *p, *next;
	int err = wl_read_file(inst, inst->params.input, &data, &len);

	if (err)
		return err;
	st->text = data;
	for (i = 0; i < len; i++)
		lines += st->text[i] == '\n';
	st->label = malloc((lines + 1) * sizeof(*st->label));
	st->text_start = malloc((lines + 2) * sizeof(*st->text_start));
	if (!st->label || !st->text_start)
		return wl_error(inst, -ENOMEM, "logistic-regression: out of memory");
	if (len && st->text[len - 1] != '\n')
		st->text[len++] = '\n';    /* wl_read_file() left room for a NUL */
	for (p = st->text; p < st->text + len; p = next) {
		char *nl = memchr(p, '\n', (size_t)(st->text + len - p));

		next = nl + 1;
		if ((*p != '0' && *p != '1') || p[1] != '\t')
			return wl_error(inst, -EINVAL,
					"logistic-regression: %s line %zu is not LABEL<TAB>TEXT",
					inst->params.input, st->ndocs + 1);
		st->label[st->ndocs] = *p - '0';
		st->text_start[st->ndocs++] = out;
		memmove(st->text + out, p + 2, (size_t)(nl - p) - 1);
		out += (size_t)(nl - p) - 1;
	}
	st->text_start[st->ndocs] = out;
	if (st->ndocs < 2)
		return wl_error(inst, -EINVAL, "logistic-regression: %s holds < 2 reviews",
				inst->params.input);
	return 0;
}

/* ---- vocabulary ----------------------------------------------------------- */

struct vocab_build {
	const char **word;        /* first occurrence, by provisional id */
	uint32_t *len;
	uint32_t *slot;           /* hash slots: provisional id + 1, 0 = empty */
	size_t cap, count;
};

static int is_word_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_';
}

static uint32_t vocab_id(struct vocab_build *vb, const char *w, uint32_t len)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	size_t i;

	for (i = 0; i < len; i++)
		h = (h ^ (unsigned char)w[i]) * 0x100000001b3ULL;
	for (i = h & (vb->cap - 1); vb->slot[i]; i = (i + 1) & (vb->cap - 1)) {
		uint32_t id = vb->slot[i] - 1;

		if (vb->len[id] == len && !memcmp(vb->word[id], w, len))
			return id;
	}
	vb->word[vb->count] = w;
	vb->len[vb->count] = len;
	vb->slot[i] = (uint32_t)++vb->count;
	return (uint32_t)vb->count - 1;
}

/* Lower-cases the text and maps each token to a provisional id. */
static size_t tokenize_all(struct lr_state *st, struct vocab_build *vb)
{
	size_t d, i, ntok = 0;

	for (d = 0; d < st->ndocs; d++) {
		st->tok_start[d] = ntok;
		for (i = st->text_start[d]; i < st->text_start[d + 1];) {
			size_t start;

			while (i < st->text_start[d + 1] && !is_word_char(st->text[i]))
				i++;
			for (start = i; i < st->text_start[d + 1] &&
			     is_word_char(st->text[i]); i++)
				if (st->text[i] >= 'A' && st->text[i] <= 'Z')
					st->text[i] = (char)(st->text[i] + 32);
			if (i - start >= 2)
				st->tokens[ntok++] = vocab_id(vb, st->text + start,
							      (uint32_t)(i - start));
		}
	}
	st->tok_start[st->ndocs] = ntok;
	return ntok;
}

static int by_word(const void *a, const void *b, void *arg)
{
	const struct vocab_build *sort_vb = arg;
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	uint32_t n = sort_vb->len[x] < sort_vb->len[y] ? sort_vb->len[x] : sort_vb->len[y];
	int cmp = memcmp(sort_vb->word[x], sort_vb->word[y], n);

	return cmp ? cmp : (int)sort_vb->len[x] - (int)sort_vb->len[y];
}

/* Sorts the vocabulary (sklearn's feature order) and renumbers the tokens. */
static int vocab_finish(struct lr_state *st, struct vocab_build *vb, size_t ntok)
{
	uint32_t *order = malloc(vb->count * sizeof(*order));
	uint32_t *rank = malloc(vb->count * sizeof(*rank));
	size_t i, bytes = 0, pos = 0;

	st->nvocab = vb->count;
	for (i = 0; i < vb->count; i++)
		bytes += vb->len[i] + 1;
	st->vocab = malloc((vb->count + 1) * sizeof(*st->vocab));
	st->vocab_text = malloc(bytes + 1);
	if (!order || !rank || !st->vocab || !st->vocab_text) {
		free(order);
		free(rank);
		return -ENOMEM;
	}
	for (i = 0; i < vb->count; i++)
		order[i] = (uint32_t)i;
	qsort_r(order, vb->count, sizeof(*order), by_word, vb);
	for (i = 0; i < vb->count; i++) {
		rank[order[i]] = (uint32_t)i;
		st->vocab[i] = st->vocab_text + pos;
		memcpy(st->vocab_text + pos, vb->word[order[i]], vb->len[order[i]]);
		pos += vb->len[order[i]];
		st->vocab_text[pos++] = '\0';
	}
	for (i = 0; i < ntok; i++)
		st->tokens[i] = rank[st->tokens[i]];
	free(order);
	free(rank);
	return 0;
}

static int vocab_build(struct wl_instance *inst, struct lr_state *st)
{
	size_t max_tokens = st->text_start[st->ndocs] / 3 + 1, ntok;
	struct vocab_build vb = { .cap = 1 };
	int err = -ENOMEM;

	while (vb.cap < 2 * max_tokens)
		vb.cap *= 2;
	st->tokens = malloc(max_tokens * sizeof(*st->tokens));
	st->tok_start = malloc((st->ndocs + 1) * sizeof(*st->tok_start));
	vb.word = malloc(max_tokens * sizeof(*vb.word));
	vb.len = malloc(max_tokens * sizeof(*vb.len));
	vb.slot = calloc(vb.cap, sizeof(*vb.slot));
	if (st->tokens && st->tok_start && vb.word && vb.len && vb.slot) {
		ntok = tokenize_all(st, &vb);
		err = vocab_finish(st, &vb, ntok);
	}
	free(vb.word);
	free(vb.len);
	free(vb.slot);
	if (!err && !st->nvocab)
		return wl_error(inst, -EINVAL, "logistic-regression: no words in the reviews");
	return err ? wl_error(inst, err, "logistic-regression: out of memory") : 0;
}

/* ---- TF-IDF ---------------------------------------------------------------- */

static int by_id(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return (x > y) - (x < y);
}

/* Row d: sorted distinct terms with their raw counts (tf). */
static void count_terms(void *arg, size_t begin, size_t end, int worker)
{
	struct lr_state *st = arg;
	size_t d, i;

	(void)worker;
	for (d = begin; d < end; d++) {
		size_t s = st->tok_start[d], e = st->tok_start[d + 1], k = 0;
		uint32_t *col = st->col + s;

		memcpy(col, st->tokens + s, (e - s) * sizeof(*col));
		qsort(col, e - s, sizeof(*col), by_id);
		for (i = 0; i < e - s; i++) {
			if (k && col[k - 1] == col[i]) {
				st->val[s + k - 1] += 1;
				continue;
			}
			col[k] = col[i];
			st->val[s + k++] = 1;
		}
		st->row_nnz[d] = (uint32_t)k;
	}
}

static void weigh_rows(void *arg, size_t begin, size_t end, int worker)
{
	struct lr_state *st = arg;
	size_t d, i;

	(void)worker;
	for (d = begin; d < end; d++) {
		double *v = st->val + st->tok_start[d], norm = 0;
		const uint32_t *col = st->col + st->tok_start[d];

		for (i = 0; i < st->row_nnz[d]; i++) {
			v[i] *= st->idf[col[i]];
			norm += v[i] * v[i];
		}
		norm = sqrt(norm);
		for (i = 0; norm > 0 && i < st->row_nnz[d]; i++)
			v[i] /= norm;
	}
}

static void tfidf(struct wl_instance *inst, struct lr_state *st)
{
	size_t d, i;

	pool_for_dynamic(inst->pool, st->ndocs, 64, count_terms, st);
	memset(st->df, 0, st->nvocab * sizeof(*st->df));
	for (d = 0; d < st->ndocs; d++)
		for (i = 0; i < st->row_nnz[d]; i++)
			st->df[st->col[st->tok_start[d] + i]]++;
	for (i = 0; i < st->nvocab; i++)
		st->idf[i] = log((1.0 + (double)st->ndocs) / (1.0 + st->df[i])) + 1.0;
	pool_for_dynamic(inst->pool, st->ndocs, 64, weigh_rows, st);
}

/* ---- training --------------------------------------------------------------- */

/* w[nvocab] is the intercept. */
static double row_margin(const struct lr_state *st, const double *w, size_t d)
{
	const uint32_t *col = st->col + st->tok_start[d];
	const double *v = st->val + st->tok_start[d];
	double z = w[st->nvocab];
	size_t i;

	for (i = 0; i < st->row_nnz[d]; i++)
		z += w[col[i]] * v[i];
	return z;
}

static double sigmoid(double z)
{
	return z >= 0 ? 1.0 / (1.0 + exp(-z)) : exp(z) / (1.0 + exp(z));
}

/* Block b's sum of (p - y) x over its samples, at the point st->look. */
static void block_gradient(void *arg, size_t begin, size_t end, int worker)
{
	struct lr_state *st = arg;
	size_t b, d, i;

	(void)worker;
	for (b = begin; b < end; b++) {
		double *g = st->block_grad + b * (st->nvocab + 1);
		size_t last = (b + 1) * LR_BLOCK < st->ndocs ? (b + 1) * LR_BLOCK : st->ndocs;

		memset(g, 0, (st->nvocab + 1) * sizeof(*g));
		for (d = b * LR_BLOCK; d < last; d++) {
			double r = sigmoid(row_margin(st, st->look, d)) - st->label[d];
			const uint32_t *col = st->col + st->tok_start[d];
			const double *v = st->val + st->tok_start[d];

			for (i = 0; i < st->row_nnz[d]; i++)
				g[col[i]] += r * v[i];
			g[st->nvocab] += r;
		}
	}
}

/* The full gradient at st->look, blocks added in block order. */
static void full_gradient(struct wl_instance *inst, struct lr_state *st,
			  double lambda)
{
	size_t b, j, dim = st->nvocab + 1;

	pool_for_dynamic(inst->pool, st->nblocks, 1, block_gradient, st);
	memset(st->grad, 0, dim * sizeof(*st->grad));
	for (b = 0; b < st->nblocks; b++)
		for (j = 0; j < dim; j++)
			st->grad[j] += st->block_grad[b * dim + j];
	for (j = 0; j < dim; j++)
		st->grad[j] /= (double)st->ndocs;
	for (j = 0; j < st->nvocab; j++)
		st->grad[j] += lambda * st->look[j];
}

/* Nesterov's accelerated gradient with step 1/L, L = 0.25 * 2 + lambda. */
static void train(struct wl_instance *inst, struct lr_state *st)
{
	double lambda = 1.0 / (LR_C * (double)st->ndocs), step = 1.0 / (0.5 + lambda);
	size_t dim = st->nvocab + 1, j;
	int it;

	memset(st->w, 0, dim * sizeof(*st->w));
	memset(st->w_prev, 0, dim * sizeof(*st->w_prev));
	for (it = 0; it < LR_ITERATIONS; it++) {
		double momentum = (double)it / (it + 3);

		for (j = 0; j < dim; j++)
			st->look[j] = st->w[j] + momentum * (st->w[j] - st->w_prev[j]);
		full_gradient(inst, st, lambda);
		memcpy(st->w_prev, st->w, dim * sizeof(*st->w));
		for (j = 0; j < dim; j++)
			st->w[j] = st->look[j] - step * st->grad[j];
	}
}

/* ---- invoke ------------------------------------------------------------------ */

static int write_output(struct wl_instance *inst, const char *path, void *arg);

static int lr_invoke(struct wl_instance *inst, struct wl_output *out)
{
	struct lr_state *st = inst->priv;
	size_t d, j, correct = 0;

	tfidf(inst, st);
	train(inst, st);
	for (d = 0; d < st->ndocs; d++) {
		st->prob[d] = sigmoid(row_margin(st, st->w, d));
		correct += (st->prob[d] >= 0.5) == (st->label[d] == 1);
		wl_out_bytes(out, st->prob[d] >= 0.5 ? "1" : "0", 1);
	}
	for (j = 0; j <= st->nvocab; j++)
		wl_out_double(out, st->w[j], 6);
	wl_out_u64(out, correct);
	snprintf(inst->summary, sizeof(inst->summary),
		 "%zu reviews, %zu features, %d iterations: training accuracy %.4f",
		 st->ndocs, st->nvocab, LR_ITERATIONS, (double)correct / (double)st->ndocs);
	st->accuracy = (double)correct / (double)st->ndocs;
	if (inst->params.output)
		wl_out_file_with(out, inst->params.output, write_output, st);
	return 0;
}

/* "d LABEL TEXT", "v WORD", "x ROW COL VALUE", "w J VALUE" (J = nvocab: intercept),
 * "p ROW PROBABILITY", "acc ACCURACY" lines; cvmfn writes them after the end
 * time (wl_out_file_with()). */
static int write_output(struct wl_instance *inst, const char *path, void *arg)
{
	const struct lr_state *st = arg;
	size_t cap = st->text_start[st->ndocs] + st->ndocs * 40 + st->nvocab * 64 +
		     st->tok_start[st->ndocs] * 48 + 64, len = 0, d, i;
	char *buf = malloc(cap);
	int err;

	if (!buf)
		return wl_error(inst, -ENOMEM, "logistic-regression: out of memory");
	for (d = 0; d < st->ndocs; d++)
		len += (size_t)sprintf(buf + len, "d %d %.*s\n", st->label[d],
				       (int)(st->text_start[d + 1] - st->text_start[d] - 1),
				       st->text + st->text_start[d]);
	for (i = 0; i < st->nvocab; i++)
		len += (size_t)sprintf(buf + len, "v %s\n", st->vocab[i]);
	for (d = 0; d < st->ndocs; d++)
		for (i = 0; i < st->row_nnz[d]; i++)
			len += (size_t)sprintf(buf + len, "x %zu %u %.17g\n", d,
					       st->col[st->tok_start[d] + i],
					       st->val[st->tok_start[d] + i]);
	for (i = 0; i <= st->nvocab; i++)
		len += (size_t)sprintf(buf + len, "w %zu %.17g\n", i, st->w[i]);
	for (d = 0; d < st->ndocs; d++)
		len += (size_t)sprintf(buf + len, "p %zu %.17g\n", d, st->prob[d]);
	len += (size_t)sprintf(buf + len, "acc %.6f\n", st->accuracy);
	err = wl_write_file_atomic(inst, path, buf, len);
	free(buf);
	return err;
}

/* ---- life cycle ---------------------------------------------------------------- */

static int alloc_work(struct wl_instance *inst, struct lr_state *st)
{
	size_t nnz = st->tok_start[st->ndocs] + 1, dim = st->nvocab + 1;

	st->nblocks = (st->ndocs + LR_BLOCK - 1) / LR_BLOCK;
	st->row_nnz = malloc(st->ndocs * sizeof(*st->row_nnz));
	st->col = malloc(nnz * sizeof(*st->col));
	st->val = malloc(nnz * sizeof(*st->val));
	st->df = malloc(st->nvocab * sizeof(*st->df));
	st->idf = malloc(st->nvocab * sizeof(*st->idf));
	st->w = malloc(dim * sizeof(double));
	st->w_prev = malloc(dim * sizeof(double));
	st->look = malloc(dim * sizeof(double));
	st->grad = malloc(dim * sizeof(double));
	st->block_grad = malloc(st->nblocks * dim * sizeof(double));
	st->prob = malloc(st->ndocs * sizeof(double));
	if (!st->row_nnz || !st->col || !st->val || !st->df || !st->idf || !st->w ||
	    !st->w_prev || !st->look || !st->grad || !st->block_grad || !st->prob)
		return wl_error(inst, -ENOMEM, "logistic-regression: out of memory");
	return 0;
}

static void lr_teardown(struct wl_instance *inst)
{
	struct lr_state *st = inst->priv;

	free(st->label);
	free(st->text);
	free(st->text_start);
	free(st->tokens);
	free(st->tok_start);
	free(st->vocab);
	free(st->vocab_text);
	free(st->row_nnz);
	free(st->col);
	free(st->val);
	free(st->df);
	free(st->idf);
	free(st->w);
	free(st->w_prev);
	free(st->look);
	free(st->grad);
	free(st->block_grad);
	free(st->prob);
}

static int lr_init(struct wl_instance *inst)
{
	struct lr_state *st = inst->priv;
	int err;

	err = inst->params.input ? reviews_read(inst, st) : reviews_generate(inst, st);
	if (!err)
		err = vocab_build(inst, st);
	if (!err)
		err = alloc_work(inst, st);
	return err;
}

/*
 * For the Python twin: "reviews", "LABEL<TAB>TEXT" lines (the --input
 * format), the texts as init left them: lower-cased, since init's
 * tokenizer folds the words in place (TfidfVectorizer lower-cases too).
 */
static int lr_export(struct wl_instance *inst)
{
	struct lr_state *st = inst->priv;
	size_t cap = st->text_start[st->ndocs] + 2 * st->ndocs, len = 0, d;
	char *buf = malloc(cap);
	int err;

	if (!buf)
		return wl_error(inst, -ENOMEM, "logistic-regression: out of memory");
	for (d = 0; d < st->ndocs; d++) {
		size_t n = st->text_start[d + 1] - st->text_start[d];

		buf[len++] = (char)('0' + st->label[d]);
		buf[len++] = '\t';
		memcpy(buf + len, st->text + st->text_start[d], n);
		len += n;
	}
	err = wl_export_write(inst, "reviews", buf, len);
	free(buf);
	return err;
}

const struct workload_ops wl_logistic_regression = {
	.version = WL_OPS_VERSION,
	.info = &wl_info_logistic_regression,
	.uses_threads = 1,
	.state_size = sizeof(struct lr_state),
	.init = lr_init,
	.invoke = lr_invoke,
	.teardown = lr_teardown,
	.export_inputs = lr_export,
};
