/* SPDX-License-Identifier: MIT */
/* env-kmsg.h - find a line in the kernel log (klogctl, then /dev/kmsg). */
#ifndef CVMBENCH_ENV_KMSG_H
#define CVMBENCH_ENV_KMSG_H

#include <stddef.h>

int env_kmsg_find(const char *needle, char *out, size_t len, char *how,
		  size_t howlen);

#endif
