// SPDX-License-Identifier: MIT
/*
 * env-util.c - helpers the env collectors share: emitting a fact (or an
 * "unavailable: <reason>" fact), reading small procfs/sysfs files, picking
 * the [selected] word of a sysfs choice list, emitting every file of a
 * sysfs directory, and looking up fields and flags of the first processor
 * in /proc/cpuinfo.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "env-local.h"
#include "sysfs.h"
#include "sysroot.h"

static void env_vput(const struct env_sink *s, const char *key,
		     const char *source, const char *prefix,
		     const char *fmt, va_list ap)
{
	char value[4096];
	size_t n = strlen(prefix);

	if (n >= sizeof(value))
		n = sizeof(value) - 1;
	memcpy(value, prefix, n);
	vsnprintf(value + n, sizeof(value) - n, fmt, ap);
	s->emit(s->ctx, key, value, source && *source ? source : "unknown");
}

/**
 * env_put() - emit one fact through @s.
 * @s: the sink
 * @key: dotted key, e.g. "cpu.vendor"
 * @source: where the value was read, e.g. "/proc/cmdline"
 * @fmt: printf format of the value
 */
void env_put(const struct env_sink *s, const char *key, const char *source,
	     const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	env_vput(s, key, source, "", fmt, ap);
	va_end(ap);
}

/**
 * env_put_unavail() - emit a fact whose value could not be read, as
 * "unavailable: <reason>".
 * @s: the sink
 * @key: dotted key
 * @source: where it would have been read
 * @fmt: printf format of the reason
 */
void env_put_unavail(const struct env_sink *s, const char *key,
		     const char *source, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	env_vput(s, key, source, ENV_UNAVAILABLE, fmt, ap);
	va_end(ap);
}

/**
 * env_put_file() - emit the first line of @path as fact @key, or
 * "unavailable: <strerror>" when it cannot be read.
 * @s: the sink
 * @key: dotted key
 * @path: file to read; also the source of the fact
 *
 * Return: 0 if the file was read, else -errno.
 */
int env_put_file(const struct env_sink *s, const char *key, const char *path)
{
	char buf[1024];
	int n = sysfs_read_line(path, buf, sizeof(buf));

	if (n < 0) {
		env_put_unavail(s, key, path, "%s", strerror(-n));
		return n;
	}
	env_put(s, key, path, "%s", buf);
	return 0;
}

/**
 * env_selected() - the word in brackets of a sysfs choice list,
 * e.g. "madvise" from "always [madvise] never".
 * @line: the list
 * @out: where to store the word
 * @len: size of @out
 *
 * Return: @out, or NULL when no word is bracketed.
 */
const char *env_selected(const char *line, char *out, size_t len)
{
	const char *open = strchr(line, '['), *close;
	size_t n;

	if (!open || !len)
		return NULL;
	close = strchr(open, ']');
	if (!close)
		return NULL;
	n = (size_t)(close - open - 1);
	if (n >= len)
		n = len - 1;
	memcpy(out, open + 1, n);
	out[n] = '\0';
	return out;
}

/**
 * env_cpuinfo_field() - value of @field for the first processor listed in
 * /proc/cpuinfo (e.g. "vendor_id", "microcode", "flags").
 * @field: the field name, left of the colon
 * @buf: where to store the value
 * @len: size of @buf
 *
 * Return: 0, -ENOENT if the field is absent, or -errno if the file is
 * unreadable.
 */
int env_cpuinfo_field(const char *field, char *buf, size_t len)
{
	char line[8192];
	size_t flen = strlen(field);
	int ret = -ENOENT;
	FILE *f = sysroot_fopen("/proc/cpuinfo", "re");

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':'), *v;

		if (line[0] == '\n' && ret == -ENOENT)
			break;	/* end of the first processor */
		if (!colon || strncmp(line, field, flen) ||
		    (line[flen] != ' ' && line[flen] != '\t' && line[flen] != ':'))
			continue;
		v = colon + 1;
		v += strspn(v, " \t");
		v[strcspn(v, "\n")] = '\0';
		snprintf(buf, len, "%s", v);
		ret = 0;
		break;
	}
	fclose(f);
	return ret;
}

/**
 * env_cpuinfo_has_flag() - whether the first processor in /proc/cpuinfo
 * lists @flag among its "flags".
 * @flag: flag name, e.g. "hypervisor"
 *
 * Return: 1 present, 0 absent, or -errno if the flags cannot be read.
 */
int env_cpuinfo_has_flag(const char *flag)
{
	char flags[8192], *tok, *save = NULL;
	int ret = env_cpuinfo_field("flags", flags, sizeof(flags));

	if (ret < 0)
		return ret;
	for (tok = strtok_r(flags, " ", &save); tok;
	     tok = strtok_r(NULL, " ", &save))
		if (!strcmp(tok, flag))
			return 1;
	return 0;
}

static int env_dir_filter(const struct dirent *d)
{
	return d->d_name[0] != '.';
}

/**
 * env_put_dir() - emit every readable regular file of @dir, in name order,
 * as fact "<prefix>.<file name>" (first line of the file). Files without
 * read permission (write-only controls) and subdirectories are skipped.
 * @s: the sink
 * @prefix: key prefix, e.g. "ksm"
 * @dir: the directory, e.g. "/sys/kernel/mm/ksm"
 *
 * Return: number of facts emitted, or -errno if @dir cannot be listed.
 */
int env_put_dir(const struct env_sink *s, const char *prefix, const char *dir)
{
	struct dirent **names;
	char path[1024], key[512], real[4096];
	struct stat st;
	int n, i, emitted = 0;

	n = scandir(sysroot_path(dir, real, sizeof(real)), &names, env_dir_filter,
		    alphasort);
	if (n < 0)
		return -errno;
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]->d_name);
		if (!stat(sysroot_path(path, real, sizeof(real)), &st) && S_ISREG(st.st_mode) &&
		    (st.st_mode & S_IRUSR)) {
			snprintf(key, sizeof(key), "%s.%s", prefix,
				 names[i]->d_name);
			env_put_file(s, key, path);
			emitted++;
		}
		free(names[i]);
	}
	free(names);
	return emitted;
}

/*
 * env_first_line() - the first line of @path (under the test root), without
 * its newline, into @buf; its blanks are kept (a captured CPUID signature,
 * "IntelTDX    ", has trailing ones). 0, or -1 when unreadable or empty.
 */
int env_first_line(const char *path, char *buf, size_t len)
{
	FILE *f = sysroot_fopen(path, "re");
	int ok;

	if (!f)
		return -1;
	ok = fgets(buf, (int)len, f) != NULL;
	fclose(f);
	if (!ok)
		return -1;
	buf[strcspn(buf, "\n")] = '\0';
	return buf[0] ? 0 : -1;
}
