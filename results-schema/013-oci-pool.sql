-- 013-oci-pool.sql: the events of a runc / crun cell's cgroup pool
-- (`cgroup-pool = N`, bench/backends/oci-pool.c), in the order they
-- happened: fill (made before the starts), take (a start got one),
-- fallback (the pool was drained: the runtime made the start's cgroup
-- itself), refill (the refill thread made one beside the starts), recycle
-- (a start's cgroup came back whole and empty), spent (the runtime removed
-- it at delete; what was left is removed). free: the pool's free cgroups
-- after the event. cost_ns / cpu_ns: a fill's or refill's wall time (its
-- mkdirs and cpuset writes) and the refill thread's CPU time for it; NULL
-- for the other events. The cell's totals are metrics pool.* of the cell.
CREATE TABLE oci_pool_event (
	cell_id INTEGER NOT NULL REFERENCES cell(id) ON DELETE CASCADE,
	t_ns    INTEGER NOT NULL,       -- CLOCK_MONOTONIC of the host, ns
	event   TEXT NOT NULL CHECK (event IN ('fill', 'take', 'fallback', 'refill',
	                                       'recycle', 'spent')),
	free    INTEGER NOT NULL,
	cost_ns INTEGER,
	cpu_ns  INTEGER
);
CREATE INDEX oci_pool_event_cell ON oci_pool_event(cell_id);
