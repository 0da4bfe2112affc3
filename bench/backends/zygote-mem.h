/* SPDX-License-Identifier: MIT */
/*
 * zygote-mem.h - the memory of a seed's children: PSS and USS from
 * /proc/PID/smaps_rollup, and how much of a child still sits on the seed's
 * page frames (both /proc/PID/pagemap read; frame numbers need
 * CAP_SYS_ADMIN, without it the kernel gives zeros and this says so).
 */
#ifndef CVMBENCH_ZYGOTE_MEM_H
#define CVMBENCH_ZYGOTE_MEM_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct frame_set {
	uint64_t *pfn;            /* sorted, unique */
	size_t n;
};

/**
 * frame_set_load() - the page frames @pid maps now. 0, -EPERM when the
 * kernel hides frame numbers (no CAP_SYS_ADMIN), or -errno.
 */
int frame_set_load(pid_t pid, struct frame_set *fs);
/** frame_set_free() - release @fs. */
void frame_set_free(struct frame_set *fs);
/** frame_set_common_kb() - kB of @pid's mapped pages whose frame is in @fs; < 0: -errno. */
long long frame_set_common_kb(pid_t pid, const struct frame_set *fs);
/** proc_pss_uss() - @pid's PSS and USS in kB (-1 each when unreadable). */
void proc_pss_uss(pid_t pid, long long *pss_kb, long long *uss_kb);

#endif
