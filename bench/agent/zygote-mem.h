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
/*
 * One process's memory from smaps_rollup, kB (-1: unreadable). USS is the
 * kernel's "mapped by this process only" (Private_Clean + Private_Dirty):
 * it counts page-cache pages of code that only this child has touched so
 * far, which become Shared_Clean once a sibling touches them too, so a
 * child's USS falls as siblings run the same code. private_dirty_kb is what
 * the child wrote itself (its anonymous and copied-on-write pages): that
 * does not fall when siblings are added (docs/experiments/seed-tree.md).
 */
struct proc_mem {
	long long pss_kb, uss_kb, private_dirty_kb;
};

/** proc_mem_read() - @pid's PSS, USS and Private_Dirty into @m. */
void proc_mem_read(pid_t pid, struct proc_mem *m);

/*
 * One child of a seed as seed_mem_sample() read it: its memory, its parent
 * (/proc/PID/stat; -1 unreadable) and the kB of its pages on the seed's
 * frames (-1: not measured, seed_mem_sample() says why).
 */
struct seed_child_mem {
	long long pid, ppid;
	struct proc_mem m;
	long long seed_shared_kb;
};

/**
 * seed_mem_sample() - the memory of seed @seed (its PSS into *@seed_pss_kb,
 * -1 unreadable) and of each of its @n children @kids into @out. Returns
 * 0, or the frame set's -errno when the kB on the seed's frames could not
 * be measured (-EPERM: no frame numbers without CAP_SYS_ADMIN).
 */
int seed_mem_sample(pid_t seed, const pid_t *kids, int n, struct seed_child_mem *out,
		    long long *seed_pss_kb);
/** seed_mem_why() - the note's text for seed_mem_sample()'s error @frames. */
const char *seed_mem_why(int frames);

#endif
