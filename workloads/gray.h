/* SPDX-License-Identifier: MIT */
/*
 * gray.h - RGB to gray as OpenCV's cvtColor(COLOR_RGB2GRAY) does it for
 * 8-bit images: BT.601 weights 0.299, 0.587, 0.114 in Q15 fixed point
 * (9798, 19235, 3735), rounded. Bit-exact with OpenCV 4.6 on every colour.
 */
#ifndef CVMFN_GRAY_H
#define CVMFN_GRAY_H

#include <stddef.h>
#include <stdint.h>

/** wl_rgb_to_gray() - @npix RGB triplets at @rgb to @npix gray bytes. */
static inline void wl_rgb_to_gray(const uint8_t *rgb, uint8_t *gray, size_t npix)
{
	size_t i;

	for (i = 0; i < npix; i++, rgb += 3)
		gray[i] = (uint8_t)((rgb[0] * 9798u + rgb[1] * 19235u + rgb[2] * 3735u +
				     16384u) >> 15);
}

#endif
