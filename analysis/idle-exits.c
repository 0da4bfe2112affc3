// SPDX-License-Identifier: MIT
/*
 * idle-exits.c - the host's VM exits of an idle cell (idle-exits.h): the
 * kvm_exit rows of the vmexit table (007-vmexit.sql) for the cell window,
 * counted on the host by the vmexit probe. Total exits and their handling
 * time are the `total` rows; the HLT exits are the rows of class idle (by
 * reason: HLT and its kin; by class: the class), their time the sum of the
 * rows' time_ns. A value the rows do not give is NAN, never 0.
 */
#include <errno.h>
#include <math.h>

#include <sqlite3.h>

#include "analysis.h"
#include "idle-cells.h"
#include "idle-exits.h"
#include "vmexit-metrics.h"
#include "vmexit-table.h"

/*
 * Per cell window: the total rows (how many, how many counted, their sum,
 * how many timed, their time), then the idle rows (their count, the rows
 * with a count, the rows, the rows timed, their time).
 */
static const char sql_exits[] =
	"SELECT count(*) FILTER (WHERE reason_name = 'total'), "
	"count(count) FILTER (WHERE reason_name = 'total'), "
	"sum(count) FILTER (WHERE reason_name = 'total'), "
	"count(time_ns) FILTER (WHERE reason_name = 'total'), "
	"sum(time_ns) FILTER (WHERE reason_name = 'total'), "
	"sum(count) FILTER (WHERE class = 'idle'), "
	"count(count) FILTER (WHERE class = 'idle'), "
	"count(*) FILTER (WHERE class = 'idle'), "
	"count(time_ns) FILTER (WHERE class = 'idle'), "
	"sum(time_ns) FILTER (WHERE class = 'idle') "
	"FROM vmexit WHERE cell_id = ?1 AND invocation_id IS NULL AND "
	"source = 'tracepoint' AND event = '" VMEXIT_KVM_EXIT "'";

static void clear(struct idle_cell *c)
{
	c->exits = c->hlt_exits = c->hlt_pct = c->hlt_time_pct = NAN;
}

/* The numbers from the one row of sql_exits. */
static void read_exits(sqlite3_stmt *st, struct idle_cell *c)
{
	int totals = sqlite3_column_int(st, 0), idle_rows = sqlite3_column_int(st, 7);
	double tot_ns, idle_ns;

	if (!totals || sqlite3_column_int(st, 1) != totals)
		return;           /* no total, or a skip: nothing counted */
	c->exits = sqlite3_column_double(st, 2);
	if (sqlite3_column_int(st, 6) != idle_rows)
		return;
	c->hlt_exits = idle_rows ? sqlite3_column_double(st, 5) : 0;
	if (c->exits > 0)
		c->hlt_pct = 100.0 * c->hlt_exits / c->exits;
	if (sqlite3_column_int(st, 3) != totals || sqlite3_column_int(st, 8) != idle_rows)
		return;           /* a time not measured */
	tot_ns = sqlite3_column_double(st, 4);
	idle_ns = idle_rows ? sqlite3_column_double(st, 9) : 0;
	if (tot_ns > 0)
		c->hlt_time_pct = 100.0 * idle_ns / tot_ns;
}

int idle_exits_load(struct sqlite3 *h, struct idle_cell *c)
{
	sqlite3_stmt *st;
	int rc;

	clear(c);
	if (!vmexit_table_present(h))
		return 0;
	if (analysis_prepare(h, sql_exits, c->id, &st))
		return -EIO;
	rc = analysis_step(st);
	if (rc == SQLITE_ROW)
		read_exits(st, c);
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? 0 : -EIO;
}
