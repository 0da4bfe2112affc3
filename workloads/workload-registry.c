// SPDX-License-Identifier: MIT
/*
 * workload-registry.c - one struct workload_info per workload (in
 * workload-list.h's order), the list expanded from workload-list.h, and
 * the checks of a variant and a size that need no instance
 * (workload-registry.h). Data and parsing only: cvmbench links it without
 * the functions.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "video-variant.h"
#include "workload-registry.h"

const struct workload_info wl_info_null = {
	.name = "null",
	.origin = "cvmbench",
	.description = "does nothing: measures the harness round trip",
	.variants = WL_NO_VARIANTS,
	.no_output = 1,
};

const struct workload_info wl_info_hello_world = {
	.name = "hello-world",
	.origin = "SeBS-style",
	.description = "returns a small JSON greeting",
	.variants = WL_NO_VARIANTS,
	.no_output = 1,
};

const struct workload_info wl_info_chameleon = {
	.name = "chameleon",
	.origin = "FunctionBench",
	.description = "renders an HTML table through a compiled template (loops, escaping)",
	.variants = WL_NO_VARIANTS,
};

const struct workload_info wl_info_map_reduce = {
	.name = "map-reduce",
	.origin = "FunctionBench",
	.description = "word count: threaded map, hash-partitioned shuffle, reduce, sort",
	.variants = WL_NO_VARIANTS,
};

const struct workload_info wl_info_graph_bfs = {
	.name = "graph-bfs",
	.origin = "SeBS 503",
	.description = "level-synchronous BFS over a Barabasi-Albert graph (CSR)",
	.variants = WL_NO_VARIANTS,
};

const struct workload_info wl_info_sentiment = {
	.name = "sentiment",
	.origin = "FaaSProfiler",
	.description = "VADER-like lexicon and rules sentiment of sentences",
	.variants = WL_NO_VARIANTS,
};

const struct workload_info wl_info_logistic_regression = {
	.name = "logistic-regression",
	.origin = "FunctionBench",
	.description = "TF-IDF of generated reviews + L2 logistic regression training",
	.variants = WL_NO_VARIANTS,
};

const struct workload_info wl_info_matmul = {
	.name = "matmul",
	.origin = "FunctionBench",
	.description = "N x N double matrix multiply (blocked, threaded DGEMM)",
	.variants = WL_NO_VARIANTS,
};

const struct workload_info wl_info_image_recognition = {
	.name = "image-recognition",
	.origin = "SeBS 411",
	.description = "ResNet-50/152 inference on one image, top-5 of 1000 classes",
	.variants = "resnet50|resnet152",
};

const struct workload_info wl_info_cnn_classification = {
	.name = "cnn-classification",
	.origin = "FunctionBench",
	.description = "SqueezeNet 1.1 inference on one image, top-5 of 1000 classes",
	.variants = "squeezenet1_1",
};

const struct workload_info wl_info_rnn_generate = {
	.name = "rnn-generate",
	.origin = "FunctionBench",
	.description = "character-level LSTM generates names from start letters",
	.variants = "lstm",
};

const struct workload_info wl_info_video_processing = {
	.name = "video-processing",
	.origin = "SeBS 220",
	.description = "gray, scale, watermark each frame; encode an animated GIF",
	.variants = NULL,         /* its own: ramp, cube, solid:R,G,B */
	.variant_check = vp_variant_check,
};

const struct workload_info wl_info_video_face_detection = {
	.name = "video-face-detection",
	.origin = "FunctionBench",
	.description = "Viola-Jones Haar-cascade face detection on every frame",
	.variants = WL_NO_VARIANTS,
};

const struct workload_info wl_info_pyaes = {
	.name = "pyaes",
	.origin = "FunctionBench",
	.description = "AES-128-CTR encrypt and decrypt a message (T-table AES)",
	.variants = WL_NO_VARIANTS,
};

const struct workload_info wl_info_compression = {
	.name = "compression",
	.origin = "SeBS 311",
	.description = "packs a directory into a .tar.gz (ustar + zlib)",
	.variants = WL_NO_VARIANTS,
};

const struct workload_info wl_info_random_disk_io = {
	.name = "random-disk-io",
	.origin = "FunctionBench",
	.description = "random 4 KiB pwrite, fsync, random 4 KiB pread over a file",
	.variants = WL_NO_VARIANTS,
};

const struct workload_info wl_info_crud_api = {
	.name = "crud-api",
	.origin = "SeBS 130",
	.description = "shopping-cart CRUD requests on SQLite",
	.variants = WL_NO_VARIANTS,
};

#define LIST_WORKLOAD(ident) &wl_info_##ident,
static const struct workload_info *const workloads[] = { WORKLOADS(LIST_WORKLOAD) };
#undef LIST_WORKLOAD

size_t workload_count(void)
{
	return sizeof(workloads) / sizeof(workloads[0]);
}

const struct workload_info *workload_at(size_t i)
{
	return i < workload_count() ? workloads[i] : NULL;
}

const struct workload_info *workload_find(const char *name)
{
	size_t i;

	for (i = 0; i < workload_count(); i++)
		if (!strcmp(workloads[i]->name, name))
			return workloads[i];
	return NULL;
}

static const char *const size_names[] = { "test", "small", "large" };

const char *wl_size_name(enum wl_size size)
{
	return size <= WL_SIZE_LARGE ? size_names[size] : "?";
}

int wl_size_parse(const char *s, enum wl_size *size)
{
	int i;

	for (i = 0; i <= WL_SIZE_LARGE; i++)
		if (!strcmp(s, size_names[i])) {
			*size = (enum wl_size)i;
			return 0;
		}
	return -EINVAL;
}

/* Whether @v is one of the "a|b" in @list. */
static int variant_listed(const char *list, const char *v)
{
	size_t n = strlen(v);
	const char *p;

	if (strchr(v, '|'))
		return 0;
	for (p = list; n && *p; p += strcspn(p, "|") + (p[strcspn(p, "|")] == '|'))
		if (!strncmp(p, v, n) && (p[n] == '|' || !p[n]))
			return 1;
	return 0;
}

int wl_variant_check(const struct workload_info *w, const char *v, char *err, size_t errlen)
{
	const char *p;
	char names[256];
	size_t i = 0;

	if (v && *v && !w->variants && w->variant_check)
		return w->variant_check(v, err, errlen) ? -EINVAL : 0;
	if (!v || !w->variants || variant_listed(w->variants, v))
		return 0;
	if (!*w->variants) {
		snprintf(err, errlen, "%s has no variants (got '%s')", w->name, v);
		return -EINVAL;
	}
	for (p = w->variants; *p && i + 3 < sizeof(names); p++) {
		if (*p == '|')
			names[i++] = ',';
		names[i++] = *p == '|' ? ' ' : *p;
	}
	names[i] = '\0';
	snprintf(err, errlen, "%s: unknown variant '%s' (variants: %s)", w->name, v, names);
	return -EINVAL;
}
