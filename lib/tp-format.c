// SPDX-License-Identifier: MIT
/*
 * tp-format.c - one trace event's format through libtraceevent
 * (tep_parse_format): from tracefs or from a captured file (tp-format.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tp-format.h"

#ifdef HAVE_TRACEFS
#include <event-parse.h>

#define FORMAT_MAX (1 << 20)

/* The whole of a small file into a malloc'd, NUL-terminated buffer. */
static int slurp(const char *path, char **out, size_t *len)
{
	size_t cap = 16384, n = 0;
	char *buf = malloc(cap), *nb;
	ssize_t r;
	int fd = open(path, O_RDONLY | O_CLOEXEC), e;

	if (fd < 0 || !buf) {
		e = fd < 0 ? errno : ENOMEM;
		goto fail;
	}
	while ((r = read(fd, buf + n, cap - n - 1)) > 0) {
		n += (size_t)r;
		if (n + 1 < cap)
			continue;
		if (cap >= FORMAT_MAX || !(nb = realloc(buf, cap * 2))) {
			e = EFBIG;
			goto fail;
		}
		buf = nb;
		cap *= 2;
	}
	if (r < 0) {
		e = errno;
		goto fail;
	}
	close(fd);
	buf[n] = '\0';
	*out = buf;
	*len = n;
	return 0;
fail:
	if (fd >= 0)
		close(fd);
	free(buf);
	return -e;
}

int tp_format_parse(struct tp_format *f, const char *buf, size_t len, const char *sys,
		    char *err, size_t errlen)
{
	enum tep_errno te;

	memset(f, 0, sizeof(*f));
	f->tep = tep_alloc();
	if (!f->tep) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	te = tep_parse_format(f->tep, &f->event, buf, len, sys);
	if (te || !f->event) {
		char msg[128] = "";

		tep_strerror(f->tep, te, msg, sizeof(msg));
		snprintf(err, errlen, "cannot parse the %s event format: %s", sys, msg);
		tp_format_free(f);
		return -EINVAL;
	}
	return 0;
}

int tp_format_load_file(struct tp_format *f, const char *path, const char *sys,
			char *err, size_t errlen)
{
	char *buf = NULL;
	size_t len = 0;
	int ret = slurp(path, &buf, &len);

	if (ret) {
		snprintf(err, errlen, "%s: %s", path, strerror(-ret));
		return ret;
	}
	ret = tp_format_parse(f, buf, len, sys, err, errlen);
	if (ret) {
		size_t used = strlen(err);

		snprintf(err + used, errlen - used, " (%s)", path);
	}
	free(buf);
	return ret;
}

int tp_format_load(struct tp_format *f, const char *tracing_dir, const char *sys,
		   const char *event, char *err, size_t errlen)
{
	char path[PATH_MAX];
	int ret;

	snprintf(path, sizeof(path), "%s/events/%s/%s/format", tracing_dir, sys, event);
	if (access(path, R_OK)) {
		ret = -errno;
		snprintf(err, errlen, "trace event %s:%s is not in this kernel (%s: %s)",
			 sys, event, path, strerror(-ret));
		return ret;
	}
	return tp_format_load_file(f, path, sys, err, errlen);
}

int tp_format_id(const struct tp_format *f)
{
	return f->event ? f->event->id : -1;
}

int tp_format_has_field(const struct tp_format *f, const char *name)
{
	return f->event && tep_find_field(f->event, name) != NULL;
}

int tp_format_field(const struct tp_format *f, const char *name, unsigned int *offset,
		    unsigned int *size)
{
	struct tep_format_field *fl = f->event ? tep_find_any_field(f->event, name) : NULL;

	if (!fl)
		return -ENOENT;
	*offset = (unsigned int)fl->offset;
	*size = (unsigned int)fl->size;
	return 0;
}

void tp_format_free(struct tp_format *f)
{
	if (f->tep)
		tep_free(f->tep);
	memset(f, 0, sizeof(*f));
}

#else /* !HAVE_TRACEFS */

int tp_format_parse(struct tp_format *f, const char *buf, size_t len, const char *sys,
		    char *err, size_t errlen)
{
	(void)buf, (void)len, (void)sys;
	memset(f, 0, sizeof(*f));
	snprintf(err, errlen, "built without libtraceevent");
	return -ENOTSUP;
}

int tp_format_load_file(struct tp_format *f, const char *path, const char *sys,
			char *err, size_t errlen)
{
	return tp_format_parse(f, path, 0, sys, err, errlen);
}

int tp_format_load(struct tp_format *f, const char *tracing_dir, const char *sys,
		   const char *event, char *err, size_t errlen)
{
	(void)tracing_dir, (void)event;
	return tp_format_parse(f, NULL, 0, sys, err, errlen);
}

int tp_format_id(const struct tp_format *f)
{
	(void)f;
	return -1;
}

int tp_format_has_field(const struct tp_format *f, const char *name)
{
	(void)f, (void)name;
	return 0;
}

int tp_format_field(const struct tp_format *f, const char *name, unsigned int *offset,
		    unsigned int *size)
{
	(void)f, (void)name, (void)offset, (void)size;
	return -ENOENT;
}

void tp_format_free(struct tp_format *f)
{
	memset(f, 0, sizeof(*f));
}

#endif
