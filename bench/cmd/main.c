// SPDX-License-Identifier: MIT
/*
 * main.c - cvmbench: measure what confidential VMs cost serverless
 * functions. Dispatches to one subcommand (command.h); only main exits.
 */
#include <stdio.h>
#include <string.h>

#include "command.h"
#include "exitcode.h"
#include "log.h"
#include "version.h"

struct command {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *summary;
};

static const struct command commands[] = {
	{ "run", cmd_run, "run the cells of an experiment config into a database" },
	{ "study", cmd_study, "run a named set of configs into one database (resumable), "
	  "then one report of them all (docs/artifact.md)" },
	{ "list", cmd_list, "workloads, probes and experiments, and what is supported here" },
	{ "env", cmd_env, "what this machine offers (CPU, hypervisor, CVM, cpuidle, KSM, ...)" },
	{ "show", cmd_show, "runs, cells, skips and errors of a database" },
	{ "export", cmd_export, "cells, invocations, metrics and runc phases as CSV or JSON" },
	{ "plot", cmd_plot, "draw one figure with gnuplot" },
	{ "report", cmd_report, "every figure and table, as Markdown and HTML" },
	{ "restore", cmd_restore, "undo what a crashed run left (settings, processes)" },
	{ "agent", cmd_agent, "serve the instance-side probes on stdin/stdout (docs/agent.md)" },
	{ "calibrate", cmd_calibrate, "test the counting engines against counts they make "
	  "(counters, vmexit)" },
	{ "guest", cmd_guest, "build the qemu guest image and data disks; boot a guest" },
	{ "compare", cmd_compare, "paired overheads (CVM vs regular) with confidence intervals" },
	{ "merge", cmd_merge, "merge databases of several machines into one" },
	{ "slurm", cmd_slurm, "an sbatch array script of a config in shards, merged (--submit)" },
	{ "plan", cmd_plan, "warm-pool capacity: a trace through keep-alive policies "
	  "(docs/capacity.md)" },
	{ "minmem", cmd_minmem, "the minimum guest memory of functions per VM type, by real "
	  "boots (docs/capacity.md)" },
	{ "replay", cmd_replay, "a trace run for real through a keep-alive pool, against the "
	  "planner's simulator (docs/capacity.md)" },
	{ "trace", cmd_trace, "write a seeded synthetic invocation trace (Azure 2019 format)" },
	{ "rootfs", cmd_rootfs, "build a Debian root filesystem for containers and guests" },
	{ "qemu-argv", cmd_qemu_argv, "the QEMU command line of a qemu cell, without running it" },
};

#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

static void usage(FILE *out)
{
	size_t i;

	fprintf(out, "usage: cvmbench [-v|-q] COMMAND [options]   (cvmbench help COMMAND, or "
		"cvmbench COMMAND --help)\n"
		"version %s\ncommands:\n", cvmbench_version);
	for (i = 0; i < NCOMMANDS; i++)
		fprintf(out, "  %-9s %s\n", commands[i].name, commands[i].summary);
	fprintf(out, "exit codes: 0 ok, 1 failed, 2 usage/config error, 3 finished with "
		"skips, 130 interrupted\n");
}

int main(int argc, char **argv)
{
	size_t i;

	while (argc > 1 && (!strcmp(argv[1], "-v") || !strcmp(argv[1], "-q"))) {
		log_set_level(argv[1][1] == 'v' ? LOG_DBG : LOG_WARN);
		argv++;
		argc--;
	}
	/* `cvmbench help COMMAND` is `cvmbench COMMAND --help` */
	if (argc > 2 && !strcmp(argv[1], "help")) {
		char *help_argv[] = { argv[2], "--help", NULL };

		for (i = 0; i < NCOMMANDS; i++)
			if (!strcmp(argv[2], commands[i].name))
				return commands[i].run(2, help_argv);
		fprintf(stderr, "cvmbench help: unknown command '%s'\n", argv[2]);
		usage(stderr);
		return EXIT_USAGE;
	}
	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return argc < 2 ? EXIT_USAGE : EXIT_OK;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("cvmbench %s\n", cvmbench_version);
		return EXIT_OK;
	}
	for (i = 0; i < NCOMMANDS; i++)
		if (!strcmp(argv[1], commands[i].name))
			return commands[i].run(argc - 1, argv + 1);
	fprintf(stderr, "cvmbench: unknown command '%s'\n", argv[1]);
	usage(stderr);
	return EXIT_USAGE;
}
