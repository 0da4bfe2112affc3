// SPDX-License-Identifier: MIT
/*
 * guest-accept.c - the guest-accept key (bench/backends/qemu/guest-accept.c):
 * what each confidential type gets for eager and lazy with a guest kernel
 * before, at and after Linux 6.5 (and unknown); a kernel's release read
 * from a bzImage header written here by the x86 boot protocol's layout,
 * and from a cached built guest against its manifest.json (the package's
 * own release, written when it was built); the config's refusal beside
 * confidential = none cells and the cell keys that stay as they were.
 */
#include <errno.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config-test.h"
#include "guest-accept.h"
#include "tap.h"

static void check_plan(const char *conf, const char *accept, const char *release, int want_ret,
		       const char *want_value, const char *want_note, const char *what)
{
	const char *value = "unset";
	char note[512];
	int ret = guest_accept_plan(conf, accept, release, &value, note, sizeof(note));
	int ok = ret == want_ret && (want_value ? value && !strcmp(value, want_value) : !value) &&
		 (want_note[0] ? strstr(note, want_note) != NULL : !note[0]);

	tap_ok(ok, "%s", what);
	if (!ok)
		printf("#   ret %d value %s note '%s'\n", ret, value ? value : "NULL", note);
}

static void test_plans(void)
{
	check_plan("model", "eager", "", 0, "eager", "prealloc=on", "model eager: preallocated");
	check_plan("model", "lazy", "6.1.0-57-cloud-amd64", 0, "lazy", "prealloc=off",
		   "model lazy: on touch, whatever the kernel");
	check_plan("none", "eager", "6.12.38", 0, NULL, "", "none: nothing, no note");
	check_plan("sev-snp", "eager", "6.1.0-57-cloud-amd64", 0, NULL,
		   "guest kernel 6.1.0-57-cloud-amd64 has no unaccepted memory",
		   "sev-snp eager, 6.1: nothing given, eager by itself (noted)");
	check_plan("sev-snp", "lazy", "6.1.0-57-cloud-amd64", 1, "lazy",
		   "Linux >= 6.5, e.g. bookworm-backports' 6.12: guest-kernel = its bzImage); "
		   "guest kernel 6.1.0-57-cloud-amd64 has none",
		   "sev-snp lazy, 6.1: a skip naming the kernel and why");
	check_plan("tdx", "lazy", "6.4.16", 1, "lazy", "guest kernel 6.4.16 has none",
		   "tdx lazy, 6.4: a skip");
	check_plan("tdx", "lazy", "5.19.0", 1, "lazy", "5.19.0", "tdx lazy, 5.19: a skip");
	check_plan("tdx", "lazy", "6.5.0", 0, "lazy", "accept_memory=lazy (guest kernel 6.5.0",
		   "tdx lazy, 6.5: accept_memory=lazy");
	check_plan("sev-snp", "eager", "6.12.38+deb12-cloud-amd64", 0, "eager",
		   "accept_memory=eager", "sev-snp eager, 6.12: accept_memory=eager");
	check_plan("sev-snp", "lazy", "7.0.1", 0, "lazy", "accept_memory=lazy",
		   "sev-snp lazy, 7.0: accept_memory=lazy");
	check_plan("sev-snp", "lazy", "", 0, "lazy", "release is unknown",
		   "sev-snp lazy, unknown kernel: given, said unverified");
}

/* A bzImage header: "HdrS", protocol @proto, kernel_version at 0x200 + 0x300 = @version. */
static int write_bzimage(const char *path, unsigned int proto, const char *version)
{
	unsigned char img[4096] = { 0 };
	FILE *f = fopen(path, "w");
	size_t ok;

	memcpy(img + 0x202, "HdrS", 4);
	img[0x206] = proto & 0xff;
	img[0x207] = proto >> 8;
	if (version) {
		img[0x20e] = 0x00;
		img[0x20f] = 0x03;
		memcpy(img + 0x500, version, strlen(version) + 1);
	}
	if (!f)
		return -1;
	ok = fwrite(img, sizeof(img), 1, f);
	return fclose(f) || ok != 1 ? -1 : 0;
}

static void test_release(const char *dir)
{
	char path[512], rel[128] = "";
	int ret;

	snprintf(path, sizeof(path), "%s/bz", dir);
	write_bzimage(path, 0x20f, "6.12.38+deb12-cloud-amd64 (debian-kernel@lists.debian.org) "
		      "#1 SMP PREEMPT_DYNAMIC Debian 6.12.38-1~bpo12+1");
	ret = guest_bzimage_release(path, rel, sizeof(rel));
	tap_ok(!ret && !strcmp(rel, "6.12.38+deb12-cloud-amd64"),
	       "release: the first word of the header's version string (%s)", rel);
	write_bzimage(path, 0x20f, NULL);
	tap_ok(guest_bzimage_release(path, rel, sizeof(rel)) == -ENODATA,
	       "release: no version string: -ENODATA (unknown)");
	write_bzimage(path, 0x1ff, "6.12.38");
	tap_ok(guest_bzimage_release(path, rel, sizeof(rel)) == -ENODATA,
	       "release: boot protocol < 2.00 has no version field: -ENODATA");
	snprintf(path, sizeof(path), "%s/none", dir);
	tap_ok(guest_bzimage_release(path, rel, sizeof(rel)) == -ENOENT,
	       "release: a missing file: -ENOENT");
}

/* A cached built guest's kernel against the release its manifest.json names. */
static void test_cached_guest(void)
{
	char rel[128] = "", want[160] = "", line[512], pat[600];
	const char *dir = getenv("CVMBENCH_CACHE_DIR");
	glob_t g;
	FILE *f;

	snprintf(pat, sizeof(pat), "%s/guest/*/manifest.json", dir ? dir : "/var/cache/cvmbench");
	if (glob(pat, 0, NULL, &g) || !g.gl_pathc) {
		printf("ok %d # SKIP no cached built guest (%s)\n", ++tap_count, pat);
		return;
	}
	f = fopen(g.gl_pathv[0], "r");
	while (f && fgets(line, sizeof(line), f))
		sscanf(line, " \"kernel_release\": \"%159[^\"]\"", want);
	if (f)
		fclose(f);
	snprintf(strrchr(g.gl_pathv[0], '/'), sizeof("/manifest.json"), "/vmlinuz");
	guest_bzimage_release(g.gl_pathv[0], rel, sizeof(rel));
	tap_ok(want[0] && !strcmp(rel, want), "a built guest's bzImage says %s, its manifest %s",
	       rel, want);
	globfree(&g);
}

static void test_config(void)
{
	static const char base[] = "[experiment a]\nworkload = hello-world\nbackend = qemu\n";
	char text[1024], err[1024], key_without[sizeof(((struct cell *)0)->key)] = "";
	struct cell *cells;
	size_t n, i;
	int ok;

	snprintf(text, sizeof(text), "[defaults]\nguest-accept = lazy\nconfidential = none, "
		 "model\n%s", base);
	expect_error(text, "t.ini:2: [experiment a] guest-accept = lazy: applies to "
		     "confidential = model, sev-snp or tdx", "refused beside a none cell, naming "
		     "file:line and value");
	snprintf(text, sizeof(text), "%sguest-accept = eager, lazy\n", base);
	expect_error(text, "t.ini:4: [experiment a] guest-accept = eager, lazy: applies",
		     "refused with the default confidential = none too");
	snprintf(text, sizeof(text), "%sguest-accept = eager\n", base);
	tap_ok(!load_expand(text, &cells, &n, err, sizeof(err)) && n == 1,
	       "the default (eager) written beside none cells passes: it changes nothing (%s)",
	       err);
	config_cells_free(cells, n);
	snprintf(text, sizeof(text), "%sconfidential = model\n", base);
	if (!load_expand(text, &cells, &n, err, sizeof(err)) && n == 1)
		snprintf(key_without, sizeof(key_without), "%s", cells[0].key);
	config_cells_free(cells, n);
	snprintf(text, sizeof(text), "%sconfidential = model\nguest-accept = eager, lazy\n", base);
	ok = !load_expand(text, &cells, &n, err, sizeof(err)) && n == 2;
	for (i = 0; ok && i < n; i++)
		ok = !strcmp(cells[i].guest_accept, i ? "lazy" : "eager") &&
		     !strcmp(cells[i].key, key_without) == !i;
	tap_ok(ok, "model x eager, lazy: two cells; the eager one keeps the key it had "
	       "without the key (%s), the lazy one a new one (%s)", key_without, err);
	config_cells_free(cells, n);
}

int main(void)
{
	char dir[] = "/tmp/guest-accept-XXXXXX", bz[sizeof(dir) + 8];

	tap_plan(11 + 4 + 1 + 4);
	test_plans();
	if (!mkdtemp(dir)) {
		printf("Bail out! mkdtemp: %s\n", strerror(errno));
		return 1;
	}
	test_release(dir);
	test_cached_guest();
	test_config();
	snprintf(bz, sizeof(bz), "%s/bz", dir);
	unlink(bz);
	rmdir(dir);
	return tap_done();
}
