// SPDX-License-Identifier: MIT
/*
 * cvmload.c - cvmload, the system suite's open-loop HTTP load generator
 * (docs/experiments/system-suite.md, "Load generators and parsers"): a
 * fixed request rate whose latencies run from each request's intended send
 * time, as wrk2 measures (no coordinated omission). Static, so it can be
 * copied into a guest image. Exit 0 with the report on stdout (failed
 * requests are counted there), 1 if it could not run, 2 for a bad argument.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loadgen-args.h"
#include "loadgen-report.h"
#include "loadgen-run.h"

int main(int argc, char **argv)
{
	struct loadgen_opts o;
	struct loadgen_result r;
	char err[512];

	if (argc == 2 && !strcmp(argv[1], "--help")) {
		fputs(loadgen_usage(), stdout);
		return 0;
	}
	if (loadgen_args(argc, argv, &o, err, sizeof(err))) {
		fprintf(stderr, "cvmload: %s\n%s", err, loadgen_usage());
		return 2;
	}
	if (loadgen_run(&o, &r, err, sizeof(err))) {
		fprintf(stderr, "cvmload: %s\n", err);
		free(r.req);
		return 1;
	}
	if (o.dump && loadgen_dump(o.dump, &r)) {
		perror("cvmload: --dump");
		free(r.req);
		return 1;
	}
	if (loadgen_report(stdout, &o, &r)) {
		fprintf(stderr, "cvmload: out of memory for the report\n");
		free(r.req);
		return 1;
	}
	free(r.req);
	return fflush(stdout) ? 1 : 0;
}
