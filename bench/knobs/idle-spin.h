/* SPDX-License-Identifier: MIT */
/*
 * idle-spin.h - the `idle = spin` policy: one SCHED_IDLE busy thread per
 * CPU the instances may run on, so that no CPU ever enters idle. It gives
 * the wake-up latency of POLL without the kernel's help (no cpuidle driver
 * needed), at the cost of every CPU burning all the time. It is stored
 * and labelled as spin, never as poll.
 */
#ifndef CVMBENCH_IDLE_SPIN_H
#define CVMBENCH_IDLE_SPIN_H

#include <stddef.h>

/**
 * idle_spin_start() - start one SCHED_IDLE spinner pinned to each CPU of
 * this process's affinity mask (the CPUs its instances inherit).
 * Return: the number of spinners (> 0), or -errno with the reason in @why.
 */
int idle_spin_start(char *why, size_t len);
/**
 * idle_spin_held() - 0 if the CPUs stayed busy since idle_spin_start()
 * (their idle time in /proc/stat grew by at most 5 % of the window), else
 * -EAGAIN with the reason in @why.
 */
int idle_spin_held(char *why, size_t len);
/** idle_spin_stop() - end and join the spinners; nothing if none run. */
void idle_spin_stop(void);

#endif
