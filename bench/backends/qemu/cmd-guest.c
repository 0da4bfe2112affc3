// SPDX-License-Identifier: MIT
/*
 * cmd-guest.c - `cvmbench guest build | disk | boot`: build (or find in
 * the cache) the guest image and a workload's data disk, and boot a guest
 * to its ready line (cmd-guest-boot.c) - the pieces the qemu backend uses.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd-guest.h"
#include "command.h"
#include "exitcode.h"
#include "guest.h"
#include "log.h"
#include "opts.h"

enum { OPT_KPKG, OPT_OUT, OPT_SIZE, OPT_SEED, OPT_VARIANT };

static const struct opt build_opts[] = {
	{ "kernel-package", 1, "PKG", "linux-image-cloud-amd64 (default) or "
	  "linux-image-amd64, or a versioned linux-image-* package", OPT_KPKG },
	{ "out", 1, "DIR", "write the image into DIR (default: the cache, "
	  "$CVMBENCH_CACHE_DIR or /var/cache/cvmbench, under guest/<hash>)", OPT_OUT },
	OPT_END
};

static const struct opt disk_opts[] = {
	{ "size", 1, "SIZE", "input size: test (default), small or large", OPT_SIZE },
	{ "seed", 1, "N", "seed of the model and inputs (default 1)", OPT_SEED },
	{ "variant", 1, "NAME", "a variant the workload lists (default: none), "
	  "e.g. resnet152", OPT_VARIANT },
	OPT_END
};

struct guest_args {
	struct guest_build_opts b;
	const char *size, *seed, *variant;
};

static int guest_opt(void *ctx, int id, const char *arg)
{
	struct guest_args *a = ctx;

	switch (id) {
	case OPT_KPKG: a->b.kernel_package = arg; break;
	case OPT_OUT: a->b.out_dir = arg; break;
	case OPT_SIZE: a->size = arg; break;
	case OPT_VARIANT: a->variant = arg; break;
	default: a->seed = arg; break;
	}
	return 0;
}

static int guest_build(int argc, char **argv)
{
	static const char synopsis[] = "guest build [--kernel-package PKG] [--out DIR]";
	struct guest_args a = { { 0 }, NULL, NULL, NULL };
	struct guest_image img;
	char err[2048];
	int first, ret = opts_parse(argc, argv, synopsis, build_opts, guest_opt, &a, &first);

	if (ret)
		return ret == 1 ? EXIT_OK : EXIT_USAGE;
	if (first < argc) {
		fprintf(stderr, "cvmbench guest build: unexpected argument '%s'\n", argv[first]);
		return EXIT_USAGE;
	}
	ret = guest_image_build(&a.b, &img, err, sizeof(err));
	if (ret) {
		pr_err("guest build: %s", err);
		return ret == -EINVAL ? EXIT_USAGE : EXIT_FAILED;
	}
	printf("%s guest image %s\nkernel   %s\ninitrd   %s\nmanifest %s\n",
	       img.cached ? "cached" : "built", img.hash, img.kernel, img.initrd, img.manifest);
	return EXIT_OK;
}

/* @s as a seed: decimal digits only. */
static int parse_seed(const char *s, unsigned long long *seed)
{
	char *end;

	errno = 0;
	*seed = strtoull(s, &end, 10);
	if (!*s || s[strspn(s, "0123456789")] || errno || *end) {
		fprintf(stderr, "cvmbench guest disk: --seed '%s': expected a whole number\n", s);
		return -EINVAL;
	}
	return 0;
}

static int guest_disk(int argc, char **argv)
{
	static const char synopsis[] = "guest disk WORKLOAD [--size SIZE] [--seed N] "
		"[--variant NAME]";
	struct guest_args a = { { 0 }, "test", "1", NULL };
	struct guest_disk d;
	unsigned long long seed;
	char err[2048];
	int first, ret = opts_parse(argc, argv, synopsis, disk_opts, guest_opt, &a, &first);

	if (ret)
		return ret == 1 ? EXIT_OK : EXIT_USAGE;
	if (first != argc - 1) {
		fprintf(stderr, "cvmbench guest disk: name one workload\n");
		return EXIT_USAGE;
	}
	if (parse_seed(a.seed, &seed))
		return EXIT_USAGE;
	ret = guest_disk_build(argv[first], a.variant, a.size, seed, NULL, &d, err, sizeof(err));
	if (ret) {
		pr_err("guest disk: %s", err);
		return ret == -EINVAL ? EXIT_USAGE : EXIT_FAILED;
	}
	printf("%s data disk %s (%lld bytes)\n", d.cached ? "cached" : "built", d.path, d.bytes);
	return EXIT_OK;
}

int cmd_guest(int argc, char **argv)
{
	const char *sub = argc > 1 ? argv[1] : "";

	if (!strcmp(sub, "build"))
		return guest_build(argc - 1, argv + 1);
	if (!strcmp(sub, "disk"))
		return guest_disk(argc - 1, argv + 1);
	if (!strcmp(sub, "boot"))
		return guest_boot(argc - 1, argv + 1);
	if (!strcmp(sub, "--help")) {
		printf("usage: cvmbench guest build|disk|boot [options]  "
		       "(cvmbench guest SUB --help)\n");
		return EXIT_OK;
	}
	fprintf(stderr, "cvmbench guest: expected build, disk or boot%s%s\n",
		*sub ? ", not " : "", sub);
	return EXIT_USAGE;
}
