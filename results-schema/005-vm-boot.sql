-- 005-vm-boot.sql: the boot phases of every VM a cell boots (backend = qemu),
-- one row per phase seen, each on the clock it was read from:
--   host-monotonic  the host's CLOCK_MONOTONIC, ns (absolute: subtract the
--                   VM's qemu-spawn row for times from the spawn)
--   guest-kernel    the guest kernel's clock since it started, ns (printk
--                   timestamps, /proc/uptime); under TCG this is emulated time
-- A phase that was not seen has no row (never a zero). docs/backends/qemu.md
-- names the phases; finer ones (the guest writing markers to an I/O port,
-- caught on the host by the kvm_pio tracepoint under KVM) are more rows with
-- their own phase names, clock host-monotonic and source kvm_pio.

CREATE TABLE vm_boot (
	cell_id       INTEGER NOT NULL REFERENCES cell(id) ON DELETE CASCADE,
	vm_idx        INTEGER NOT NULL,   -- the cell's VMs, 0.. in boot order
	seq           INTEGER NOT NULL,   -- the phase's place in a boot (0, 10, 20, ...: finer phases fit between)
	phase         TEXT NOT NULL,      -- qemu-spawn, first-console, ..., ready
	t_ns          INTEGER NOT NULL,
	clock         TEXT NOT NULL CHECK (clock IN ('host-monotonic', 'guest-kernel')),
	source        TEXT NOT NULL,      -- where the time was read
	resolution_ns INTEGER,            -- how coarse: a poll period, 10 ms ticks; NULL: read as it happened
	PRIMARY KEY (cell_id, vm_idx, phase)
);
