// SPDX-License-Identifier: MIT
/*
 * cmd-rootfs.c - `cvmbench rootfs build NAME` builds (or finds in the
 * cache) the Debian root filesystem of configs/rootfs/NAME.list and prints
 * where it is; `cvmbench rootfs disk NAME` also makes its ext4 image for
 * guests (docs/rootfs.md). A build runs under the journal (its .build-*
 * directory and mmdebstrap's pid), so `cvmbench restore` undoes a killed one.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "command.h"
#include "exitcode.h"
#include "journal.h"
#include "log.h"
#include "opts.h"
#include "rootfs.h"

static const struct opt rootfs_opts[] = {
	{ "check", 0, NULL, "build: only say whether the rootfs is cached (exit 0) or "
	  "would be built (exit 3), and its inputs key", 1 },
	OPT_END
};

static int on_opt(void *ctx, int id, const char *arg)
{
	(void)arg;
	*(int *)ctx = id;
	return 0;
}

/* --check: the cache's answer without building. */
static int rootfs_check(const char *name)
{
	char err[4096], key[65];
	struct rootfs r;
	int ret = rootfs_find(name, &r, key, err, sizeof(err));

	if (ret && ret != -ENOENT) {
		pr_err("rootfs %s: %s", name, err);
		return ret == -EINVAL ? EXIT_USAGE : EXIT_FAILED;
	}
	if (ret)
		printf("would build rootfs %s (inputs %s)\n", name, key);
	else
		printf("cached rootfs %s %s (inputs %s)\n", name, r.hash, key);
	return ret ? EXIT_SKIPPED : EXIT_OK;
}

/*
 * The journal for a build that will run (not for a cache hit, nor for a
 * list that is refused): what a killed cvmbench left is restored first, as
 * `cvmbench run` does. EXIT_OK, EXIT_USAGE (the lock is held) or EXIT_FAILED.
 */
static int build_journal(const char *name)
{
	char err[4096], key[65];
	struct rootfs r;
	int ret = rootfs_find(name, &r, key, err, sizeof(err));

	if (ret != -ENOENT)
		return EXIT_OK;      /* cached, or an error the build says again */
	ret = journal_lock_host(0, err, sizeof(err)) ?: journal_open(err, sizeof(err));
	if (!ret && journal_restore_all(stderr, NULL) < 0)
		snprintf(err, sizeof(err), "cannot restore from journal %s", journal_path());
	else if (!ret)
		return EXIT_OK;
	pr_err("rootfs %s: %s", name, err);
	journal_close();
	return ret == -EBUSY || ret == -EPERM ? EXIT_USAGE : EXIT_FAILED;
}

static int rootfs_sub(int argc, char **argv, int disk)
{
	char synopsis[64], err[4096], img[4096];
	struct rootfs r;
	int first, ret, check = 0;

	snprintf(synopsis, sizeof(synopsis), "rootfs %s [--check] NAME", disk ? "disk" : "build");
	ret = opts_parse(argc, argv, synopsis, rootfs_opts, on_opt, &check, &first);
	if (ret)
		return ret == 1 ? EXIT_OK : EXIT_USAGE;
	if (first != argc - 1) {
		fprintf(stderr, "cvmbench %s: name one rootfs (configs/rootfs/NAME.list)\n",
			synopsis);
		return EXIT_USAGE;
	}
	if (check)
		return rootfs_check(argv[first]);
	ret = build_journal(argv[first]);
	if (ret)
		return ret;
	ret = rootfs_build(argv[first], &r, err, sizeof(err));
	if (!ret && disk)
		ret = rootfs_disk(&r, img, sizeof(img), err, sizeof(err));
	journal_close();
	if (ret) {
		pr_err("rootfs %s: %s", argv[first], err);
		return ret == -EINVAL || ret == -ENOENT ? EXIT_USAGE : EXIT_FAILED;
	}
	printf("%s rootfs %s %s\ntree     %s\nmanifest %s\n", r.cached ? "cached" : "built",
	       r.name, r.hash, r.tree, r.manifest);
	if (disk)
		printf("disk     %s\n", img);
	return EXIT_OK;
}

int cmd_rootfs(int argc, char **argv)
{
	const char *sub = argc > 1 ? argv[1] : "";

	if (!strcmp(sub, "build") || !strcmp(sub, "disk"))
		return rootfs_sub(argc - 1, argv + 1, !strcmp(sub, "disk"));
	if (!strcmp(sub, "--help")) {
		printf("usage: cvmbench rootfs build|disk [--check] NAME  (the lists: configs/rootfs/*.list)\n");
		return EXIT_OK;
	}
	fprintf(stderr, "cvmbench rootfs: expected build or disk%s%s\n", *sub ? ", not " : "",
		sub);
	return EXIT_USAGE;
}
