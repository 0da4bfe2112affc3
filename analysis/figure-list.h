/* SPDX-License-Identifier: MIT */
/*
 * figure-list.h - every figure, one line each, in the order `plot` lists
 * them and `report` draws them. Adding a figure is one new file defining
 * `const struct figure figure_<ident>` (and its gnuplot script) and one
 * line here.
 */
#define FIGURES(X)        \
	X(warm_latency)    \
	X(idle_policy)     \
	X(threads_sweep)   \
	X(runc_phases)     \
	X(start_phases)   \
	X(runc_cpus)       \
	X(runc_quota)      \
	X(runc_corunner)   \
	X(runc_parallel)   \
	X(runc_contention) \
	X(pools_sweep) \
	X(pool_depletion) \
	X(overhead) \
	X(vmexit_rate) \
	X(vm_boot) \
	X(memory) \
	X(vmexit_reasons) \
	X(memory_overhead) \
	X(memory_mixed) \
	X(consolidation) \
	X(ksm_convergence) \
	X(ipc) \
	X(ple) \
	X(plan_pareto) \
	X(plan_budget) \
	X(system_suite) \
	X(system_overhead) \
	X(seed_start) \
	X(seed_memory)
