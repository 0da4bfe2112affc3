// SPDX-License-Identifier: MIT
/*
 * journal-index.c - the journal file and the in-memory index of its open
 * entries: appending an entry (fsync'd) or a "done" line, finding an entry
 * by id (binary search: ids only grow), reading the file back at open, and
 * compacting both the index and the file as entries close. Fields are
 * hex-encoded, so a name of any length and any bytes comes back exactly.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "journal-local.h"
#include "log.h"

static char *hex_encode(const char *s)
{
	static const char digits[] = "0123456789abcdef";
	size_t n = strlen(s), i;
	char *out = malloc(n ? 2 * n + 1 : 2);

	if (!out || !n)
		return out ? strcpy(out, "-") : NULL;
	for (i = 0; i < n; i++) {
		out[2 * i] = digits[(unsigned char)s[i] >> 4];
		out[2 * i + 1] = digits[(unsigned char)s[i] & 15];
	}
	out[2 * n] = '\0';
	return out;
}

static int hex_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* The string @h encodes, or NULL when @h is not exactly that. */
static char *hex_decode(const char *h)
{
	size_t n = strlen(h), i;
	char *out;
	int hi, lo;

	if (!strcmp(h, "-"))
		return strdup("");
	if (!n || n % 2 || !(out = malloc(n / 2 + 1)))
		return NULL;
	for (i = 0; i < n / 2; i++) {
		hi = hex_value(h[2 * i]);
		lo = hex_value(h[2 * i + 1]);
		if (hi < 0 || lo < 0 || (hi | lo) == 0) {
			free(out);
			return NULL;
		}
		out[i] = (char)(hi << 4 | lo);
	}
	out[n / 2] = '\0';
	return out;
}

/* @e as its journal line (malloc'd), or NULL. */
static char *entry_line(const struct journal_entry *e)
{
	char *ha, *hb, *line = NULL;

	if (e->type == 'p')
		return asprintf(&line, "proc %ld %lld %lld\n", e->id, e->pid,
				e->starttime) < 0 ? NULL : line;
	ha = e->type == 's' ? hex_encode(e->a) : strdup(e->a);
	hb = hex_encode(e->b);
	if (ha && hb && asprintf(&line, "%s %ld %s %s\n", e->type == 's' ? "set" : "obj",
				 e->id, ha, hb) < 0)
		line = NULL;
	free(ha);
	free(hb);
	return line;
}

/* Append @line in one write; @sync: on disk before returning. */
static int append(const char *line, int sync)
{
	size_t len = strlen(line);
	ssize_t w = write(J.fd, line, len);
	int ret = w == (ssize_t)len ? 0 : w < 0 ? -errno : -EIO;

	if (!ret && sync && fdatasync(J.fd))
		ret = -errno;
	if (ret) {
		if (ftruncate(J.fd, J.size))  /* no cut line left behind */
			pr_warn("journal %s: cannot cut a failed write: %s", J.file,
				strerror(errno));
		return ret;
	}
	J.size += (off_t)len;
	J.lines++;
	return 0;
}

static int index_reserve(void)
{
	struct journal_entry *v;
	size_t cap = J.cap ? 2 * J.cap : 64;

	if (J.n < J.cap)
		return 0;
	v = realloc(J.v, cap * sizeof(*v));
	if (!v)
		return -ENOMEM;
	J.v = v;
	J.cap = cap;
	return 0;
}

long journal_add(char type, const char *a, const char *b, long long pid,
		 long long starttime)
{
	struct journal_entry e = { .id = J.next_id, .type = type, .pid = pid,
				   .starttime = starttime };
	char *line = NULL;
	int ret;

	if (J.fd < 0)
		return -EBADF;
	if (type != 'p' && (!(e.a = strdup(a)) || !(e.b = strdup(b))))
		ret = -ENOMEM;
	else
		ret = index_reserve();
	if (!ret && !(line = entry_line(&e)))
		ret = -ENOMEM;
	ret = ret ?: append(line, 1);
	free(line);
	if (ret) {
		free(e.a);
		free(e.b);
		return ret;
	}
	J.next_id++;
	J.v[J.n++] = e;
	return e.id;
}

/* Index of the open entry @id, or -1. */
ssize_t journal_find(long id)
{
	size_t lo = 0, hi = J.n, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (J.v[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < J.n && J.v[lo].id == id && !J.v[lo].done ? (ssize_t)lo : -1;
}

static void mark_done(size_t i)
{
	J.v[i].done = 1;
	J.ndone++;
	free(J.v[i].a);
	free(J.v[i].b);
	J.v[i].a = J.v[i].b = NULL;
}

int journal_forget(long id)
{
	ssize_t i;
	char line[48];
	int ret, ret2;

	if (id <= 0)
		return 0;
	i = journal_find(id);
	if (i < 0)
		return -ENOENT;
	snprintf(line, sizeof(line), "done %ld\n", id);
	ret = append(line, 0);
	mark_done((size_t)i);
	ret2 = journal_compact();
	return ret ?: ret2;
}

/* Write the open entries to a new file and put it in place of the journal. */
static int rewrite(void)
{
	char tmp[PATH_MAX + 8], *line;
	size_t i, lines = 0;
	off_t size = 0;
	int ret = 0, fd;
	FILE *f;

	snprintf(tmp, sizeof(tmp), "%s.new", J.file);
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0600);
	f = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (!f)
		return fd >= 0 ? (close(fd), -ENOMEM) : -errno;
	for (i = 0; i < J.n && !ret; i++) {
		if (J.v[i].done)
			continue;
		line = entry_line(&J.v[i]);
		if (!line || fputs(line, f) < 0)
			ret = -EIO;
		size += line ? (off_t)strlen(line) : 0;
		lines++;
		free(line);
	}
	if (fflush(f) || fdatasync(fd))
		ret = ret ?: -errno;
	fclose(f);
	fd = ret ? -1 : open(tmp, O_RDWR | O_APPEND | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0 || rename(tmp, J.file) || fsync(J.dir_fd)) {
		ret = ret ?: -errno;
		if (fd >= 0)
			close(fd);
		unlink(tmp);
		return ret;
	}
	close(J.fd);
	J.fd = fd;
	J.size = size;
	J.lines = lines;
	return 0;
}

int journal_compact(void)
{
	size_t i, k = 0;

	if (J.hold || J.fd < 0)
		return 0;
	if (J.ndone == J.n && J.unreadable) {
		journal_index_free();      /* never cut what could not be read */
		return 0;
	}
	if (J.ndone == J.n) {
		journal_index_free();
		if (J.size && ftruncate(J.fd, 0))
			return -errno;
		J.size = 0;
		J.lines = 0;
		return 0;
	}
	if (J.ndone > 64 && 2 * J.ndone > J.n) {
		for (i = 0; i < J.n; i++)
			if (!J.v[i].done)
				J.v[k++] = J.v[i];
		J.n = k;
		J.ndone = 0;
	}
	return J.lines > 2 * (J.n - J.ndone) + 1024 && !J.unreadable ? rewrite() : 0;
}

/* One line of the file into the index; -EINVAL when it is not a journal line. */
static int parse_line(const char *line)
{
	struct journal_entry e = { 0 };
	char *f1 = NULL, *f2 = NULL;
	long id;
	ssize_t i;

	if (sscanf(line, "done %ld", &id) == 1) {
		if ((i = journal_find(id)) >= 0)
			mark_done((size_t)i);
		return 0;
	}
	if (sscanf(line, "proc %ld %lld %lld", &e.id, &e.pid, &e.starttime) == 3) {
		e.type = 'p';
	} else if (sscanf(line, "set %ld %ms %ms", &e.id, &f1, &f2) == 3) {
		e.type = 's';     /* a path not hex-encoded: an older cvmbench */
		e.a = f1[0] == '/' ? strdup(f1) : hex_decode(f1);
		e.b = hex_decode(f2);
	} else if (sscanf(line, "obj %ld %ms %ms", &e.id, &f1, &f2) == 3) {
		e.type = 'o';
		e.a = strdup(f1);
		e.b = hex_decode(f2);
	}
	free(f1);
	free(f2);
	if (!e.type || (e.type != 'p' && (!e.a || !e.b)) ||
	    (J.n && e.id <= J.v[J.n - 1].id) || e.id <= 0 || index_reserve()) {
		free(e.a);
		free(e.b);
		return -EINVAL;
	}
	J.v[J.n++] = e;
	if (e.id >= J.next_id)
		J.next_id = e.id + 1;
	return 0;
}

int journal_load(char *err, size_t errlen)
{
	FILE *f = fopen(J.file, "re");
	char *line = NULL;
	size_t cap = 0, lineno = 0;
	ssize_t len;
	off_t off = 0;

	if (!f) {
		snprintf(err, errlen, "cannot read journal %s: %s", J.file, strerror(errno));
		return -errno;
	}
	while ((len = getline(&line, &cap, f)) > 0 && line[len - 1] == '\n') {
		line[len - 1] = '\0';
		lineno++;
		if (parse_line(line) && ++J.unreadable)
			pr_warn("journal %s line %zu is not a journal entry this cvmbench "
				"understands (kept in the file): %.80s", J.file, lineno, line);
		off += len;
	}
	free(line);
	fclose(f);
	if (len > 0 && ftruncate(J.fd, off))  /* a line cut by a crash */
		return snprintf(err, errlen, "cannot cut journal %s: %s", J.file,
				strerror(errno)), -errno;
	J.size = off;
	J.lines = lineno;
	return journal_compact();
}

void journal_index_free(void)
{
	size_t i;

	for (i = 0; i < J.n; i++) {
		free(J.v[i].a);
		free(J.v[i].b);
	}
	free(J.v);
	J.v = NULL;
	J.n = J.cap = J.ndone = 0;
}
