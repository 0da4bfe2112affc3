/* SPDX-License-Identifier: MIT */
/*
 * protocol.h - the warm-instance protocol between cvmbench and `cvmfn serve`.
 *
 * Line-based text over a pipe (or a virtio-serial port in a guest), one
 * request and one reply at a time. cvmfn speaks first:
 *
 *   cvmfn   -> ready pid=P init_ns=N rss_kb=R pss_kb=S threads=T
 *           or error MESSAGE               (init failed; cvmfn exits 3)
 *   harness -> invoke SEQ
 *   cvmfn   -> done SEQ ok=1 fn_ns=N
 *              digest SEQ sha256=HEX digest_ns=D   (the call was hashed)
 *           or digest SEQ none                   (--digest skipped this call;
 *                                           written with the done line at once)
 *           or digest SEQ error=MESSAGE          (hashing failed)
 *           or done SEQ ok=0 fn_ns=N error=MESSAGE   (no digest line)
 *   harness -> mem
 *   cvmfn   -> mem rss_kb=R pss_kb=S
 *   harness -> quit                        (or end of file: cvmfn tears down)
 *
 * fn_ns is the function's own time (CLOCK_MONOTONIC around invoke()); the
 * done line is written before the output is hashed, so neither fn_ns nor
 * the harness's round trip (request written to done line read) includes
 * the hash. digest_ns is the SHA-256 of the recorded output alone. Which
 * calls are hashed is `cvmfn serve --digest every|first|N` (the first call
 * of an instance always is; N: also every N-th after it).
 */
#ifndef CVMFN_PROTOCOL_H
#define CVMFN_PROTOCOL_H

#define PROTO_LINE_MAX 1024

/*
 * The model and data files: one directory for cvmbench and cvmfn, named by
 * one variable. cvmbench passes it to cvmfn as --data-dir (and as the
 * variable inside containers); `cvmfn prepare` by hand writes where a run
 * then reads.
 */
#define DATA_DIR_ENV "CVMBENCH_DATA_DIR"
#define DATA_DIR_DEFAULT "/var/tmp/cvmbench/data"

/* Exit codes of cvmfn. */
enum cvmfn_exit {
	CVMFN_EXIT_OK = 0,
	CVMFN_EXIT_FAILED = 1,      /* an invocation failed */
	CVMFN_EXIT_USAGE = 2,       /* bad command line */
	CVMFN_EXIT_INIT = 3,        /* init failed (model missing, ...) */
	CVMFN_EXIT_UNSUPPORTED = 4, /* check: the Python twin lacks a module */
};

#endif
