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
 * sgemm.c); model file, image and buffers convnet-model.c's. Image:
 * generated from the seed (or --input, a PPM) at 32 (test), 112 (small) or
 * 224 (large) pixels a side. --output writes all 1000 scores. `cvmfn
 * prepare` exports the normalised image for the Python twin (convnet_export).
 */
#include <stdio.h>

#include "convnet-model.h"

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
	specs[i] = (struct conv2d_spec){ 512, CONVNET_CLASSES, 1, 1, 0,
					 CLASSIFIER_SCALE, BIAS_STD };
}

/* x in bufs[xi] -> squeeze in xi+1 -> concat(expand 1x1, 3x3) in xi+2. */
static int fire(struct convnet *net, int f, struct tensor *x, int xi)
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

static int pool_to_next(struct convnet *net, struct tensor *x, int xi)
{
	struct tensor y = { .data = net->bufs[(xi + 1) % SQZ_BUFS] };

	maxpool2d(&net->ctx, x, &y, 3, 2, 0, 1);
	*x = y;
	return (xi + 1) % SQZ_BUFS;
}

/* Image to logits; in plan mode only shapes and buffer sizes. */
static void squeezenet_forward(void *arg)
{
	struct convnet *net = arg;
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

static int squeezenet_init(struct wl_instance *inst)
{
	struct convnet *net = inst->priv;
	int err = convnet_layers(inst, net, SQZ_CONVS);

	if (err)
		return err;
	squeezenet_specs(net->specs);
	return convnet_open(inst, net, "cnn-classification-squeezenet1_1.model", SQZ_BUFS,
			    squeezenet_forward, net);
}

static int squeezenet_invoke(struct wl_instance *inst, struct wl_output *out)
{
	struct convnet *net = inst->priv;

	squeezenet_forward(net);
	snprintf(inst->summary, sizeof(inst->summary),
		 "squeezenet1_1 %dx%d, %zu params, %.2f GFLOP,",
		 net->size, net->size, net->params, net->ctx.flops / 1e9);
	return convnet_report(inst, out, net->logits, net->prob, CONVNET_CLASSES);
}

const struct workload_ops wl_cnn_classification = {
	.version = WL_OPS_VERSION,
	.info = &wl_info_cnn_classification,
	.uses_threads = 1,
	.state_size = sizeof(struct convnet),
	.init = squeezenet_init,
	.invoke = squeezenet_invoke,
	.teardown = convnet_teardown,
	.export_inputs = convnet_export,
};
