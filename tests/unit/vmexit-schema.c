// SPDX-License-Identifier: MIT
/*
 * tests/unit/vmexit-schema.c - the vmexit table's method 'bpf' (migration
 * 008): a database at 007 with a vmexit row (and its cell and run) is
 * migrated; the row is still there, field by field, with its index, and a
 * row of method 'bpf' is now accepted (the vmexit probe's rows counted with
 * the bpf method were refused by 007's CHECK), an unknown method still not.
 */
#include <sqlite3.h>
#include <stdio.h>
#include <string.h>

#include "db-schema.h"
#include "db.h"
#include "sql-test.h"
#include "tap.h"

static int exec(sqlite3 *h, const char *sql)
{
	return sqlite3_exec(h, sql, NULL, NULL, NULL) == SQLITE_OK ? 0 : -1;
}

/* The migrations up to 007 applied by hand, and one row of each table a vmexit row needs. */
static int at_007(sqlite3 *h)
{
	char v[64];
	size_t i;

	for (i = 0; i < db_migration_count && db_migrations[i].number <= 7; i++)
		if (exec(h, db_migrations[i].sql))
			return -1;
	snprintf(v, sizeof(v), "PRAGMA user_version = 7");
	return exec(h, v) ?:
	       exec(h, "INSERT INTO run (id, started_at, vantage, cvmbench_version, "
		    "command_line) VALUES (1, 'now', 'host', 'v', 'c')") ?:
	       exec(h, "INSERT INTO cell (id, run_id, cell_key, experiment, workload, size, "
		    "backend, threads, wait, mode, instances, invocations, warmup, repeat_index, "
		    "seed, probes, spec, started_at) VALUES (1, 1, 'k', 'e', 'w', 'test', "
		    "'qemu', 1, 'block', 'warm', 1, 1, 0, 0, 1, '', '', 'now')") ?:
	       exec(h, "INSERT INTO vmexit (id, cell_id, isa, event, reason_code, reason_name, "
		    "class, count, source, method, counters_per_event, cost_ns_per_event) "
		    "VALUES (7, 1, 'vmx', 'kvm_exit', 12, 'HLT', 'idle', 4242, 'tracepoint', "
		    "'perf-filter', 40, 1084.5)");
}

int main(void)
{
	sqlite3 *h = NULL;
	char err[512] = "";

	tap_plan(5);
	sqlite3_open(":memory:", &h);
	tap_ok(at_007(h) == 0, "a database at 007 with a vmexit row (%s)", sqlite3_errmsg(h));
	tap_ok(db_migrate(h, ":memory:", err, sizeof(err)) == 0, "migrated to the newest (%s)",
	       err);
	tap_ok(scalar(h, "SELECT count(*) FROM vmexit WHERE id = 7 AND cell_id = 1 AND "
		      "isa = 'vmx' AND reason_code = 12 AND reason_name = 'HLT' AND "
		      "class = 'idle' AND count = 4242 AND method = 'perf-filter' AND "
		      "counters_per_event = 40 AND cost_ns_per_event = 1084.5") == 1 &&
	       scalar(h, "SELECT count(*) FROM sqlite_master WHERE name = 'vmexit_cell'") == 1,
	       "its row kept, field by field, and the table's index");
	tap_ok(exec(h, "INSERT INTO vmexit (cell_id, event, reason_name, count, source, "
		    "method, counters_per_event) VALUES (1, 'kvm_exit', 'HLT', 5, "
		    "'tracepoint', 'bpf', 1)") == 0,
	       "a row counted with the bpf method is accepted (%s)", sqlite3_errmsg(h));
	tap_ok(exec(h, "INSERT INTO vmexit (cell_id, event, reason_name, count, source, "
		    "method) VALUES (1, 'kvm_exit', 'HLT', 5, 'tracepoint', 'guess')") != 0,
	       "an unknown method is still refused");
	sqlite3_close(h);
	return tap_done();
}
