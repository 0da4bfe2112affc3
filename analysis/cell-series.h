/* SPDX-License-Identifier: MIT */
/*
 * cell-series.h - the series a cell of a memory figure or table belongs
 * to, as SQL over a cell row `c`: the confidential type it got, its memory
 * acceptance where the database has both points, and its KSM setting
 * (docs/experiments/memory.md, "Series"). String literals, concatenated
 * into each query (memory-cells.h, memory-table.c).
 *
 * What the cell got, the first that is there:
 *   1. cell_param `guest.cvm.type`: its guest's own detection (the qemu
 *      backend notes the guest's facts as guest.*: qemu-vms.c);
 *   2. a cell that did not run in VMs of its own (no cell_param
 *      `qemu.accel`, backend not qemu: guest vantage, cvmbench ran inside
 *      the VM under test): its run's environment `cvm.type`;
 *   3. cell_param `confidential`, what it asked for (a qemu cell whose
 *      guest reported nothing, or a database without the keys above);
 *   4. "none".
 * A cell that asked for `model` and got a regular guest ("none") is
 * "model": a model is a regular VM by design. So a database without
 * guest.cvm.type and cvm.type draws as it always did, from `confidential`.
 * The same rule as compare's side (compare-pair.c cvm_side), which in
 * addition refuses to pair a cell that got less than it asked for.
 */
#ifndef CVMBENCH_CELL_SERIES_H
#define CVMBENCH_CELL_SERIES_H

#define CELL_SERIES_PARAM(key) \
	"(SELECT value FROM cell_param WHERE cell_id = c.id AND key = '" key "')"

/* What the cell asked for: none, model, sev-snp, tdx. */
#define CELL_SERIES_ASKED "COALESCE(" CELL_SERIES_PARAM("confidential") ", 'none')"

/* What the cell got (steps 1-4 above, before the model rule). */
#define CELL_SERIES_GOT \
	"COALESCE(" CELL_SERIES_PARAM("guest.cvm.type") "," \
	" CASE WHEN " CELL_SERIES_PARAM("qemu.accel") " IS NULL AND c.backend <> 'qemu'" \
	"  THEN (SELECT value FROM environment WHERE run_id = c.run_id" \
	"  AND key = 'cvm.type') END, " CELL_SERIES_ASKED ")"

/* The cell's confidential type: what it got, "model" for a model's regular guest. */
#define CELL_SERIES_CONF \
	"(CASE WHEN " CELL_SERIES_ASKED " = 'model' AND " CELL_SERIES_GOT " = 'none'" \
	" THEN 'model' ELSE " CELL_SERIES_GOT " END)"

/*
 * The VM type of a cell from columns @ownvm (it ran in VMs of its own:
 * backend qemu or a cell_param qemu.accel), @conf (CELL_SERIES_CONF), @hv
 * (its run's environment hypervisor.present) and @backend: the type its own
 * VMs got ("regular" for none); else the machine's type, "regular" for a
 * machine that is a VM, "native" for a process on the machine (backend
 * native, or zygote: children of a seed on the host), else "container".
 * CELL_SERIES_VMRANK(vt) orders them native, container, regular, model,
 * sev-snp, tdx, then any other (6).
 */
#define CELL_SERIES_VMTYPE(ownvm, conf, hv, backend) \
	"CASE WHEN " ownvm " THEN (CASE " conf " WHEN 'none' THEN 'regular' ELSE " conf " END) " \
	"WHEN " conf " <> 'none' THEN " conf " WHEN " hv " = 'yes' THEN 'regular' " \
	"WHEN " backend " IN ('native', 'zygote') THEN 'native' ELSE 'container' END"
#define CELL_SERIES_VMRANK(vt) \
	"CASE " vt " WHEN 'native' THEN 0 WHEN 'container' THEN 1 WHEN 'regular' THEN 2 " \
	"WHEN 'model' THEN 3 WHEN 'sev-snp' THEN 4 WHEN 'tdx' THEN 5 ELSE 6 END"
/* The columns of CELL_SERIES_VMTYPE for a cell row `c`. */
#define CELL_SERIES_OWNVM "(c.backend = 'qemu' OR " CELL_SERIES_PARAM("qemu.accel") " IS NOT NULL)"
#define CELL_SERIES_HV \
	"(SELECT value FROM environment e WHERE e.run_id = c.run_id AND " \
	"e.key = 'hypervisor.present')"

/*
 * The cell's memory acceptance (guest-accept: eager, lazy; a cell without
 * the key is eager, as every cell before it) where the database has a
 * lazy cell, so that both points are told apart; NULL for a regular cell
 * and wherever no cell is lazy (old databases draw as before).
 */
#define CELL_SERIES_ACCEPT \
	"(CASE WHEN EXISTS (SELECT 1 FROM cell_param WHERE key = 'guest-accept'" \
	" AND value = 'lazy') AND " CELL_SERIES_ASKED " <> 'none'" \
	" THEN COALESCE(" CELL_SERIES_PARAM("guest-accept") ", 'eager') END)"

/*
 * The series' name from columns @conf (CELL_SERIES_CONF), @accept
 * (CELL_SERIES_ACCEPT) and @ksm (on, off, unchanged): "ksm on" for a
 * regular VM; the type, its acceptance where there is one, then its KSM
 * setting unless off, for the others: "model", "model lazy",
 * "sev-snp eager, ksm on", "tdx".
 */
#define CELL_SERIES_NAME(conf, accept, ksm) \
	"(CASE WHEN " conf " = 'none' THEN 'ksm ' || " ksm \
	" ELSE " conf " || COALESCE(' ' || " accept ", '') ||" \
	" CASE WHEN " ksm " = 'off' THEN '' ELSE ', ksm ' || " ksm " END END)"

#endif
