// SPDX-License-Identifier: MIT
/*
 * video-processing.c - grayscale, downscale, watermark and GIF-encode a clip.
 *
 * Origin: SeBS 220.video-processing (ffmpeg: watermark overlay and
 * "extract-gif" with scale=320:-1) and FunctionBench video_processing
 * (OpenCV: read frames, cvtColor to gray, write the clip). Per frame this
 * converts RGB to gray (the BT.601 fixed-point weights OpenCV's cvtColor
 * uses), scales it to half width and height with bilinear interpolation
 * (8-bit fixed-point weights), alpha-blends a generated logo (a white ring
 * with a "play" triangle, anti-aliased by 4x4 supersampling) into the
 * bottom-right corner, and finally encodes all frames as one looping
 * animated GIF (GIF89a, 256-level gray palette, 25 fps) with giflib's LZW
 * encoder into memory.
 *
 * Numbers: frame sizes are the study's clip sizes: test 8 frames 64x48,
 * small 60 frames 320x240, large 150 frames 640x480 (SeBS scales its GIF to
 * 320 pixels wide: large gives 320x240). The clip (moving shapes over a
 * gradient, plus noise) is generated from the seed in init: a warm
 * container holds the decoded video.
 *
 * Test variants (--variant): "solid:R,G,B" makes every frame that one
 * color, "ramp" makes a noise-free gradient that a test can recompute,
 * "cube" shows the colours of a sampled RGB cube as 2 x 2 blocks, so that
 * each output pixel is one colour's gray (checked against OpenCV).
 */
#include <errno.h>
#include <gif_lib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gray.h"
#include "rng.h"
#include "video-variant.h"
#include "wlexport.h"
#include "wlfile.h"
#include "workload.h"

#define VP_LOGO_ALPHA_MAX 128   /* logo opacity: 128/256 */
#define VP_GIF_DELAY_CS 4       /* 4 centiseconds a frame: 25 fps */
#define VP_SHAPES 6

/* Bilinear tap: source index and the weight of index + 1, out of 256. */
struct vp_tap {
	int pos;
	int weight;
};

struct vp_shape {
	int x0, y0, vx, vy;     /* start and speed, in pixels (per frame) */
	int radius;
	int is_disc;
	uint8_t rgb[3];
};

struct vp_state {
	enum vp_source source;
	uint8_t solid[3];
	int nframes, src_w, src_h, dst_w, dst_h;
	uint8_t *frames;        /* nframes RGB frames, src_w x src_h */
	uint8_t *out;           /* nframes processed gray frames, dst_w x dst_h */
	uint8_t *gray;          /* one src_w x src_h scratch frame per thread */
	struct vp_tap *xtaps, *ytaps;
	uint8_t *logo;          /* logo_size^2 alpha values, 0..ALPHA_MAX */
	int logo_size, logo_x, logo_y;
	struct vp_shape shapes[VP_SHAPES];
	uint8_t *gif;           /* encoded GIF, reused across requests */
	size_t gif_len, gif_cap;
	int gif_failed;
};

static int vp_parse_variant(struct wl_instance *inst, struct vp_state *st)
{
	int src = vp_variant_source(inst->params.variant, st->solid);

	if (src < 0)
		return wl_error(inst, -EINVAL, VP_BAD_VARIANT, inst->params.variant);
	st->source = (enum vp_source)src;
	return 0;
}

/* The seeded shapes: discs and squares that move and bounce. */
static void vp_make_shapes(struct vp_state *st, uint64_t seed)
{
	struct rng r;
	int i, j;

	rng_seed_stream(&r, seed, 0x5a9e);
	for (i = 0; i < VP_SHAPES; i++) {
		struct vp_shape *s = &st->shapes[i];

		s->radius = st->src_h / 16 + (int)rng_below(&r, (uint64_t)st->src_h / 6 + 1);
		s->x0 = (int)rng_below(&r, (uint64_t)st->src_w);
		s->y0 = (int)rng_below(&r, (uint64_t)st->src_h);
		s->vx = (int)rng_below(&r, 9) - 4;
		s->vy = (int)rng_below(&r, 9) - 4;
		s->is_disc = (int)rng_below(&r, 2);
		for (j = 0; j < 3; j++)
			s->rgb[j] = (uint8_t)rng_below(&r, 256);
	}
}

/* Position @p moved by @v for @f frames, bouncing off 0 and @len - 1. */
static int vp_bounce(int p, int v, int f, int len)
{
	int period = 2 * (len - 1), q;

	if (period <= 0)
		return 0;
	q = ((p + v * f) % period + period) % period;
	return q < len ? q : period - q;
}

static int vp_inside(const struct vp_shape *s, int cx, int cy, int x, int y)
{
	int dx = x - cx, dy = y - cy;

	if (s->is_disc)
		return dx * dx + dy * dy <= s->radius * s->radius;
	return abs(dx) <= s->radius && abs(dy) <= s->radius;
}

static uint8_t vp_clamp(int v)
{
	return v < 0 ? 0 : v > 255 ? 255 : (uint8_t)v;
}

/* Frame @f of the seeded clip: gradient, shapes, then noise. */
static void vp_gen_clip_frame(const struct vp_state *st, uint64_t seed, int f,
			      uint8_t *rgb)
{
	int cx[VP_SHAPES], cy[VP_SHAPES], x, y, i, c;
	struct rng r;

	rng_seed_stream(&r, seed, 0xf0000 + (uint64_t)f);
	for (i = 0; i < VP_SHAPES; i++) {
		cx[i] = vp_bounce(st->shapes[i].x0, st->shapes[i].vx, f, st->src_w);
		cy[i] = vp_bounce(st->shapes[i].y0, st->shapes[i].vy, f, st->src_h);
	}
	for (y = 0; y < st->src_h; y++) {
		for (x = 0; x < st->src_w; x++, rgb += 3) {
			rgb[0] = (uint8_t)(40 + x * 96 / st->src_w);
			rgb[1] = (uint8_t)(40 + y * 96 / st->src_h);
			rgb[2] = (uint8_t)(96 + ((x + y + 2 * f) & 63));
			for (i = 0; i < VP_SHAPES; i++)
				if (vp_inside(&st->shapes[i], cx[i], cy[i], x, y))
					memcpy(rgb, st->shapes[i].rgb, 3);
			for (c = 0; c < 3; c++)
				rgb[c] = vp_clamp(rgb[c] + (int)rng_below(&r, 17) - 8);
		}
	}
}

/* Frame @f of the "ramp" test variant (no noise, easy to recompute). */
static void vp_gen_ramp_frame(const struct vp_state *st, int f, uint8_t *rgb)
{
	int x, y;

	for (y = 0; y < st->src_h; y++) {
		for (x = 0; x < st->src_w; x++, rgb += 3) {
			rgb[0] = (uint8_t)(x * 255 / (st->src_w - 1));
			rgb[1] = (uint8_t)(y * 255 / (st->src_h - 1));
			rgb[2] = (uint8_t)((x + y + 4 * f) & 255);
		}
	}
}

/* Levels per channel of the "cube" variant: the most whose cube fits the blocks. */
static long vp_cube_levels(const struct vp_state *st)
{
	long blocks = (long)(st->src_w / 2) * (st->src_h / 2) * st->nframes, n = 2;

	while ((n + 1) * (n + 1) * (n + 1) <= blocks)
		n++;
	return n;
}

/*
 * Frame @f of the "cube" test variant: colour k of the n^3 sample (levels
 * i * 255 / (n - 1), red slowest, blue fastest) fills 2 x 2 block k, blocks
 * numbered across frames, rows and columns; halving keeps a block's colour,
 * so the output pixel is its gray. Blocks past the last colour are black.
 */
static void vp_gen_cube_frame(const struct vp_state *st, int f, uint8_t *rgb)
{
	long n = vp_cube_levels(st), bw = st->src_w / 2, bh = st->src_h / 2, k;
	int x, y;

	for (y = 0; y < st->src_h; y++) {
		for (x = 0; x < st->src_w; x++, rgb += 3) {
			k = ((long)f * bh + y / 2) * bw + x / 2;
			if (k >= n * n * n) {
				rgb[0] = rgb[1] = rgb[2] = 0;
				continue;
			}
			rgb[0] = (uint8_t)(k / (n * n) * 255 / (n - 1));
			rgb[1] = (uint8_t)(k / n % n * 255 / (n - 1));
			rgb[2] = (uint8_t)(k % n * 255 / (n - 1));
		}
	}
}

struct vp_job {
	struct wl_instance *inst;
	struct vp_state *st;
};

static void vp_gen_frames(void *arg, size_t begin, size_t end, int worker)
{
	struct vp_job *job = arg;
	struct vp_state *st = job->st;
	size_t frame_bytes = (size_t)st->src_w * st->src_h * 3, f, i;

	(void)worker;
	for (f = begin; f < end; f++) {
		uint8_t *rgb = st->frames + f * frame_bytes;

		if (st->source == VP_SRC_CLIP)
			vp_gen_clip_frame(st, job->inst->params.seed, (int)f, rgb);
		else if (st->source == VP_SRC_RAMP)
			vp_gen_ramp_frame(st, (int)f, rgb);
		else if (st->source == VP_SRC_CUBE)
			vp_gen_cube_frame(st, (int)f, rgb);
		else
			for (i = 0; i < frame_bytes; i += 3)
				memcpy(rgb + i, st->solid, 3);
	}
}

/*
 * Taps for scaling @src to @dst samples: pixel centers aligned, source
 * position (d + 0.5) * src / dst - 0.5 clamped to the edges, the fraction
 * rounded to 1/256 - all in integers.
 */
static void vp_make_taps(struct vp_tap *taps, int src, int dst)
{
	int d;

	for (d = 0; d < dst; d++) {
		long num = (long)(2 * d + 1) * src - dst, den = 2L * dst;
		long pos = num < 0 ? 0 : num / den;
		long frac = num < 0 ? 0 : num - pos * den;

		taps[d].pos = (int)pos;
		taps[d].weight = (int)((frac * 256 + dst) / den);
		if (pos >= src - 1) {
			taps[d].pos = src - 1;
			taps[d].weight = 0;
		}
	}
}

/* Subsample (@sx, @sy), in 1/8 pixel from the logo center, is in the logo. */
static int vp_logo_covers(int sx, int sy, int size)
{
	long outer = 4L * size * 7 / 8, inner = 4L * size * 5 / 8;
	long d2 = (long)sx * sx + (long)sy * sy, r = inner * 3 / 4;

	if (d2 >= inner * inner && d2 <= outer * outer)
		return 1;
	return 2 * sx >= -r && 3 * labs(sy) <= 2 * (r - sx);
}

/* The logo: coverage of 4x4 subsamples per pixel times the opacity. */
static void vp_make_logo(struct vp_state *st)
{
	int size = st->logo_size, x, y, i, j;

	for (y = 0; y < size; y++) {
		for (x = 0; x < size; x++) {
			int covered = 0;

			for (j = 0; j < 4; j++)
				for (i = 0; i < 4; i++)
					covered += vp_logo_covers(8 * x + 2 * i + 1 - 4 * size,
								  8 * y + 2 * j + 1 - 4 * size,
								  size);
			st->logo[y * size + x] =
				(uint8_t)(covered * VP_LOGO_ALPHA_MAX / 16);
		}
	}
}

static void vp_scale(const struct vp_state *st, const uint8_t *src, uint8_t *dst)
{
	int x, y, sw = st->src_w;

	for (y = 0; y < st->dst_h; y++) {
		const struct vp_tap *ty = &st->ytaps[y];
		const uint8_t *r0 = src + (size_t)ty->pos * sw;
		const uint8_t *r1 = ty->weight ? r0 + sw : r0;

		for (x = 0; x < st->dst_w; x++) {
			const struct vp_tap *tx = &st->xtaps[x];
			int x1 = tx->weight ? tx->pos + 1 : tx->pos;
			uint32_t top = r0[tx->pos] * (256u - tx->weight) + r0[x1] * tx->weight;
			uint32_t bot = r1[tx->pos] * (256u - tx->weight) + r1[x1] * tx->weight;

			*dst++ = (uint8_t)((top * (256u - ty->weight) + bot * ty->weight +
					    32768u) >> 16);
		}
	}
}

static void vp_watermark(const struct vp_state *st, uint8_t *img)
{
	int x, y, size = st->logo_size;

	for (y = 0; y < size; y++) {
		uint8_t *row = img + (size_t)(st->logo_y + y) * st->dst_w + st->logo_x;
		const uint8_t *alpha = st->logo + (size_t)y * size;

		for (x = 0; x < size; x++)
			row[x] = (uint8_t)((row[x] * (256 - alpha[x]) + 255 * alpha[x] +
					    128) >> 8);
	}
}

static void vp_process_frames(void *arg, size_t begin, size_t end, int worker)
{
	struct vp_state *st = ((struct vp_job *)arg)->st;
	size_t src_pix = (size_t)st->src_w * st->src_h;
	size_t dst_pix = (size_t)st->dst_w * st->dst_h, f;
	uint8_t *gray = st->gray + (size_t)worker * src_pix;

	for (f = begin; f < end; f++) {
		uint8_t *out = st->out + f * dst_pix;

		wl_rgb_to_gray(st->frames + f * src_pix * 3, gray, src_pix);
		vp_scale(st, gray, out);
		vp_watermark(st, out);
	}
}

static int vp_alloc(struct wl_instance *inst, struct vp_state *st)
{
	size_t src_pix = (size_t)st->src_w * st->src_h;
	size_t dst_pix = (size_t)st->dst_w * st->dst_h;
	int threads = pool_threads(inst->pool);

	st->frames = malloc(src_pix * 3 * st->nframes);
	st->out = malloc(dst_pix * st->nframes);
	st->gray = malloc(src_pix * threads);
	st->xtaps = calloc(st->dst_w, sizeof(*st->xtaps));
	st->ytaps = calloc(st->dst_h, sizeof(*st->ytaps));
	st->logo = malloc((size_t)st->logo_size * st->logo_size);
	st->gif_cap = dst_pix * st->nframes + 4096;
	st->gif = malloc(st->gif_cap);
	if (!st->frames || !st->out || !st->gray || !st->xtaps || !st->ytaps ||
	    !st->logo || !st->gif)
		return wl_error(inst, -ENOMEM, "video-processing: out of memory for %d frames",
				st->nframes);
	return 0;
}

static void vp_teardown(struct wl_instance *inst)
{
	struct vp_state *st = inst->priv;

	free(st->frames);
	free(st->out);
	free(st->gray);
	free(st->xtaps);
	free(st->ytaps);
	free(st->logo);
	free(st->gif);
}

static void vp_set_geometry(struct wl_instance *inst, struct vp_state *st)
{
	st->nframes = (int)wl_pick(inst, 8, 60, 150);
	st->src_w = (int)wl_pick(inst, 64, 320, 640);
	st->src_h = (int)wl_pick(inst, 48, 240, 480);
	st->dst_w = st->src_w / 2;
	st->dst_h = st->src_h / 2;
	st->logo_size = st->dst_h / 4 > 8 ? st->dst_h / 4 : 8;
	st->logo_x = st->dst_w - st->logo_size - (st->dst_h / 40 > 1 ? st->dst_h / 40 : 1);
	st->logo_y = st->dst_h - st->logo_size - (st->dst_h / 40 > 1 ? st->dst_h / 40 : 1);
}

static int vp_init(struct wl_instance *inst)
{
	struct vp_state *st = inst->priv;
	struct vp_job job = { inst, st };
	int err;

	err = vp_parse_variant(inst, st);
	if (!err && inst->params.input)
		err = wl_error(inst, -EINVAL,
			       "video-processing takes no --input (the clip comes from the seed): %s",
			       inst->params.input);
	if (!err) {
		vp_set_geometry(inst, st);
		err = vp_alloc(inst, st);
	}
	if (err)
		return err;
	vp_make_shapes(st, inst->params.seed);
	vp_make_taps(st->xtaps, st->src_w, st->dst_w);
	vp_make_taps(st->ytaps, st->src_h, st->dst_h);
	vp_make_logo(st);
	pool_for_dynamic(inst->pool, (size_t)st->nframes, 1, vp_gen_frames, &job);
	return 0;
}

/* giflib output callback: append to the state's growing buffer. */
static int vp_gif_write(GifFileType *gif, const GifByteType *buf, int len)
{
	struct vp_state *st = gif->UserData;

	if (st->gif_len + (size_t)len > st->gif_cap) {
		size_t cap = 2 * st->gif_cap + (size_t)len;
		uint8_t *p = realloc(st->gif, cap);

		if (!p) {
			st->gif_failed = 1;
			return 0;
		}
		st->gif = p;
		st->gif_cap = cap;
	}
	memcpy(st->gif + st->gif_len, buf, (size_t)len);
	st->gif_len += (size_t)len;
	return len;
}

/* Screen descriptor, gray palette, and the NETSCAPE2.0 loop-forever block. */
static int vp_gif_header(GifFileType *gif, const struct vp_state *st)
{
	static const GifByteType loop[3] = { 1, 0, 0 };
	ColorMapObject *map = GifMakeMapObject(256, NULL);
	int i, rc;

	if (!map)
		return GIF_ERROR;
	for (i = 0; i < 256; i++) {
		map->Colors[i].Red = (GifByteType)i;
		map->Colors[i].Green = (GifByteType)i;
		map->Colors[i].Blue = (GifByteType)i;
	}
	EGifSetGifVersion(gif, true);
	rc = EGifPutScreenDesc(gif, st->dst_w, st->dst_h, 8, 0, map);
	GifFreeMapObject(map);
	if (rc == GIF_OK)
		rc = EGifPutExtensionLeader(gif, APPLICATION_EXT_FUNC_CODE);
	if (rc == GIF_OK)
		rc = EGifPutExtensionBlock(gif, 11, "NETSCAPE2.0");
	if (rc == GIF_OK)
		rc = EGifPutExtensionBlock(gif, 3, loop);
	if (rc == GIF_OK)
		rc = EGifPutExtensionTrailer(gif);
	return rc;
}

static int vp_gif_frame(GifFileType *gif, const struct vp_state *st, int f)
{
	GraphicsControlBlock gcb = {
		.DisposalMode = DISPOSE_DO_NOT,
		.UserInputFlag = false,
		.DelayTime = VP_GIF_DELAY_CS,
		.TransparentColor = NO_TRANSPARENT_COLOR,
	};
	GifByteType ext[4];
	uint8_t *img = st->out + (size_t)f * st->dst_w * st->dst_h;
	int y, rc;

	EGifGCBToExtension(&gcb, ext);
	rc = EGifPutExtension(gif, GRAPHICS_EXT_FUNC_CODE, 4, ext);
	if (rc == GIF_OK)
		rc = EGifPutImageDesc(gif, 0, 0, st->dst_w, st->dst_h, false, NULL);
	for (y = 0; rc == GIF_OK && y < st->dst_h; y++)
		rc = EGifPutLine(gif, img + (size_t)y * st->dst_w, st->dst_w);
	return rc;
}

static int vp_encode_gif(struct wl_instance *inst, struct vp_state *st)
{
	int gif_err = 0, rc, f;
	GifFileType *gif;

	st->gif_len = 0;
	st->gif_failed = 0;
	gif = EGifOpen(st, vp_gif_write, &gif_err);
	if (!gif)
		return wl_error(inst, -ENOMEM, "video-processing: EGifOpen: %s",
				GifErrorString(gif_err));
	rc = vp_gif_header(gif, st);
	for (f = 0; rc == GIF_OK && f < st->nframes; f++)
		rc = vp_gif_frame(gif, st, f);
	if (rc != GIF_OK) {
		gif_err = gif->Error;
		EGifCloseFile(gif, NULL);
		return wl_error(inst, st->gif_failed ? -ENOMEM : -EIO,
				"video-processing: GIF encoding failed: %s",
				GifErrorString(gif_err));
	}
	if (EGifCloseFile(gif, &gif_err) != GIF_OK || st->gif_failed)
		return wl_error(inst, -EIO, "video-processing: closing the GIF failed: %s",
				GifErrorString(gif_err));
	return 0;
}

static int vp_invoke(struct wl_instance *inst, struct wl_output *out)
{
	struct vp_state *st = inst->priv;
	struct vp_job job = { inst, st };
	int err;

	pool_for_dynamic(inst->pool, (size_t)st->nframes, 1, vp_process_frames, &job);
	err = vp_encode_gif(inst, st);
	if (err)
		return err;
	wl_out_ref(out, st->gif, st->gif_len);
	if (inst->params.output)
		wl_out_file(out, inst->params.output, st->gif, st->gif_len);
	snprintf(inst->summary, sizeof(inst->summary),
		 "%d frames %dx%d -> %dx%d gray+watermark, GIF %zu bytes (%.2f bits/pixel)",
		 st->nframes, st->src_w, st->src_h, st->dst_w, st->dst_h, st->gif_len,
		 8.0 * st->gif_len / ((double)st->nframes * st->dst_w * st->dst_h));
	return 0;
}

/*
 * For the Python twin (wlexport.h): "frames", nframes RGB frames of
 * src_w x src_h bytes, frame by frame, row by row; "logo", logo_size^2
 * alpha values (0..VP_LOGO_ALPHA_MAX), row by row.
 */
static int vp_export(struct wl_instance *inst)
{
	const struct vp_state *st = inst->priv;
	int err = wl_export_write(inst, "frames", st->frames,
				  (size_t)st->src_w * st->src_h * 3 * st->nframes);

	return err ? err : wl_export_write(inst, "logo", st->logo,
					   (size_t)st->logo_size * st->logo_size);
}

const struct workload_ops wl_video_processing = {
	.version = WL_OPS_VERSION,
	.info = &wl_info_video_processing,
	.uses_threads = 1,
	.state_size = sizeof(struct vp_state),
	.init = vp_init,
	.invoke = vp_invoke,
	.teardown = vp_teardown,
	.export_inputs = vp_export,
};
