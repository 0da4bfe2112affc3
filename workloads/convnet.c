// SPDX-License-Identifier: MIT
/*
 * convnet.c - CNN layers for image-recognition and cnn-classification.
 *
 * Convolution is im2col + SGEMM (sgemm.c), the way Caffe and PyTorch's
 * CPU path lower it; a 1x1 stride-1 convolution multiplies the input
 * directly. Bias, residual and ReLU are fused into the SGEMM epilogue (the
 * batch norm of a trained ResNet is folded into weights and bias, as
 * inference runtimes do). Weights are He-normal (He et al., ICCV 2015)
 * from the seed; the image normalisation uses the torchvision ImageNet
 * mean and std.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "convnet.h"
#include "rng.h"
#include "wlfile.h"

static const float imagenet_mean[3] = { 0.485f, 0.456f, 0.406f };
static const float imagenet_std[3] = { 0.229f, 0.224f, 0.225f };

size_t conv2d_param_count(const struct conv2d_spec *s)
{
	return (size_t)s->out_c * (size_t)s->in_c * (size_t)(s->k * s->k) +
	       (size_t)s->out_c;
}

void convnet_gen_params(uint64_t seed, const struct conv2d_spec *specs,
			size_t n, float *buf)
{
	size_t i, j;

	for (i = 0; i < n; i++) {
		const struct conv2d_spec *s = &specs[i];
		size_t nw = conv2d_param_count(s) - (size_t)s->out_c;
		double std = sqrt(2.0 / (s->in_c * s->k * s->k)) * s->weight_scale;
		struct rng r;

		rng_seed_stream(&r, seed, i + 1);
		for (j = 0; j < nw; j++)
			*buf++ = (float)(rng_normal(&r) * std);
		for (j = 0; j < (size_t)s->out_c; j++)
			*buf++ = (float)(rng_normal(&r) * s->bias_std);
	}
}

int conv2d_bind(struct conv2d *l, const struct conv2d_spec *spec,
		const float *params)
{
	size_t kdim = (size_t)spec->in_c * (size_t)(spec->k * spec->k);

	l->spec = *spec;
	l->bias = params + (size_t)spec->out_c * kdim;
	return sgemm_pack_a(&l->weight, params, (size_t)spec->out_c, kdim, kdim);
}

void conv2d_free(struct conv2d *l)
{
	sgemm_a_free(&l->weight);
}

struct im2col_job {
	const struct tensor *in;
	const struct conv2d_spec *s;
	float *cols;
	int oh, ow;
};

/* Row r of the im2col matrix: input channel r / k^2, kernel tap r % k^2. */
static void im2col_rows(void *arg, size_t begin, size_t end, int worker)
{
	const struct im2col_job *job = arg;
	const struct conv2d_spec *s = job->s;
	const struct tensor *in = job->in;
	size_t r;
	int oy, ox;

	(void)worker;
	for (r = begin; r < end; r++) {
		int c = (int)r / (s->k * s->k), ky = (int)r / s->k % s->k;
		int kx = (int)r % s->k;
		const float *src = in->data + (size_t)c * in->h * in->w;
		float *dst = job->cols + r * (size_t)(job->oh * job->ow);

		for (oy = 0; oy < job->oh; oy++, dst += job->ow) {
			int iy = oy * s->stride - s->pad + ky;

			for (ox = 0; ox < job->ow; ox++) {
				int ix = ox * s->stride - s->pad + kx;

				dst[ox] = iy >= 0 && iy < in->h && ix >= 0 &&
					  ix < in->w ? src[iy * in->w + ix] : 0.0f;
			}
		}
	}
}

static size_t max_size(size_t a, size_t b)
{
	return a > b ? a : b;
}

void conv2d_forward(struct convnet_ctx *ctx, const struct conv2d *l,
		    const struct tensor *in, struct tensor *out,
		    const float *residual, int relu)
{
	const struct conv2d_spec *s = &l->spec;
	int oh = (in->h + 2 * s->pad - s->k) / s->stride + 1;
	int ow = (in->w + 2 * s->pad - s->k) / s->stride + 1;
	size_t n = (size_t)oh * (size_t)ow;
	size_t kdim = (size_t)s->in_c * (size_t)(s->k * s->k);
	int direct = s->k == 1 && s->stride == 1 && s->pad == 0;
	struct sgemm_epilogue ep = { l->bias, residual, relu };
	const float *b = in->data;

	out->c = s->out_c;
	out->h = oh;
	out->w = ow;
	if (ctx->plan) {
		ctx->max_act = max_size(ctx->max_act, (size_t)s->out_c * n);
		if (!direct)
			ctx->max_cols = max_size(ctx->max_cols, kdim * n);
		ctx->flops += 2.0 * (double)s->out_c * (double)kdim * (double)n;
		return;
	}
	if (!direct) {
		struct im2col_job job = { in, s, ctx->cols, oh, ow };

		pool_for(ctx->pool, kdim, im2col_rows, &job);
		b = ctx->cols;
	}
	sgemm_run(ctx->gemm, &l->weight, b, n, n, out->data, n, &ep);
}

struct maxpool_job {
	const struct tensor *in;
	struct tensor *out;
	int k, stride, pad;
};

static float window_max(const struct maxpool_job *job, const float *src,
			int oy, int ox)
{
	const struct tensor *in = job->in;
	float best = -INFINITY;
	int y, x;

	for (y = oy * job->stride - job->pad; y < oy * job->stride - job->pad + job->k; y++)
		for (x = ox * job->stride - job->pad; x < ox * job->stride - job->pad + job->k; x++)
			if (y >= 0 && y < in->h && x >= 0 && x < in->w &&
			    src[y * in->w + x] > best)
				best = src[y * in->w + x];
	return best;
}

static void maxpool_channels(void *arg, size_t begin, size_t end, int worker)
{
	const struct maxpool_job *job = arg;
	size_t c;
	int oy, ox;

	(void)worker;
	for (c = begin; c < end; c++) {
		const float *src = job->in->data + c * (size_t)(job->in->h * job->in->w);
		float *dst = job->out->data + c * (size_t)(job->out->h * job->out->w);

		for (oy = 0; oy < job->out->h; oy++)
			for (ox = 0; ox < job->out->w; ox++)
				*dst++ = window_max(job, src, oy, ox);
	}
}

static int pool_out_size(int in, int k, int stride, int pad, int ceil_mode)
{
	int span = in + 2 * pad - k;
	int out = (ceil_mode ? (span + stride - 1) / stride : span / stride) + 1;

	/* PyTorch: the last window must start inside the (left-padded) input. */
	if (ceil_mode && (out - 1) * stride >= in + pad)
		out--;
	return out;
}

void maxpool2d(struct convnet_ctx *ctx, const struct tensor *in,
	       struct tensor *out, int k, int stride, int pad, int ceil_mode)
{
	struct maxpool_job job = { in, out, k, stride, pad };

	out->c = in->c;
	out->h = pool_out_size(in->h, k, stride, pad, ceil_mode);
	out->w = pool_out_size(in->w, k, stride, pad, ceil_mode);
	if (ctx->plan) {
		ctx->max_act = max_size(ctx->max_act,
					(size_t)out->c * (size_t)(out->h * out->w));
		return;
	}
	pool_for(ctx->pool, (size_t)in->c, maxpool_channels, &job);
}

void global_avgpool(const struct tensor *in, float *out)
{
	size_t hw = (size_t)in->h * (size_t)in->w, i;
	int c;

	for (c = 0; c < in->c; c++) {
		const float *src = in->data + (size_t)c * hw;
		double sum = 0.0;

		for (i = 0; i < hw; i++)
			sum += src[i];
		out[c] = (float)(sum / (double)hw);
	}
}

void convnet_softmax(const float *logits, int n, double *prob)
{
	double max = -INFINITY, sum = 0.0;
	int i;

	for (i = 0; i < n; i++)
		if (logits[i] > max)
			max = logits[i];
	for (i = 0; i < n; i++) {
		prob[i] = exp((double)logits[i] - max);
		sum += prob[i];
	}
	for (i = 0; i < n; i++)
		prob[i] /= sum;
}

void convnet_top_k(const double *prob, int n, int k, int *idx)
{
	int i, j, best;

	for (j = 0; j < k; j++) {
		best = -1;
		for (i = 0; i < n; i++) {
			int taken = 0, t;

			for (t = 0; t < j; t++)
				taken |= idx[t] == i;
			if (!taken && (best < 0 || prob[i] > prob[best]))
				best = i;
		}
		idx[j] = best;
	}
}

/* Background gradient, a few coloured discs and noise: 8-bit RGB. */
static void gen_pixels(uint64_t seed, int size, unsigned char *rgb)
{
	double disc[4][6], base[3], grad[3];
	struct rng r;
	int i, c, y, x;

	rng_seed_stream(&r, seed, 0x1a6e);
	for (c = 0; c < 3; c++) {
		base[c] = 40 + 120 * rng_unit(&r);
		grad[c] = 80 * rng_unit(&r) - 40;
	}
	for (i = 0; i < 4; i++) {
		disc[i][0] = size * rng_unit(&r);
		disc[i][1] = size * rng_unit(&r);
		disc[i][2] = size * (0.1 + 0.25 * rng_unit(&r));
		for (c = 0; c < 3; c++)
			disc[i][3 + c] = 255 * rng_unit(&r);
	}
	for (y = 0; y < size; y++)
		for (x = 0; x < size; x++)
			for (c = 0; c < 3; c++) {
				double v = base[c] + grad[c] * (x + y) / size;

				for (i = 0; i < 4; i++)
					if (hypot(x - disc[i][0], y - disc[i][1]) < disc[i][2])
						v = disc[i][3 + c];
				v += 12 * rng_unit(&r) - 6;
				*rgb++ = (unsigned char)(v < 0 ? 0 : v > 255 ? 255 : v);
			}
}

/* Skip whitespace and '#' comments, then read a decimal number. */
static long ppm_number(const char **p, const char *end)
{
	long v = -1;

	while (*p < end && (**p == ' ' || **p == '\t' || **p == '\n' ||
			    **p == '\r' || **p == '#')) {
		if (**p == '#')
			while (*p < end && **p != '\n')
				(*p)++;
		else
			(*p)++;
	}
	while (*p < end && **p >= '0' && **p <= '9' && v < 100000)
		v = (v < 0 ? 0 : v * 10) + (*(*p)++ - '0');
	return v;
}

static int read_ppm(struct wl_instance *inst, int size, unsigned char *rgb)
{
	const char *path = inst->params.input, *p, *end;
	long w, h, maxval;
	void *data;
	size_t len, need = (size_t)size * (size_t)size * 3;
	int err = wl_read_file(inst, path, &data, &len);

	if (err)
		return err;
	p = data;
	end = p + len;
	if (len < 2 || memcmp(p, "P6", 2)) {
		free(data);
		return wl_error(inst, -EINVAL, "%s is not a binary PPM (P6) image", path);
	}
	p += 2;
	w = ppm_number(&p, end);
	h = ppm_number(&p, end);
	maxval = ppm_number(&p, end);
	if (w != size || h != size || maxval != 255 || p >= end ||
	    (size_t)(end - p - 1) < need) {
		free(data);
		return wl_error(inst, -EINVAL,
				"%s: need a %dx%d PPM with maxval 255 and all its pixels",
				path, size, size);
	}
	memcpy(rgb, p + 1, need);
	free(data);
	return 0;
}

int convnet_image(struct wl_instance *inst, int size, struct tensor *img)
{
	size_t hw = (size_t)size * (size_t)size, i;
	unsigned char *rgb = malloc(hw * 3);
	int err = 0, c;

	img->data = malloc(hw * 3 * sizeof(float));
	if (!rgb || !img->data) {
		free(rgb);
		return wl_error(inst, -ENOMEM, "out of memory for a %dx%d image", size, size);
	}
	img->c = 3;
	img->h = img->w = size;
	if (inst->params.input)
		err = read_ppm(inst, size, rgb);
	else
		gen_pixels(inst->params.seed, size, rgb);
	for (c = 0; !err && c < 3; c++)
		for (i = 0; i < hw; i++)
			img->data[c * hw + i] = ((float)rgb[i * 3 + c] / 255.0f -
						 imagenet_mean[c]) / imagenet_std[c];
	free(rgb);
	return err;
}

static int write_scores(struct wl_instance *inst, struct wl_output *out,
			const float *logits, const double *prob, int n)
{
	size_t cap = (size_t)n * 64, len = 0;
	char *buf = malloc(cap);
	int i;

	if (!buf)
		return wl_error(inst, -ENOMEM, "out of memory for %s", inst->params.output);
	for (i = 0; i < n; i++)
		len += (size_t)snprintf(buf + len, cap - len, "%d %.9g %.9g\n", i,
					logits[i], prob[i]);
	wl_out_file_owned(out, inst->params.output, buf, len);
	return 0;
}

#define TOP_K 5

int convnet_report(struct wl_instance *inst, struct wl_output *out,
		   const float *logits, double *prob, int n)
{
	size_t len = strlen(inst->summary);
	int top[TOP_K], i;

	convnet_softmax(logits, n, prob);
	convnet_top_k(prob, n, TOP_K, top);
	len += (size_t)snprintf(inst->summary + len, sizeof(inst->summary) - len, " top-5");
	for (i = 0; i < TOP_K; i++) {
		wl_out_u64(out, (uint64_t)top[i]);
		wl_out_double(out, prob[top[i]], 4);
		if (len < sizeof(inst->summary))
			len += (size_t)snprintf(inst->summary + len, sizeof(inst->summary) - len,
						" %d:%.4f", top[i], prob[top[i]]);
	}
	if (inst->params.output)
		return write_scores(inst, out, logits, prob, n);
	return 0;
}
