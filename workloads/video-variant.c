// SPDX-License-Identifier: MIT
/*
 * video-variant.c - parse video-processing's --variant (video-variant.h).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "video-variant.h"

int vp_variant_source(const char *v, uint8_t rgb[3])
{
	unsigned int r, g, b;
	char tail;

	if (!v)
		return VP_SRC_CLIP;
	if (!strcmp(v, "ramp"))
		return VP_SRC_RAMP;
	if (!strcmp(v, "cube"))
		return VP_SRC_CUBE;
	if (sscanf(v, "solid:%u,%u,%u%c", &r, &g, &b, &tail) == 3 &&
	    r < 256 && g < 256 && b < 256) {
		rgb[0] = (uint8_t)r;
		rgb[1] = (uint8_t)g;
		rgb[2] = (uint8_t)b;
		return VP_SRC_SOLID;
	}
	return -1;
}

int vp_variant_check(const char *v, char *err, size_t errlen)
{
	uint8_t rgb[3];

	if (vp_variant_source(v, rgb) >= 0)
		return 0;
	snprintf(err, errlen, VP_BAD_VARIANT, v);
	return -EINVAL;
}
