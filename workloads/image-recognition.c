// SPDX-License-Identifier: MIT
/*
 * image-recognition.c - SeBS 411.image-recognition: ResNet inference on one
 * image, softmax over 1000 ImageNet classes, top-5.
 *
 * The network is torchvision's ResNet-50 / ResNet-152 (He et al., CVPR
 * 2016, v1.5: stride in the 3x3 convolution): 7x7/2 stem with 64 channels,
 * 3x3/2 max pool, bottleneck stages of [3,4,6,3] or [3,8,36,3] blocks with
 * 64..512 planes (x4 out), global average pool, 1000-way fully connected.
 * Batch norm is folded into convolution weights and biases, so the model
 * file holds 25.50 M (60.12 M) floats for the 25.56 M (60.19 M) torchvision
 * parameters. The weights are He-normal from the seed (no pretrained file
 * can be fetched), with each block's last convolution scaled down so that
 * activations stay finite through 50 blocks. The image is generated from
 * the seed (or read from --input, a PPM) at 32 (test), 112 (small) or 224
 * (large, SeBS's) pixels a side. --output writes all 1000 scores.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "convnet-model.h"

#define RESNET_FEATURES 2048
#define RESNET_BUFS 5

/* Initialisation: see the header comment. */
#define BIAS_STD 0.05f
#define LAST_CONV_SCALE 0.2f
#define FC_SCALE 2.0f
#define FC_BIAS_STD 0.1f

struct resnet_variant {
	const char *name;
	int blocks[4];
};

static const struct resnet_variant resnet_variants[] = {
	{ "resnet50", { 3, 4, 6, 3 } },
	{ "resnet152", { 3, 8, 36, 3 } },
};

struct resnet {
	struct convnet net;       /* first: convnet_teardown() frees it */
	const struct resnet_variant *variant;
	float feat[RESNET_FEATURES];
};

static void add_spec(struct conv2d_spec *specs, size_t *n, int in_c, int out_c,
		     int k, int stride, float scale)
{
	if (specs)
		specs[*n] = (struct conv2d_spec){ in_c, out_c, k, stride, k / 2,
						  scale, BIAS_STD };
	(*n)++;
}

/*
 * The convolutions in forward (and file) order: stem; per block reduce
 * 1x1, 3x3 (stride of the stage), expand 1x1, and in each stage's first
 * block the 1x1 projection shortcut; the fully connected layer last.
 */
static size_t resnet_specs(const struct resnet_variant *v,
			   struct conv2d_spec *specs)
{
	size_t n = 0;
	int in_c = 64, stage, b;

	add_spec(specs, &n, 3, 64, 7, 2, 1.0f);
	for (stage = 0; stage < 4; stage++) {
		int planes = 64 << stage;

		for (b = 0; b < v->blocks[stage]; b++) {
			int stride = b == 0 && stage > 0 ? 2 : 1;

			add_spec(specs, &n, in_c, planes, 1, 1, 1.0f);
			add_spec(specs, &n, planes, planes, 3, stride, 1.0f);
			add_spec(specs, &n, planes, 4 * planes, 1, 1, LAST_CONV_SCALE);
			if (b == 0)
				add_spec(specs, &n, in_c, 4 * planes, 1, stride, 1.0f);
			in_c = 4 * planes;
		}
	}
	add_spec(specs, &n, RESNET_FEATURES, CONVNET_CLASSES, 1, 1,
		 FC_SCALE / 1.41421356f);
	if (specs) {
		specs[n - 1].pad = 0;
		specs[n - 1].bias_std = FC_BIAS_STD;
	}
	return n;
}

/* @buf[xi] holds the block input; the other four are its scratch. */
static int bottleneck(struct convnet *net, size_t *ci, struct tensor *x, int xi,
		      int first)
{
	struct convnet_ctx *ctx = &net->ctx;
	struct tensor t1 = { .data = net->bufs[(xi + 1) % RESNET_BUFS] };
	struct tensor t2 = { .data = net->bufs[(xi + 2) % RESNET_BUFS] };
	struct tensor sc = { .data = net->bufs[(xi + 3) % RESNET_BUFS] };
	struct tensor y = { .data = net->bufs[(xi + 4) % RESNET_BUFS] };
	const float *residual = x->data;

	conv2d_forward(ctx, &net->convs[*ci], x, &t1, NULL, 1);
	conv2d_forward(ctx, &net->convs[*ci + 1], &t1, &t2, NULL, 1);
	if (first) {
		conv2d_forward(ctx, &net->convs[*ci + 3], x, &sc, NULL, 0);
		residual = sc.data;
	}
	conv2d_forward(ctx, &net->convs[*ci + 2], &t2, &y, residual, 1);
	*ci += first ? 4 : 3;
	*x = y;
	return (xi + 4) % RESNET_BUFS;
}

/* Image to logits; in plan mode only shapes and buffer sizes. */
static void resnet_forward(void *arg)
{
	struct resnet *r = arg;
	struct convnet *net = &r->net;
	struct tensor a = { .data = net->bufs[0] }, x = { .data = net->bufs[1] };
	struct tensor feat = { r->feat, RESNET_FEATURES, 1, 1 };
	struct tensor logits = { .data = net->logits };
	size_t ci = 1;
	int stage, b, xi = 1;

	conv2d_forward(&net->ctx, &net->convs[0], &net->image, &a, NULL, 1);
	maxpool2d(&net->ctx, &a, &x, 3, 2, 1, 0);
	for (stage = 0; stage < 4; stage++)
		for (b = 0; b < r->variant->blocks[stage]; b++)
			xi = bottleneck(net, &ci, &x, xi, b == 0);
	if (!net->ctx.plan)
		global_avgpool(&x, r->feat);
	conv2d_forward(&net->ctx, &net->convs[ci], &feat, &logits, NULL, 0);
}

static int pick_variant(struct wl_instance *inst, struct resnet *r)
{
	const char *name = inst->params.variant ? inst->params.variant : "resnet50";
	size_t i;

	for (i = 0; i < sizeof(resnet_variants) / sizeof(resnet_variants[0]); i++)
		if (!strcmp(name, resnet_variants[i].name)) {
			r->variant = &resnet_variants[i];
			return 0;
		}
	return wl_error(inst, -EINVAL,
			"image-recognition: unknown variant '%s' (variants: resnet50, resnet152)",
			name);
}

static int resnet_init(struct wl_instance *inst)
{
	struct resnet *r = inst->priv;
	char file[96];
	int err = pick_variant(inst, r);

	if (!err)
		err = convnet_layers(inst, &r->net, resnet_specs(r->variant, NULL));
	if (err)
		return err;
	resnet_specs(r->variant, r->net.specs);
	snprintf(file, sizeof(file), "image-recognition-%s.model", r->variant->name);
	return convnet_open(inst, &r->net, file, RESNET_BUFS, resnet_forward, r);
}

/* Parameters as torchvision counts them: batch norm has weight and bias. */
static size_t torchvision_params(const struct convnet *net)
{
	size_t n = net->params, i;

	for (i = 0; i + 1 < net->nconvs; i++)
		n += (size_t)net->specs[i].out_c;
	return n;
}

static int resnet_invoke(struct wl_instance *inst, struct wl_output *out)
{
	struct resnet *r = inst->priv;
	struct convnet *net = &r->net;

	resnet_forward(r);
	snprintf(inst->summary, sizeof(inst->summary),
		 "%s %dx%d, %zu params (%zu folded), %.2f GFLOP,",
		 r->variant->name, net->size, net->size,
		 torchvision_params(net), net->params, net->ctx.flops / 1e9);
	return convnet_report(inst, out, net->logits, net->prob, CONVNET_CLASSES);
}

const struct workload_ops wl_image_recognition = {
	.version = WL_OPS_VERSION,
	.info = &wl_info_image_recognition,
	.uses_threads = 1,
	.state_size = sizeof(struct resnet),
	.init = resnet_init,
	.invoke = resnet_invoke,
	.teardown = convnet_teardown,
	.export_inputs = convnet_export,
};
