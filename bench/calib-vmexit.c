// SPDX-License-Identifier: MIT
/* calib-vmexit.c - placeholder, filled in below */
#include <errno.h>
#include <stdio.h>

#include "calib-vmexit.h"

int calib_vmexit(const struct calib_vmexit_opts *o, FILE *out, char *why, size_t whylen)
{
	(void)o, (void)out;
	snprintf(why, whylen, "not yet");
	return -ENOSYS;
}
