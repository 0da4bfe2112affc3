// SPDX-License-Identifier: MIT
/*
 * cmd-agent.c - `cvmbench agent`: the instance side of the agent protocol
 * (docs/agent.md) on stdin/stdout, the way a guest's agent serves it on a
 * virtio-serial port: requests in, rows and acks out, as they are made.
 * A `cvmbench run` does not need it (it runs the agent in-process); it is
 * here to drive the instance probes by hand and to test the byte stream.
 * It opens no database and no journal: a probe part that needs the journal
 * (idle's tracefs cross-check) is a skip row saying so.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

#include "agent.h"
#include "command.h"
#include "exitcode.h"
#include "log.h"
#include "opts.h"

static const struct opt agent_opts[] = { OPT_END };

static int on_opt(void *ctx, int id, const char *arg)
{
	(void)ctx;
	(void)id;
	(void)arg;
	return 0;
}

int cmd_agent(int argc, char **argv)
{
	static const char synopsis[] = "agent   (the agent protocol on stdin/stdout)";
	struct probe_target target = { 0 };
	char who[64];
	int first, out = 1, ret = opts_parse(argc, argv, synopsis, agent_opts, on_opt, NULL,
					     &first);
	struct agent *a;

	if (ret)
		return ret == 1 ? EXIT_OK : EXIT_USAGE;
	if (first < argc) {
		pr_err("agent: unexpected argument '%s'", argv[first]);
		return EXIT_USAGE;
	}
	signal(SIGPIPE, SIG_IGN);
	snprintf(who, sizeof(who), "cvmbench agent (pid %d)", (int)getpid());
	a = agent_new(&target, who, agent_fd_writer, &out);
	if (!a)
		return EXIT_FAILED;
	ret = agent_serve(a, 0);
	agent_free(a);
	if (ret)
		pr_err("agent: %s", ret == -EPROTO ? "line too long" : "cannot write a row");
	return ret ? EXIT_FAILED : EXIT_OK;
}
