// SPDX-License-Identifier: MIT
/*
 * compression.c - SeBS 311 "compression": pack a directory of files into
 * a compressed archive (shutil.make_archive there; a ustar stream written
 * here, deflated with zlib's gzip wrapper, i.e. a .tar.gz).
 *
 * Input: --input DIR, or a tree generated from the seed at init in a
 * scratch directory under the data directory (SeBS downloads its input
 * files to /tmp the same way): English-like text files (wl_gen_text),
 * incompressible random blobs and compressible binary records, in a few
 * subdirectories plus an empty one. Sizes (total bytes / files): test
 * ~100 KiB / 8, small ~4 MiB / 32, large ~32 MiB / 64.
 *
 * invoke reads the tree (sorted by name, byte order, depth first) and
 * writes: for each directory and regular file a ustar header (mode = the
 * permission bits, uid/gid 0 "root", mtime fixed at 2020-01-01 00:00 UTC,
 * names over 100 bytes split into the ustar prefix, longer ones an error),
 * the contents padded to 512 bytes, two zero blocks, padding to a 10 KiB
 * record; deflated at level 6 with a gzip header without a timestamp. The
 * archive is therefore deterministic and is the digest; --output FILE
 * writes it, and `tar -xzf FILE` gives back the tree.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#include "rng.h"
#include "scratch.h"
#include "wlclock.h"
#include "wlexport.h"
#include "wlfile.h"
#include "workload.h"

#define TAR_BLOCK 512
#define TAR_RECORD (20 * TAR_BLOCK)
#define TAR_MTIME 1577836800L     /* 2020-01-01 00:00:00 UTC */
#define READ_CHUNK (64 * 1024)
#define OUT_SLACK (64 * 1024)

struct compression_state {
	char scratch[PATH_MAX];   /* generated tree, or "" with --input */
	const char *root;
	uint8_t *out;             /* the archive of the last invoke */
	size_t out_len, out_cap;
	char *chunk;
};

/* One archive being written: the deflate stream and the tree walk counts. */
struct archiver {
	struct wl_instance *inst;
	struct compression_state *st;
	z_stream zs;
	size_t files, dirs;
	uint64_t in_bytes, tar_bytes;
};

static int out_reserve(struct archiver *ar)
{
	struct compression_state *st = ar->st;

	if (st->out_cap - st->out_len < OUT_SLACK) {
		size_t cap = st->out_cap ? 2 * st->out_cap : 1 << 20;
		uint8_t *p = realloc(st->out, cap);

		if (!p)
			return wl_error(ar->inst, -ENOMEM, "out of memory for the archive");
		st->out = p;
		st->out_cap = cap;
	}
	ar->zs.next_out = st->out + st->out_len;
	ar->zs.avail_out = (uInt)(st->out_cap - st->out_len);
	return 0;
}

/* Deflate @len bytes of the tar stream (or finish it when @flush). */
static int ar_deflate(struct archiver *ar, const void *data, size_t len, int flush)
{
	int err, zret;

	ar->zs.next_in = (Bytef *)data;
	ar->zs.avail_in = (uInt)len;
	ar->tar_bytes += len;
	for (;;) {
		size_t before;

		err = out_reserve(ar);
		if (err)
			return err;
		before = ar->zs.avail_out;
		zret = deflate(&ar->zs, flush);
		ar->st->out_len += before - ar->zs.avail_out;
		if (zret == Z_STREAM_END || (flush == Z_NO_FLUSH && !ar->zs.avail_in &&
					     ar->zs.avail_out))
			return 0;
		if (zret != Z_OK && zret != Z_BUF_ERROR)
			return wl_error(ar->inst, -EIO, "deflate failed: %d", zret);
	}
}

static void octal_field(char *field, size_t size, unsigned long long v)
{
	snprintf(field, size, "%0*llo", (int)size - 1, v);
}

/* Split @name into the ustar name (<= 100) and prefix (<= 155) fields. */
static int ustar_names(char *hdr, const char *name)
{
	size_t len = strlen(name), p;

	if (len <= 100) {
		memcpy(hdr, name, len);
		return 0;
	}
	for (p = len < 156 ? len - 1 : 155; p > 0 && name[p] != '/'; p--)
		;
	/* A directory's trailing '/' is no split point. */
	if (p == len - 1)
		for (p--; p > 0 && name[p] != '/'; p--)
			;
	if (!p || len - p - 1 > 100)
		return -ENAMETOOLONG;
	memcpy(hdr + 345, name, p);
	memcpy(hdr, name + p + 1, len - p - 1);
	return 0;
}

static int tar_header(struct archiver *ar, const char *name, mode_t mode,
		      unsigned long long size, char type)
{
	char hdr[TAR_BLOCK] = { 0 };
	unsigned int sum = 0;
	size_t i;

	if (ustar_names(hdr, name))
		return wl_error(ar->inst, -ENAMETOOLONG,
				"%s: name too long for a ustar archive (100 + 155 bytes)", name);
	if (size > 077777777777ULL)
		return wl_error(ar->inst, -EFBIG, "%s: over 8 GiB, too large for ustar", name);
	octal_field(hdr + 100, 8, mode & 07777);
	octal_field(hdr + 108, 8, 0);
	octal_field(hdr + 116, 8, 0);
	octal_field(hdr + 124, 12, size);
	octal_field(hdr + 136, 12, TAR_MTIME);
	memset(hdr + 148, ' ', 8);
	hdr[156] = type;
	memcpy(hdr + 257, "ustar", 6);
	memcpy(hdr + 263, "00", 2);
	memcpy(hdr + 265, "root", 4);
	memcpy(hdr + 297, "root", 4);
	for (i = 0; i < TAR_BLOCK; i++)
		sum += (unsigned char)hdr[i];
	snprintf(hdr + 148, 8, "%06o", sum);
	hdr[155] = ' ';
	return ar_deflate(ar, hdr, TAR_BLOCK, Z_NO_FLUSH);
}

static int pad_to(struct archiver *ar, size_t unit)
{
	static const char zeros[TAR_RECORD];
	size_t rest = ar->tar_bytes % unit;

	return rest ? ar_deflate(ar, zeros, unit - rest, Z_NO_FLUSH) : 0;
}

/* Header, contents (as read now, checked against the size in the header), padding. */
static int archive_file(struct archiver *ar, const char *path, const char *name,
			const struct stat *sb)
{
	char *chunk = ar->st->chunk;
	unsigned long long left = (unsigned long long)sb->st_size;
	int fd = open(path, O_RDONLY | O_CLOEXEC), err;

	if (fd < 0)
		return wl_error(ar->inst, -errno, "cannot open %s: %s", path, strerror(errno));
	err = tar_header(ar, name, sb->st_mode, left, '0');
	while (!err && left) {
		ssize_t n = read(fd, chunk, left < READ_CHUNK ? left : READ_CHUNK);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			err = wl_error(ar->inst, n ? -errno : -EIO, "%s: %s", path,
				       n ? strerror(errno) : "file shrank while archiving");
			break;
		}
		left -= (unsigned long long)n;
		err = ar_deflate(ar, chunk, (size_t)n, Z_NO_FLUSH);
	}
	close(fd);
	ar->files++;
	ar->in_bytes += (uint64_t)sb->st_size;
	return err ? err : pad_to(ar, TAR_BLOCK);
}

static int compare_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The names in directory @path, sorted by byte value, without . and .. */
static int list_sorted(struct archiver *ar, const char *path, char ***names,
		       size_t *count)
{
	DIR *dir = opendir(path);
	struct dirent *de;
	char **v = NULL, **grown;
	size_t n = 0;

	if (!dir)
		return wl_error(ar->inst, -errno, "cannot read directory %s: %s", path,
				strerror(errno));
	while ((de = readdir(dir))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		grown = realloc(v, (n + 1) * sizeof(*v));
		if (grown)
			v = grown;
		if (!grown || !(v[n] = strdup(de->d_name))) {
			while (n)
				free(v[--n]);
			free(v);
			closedir(dir);
			return wl_error(ar->inst, -ENOMEM, "out of memory listing %s", path);
		}
		n++;
	}
	closedir(dir);
	/* an empty directory has no array: qsort() must not see NULL */
	if (n > 1)
		qsort(v, n, sizeof(*v), compare_names);
	*names = v;
	*count = n;
	return 0;
}

static int archive_tree(struct archiver *ar, const char *path, const char *name);

/* One directory entry: a subdirectory (header, then its tree) or a file. */
static int archive_entry(struct archiver *ar, const char *path, const char *name)
{
	char child_name[PATH_MAX];
	struct stat sb;
	int err;

	if (lstat(path, &sb))
		return wl_error(ar->inst, -errno, "cannot stat %s: %s", path, strerror(errno));
	if (S_ISREG(sb.st_mode))
		return archive_file(ar, path, name, &sb);
	if (!S_ISDIR(sb.st_mode))
		return wl_error(ar->inst, -EINVAL,
				"%s: not a regular file or directory (symlinks, devices and "
				"sockets are not archived)", path);
	if ((size_t)snprintf(child_name, sizeof(child_name), "%s/", name) >= sizeof(child_name))
		return wl_error(ar->inst, -ENAMETOOLONG, "path too long: %s", path);
	err = tar_header(ar, child_name, sb.st_mode, 0, '5');
	ar->dirs++;
	return err ? err : archive_tree(ar, path, name);
}

/* Everything under directory @path; @name is its path in the archive ("" for the root). */
static int archive_tree(struct archiver *ar, const char *path, const char *name)
{
	char child_path[PATH_MAX], child_name[PATH_MAX];
	char **names = NULL;
	size_t count = 0, i;
	int err = list_sorted(ar, path, &names, &count);

	for (i = 0; !err && i < count; i++) {
		if ((size_t)snprintf(child_path, sizeof(child_path), "%s/%s", path,
				     names[i]) >= sizeof(child_path) ||
		    (size_t)snprintf(child_name, sizeof(child_name), "%s%s%s", name,
				     *name ? "/" : "", names[i]) >= sizeof(child_name))
			err = wl_error(ar->inst, -ENAMETOOLONG, "path too long: %s/%s", path,
				       names[i]);
		else
			err = archive_entry(ar, child_path, child_name);
	}
	for (i = 0; i < count; i++)
		free(names[i]);
	free(names);
	return err;
}

static const char *const generated_dirs[] = { "data", "docs", "empty", "logs", "logs/2026" };

/* Contents of generated file @i: text, random bytes or sensor-like records. */
static void generate_contents(uint64_t seed, size_t i, uint8_t *buf, size_t len)
{
	struct rng r;
	size_t pos;

	rng_seed_stream(&r, seed, 0xc0de0000 + i);
	if (i % 4 != 3) {
		wl_gen_text(seed * 1000003 + i, (char *)buf, len);
		return;
	}
	if (i % 8 == 3) {
		rng_bytes(&r, buf, len);
		return;
	}
	for (pos = 0; pos < len; pos++) {
		/* 16-byte records: a counter, a slowly drifting reading, flags. */
		size_t rec = pos / 16, off = pos % 16;
		uint32_t reading = (uint32_t)(20000 + rec / 7 + rng_below(&r, 4));

		buf[pos] = off < 4 ? (uint8_t)(rec >> (8 * off)) :
			   off < 8 ? (uint8_t)(reading >> (8 * (off - 4))) :
			   (uint8_t)(off == 8 ? rec % 3 : 0);
	}
}

static int generate_file(struct wl_instance *inst, const char *root, size_t i,
			 size_t len)
{
	static const char *const patterns[] = {
		"docs/report-%03zu.txt", "logs/2026/day-%03zu.log",
		"docs/notes-%03zu.md", "data/blob-%03zu.bin",
		"docs/report-%03zu.txt", "logs/2026/day-%03zu.log",
		"logs/summary-%03zu.txt", "data/records-%03zu.dat",
	};
	char rel[64], path[PATH_MAX + 64];
	uint8_t *buf = malloc(len ? len : 1);
	int err;

	if (!buf)
		return wl_error(inst, -ENOMEM, "out of memory");
	snprintf(rel, sizeof(rel), patterns[i % 8], i);
	snprintf(path, sizeof(path), "%s/%s", root, rel);
	generate_contents(inst->params.seed, i, buf, len);
	err = wl_write_file_atomic(inst, path, buf, len);
	free(buf);
	return err;
}

/* The default input tree, in a fresh scratch directory. */
static int generate_tree(struct wl_instance *inst, struct compression_state *st)
{
	size_t nfiles = (size_t)wl_pick(inst, 8, 32, 64), i;
	double mean = (double)wl_pick(inst, 100 << 10, 4 << 20, 32 << 20) / (double)nfiles;
	char path[PATH_MAX + 64];
	struct rng r;
	int err = wl_scratch_dir(inst, "compression", st->scratch, sizeof(st->scratch));

	if (err)
		return err;
	for (i = 0; i < sizeof(generated_dirs) / sizeof(generated_dirs[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", st->scratch, generated_dirs[i]);
		if (mkdir(path, 0755) || chmod(path, 0755))
			return wl_error(inst, -errno, "cannot create %s: %s", path, strerror(errno));
	}
	rng_seed_stream(&r, inst->params.seed, 0xc0de);
	for (i = 0; i < nfiles && !err; i++)
		err = generate_file(inst, st->scratch, i,
				    (size_t)(mean * (0.5 + rng_unit(&r))));
	st->root = st->scratch;
	return err;
}

static void compression_teardown(struct wl_instance *inst)
{
	struct compression_state *st = inst->priv;

	if (st->scratch[0])
		wl_scratch_remove(st->scratch);
	free(st->out);
	free(st->chunk);
}

static int compression_init(struct wl_instance *inst)
{
	struct compression_state *st = inst->priv;
	struct stat sb;
	int err = 0;

	st->chunk = malloc(READ_CHUNK);
	if (!st->chunk)
		err = wl_error(inst, -ENOMEM, "out of memory");
	else if (!inst->params.input)
		err = generate_tree(inst, st);
	else if (stat(inst->params.input, &sb))
		err = wl_error(inst, -errno, "--input %s: %s", inst->params.input,
			       strerror(errno));
	else if (!S_ISDIR(sb.st_mode))
		err = wl_error(inst, -ENOTDIR, "--input %s is not a directory",
			       inst->params.input);
	else
		st->root = inst->params.input;
	return err;
}

/* The whole tar.gz of the tree into st->out. */
static int build_archive(struct archiver *ar)
{
	int err;

	if (deflateInit2(&ar->zs, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8,
			 Z_DEFAULT_STRATEGY) != Z_OK)
		return wl_error(ar->inst, -ENOMEM, "deflateInit2 failed");
	err = archive_tree(ar, ar->st->root, "");
	if (!err)
		err = ar_deflate(ar, (char[2 * TAR_BLOCK]){ 0 }, 2 * TAR_BLOCK, Z_NO_FLUSH);
	if (!err)
		err = pad_to(ar, TAR_RECORD);
	if (!err)
		err = ar_deflate(ar, NULL, 0, Z_FINISH);
	deflateEnd(&ar->zs);
	return err;
}

static int compression_invoke(struct wl_instance *inst, struct wl_output *out)
{
	struct compression_state *st = inst->priv;
	struct archiver ar = { .inst = inst, .st = st };
	double t0 = wl_now_s(), secs;
	int err;

	st->out_len = 0;
	err = build_archive(&ar);
	if (err)
		return err;
	secs = wl_now_s() - t0;
	wl_out_ref(out, st->out, st->out_len);
	snprintf(inst->summary, sizeof(inst->summary),
		 "%zu files, %zu dirs, %llu bytes -> %zu bytes tar.gz (%.1f%%), %.1f MiB/s",
		 ar.files, ar.dirs, (unsigned long long)ar.in_bytes, st->out_len,
		 ar.in_bytes ? 100.0 * (double)st->out_len / (double)ar.in_bytes : 0.0,
		 secs > 0 ? (double)ar.in_bytes / secs / 1048576.0 : 0.0);
	if (inst->params.output)
		wl_out_file(out, inst->params.output, st->out, st->out_len);
	return 0;
}

/*
 * For the Python twin: "tree.tar.gz", the tree this instance archives (the
 * generated one or --input), as invoke archives it: the twin unpacks it
 * into a scratch directory of its own at init, as SeBS fetches its files.
 */
static int compression_export(struct wl_instance *inst)
{
	struct compression_state *st = inst->priv;
	struct archiver ar = { .inst = inst, .st = st };
	int err;

	st->out_len = 0;
	err = build_archive(&ar);
	return err ? err : wl_export_write(inst, "tree.tar.gz", st->out, st->out_len);
}

const struct workload_ops wl_compression = {
	.version = WL_OPS_VERSION,
	.info = &wl_info_compression,
	.state_size = sizeof(struct compression_state),
	.init = compression_init,
	.invoke = compression_invoke,
	.teardown = compression_teardown,
	.export_inputs = compression_export,
};
