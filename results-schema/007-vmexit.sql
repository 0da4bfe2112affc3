-- 007-vmexit.sql: VM exits by reason, per window (a cell, or one invocation),
-- from the `vmexit` probe: tracepoint counts (kvm:kvm_exit by isa and reason,
-- kvm:kvm_userspace_exit, kvm:kvm_vmgexit_enter) counted in the kernel, and
-- beside them KVM's own per-vCPU statistics (exits, halt_exits, ...) read at
-- the same boundaries. One row per (window, VM, source, event, reason); a
-- reason counted 0 has no row when its event has a 'total' row. A source that
-- could not count here has one row with count NULL and skip saying why: never
-- a zero. docs/probes/vmexit.md, docs/data-model.md.

CREATE TABLE vmexit (
	id            INTEGER PRIMARY KEY,
	cell_id       INTEGER NOT NULL REFERENCES cell(id) ON DELETE CASCADE,
	invocation_id INTEGER REFERENCES invocation(id) ON DELETE CASCADE,  -- NULL: the cell window
	vm_idx        INTEGER,           -- the cell's VM (cvmbench.vm=I); NULL: every VM of the cell
	isa           TEXT,              -- vmx | svm (kvm_exit's table); NULL: none
	event         TEXT NOT NULL,     -- kvm_exit | kvm_userspace_exit | kvm_vmgexit_enter | kvm-stats
	reason_code   INTEGER,           -- the kernel's code; NULL: a class, total or KVM statistic
	reason_name   TEXT NOT NULL,     -- HLT, io, KVM_EXIT_IO, a class, total, exits, halt_wait_ns ...
	class         TEXT,              -- idle | io | mmio | msr | cpuid | interrupt | page-state | other
	count         INTEGER,           -- events in the window; NULL: not a count (time) or skipped
	time_ns       INTEGER,           -- time in the window (exit handling, halt polling); NULL: not known
	source        TEXT NOT NULL CHECK (source IN ('tracepoint', 'kvm-stats')),
	method        TEXT NOT NULL CHECK (method IN ('perf-filter', 'hist', 'trace-stream',
	                                              'qmp', 'binary-stats', 'debugfs')),
	counters_per_event INTEGER,      -- counters each event of this source passes through
	cost_ns_per_event  REAL,         -- the probe's own cost per counted event; NULL: not known
	fidelity      TEXT,              -- NULL: agrees within 1 % (or not compared); else the disagreement
	skip          TEXT               -- why count is NULL (the source absent here)
);
CREATE INDEX vmexit_cell ON vmexit(cell_id, invocation_id, source);
