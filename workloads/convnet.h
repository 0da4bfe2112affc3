/* SPDX-License-Identifier: MIT */
/*
 * convnet.h - CNN building blocks shared by image-recognition (ResNet) and
 * cnn-classification (SqueezeNet): convolution as im2col + SGEMM with bias,
 * residual add and ReLU fused, max and average pooling, softmax, top-k,
 * seeded He-initialised weights, and the input image (generated from the
 * seed or read from a binary PPM) normalised the torchvision way.
 *
 * Tensors are one image, channels x height x width, float32, row-major.
 */
#ifndef CVMFN_CONVNET_H
#define CVMFN_CONVNET_H

#include <stddef.h>
#include <stdint.h>

#include "sgemm.h"
#include "workload.h"

/* Shape of one convolution with square kernels, and how to initialise it. */
struct conv2d_spec {
	int in_c, out_c, k, stride, pad;
	float weight_scale;       /* x He std sqrt(2 / fan_in) */
	float bias_std;
};

struct conv2d {
	struct conv2d_spec spec;
	const float *bias;        /* out_c, inside the model buffer */
	struct sgemm_a weight;    /* out_c x (in_c * k * k), packed */
};

struct tensor {
	float *data;
	int c, h, w;
};

/*
 * Forward-pass context. With @plan set, layers only compute shapes and
 * record the largest activation and im2col sizes (to size the buffers).
 */
struct convnet_ctx {
	struct pool *pool;
	struct sgemm_ctx *gemm;
	float *cols;              /* im2col scratch */
	int plan;
	size_t max_act, max_cols; /* floats, recorded while planning */
	double flops;             /* multiply-adds x 2 of the last pass */
};

/** conv2d_param_count() - weights + biases of one convolution. */
size_t conv2d_param_count(const struct conv2d_spec *s);

/**
 * convnet_gen_params() - fill @buf with the parameters of @n convolutions
 * in order (weights out_c x in_c x k x k, then biases), from @seed.
 */
void convnet_gen_params(uint64_t seed, const struct conv2d_spec *specs,
			size_t n, float *buf);

/**
 * conv2d_bind() - make @l use the parameters at @params (the model buffer,
 * which must outlive it) and pack its weights. 0 or -ENOMEM.
 */
int conv2d_bind(struct conv2d *l, const struct conv2d_spec *spec,
		const float *params);

/** conv2d_free() - release the packed weights. */
void conv2d_free(struct conv2d *l);

/**
 * conv2d_forward() - @out (its data preallocated) = relu?(conv(@in) + bias
 * [+ @residual]). @out->c/h/w are set. In plan mode only shapes are set.
 */
void conv2d_forward(struct convnet_ctx *ctx, const struct conv2d *l,
		    const struct tensor *in, struct tensor *out,
		    const float *residual, int relu);

/**
 * maxpool2d() - max over k x k windows (padding never wins), output size
 * rounded down, or up when @ceil_mode (windows must start inside).
 */
void maxpool2d(struct convnet_ctx *ctx, const struct tensor *in,
	       struct tensor *out, int k, int stride, int pad, int ceil_mode);

/** global_avgpool() - per channel mean, summed in index order, into @out. */
void global_avgpool(const struct tensor *in, float *out);

/** convnet_softmax() - probabilities of @n logits, in double. */
void convnet_softmax(const float *logits, int n, double *prob);

/** convnet_top_k() - the @k largest of @prob (ties: lower index first). */
void convnet_top_k(const double *prob, int n, int k, int *idx);

/**
 * convnet_image() - the 3 x @size x @size input, normalised with the
 * ImageNet mean and std: read from the binary PPM (P6) params.input if set
 * (it must be @size x @size), otherwise generated from params.seed.
 * 0 or -errno with inst->error set.
 */
int convnet_image(struct wl_instance *inst, int size, struct tensor *img);

/**
 * convnet_report() - softmax of @n logits into @prob, top-5 class ids and
 * probabilities (4 decimals) into @out and appended to inst->summary, and
 * with --output all "class logit probability" lines written to that file,
 * atomically. 0 or -errno.
 */
int convnet_report(struct wl_instance *inst, struct wl_output *out,
		   const float *logits, double *prob, int n);

#endif
