-- 006-memory-sample.sql: host memory as a time series during a cell, from
-- the `hostmem` probe (per instance process: /proc/PID/smaps_rollup; the
-- host: /proc/meminfo) and the `ksm` probe (/sys/kernel/mm/ksm counters and
-- per process /proc/PID/ksm_stat). One row per value: what a sample of one
-- source gave at one instant. docs/probes/hostmem.md, docs/probes/ksm.md.

CREATE TABLE memory_sample (
	id        INTEGER PRIMARY KEY,
	cell_id   INTEGER NOT NULL REFERENCES cell(id) ON DELETE CASCADE,
	t_ns      INTEGER NOT NULL,      -- since the probe's cell window started
	source    TEXT NOT NULL,         -- smaps_rollup | meminfo | ksm | ksm_stat
	instance  INTEGER,               -- index of the process in the cell; NULL: host-wide
	pid       INTEGER,               -- the process (a VM's QEMU); NULL: host-wide
	name      TEXT NOT NULL,         -- pss_kb, mem_available_kb, pages_sharing, ...
	value     REAL NOT NULL,
	unit      TEXT NOT NULL          -- kB | B | pages | count
);
CREATE INDEX memory_sample_cell ON memory_sample(cell_id, source, name);
