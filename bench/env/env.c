// SPDX-License-Identifier: MIT
/*
 * env.c - the environment capture driver: runs every collector of the
 * ENV_COLLECTORS list (env-local.h) in order, each reading its own part of
 * the machine (env-cpu.c, env-topology.c, ... env-tools.c).
 */
#include "env-local.h"
#include "sysroot.h"

typedef void (*env_collector_fn)(const struct env_sink *s);

#define ENV_COLLECTOR_ENTRY(name) env_collect_##name,
static const env_collector_fn env_collectors[] = {
	ENV_COLLECTORS(ENV_COLLECTOR_ENTRY)
};
#undef ENV_COLLECTOR_ENTRY

/**
 * env_collect() - call @emit for every fact this machine offers.
 * @emit: receives key, value and source of each fact
 * @ctx: passed to @emit unchanged
 *
 * Facts that cannot be read are emitted with the value
 * "unavailable: <reason>" rather than left out.
 */
void env_collect(env_emit_fn emit, void *ctx)
{
	const struct env_sink s = { .emit = emit, .ctx = ctx };
	size_t i;

	if (sysroot())      /* a test's captured machine, never a real run */
		env_put(&s, "sysroot", SYSROOT_ENV, "%s", sysroot());
	for (i = 0; i < sizeof(env_collectors) / sizeof(env_collectors[0]); i++)
		env_collectors[i](&s);
}
