// SPDX-License-Identifier: MIT
/*
 * cmd-restore.c - `cvmbench restore`: undo what a crashed or killed run
 * left behind, from the journal: settings get their old values back, and
 * processes cvmbench started are ended (only those, checked by start time).
 */
#include <stdio.h>

#include "command.h"
#include "exitcode.h"
#include "journal.h"
#include "log.h"
#include "opts.h"

static const struct opt restore_opts[] = { OPT_END };

static int no_opt(void *ctx, int id, const char *arg)
{
	(void)ctx;
	(void)id;
	(void)arg;
	return 0;
}

int cmd_restore(int argc, char **argv)
{
	static const char synopsis[] = "restore";
	char err[512];
	int first, ret = opts_parse(argc, argv, synopsis, restore_opts, no_opt, NULL, &first);

	if (ret)
		return ret == 1 ? EXIT_OK : EXIT_USAGE;
	if (journal_open(err, sizeof(err))) {
		pr_err("%s", err);
		return EXIT_FAILED;
	}
	ret = journal_restore_all(stdout);
	journal_close();
	if (ret < 0) {
		pr_err("restore failed");
		return EXIT_FAILED;
	}
	printf("%d entr%s restored from %s\n", ret, ret == 1 ? "y" : "ies", journal_path());
	return EXIT_OK;
}
