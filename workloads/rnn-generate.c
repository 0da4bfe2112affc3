// SPDX-License-Identifier: MIT
/*
 * rnn-generate.c - FunctionBench rnn_generate_character_level: a character
 * level recurrent network that generates names from a language and a start
 * letter, as in the PyTorch tutorial "Generating names with a character-
 * level RNN" (Robertson), here with an LSTM cell as the brief asks.
 *
 * Input per step: one-hot language (18 categories of the tutorial) ++
 * one-hot letter (58 characters: ASCII letters and " .,;'-", plus EOS) =
 * 77. LSTM with 128 hidden units (PyTorch gate order i, f, g, o), a linear
 * layer to 59 outputs, greedy choice (the tutorial's topk(1)); a name ends
 * at EOS or after 20 generated letters. Weights are uniform in +-k/sqrt(128)
 * (PyTorch's LSTM init, widened) from the seed, in a model file in PyTorch's
 * layout: weight_ih (512 x 77), weight_hh (512 x 128), bias_ih, bias_hh,
 * out.weight (59 x 128), out.bias. The request is a list of (language,
 * start letter) pairs: 4 (test), 64 (small) or all 18 x 26 = 468 (large).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rng.h"
#include "wlfile.h"
#include "workload.h"

#define RNN_CATEGORIES 18
#define RNN_LETTERS 59            /* 58 characters + EOS */
#define RNN_EOS (RNN_LETTERS - 1)
#define RNN_INPUT (RNN_CATEGORIES + RNN_LETTERS)
#define RNN_HIDDEN 128
#define RNN_GATES (4 * RNN_HIDDEN)
#define RNN_XH (RNN_INPUT + RNN_HIDDEN)
#define RNN_MAX_LENGTH 20
#define RNN_WEIGHT_SCALE 4.0      /* x 1/sqrt(hidden), PyTorch's bound */

#define RNN_PARAMS (RNN_GATES * RNN_INPUT + RNN_GATES * RNN_HIDDEN + \
		    2 * RNN_GATES + RNN_LETTERS * RNN_HIDDEN + RNN_LETTERS)

static const char all_letters[] =
	"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ .,;'-";

static const char *const categories[RNN_CATEGORIES] = {
	"Arabic", "Chinese", "Czech", "Dutch", "English", "French", "German",
	"Greek", "Irish", "Italian", "Japanese", "Korean", "Polish",
	"Portuguese", "Russian", "Scottish", "Spanish", "Vietnamese",
};

struct rnn {
	float *model;
	float *wt;                        /* [RNN_XH][RNN_GATES]: W_ih | W_hh, transposed */
	float bias[RNN_GATES];            /* bias_ih + bias_hh */
	float out_t[RNN_HIDDEN][RNN_LETTERS]; /* out.weight transposed */
	const float *out_bias;
	int count;
	char (*names)[RNN_MAX_LENGTH + 2];
};

static int gen_model(struct wl_instance *inst, void *buf, size_t len, void *arg)
{
	double bound = RNN_WEIGHT_SCALE / sqrt(RNN_HIDDEN);
	float *w = buf;
	struct rng r;
	size_t i;

	(void)arg;
	rng_seed_stream(&r, inst->params.seed, 0x4c53);
	for (i = 0; i < len / sizeof(float); i++)
		w[i] = (float)((2.0 * rng_unit(&r) - 1.0) * bound);
	return 0;
}

/* Rearrange the PyTorch-layout model for column-wise (vectorised) steps. */
static int rnn_arrange(struct rnn *m)
{
	const float *w_ih = m->model, *w_hh = w_ih + RNN_GATES * RNN_INPUT;
	const float *b_ih = w_hh + RNN_GATES * RNN_HIDDEN, *b_hh = b_ih + RNN_GATES;
	const float *w_out = b_hh + RNN_GATES;
	int g, j;

	m->wt = malloc(sizeof(float) * RNN_XH * RNN_GATES);
	if (!m->wt)
		return -ENOMEM;
	for (g = 0; g < RNN_GATES; g++) {
		for (j = 0; j < RNN_INPUT; j++)
			m->wt[j * RNN_GATES + g] = w_ih[g * RNN_INPUT + j];
		for (j = 0; j < RNN_HIDDEN; j++)
			m->wt[(RNN_INPUT + j) * RNN_GATES + g] = w_hh[g * RNN_HIDDEN + j];
		m->bias[g] = b_ih[g] + b_hh[g];
	}
	for (g = 0; g < RNN_LETTERS; g++)
		for (j = 0; j < RNN_HIDDEN; j++)
			m->out_t[j][g] = w_out[g * RNN_HIDDEN + j];
	m->out_bias = w_out + RNN_LETTERS * RNN_HIDDEN;
	return 0;
}

static float sigmoid(float x)
{
	return 1.0f / (1.0f + expf(-x));
}

/*
 * One LSTM step on xh = [category, letter, h]: updates c and the h part of
 * xh, returns the index of the largest output (first on ties).
 */
static int lstm_step(const struct rnn *m, float *xh, float *c)
{
	float gates[RNN_GATES], logits[RNN_LETTERS], *h = xh + RNN_INPUT;
	int j, g, best = 0;

	memcpy(gates, m->bias, sizeof(gates));
	for (j = 0; j < RNN_XH; j++)
		for (g = 0; g < RNN_GATES; g++)
			gates[g] += xh[j] * m->wt[j * RNN_GATES + g];
	for (j = 0; j < RNN_HIDDEN; j++) {
		float in = sigmoid(gates[j]), forget = sigmoid(gates[RNN_HIDDEN + j]);
		float cell = tanhf(gates[2 * RNN_HIDDEN + j]);
		float out = sigmoid(gates[3 * RNN_HIDDEN + j]);

		c[j] = forget * c[j] + in * cell;
		h[j] = out * tanhf(c[j]);
	}
	memcpy(logits, m->out_bias, sizeof(logits));
	for (j = 0; j < RNN_HIDDEN; j++)
		for (g = 0; g < RNN_LETTERS; g++)
			logits[g] += h[j] * m->out_t[j][g];
	for (g = 1; g < RNN_LETTERS; g++)
		if (logits[g] > logits[best])
			best = g;
	return best;
}

/* Request i: language i mod 18, start letter A + (i / 18) mod 26. */
static void generate_name(const struct rnn *m, int i, char *name)
{
	float xh[RNN_XH] = { 0 }, c[RNN_HIDDEN] = { 0 };
	int letter = 26 + (i / RNN_CATEGORIES) % 26, len = 0, step;

	xh[i % RNN_CATEGORIES] = 1.0f;
	name[len++] = all_letters[letter];
	for (step = 0; step < RNN_MAX_LENGTH; step++) {
		int next;

		xh[RNN_CATEGORIES + letter] = 1.0f;
		next = lstm_step(m, xh, c);
		xh[RNN_CATEGORIES + letter] = 0.0f;
		if (next == RNN_EOS)
			break;
		letter = next;
		name[len++] = all_letters[letter];
	}
	name[len] = '\0';
}

static void generate_range(void *arg, size_t begin, size_t end, int worker)
{
	const struct rnn *m = arg;
	size_t i;

	(void)worker;
	for (i = begin; i < end; i++)
		generate_name(m, (int)i, m->names[i]);
}

static void rnn_teardown(struct wl_instance *inst)
{
	struct rnn *m = inst->priv;

	free(m->model);
	free(m->wt);
	free(m->names);
}

static int rnn_init(struct wl_instance *inst)
{
	struct rnn *m = inst->priv;
	int err;

	m->count = (int)wl_pick(inst, 4, 64, RNN_CATEGORIES * 26);
	m->names = calloc((size_t)m->count, sizeof(*m->names));
	err = m->names ? 0 : wl_error(inst, -ENOMEM, "out of memory");
	if (!err)
		err = wl_model_load(inst, "rnn-generate-lstm128.model",
				    RNN_PARAMS * sizeof(float), gen_model, NULL,
				    (void **)&m->model);
	if (!err && rnn_arrange(m))
		err = wl_error(inst, -ENOMEM, "out of memory");
	return err;
}

/* --output: one "language name" line per request. */
/* --output, written by cvmfn after the end time (wl_out_file_with()). */
static int write_names(struct wl_instance *inst, const char *path, void *arg)
{
	const struct rnn *m = arg;
	size_t cap = (size_t)m->count * 40, len = 0;
	char *buf = malloc(cap);
	int i, err;

	if (!buf)
		return wl_error(inst, -ENOMEM, "out of memory for %s", path);
	for (i = 0; i < m->count; i++)
		len += (size_t)snprintf(buf + len, cap - len, "%s %s\n",
					categories[i % RNN_CATEGORIES], m->names[i]);
	err = wl_write_file_atomic(inst, path, buf, len);
	free(buf);
	return err;
}

static int rnn_invoke(struct wl_instance *inst, struct wl_output *out)
{
	struct rnn *m = inst->priv;
	size_t letters = 0;
	int i;

	pool_for_dynamic(inst->pool, (size_t)m->count, 4, generate_range, m);
	for (i = 0; i < m->count; i++) {
		wl_out_str(out, categories[i % RNN_CATEGORIES]);
		wl_out_str(out, m->names[i]);
		letters += strlen(m->names[i]);
	}
	snprintf(inst->summary, sizeof(inst->summary),
		 "%d names, %zu letters: %s (%s), %s (%s)", m->count, letters,
		 m->names[0], categories[0], m->names[m->count - 1],
		 categories[(m->count - 1) % RNN_CATEGORIES]);
	if (inst->params.output)
		wl_out_file_with(out, inst->params.output, write_names, m);
	return 0;
}

const struct workload_ops wl_rnn_generate = {
	.version = WL_OPS_VERSION,
	.info = &wl_info_rnn_generate,
	.uses_threads = 1,
	.state_size = sizeof(struct rnn),
	.init = rnn_init,
	.invoke = rnn_invoke,
	.teardown = rnn_teardown,
};
