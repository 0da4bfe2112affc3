/* SPDX-License-Identifier: MIT */
/*
 * knob.h - settings a cell dimension changes for the length of the cell
 * (the guest's idle policy, KSM, ...). A knob changes host state only
 * through journal_set(), so every change is undone at the end of the
 * cell, on Ctrl-C, and after a crash (cvmbench restore).
 */
#ifndef CVMBENCH_KNOB_H
#define CVMBENCH_KNOB_H

#include <stddef.h>

#include "cell.h"

enum { KNOB_SKIP = 1 };

/*
 * Where a knob's report() writes about its cell: put() a cell_param row,
 * skip() a skip row of the cell naming what was not measured and why.
 */
struct knob_sink {
	void (*put)(void *ctx, const char *key, const char *value);
	void (*skip)(void *ctx, const char *what, const char *reason);
	void *ctx;
};

struct knob_ops {
	const char *name;
	/*
	 * Could @c's setting be applied here? 1, or 0 with the reason in @why.
	 * Changes nothing (for `cvmbench list`). NULL = always.
	 */
	int (*supported)(const struct cell *c, char *why, size_t len);
	/*
	 * Apply @c's setting: 0 applied (or nothing to change), KNOB_SKIP when
	 * it cannot be applied here (reason in @why: the cell is skipped), or
	 * -errno (reason in @why: the cell fails).
	 */
	int (*apply)(const struct cell *c, char *why, size_t len);
	/* After the cell: did the setting hold? 0, or -errno with @why. NULL = no check. */
	int (*verify)(const struct cell *c, char *why, size_t len);
	/* Undo what apply() changed. */
	void (*restore)(const struct cell *c);
	/*
	 * After apply(): what was applied, in words ("hlt, no cpuidle driver"),
	 * stored as cell_param "<knob>.applied"; "" or NULL op = nothing to say.
	 */
	void (*describe)(const struct cell *c, char *buf, size_t len);
	/*
	 * After the cell, before restore(): what the knob measured during it
	 * (the kv co-runner's load) or chose for it (a buffer's size), as
	 * cell_param rows, or a skip row when a measurement has no value.
	 * NULL = none.
	 */
	void (*report)(const struct cell *c, const struct knob_sink *s);
	/*
	 * At the cell window's start (@end 0) and end (@end 1), beside the
	 * probes' PROBE_WINDOW_CELL start and stop: a knob that measures marks
	 * the window here. NULL = nothing to mark.
	 */
	void (*window)(const struct cell *c, int end);
};

/**
 * knobs_apply() - apply every knob for @c, in list order. On failure the
 * knobs already applied are restored. Returns 0, KNOB_SKIP or -errno.
 */
int knobs_apply(const struct cell *c, char *why, size_t len);
/** knobs_supported() - 1 if every knob could apply @c here, else 0 with @why. */
int knobs_supported(const struct cell *c, char *why, size_t len);
/** knobs_window() - every applied knob's window(@c, @end): the cell window's start/end. */
void knobs_window(const struct cell *c, int end);
/** knobs_verify() - verify every knob; the first failure wins. */
int knobs_verify(const struct cell *c, char *why, size_t len);
/**
 * knobs_describe() - call @s->put(ctx, "<knob>.applied", words) for every
 * applied knob that says what it applied; @s (kept) is the knobs' report().
 */
void knobs_describe(const struct cell *c, const struct knob_sink *s);
/**
 * knobs_restore() - restore every applied knob, in reverse order; each
 * one's report() first, through the sink that knobs_describe() was given
 * for this cell (none when it was not called).
 */
void knobs_restore(const struct cell *c);

#endif
