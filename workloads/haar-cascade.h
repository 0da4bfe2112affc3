/* SPDX-License-Identifier: MIT */
/*
 * haar-cascade.h - Viola-Jones Haar cascades in OpenCV's XML format
 * ("new style": <cascade><stageType>BOOST</stageType><featureType>HAAR ...),
 * evaluated the way OpenCV 4's CascadeClassifier does, so that detections
 * can be checked against cv2.CascadeClassifier.detectMultiScale.
 */
#ifndef CVMFN_HAAR_CASCADE_H
#define CVMFN_HAAR_CASCADE_H

#include <stddef.h>
#include <stdint.h>

#include "workload.h"

#define HAAR_MAX_RECTS 3

struct haar_rect {
	int x, y, w, h;
	float weight;
};

struct haar_feature {
	int nrects;
	struct haar_rect rect[HAAR_MAX_RECTS];
};

/* A tree node: child index > 0 is another node, <= 0 is leaf -index. */
struct haar_node {
	int left, right, feature;
	float threshold;
};

struct haar_tree {
	int node_ofs, leaf_ofs;
};

struct haar_stage {
	int first_tree, ntrees;
	float threshold;        /* already lowered by OpenCV's 1e-5 */
};

/* A feature compiled for an integral image of one row stride. */
struct haar_opt_feature {
	int ofs[HAAR_MAX_RECTS][4];
	float weight[HAAR_MAX_RECTS];
};

struct haar_cascade {
	int win_w, win_h;
	int nstages, ntrees, nnodes, nleaves, nfeatures;
	struct haar_stage *stages;
	struct haar_tree *trees;
	struct haar_node *nodes;
	float *leaves;
	struct haar_feature *features;
	struct haar_opt_feature *opt;   /* for @stride, see haar_cascade_compile() */
	int stride;
	int norm_ofs[4];                /* the window less a 1-pixel border */
	double norm_area;
};

/* A detection: a rectangle and how many raw windows were merged into it. */
struct haar_box {
	int x, y, w, h;
	int neighbors;
};

/**
 * haar_cascade_load() - parse an OpenCV cascade XML file. Errors (missing
 * file, malformed XML, an old-style, LBP or tilted-feature cascade) go to
 * inst->error naming the file. Returns 0 or -errno.
 */
int haar_cascade_load(struct wl_instance *inst, struct haar_cascade *c,
		      const char *path);

/** haar_cascade_free() - free what haar_cascade_load() built. */
void haar_cascade_free(struct haar_cascade *c);

/**
 * haar_cascade_compile() - precompute every feature's corner offsets in an
 * integral image whose rows are @stride elements apart. 0 or -ENOMEM.
 */
int haar_cascade_compile(struct haar_cascade *c, int stride);

/**
 * haar_cascade_run() - classify the window whose top-left corner is @sum /
 * @sqsum (integral and squared integral, both with the compiled stride).
 * Returns 1 for an object, -k when stage k rejected it (so 0 means stage 0),
 * and -1 for a window of too little contrast (standard deviation <= 10
 * grey levels, as OpenCV's HaarEvaluator::setWindow).
 */
int haar_cascade_run(const struct haar_cascade *c, const int32_t *sum,
		     const uint32_t *sqsum);

/**
 * haar_group_boxes() - OpenCV's groupRectangles(): cluster the @n raw
 * windows in @boxes (similar if all edges are within @eps of the smaller
 * size), average each cluster, drop clusters of @min_neighbors windows or
 * fewer and those inside a stronger one. Writes the result to @out (room
 * for @n) and returns how many. With @min_neighbors <= 0 copies @boxes.
 * Returns -ENOMEM when out of memory.
 */
long haar_group_boxes(const struct haar_box *boxes, size_t n, int min_neighbors,
		      double eps, struct haar_box *out);

#endif
