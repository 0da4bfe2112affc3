// SPDX-License-Identifier: MIT
/*
 * tests/unit/workload-ops.c - what wl_instance_open() does for a workload
 * (issue 11.6): it refuses a --variant the ops do not list, before init;
 * it allocates state_size zeroed bytes before init and frees them after
 * teardown, also when init fails (teardown runs exactly once); every
 * workload with an init or a teardown takes its state so. Each ops points
 * at its own entry of the registry (workload-registry.c). And the
 * registry: every workload declares its variants, but video-processing,
 * which parses its own (solid:R,G,B) and answers wl_variant_check()
 * through its variant_check: every workload refuses an unknown variant
 * without an instance too (a config's variant key, guest disk).
 */
#include <errno.h>
#include <string.h>

#include "tap.h"
#include "workload.h"

struct fake_state {
	char bytes[4096];
};

static int inits, teardowns, zeroed;
static void *seen;

static int fake_init(struct wl_instance *inst)
{
	struct fake_state *st = inst->priv;
	size_t i;

	inits++;
	seen = st;
	zeroed = st != NULL;
	for (i = 0; st && i < sizeof(st->bytes); i++)
		zeroed &= !st->bytes[i];
	if (st)
		memset(st->bytes, 0xa5, sizeof(st->bytes));
	return inst->params.seed == 13 ? wl_error(inst, -EIO, "fake: init fails") : 0;
}

static void fake_teardown(struct wl_instance *inst)
{
	teardowns += inst->priv == seen;
}

static const struct workload_info fake_info = { .name = "fake", .variants = "alpha|beta" };
static const struct workload_info none_info = { .name = "fake", .variants = WL_NO_VARIANTS };

static const struct workload_ops fake = {
	.version = WL_OPS_VERSION,
	.info = &fake_info,
	.state_size = sizeof(struct fake_state),
	.init = fake_init,
	.teardown = fake_teardown,
};

static int open_with(const struct workload_ops *ops, const char *variant, uint64_t seed,
		     struct wl_instance *inst)
{
	struct wl_params p = { .size = WL_SIZE_TEST, .seed = seed, .threads = 1,
			       .variant = variant, .data_dir = "/nonexistent/cvmbench-test" };

	inits = teardowns = zeroed = 0;
	seen = NULL;
	return wl_instance_open(inst, ops, &p);
}

static void test_variants(void)
{
	struct workload_ops none = fake;
	struct wl_instance inst;

	tap_ok(open_with(&fake, "gamma", 1, &inst) == -EINVAL && !inits,
	       "an unlisted variant is refused before init");
	tap_contains(inst.error, "fake: unknown variant 'gamma' (variants: alpha, beta)",
		     "naming it and the variants");
	tap_ok(open_with(&fake, "alph", 1, &inst) == -EINVAL &&
	       open_with(&fake, "alpha|beta", 1, &inst) == -EINVAL &&
	       open_with(&fake, "", 1, &inst) == -EINVAL, "a part of a name is not a name");
	tap_ok(open_with(&fake, "beta", 1, &inst) == 0 && inits == 1, "a listed one is taken");
	wl_instance_close(&inst);
	none.info = &none_info;
	tap_ok(open_with(&none, "alpha", 1, &inst) == -EINVAL && !inits,
	       "WL_NO_VARIANTS refuses every variant");
	tap_contains(inst.error, "fake has no variants (got 'alpha')", "saying so");
}

static void test_state(void)
{
	struct wl_instance inst;

	tap_ok(open_with(&fake, NULL, 1, &inst) == 0 && inits == 1 && zeroed,
	       "init gets state_size zeroed bytes in inst->priv");
	wl_instance_close(&inst);
	tap_ok(teardowns == 1 && !inst.priv, "close: teardown once, then the state is freed");
	tap_ok(open_with(&fake, NULL, 13, &inst) == -EIO && inits == 1 && teardowns == 1 &&
	       !inst.priv && !inst.pool, "a failed init: teardown once, state and pool freed");
	tap_contains(inst.error, "fake: init fails", "the init's error is kept");
}

/*
 * The ops list (workload.c) and the info list cvmbench links alone
 * (workload-registry.c) are one list: each ops points at the info of its
 * place and is found by that name.
 */
static void test_ops_info(void)
{
	char wrong[256] = "";
	size_t i;

	for (i = 0; i < workload_count(); i++) {
		const struct workload_ops *ops = workload_ops_at(i);
		const struct workload_info *w = workload_at(i);

		if (ops->info != w || workload_ops_find(w->name) != ops) {
			strncat(wrong, w->name, sizeof(wrong) - strlen(wrong) - 2);
			strcat(wrong, " ");
		}
	}
	tap_ok(!wrong[0] && !workload_ops_at(workload_count()),
	       "every workload's ops point at its own info (wrong: %s)", wrong);
}

/* Every workload that builds something keeps it in the runner's state. */
static void test_state_all(void)
{
	char own[256] = "";
	size_t i;

	for (i = 0; i < workload_count(); i++) {
		const struct workload_ops *ops = workload_ops_at(i);

		if ((ops->init || ops->teardown) && !ops->state_size) {
			strncat(own, ops->info->name, sizeof(own) - strlen(own) - 2);
			strcat(own, " ");
		}
	}
	tap_ok(!own[0], "every workload with an init or teardown has a state_size "
	       "(without: %s)", own);
}

/* Every workload of the registry refuses an unknown variant before its init. */
static void test_registry(void)
{
	const struct workload_ops *ops;
	struct wl_instance inst;
	char own[256] = "";
	size_t i, refused = 0;
	int ret;

	for (i = 0; i < workload_count(); i++) {
		ops = workload_ops_at(i);
		if (!ops->info->variants) {
			strncat(own, ops->info->name, sizeof(own) - strlen(own) - 2);
			strcat(own, " ");
			continue;
		}
		ret = open_with(ops, "no-such-variant", 1, &inst);
		refused += ret == -EINVAL && strstr(inst.error, "no-such-variant") &&
			   strstr(inst.error, ops->info->name);
		if (!ret)         /* the rule is broken: leave nothing behind */
			wl_instance_close(&inst);
	}
	tap_ok(!strcmp(own, "video-processing "), "every workload lists its variants but "
	       "video-processing (own: %s)", own);
	tap_ok(refused + 1 == workload_count(), "%zu of %zu workloads refuse an unknown variant "
	       "before init", refused, workload_count() - 1);
}

/*
 * Without an instance (a config's variant key, guest disk): every workload
 * refuses an unknown variant, video-processing through its variant_check
 * with the message its init gives, and accepts the variants it has.
 */
static void test_check_alone(void)
{
	const struct workload_info *vp = workload_find("video-processing");
	const char *good[] = { "ramp", "cube", "solid:0,128,255" };
	const char *bad[] = { "bogus", "solid:1,2", "solid:256,0,0", "solid:1,2,3x" };
	char err[256] = "";
	size_t i, refused = 0, ok = 0;

	for (i = 0; i < workload_count(); i++)
		refused += wl_variant_check(workload_at(i), "no-such-variant", err,
					    sizeof(err)) == -EINVAL;
	tap_ok(refused == workload_count(), "%zu of %zu workloads refuse an unknown variant "
	       "without an instance", refused, workload_count());
	for (i = 0; vp && i < sizeof(good) / sizeof(*good); i++)
		ok += !wl_variant_check(vp, good[i], err, sizeof(err));
	for (i = 0; vp && i < sizeof(bad) / sizeof(*bad); i++)
		ok += wl_variant_check(vp, bad[i], err, sizeof(err)) == -EINVAL;
	tap_ok(ok == 7 && !strcmp(err, "video-processing: unknown variant 'solid:1,2,3x' "
				  "(ramp, cube or solid:R,G,B)"),
	       "video-processing: ramp, cube, solid:R,G,B pass, 4 bad ones do not, with its "
	       "init's message (%zu of 7; %s)", ok, err);
}

int main(void)
{
	tap_plan(16);
	test_variants();
	test_state();
	test_ops_info();
	test_state_all();
	test_registry();
	test_check_alone();
	return tap_done();
}
