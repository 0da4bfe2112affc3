-- 015-service.sql: a service window's raw output (the system suite,
-- docs/experiments/system-suite.md). A service cell's calls are its
-- load generator's runs (one invocation row each, latency_ns = the run's
-- wall time, fork to exit); this table keeps each run's stdout whole, so
-- every metric row of that invocation (metric.probe = the parser's name)
-- can be traced to the text it was parsed from. service: the workload
-- key's value; tool: the parser's name (metrics/service-metrics.h); side:
-- where the generator ran (host, guest); exit_status: its exit code, NULL
-- when it did not exit (killed, timed out).
CREATE TABLE service_output (
	id            INTEGER PRIMARY KEY,
	cell_id       INTEGER NOT NULL REFERENCES cell(id) ON DELETE CASCADE,
	invocation_id INTEGER REFERENCES invocation(id) ON DELETE CASCADE,
	service       TEXT NOT NULL,
	tool          TEXT NOT NULL,
	side          TEXT NOT NULL CHECK (side IN ('host', 'guest')),
	exit_status   INTEGER,
	output        TEXT NOT NULL
);
CREATE INDEX service_output_cell ON service_output(cell_id);
