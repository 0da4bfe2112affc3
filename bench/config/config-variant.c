// SPDX-License-Identifier: MIT
/*
 * config-variant.c - the one check across keys of the variant key: every
 * cell of an experiment must give its workload (or, with vm-workloads,
 * each VM's workload) a variant that workload has (workload-registry.h
 * wl_variant_check()). matrix.c calls it with an experiment's values and
 * names the file and line of the variant in the error.
 */
#include <errno.h>
#include <stdio.h>

#include "config.h"
#include "plus-list.h"
#include "workload-registry.h"

/* @variant for @workload: 0, or -EINVAL with the reason in @err. */
static int variant_of(const char *workload, const char *variant, char *err, size_t errlen)
{
	const struct workload_info *w = workload_find(workload);

	if (!w)        /* config_check_workload() refuses it with its own message */
		return 0;
	return wl_variant_check(w, variant, err, errlen);
}

/* @variant for the workload of each VM of "a+b" @vm_workloads. */
static int variant_of_vms(const char *vm_workloads, const char *variant, char *err,
			  size_t errlen)
{
	char name[48];
	int i, n = plus_list_item(vm_workloads, 0, NULL, 0);

	for (i = 0; i < n; i++)
		if (plus_list_item(vm_workloads, i, name, sizeof(name)) >= 0 &&
		    variant_of(name, variant, err, errlen))
			return -EINVAL;
	return 0;
}

int config_variants_check(const struct config_values *workloads,
			  const struct config_values *vm_workloads,
			  const struct config_values *variants, char *err, size_t errlen)
{
	size_t w, m, v;

	for (v = 0; v < variants->n; v++) {
		if (!variants->v[v][0])
			continue;
		for (m = 0; m < vm_workloads->n; m++) {
			if (vm_workloads->v[m][0]) {
				if (variant_of_vms(vm_workloads->v[m], variants->v[v], err,
						   errlen))
					return -EINVAL;
				continue;
			}
			for (w = 0; w < workloads->n; w++)
				if (variant_of(workloads->v[w], variants->v[v], err, errlen))
					return -EINVAL;
		}
	}
	return 0;
}
