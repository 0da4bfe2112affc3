// SPDX-License-Identifier: MIT
/*
 * cmd-restore.c - `cvmbench restore`: undo what a crashed or killed run
 * left behind, from the journal: settings get their old values back,
 * processes cvmbench started are ended (only those, checked by start
 * time), objects are removed by the module owning their kind, and runs
 * left `running` are marked `interrupted`. Takes the host-settings lock.
 */
#include <errno.h>
#include <stdio.h>

#include "command.h"
#include "exitcode.h"
#include "journal.h"
#include "log.h"
#include "opts.h"

enum { RESTORE_WAIT_LOCK };

static const struct opt restore_opts[] = {
	{ "wait-lock", 1, "SECONDS", "wait this long for a running cvmbench's "
	  "host-settings lock (default 0: refuse at once)", RESTORE_WAIT_LOCK },
	OPT_END
};

static int on_opt(void *ctx, int id, const char *arg)
{
	(void)id;
	return opts_seconds("restore", "--wait-lock", arg, ctx);
}

int cmd_restore(int argc, char **argv)
{
	static const char synopsis[] =
		"restore [--wait-lock SECONDS]\n"
		"Undo what a crashed or killed `cvmbench run` left behind, from its journal\n"
		"(the file journal in the state directory: $CVMBENCH_STATE_DIR, else\n"
		"/var/lib/cvmbench as root, else $HOME/.local/state/cvmbench): host settings\n"
		"get their old values back (cpuidle, guest_halt_poll_ns, KSM, THP, ...),\n"
		"processes cvmbench started are ended (only those), tracefs instances,\n"
		"cgroups and bundles it made are removed, and runs left `running` are marked\n"
		"`interrupted`. A run does this itself when it starts after a crash; set\n"
		"CVMBENCH_STATE_DIR as the crashed run had it. Exit 0 when everything was\n"
		"undone, 1 when something could not be, 2 when another run holds the lock.";
	char err[1024];
	double wait_s = 0;
	int first, failed = 0;
	int ret = opts_parse(argc, argv, synopsis, restore_opts, on_opt, &wait_s, &first);

	if (ret)
		return ret == 1 ? EXIT_OK : EXIT_USAGE;
	ret = journal_lock_host(wait_s, err, sizeof(err));
	ret = ret ?: journal_open(err, sizeof(err));
	if (ret) {
		pr_err("%s", err);
		journal_close();
		return ret == -EBUSY || ret == -EPERM ? EXIT_USAGE : EXIT_FAILED;
	}
	ret = journal_restore_all(stdout, &failed);
	journal_close();
	if (ret < 0) {
		pr_err("restore failed");
		return EXIT_FAILED;
	}
	printf("%d entr%s restored from %s\n", ret, ret == 1 ? "y" : "ies", journal_path());
	if (failed) {
		pr_err("%d of them could not be undone (see above)", failed);
		return EXIT_FAILED;
	}
	return EXIT_OK;
}
