/* SPDX-License-Identifier: MIT */
/* exitcode.h - what cvmbench's exit status means (also in the README). */
#ifndef CVMBENCH_EXITCODE_H
#define CVMBENCH_EXITCODE_H

enum cvmbench_exit {
	EXIT_OK = 0,              /* everything asked for was measured */
	EXIT_FAILED = 1,          /* something failed (a cell, a write, a probe) */
	EXIT_USAGE = 2,           /* bad command line, config or database */
	EXIT_SKIPPED = 3,         /* finished, but some cells or probes were skipped */
	EXIT_INTERRUPTED = 130,   /* stopped by SIGINT/SIGTERM; rows kept */
};

#endif
