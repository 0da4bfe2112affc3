-- 008-vmexit-bpf.sql: vmexit.method gains 'bpf' - the vmexit probe counts
-- kvm_exit (and kvm_userspace_exit, kvm_vmgexit_enter) by reason with one
-- eBPF program where the kernel loads it (tracing/tpcount-bpf.c), and its
-- rows name that method. SQLite cannot alter a CHECK constraint: the table
-- is rebuilt, its rows copied and its index made again (as 004 does).

CREATE TABLE vmexit_new (
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
	                                              'qmp', 'binary-stats', 'debugfs', 'bpf')),
	counters_per_event INTEGER,      -- counters each event of this source passes through
	cost_ns_per_event  REAL,         -- the probe's own cost per counted event; NULL: not known
	fidelity      TEXT,              -- NULL: agrees within 1 % (or not compared); else the disagreement
	skip          TEXT               -- why count is NULL (the source absent here)
);
INSERT INTO vmexit_new (id, cell_id, invocation_id, vm_idx, isa, event, reason_code,
	reason_name, class, count, time_ns, source, method, counters_per_event,
	cost_ns_per_event, fidelity, skip)
SELECT id, cell_id, invocation_id, vm_idx, isa, event, reason_code, reason_name, class,
	count, time_ns, source, method, counters_per_event, cost_ns_per_event, fidelity, skip
FROM vmexit;
DROP TABLE vmexit;
ALTER TABLE vmexit_new RENAME TO vmexit;
CREATE INDEX vmexit_cell ON vmexit(cell_id, invocation_id, source);
