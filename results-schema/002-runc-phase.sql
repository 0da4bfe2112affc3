-- 002-runc-phase.sql: container starts seen by the `runc` probe (runc or
-- crun), one row per start, with the named phases of each start (they sum
-- to total_ns) and the time its tasks were blocked on kernel locks.
-- docs/probes/runc.md defines every phase.

CREATE TABLE runc_start (
	id            INTEGER PRIMARY KEY,
	cell_id       INTEGER NOT NULL REFERENCES cell(id) ON DELETE CASCADE,
	invocation_id INTEGER REFERENCES invocation(id) ON DELETE CASCADE,
	start_idx     INTEGER NOT NULL,  -- 0 .. parallel-1, in fork order
	runtime       TEXT NOT NULL,     -- runc | crun (the backend)
	root_pid      INTEGER,
	total_ns      INTEGER NOT NULL,  -- fork of the runtime to the last exit
	cold_start_ns INTEGER,           -- fork to the reply of the first call
	blocked_ns    INTEGER NOT NULL,  -- lock contention_begin .. _end, summed
	events        INTEGER NOT NULL,  -- trace events of its tasks
	namespaces    TEXT NOT NULL      -- created: "mnt,uts,ipc,pid,net" or ""
);
CREATE INDEX runc_start_cell ON runc_start(cell_id);

CREATE TABLE runc_phase (
	start_id    INTEGER NOT NULL REFERENCES runc_start(id) ON DELETE CASCADE,
	phase       TEXT NOT NULL,       -- runtime-start, cgroup, ..., other
	seq         INTEGER NOT NULL,    -- order of the phase names
	start_ns    INTEGER NOT NULL,    -- its first instant, from the fork
	duration_ns INTEGER NOT NULL,
	PRIMARY KEY (start_id, phase)
);

CREATE TABLE runc_lock (
	start_id   INTEGER NOT NULL REFERENCES runc_start(id) ON DELETE CASCADE,
	lock       TEXT NOT NULL,        -- kernel symbol, else the lock's kind
	flags      TEXT NOT NULL,        -- contention_begin flags
	count      INTEGER NOT NULL,
	blocked_ns INTEGER NOT NULL
);
