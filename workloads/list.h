/* SPDX-License-Identifier: MIT */
/*
 * list.h - every workload cvmfn hosts, one line each. Adding a workload is
 * one new file defining `const struct workload_ops wl_<ident>` and one line
 * here. Keep the list in the order `cvmfn list` prints it.
 */
#define WORKLOADS(X)            \
	X(null)                 \
	X(hello_world)
