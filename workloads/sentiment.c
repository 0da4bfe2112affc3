// SPDX-License-Identifier: MIT
/*
 * sentiment.c - lexicon-and-rules sentiment scoring of sentences.
 *
 * Origin: FaaSProfiler "sentiment analysis" (TextBlob / VADER polarity of
 * texts). This is a VADER-like scorer: a lexicon of word valences (parsed
 * in init from the text table below, VADER-inspired values), boosters,
 * negations and the but-rule, '!' emphasis, and VADER's normalization
 * compound = sum / sqrt(sum^2 + 15). The exact rules (docs/workloads.md,
 * section sentiment) for a word of lexicon valence v at token i:
 *   booster at i-k (k = 1..3): v += b * (1, 0.95, 0.9)[k-1], b = +-0.293,
 *                              with the sign of v;
 *   negator at i-k (k = 1..3): v *= -0.74 (each one);
 *   first "but" at token t:    v *= 0.5 if i < t, v *= 1.5 if i > t;
 *   sum != 0:                  sum += sign(sum) * 0.292 * min(#'!', 4).
 * Tokens are runs of ASCII letters and apostrophes, lower-cased; a token
 * ending in "n't" is a negator.
 * init parses the lexicon and generates the text (wl_gen_text, split on
 * '.'), or reads --input (one sentence per line). invoke scores every
 * sentence through the pool and digests the compound scores (4 decimals).
 * Sizes (bytes of text): test 16 KiB, small 1 MiB, large 16 MiB.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wlexport.h"
#include "wlfile.h"
#include "workload.h"

#define WORD_MAX 24
#define LEXICON_SLOTS 512         /* power of two, > 2x the entries */
#define BOOST_INCR 0.293
#define NEGATION_SCALAR (-0.74)
#define EXCLAMATION_INCR 0.292
#define NORMALIZE_ALPHA 15.0

/* kind: v = valence, b = booster (value = increment), n = negator, c = but */
static const char lexicon_text[] =
	"good\tv\t1.9\ngreat\tv\t3.1\nexcellent\tv\t2.7\nlove\tv\t3.2\n"
	"happy\tv\t2.7\nbad\tv\t-2.5\nterrible\tv\t-2.1\nawful\tv\t-2.0\n"
	"poor\tv\t-2.1\nnice\tv\t1.8\nbest\tv\t3.2\nworst\tv\t-3.1\n"
	"fast\tv\t0.8\nslow\tv\t-0.9\ncheap\tv\t-0.4\nbroken\tv\t-2.0\n"
	"perfect\tv\t2.7\namazing\tv\t2.8\nboring\tv\t-1.3\nlike\tv\t1.5\n"
	"hate\tv\t-2.7\nsad\tv\t-2.1\nfine\tv\t0.8\nwonderful\tv\t2.7\n"
	"horrible\tv\t-2.5\nugly\tv\t-2.3\nbeautiful\tv\t2.9\nfantastic\tv\t2.6\n"
	"disappointing\tv\t-2.2\nuseless\tv\t-1.8\nreliable\tv\t1.7\n"
	"problem\tv\t-1.7\nfail\tv\t-2.3\nfailed\tv\t-2.3\nwin\tv\t2.8\n"
	"lose\tv\t-1.3\nslowest\tv\t-1.2\nfastest\tv\t1.2\nhelpful\tv\t1.8\n"
	"rude\tv\t-2.0\nfriendly\tv\t2.2\nexpensive\tv\t-0.9\nsafe\tv\t1.9\n"
	"crash\tv\t-1.7\nsmooth\tv\t1.1\nglad\tv\t2.0\nangry\tv\t-2.3\n"
	"very\tb\t0.293\nreally\tb\t0.293\nextremely\tb\t0.293\nso\tb\t0.293\n"
	"incredibly\tb\t0.293\nabsolutely\tb\t0.293\ntotally\tb\t0.293\n"
	"slightly\tb\t-0.293\nbarely\tb\t-0.293\nsomewhat\tb\t-0.293\n"
	"hardly\tb\t-0.293\n"
	"not\tn\t0\nnever\tn\t0\nno\tn\t0\nnone\tn\t0\nnothing\tn\t0\n"
	"nobody\tn\t0\nneither\tn\t0\nnor\tn\t0\ncannot\tn\t0\nwithout\tn\t0\n"
	"but\tc\t0\n";

enum word_kind { WORD_OTHER, WORD_VALENCE, WORD_BOOSTER, WORD_NEGATOR, WORD_BUT };

struct lex_entry {
	char word[WORD_MAX];
	enum word_kind kind;
	double value;
};

struct sentence {
	const char *text;
	size_t len;
};

struct sentiment_state {
	struct lex_entry lexicon[LEXICON_SLOTS];
	char *text;
	struct sentence *sentences;
	size_t count;
	double *scores;
};

/* The last three tokens before the current one (index 0 = just before). */
struct token_window {
	enum word_kind kind[3];
	double value[3];
};

static uint32_t word_hash(const char *w, size_t len)
{
	uint32_t h = 2166136261u;
	size_t i;

	for (i = 0; i < len; i++)
		h = (h ^ (unsigned char)w[i]) * 16777619u;
	return h;
}

static struct lex_entry *lexicon_slot(struct lex_entry *lex, const char *w,
				      size_t len)
{
	uint32_t i = word_hash(w, len) & (LEXICON_SLOTS - 1);

	while (lex[i].word[0] && (strlen(lex[i].word) != len ||
				  memcmp(lex[i].word, w, len)))
		i = (i + 1) & (LEXICON_SLOTS - 1);
	return &lex[i];
}

static int lexicon_parse(struct wl_instance *inst, struct sentiment_state *st)
{
	const char *line = lexicon_text;
	size_t entries = 0;

	while (*line) {
		char word[WORD_MAX], kind;
		double value;
		struct lex_entry *e;

		if (sscanf(line, "%23[^\t]\t%c\t%lf", word, &kind, &value) != 3 ||
		    !strchr("vbnc", kind) || ++entries * 2 > LEXICON_SLOTS)
			return wl_error(inst, -EINVAL, "sentiment: bad lexicon line '%.30s'",
					line);
		e = lexicon_slot(st->lexicon, word, strlen(word));
		strcpy(e->word, word);
		e->kind = kind == 'v' ? WORD_VALENCE : kind == 'b' ? WORD_BOOSTER :
			  kind == 'n' ? WORD_NEGATOR : WORD_BUT;
		e->value = value;
		line = strchr(line, '\n') + 1;
	}
	return 0;
}

static int is_token_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '\'';
}

/* Next token of s[*pos, len): lower-cased into @word, classified. */
static int next_token(const struct sentiment_state *st, const char *s,
		      size_t len, size_t *pos, struct lex_entry *out)
{
	char word[WORD_MAX] = { 0 };
	size_t i = *pos, n = 0;
	const struct lex_entry *e;

	while (i < len && !is_token_char(s[i]))
		i++;
	if (i == len)
		return 0;
	for (; i < len && is_token_char(s[i]); i++, n++)
		if (n < WORD_MAX - 1)
			word[n] = (char)(s[i] >= 'A' && s[i] <= 'Z' ? s[i] + 32 : s[i]);
	*pos = i;
	out->kind = WORD_OTHER;
	out->value = 0;
	if (n >= WORD_MAX - 1)
		return 1;
	e = lexicon_slot((struct lex_entry *)st->lexicon, word, n);
	if (e->word[0])
		*out = *e;
	else if (n >= 3 && !memcmp(word + n - 3, "n't", 3))
		out->kind = WORD_NEGATOR;
	return 1;
}

/* Token index of the first "but", or -1. */
static long find_but(const struct sentiment_state *st, const struct sentence *s)
{
	struct lex_entry tok;
	size_t pos = 0;
	long i;

	for (i = 0; next_token(st, s->text, s->len, &pos, &tok); i++)
		if (tok.kind == WORD_BUT)
			return i;
	return -1;
}

static double apply_rules(double v, const struct token_window *w, long i,
			  long but_at)
{
	static const double distance[3] = { 1.0, 0.95, 0.9 };
	double base = v;
	int k;

	for (k = 0; k < 3; k++)
		if (w->kind[k] == WORD_BOOSTER)
			v += (base < 0 ? -1 : 1) * w->value[k] * distance[k];
	for (k = 0; k < 3; k++)
		if (w->kind[k] == WORD_NEGATOR)
			v *= NEGATION_SCALAR;
	if (but_at >= 0 && i < but_at)
		v *= 0.5;
	else if (but_at >= 0 && i > but_at)
		v *= 1.5;
	return v;
}

/**
 * sentiment_compound() - the VADER-like compound score of one sentence.
 */
static double sentiment_compound(const struct sentiment_state *st,
				 const struct sentence *s)
{
	struct token_window w = { { WORD_OTHER, WORD_OTHER, WORD_OTHER }, { 0 } };
	long but_at = find_but(st, s), i;
	struct lex_entry tok;
	double sum = 0;
	size_t pos = 0, bangs = 0;

	for (i = 0; next_token(st, s->text, s->len, &pos, &tok); i++) {
		if (tok.kind == WORD_VALENCE)
			sum += apply_rules(tok.value, &w, i, but_at);
		memmove(&w.kind[1], &w.kind[0], 2 * sizeof(w.kind[0]));
		memmove(&w.value[1], &w.value[0], 2 * sizeof(w.value[0]));
		w.kind[0] = tok.kind;
		w.value[0] = tok.value;
	}
	for (pos = 0; pos < s->len; pos++)
		bangs += s->text[pos] == '!';
	if (sum != 0)
		sum += (sum < 0 ? -1 : 1) * EXCLAMATION_INCR * (double)(bangs < 4 ? bangs : 4);
	return sum / sqrt(sum * sum + NORMALIZE_ALPHA);
}

static void score_chunk(void *arg, size_t begin, size_t end, int worker)
{
	struct sentiment_state *st = arg;
	size_t i;

	(void)worker;
	for (i = begin; i < end; i++)
		st->scores[i] = sentiment_compound(st, &st->sentences[i]);
}

/* Rounded to 4 decimals, without a "-0.0000". */
static int format_score(char *buf, double v)
{
	if (fabs(v) < 0.00005)
		v = 0;
	return sprintf(buf, "%.4f\n", v);
}

/* --output, written by cvmfn after the end time (wl_out_file_with()). */
static int write_scores(struct wl_instance *inst, const char *path, void *arg)
{
	const struct sentiment_state *st = arg;
	char *buf = malloc(st->count * 12 + 1);
	size_t i, len = 0;
	int err;

	if (!buf)
		return wl_error(inst, -ENOMEM, "sentiment: out of memory for the output");
	for (i = 0; i < st->count; i++)
		len += (size_t)format_score(buf + len, st->scores[i]);
	err = wl_write_file_atomic(inst, path, buf, len);
	free(buf);
	return err;
}

static int sentiment_invoke(struct wl_instance *inst, struct wl_output *out)
{
	struct sentiment_state *st = inst->priv;
	size_t i, pos = 0, neg = 0;
	double total = 0;

	pool_for_dynamic(inst->pool, st->count, 64, score_chunk, st);
	for (i = 0; i < st->count; i++) {
		wl_out_double(out, st->scores[i], 4);
		total += st->scores[i];
		pos += st->scores[i] >= 0.05;
		neg += st->scores[i] <= -0.05;
	}
	snprintf(inst->summary, sizeof(inst->summary),
		 "%zu sentences: %zu positive, %zu negative, %zu neutral, mean %.4f",
		 st->count, pos, neg, st->count - pos - neg,
		 st->count ? total / (double)st->count : 0.0);
	if (inst->params.output)
		wl_out_file_with(out, inst->params.output, write_scores, st);
	return 0;
}

/* Splits the text at @sep into sentences; pieces without letters are skipped. */
static int split_sentences(struct sentiment_state *st, size_t len, char sep)
{
	size_t i, start = 0, max = 1;

	for (i = 0; i < len; i++)
		max += st->text[i] == sep;
	st->sentences = malloc(max * sizeof(*st->sentences));
	st->scores = malloc(max * sizeof(*st->scores));
	if (!st->sentences || !st->scores)
		return -ENOMEM;
	for (i = 0; i <= len; i++) {
		size_t k;

		if (i < len && st->text[i] != sep)
			continue;
		for (k = start; k < i && !is_token_char(st->text[k]); k++)
			;
		if (k < i)
			st->sentences[st->count++] = (struct sentence){ st->text + start,
									i - start };
		start = i + 1;
	}
	return 0;
}

static int load_sentences(struct wl_instance *inst, struct sentiment_state *st)
{
	size_t len;
	void *data;
	int err;

	if (inst->params.input) {
		err = wl_read_file(inst, inst->params.input, &data, &len);
		if (err)
			return err;
		st->text = data;
	} else {
		len = (size_t)wl_pick(inst, 16 << 10, 1 << 20, 16 << 20);
		st->text = malloc(len);
		if (!st->text)
			return wl_error(inst, -ENOMEM, "sentiment: out of memory for the text");
		wl_gen_text(inst->params.seed, st->text, len);
	}
	if (split_sentences(st, len, inst->params.input ? '\n' : '.'))
		return wl_error(inst, -ENOMEM, "sentiment: out of memory");
	return 0;
}

static void sentiment_teardown(struct wl_instance *inst)
{
	struct sentiment_state *st = inst->priv;

	free(st->text);
	free(st->sentences);
	free(st->scores);
}

static int sentiment_init(struct wl_instance *inst)
{
	struct sentiment_state *st = inst->priv;
	int err;

	err = lexicon_parse(inst, st);
	if (!err)
		err = load_sentences(inst, st);
	return err;
}

/*
 * For the Python twin: "lexicon" (the table above, WORD<TAB>KIND<TAB>VALUE
 * lines) and, for the generated text, "text" (split at '.' as here).
 */
static int sentiment_export(struct wl_instance *inst)
{
	struct sentiment_state *st = inst->priv;
	size_t len = (size_t)wl_pick(inst, 16 << 10, 1 << 20, 16 << 20);

	return wl_export_write(inst, "lexicon", lexicon_text, strlen(lexicon_text)) ?:
	       (inst->params.input ? 0 : wl_export_write(inst, "text", st->text, len));
}

const struct workload_ops wl_sentiment = {
	.version = WL_OPS_VERSION,
	.info = &wl_info_sentiment,
	.uses_threads = 1,
	.state_size = sizeof(struct sentiment_state),
	.init = sentiment_init,
	.invoke = sentiment_invoke,
	.teardown = sentiment_teardown,
	.export_inputs = sentiment_export,
};
