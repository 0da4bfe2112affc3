// SPDX-License-Identifier: MIT
/*
 * cell-label.c - find the config keys that differ between a figure's
 * cells, from cell_param (every key of every cell, as text), so a label
 * shows "idle=poll" or "runc" as soon as a config varies it, without a
 * change here. Keys a figure always shows, and settings that are not
 * dimensions of the matrix (probes, counts, timeout, the experiment's
 * name, and every dotted key: probe notes and guest facts), are left out.
 * A value is shown alone unless it is a number ("instances=2"). From
 * three cells on, the value more than half of them hold is left out of
 * their labels (the backdrop: "native", "auto"), the others are shown.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "analysis.h"
#include "cell-label.h"
#include "idle-metrics.h"

static const char *const not_shown[] = {
	"workload", "size", "threads", "mode", "probes", "invocations",
	"warmup", "repeats", "timeout", "description", "experiment",
	"idle.applied", IDLE_PROBE "." IDLE_NOTE_SOURCE,   /* notes of how, not settings */
	NULL,
};

static const char sql_params[] =
	"SELECT p.cell_id, p.key, p.value FROM cell_param AS p "
	"JOIN cell AS c ON c.id = p.cell_id WHERE c.run_id = ?1 "
	"ORDER BY p.key, p.cell_id";

/* Probe notes "P.side" and "P.agent" (docs/agent.md) say how, not what. */
static int probe_note(const char *key)
{
	const char *dot = strchr(key, '.');

	return dot && (!strcmp(dot, ".side") || !strcmp(dot, ".agent"));
}

static int shown(const char *key)
{
	size_t i, n = strlen(key);

	/* what a knob applied, setup flags, placements read back: how, not what */
	if ((n > 8 && !strcmp(key + n - 8, ".applied")) || !strncmp(key, "sanity.", 7) ||
	    !strncmp(key, "pin.obtained.", 13))
		return 0;

	for (i = 0; not_shown[i]; i++)
		if (!strcmp(not_shown[i], key))
			return 0;
	/* no config key has a dot: "P.side", "guest.cpu.vendor" are notes, facts */
	return !probe_note(key) && !strchr(key, '.');
}

static int numeric(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if ((*s < '0' || *s > '9') && *s != '.' && *s != '-')
			return 0;
	return 1;
}

/* Index of @id in @ids, or -1. */
static long find_id(const int64_t *ids, size_t n, int64_t id)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (ids[i] == id)
			return (long)i;
	return -1;
}

/*
 * The value most of @n cells hold (more than half, from three cells on):
 * a label leaves it out, it is the backdrop; NULL when there is none.
 */
static const char *majority(char **vals, size_t n)
{
	size_t i, k, c;

	if (n < 3)
		return NULL;
	for (i = 0; i < n; i++) {
		for (c = 0, k = 0; vals[i] && k < n; k++)
			c += vals[k] && !strcmp(vals[k], vals[i]);
		if (2 * c > n)
			return vals[i];
	}
	return NULL;
}

/* One key's values (NULL: the cell lacks it); append when they differ. */
static void flush_key(const char *key, char **vals, size_t n,
		      char (*extra)[CELL_LABEL_MAX])
{
	const char *most;
	size_t i, l;
	int differ = 0;

	for (i = 1; i < n; i++)
		differ |= !vals[i] != !vals[0] ||
			  (vals[i] && strcmp(vals[i], vals[0]));
	most = majority(vals, n);
	for (i = 0; i < n; i++) {
		l = strlen(extra[i]);
		if (differ && shown(key) && l + 1 < CELL_LABEL_MAX &&
		    !(most && vals[i] && !strcmp(vals[i], most)))
			snprintf(extra[i] + l, CELL_LABEL_MAX - l, "/%s%s%s",
				 vals[i] && !numeric(vals[i]) ? "" : key,
				 vals[i] && !numeric(vals[i]) ? "" : "=",
				 vals[i] ? vals[i] : "-");
	}
	for (i = 0; i < n; i++) {
		free(vals[i]);
		vals[i] = NULL;
	}
}

static void read_params(struct sqlite3_stmt *st, const int64_t *ids, size_t n,
			char **vals, char (*extra)[CELL_LABEL_MAX])
{
	char key[64] = "";
	const char *k;
	long i;

	while (analysis_step(st) == SQLITE_ROW) {
		k = (const char *)sqlite3_column_text(st, 1);
		if (!k)
			continue;
		if (strcmp(k, key)) {
			if (*key)
				flush_key(key, vals, n, extra);
			snprintf(key, sizeof(key), "%s", k);
		}
		i = find_id(ids, n, sqlite3_column_int64(st, 0));
		if (i >= 0 && !vals[i])
			vals[i] = strdup((const char *)sqlite3_column_text(st, 2) ?: "");
	}
	if (*key)
		flush_key(key, vals, n, extra);
}

/**
 * cell_label_extras() - for each of the @n cells @ids of run @run_id,
 * "/value" or "/key=value" for every config key, in key order, whose
 * value differs between these cells (keys a figure shows itself and
 * non-dimensions left out) into @extra[i] ("" when none differ).
 * Returns 0, or -errno (the labels are then empty).
 */
int cell_label_extras(struct sqlite3 *h, int64_t run_id, const int64_t *ids,
		      size_t n, char (*extra)[CELL_LABEL_MAX])
{
	struct sqlite3_stmt *st;
	char **vals;
	size_t i;

	for (i = 0; i < n; i++)
		extra[i][0] = '\0';
	if (!n)
		return 0;
	vals = calloc(n, sizeof(*vals));
	if (!vals)
		return -ENOMEM;
	if (analysis_prepare(h, sql_params, run_id, &st)) {
		free(vals);
		return -EINVAL;
	}
	read_params(st, ids, n, vals, extra);
	sqlite3_finalize(st);
	free(vals);
	return 0;
}

long long cell_measured(struct sqlite3 *h, int64_t id)
{
	sqlite3_stmt *st;
	long long n = -1;

	if (analysis_prepare(h, "SELECT count(*) FROM invocation WHERE cell_id = ? "
			     "AND phase = 'measured'", id, &st))
		return -1;
	if (analysis_step(st) == SQLITE_ROW)
		n = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return n;
}
