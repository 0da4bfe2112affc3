// SPDX-License-Identifier: MIT
/*
 * tests/unit/out-file.c - output files made safely (lib/out-file.c), in a
 * fresh directory, checked with lstat/readlink and the bytes read back:
 * a committed file holds what was written and no temporary name is left;
 * an aborted one leaves the existing file byte for byte; a symlink in the
 * file's place, a fifo, a symlinked or non-directory output directory
 * (also given with a trailing '/') are refused with -EPERM and the
 * symlink's target is unchanged; a file moved in from a private
 * directory (out_file_adopt()) replaces the old one and the private
 * directory is removed.
 */
#include <dirent.h>
#include <ftw.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fake-file.h"
#include "out-file.h"
#include "tap.h"

static char root[256];

/* The content of @rel under root, or "(absent)". */
static const char *slurp(const char *rel, char *buf, size_t len)
{
	char dir[sizeof(root) + 1];

	snprintf(dir, sizeof(dir), "%s/", root);
	return fake_file_get(dir, rel, buf, len);
}

static void put(const char *rel, const char *text)
{
	char dir[sizeof(root) + 1];

	snprintf(dir, sizeof(dir), "%s/", root);
	fake_file_put(dir, rel, text);
}

/* Entries of directory @rel under root, "." and ".." not counted. */
static int entries(const char *rel)
{
	char path[PATH_MAX + 64];
	struct dirent *e;
	DIR *d;
	int n = 0;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	d = opendir(path);
	while (d && (e = readdir(d)))
		n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	if (d)
		closedir(d);
	return n;
}

/* @rel under root; two calls may be arguments of one call. */
static char *at(const char *rel)
{
	static char path[2][PATH_MAX + 64];
	static int k;

	k = !k;
	snprintf(path[k], sizeof(path[k]), "%s/%s", root, rel);
	return path[k];
}

static void test_files(struct out_dir *d)
{
	struct out_file o;
	char buf[256];

	tap_ok(!out_file_create_tmp(&o, d, "a.txt"), "a temporary file is made");
	fputs("new\n", o.f);
	tap_ok(entries("out") == 1 && !strcmp(slurp("out/a.txt", buf, sizeof(buf)), "(absent)"),
	       "... under another name, a.txt not there yet");
	tap_ok(!out_file_commit(&o), "commit succeeds");
	tap_ok(!strcmp(slurp("out/a.txt", buf, sizeof(buf)), "new\n") && entries("out") == 1,
	       "a.txt holds what was written, no temporary name left");
	tap_ok(!out_file_create_tmp(&o, d, "a.txt"), "a second version is started");
	fputs("half", o.f);
	out_file_abort(&o);
	tap_ok(!strcmp(slurp("out/a.txt", buf, sizeof(buf)), "new\n") && entries("out") == 1,
	       "abort leaves the existing a.txt as it was, no temporary name left");
	put("victim", "precious\n");
	tap_ok(!symlink(at("victim"), at("out/link.txt")), "a symlink is planted");
	tap_ok(out_file_create_tmp(&o, d, "link.txt") == -EPERM, "a symlink in the file's place: -EPERM");
	tap_ok(!strcmp(slurp("victim", buf, sizeof(buf)), "precious\n"), "... its target unchanged");
	tap_ok(!mkfifo(at("out/fifo"), 0600) && out_file_check(d, "fifo") == -EPERM,
	       "a fifo in the file's place: -EPERM");
	tap_ok(out_file_create_tmp(&o, d, "x/y") == -EINVAL && out_file_create_tmp(&o, d, "..") ==
	       -EINVAL, "a name with '/' or '..': -EINVAL");
}

static void test_adopt(struct out_dir *d)
{
	char priv[PATH_MAX], path[PATH_MAX + 16], buf[256];
	struct out_file o;
	FILE *f;
	int fd;

	tap_ok(!out_tmpdir_make(priv, sizeof(priv)), "a private directory is made");
	snprintf(path, sizeof(path), "%s/fig", priv);
	f = fopen(path, "w");
	if (f) {
		fputs("figure\n", f);
		fclose(f);
	}
	fd = open(priv, O_RDONLY | O_DIRECTORY);
	tap_ok(!out_file_create_tmp(&o, d, "a.txt") && !out_file_adopt(&o, fd, "fig") &&
	       !out_file_commit(&o), "a file drawn there is moved in");
	close(fd);
	tap_ok(!strcmp(slurp("out/a.txt", buf, sizeof(buf)), "figure\n"), "... and replaces a.txt");
	out_tmpdir_remove(priv);
	tap_ok(access(priv, F_OK) && errno == ENOENT, "the private directory is removed");
}

static void test_dirs(void)
{
	struct out_dir d;
	const char *base;

	tap_ok(!symlink(at("out"), at("dirlink")), "a symlink to the directory is planted");
	tap_ok(out_dir_open(&d, at("dirlink"), 0) == -EPERM, "a symlinked directory: -EPERM");
	tap_ok(out_dir_open(&d, at("dirlink/"), 1) == -EPERM, "... also given as DIR/, with make");
	tap_ok(out_dir_of(&d, at("dirlink/f.png"), &base) == -EPERM,
	       "the directory of a file a symlink: -EPERM");
	tap_ok(out_dir_open(&d, at("victim"), 1) == -EPERM, "a regular file as the directory: -EPERM");
	tap_ok(!out_dir_of(&d, at("out/f.png"), &base) && !strcmp(base, "f.png"),
	       "out_dir_of splits DIR/f.png");
	out_dir_close(&d);
	tap_ok(!out_dir_open(&d, at("new"), 1) && entries("new") == 0, "a missing DIR is made");
	out_dir_close(&d);
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st; (void)flag; (void)ftw;
	return remove(path) && errno != ENOENT;
}

int main(void)
{
	const char *tmp = getenv("TMPDIR");
	struct out_dir d;

	tap_plan(23);
	snprintf(root, sizeof(root), "%s/out-file-XXXXXX", tmp && *tmp == '/' ? tmp : "/tmp");
	if (!mkdtemp(root) || mkdir(at("out"), 0700))
		return 1;
	tap_ok(!out_dir_open(&d, at("out"), 0), "the output directory opens");
	test_files(&d);
	test_adopt(&d);
	out_dir_close(&d);
	test_dirs();
	nftw(root, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	return tap_done();
}
