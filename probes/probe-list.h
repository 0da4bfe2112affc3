/* SPDX-License-Identifier: MIT */
/*
 * probe-list.h - every probe, one line each. Adding a probe is one new file
 * defining `const struct probe_ops probe_<ident>` and one line here.
 */
#define PROBES(X)       \
	X(null)         \
	X(latency)      \
	X(runc)         \
	X(idle)         \
	X(cpu)          \
	X(exitcost)     \
	X(vmexit)       \
	X(hostmem)      \
	X(ksm)          \
	X(pmu)
