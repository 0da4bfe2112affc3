/* SPDX-License-Identifier: MIT */
/*
 * plus-list.h - a value made of names joined by '+' ("a+b+a"), for a key
 * whose value is one list per cell while commas already make a matrix
 * dimension (vm-workloads: a workload per VM).
 */
#ifndef CVMBENCH_PLUS_LIST_H
#define CVMBENCH_PLUS_LIST_H

#include <stddef.h>

int plus_list_item(const char *list, int i, char *out, size_t len);

#endif
