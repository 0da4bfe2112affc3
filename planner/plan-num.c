// SPDX-License-Identifier: MIT
/* plan-num.c - numbers, durations and sizes of the planner's options (plan-num.h). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exitcode.h"
#include "log.h"
#include "plan-num.h"

static int bad(const char *opt, const char *arg, const char *want)
{
	pr_err("%s '%s': %s", opt, arg, want);
	return EXIT_USAGE;
}

int plan_num(const char *opt, const char *arg, double min, double max, double *out)
{
	char *end;

	errno = 0;
	*out = strtod(arg, &end);
	if (!*arg || *end || errno || !isfinite(*out) || *out < min || *out > max) {
		char want[96];

		snprintf(want, sizeof(want), "want a number from %g to %g", min, max);
		return bad(opt, arg, want);
	}
	return 0;
}

int plan_seed(const char *opt, const char *arg, uint64_t *out)
{
	char *end;

	errno = 0;
	*out = strtoull(arg, &end, 10);
	if (!*arg || *end || errno || *arg == '-')
		return bad(opt, arg, "want a whole number from 0 to 2^64-1");
	return 0;
}

/* The number in front of a unit in @arg, the unit's factor from @units. */
static int with_unit(const char *arg, const char *const *names, const double *factor,
		     double *out)
{
	char *end;
	size_t i;

	errno = 0;
	*out = strtod(arg, &end);
	if (end == arg || errno || !isfinite(*out) || *out < 0)
		return -EINVAL;
	for (i = 0; names[i]; i++)
		if (!strcmp(end, names[i])) {
			*out *= factor[i];
			return 0;
		}
	return -EINVAL;
}

int plan_seconds(const char *opt, const char *arg, int inf_ok, double *out)
{
	static const char *const names[] = { "", "s", "m", "min", "h", NULL };
	static const double factor[] = { 1, 1, 60, 60, 3600 };

	if (inf_ok && !strcmp(arg, "inf")) {
		*out = INFINITY;
		return 0;
	}
	if (with_unit(arg, names, factor, out))
		return bad(opt, arg, inf_ok ? "want a duration: 600, 600s, 10m, 4h or inf"
			   : "want a duration: 600, 600s, 10m or 4h");
	return 0;
}

int plan_bytes(const char *opt, const char *arg, double *out)
{
	static const char *const names[] = { "", "KiB", "MiB", "GiB", "TiB", NULL };
	static const double factor[] = { 1048576.0, 1024.0, 1048576.0, 1073741824.0,
					 1099511627776.0 };

	if (with_unit(arg, names, factor, out) || *out <= 0)
		return bad(opt, arg, "want a size above 0: 512MiB, 8GiB (a bare number is MiB)");
	return 0;
}
