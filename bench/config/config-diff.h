/* SPDX-License-Identifier: MIT */
/* config-diff.h - the keys in which two configs differ (run --resume, --balance). */
#ifndef CVMBENCH_CONFIG_DIFF_H
#define CVMBENCH_CONFIG_DIFF_H

#include <stddef.h>

struct config;

int config_diff(const struct config *a, const struct config *b, char *buf, size_t len);
int config_diff_text(const char *text, const struct config *cfg, char *why, size_t len);

#endif
