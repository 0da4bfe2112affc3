// SPDX-License-Identifier: MIT
/*
 * random-disk-io.c - FunctionBench's "random disk I/O" function: random
 * 4 KiB writes over a file, an fsync, then random 4 KiB reads (Python file
 * writes, flush and os.fsync there; pwrite, fsync and pread here).
 *
 * Sizes (file / writes = reads): test 4 MiB / 256, small 64 MiB / 4096,
 * large 256 MiB / 16384 (a quarter of the file's blocks each way).
 * init creates the file in a private scratch directory under the data
 * directory (a warm container's /tmp file) and fills every block with its
 * initial contents; invoke does the writes at seeded block offsets, one
 * fsync, and the reads at seeded block offsets. I/O is buffered (page
 * cache, no O_DIRECT), as in the original; the fsync forces the writes to
 * the device.
 *
 * Every block is self-describing: a 56-byte text header ("random-disk-io
 * seed=S init" or "... write=I"), the block number (u64 LE), then 504 u64 LE
 * words of splitmix64 from a key of (seed, kind, index). Each invoke
 * issues the same sequence, so what the reads see (this invoke's last
 * write, or the initial block) is the same every time: the digest is the
 * number of reads followed by a 64-bit FNV-1a checksum (over u64 words) of
 * every block read, in order. --output FILE
 * keeps the file (hard link, or a copy across filesystems) for checking.
 */
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "outpath.h"
#include "rng.h"
#include "scratch.h"
#include "wlclock.h"
#include "wlexport.h"
#include "wlfile.h"
#include "workload.h"

#define BLOCK 4096
#define HEADER_TEXT 56
#define FILL_CHUNK (256 * BLOCK)
#define KIND_INIT 1
#define KIND_WRITE 2

struct disk_state {
	char scratch[PATH_MAX];
	char path[PATH_MAX + 16];
	int fd;
	uint64_t nblocks, ops;
	uint8_t *buf;             /* FILL_CHUNK bytes */
	uint64_t *sums;           /* block_checksum() of each read, in order */
};

static uint64_t splitmix_next(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* The 4 KiB written as block @block: initial (@kind KIND_INIT, @index =
 * block) or by write number @index (KIND_WRITE). */
static void make_block(uint8_t *p, uint64_t seed, int kind, uint64_t index,
		       uint64_t block)
{
	uint64_t key = (seed * 0x100000001b3ULL) ^ ((uint64_t)kind << 40) ^ index, w;
	size_t i;

	memset(p, 0, HEADER_TEXT);
	snprintf((char *)p, HEADER_TEXT, "random-disk-io seed=%llu %s=%llu\n",
		 (unsigned long long)seed, kind == KIND_INIT ? "init" : "write",
		 (unsigned long long)index);
	for (i = 0; i < 8; i++)
		p[HEADER_TEXT + i] = (uint8_t)(block >> (8 * i));
	for (i = HEADER_TEXT + 8; i < BLOCK; i += 8) {
		w = splitmix_next(&key);
		memcpy(p + i, &w, 8);     /* x86-64 and arm64: little endian */
	}
}

static uint64_t block_number(const uint8_t *p)
{
	uint64_t v = 0;
	int i;

	for (i = 7; i >= 0; i--)
		v = v << 8 | p[HEADER_TEXT + i];
	return v;
}

/* FNV-1a over the block's 512 little-endian u64 words. */
static uint64_t block_checksum(const uint8_t *p)
{
	uint64_t h = 0xcbf29ce484222325ULL, w;
	size_t i;

	for (i = 0; i < BLOCK; i += 8) {
		memcpy(&w, p + i, 8);
		h = (h ^ w) * 0x100000001b3ULL;
	}
	return h;
}

/* Move all @len bytes at @off, resuming after short transfers and EINTR. */
static int pio_all(int fd, uint8_t *p, size_t len, off_t off, int writing)
{
	while (len) {
		ssize_t n = writing ? pwrite(fd, p, len, off) : pread(fd, p, len, off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return -EIO;
		p += n;
		off += n;
		len -= (size_t)n;
	}
	return 0;
}

/* Every block of the new file in its initial state, then fsync. */
static int fill_file(struct wl_instance *inst, struct disk_state *st)
{
	uint64_t b = 0, per_chunk = FILL_CHUNK / BLOCK, i;
	int err = 0;

	while (!err && b < st->nblocks) {
		uint64_t n = st->nblocks - b < per_chunk ? st->nblocks - b : per_chunk;

		for (i = 0; i < n; i++)
			make_block(st->buf + i * BLOCK, inst->params.seed, KIND_INIT, b + i, b + i);
		err = pio_all(st->fd, st->buf, n * BLOCK, (off_t)(b * BLOCK), 1);
		b += n;
	}
	if (!err && fsync(st->fd))
		err = -errno;
	if (err)
		return wl_error(inst, err, "cannot write %s: %s", st->path, strerror(-err));
	return 0;
}

static void disk_teardown(struct wl_instance *inst)
{
	struct disk_state *st = inst->priv;

	if (st->fd >= 0)
		close(st->fd);
	if (st->scratch[0])
		wl_scratch_remove(st->scratch);
	free(st->buf);
	free(st->sums);
}

static int disk_open(struct wl_instance *inst, struct disk_state *st)
{
	int err = wl_scratch_dir(inst, "random-disk-io", st->scratch, sizeof(st->scratch));

	if (err)
		return err;
	snprintf(st->path, sizeof(st->path), "%s/file", st->scratch);
	st->fd = open(st->path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (st->fd < 0)
		return wl_error(inst, -errno, "cannot create %s: %s", st->path, strerror(errno));
	return fill_file(inst, st);
}

static int disk_init(struct wl_instance *inst)
{
	struct disk_state *st = inst->priv;
	int err;

	st->fd = -1;              /* before any return: teardown closes fd >= 0 */
	if (inst->params.input)
		return wl_error(inst, -EINVAL, "random-disk-io takes no --input");
	st->nblocks = (uint64_t)wl_pick(inst, 4 << 20, 64 << 20, 256 << 20) / BLOCK;
	st->ops = st->nblocks / 4;
	st->buf = malloc(FILL_CHUNK);
	st->sums = malloc(st->ops * sizeof(*st->sums));
	if (!st->buf || !st->sums)
		err = wl_error(inst, -ENOMEM, "out of memory");
	else
		err = disk_open(inst, st);
	return err;
}

/* Writes at seeded blocks, fsync, reads at seeded blocks; times in @t. */
static int disk_io(struct wl_instance *inst, struct disk_state *st, double t[3])
{
	uint64_t i, b;
	struct rng r;
	double t0 = wl_now_s();
	int err = 0;

	rng_seed_stream(&r, inst->params.seed, 0xd15c);
	for (i = 0; i < st->ops && !err; i++) {
		b = rng_below(&r, st->nblocks);
		make_block(st->buf, inst->params.seed, KIND_WRITE, i, b);
		err = pio_all(st->fd, st->buf, BLOCK, (off_t)(b * BLOCK), 1);
	}
	t[0] = wl_now_s();
	if (!err && fsync(st->fd))
		err = -errno;
	t[1] = wl_now_s();
	for (i = 0; i < st->ops && !err; i++) {
		b = rng_below(&r, st->nblocks);
		err = pio_all(st->fd, st->buf, BLOCK, (off_t)(b * BLOCK), 0);
		if (!err && block_number(st->buf) != b)
			return wl_error(inst, -EIO, "%s: block %llu holds block %llu's data",
					st->path, (unsigned long long)b,
					(unsigned long long)block_number(st->buf));
		st->sums[i] = block_checksum(st->buf);
	}
	t[2] = wl_now_s();
	t[2] -= t[1];
	t[1] -= t[0];
	t[0] -= t0;
	if (err)
		return wl_error(inst, err, "I/O on %s failed: %s", st->path, strerror(-err));
	return 0;
}

/*
 * --output: a hard link to the file (same filesystem) renamed over a regular
 * file, or else a copy; written into anything that is not a regular file.

 * cvmfn calls it after the end time (wl_out_file_with()).
 */
static int keep_file(struct wl_instance *inst, const char *out, void *arg)
{
	struct disk_state *st = arg;
	struct wl_out_target t;
	char tmp[PATH_MAX];
	void *data;
	size_t len;
	int err = wl_out_target(inst, out, &t);

	if (err)
		return err;
	if ((size_t)snprintf(tmp, sizeof(tmp), "%s.tmp%ld", t.path, (long)getpid()) >= sizeof(tmp))
		return wl_error(inst, -ENAMETOOLONG, "path too long: %s", out);
	if (!t.in_place) {
		unlink(tmp);
		if (!link(st->path, tmp)) {
			if (!rename(tmp, t.path))
				return 0;
			err = -errno;
			unlink(tmp);
			return wl_error(inst, err, "cannot write %s: %s", out, strerror(-err));
		}
		if (errno != EXDEV)
			return wl_error(inst, -errno, "cannot write %s: %s", out, strerror(errno));
	}
	err = wl_read_file(inst, st->path, &data, &len);
	if (err)
		return err;
	err = wl_write_file_atomic(inst, out, data, len);
	free(data);
	return err;
}

static int disk_invoke(struct wl_instance *inst, struct wl_output *out)
{
	struct disk_state *st = inst->priv;
	double t[3] = { 0 };
	uint64_t i;
	int err = disk_io(inst, st, t);

	if (err)
		return err;
	wl_out_u64(out, st->ops);
	for (i = 0; i < st->ops; i++)
		wl_out_u64(out, st->sums[i]);
	snprintf(inst->summary, sizeof(inst->summary),
		 "%llu x 4 KiB random writes %.1f ms, fsync %.1f ms, %llu reads %.1f ms, "
		 "file %llu MiB",
		 (unsigned long long)st->ops, t[0] * 1e3, t[1] * 1e3,
		 (unsigned long long)st->ops, t[2] * 1e3,
		 (unsigned long long)(st->nblocks * BLOCK >> 20));
	if (inst->params.output)
		wl_out_file_with(out, inst->params.output, keep_file, st);
	return 0;
}

/* "blocks": the written block numbers, then the read ones (disk_io()'s draws). */
static int export_blocks(struct wl_instance *inst, struct disk_state *st)
{
	uint64_t *b = malloc(2 * st->ops * sizeof(*b)), i;
	struct rng r;
	int err;

	if (!b)
		return wl_error(inst, -ENOMEM, "random-disk-io: out of memory for the export");
	rng_seed_stream(&r, inst->params.seed, 0xd15c);
	for (i = 0; i < 2 * st->ops; i++)
		b[i] = htole64(rng_below(&r, st->nblocks));
	err = wl_export_write(inst, "blocks", b, 2 * st->ops * sizeof(*b));
	free(b);
	return err;
}

/* "writes": the blocks written by one invoke, in order, 4 KiB each. */
static int export_writes(struct wl_instance *inst, struct disk_state *st)
{
	uint8_t *w = malloc(st->ops * BLOCK);
	struct rng r;
	uint64_t i;
	int err;

	if (!w)
		return wl_error(inst, -ENOMEM, "random-disk-io: out of memory for the export");
	rng_seed_stream(&r, inst->params.seed, 0xd15c);
	for (i = 0; i < st->ops; i++)
		make_block(w + i * BLOCK, inst->params.seed, KIND_WRITE, i,
			   rng_below(&r, st->nblocks));
	err = wl_export_write(inst, "writes", w, st->ops * BLOCK);
	free(w);
	return err;
}

/*
 * For the Python twin: "file", the file as init leaves it (read back from
 * the scratch file), "writes" and "blocks" (above). Byte order: little
 * endian, as the blocks' own words.
 */
static int disk_export(struct wl_instance *inst)
{
	struct disk_state *st = inst->priv;
	void *data;
	size_t len;
	int err = wl_read_file(inst, st->path, &data, &len);

	if (err)
		return err;
	err = wl_export_write(inst, "file", data, len);
	free(data);
	return err ?: export_writes(inst, st) ?: export_blocks(inst, st);
}

const struct workload_ops wl_random_disk_io = {
	.version = WL_OPS_VERSION,
	.info = &wl_info_random_disk_io,
	.state_size = sizeof(struct disk_state),
	.init = disk_init,
	.invoke = disk_invoke,
	.teardown = disk_teardown,
	.export_inputs = disk_export,
};
