/* SPDX-License-Identifier: MIT */
/* guest-build.h - build a guest image that is not cached (guest-build.c). */
#ifndef CVMBENCH_GUEST_BUILD_H
#define CVMBENCH_GUEST_BUILD_H

#include "guest-local.h"

/**
 * guest_build_into() - build the image of @in under @root: into
 * @root/<hash>/ when @keyed (the cache), else into @root itself (--out).
 * @hash gets the content hash. 0 or -errno with the reason in @err.
 */
int guest_build_into(struct guest_inputs *in, const char *root, int keyed,
		     char hash[SHA256_HEX], char *err, size_t errlen);

#endif
