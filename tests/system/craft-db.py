#!/usr/bin/python3
# tests/system/craft-db.py DB MODE [NAME] - turn the database of a small
# warm run (two cells, threads 1 and 2, made by cvmbench run) into the
# crafted databases the plot tests need. MODE:
#   runc NAME    add runc sweeps (parallel, cpus, cpu-quota, corunner) for backend
#                NAME, workload NAME and cell_param values NAME, with
#                traced starts and lock contention: every runc figure
#                draws, with NAME in its titles and labels
#   memory NAME  add memory cells (hostmem pss_kb, ksm pages_sharing) with
#                workload, ksm and confidential NAME at 1 and 2 VMs: the
#                memory figure and table draw, with NAME in their labels
#   names NAME   rename the run's workloads, sizes and idle values to NAME
#   noidle       make the cells idle-policy cells (idle = hlt, probes
#                latency, idle, cpu) whose idle probe was skipped
#   halt POLICY  make the cells idle-policy cells under POLICY with halt
#                entries (3 and 5 per call) whose source (cell_param
#                idle.entries_source) alternates between cpuidle and tracefs,
#                or is tracefs for all with POLICY given as POLICY=same
# Written for tests only: it writes rows the way cvmbench would.
import sqlite3, sys

db = sqlite3.connect(sys.argv[1])
mode = sys.argv[2]
name = sys.argv[3] if len(sys.argv) > 3 else ""
run = db.execute("SELECT max(id) FROM run").fetchone()[0]
proto = db.execute("SELECT * FROM cell WHERE run_id = ? ORDER BY id LIMIT 1",
                   (run,)).fetchone()
cols = [d[0] for d in db.execute("SELECT * FROM cell LIMIT 0").description]


def add_cell(key, params, backend):
    row = dict(zip(cols, proto))
    del row["id"]
    row.update(cell_key=key, backend=backend, workload=name, mode="cold",
               experiment=name)
    cur = db.execute("INSERT INTO cell (%s) VALUES (%s)" % (
        ", ".join(row), ", ".join("?" * len(row))), list(row.values()))
    cell = cur.lastrowid
    for k, v in params.items():
        db.execute("INSERT INTO cell_param VALUES (?, ?, ?)", (cell, k, v))
    return cell


def add_starts(cell, base):
    for i in range(4):
        s = db.execute(
            "INSERT INTO runc_start (cell_id, start_idx, runtime, total_ns, "
            "cold_start_ns, blocked_ns, events, namespaces) VALUES "
            "(?, 0, 'runc', ?, ?, 1000000, 10, '')",
            (cell, base + 2000000 + i * 1000, base + i * 1000)).lastrowid
        db.execute("INSERT INTO runc_phase VALUES (?, 'exec', 7, 0, ?)", (s, base))
        db.execute("INSERT INTO runc_lock VALUES (?, ?, '', 1, 1000000)",
                   (s, name))


if mode == "runc":
    for i, (k, v) in enumerate([("parallel", "1"), ("parallel", "2"),
                                ("cpus", "1"), ("cpus", "2"),
                                ("cpu-quota", "50"), ("cpu-quota", "100"),
                                ("corunner", "0"), ("corunner", "1")]):
        p = {k: v, "seccomp": name, "netns": name}
        add_starts(add_cell("c%d" % i, p, name), 5000000 * (i + 1))
elif mode == "memory":
    for i in range(4):
        p = {"workload": name, "ksm": name if i < 2 else "off",
             "confidential": name, "vms": str(i % 2 + 1)}
        c = add_cell("m%d" % i, p, name)
        db.execute("INSERT INTO metric (cell_id, probe, name, value, unit) VALUES "
                   "(?, 'hostmem', 'pss_kb', ?, 'kB')", (c, 200000 * (i % 2 + 1)))
        db.execute("INSERT INTO metric (cell_id, probe, name, value, unit) VALUES "
                   "(?, 'ksm', 'pages_sharing', 1000, 'pages')", (c,))
elif mode == "names":
    db.execute("UPDATE cell SET workload = ?, size = ? WHERE run_id = ?",
               (name, name, run))
    db.execute("INSERT OR REPLACE INTO cell_param SELECT id, 'idle', ? FROM cell "
               "WHERE run_id = ?", (name, run))
elif mode == "noidle":
    db.execute("UPDATE cell SET probes = 'latency, idle, cpu' WHERE run_id = ?", (run,))
    db.execute("INSERT OR REPLACE INTO cell_param SELECT id, 'idle', 'hlt' FROM cell "
               "WHERE run_id = ?", (run,))
    db.execute("INSERT INTO skip (run_id, cell_id, probe, reason) SELECT ?, id, "
               "'idle', 'no cpuidle driver (current_driver is none)' FROM cell "
               "WHERE run_id = ?", (run, run))
elif mode == "halt":
    policy, _, same = name.partition("=")
    cells = [r[0] for r in db.execute("SELECT id FROM cell WHERE run_id = ? ORDER BY id",
                                      (run,))]
    db.execute("UPDATE cell SET probes = 'latency, idle, cpu' WHERE run_id = ?", (run,))
    for k, c in enumerate(cells):
        src = ("cpuidle sysfs stateK/usage and time (driver haltpoll)" if k % 2 and
               not same else "tracefs power:cpu_idle (no cpuidle driver; fired)")
        db.execute("INSERT OR REPLACE INTO cell_param VALUES (?, 'idle', ?)", (c, policy))
        db.execute("INSERT OR REPLACE INTO cell_param VALUES "
                   "(?, 'idle.entries_source', ?)", (c, src))
        db.execute("INSERT INTO metric (cell_id, probe, name, value, unit) VALUES "
                   "(?, 'idle', 'halt_entries_per_invocation', ?, 'count')", (c, 3 + 2 * k))
else:
    sys.exit("craft-db.py: unknown mode " + mode)
db.commit()
