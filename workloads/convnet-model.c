// SPDX-License-Identifier: MIT
/*
 * convnet-model.c - a classifier's model, image and buffers (convnet-model.h):
 * what image-recognition and cnn-classification build the same way around
 * their own layer graphs.
 */
#include <errno.h>
#include <stdlib.h>

#include "convnet-model.h"
#include "wlexport.h"
#include "wlfile.h"

int convnet_layers(struct wl_instance *inst, struct convnet *net, size_t n)
{
	net->nconvs = n;
	net->specs = calloc(n, sizeof(*net->specs));
	net->convs = calloc(n, sizeof(*net->convs));
	if (!net->specs || !net->convs)
		return wl_error(inst, -ENOMEM, "out of memory for the layers");
	return 0;
}

static int gen_model(struct wl_instance *inst, void *buf, size_t len, void *arg)
{
	struct convnet *net = arg;

	(void)len;
	convnet_gen_params(inst->params.seed, net->specs, net->nconvs, buf);
	return 0;
}

/* Read (or generate) the model file and pack each convolution's weights. */
static int load_model(struct wl_instance *inst, struct convnet *net, const char *file)
{
	float *p;
	size_t i;
	int err;

	for (i = 0; i < net->nconvs; i++)
		net->params += conv2d_param_count(&net->specs[i]);
	err = wl_model_load(inst, file, net->params * sizeof(float), gen_model, net,
			    (void **)&net->model);
	for (i = 0, p = net->model; !err && i < net->nconvs; i++) {
		if (conv2d_bind(&net->convs[i], &net->specs[i], p))
			return wl_error(inst, -ENOMEM, "out of memory packing weights");
		p += conv2d_param_count(&net->specs[i]);
	}
	return err;
}

/* One planning pass of @forward, then the buffers the largest layer needs. */
static int alloc_buffers(struct wl_instance *inst, struct convnet *net, int nbufs,
			 convnet_forward_fn forward, void *arg)
{
	int i, missing = 0;

	net->ctx.pool = inst->pool;
	net->ctx.gemm = sgemm_ctx_create(inst->pool);
	net->ctx.plan = 1;
	forward(arg);
	net->ctx.plan = 0;
	net->ctx.cols = malloc(net->ctx.max_cols * sizeof(float));
	for (i = 0; i < nbufs; i++) {
		net->bufs[i] = malloc(net->ctx.max_act * sizeof(float));
		missing |= !net->bufs[i];
	}
	if (!net->ctx.gemm || !net->ctx.cols || missing)
		return wl_error(inst, -ENOMEM, "out of memory for activations");
	return 0;
}

int convnet_open(struct wl_instance *inst, struct convnet *net, const char *file,
		 int nbufs, convnet_forward_fn forward, void *arg)
{
	int err;

	if (nbufs > CONVNET_MAX_BUFS)
		return wl_error(inst, -EINVAL, "%d activation buffers, at most %d",
				nbufs, CONVNET_MAX_BUFS);
	net->size = (int)wl_pick(inst, 32, 112, 224);
	err = convnet_image(inst, net->size, &net->image);
	if (!err)
		err = load_model(inst, net, file);
	if (!err)
		err = alloc_buffers(inst, net, nbufs, forward, arg);
	return err;
}

void convnet_free(struct convnet *net)
{
	size_t i;

	for (i = 0; net->convs && i < net->nconvs; i++)
		conv2d_free(&net->convs[i]);
	for (i = 0; i < CONVNET_MAX_BUFS; i++)
		free(net->bufs[i]);
	sgemm_ctx_destroy(net->ctx.gemm);
	free(net->ctx.cols);
	free(net->image.data);
	free(net->model);
	free(net->convs);
	free(net->specs);
}

int convnet_export(struct wl_instance *inst)
{
	struct convnet *net = inst->priv;
	const struct tensor *im = &net->image;

	return wl_export_write(inst, "image", im->data,
			       (size_t)im->c * im->h * im->w * sizeof(float));
}

void convnet_teardown(struct wl_instance *inst)
{
	convnet_free(inst->priv);
}
