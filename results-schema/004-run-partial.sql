-- 003-run-partial.sql: run.status gains 'partial' - some cells (or some
-- probes of measured cells) were skipped, the others measured - so that a
-- run in which 28 of 32 cells ran no longer reads 'skipped', which now
-- means that nothing was measured (bench/run/run-status.c).
-- SQLite cannot alter a CHECK constraint: the table is rebuilt and its
-- rows copied. db.c applies a migration with foreign keys off (so that
-- dropping the old table deletes nothing that refers to it) and checks
-- them before it commits.

CREATE TABLE run_new (
	id               INTEGER PRIMARY KEY,
	started_at       TEXT NOT NULL,
	ended_at         TEXT,
	status           TEXT NOT NULL DEFAULT 'running'
	                 CHECK (status IN ('running', 'complete', 'partial',
	                                   'skipped', 'failed', 'interrupted')),
	vantage          TEXT NOT NULL CHECK (vantage IN ('host', 'guest')),
	cvmbench_version TEXT NOT NULL,
	command_line     TEXT NOT NULL,
	config_path      TEXT,
	config_text      TEXT,
	hostname         TEXT,
	cells_total      INTEGER NOT NULL DEFAULT 0,
	cells_ok         INTEGER NOT NULL DEFAULT 0,
	cells_skipped    INTEGER NOT NULL DEFAULT 0,
	cells_failed     INTEGER NOT NULL DEFAULT 0
);
INSERT INTO run_new (id, started_at, ended_at, status, vantage, cvmbench_version,
	command_line, config_path, config_text, hostname, cells_total, cells_ok,
	cells_skipped, cells_failed)
SELECT id, started_at, ended_at,
	CASE WHEN status = 'skipped' AND cells_ok > 0 THEN 'partial' ELSE status END,
	vantage, cvmbench_version, command_line, config_path, config_text, hostname,
	cells_total, cells_ok, cells_skipped, cells_failed
FROM run;
DROP TABLE run;
ALTER TABLE run_new RENAME TO run;
