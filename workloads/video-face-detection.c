// SPDX-License-Identifier: MIT
/*
 * video-face-detection.c - Viola-Jones face detection on every frame of a
 * clip, with OpenCV's trained frontal-face Haar cascade.
 *
 * Origin: FunctionBench video face detection (OpenCV: read the video,
 * cvtColor to gray, CascadeClassifier.detectMultiScale on each frame).
 * This is cv2.CascadeClassifier.detectMultiScale(gray) with its defaults
 * (scale factor 1.1, minNeighbors 3), done as OpenCV 4 does it: an image
 * pyramid (each level resized with OpenCV's bit-exact bilinear
 * INTER_LINEAR_EXACT), per level an integral and a squared integral image,
 * every 24x24 window at a step of 2 pixels (1 from scale 2 up, and the next
 * window skipped after a stage-0 rejection) classified by the cascade
 * (haar-cascade.c), then groupRectangles (eps 0.2).
 *
 * Numbers: the cascade is Debian's opencv-data
 * /usr/share/opencv4/haarcascades/haarcascade_frontalface_default.xml
 * (--input FILE picks another one), parsed in init. Clip sizes: test 2
 * frames 160x120, small 10 frames 320x240, large 30 frames 640x480. The
 * clip is generated from the seed in init: a gradient with moving shapes
 * and two moving drawn faces (skin-tone oval, hair, brows, eyes, nose,
 * mouth), blurred and with noise.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gray.h"
#include "haar-cascade.h"
#include "rng.h"
#include "wlexport.h"
#include "wlfile.h"
#include "workload.h"

#define FD_DEFAULT_CASCADE \
	"/usr/share/opencv4/haarcascades/haarcascade_frontalface_default.xml"
#define FD_SCALE_FACTOR 1.1
#define FD_MIN_NEIGHBORS 3
#define FD_GROUP_EPS 0.2
#define FD_MAX_SCALES 128
#define FD_FACES 2
#define FD_SHAPES 3

/* OpenCV's fixed-point bilinear tap: source index and weights out of 256. */
struct fd_tap {
	int ofs, c0, c1;
};

/* Something that moves through the clip: a face or a plain shape. */
struct fd_mover {
	int x0, y0, vx, vy, size;
	uint8_t rgb[3];
};

struct fd_scratch {
	uint8_t *img;           /* one pyramid level */
	uint8_t *line;          /* one RGB row or column, for the blur */
	uint16_t *hrow0, *hrow1;
	int32_t *sum;
	uint32_t *sqsum;
	struct fd_tap *xtaps, *ytaps;
};

struct fd_result {
	uint64_t windows;
	struct haar_box *raw, *faces;
	size_t nraw, cap;
	long nfaces;
};

struct fd_state {
	struct haar_cascade cascade;
	const char *cascade_path;
	int nframes, w, h, nscales, threads;
	float scales[FD_MAX_SCALES];
	uint8_t *frames;        /* nframes RGB frames */
	uint8_t *gray;          /* nframes gray frames, what the detector sees */
	struct fd_scratch *scratch;     /* one per thread */
	struct fd_result *results;      /* one per frame */
	struct fd_mover faces[FD_FACES], shapes[FD_SHAPES];
	uint64_t seed;
};

/* ---- the clip -------------------------------------------------------- */

static uint8_t fd_clamp(int v)
{
	return v < 0 ? 0 : v > 255 ? 255 : (uint8_t)v;
}

static void fd_make_movers(struct fd_state *st)
{
	struct rng r;
	int i, c;

	rng_seed_stream(&r, st->seed, 0xfacede7ec7ULL);
	for (i = 0; i < FD_FACES + FD_SHAPES; i++) {
		struct fd_mover *m = i < FD_FACES ? &st->faces[i] : &st->shapes[i - FD_FACES];

		m->size = st->h / 6 + (int)rng_below(&r, (uint64_t)st->h / 4);
		m->x0 = (int)rng_below(&r, (uint64_t)st->w);
		m->y0 = (int)rng_below(&r, (uint64_t)st->h);
		m->vx = (int)rng_below(&r, 7) - 3;
		m->vy = (int)rng_below(&r, 5) - 2;
		for (c = 0; c < 3; c++)
			m->rgb[c] = (uint8_t)rng_below(&r, 256);
		if (i < FD_FACES) {     /* skin tone around (205, 165, 135) */
			m->rgb[0] = (uint8_t)(190 + m->rgb[0] % 31);
			m->rgb[1] = (uint8_t)(150 + m->rgb[1] % 31);
			m->rgb[2] = (uint8_t)(120 + m->rgb[2] % 31);
		}
	}
}

/* Center of @m in frame @f: moves and bounces inside [lo, hi]. */
static int fd_track(int p0, int v, int f, int lo, int hi)
{
	int len = hi - lo, period = 2 * len, q;

	if (len <= 0)
		return lo;
	q = ((p0 + v * f) % period + period) % period;
	return lo + (q < len ? q : period - q);
}

static int fd_in_ellipse(double u, double v, double x0, double y0, double rx, double ry)
{
	double a = (u - x0) / rx, b = (v - y0) / ry;

	return a * a + b * b <= 1.0;
}

static void fd_paint(uint8_t *px, int r, int g, int b)
{
	px[0] = fd_clamp(r);
	px[1] = fd_clamp(g);
	px[2] = fd_clamp(b);
}

/* Paint face pixel (@u, @v), in face widths from the face center. */
static void fd_face_pixel(const uint8_t *skin, double u, double v, uint8_t *px)
{
	int side;

	if (fd_in_ellipse(u, v, 0, -0.05, 0.48, 0.62))
		fd_paint(px, skin[0], skin[1], skin[2]);
	if (fd_in_ellipse(u, v, 0, -0.55, 0.5, 0.25) && v < -0.42)
		fd_paint(px, 45, 35, 30);                         /* hair */
	for (side = -1; side <= 1; side += 2) {
		if (fd_in_ellipse(u, v, side * 0.2, -0.22, 0.14, 0.03))
			fd_paint(px, 70, 55, 45);                 /* brow */
		if (fd_in_ellipse(u, v, side * 0.2, -0.1, 0.11, 0.055))
			fd_paint(px, 235, 235, 235);              /* eye */
		if (fd_in_ellipse(u, v, side * 0.2, -0.1, 0.05, 0.05))
			fd_paint(px, 35, 30, 25);                 /* iris */
	}
	if (fd_in_ellipse(u, v, 0, 0.12, 0.07, 0.12))
		fd_paint(px, skin[0] + 25, skin[1] + 25, skin[2] + 25);   /* nose */
	if (fd_in_ellipse(u, v, 0, 0.22, 0.1, 0.03))
		fd_paint(px, skin[0] - 60, skin[1] - 60, skin[2] - 60);   /* nostrils */
	if (fd_in_ellipse(u, v, 0, 0.37, 0.18, 0.045))
		fd_paint(px, 115, 55, 55);                        /* mouth */
}

static void fd_draw_face(const struct fd_state *st, const struct fd_mover *m, int f,
			 uint8_t *rgb)
{
	int s = m->size, half = s * 7 / 10 + 1;
	int cx = fd_track(m->x0, m->vx, f, half, st->w - 1 - half);
	int cy = fd_track(m->y0, m->vy, f, half, st->h - 1 - half);
	int x, y;

	for (y = cy - half; y <= cy + half; y++)
		for (x = cx - half; x <= cx + half; x++)
			if (x >= 0 && y >= 0 && x < st->w && y < st->h)
				fd_face_pixel(m->rgb, (double)(x - cx) / s, (double)(y - cy) / s,
					      rgb + 3 * ((size_t)y * st->w + x));
}

static void fd_draw_background(const struct fd_state *st, int f, uint8_t *rgb)
{
	int x, y, i;

	for (y = 0; y < st->h; y++)
		for (x = 0; x < st->w; x++, rgb += 3) {
			rgb[0] = (uint8_t)(70 + x * 70 / st->w);
			rgb[1] = (uint8_t)(80 + ((y + 2 * f) % 48));
			rgb[2] = (uint8_t)(90 + y * 50 / st->h);
			for (i = 0; i < FD_SHAPES; i++) {
				const struct fd_mover *m = &st->shapes[i];
				int cx = fd_track(m->x0, m->vx, f, 0, st->w - 1);
				int cy = fd_track(m->y0, m->vy, f, 0, st->h - 1);

				if (abs(x - cx) <= m->size / 2 && abs(y - cy) <= m->size / 3)
					memcpy(rgb, m->rgb, 3);
			}
		}
}

/* One pass of a 3-tap box filter along rows (@step 3) or columns. */
static void fd_box3(uint8_t *rgb, uint8_t *line, int n, size_t step, int lines,
		    size_t line_step)
{
	int l, i, c;

	for (l = 0; l < lines; l++) {
		uint8_t *p = rgb + (size_t)l * line_step;

		for (i = 0; i < n; i++)
			memcpy(line + 3 * i, p + (size_t)i * step, 3);
		for (i = 0; i < n; i++)
			for (c = 0; c < 3; c++) {
				int a = line[3 * (i > 0 ? i - 1 : 0) + c];
				int b = line[3 * i + c];
				int d = line[3 * (i < n - 1 ? i + 1 : i) + c];

				p[(size_t)i * step + c] = (uint8_t)((a + b + d + 1) / 3);
			}
	}
}

static void fd_gen_frame(const struct fd_state *st, int f, uint8_t *rgb, uint8_t *line)
{
	size_t npix = (size_t)st->w * st->h, i;
	struct rng r;
	int k;

	fd_draw_background(st, f, rgb);
	for (k = 0; k < FD_FACES; k++)
		fd_draw_face(st, &st->faces[k], f, rgb);
	for (k = 0; k < 2; k++) {
		fd_box3(rgb, line, st->w, 3, st->h, 3 * (size_t)st->w);
		fd_box3(rgb, line, st->h, 3 * (size_t)st->w, st->w, 3);
	}
	rng_seed_stream(&r, st->seed, 0xf7a3e000ULL + (uint64_t)f);
	for (i = 0; i < 3 * npix; i++)
		rgb[i] = fd_clamp(rgb[i] + (int)rng_below(&r, 13) - 6);
}

static void fd_gen_frames(void *arg, size_t begin, size_t end, int worker)
{
	struct fd_state *st = arg;
	size_t frame_bytes = (size_t)st->w * st->h * 3, f;

	for (f = begin; f < end; f++)
		fd_gen_frame(st, (int)f, st->frames + f * frame_bytes,
			     st->scratch[worker].line);
}

/* ---- detection ------------------------------------------------------- */

/*
 * OpenCV's INTER_LINEAR_EXACT taps (resize_bitExact, interpolationLinear):
 * source position (d + 0.5) / inv_scale - 0.5 in double, weights rounded to
 * 1/256, clamped to the edge pixels.
 */
static void fd_resize_taps(struct fd_tap *taps, int src, int dst)
{
	double scale = 1.0 / ((double)dst / src);
	int d;

	for (d = 0; d < dst; d++) {
		double fval = scale * ((double)d + 0.5) - 0.5;
		int ival = (int)floor(fval);

		taps[d] = (struct fd_tap){ 0, 256, 0 };
		if (ival >= 0 && ival < src - 1) {
			taps[d].ofs = ival;
			taps[d].c1 = (int)lrint((fval - ival) * 256.0);
			taps[d].c0 = 256 - taps[d].c1;
		} else if (ival >= 0) {
			taps[d].ofs = src - 1;
		}
	}
}

static void fd_resize_row(const uint8_t *src, const struct fd_tap *xt, int dw,
			  uint16_t *out)
{
	int x;

	for (x = 0; x < dw; x++)
		out[x] = (uint16_t)(src[xt[x].ofs] * xt[x].c0 +
				    (xt[x].c1 ? src[xt[x].ofs + 1] * xt[x].c1 : 0));
}

/* Resize the @sw-wide gray frame to @dw x @dh into sc->img, bit-exact. */
static void fd_resize(struct fd_scratch *sc, const uint8_t *src, int sw, int sh,
		      int dw, int dh)
{
	int x, y;

	fd_resize_taps(sc->xtaps, sw, dw);
	fd_resize_taps(sc->ytaps, sh, dh);
	for (y = 0; y < dh; y++) {
		const struct fd_tap *ty = &sc->ytaps[y];
		uint8_t *out = sc->img + (size_t)y * dw;

		fd_resize_row(src + (size_t)ty->ofs * sw, sc->xtaps, dw, sc->hrow0);
		if (ty->c1)
			fd_resize_row(src + (size_t)(ty->ofs + 1) * sw, sc->xtaps, dw,
				      sc->hrow1);
		for (x = 0; x < dw; x++) {
			uint32_t v = (uint32_t)sc->hrow0[x] * (uint32_t)ty->c0 +
				     (ty->c1 ? (uint32_t)sc->hrow1[x] * (uint32_t)ty->c1 : 0);

			out[x] = (uint8_t)((v + 32768) >> 16);
		}
	}
}

/* Integral and squared integral of @img (@w x @h), rows @stride apart. */
static void fd_integral(const uint8_t *img, int w, int h, int stride, int32_t *sum,
			uint32_t *sq)
{
	int x, y;

	memset(sum, 0, (size_t)(w + 1) * sizeof(*sum));
	memset(sq, 0, (size_t)(w + 1) * sizeof(*sq));
	for (y = 0; y < h; y++) {
		int32_t *srow = sum + (size_t)(y + 1) * stride;
		uint32_t *qrow = sq + (size_t)(y + 1) * stride;
		int32_t run = 0;
		uint32_t runsq = 0;

		srow[0] = 0;
		qrow[0] = 0;
		for (x = 0; x < w; x++) {
			uint32_t p = img[(size_t)y * w + x];

			run += (int32_t)p;
			runsq += p * p;
			srow[x + 1] = srow[x + 1 - stride] + run;
			qrow[x + 1] = qrow[x + 1 - stride] + runsq;
		}
	}
}

static int fd_add_box(struct fd_result *res, int x, int y, int w, int h)
{
	if (res->nraw == res->cap) {
		size_t cap = res->cap ? 2 * res->cap : 256;
		struct haar_box *p = realloc(res->raw, cap * sizeof(*p));

		if (!p)
			return -ENOMEM;
		res->raw = p;
		res->cap = cap;
	}
	res->raw[res->nraw++] = (struct haar_box){ x, y, w, h, 1 };
	return 0;
}

/* Slide the window over one pyramid level (OpenCV's CascadeClassifierInvoker). */
static int fd_scan_level(const struct fd_state *st, const struct fd_scratch *sc,
			 int lw, int lh, float scale, struct fd_result *res)
{
	const struct haar_cascade *c = &st->cascade;
	int step = scale >= 2.0f ? 1 : 2, stride = st->w + 1, x, y;
	int win_w = (int)lrintf((float)c->win_w * scale);
	int win_h = (int)lrintf((float)c->win_h * scale);

	for (y = 0; y + c->win_h < lh + 1; y += step) {
		for (x = 0; x + c->win_w < lw + 1; x += step) {
			size_t at = (size_t)y * stride + x;
			int result = haar_cascade_run(c, sc->sum + at, sc->sqsum + at);

			res->windows++;
			if (result > 0 && fd_add_box(res, (int)lrintf((float)x * scale),
						     (int)lrintf((float)y * scale),
						     win_w, win_h))
				return -ENOMEM;
			if (result == 0)
				x += step;
		}
	}
	return 0;
}

/* cv::Rect intersection with the frame (OpenCV's clipObjects). */
static long fd_clip(const struct fd_state *st, struct haar_box *boxes, long n)
{
	long i, kept = 0;

	for (i = 0; i < n; i++) {
		struct haar_box b = boxes[i];
		int x1 = b.x > 0 ? b.x : 0, y1 = b.y > 0 ? b.y : 0;
		int x2 = b.x + b.w < st->w ? b.x + b.w : st->w;
		int y2 = b.y + b.h < st->h ? b.y + b.h : st->h;

		if (x2 > x1 && y2 > y1)
			boxes[kept++] = (struct haar_box){ x1, y1, x2 - x1, y2 - y1,
							   b.neighbors };
	}
	return kept;
}

static int fd_detect_frame(const struct fd_state *st, struct fd_scratch *sc,
			   const uint8_t *gray, struct fd_result *res)
{
	int i, err = 0;
	long n;

	res->windows = 0;
	res->nraw = 0;
	for (i = 0; i < st->nscales && !err; i++) {
		float scale = st->scales[i];
		int lw = (int)lrintf((float)st->w / scale);
		int lh = (int)lrintf((float)st->h / scale);

		if (lw == st->w && lh == st->h)
			memcpy(sc->img, gray, (size_t)lw * lh);
		else
			fd_resize(sc, gray, st->w, st->h, lw, lh);
		fd_integral(sc->img, lw, lh, st->w + 1, sc->sum, sc->sqsum);
		err = fd_scan_level(st, sc, lw, lh, scale, res);
	}
	free(res->faces);
	res->faces = err ? NULL : malloc((res->nraw + 1) * sizeof(*res->faces));
	if (!res->faces)
		return -ENOMEM;
	n = haar_group_boxes(res->raw, res->nraw, FD_MIN_NEIGHBORS, FD_GROUP_EPS,
			     res->faces);
	if (n < 0)
		return (int)n;
	res->nfaces = fd_clip(st, res->faces, n);
	return 0;
}

struct fd_job {
	struct fd_state *st;
	int err;
};

static void fd_process_frames(void *arg, size_t begin, size_t end, int worker)
{
	struct fd_job *job = arg;
	struct fd_state *st = job->st;
	size_t npix = (size_t)st->w * st->h, f;

	for (f = begin; f < end; f++) {
		uint8_t *gray = st->gray + f * npix;

		wl_rgb_to_gray(st->frames + 3 * f * npix, gray, npix);
		if (fd_detect_frame(st, &st->scratch[worker], gray, &st->results[f]))
			__atomic_store_n(&job->err, -ENOMEM, __ATOMIC_RELAXED);
	}
}

/* ---- life cycle ------------------------------------------------------ */

/* The pyramid: factors 1, 1.1, 1.21, ... while the window fits the frame. */
static void fd_make_scales(struct fd_state *st)
{
	double factor;

	st->nscales = 0;
	for (factor = 1.0; st->nscales < FD_MAX_SCALES; factor *= FD_SCALE_FACTOR) {
		long ww = lrint(st->cascade.win_w * factor);
		long wh = lrint(st->cascade.win_h * factor);

		if (ww > st->w || wh > st->h)
			break;
		st->scales[st->nscales++] = (float)factor;
	}
}

static int fd_alloc(struct wl_instance *inst, struct fd_state *st)
{
	size_t npix = (size_t)st->w * st->h, ipix = (size_t)(st->w + 1) * (st->h + 1);
	int t, longest = st->w > st->h ? st->w : st->h;

	st->threads = pool_threads(inst->pool);
	st->frames = malloc(3 * npix * st->nframes);
	st->gray = malloc(npix * st->nframes);
	st->results = calloc((size_t)st->nframes, sizeof(*st->results));
	st->scratch = calloc((size_t)st->threads, sizeof(*st->scratch));
	if (!st->frames || !st->gray || !st->results || !st->scratch)
		return wl_error(inst, -ENOMEM, "video-face-detection: out of memory");
	for (t = 0; t < st->threads; t++) {
		struct fd_scratch *sc = &st->scratch[t];

		sc->img = malloc(npix);
		sc->line = malloc(3 * (size_t)longest);
		sc->hrow0 = malloc((size_t)st->w * sizeof(*sc->hrow0));
		sc->hrow1 = malloc((size_t)st->w * sizeof(*sc->hrow1));
		sc->sum = malloc(ipix * sizeof(*sc->sum));
		sc->sqsum = malloc(ipix * sizeof(*sc->sqsum));
		sc->xtaps = malloc((size_t)st->w * sizeof(*sc->xtaps));
		sc->ytaps = malloc((size_t)st->h * sizeof(*sc->ytaps));
		if (!sc->img || !sc->line || !sc->hrow0 || !sc->hrow1 || !sc->sum ||
		    !sc->sqsum || !sc->xtaps || !sc->ytaps)
			return wl_error(inst, -ENOMEM, "video-face-detection: out of memory");
	}
	return 0;
}

static void fd_teardown(struct wl_instance *inst)
{
	struct fd_state *st = inst->priv;
	int i;

	for (i = 0; st->scratch && i < st->threads; i++) {
		struct fd_scratch *sc = &st->scratch[i];

		free(sc->img);
		free(sc->line);
		free(sc->hrow0);
		free(sc->hrow1);
		free(sc->sum);
		free(sc->sqsum);
		free(sc->xtaps);
		free(sc->ytaps);
	}
	for (i = 0; st->results && i < st->nframes; i++) {
		free(st->results[i].raw);
		free(st->results[i].faces);
	}
	free(st->scratch);
	free(st->results);
	free(st->frames);
	free(st->gray);
	haar_cascade_free(&st->cascade);
}

static int fd_load_cascade(struct wl_instance *inst, struct fd_state *st)
{
	const char *path = inst->params.input ? inst->params.input : FD_DEFAULT_CASCADE;
	int err;

	st->cascade_path = path;
	if (access(path, R_OK))
		return wl_error(inst, -ENOENT,
				"cascade file %s is missing or unreadable: install Debian package opencv-data (apt-get install opencv-data), or pass another OpenCV Haar cascade XML with --input FILE",
				path);
	err = haar_cascade_load(inst, &st->cascade, path);
	if (!err && haar_cascade_compile(&st->cascade, st->w + 1))
		err = wl_error(inst, -ENOMEM, "video-face-detection: out of memory");
	return err;
}

static int fd_init(struct wl_instance *inst)
{
	struct fd_state *st = inst->priv;
	int err;

	st->seed = inst->params.seed;
	st->nframes = (int)wl_pick(inst, 2, 10, 30);
	st->w = (int)wl_pick(inst, 160, 320, 640);
	st->h = (int)wl_pick(inst, 120, 240, 480);
	err = fd_load_cascade(inst, st);
	if (!err)
		err = fd_alloc(inst, st);
	if (err)
		return err;
	fd_make_scales(st);
	fd_make_movers(st);
	pool_for_dynamic(inst->pool, (size_t)st->nframes, 1, fd_gen_frames, st);
	return 0;
}

static void fd_output_frame(struct wl_output *out, int f, const struct fd_result *res)
{
	size_t i;
	long k;

	wl_out_u64(out, (uint64_t)f);
	wl_out_u64(out, res->windows);
	wl_out_u64(out, res->nraw);
	for (i = 0; i < res->nraw; i++) {
		wl_out_u64(out, (uint64_t)res->raw[i].x);
		wl_out_u64(out, (uint64_t)res->raw[i].y);
		wl_out_u64(out, (uint64_t)res->raw[i].w);
	}
	wl_out_u64(out, (uint64_t)res->nfaces);
	for (k = 0; k < res->nfaces; k++) {
		const struct haar_box *b = &res->faces[k];

		wl_out_u64(out, (uint64_t)b->x);
		wl_out_u64(out, (uint64_t)b->y);
		wl_out_u64(out, (uint64_t)b->w);
		wl_out_u64(out, (uint64_t)b->h);
		wl_out_u64(out, (uint64_t)b->neighbors);
	}
}

/*
 * --output: every RGB input frame as a binary PPM, one after the other (a
 * netpbm image sequence), each with its raw windows and faces as comments:
 * "# raw X Y W H" and "# face X Y W H NEIGHBORS". The frames are the
 * detector's input before the gray conversion, so a reference can redo
 * that step too. cvmfn calls it after the end time (wl_out_file_with()).
 */
static int fd_write_output(struct wl_instance *inst, const char *path, void *arg)
{
	const struct fd_state *st = arg;
	size_t npix = (size_t)st->w * st->h, len = 0, i;
	char *buf = NULL;
	FILE *m = open_memstream(&buf, &len);
	int f, err;
	long k;

	if (!m)
		return wl_error(inst, -ENOMEM, "video-face-detection: out of memory");
	for (f = 0; f < st->nframes; f++) {
		const struct fd_result *res = &st->results[f];

		fprintf(m, "P6\n# video-face-detection frame %d of %d windows %llu\n",
			f, st->nframes, (unsigned long long)res->windows);
		for (i = 0; i < res->nraw; i++)
			fprintf(m, "# raw %d %d %d %d\n", res->raw[i].x, res->raw[i].y,
				res->raw[i].w, res->raw[i].h);
		for (k = 0; k < res->nfaces; k++)
			fprintf(m, "# face %d %d %d %d %d\n", res->faces[k].x,
				res->faces[k].y, res->faces[k].w, res->faces[k].h,
				res->faces[k].neighbors);
		fprintf(m, "%d %d\n255\n", st->w, st->h);
		fwrite(st->frames + 3 * (size_t)f * npix, 1, 3 * npix, m);
	}
	if (fclose(m)) {
		free(buf);
		return wl_error(inst, -ENOMEM, "video-face-detection: out of memory");
	}
	err = wl_write_file_atomic(inst, path, buf, len);
	free(buf);
	return err;
}

static int fd_invoke(struct wl_instance *inst, struct wl_output *out)
{
	struct fd_state *st = inst->priv;
	struct fd_job job = { st, 0 };
	uint64_t windows = 0, raw = 0, faces = 0;
	int f;

	pool_for_dynamic(inst->pool, (size_t)st->nframes, 1, fd_process_frames, &job);
	if (job.err)
		return wl_error(inst, job.err, "video-face-detection: out of memory");
	for (f = 0; f < st->nframes; f++) {
		fd_output_frame(out, f, &st->results[f]);
		windows += st->results[f].windows;
		raw += st->results[f].nraw;
		faces += (uint64_t)st->results[f].nfaces;
	}
	if (inst->params.output)
		wl_out_file_with(out, inst->params.output, fd_write_output, st);
	snprintf(inst->summary, sizeof(inst->summary),
		 "%d frames %dx%d, %d scales, %llu windows evaluated, %llu raw hits, %llu faces (%d stages, %d weak classifiers)",
		 st->nframes, st->w, st->h, st->nscales, (unsigned long long)windows,
		 (unsigned long long)raw, (unsigned long long)faces,
		 st->cascade.nstages, st->cascade.ntrees);
	return 0;
}

/* For the Python twin (wlexport.h): "frames", nframes RGB frames of w x h. */
static int fd_export(struct wl_instance *inst)
{
	const struct fd_state *st = inst->priv;

	return wl_export_write(inst, "frames", st->frames,
			       (size_t)st->w * st->h * 3 * st->nframes);
}

const struct workload_ops wl_video_face_detection = {
	.version = WL_OPS_VERSION,
	.info = &wl_info_video_face_detection,
	.uses_threads = 1,
	.state_size = sizeof(struct fd_state),
	.init = fd_init,
	.invoke = fd_invoke,
	.teardown = fd_teardown,
	.export_inputs = fd_export,
};
