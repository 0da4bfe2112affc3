/* SPDX-License-Identifier: MIT */
/*
 * video-variant.h - video-processing's test variants (--variant ramp, cube
 * or solid:R,G,B), parsed apart from its compute code so that the registry
 * (workload-registry.c) checks them without an instance: a config's
 * variant key, `cvmbench guest disk --variant`.
 */
#ifndef CVMFN_VIDEO_VARIANT_H
#define CVMFN_VIDEO_VARIANT_H

#include <stddef.h>
#include <stdint.h>

enum vp_source { VP_SRC_CLIP, VP_SRC_SOLID, VP_SRC_RAMP, VP_SRC_CUBE };

#define VP_BAD_VARIANT "video-processing: unknown variant '%s' (ramp, cube or solid:R,G,B)"

/**
 * vp_variant_source() - @v's frame source (NULL: the clip), and the colour
 * @rgb of solid:R,G,B; -1: not a variant video-processing has.
 */
int vp_variant_source(const char *v, uint8_t rgb[3]);

/**
 * vp_variant_check() - its workload_info's variant_check: 0, or -EINVAL
 * with the message its init gives in @err.
 */
int vp_variant_check(const char *v, char *err, size_t errlen);

#endif
