/* SPDX-License-Identifier: MIT */
/*
 * convnet-model.h - one image classifier built from convnet.h's layers, as
 * image-recognition (ResNet) and cnn-classification (SqueezeNet) hold it:
 * the convolutions bound to the model file of the seed, the input image,
 * the forward context and the activation buffers one planning pass sized,
 * and the logits and probabilities of the 1000 classes.
 */
#ifndef CVMFN_CONVNET_MODEL_H
#define CVMFN_CONVNET_MODEL_H

#include <stddef.h>

#include "convnet.h"
#include "workload.h"

#define CONVNET_CLASSES 1000
#define CONVNET_MAX_BUFS 5

/*
 * A workload's state begins with one (zeroed by the runner), so that
 * convnet_teardown() can be its ops' teardown.
 */
struct convnet {
	struct conv2d_spec *specs;
	struct conv2d *convs;     /* one per spec, same order */
	size_t nconvs, params;    /* params: floats in the model file */
	float *model;
	int size;                 /* image side: 32, 112 or 224 pixels */
	struct convnet_ctx ctx;
	struct tensor image;
	float *bufs[CONVNET_MAX_BUFS];
	float logits[CONVNET_CLASSES];
	double prob[CONVNET_CLASSES];
};

/* A network's forward pass over @arg's convnet; only shapes when planning. */
typedef void (*convnet_forward_fn)(void *arg);

/**
 * convnet_layers() - @n zeroed specs and convolutions for the caller to
 * fill with the specs, in file and forward order. 0 or -ENOMEM with
 * inst->error set.
 */
int convnet_layers(struct wl_instance *inst, struct convnet *net, size_t n);

/**
 * convnet_open() - the image at the instance's size (convnet_image()), the
 * model file @file of the seed (generated from the specs with --prepare)
 * with every convolution bound to it, and @nbufs activation buffers sized
 * by one planning pass of @forward(@arg). 0 or -errno with inst->error
 * set; convnet_free() releases what was built either way.
 */
int convnet_open(struct wl_instance *inst, struct convnet *net, const char *file,
		 int nbufs, convnet_forward_fn forward, void *arg);

/** convnet_free() - release all convnet_layers() and convnet_open() built. */
void convnet_free(struct convnet *net);

/**
 * convnet_export() - the ops' export_inputs of a state that begins with a
 * convnet: "image", the normalised input tensor (3 x size x size float32
 * little endian, channels first) for the Python twin; the weights are the
 * model file itself (wlfile.h's header, then the floats).
 */
int convnet_export(struct wl_instance *inst);

/** convnet_teardown() - the ops' teardown of a state that begins with a convnet. */
void convnet_teardown(struct wl_instance *inst);

#endif
