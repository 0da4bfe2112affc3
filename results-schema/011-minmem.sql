-- 011-minmem.sql: minimum guest memory per function and VM type (`cvmbench
-- minmem`, docs/capacity.md). Each search tries guest memory sizes with
-- real boots, one run of one qemu cell per size (minmem_step, linked to
-- its run and cell), and keeps the smallest size at which every measured
-- call succeeded and the median latency stayed within threshold_pct of the
-- median at the top of the range (to_mib). The planner provisions a VM
-- with it (a platform's `memory = minmem`). Not copied by `merge` (a
-- search spans runs, it is not of one).
CREATE TABLE minmem (
	id            INTEGER PRIMARY KEY,
	created_at    TEXT NOT NULL,
	workload      TEXT NOT NULL,
	vm_type       TEXT NOT NULL,     -- the cells' confidential: none, model, sev-snp, tdx
	accel         TEXT NOT NULL,     -- as the cells asked it (auto, kvm, tcg)
	size          TEXT NOT NULL,     -- the input size
	from_mib      INTEGER NOT NULL,  -- the range searched
	to_mib        INTEGER NOT NULL,
	step_mib      INTEGER NOT NULL,  -- the answer's resolution
	threshold_pct REAL NOT NULL,     -- latency growth allowed over the baseline
	baseline_ms   REAL,              -- median latency at to_mib
	min_mib       INTEGER,           -- the answer; NULL: none (why says)
	why           TEXT               -- why there is no answer
);
CREATE TABLE minmem_step (
	minmem_id  INTEGER NOT NULL REFERENCES minmem(id) ON DELETE CASCADE,
	memory_mib INTEGER NOT NULL,
	run_id     INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,
	cell_id    INTEGER REFERENCES cell(id) ON DELETE CASCADE,
	passed     INTEGER NOT NULL,     -- 1: within the threshold, every call ok
	calls      INTEGER NOT NULL,     -- measured calls, and of them ok
	calls_ok   INTEGER NOT NULL,
	median_ms  REAL,                 -- of the ok calls; NULL: none
	why        TEXT                  -- why it did not pass
);
CREATE INDEX minmem_step_search ON minmem_step(minmem_id);
