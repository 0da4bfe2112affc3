/* SPDX-License-Identifier: MIT */
/*
 * knob-membind.h - the `membind` key (knob-membind.c): the cell binds its
 * own thread's memory policy around each instance's spawn.
 */
#ifndef CVMBENCH_KNOB_MEMBIND_H
#define CVMBENCH_KNOB_MEMBIND_H

#include "knob.h"

/** membind_spawn_enter() - bind for instance @idx (multi-node only): 0 or -errno. */
int membind_spawn_enter(int idx);
/** membind_spawn_leave() - this thread's default memory policy again. */
void membind_spawn_leave(void);

#endif
