/* SPDX-License-Identifier: MIT */
/*
 * loadgen-args.h - cvmload's command line: the target URL (an IP literal,
 * never a name to resolve), the fixed rate, the measured duration, the
 * connections, the warm-up and the drain timeout.
 */
#ifndef CVMBENCH_LOADGEN_ARGS_H
#define CVMBENCH_LOADGEN_ARGS_H

#include <stddef.h>
#include <sys/socket.h>

#define LOADGEN_MAX_REQUESTS 100000000LL
#define LOADGEN_MAX_CONNECTIONS 10000

struct loadgen_opts {
	const char *url;
	struct sockaddr_storage addr;
	socklen_t addrlen;
	char host[96];           /* the Host header: the URL's host[:port] */
	char path[1024];
	double rate;             /* requests per second */
	double duration;         /* measured seconds */
	double warmup;           /* seconds sent but not measured, before */
	double timeout;          /* seconds to wait for answers after the last send */
	int connections;
	const char *dump;        /* a file for one line per request, or NULL */
};

/**
 * loadgen_args() - parse argv into @o. 0, or -1 with @err naming the
 * option and the value refused (cvmload then exits 2).
 */
int loadgen_args(int argc, char **argv, struct loadgen_opts *o, char *err, size_t errlen);

/** loadgen_usage() - the usage text. */
const char *loadgen_usage(void);

#endif
