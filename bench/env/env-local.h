/* SPDX-License-Identifier: MIT */
/*
 * env-local.h - internals shared by the env-*.c collectors: the sink a
 * collector emits through, helpers that read small sysfs/procfs files, the
 * list of collectors (one X-macro), and CPUID helpers.
 */
#ifndef CVMBENCH_ENV_LOCAL_H
#define CVMBENCH_ENV_LOCAL_H

#include <stddef.h>

#include "env.h"

/* Where a collector sends its facts. */
struct env_sink {
	env_emit_fn emit;
	void *ctx;
};

/* Value of a fact that could not be read: "unavailable: <reason>". */
#define ENV_UNAVAILABLE "unavailable: "

/* The collectors, in the order their facts are emitted. */
#define ENV_COLLECTORS(X)	\
	X(cpu)			\
	X(topology)		\
	X(memory)		\
	X(kernel)		\
	X(hypervisor)		\
	X(cvm)			\
	X(idle)			\
	X(memfeat)		\
	X(kvm)			\
	X(tracefs)		\
	X(pmu)			\
	X(tools)		\
	X(machine)		\
	X(cvmhost)

#define ENV_DECLARE_COLLECTOR(name) \
	void env_collect_##name(const struct env_sink *s);
ENV_COLLECTORS(ENV_DECLARE_COLLECTOR)
#undef ENV_DECLARE_COLLECTOR

/* env-util.c */
void env_put(const struct env_sink *s, const char *key, const char *source,
	     const char *fmt, ...) __attribute__((format(printf, 4, 5)));
void env_put_unavail(const struct env_sink *s, const char *key,
		     const char *source, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
int env_put_file(const struct env_sink *s, const char *key, const char *path);
int env_first_line(const char *path, char *buf, size_t len);
int env_put_dir(const struct env_sink *s, const char *prefix,
		const char *dir);
const char *env_selected(const char *line, char *out, size_t len);
int env_cpuinfo_field(const char *field, char *buf, size_t len);
int env_cpuinfo_has_flag(const char *flag);

/* env-hypervisor.c */
unsigned int env_cpuid_max(unsigned int base);
void env_cpuid_string(unsigned int leaf, int edx_first, char out[13]);

/* env-pmu.c */
int env_pmu_open(void);

/* env-run.c */
int env_run_capture(char *const argv[], char *buf, size_t len,
		    int timeout_s, int *status);
int env_which(const char *name, char *path, size_t len);

#endif
