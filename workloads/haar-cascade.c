// SPDX-License-Identifier: MIT
/*
 * haar-cascade.c - load OpenCV Haar cascades (a small XML reader of our
 * own) and evaluate them the way OpenCV 4's CascadeClassifier does
 * (modules/objdetect/src/cascadedetect.cpp): features are sums of 2-3
 * weighted rectangles read from an integral image, scaled by the inverse
 * standard deviation of the window less a 1-pixel border; each weak
 * classifier is a tree over such features; a stage rejects a window when
 * the sum of its trees' leaves falls below the stage threshold.
 *
 * Origin: Viola & Jones (2001), Lienhart & Maydt (2002); the numbers are
 * the trained cascade itself (Debian's opencv-data ships
 * haarcascade_frontalface_default.xml: 25 stages, 2913 stumps, 24x24).
 * Floats are kept as float exactly where OpenCV keeps them, so the same
 * windows pass.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "haar-cascade.h"
#include "wlfile.h"

#define HAAR_THRESHOLD_EPS 1e-5f
#define XML_NONE (-1)
#define HAAR_MAX_TREE_NODES 64

/* ---- a minimal XML reader: elements, their first text run, no attributes */

struct xml_node {
	const char *name, *text;
	int name_len, text_len;
	int child, last, next;
};

struct xml_doc {
	struct xml_node *nodes;
	int n, cap;
	const char *buf, *end;
};

static int xml_new_node(struct xml_doc *doc, int parent)
{
	struct xml_node *node;

	if (doc->n == doc->cap) {
		int cap = doc->cap ? 2 * doc->cap : 4096;
		struct xml_node *p = realloc(doc->nodes, (size_t)cap * sizeof(*p));

		if (!p)
			return -ENOMEM;
		doc->nodes = p;
		doc->cap = cap;
	}
	node = &doc->nodes[doc->n];
	memset(node, 0, sizeof(*node));
	node->child = node->last = node->next = XML_NONE;
	if (parent != XML_NONE) {
		struct xml_node *up = &doc->nodes[parent];

		if (up->last == XML_NONE)
			up->child = doc->n;
		else
			doc->nodes[up->last].next = doc->n;
		up->last = doc->n;
	}
	return doc->n++;
}

/* Skip past @pat from @p; NULL if it never comes. */
static const char *xml_skip_past(const char *p, const char *end, const char *pat)
{
	const char *hit = memmem(p, (size_t)(end - p), pat, strlen(pat));

	return hit ? hit + strlen(pat) : NULL;
}

/* Length of the text run at @p: up to the next tag or the end. */
static int xml_text_len(const char *p, const char *end)
{
	const char *lt = memchr(p, '<', (size_t)(end - p));

	return (int)((lt ? lt : end) - p);
}

/* A start tag at @p ('<' already consumed): new node, returns after '>'. */
static const char *xml_start_tag(struct xml_doc *doc, const char *p, int parent,
				 int *node_out, int *self_closing)
{
	const char *name = p, *gt;
	int idx;

	while (p < doc->end && !strchr(" \t\r\n/>", *p))
		p++;
	gt = memchr(p, '>', (size_t)(doc->end - p));
	if (!gt || p == name)
		return NULL;
	idx = xml_new_node(doc, parent);
	if (idx < 0)
		return NULL;
	doc->nodes[idx].name = name;
	doc->nodes[idx].name_len = (int)(p - name);
	doc->nodes[idx].text = gt + 1;         /* empty unless it has content */
	*self_closing = gt[-1] == '/';
	*node_out = idx;
	return gt + 1;
}

/* Parse doc->buf into nodes; node 0 is a virtual root. 0 or byte offset + 1. */
static long xml_parse(struct xml_doc *doc)
{
	int stack[64], depth = 0, node, self_closing;
	const char *p = doc->buf;

	stack[0] = xml_new_node(doc, XML_NONE);
	if (stack[0] < 0)
		return 1;
	while (p && (p = memchr(p, '<', (size_t)(doc->end - p)))) {
		const char *at = p++;

		if (*p == '?')
			p = xml_skip_past(p, doc->end, "?>");
		else if (!strncmp(p, "!--", 3))
			p = xml_skip_past(p, doc->end, "-->");
		else if (*p == '!')
			p = xml_skip_past(p, doc->end, ">");
		else if (*p == '/') {
			if (depth == 0)
				return at - doc->buf + 1;
			depth--;
			p = xml_skip_past(p, doc->end, ">");
		} else {
			p = xml_start_tag(doc, p, stack[depth], &node, &self_closing);
			if (!p || depth == 63)
				return at - doc->buf + 1;
			if (self_closing)
				continue;
			stack[++depth] = node;
			doc->nodes[node].text = p;
			doc->nodes[node].text_len = xml_text_len(p, doc->end);
		}
		if (!p)
			return at - doc->buf + 1;
	}
	return depth ? doc->end - doc->buf : 0;
}

static int xml_is(const struct xml_doc *doc, int idx, const char *name)
{
	const struct xml_node *node = &doc->nodes[idx];

	return node->name_len == (int)strlen(name) &&
	       !memcmp(node->name, name, (size_t)node->name_len);
}

static int xml_child(const struct xml_doc *doc, int parent, const char *name)
{
	int i;

	if (parent == XML_NONE)
		return XML_NONE;
	for (i = doc->nodes[parent].child; i != XML_NONE; i = doc->nodes[i].next)
		if (xml_is(doc, i, name))
			return i;
	return XML_NONE;
}

static int xml_count(const struct xml_doc *doc, int parent)
{
	int i, n = 0;

	for (i = doc->nodes[parent].child; i != XML_NONE; i = doc->nodes[i].next)
		n++;
	return n;
}

/*
 * The numbers in the node's text: up to @max into @out, or just counted
 * when @out is NULL. Returns how many, -1 if there is junk or too many.
 */
static int xml_numbers(const struct xml_doc *doc, int idx, double *out, int max)
{
	const char *p, *end;
	int n = 0;

	if (idx == XML_NONE)
		return -1;
	p = doc->nodes[idx].text;
	end = p + doc->nodes[idx].text_len;
	while (p < end) {
		char *next;
		double v;

		while (p < end && strchr(" \t\r\n", *p))
			p++;
		if (p == end)
			break;
		v = strtod(p, &next);
		if (next == p || next > end || (out && n == max))
			return -1;
		if (out)
			out[n] = v;
		n++;
		p = next;
	}
	return n;
}

static int xml_text_is(const struct xml_doc *doc, int idx, const char *want)
{
	const struct xml_node *node;
	const char *p;
	int len;

	if (idx == XML_NONE)
		return 0;
	node = &doc->nodes[idx];
	p = node->text;
	len = node->text_len;
	while (len && strchr(" \t\r\n", *p))
		p++, len--;
	while (len && strchr(" \t\r\n", p[len - 1]))
		len--;
	return len == (int)strlen(want) && !memcmp(p, want, (size_t)len);
}

/* ---- cascade ------------------------------------------------------------ */

struct haar_loader {
	struct wl_instance *inst;
	struct haar_cascade *c;
	struct xml_doc doc;
	const char *path;
};

static int haar_bad(struct haar_loader *ld, const char *what)
{
	return wl_error(ld->inst, -EINVAL, "cascade %s: %s", ld->path, what);
}

/* Count stages, trees, nodes and leaves so that the arrays fit exactly. */
static int haar_count(struct haar_loader *ld, int stages)
{
	struct haar_cascade *c = ld->c;
	const struct xml_doc *doc = &ld->doc;
	int s, w, weak, nums;

	for (s = doc->nodes[stages].child; s != XML_NONE; s = doc->nodes[s].next) {
		weak = xml_child(doc, s, "weakClassifiers");
		if (weak == XML_NONE)
			return haar_bad(ld, "a stage without weakClassifiers");
		c->nstages++;
		for (w = doc->nodes[weak].child; w != XML_NONE; w = doc->nodes[w].next) {
			nums = xml_numbers(doc, xml_child(doc, w, "internalNodes"), NULL, 0);
			if (nums <= 0 || nums % 4 || nums > 4 * HAAR_MAX_TREE_NODES)
				return haar_bad(ld, "a weak classifier needs 4 numbers a node, at most 64 nodes (categorical LBP cascades are not supported)");
			c->ntrees++;
			c->nnodes += nums / 4;
			c->nleaves += nums / 4 + 1;
		}
	}
	if (!c->nstages || !c->ntrees)
		return haar_bad(ld, "no stages");
	return 0;
}

static int haar_read_tree(struct haar_loader *ld, int weak_node)
{
	struct haar_cascade *c = ld->c;
	double vals[4 * HAAR_MAX_TREE_NODES], leaves[HAAR_MAX_TREE_NODES + 1];
	int nvals = xml_numbers(&ld->doc, xml_child(&ld->doc, weak_node, "internalNodes"),
				vals, 4 * HAAR_MAX_TREE_NODES);
	int nleaves = xml_numbers(&ld->doc, xml_child(&ld->doc, weak_node, "leafValues"),
				  leaves, HAAR_MAX_TREE_NODES + 1);
	int i, nnodes = nvals / 4;
	struct haar_tree *t = &c->trees[c->ntrees++];

	if (nleaves != nnodes + 1)
		return haar_bad(ld, "a weak classifier needs one leaf value more than nodes");
	t->node_ofs = c->nnodes;
	t->leaf_ofs = c->nleaves;
	for (i = 0; i < nnodes; i++) {
		struct haar_node *node = &c->nodes[c->nnodes++];

		node->left = (int)vals[4 * i];
		node->right = (int)vals[4 * i + 1];
		node->feature = (int)vals[4 * i + 2];
		node->threshold = (float)vals[4 * i + 3];
		/* children come after their parent: no cycles */
		if (node->left >= nnodes || node->right >= nnodes ||
		    -node->left > nnodes || -node->right > nnodes ||
		    (node->left > 0 && node->left <= i) ||
		    (node->right > 0 && node->right <= i) ||
		    node->feature < 0 || node->feature >= c->nfeatures)
			return haar_bad(ld, "a tree node points outside its tree or the features, or back up the tree");
	}
	for (i = 0; i < nleaves; i++)
		c->leaves[c->nleaves++] = (float)leaves[i];
	return 0;
}

static int haar_read_stages(struct haar_loader *ld, int stages)
{
	struct haar_cascade *c = ld->c;
	const struct xml_doc *doc = &ld->doc;
	int s, w, err, si = 0;

	for (s = doc->nodes[stages].child; s != XML_NONE; s = doc->nodes[s].next, si++) {
		struct haar_stage *st = &c->stages[si];
		double thr;

		if (xml_numbers(doc, xml_child(doc, s, "stageThreshold"), &thr, 1) != 1)
			return haar_bad(ld, "a stage without stageThreshold");
		st->threshold = (float)thr - HAAR_THRESHOLD_EPS;
		st->first_tree = c->ntrees;
		for (w = doc->nodes[xml_child(doc, s, "weakClassifiers")].child;
		     w != XML_NONE; w = doc->nodes[w].next) {
			err = haar_read_tree(ld, w);
			if (err)
				return err;
		}
		st->ntrees = c->ntrees - st->first_tree;
	}
	return 0;
}

static int haar_read_feature(struct haar_loader *ld, int fnode, struct haar_feature *f)
{
	const struct xml_doc *doc = &ld->doc;
	const struct haar_cascade *c = ld->c;
	int rects = xml_child(doc, fnode, "rects"), r, tilted = xml_child(doc, fnode, "tilted");
	double v[5];

	if (tilted != XML_NONE && !xml_text_is(doc, tilted, "0"))
		return haar_bad(ld, "tilted (45 degree) features are not supported");
	if (rects == XML_NONE || xml_count(doc, rects) < 1 ||
	    xml_count(doc, rects) > HAAR_MAX_RECTS)
		return haar_bad(ld, "a feature needs 1 to 3 <rects>");
	for (r = doc->nodes[rects].child; r != XML_NONE; r = doc->nodes[r].next) {
		struct haar_rect *hr = &f->rect[f->nrects++];

		if (xml_numbers(doc, r, v, 5) != 5)
			return haar_bad(ld, "a rect needs x y width height weight");
		hr->x = (int)v[0];
		hr->y = (int)v[1];
		hr->w = (int)v[2];
		hr->h = (int)v[3];
		hr->weight = (float)v[4];
		if (hr->x < 0 || hr->y < 0 || hr->w < 0 || hr->h < 0 ||
		    hr->x + hr->w > c->win_w || hr->y + hr->h > c->win_h)
			return haar_bad(ld, "a feature rectangle outside the window");
	}
	return 0;
}

static int haar_alloc(struct haar_loader *ld, int stages, int features)
{
	struct haar_cascade *c = ld->c;
	int err = haar_count(ld, stages);

	if (err)
		return err;
	c->nfeatures = xml_count(&ld->doc, features);
	c->stages = calloc((size_t)c->nstages, sizeof(*c->stages));
	c->trees = calloc((size_t)c->ntrees, sizeof(*c->trees));
	c->nodes = calloc((size_t)c->nnodes, sizeof(*c->nodes));
	c->leaves = calloc((size_t)c->nleaves, sizeof(*c->leaves));
	c->features = calloc((size_t)c->nfeatures + 1, sizeof(*c->features));
	if (!c->stages || !c->trees || !c->nodes || !c->leaves || !c->features)
		return wl_error(ld->inst, -ENOMEM, "out of memory for cascade %s", ld->path);
	c->ntrees = c->nnodes = c->nleaves = 0;
	return 0;
}

/* Window size and the checks that this is a Haar cascade we can run. */
static int haar_read_header(struct haar_loader *ld, int root)
{
	const struct xml_doc *doc = &ld->doc;
	double w, h, cats = 0;

	if (!xml_text_is(doc, xml_child(doc, root, "stageType"), "BOOST"))
		return haar_bad(ld, "not a new-style OpenCV cascade (<cascade><stageType>BOOST); old-style cascades are not supported");
	if (!xml_text_is(doc, xml_child(doc, root, "featureType"), "HAAR"))
		return haar_bad(ld, "featureType is not HAAR (LBP and HOG cascades are not supported)");
	if (xml_numbers(doc, xml_child(doc, root, "width"), &w, 1) != 1 ||
	    xml_numbers(doc, xml_child(doc, root, "height"), &h, 1) != 1 ||
	    w < 3 || h < 3 || w > 1024 || h > 1024)
		return haar_bad(ld, "no valid <width> and <height>");
	xml_numbers(doc, xml_child(doc, xml_child(doc, root, "featureParams"), "maxCatCount"),
		    &cats, 1);
	if (cats != 0)
		return haar_bad(ld, "categorical features (maxCatCount > 0) are not supported");
	ld->c->win_w = (int)w;
	ld->c->win_h = (int)h;
	return 0;
}

static int haar_build(struct haar_loader *ld)
{
	const struct xml_doc *doc = &ld->doc;
	int storage = xml_child(doc, 0, "opencv_storage");
	int root = storage == XML_NONE ? XML_NONE : doc->nodes[storage].child;
	int stages, features, f, i = 0, err;

	if (root == XML_NONE)
		return haar_bad(ld, "no <opencv_storage> with a cascade in it");
	err = haar_read_header(ld, root);
	if (err)
		return err;
	stages = xml_child(doc, root, "stages");
	features = xml_child(doc, root, "features");
	if (stages == XML_NONE || features == XML_NONE)
		return haar_bad(ld, "no <stages> or no <features>");
	err = haar_alloc(ld, stages, features);
	if (err)
		return err;
	for (f = doc->nodes[features].child; f != XML_NONE; f = doc->nodes[f].next) {
		err = haar_read_feature(ld, f, &ld->c->features[i++]);
		if (err)
			return err;
	}
	return haar_read_stages(ld, stages);
}

int haar_cascade_load(struct wl_instance *inst, struct haar_cascade *c,
		      const char *path)
{
	struct haar_loader ld = { .inst = inst, .c = c, .path = path };
	void *data;
	size_t len;
	long bad;
	int err;

	memset(c, 0, sizeof(*c));
	err = wl_read_file(inst, path, &data, &len);
	if (err)
		return err;
	ld.doc.buf = data;
	ld.doc.end = (const char *)data + len;
	bad = xml_parse(&ld.doc);
	if (bad)
		err = wl_error(inst, -EINVAL, "cascade %s: malformed XML near byte %ld",
			       path, bad - 1);
	else
		err = haar_build(&ld);
	free(ld.doc.nodes);
	free(data);
	if (err)
		haar_cascade_free(c);
	return err;
}

void haar_cascade_free(struct haar_cascade *c)
{
	free(c->stages);
	free(c->trees);
	free(c->nodes);
	free(c->leaves);
	free(c->features);
	free(c->opt);
	memset(c, 0, sizeof(*c));
}

/* OpenCV's CV_SUM_OFS: the corners of @r in an image of row @stride. */
static void haar_rect_ofs(int ofs[4], int x, int y, int w, int h, int stride)
{
	ofs[0] = y * stride + x;
	ofs[1] = y * stride + x + w;
	ofs[2] = (y + h) * stride + x;
	ofs[3] = (y + h) * stride + x + w;
}

int haar_cascade_compile(struct haar_cascade *c, int stride)
{
	int i, r;

	free(c->opt);
	c->opt = calloc((size_t)c->nfeatures + 1, sizeof(*c->opt));
	if (!c->opt)
		return -ENOMEM;
	for (i = 0; i < c->nfeatures; i++) {
		const struct haar_feature *f = &c->features[i];

		for (r = 0; r < HAAR_MAX_RECTS; r++) {
			const struct haar_rect *hr = &f->rect[r];

			c->opt[i].weight[r] = r < f->nrects ? hr->weight : 0.0f;
			haar_rect_ofs(c->opt[i].ofs[r], hr->x, hr->y, hr->w, hr->h, stride);
		}
	}
	haar_rect_ofs(c->norm_ofs, 1, 1, c->win_w - 2, c->win_h - 2, stride);
	c->norm_area = (double)(c->win_w - 2) * (c->win_h - 2);
	c->stride = stride;
	return 0;
}

#define HAAR_SUM(p, o) ((p)[(o)[0]] - (p)[(o)[1]] - (p)[(o)[2]] + (p)[(o)[3]])

/* OpenCV's HaarEvaluator::OptFeature::calc, in float as there. */
static inline float haar_feature_value(const struct haar_opt_feature *f,
				       const int32_t *sum)
{
	float ret = f->weight[0] * (float)HAAR_SUM(sum, f->ofs[0]) +
		    f->weight[1] * (float)HAAR_SUM(sum, f->ofs[1]);

	if (f->weight[2] != 0.0f)
		ret += f->weight[2] * (float)HAAR_SUM(sum, f->ofs[2]);
	return ret;
}

/* 1 / (area * stddev) of the window less its border, or 0 if too flat. */
static inline float haar_norm_factor(const struct haar_cascade *c,
				     const int32_t *sum, const uint32_t *sqsum)
{
	int valsum = HAAR_SUM(sum, c->norm_ofs);
	uint32_t valsqsum = HAAR_SUM(sqsum, c->norm_ofs);
	double nf = c->norm_area * valsqsum - (double)valsum * valsum;
	float inv;

	if (nf <= 0.0)
		return 0.0f;
	inv = (float)(1.0 / sqrt(nf));
	return c->norm_area * inv < 1e-1 ? inv : 0.0f;
}

int haar_cascade_run(const struct haar_cascade *c, const int32_t *sum,
		     const uint32_t *sqsum)
{
	float norm = haar_norm_factor(c, sum, sqsum);
	int s, t;

	if (norm == 0.0f)
		return -1;
	for (s = 0; s < c->nstages; s++) {
		const struct haar_stage *st = &c->stages[s];
		double stage_sum = 0.0;

		for (t = st->first_tree; t < st->first_tree + st->ntrees; t++) {
			const struct haar_tree *tree = &c->trees[t];
			int idx = 0;

			do {
				const struct haar_node *node = &c->nodes[tree->node_ofs + idx];
				double value = haar_feature_value(&c->opt[node->feature], sum) * norm;

				idx = value < node->threshold ? node->left : node->right;
			} while (idx > 0);
			stage_sum += c->leaves[tree->leaf_ofs - idx];
		}
		if (stage_sum < st->threshold)
			return -s;
	}
	return 1;
}

/* OpenCV's SimilarRects predicate. */
static int haar_similar(const struct haar_box *a, const struct haar_box *b, double eps)
{
	double delta = eps * ((a->w < b->w ? a->w : b->w) + (a->h < b->h ? a->h : b->h)) * 0.5;

	return abs(a->x - b->x) <= delta && abs(a->y - b->y) <= delta &&
	       abs(a->x + a->w - b->x - b->w) <= delta &&
	       abs(a->y + a->h - b->y - b->h) <= delta;
}

static int haar_root(int *parent, int i)
{
	while (parent[i] >= 0)
		i = parent[i];
	return i;
}

/*
 * cv::partition: the connected components of the similarity relation,
 * numbered in the order of their first member. Returns the class count.
 */
static int haar_partition(const struct haar_box *boxes, size_t n, double eps,
			  int *parent, int *label)
{
	size_t i, j;
	int nclasses = 0;

	for (i = 0; i < n; i++)
		parent[i] = -1;
	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++) {
			int ri, rj;

			if (!haar_similar(&boxes[i], &boxes[j], eps))
				continue;
			ri = haar_root(parent, (int)i);
			rj = haar_root(parent, (int)j);
			if (ri != rj)
				parent[rj > ri ? rj : ri] = rj > ri ? ri : rj;
		}
	for (i = 0; i < n; i++)
		label[i] = -1;
	for (i = 0; i < n; i++) {
		int r = haar_root(parent, (int)i);

		if (label[r] < 0)
			label[r] = nclasses++;
		label[i] = label[r];
	}
	return nclasses;
}

/* Is cluster @r1 (of @n1 windows) inside a stronger cluster @r2 (@n2)? */
static int haar_swallowed(const struct haar_box *r1, int n1,
			  const struct haar_box *r2, int n2, double eps)
{
	int dx = (int)lrint(r2->w * eps), dy = (int)lrint(r2->h * eps);
	int stronger = n2 > (n1 > 3 ? n1 : 3) || n1 < 3;

	return r1->x >= r2->x - dx && r1->y >= r2->y - dy &&
	       r1->x + r1->w <= r2->x + r2->w + dx &&
	       r1->y + r1->h <= r2->y + r2->h + dy && stronger;
}

/* Average the clusters in place in @avg (nclasses entries). */
static void haar_average(const struct haar_box *boxes, size_t n, const int *label,
			 int nclasses, struct haar_box *avg)
{
	size_t i;
	int k;

	memset(avg, 0, (size_t)nclasses * sizeof(*avg));
	for (i = 0; i < n; i++) {
		struct haar_box *a = &avg[label[i]];

		a->x += boxes[i].x;
		a->y += boxes[i].y;
		a->w += boxes[i].w;
		a->h += boxes[i].h;
		a->neighbors++;
	}
	for (k = 0; k < nclasses; k++) {
		float s = 1.0f / (float)avg[k].neighbors;

		avg[k].x = (int)lrintf((float)avg[k].x * s);
		avg[k].y = (int)lrintf((float)avg[k].y * s);
		avg[k].w = (int)lrintf((float)avg[k].w * s);
		avg[k].h = (int)lrintf((float)avg[k].h * s);
	}
}

long haar_group_boxes(const struct haar_box *boxes, size_t n, int min_neighbors,
		      double eps, struct haar_box *out)
{
	int *parent, *label, nclasses, i, j;
	struct haar_box *avg;
	long nout = 0;

	if (min_neighbors <= 0 || n == 0) {
		memmove(out, boxes, n * sizeof(*boxes));
		return (long)n;
	}
	parent = malloc(n * sizeof(*parent));
	label = malloc(n * sizeof(*label));
	avg = malloc(n * sizeof(*avg));
	if (!parent || !label || !avg) {
		free(parent);
		free(label);
		free(avg);
		return -ENOMEM;
	}
	nclasses = haar_partition(boxes, n, eps, parent, label);
	haar_average(boxes, n, label, nclasses, avg);
	for (i = 0; i < nclasses; i++) {
		if (avg[i].neighbors <= min_neighbors)
			continue;
		for (j = 0; j < nclasses; j++)
			if (j != i && avg[j].neighbors > min_neighbors &&
			    haar_swallowed(&avg[i], avg[i].neighbors, &avg[j],
					   avg[j].neighbors, eps))
				break;
		if (j == nclasses)
			out[nout++] = avg[i];
	}
	free(parent);
	free(label);
	free(avg);
	return nout;
}
