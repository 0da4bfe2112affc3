#!/usr/bin/python3
# tests/system/idle-vm-db.py DB EXPECTED - turn the database compare-db.py
# made with 48 cells (--repeats 48) into an idle-policy run of every VM type
# x idle policy x threads 1 and 2, and write what the idle-policy table must
# show into EXPECTED (JSON: "VMTYPE POLICY THREADS" -> the row from its
# "VM type" column on), computed here from the crafted numbers.
# Cell i: VM type TYPES[i // 8], policy POLICIES[(i // 2) % 4], threads 1 + i % 2.
#   native     backend native
#   container  backend runc
#   regular    qemu, confidential none, the guest said none: kvm_exit rows by
#              reason (vmx HLT, EXTERNAL_INTERRUPT, MSR_WRITE), with handling times
#   model      qemu, confidential model, the guest said none: no vmexit rows
#   sev-snp    qemu, confidential sev-snp: kvm_exit a skip (count NULL)
#   tdx        qemu, confidential tdx: kvm_exit rows by class (svm and vmx
#              totals: two isa tables), no times
# Under poll the VMs make no HLT exit (no idle row beside the total: 0 exits).
# Latencies: compare-db.py's 1000..1004 us, times i + 1.
import json, sqlite3, statistics, sys

TYPES = ["native", "container", "regular", "model", "sev-snp", "tdx"]
POLICIES = ["hlt", "poll", "haltpoll:200000", "spin"]
db = sqlite3.connect(sys.argv[1])
cells = [r[0] for r in db.execute("SELECT id FROM cell ORDER BY id")]
assert len(cells) == 48, len(cells)
run = db.execute("SELECT max(id) FROM run").fetchone()[0]
q = ("INSERT INTO vmexit (cell_id, invocation_id, vm_idx, isa, event, reason_code, "
     "reason_name, class, count, time_ns, source, method, counters_per_event, "
     "cost_ns_per_event, fidelity, skip) VALUES (?, NULL, NULL, ?, 'kvm_exit', ?, ?, ?, "
     "?, ?, 'tracepoint', 'bpf', 1, NULL, NULL, ?)")
fmt = lambda v, f: "-" if v is None else f % v
want = {}


def param(c, k, v):
    db.execute("INSERT OR REPLACE INTO cell_param VALUES (?, ?, ?)", (c, k, v))


def vmexit_rows(c, vt, p, t):
    """The cell's kvm_exit rows; returns (exits, hlt, hlt %, hlt time %) or Nones."""
    k = (p + 1) * t
    hlt = 0 if POLICIES[p] == "poll" else 300 * k
    if vt == "regular":
        rows = [("vmx", 1, "EXTERNAL_INTERRUPT", "interrupt", 500 * k, 2000 * k),
                ("vmx", 32, "MSR_WRITE", "msr", 200 * k, 1000 * k)]
        if hlt:
            rows.append(("vmx", 12, "HLT", "idle", hlt, 50000 * k))
        total = sum(r[4] for r in rows)
        ttime = sum(r[5] for r in rows)
        rows.append(("vmx", None, "total", None, total, ttime))
        for r in rows:
            db.execute(q, (c,) + r + (None,))
        return total, hlt, 100.0 * hlt / total, 100.0 * (50000 * k if hlt else 0) / ttime
    if vt == "tdx":   # by class, two isa tables, no handling time
        total = 0
        for isa, share in [("vmx", 2), ("svm", 1)]:
            rows = [(isa, None, "io", "io", 100 * k * share, None)]
            if hlt:
                rows.append((isa, None, "idle", "idle", hlt * share, None))
            n = sum(r[4] for r in rows) + 7
            rows.append((isa, None, "total", None, n, None))
            total += n
            for r in rows:
                db.execute(q, (c,) + r + (None,))
        return total, 3 * hlt, 100.0 * 3 * hlt / total, None
    if vt == "sev-snp":
        db.execute(q, (c, "svm", None, "total", None, None, None,
                       "this kernel's KVM does not trace kvm_exit"))
    return None, None, None, None


for i, c in enumerate(cells):
    vt, p, t = TYPES[i // 8], (i // 2) % 4, 1 + i % 2
    backend = {"native": "native", "container": "runc"}.get(vt, "qemu")
    probes = "latency, idle, cpu" + (", vmexit" if backend == "qemu" else "")
    db.execute("UPDATE cell SET threads = ?, probes = ?, backend = ? WHERE id = ?",
               (t, probes, backend, c))
    param(c, "idle", POLICIES[p])
    param(c, "backend", backend)
    if backend == "qemu":
        conf = {"regular": "none"}.get(vt, vt)
        param(c, "confidential", conf)
        param(c, "qemu.accel", "kvm")
        param(c, "guest.cvm.type", "none" if vt in ("regular", "model") else vt)
    else:
        db.execute("DELETE FROM cell_param WHERE cell_id = ? AND key = 'qemu.accel'", (c,))
    db.execute("UPDATE invocation SET latency_ns = latency_ns * ? WHERE cell_id = ?",
               (i + 1, c))
    halt = 10 * (i // 8) + p + t / 10.0
    db.execute("INSERT INTO metric (cell_id, probe, name, value, unit) VALUES "
               "(?, 'idle', 'halt_entries_per_invocation', ?, 'count')", (c, halt))
    lat = [r[0] / 1e6 for r in db.execute(
        "SELECT latency_ns FROM invocation WHERE cell_id = ? AND phase = 'measured'", (c,))]
    exits, hlt, pct, tpct = vmexit_rows(c, vt, p, t)
    want["%s %s %d" % (vt, POLICIES[p], t)] = [
        vt, POLICIES[p], str(len(lat)), "%.2f" % statistics.mean(lat),
        "%.2f" % statistics.median(lat), "%.1f" % halt, "-", "-",
        fmt(exits, "%d"), fmt(hlt, "%d"), fmt(pct, "%.1f %%"), fmt(tpct, "%.1f %%")]
# the run's machine is not a VM: native and container cells are native and container
db.execute("INSERT OR REPLACE INTO environment VALUES (?, 'hypervisor.present', 'no', 'test')",
           (run,))
db.commit()
json.dump(want, open(sys.argv[2], "w"), indent=1)
