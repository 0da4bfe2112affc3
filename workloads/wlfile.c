// SPDX-License-Identifier: MIT
/*
 * wlfile.c - model files with a checked header, atomic output files, and
 * the synthetic text generator shared by the text workloads.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "outpath.h"
#include "rng.h"
#include "wlfile.h"

#define MODEL_MAGIC "CVMFNMD1"

struct model_header {
	char magic[8];
	char workload[48];
	uint64_t seed;
	uint64_t payload_len;
	uint8_t sha256[DIGEST_BYTES];
};

int wl_make_data_dir(struct wl_instance *inst)
{
	const char *dir = inst->params.data_dir;
	char path[PATH_MAX], *p;

	if ((size_t)snprintf(path, sizeof(path), "%s", dir) >= sizeof(path))
		return wl_error(inst, -ENAMETOOLONG, "path too long: %s", dir);
	for (p = path + 1;; p++) {
		char c = *p;

		if (c != '/' && c != '\0')
			continue;
		*p = '\0';
		if (mkdir(path, 0755) && errno != EEXIST)
			return wl_error(inst, -errno, "cannot create data directory %s: %s",
					path, strerror(errno));
		*p = c;
		if (!c)
			return 0;
	}
}

int wl_data_path(struct wl_instance *inst, const char *name, char *buf,
		 size_t len)
{
	const char *dir = inst->params.data_dir;
	int err = inst->params.prepare ? wl_make_data_dir(inst) : 0;

	if (err)
		return err;
	if ((size_t)snprintf(buf, len, "%s/%s", dir, name) >= len)
		return wl_error(inst, -ENAMETOOLONG, "path too long: %s/%s", dir, name);
	return 0;
}

static int write_parts_atomic(struct wl_instance *inst, const char *path,
			      const void *a, size_t alen, const void *b, size_t blen)
{
	struct wl_out_target t;
	char tmp[PATH_MAX];
	int fd, err = wl_out_target(inst, path, &t);

	if (err)
		return err;
	if (t.in_place)
		return wl_write_in_place(inst, t.path, a, alen, b, blen);
	if ((size_t)snprintf(tmp, sizeof(tmp), "%s.tmpXXXXXX", t.path) >= sizeof(tmp))
		return wl_error(inst, -ENAMETOOLONG, "path too long: %s", path);
	fd = mkstemp(tmp);
	if (fd < 0)
		return wl_error(inst, -errno, "cannot write %s: %s", path, strerror(errno));
	err = wl_write_fd(fd, a, alen, b, blen);
	if (!err && fchmod(fd, 0644))
		err = -errno;
	if (close(fd) && !err)
		err = -errno;
	if (!err && rename(tmp, t.path))
		err = -errno;
	if (err) {
		unlink(tmp);
		return wl_error(inst, err, "cannot write %s: %s", path, strerror(-err));
	}
	return 0;
}

int wl_write_file_atomic(struct wl_instance *inst, const char *path,
			 const void *data, size_t len)
{
	return write_parts_atomic(inst, path, data, len, NULL, 0);
}

int wl_output_write_files(struct wl_instance *inst, const struct wl_output *out)
{
	size_t i;
	int err = 0;

	for (i = 0; i < out->nfile && !err; i++) {
		const struct wl_out_file *f = &out->file[i];

		err = f->write ? f->write(inst, f->path, f->arg) :
		      wl_write_file_atomic(inst, f->path, f->data, f->len);
	}
	return err;
}

int wl_read_file(struct wl_instance *inst, const char *path, void **data,
		 size_t *len)
{
	struct stat st;
	char *buf;
	size_t got = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return wl_error(inst, -errno, "cannot open %s: %s", path, strerror(errno));
	if (fstat(fd, &st)) {
		close(fd);
		return wl_error(inst, -errno, "cannot stat %s", path);
	}
	buf = malloc((size_t)st.st_size + 1);
	if (!buf) {
		close(fd);
		return wl_error(inst, -ENOMEM, "out of memory reading %s", path);
	}
	while (got < (size_t)st.st_size) {
		ssize_t n = read(fd, buf + got, (size_t)st.st_size - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	close(fd);
	buf[got] = '\0';
	*data = buf;
	*len = got;
	return 0;
}

static void model_header_fill(struct wl_instance *inst, struct model_header *h,
			      const void *payload, size_t len)
{
	struct digest d;

	memset(h, 0, sizeof(*h));
	memcpy(h->magic, MODEL_MAGIC, 8);
	snprintf(h->workload, sizeof(h->workload), "%s", inst->ops->info->name);
	h->seed = inst->params.seed;
	h->payload_len = len;
	/* a failed hash leaves zeros: the file then fails its own check on load */
	digest_init(&d);
	digest_update(&d, payload, len);
	if (digest_final_raw(&d, h->sha256))
		memset(h->sha256, 0, sizeof(h->sha256));
}

static int model_generate(struct wl_instance *inst, const char *path, size_t len,
			  wl_gen_fn gen, void *arg, void **out)
{
	struct model_header h;
	void *buf = malloc(len ? len : 1);
	int err;

	if (!buf)
		return wl_error(inst, -ENOMEM, "out of memory for model %s", path);
	err = gen(inst, buf, len, arg);
	if (!err) {
		model_header_fill(inst, &h, buf, len);
		err = write_parts_atomic(inst, path, &h, sizeof(h), buf, len);
	}
	if (err) {
		free(buf);
		return err;
	}
	*out = buf;
	return 0;
}

static int model_check(struct wl_instance *inst, const char *path,
		       const struct model_header *h, size_t file_len, size_t len,
		       const void *payload)
{
	struct model_header want;

	if (memcmp(h->magic, MODEL_MAGIC, 8))
		return wl_error(inst, -EINVAL, "%s is not a cvmfn model file", path);
	if (strncmp(h->workload, inst->ops->info->name, sizeof(h->workload)))
		return wl_error(inst, -EINVAL, "%s is a model of workload '%.48s', not '%s'",
				path, h->workload, inst->ops->info->name);
	if (h->seed != inst->params.seed)
		return wl_error(inst, -EINVAL,
				"%s was generated from seed %llu, not %llu: "
				"remove it, or run cvmfn prepare to generate it again",
				path, (unsigned long long)h->seed,
				(unsigned long long)inst->params.seed);
	if (h->payload_len != len)
		return wl_error(inst, -EINVAL, "%s holds %llu payload bytes, expected %zu",
				path, (unsigned long long)h->payload_len, len);
	if (file_len < sizeof(*h) + len)
		return wl_error(inst, -EINVAL, "%s is truncated: %zu of %zu bytes",
				path, file_len, sizeof(*h) + len);
	model_header_fill(inst, &want, payload, len);
	if (memcmp(want.sha256, h->sha256, DIGEST_BYTES))
		return wl_error(inst, -EINVAL, "%s is corrupt: SHA-256 mismatch", path);
	return 0;
}

/* "<stem>-seed<N>.model" for @name "<stem>.model": one file per seed. */
static int model_path(struct wl_instance *inst, const char *name, char *path,
		      size_t size)
{
	char file[256];
	size_t stem = strlen(name);

	if (stem > 6 && !strcmp(name + stem - 6, ".model"))
		stem -= 6;
	if ((size_t)snprintf(file, sizeof(file), "%.*s-seed%llu.model", (int)stem, name,
			     (unsigned long long)inst->params.seed) >= sizeof(file))
		return wl_error(inst, -ENAMETOOLONG, "model name too long: %s", name);
	return wl_data_path(inst, file, path, size);
}

/* Read and check @path; 0 with *@out the payload, or -errno. */
static int model_read(struct wl_instance *inst, const char *path, size_t len, void **out)
{
	void *data;
	size_t file_len;
	int err = wl_read_file(inst, path, &data, &file_len);

	if (err)
		return err;
	if (file_len < sizeof(struct model_header)) {
		free(data);
		return wl_error(inst, -EINVAL, "%s is truncated: %zu bytes, no header",
				path, file_len);
	}
	err = model_check(inst, path, data, file_len, len,
			  (char *)data + sizeof(struct model_header));
	if (err) {
		free(data);
		return err;
	}
	memmove(data, (char *)data + sizeof(struct model_header), len);
	*out = data;
	return 0;
}

int wl_model_load(struct wl_instance *inst, const char *name, size_t len,
		  wl_gen_fn gen, void *arg, void **out)
{
	char path[PATH_MAX];
	int err = model_path(inst, name, path, sizeof(path));

	if (err)
		return err;
	if (access(path, F_OK) && errno == ENOENT) {
		if (inst->params.prepare)
			return model_generate(inst, path, len, gen, arg, out);
		return wl_error(inst, -ENOENT,
				"model file %s is missing: run 'cvmfn prepare %s --seed %llu --data-dir %s'",
				path, inst->ops->info->name,
				(unsigned long long)inst->params.seed, inst->params.data_dir);
	}
	err = model_read(inst, path, len, out);
	if (err && inst->params.prepare) {
		/* asked to prepare: a file that fails its checks is made again */
		fprintf(stderr, "cvmfn: %s; generating it again\n", inst->error);
		inst->error[0] = '\0';
		return model_generate(inst, path, len, gen, arg, out);
	}
	return err;
}

static const char *const vocabulary[] = {
	"the", "of", "and", "to", "a", "in", "is", "it", "you", "that", "he",
	"was", "for", "on", "are", "with", "as", "they", "be", "at", "one",
	"have", "this", "from", "or", "had", "by", "word", "but", "what",
	"some", "we", "can", "out", "other", "were", "all", "there", "when",
	"up", "use", "your", "how", "said", "an", "each", "she", "which", "do",
	"their", "time", "if", "will", "way", "about", "many", "then", "them",
	"write", "would", "like", "so", "these", "her", "long", "make", "thing",
	"see", "him", "two", "has", "look", "more", "day", "could", "go", "come",
	"did", "number", "sound", "no", "most", "people", "my", "over", "know",
	"water", "than", "call", "first", "who", "may", "down", "side", "been",
	"now", "find", "good", "great", "excellent", "love", "happy", "bad",
	"terrible", "awful", "poor", "nice", "best", "worst", "fast", "slow",
	"cheap", "broken", "perfect", "amazing", "boring", "not", "very",
	"really", "never", "product", "service", "price", "quality", "delivery",
	"cloud", "function", "server", "memory", "latency", "container",
};

const char *const *wl_vocabulary(size_t *count)
{
	*count = sizeof(vocabulary) / sizeof(vocabulary[0]);
	return vocabulary;
}

/* Zipf-like pick: small indices are much more frequent. */
static size_t zipf_pick(struct rng *r, size_t n)
{
	double u = rng_unit(r);

	return (size_t)((double)n * u * u * u) % n;
}

void wl_gen_text(uint64_t seed, char *buf, size_t len)
{
	size_t nwords = sizeof(vocabulary) / sizeof(vocabulary[0]), pos = 0;
	struct rng r;
	int in_sentence = 0;

	rng_seed_stream(&r, seed, 0x7e47);
	while (pos < len) {
		const char *w = vocabulary[zipf_pick(&r, nwords)];
		size_t wl = strlen(w);
		uint64_t p = rng_below(&r, 100);

		if (pos + wl + 2 > len) {
			memset(buf + pos, ' ', len - pos);
			break;
		}
		memcpy(buf + pos, w, wl);
		pos += wl;
		in_sentence++;
		if (in_sentence > 4 && p < 8) {
			buf[pos++] = '.';
			buf[pos++] = p < 2 ? '\n' : ' ';
			in_sentence = 0;
		} else if (p < 12) {
			buf[pos++] = ',';
			buf[pos++] = ' ';
		} else {
			buf[pos++] = ' ';
		}
	}
}
