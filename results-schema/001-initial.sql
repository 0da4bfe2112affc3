-- 001-initial.sql: the core of the results database.
-- Applied in file-name order; PRAGMA user_version holds the number of the
-- last migration applied. Times are ISO 8601 UTC text; durations are
-- integer nanoseconds (suffix _ns); memory in KiB (suffix _kb).

-- One invocation of `cvmbench run`.
CREATE TABLE run (
	id               INTEGER PRIMARY KEY,
	started_at       TEXT NOT NULL,
	ended_at         TEXT,
	status           TEXT NOT NULL DEFAULT 'running'
	                 CHECK (status IN ('running', 'complete', 'skipped',
	                                   'failed', 'interrupted')),
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

-- Facts about the machine, captured at the start of every run.
CREATE TABLE environment (
	run_id INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,
	key    TEXT NOT NULL,
	value  TEXT NOT NULL,
	source TEXT NOT NULL,            -- where the value was read from
	PRIMARY KEY (run_id, key)
);

-- One point of the experiment matrix. spec holds the expanded cell,
-- verbatim, as `key = value` lines: `cvmbench run CONFIG --only CELL_KEY`
-- re-runs it alone.
CREATE TABLE cell (
	id           INTEGER PRIMARY KEY,
	run_id       INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,
	cell_key     TEXT NOT NULL,
	experiment   TEXT NOT NULL,
	workload     TEXT NOT NULL,
	size         TEXT NOT NULL,
	backend      TEXT NOT NULL,
	threads      INTEGER NOT NULL,   -- 0 = as many as the instance has CPUs
	wait         TEXT NOT NULL,
	mode         TEXT NOT NULL CHECK (mode IN ('warm', 'cold')),
	instances    INTEGER NOT NULL,
	invocations  INTEGER NOT NULL,
	warmup       INTEGER NOT NULL,
	repeat_index INTEGER NOT NULL,
	seed         INTEGER NOT NULL,
	probes       TEXT NOT NULL,
	spec         TEXT NOT NULL,
	status       TEXT NOT NULL DEFAULT 'running'
	             CHECK (status IN ('running', 'ok', 'skipped', 'failed',
	                               'interrupted')),
	started_at   TEXT NOT NULL,
	ended_at     TEXT
);
CREATE INDEX cell_run ON cell(run_id);

-- Every config key of a cell as text, including keys later issues add:
-- group or pivot on any dimension without a schema change.
CREATE TABLE cell_param (
	cell_id INTEGER NOT NULL REFERENCES cell(id) ON DELETE CASCADE,
	key     TEXT NOT NULL,
	value   TEXT NOT NULL,
	PRIMARY KEY (cell_id, key)
);

-- A function instance of a cell (a warm `cvmfn serve` process, or one
-- cold start).
CREATE TABLE instance (
	id        INTEGER PRIMARY KEY,
	cell_id   INTEGER NOT NULL REFERENCES cell(id) ON DELETE CASCADE,
	idx       INTEGER NOT NULL,
	pid       INTEGER,
	init_ns   INTEGER,               -- init inside cvmfn
	start_ns  INTEGER,               -- spawn to ready, seen by the harness
	rss_kb    INTEGER,               -- after init
	pss_kb    INTEGER,
	threads   INTEGER,
	UNIQUE (cell_id, idx)
);

-- One function call. latency_ns is the round trip seen by the harness;
-- fn_ns is the function's own time inside cvmfn.
CREATE TABLE invocation (
	id           INTEGER PRIMARY KEY,
	cell_id      INTEGER NOT NULL REFERENCES cell(id) ON DELETE CASCADE,
	instance_idx INTEGER NOT NULL,
	seq          INTEGER NOT NULL,
	phase        TEXT NOT NULL CHECK (phase IN ('warmup', 'measured')),
	start        TEXT NOT NULL CHECK (start IN ('warm', 'cold')),
	started_at   TEXT NOT NULL,
	latency_ns   INTEGER,
	fn_ns        INTEGER,
	ok           INTEGER NOT NULL,
	digest       TEXT,
	error        TEXT
);
CREATE INDEX invocation_cell ON invocation(cell_id);

-- A probe's number for a cell, or for one invocation.
CREATE TABLE metric (
	id            INTEGER PRIMARY KEY,
	cell_id       INTEGER NOT NULL REFERENCES cell(id) ON DELETE CASCADE,
	invocation_id INTEGER REFERENCES invocation(id) ON DELETE CASCADE,
	probe         TEXT NOT NULL,
	name          TEXT NOT NULL,
	value         REAL NOT NULL,
	unit          TEXT NOT NULL
);
CREATE INDEX metric_cell ON metric(cell_id);

-- What could not be measured, and why: a whole cell or one probe of it.
CREATE TABLE skip (
	id      INTEGER PRIMARY KEY,
	run_id  INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,
	cell_id INTEGER REFERENCES cell(id) ON DELETE CASCADE,
	probe   TEXT,
	reason  TEXT NOT NULL
);

-- What failed, with the place in cvmbench that saw it first.
CREATE TABLE error (
	id       INTEGER PRIMARY KEY,
	run_id   INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,
	cell_id  INTEGER REFERENCES cell(id) ON DELETE CASCADE,
	at       TEXT NOT NULL,
	source   TEXT NOT NULL,          -- file:line function
	message  TEXT NOT NULL
);
