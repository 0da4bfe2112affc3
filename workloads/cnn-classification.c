// SPDX-License-Identifier: MIT
/*
 * cnn-classification.c - FunctionBench cnn_image_classification: one image
 * through SqueezeNet 1.1 (Iandola et al., 2016; torchvision's squeezenet1_1
 * layer for layer), softmax over 1000 classes, top-5.
 *
 * conv 3x3/2 (64) + ReLU, max pool 3x3/2 (ceil), fire(16, 64+64) x2, pool,
 * fire(32, 128+128) x2, pool, fire(48, 192+192) x2, fire(64, 256+256) x2,
 * conv 1x1 (1000) + ReLU, global average pool. A fire module squeezes with
 * a 1x1 convolution and concatenates a 1x1 and a 3x3 expansion, all with
 * ReLU. 1,235,496 parameters, He-normal from the seed (the classifier
 * scaled so the scores spread). The layers are convnet.c's (im2col +
 * sgemm.c). Image: generated from the seed (or --input, a PPM) at 32
 * (test), 112 (small) or 224 (large) pixels a side. --output writes all
 * 1000 scores.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "convnet.h"
#include "wlfile.h"

#define SQZ_CLASSES 1000
#define SQZ_FIRES 8
#define SQZ_CONVS (2 + 3 * SQZ_FIRES)
#define SQZ_BUFS 3

#define BIAS_STD 0.05f
#define CLASSIFIER_SCALE 4.0f

/* Fire modules: input channels, squeeze, expand (each of 1x1 and 3x3). */
static const int fire_shape[SQZ_FIRES][3] = {
	{ 64, 16, 64 }, { 128, 16, 64 }, { 128, 32, 128 }, { 256, 32, 128 },
	{ 256, 48, 192 }, { 384, 48, 192 }, { 384, 64, 256 }, { 512, 64, 256 },
};

struct squeezenet {
	struct conv2d_spec specs[SQZ_CONVS];
	struct conv2d convs[SQZ_CONVS];
	size_t params;
	float *model;
	int size;
	struct convnet_ctx ctx;
	struct tensor image;
	float *bufs[SQZ_BUFS];
	float logits[SQZ_CLASSES];
	double prob[SQZ_CLASSES];
};

/* File order: conv1; per fire squeeze, expand 1x1, expand 3x3; classifier. */
static void squeezenet_specs(struct conv2d_spec *specs)
{
	int f, i = 0;

	specs[i++] = (struct conv2d_spec){ 3, 64, 3, 2, 0, 1.0f, BIAS_STD };
	for (f = 0; f < SQZ_FIRES; f++) {
		int in_c = fire_shape[f][0], sq = fire_shape[f][1];
		int ex = fire_shape[f][2];

		specs[i++] = (struct conv2d_spec){ in_c, sq, 1, 1, 0, 1.0f, BIAS_STD };
		specs[i++] = (struct conv2d_spec){ sq, ex, 1, 1, 0, 1.0f, BIAS_STD };
		specs[i++] = (struct conv2d_spec){ sq, ex, 3, 1, 1, 1.0f, BIAS_STD };
	}
	specs[i] = (struct conv2d_spec){ 512, SQZ_CLASSES, 1, 1, 0,
					 CLASSIFIER_SCALE, BIAS_STD };
}

/* x in bufs[xi] -> squeeze in xi+1 -> concat(expand 1x1, 3x3) in xi+2. */
static int fire(struct squeezenet *net, int f, struct tensor *x, int xi)
{
	const struct conv2d *c = &net->convs[1 + 3 * f];
	struct tensor s = { .data = net->bufs[(xi + 1) % SQZ_BUFS] };
	float *y = net->bufs[(xi + 2) % SQZ_BUFS];
	struct tensor e1 = { .data = y }, e3;

	conv2d_forward(&net->ctx, &c[0], x, &s, NULL, 1);
	conv2d_forward(&net->ctx, &c[1], &s, &e1, NULL, 1);
	e3.data = y ? y + (size_t)e1.c * (size_t)(e1.h * e1.w) : NULL;
	conv2d_forward(&net->ctx, &c[2], &s, &e3, NULL, 1);
	*x = (struct tensor){ y, e1.c + e3.c, e1.h, e1.w };
	return (xi + 2) % SQZ_BUFS;
}

static int pool_to_next(struct squeezenet *net, struct tensor *x, int xi)
{
	struct tensor y = { .data = net->bufs[(xi + 1) % SQZ_BUFS] };

	maxpool2d(&net->ctx, x, &y, 3, 2, 0, 1);
	*x = y;
	return (xi + 1) % SQZ_BUFS;
}

/* Image to logits; in plan mode only shapes and buffer sizes. */
static void squeezenet_forward(struct squeezenet *net)
{
	struct tensor x = { .data = net->bufs[0] }, scores;
	int f, xi = 0;

	conv2d_forward(&net->ctx, &net->convs[0], &net->image, &x, NULL, 1);
	xi = pool_to_next(net, &x, xi);
	for (f = 0; f < SQZ_FIRES; f++) {
		xi = fire(net, f, &x, xi);
		if (f == 1 || f == 3)
			xi = pool_to_next(net, &x, xi);
	}
	scores.data = net->bufs[(xi + 1) % SQZ_BUFS];
	conv2d_forward(&net->ctx, &net->convs[SQZ_CONVS - 1], &x, &scores, NULL, 1);
	if (!net->ctx.plan)
		global_avgpool(&scores, net->logits);
}

static int gen_model(struct wl_instance *inst, void *buf, size_t len, void *arg)
{
	struct squeezenet *net = arg;

	(void)len;
	convnet_gen_params(inst->params.seed, net->specs, SQZ_CONVS, buf);
	return 0;
}

static int load_model(struct wl_instance *inst, struct squeezenet *net)
{
	float *p;
	int i, err;

	squeezenet_specs(net->specs);
	for (i = 0; i < SQZ_CONVS; i++)
		net->params += conv2d_param_count(&net->specs[i]);
	err = wl_model_load(inst, "cnn-classification-squeezenet1_1.model",
			    net->params * sizeof(float), gen_model, net,
			    (void **)&net->model);
	for (i = 0, p = net->model; !err && i < SQZ_CONVS; i++) {
		if (conv2d_bind(&net->convs[i], &net->specs[i], p))
			return wl_error(inst, -ENOMEM, "out of memory packing weights");
		p += conv2d_param_count(&net->specs[i]);
	}
	return err;
}

static int alloc_buffers(struct wl_instance *inst, struct squeezenet *net)
{
	int i, missing = 0;

	net->ctx.pool = inst->pool;
	net->ctx.gemm = sgemm_ctx_create(inst->pool);
	net->ctx.plan = 1;
	squeezenet_forward(net);
	net->ctx.plan = 0;
	net->ctx.cols = malloc(net->ctx.max_cols * sizeof(float));
	for (i = 0; i < SQZ_BUFS; i++) {
		net->bufs[i] = malloc(net->ctx.max_act * sizeof(float));
		missing |= !net->bufs[i];
	}
	if (!net->ctx.gemm || !net->ctx.cols || missing)
		return wl_error(inst, -ENOMEM, "out of memory for activations");
	return 0;
}

static void squeezenet_teardown(struct wl_instance *inst)
{
	struct squeezenet *net = inst->priv;
	int i;

	for (i = 0; i < SQZ_CONVS; i++)
		conv2d_free(&net->convs[i]);
	for (i = 0; i < SQZ_BUFS; i++)
		free(net->bufs[i]);
	sgemm_ctx_destroy(net->ctx.gemm);
	free(net->ctx.cols);
	free(net->image.data);
	free(net->model);
}

static int squeezenet_init(struct wl_instance *inst)
{
	struct squeezenet *net = inst->priv;
	int err;

	net->size = (int)wl_pick(inst, 32, 112, 224);
	err = convnet_image(inst, net->size, &net->image);
	if (!err)
		err = load_model(inst, net);
	if (!err)
		err = alloc_buffers(inst, net);
	return err;
}

static int squeezenet_invoke(struct wl_instance *inst, struct wl_output *out)
{
	struct squeezenet *net = inst->priv;

	squeezenet_forward(net);
	snprintf(inst->summary, sizeof(inst->summary),
		 "squeezenet1_1 %dx%d, %zu params, %.2f GFLOP,",
		 net->size, net->size, net->params, net->ctx.flops / 1e9);
	return convnet_report(inst, out, net->logits, net->prob, SQZ_CLASSES);
}

const struct workload_ops wl_cnn_classification = {
	.version = WL_OPS_VERSION,
	.name = "cnn-classification",
	.origin = "FunctionBench",
	.description = "SqueezeNet 1.1 inference on one image, top-5 of 1000 classes",
	.uses_threads = 1,
	.variants = "squeezenet1_1",
	.state_size = sizeof(struct squeezenet),
	.init = squeezenet_init,
	.invoke = squeezenet_invoke,
	.teardown = squeezenet_teardown,
};
