-- 012-seed.sql: instances forked from a seed (backend = zygote,
-- docs/experiments/seed-tree.md). seed_start: each child's start-up split,
-- as the child reported it after its first call (CLOCK_MONOTONIC, ns):
-- fork_ns from just before fork() in the seed to the child's first instant,
-- init_ns what remained to initialise at the cell's seed-layer, first_call_ns
-- the first call's fn_ns. seed_memory: each live child's memory when
-- `children` children of the seed were alive (before the next fork, and
-- after the calls), from /proc/PID/smaps_rollup and /proc/PID/pagemap.
CREATE TABLE seed_start (
	cell_id       INTEGER NOT NULL REFERENCES cell(id) ON DELETE CASCADE,
	pid           INTEGER NOT NULL,
	layer         TEXT NOT NULL,      -- bare, runtime, warm
	fork_ns       INTEGER NOT NULL,
	init_ns       INTEGER NOT NULL,
	first_call_ns INTEGER NOT NULL
);
CREATE TABLE seed_memory (
	cell_id        INTEGER NOT NULL REFERENCES cell(id) ON DELETE CASCADE,
	children       INTEGER NOT NULL,  -- children of the seed alive then
	pid            INTEGER NOT NULL,
	pss_kb         INTEGER,           -- NULL: not readable
	uss_kb         INTEGER,           -- Private_Clean + Private_Dirty
	seed_shared_kb INTEGER,           -- its pages on the seed's frames; NULL: no frame numbers (needs CAP_SYS_ADMIN)
	seed_pss_kb    INTEGER            -- the seed's own PSS then
);
