/* SPDX-License-Identifier: MIT */
/*
 * knob-halt-poll.h - the value of key halt-poll-ns (knob-halt-poll.c):
 * "unchanged" or the nanoseconds to write to kvm's halt_poll_ns.
 */
#ifndef CVMBENCH_KNOB_HALT_POLL_H
#define CVMBENCH_KNOB_HALT_POLL_H

/* kvm's halt_poll_ns is an unsigned int */
#define HALT_POLL_MAX_NS 4294967295LL

/**
 * halt_poll_parse() - @v as nanoseconds into *@ns (0 to HALT_POLL_MAX_NS),
 * or -1 for "unchanged" and "" (a zeroed cell). Returns 0, or -EINVAL for
 * anything else (a sign, a unit, spaces, too large).
 */
int halt_poll_parse(const char *v, long long *ns);

#endif
