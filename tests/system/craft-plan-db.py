#!/usr/bin/python3
# tests/system/craft-plan-db.py DB MODE - a database for the capacity planner
# (tests/system/plan-db.t), made from results-schema/001..009 (schema 9: the
# planner must migrate it to add its tables), with one run of qemu cells for
# two platforms and two functions (fa, fb):
#   regular  confidential none, ksm on; fa: memcg_usage_kb 262144 over 2
#            instances; fb: pss_kb 204800 only (no cgroup figure), 1 instance
#   model    confidential model, ksm off; its memory is the regular one's
#            times FACTOR (MODE larger: 1.5; equal: 1; missing: 1.5 and
#            fb's model cell has no hostmem row)
# Every cell: two VM boots (qemu-spawn, ready: 800 and 900 ms, host clock),
# a warm-up call of 40 ms and 30 measured warm calls of 5..34 ms, the same
# on both platforms, so only memory differs between them.
import glob
import os
import sqlite3
import sys

db, mode = sys.argv[1], sys.argv[2]
root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
h = sqlite3.connect(db)
for f in sorted(glob.glob(os.path.join(root, "results-schema", "00[1-9]-*.sql"))):
    h.executescript(open(f).read())
h.execute("PRAGMA user_version = 9")
h.execute("PRAGMA application_id = %d" % 0x63766d62)
h.execute("INSERT INTO run (id, started_at, vantage, cvmbench_version, command_line, status)"
          " VALUES (1, '2026-01-01T00:00:00Z', 'host', 'test', 'crafted', 'complete')")
factor = 1.0 if mode == "equal" else 1.5
MEM = {"fa": ("memcg_usage_kb", 262144, 2), "fb": ("pss_kb", 204800, 1)}
cid = 0
for conf, ksm, f in (("none", "on", 1.0), ("model", "off", factor)):
    for wl in ("fa", "fb"):
        cid += 1
        name, kb, inst = MEM[wl]
        h.execute("INSERT INTO cell (id, run_id, cell_key, experiment, workload, size, backend,"
                  " threads, wait, mode, instances, invocations, warmup, repeat_index, seed,"
                  " probes, spec, status, started_at) VALUES (?, 1, ?, 'plan', ?, 'test',"
                  " 'qemu', 1, 'block', 'warm', ?, 30, 1, 0, 1, 'hostmem', '', 'ok', 'x')",
                  (cid, "plan-%s-%s" % (conf, wl), wl, inst))
        for k, v in (("confidential", conf), ("ksm", ksm), ("workload", wl),
                     ("instances", str(inst))):
            h.execute("INSERT INTO cell_param VALUES (?, ?, ?)", (cid, k, v))
        if not (mode == "missing" and conf == "model" and wl == "fb"):
            h.execute("INSERT INTO metric (cell_id, probe, name, value, unit) VALUES"
                      " (?, 'hostmem', ?, ?, 'kb')", (cid, name, kb * f))
            if name == "memcg_usage_kb":     # PSS beside it: the cgroup figure wins
                h.execute("INSERT INTO metric (cell_id, probe, name, value, unit) VALUES"
                          " (?, 'hostmem', 'pss_kb', 1, 'kb')", (cid,))
        for vm, ms in ((0, 800), (1, 900)):
            for seq, ph, t in ((0, "qemu-spawn", 10**9), (60, "ready", 10**9 + ms * 10**6)):
                h.execute("INSERT INTO vm_boot VALUES (?, ?, ?, ?, ?, 'host-monotonic', 'x', NULL)",
                          (cid, vm, seq, ph, t))
        h.execute("INSERT INTO invocation (cell_id, instance_idx, seq, phase, start, started_at,"
                  " latency_ns, ok) VALUES (?, 0, 0, 'warmup', 'warm', 'x', 40000000, 1)", (cid,))
        for i in range(30):
            h.execute("INSERT INTO invocation (cell_id, instance_idx, seq, phase, start,"
                      " started_at, latency_ns, ok) VALUES (?, 0, ?, 'measured', 'warm', 'x',"
                      " ?, 1)", (cid, i + 1, (5 + i) * 10**6))
h.commit()
