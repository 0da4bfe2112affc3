/* SPDX-License-Identifier: MIT */
/*
 * zygote.h - `cvmfn seed`: a long-lived process holding one workload at a
 * seed layer (fork-manifest.h) that forks instances on request, and `cvmfn
 * fork-check`: N children from each layer, compared on what must differ.
 *
 * The seed protocol, SOCK_SEQPACKET records on the seed's stdin (a Unix
 * socket; one line per record):
 *
 *   seed    -> seeded pid=P layer=L build_ns=N rss_kb=R pss_kb=S
 *           or error MESSAGE                (the layer could not be built)
 *   harness -> fork    with SCM_RIGHTS [requests, replies]: the child's
 *                      protocol.h descriptors
 *   seed    -> forked pid=C                 (or error MESSAGE)
 *   child   -> started pid=C fork_ns=F init_ns=I first_call_ns=X
 *              after its first call was answered (outside every clock)
 *   EOF     -> the seed exits; children end when their requests close.
 *
 * The child greets on its own descriptors as `cvmfn serve` does, its init_ns
 * being what remained to initialise after the fork, with " fork_ns=F
 * layer=L" added: fork_ns runs from just before fork() in the seed to the
 * child's first instant (CLOCK_MONOTONIC, one clock for both).
 */
#ifndef CVMFN_ZYGOTE_H
#define CVMFN_ZYGOTE_H

#include "fork-manifest.h"
#include "workload.h"

/* Set to 1 (tests only): children keep the seed's entropy buffer. */
#define ZYGOTE_NO_RESEED_ENV "CVMFN_ZYGOTE_NO_RESEED"
/*
 * Set to N (tests only): each child writes N kB of fresh anonymous pages
 * after its layer is finished (inside init_ns), so that a test knows how
 * much a child's private memory must grow.
 */
#define ZYGOTE_TOUCH_KB_ENV "CVMFN_ZYGOTE_TOUCH_KB"

/** zygote_seed_main() - `cvmfn seed`; returns the exit code. */
int zygote_seed_main(const struct workload_ops *ops, const struct wl_params *params,
		     const struct wl_digest_policy *policy, enum seed_layer layer);
/**
 * zygote_fork_check() - `cvmfn fork-check`: @children children from each
 * layer the manifest allows; prints a line per layer. 0 when every item
 * that must differ did, else CVMFN_EXIT_FAILED.
 */
int zygote_fork_check(const struct workload_ops *ops, const struct wl_params *params,
		      int children);

#endif
