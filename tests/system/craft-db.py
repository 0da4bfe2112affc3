#!/usr/bin/python3
# tests/system/craft-db.py DB MODE [NAME] - turn the database of a small
# warm run (two cells, threads 1 and 2, made by cvmbench run) into the
# crafted databases the plot tests need. MODE:
#   runc NAME    add runc sweeps (parallel, cpus, cpu-quota, corunner) for backend
#                NAME, workload NAME and cell_param values NAME, with
#                traced starts and lock contention, and a netns pool's
#                events for the first cell: every runc and pool figure
#                draws, with NAME in its titles and labels
#   memory NAME  add memory cells (hostmem pss_kb, ksm pages_sharing) with
#                workload, ksm and confidential NAME at 1 and 2 VMs, and ksm
#                = on cells with a memory_sample series (vm-workloads NAME):
#                every memory figure and the table draw, NAME in their labels
#   names NAME   rename the run's workloads, sizes and idle values to NAME
#   noidle       make the cells idle-policy cells (idle = hlt, probes
#                latency, idle, cpu) whose idle probe was skipped
#   pair NAME    add a second run whose machine is a CVM of type NAME (its
#                environment's cvm.type), with a copy of the run's measured
#                cells and their calls 1.2 times slower: the overhead figure
#                draws, NAME in its legend
#   services NAME  add two runs (ids below the others: the latest run stays
#                the one drawn), a regular machine and a CVM of type NAME, each
#                with a copy of the latest run's first measured cell as a service
#                cell of workload "NAME svc" (its calls the windows) whose windows
#                carry the catalog metrics of parser wrk (metrics/service-metrics.h)
#                requests_per_s (1000/s, the CVM 800/s) and latency_p99_ns (200 us,
#                the CVM 250 us); the regular run also a skipped copy asking for
#                confidential = sev-snp, its skip reason NAME: the system-suite and
#                system-overhead figures draw, NAME in their labels
#   vmboot NAME  add three qemu cells with VM boots (table vm_boot): 1 and 2
#                vCPUs with accel NAME and tcg, confidential NAME, all seven
#                phases; one more boot without its guest phases (not drawn)
#   halt POLICY  make the cells idle-policy cells under POLICY with halt
#                entries (3 and 5 per call) whose source (cell_param
#                idle.entries_source) alternates between cpuidle and tracefs,
#                or is tracefs for all with POLICY given as POLICY=same
#   vmexit EVENT give the first cell vmexit probe counts of EVENT
#                (kvm_exit or kvm_userspace_exit) by class for the cell window
#                (idle 3000/s, io 1500/s, other 500/s); the other cells have a
#                vmexit skip and no counts
#   vmexit-pair NAME  add to the run two qemu cells of its first cell's
#                workload and settings, a regular one (confidential = none)
#                and its confidential twin (confidential = NAME), 20
#                measured calls each, the twin's 1.25 times slower, and
#                kvm_exit counts by class for both (the twin: idle 30000/s,
#                io 8000/s, mmio 4000/s, page-state 2000/s): the vmexit-rate
#                figure draws the twin's slowdown beside its bars
#   vmexit-rows NAME  give the first cell vmexit table rows (007) for the cell
#                window: kvm_exit (svm) by reason with counts and some times,
#                a reason named NAME, the total with a fidelity flag (and its
#                metric flag_vmexit_fidelity), KVM's
#                statistics of VM 0 and a kvm-stats skip for VM 1, and one
#                invocation window; the other cells have a vmexit skip
#   ipc          give the measured calls of the first cell pmu rows
#                instructions_per_cycle 1.5 and mpki.cache-misses 4 (the
#                hardware events a PMU gives); the other cells keep none
#   ple NAME     add four cells of workload NAME: ple default and off, each with
#                corunner 0 and with corunner 8 of kind kv, with copies of the
#                first cell's measured calls (latency x 1, 1.5, 1.2, 2.5); and a
#                fifth, ple = off next to a cpu co-runner, that is not drawn
#   seed NAME    add four cells of workload NAME forked from seeds (backend
#                zygote at seed-layer bare, runtime, warm; and warm in VMs of
#                confidential type NAME, backend qemu), each with 4 starts
#                (seed_start: fork 2 ms, rest of init 8, 1, 0.3 and 0.3 ms,
#                first call 1 ms) and 3 children sampled after the calls
#                (seed_memory called = 1: PSS 900, USS 300, Private_Dirty 200,
#                600 on the seed's frames, NULL in the VM cell, seed PSS 1800)
#                besides one sample before a fork (called = 0, 99999 each)
#                that no figure draws: seed-start and seed-memory draw
#   text         put the hostile text PAYLOAD (below: a terminal title, a
#                screen clear, CR LF and a forged TAP line, Markdown fences
#                and table, link and HTML markup, C1 NEL, DEL, invalid UTF-8:
#                \xff, a truncated \xe2\x82, an overlong \xc0\xaf) into the
#                text of every run: every cell's experiment and workload, the
#                first cell's key and its cell_param wait, a skip reason and
#                an error message of that cell, an environment value, the
#                run's command line and config path. Run it after the other
#                modes (Python's sqlite3 reads no invalid UTF-8).
#   numbers KIND [some]  set the numbers the figures draw (latencies of calls,
#                container starts and their phases and locks, VM boot times,
#                metric values, memory samples, VM exit counts and times, starts and
#                memory of children of seeds) to
#                KIND: zero, negative (their negation), inf (9e999: SQLite
#                keeps an infinite REAL), nan (NULL: SQLite stores NaN as
#                NULL; NOT NULL columns keep their value) or huge (1e300);
#                with some, only every other row (the rest still draws)
# Modes that make a new DB (or change what it is) rather than add rows:
#   schema N     a database an older cvmbench wrote: only the migrations
#                1..N of results-schema/ applied, user_version N, no
#                application_id (written before the mark), one complete run
#   foreign      another program's file that looks like one: tables run,
#                cell and invocation (an id column each), user_version 1,
#                application_id 0
#   drop-table T drop table T (and what refers to it: foreign keys off)
# Written for tests only: it writes rows the way cvmbench would.
import glob, os, sqlite3, sys

# mode text: what a hostile database holds in its text (bytes, not UTF-8)
PAYLOAD = (b"pwned\x1b]0;title\x07\x1b[2J\r\nok 1 - forged\n```\n~~~\n| a | b |\n"
           b"===\n[l](u) <b>x</b> # \xc2\x85\x7f \xff\xe2\x82 \xc0\xaf end")
db = sqlite3.connect(sys.argv[1])
db.execute("PRAGMA synchronous = OFF")   # a test's scratch file: no fsync per craft
mode = sys.argv[2]
name = sys.argv[3] if len(sys.argv) > 3 else ""


def make_schema(n):
    top = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
    for f in sorted(glob.glob(os.path.join(top, "results-schema", "[0-9]*.sql"))):
        if int(os.path.basename(f)[:3]) <= n:
            db.executescript(open(f).read())
    db.execute("PRAGMA user_version = %d" % n)
    db.execute("INSERT INTO run (started_at, status, vantage, cvmbench_version, "
               "command_line) VALUES ('2026-11-30T00:00:00.000000Z', 'complete', "
               "'host', 'old', 'cvmbench run old.ini')")


if mode == "schema":
    make_schema(int(name))
elif mode == "foreign":
    db.executescript("CREATE TABLE run (id INTEGER PRIMARY KEY); "
                     "CREATE TABLE cell (id INTEGER PRIMARY KEY); "
                     "CREATE TABLE invocation (id INTEGER PRIMARY KEY); "
                     "PRAGMA user_version = 1;")
elif mode == "drop-table":
    db.execute("PRAGMA foreign_keys = OFF")
    db.execute("DROP TABLE %s" % name)
if mode in ("schema", "foreign", "drop-table"):
    db.commit()
    sys.exit(0)
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
        c = add_cell("c%d" % i, p, name)
        add_starts(c, 5000000 * (i + 1))
        if i == 0:   # a netns pool of 2: drained, a fallback, two refills
            for t, (e, free, cost) in enumerate([
                    ("fill", 1, 4e6), ("fill", 2, 4e6), ("take", 1, None),
                    ("take", 0, None), ("fallback", 0, 9e6), ("refill", 1, 5e6),
                    ("refill", 2, 6e6)]):
                db.execute("INSERT INTO oci_pool_event (cell_id, t_ns, pool, event, "
                           "free, cost_ns, cpu_ns) VALUES (?, ?, 'netns', ?, ?, ?, ?)",
                           (c, t * 50000000, e, free, cost, cost and cost / 4))
elif mode == "memory":
    for i in range(4):
        p = {"workload": name, "ksm": name if i < 2 else "off",
             "confidential": name, "vms": str(i % 2 + 1)}
        c = add_cell("m%d" % i, p, name)
        db.execute("INSERT INTO metric (cell_id, probe, name, value, unit) VALUES "
                   "(?, 'hostmem', 'pss_kb', ?, 'kB')", (c, 200000 * (i % 2 + 1)))
        db.execute("INSERT INTO metric (cell_id, probe, name, value, unit) VALUES "
                   "(?, 'ksm', 'pages_sharing', 1000, 'pages')", (c,))
    # ksm = on cells at 1 and 2 VMs (the second with 2 instances and a
    # vm-workloads of NAME) with a time series: memory-overhead,
    # memory-mixed, consolidation and ksm-convergence draw
    for i in range(2):
        p = {"workload": name, "ksm": "on", "confidential": name,
             "vms": str(i + 1), "instances": str(i + 1)}
        if i:
            p["vm-workloads"] = name
        c = add_cell("mk%d" % i, p, name)
        db.execute("INSERT INTO metric (cell_id, probe, name, value, unit) VALUES "
                   "(?, 'hostmem', 'pss_kb', ?, 'kB')", (c, 150000 * (i + 1)))
        for t in range(4):
            for k in range(i + 1):
                db.execute("INSERT INTO memory_sample (cell_id, t_ns, source, instance, "
                           "pid, name, value, unit) VALUES (?, ?, 'smaps_rollup', ?, ?, "
                           "'pss_kb', ?, 'kB')", (c, t * 500000000 + k, k, 100 + k,
                                                   90000 - t * 1000))
            db.execute("INSERT INTO memory_sample (cell_id, t_ns, source, instance, pid, "
                       "name, value, unit) VALUES (?, ?, 'ksm', NULL, NULL, "
                       "'pages_sharing', ?, 'pages')", (c, t * 500000000, 1000 * t))
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
elif mode == "pair":
    rcols = [d[0] for d in db.execute("SELECT * FROM run LIMIT 0").description]
    r = dict(zip(rcols, db.execute("SELECT * FROM run WHERE id = ?", (run,)).fetchone()))
    # an id below the others: the run the other figures draw stays the latest
    r["id"] = db.execute("SELECT min(id) - 1 FROM run").fetchone()[0]
    r["started_at"] = "2000-01-01T00:00:00.000000Z"
    new = db.execute("INSERT INTO run (%s) VALUES (%s)" % (", ".join(r), ", ".join(
        "?" * len(r))), list(r.values())).lastrowid
    db.execute("INSERT INTO environment SELECT ?, key, CASE key WHEN 'cvm.type' THEN ? "
               "ELSE value END, source FROM environment WHERE run_id = ?", (new, name, run))
    for (old,) in db.execute("SELECT id FROM cell WHERE run_id = ? AND status = 'ok'",
                             (run,)).fetchall():
        c = dict(zip(cols, db.execute("SELECT * FROM cell WHERE id = ?", (old,)).fetchone()))
        del c["id"]
        c["run_id"] = new
        cell = db.execute("INSERT INTO cell (%s) VALUES (%s)" % (", ".join(c), ", ".join(
            "?" * len(c))), list(c.values())).lastrowid
        db.execute("INSERT INTO cell_param SELECT ?, key, value FROM cell_param "
                   "WHERE cell_id = ?", (cell, old))
        db.execute("INSERT INTO invocation (cell_id, instance_idx, seq, phase, start, "
                   "started_at, latency_ns, fn_ns, ok) SELECT ?, instance_idx, seq, phase, "
                   "start, started_at, CAST(latency_ns * 1.2 AS INTEGER), fn_ns, ok FROM "
                   "invocation WHERE cell_id = ?", (cell, old))
elif mode == "services":
    rcols = [d[0] for d in db.execute("SELECT * FROM run LIMIT 0").description]
    one = db.execute("SELECT id FROM cell WHERE run_id = ? AND status = 'ok' ORDER BY id "
                     "LIMIT 1", (run,)).fetchone()
    for k, cvm in enumerate(("none", name)):
        r = dict(zip(rcols, db.execute("SELECT * FROM run WHERE id = ?", (run,)).fetchone()))
        # ids below the others: the run the other figures draw stays the latest
        r["id"] = db.execute("SELECT min(id) - 1 FROM run").fetchone()[0]
        r["started_at"] = "2000-01-0%dT00:00:00.000000Z" % (k + 2)
        new_run = db.execute("INSERT INTO run (%s) VALUES (%s)" % (", ".join(r), ", ".join(
            "?" * len(r))), list(r.values())).lastrowid
        db.execute("INSERT INTO environment SELECT ?, key, CASE key WHEN 'cvm.type' THEN ? "
                   "ELSE value END, source FROM environment WHERE run_id = ?", (new_run, cvm, run))
        c = dict(zip(cols, db.execute("SELECT * FROM cell WHERE id = ?", one).fetchone()))
        del c["id"]
        wl = c["workload"]
        c["run_id"] = new_run
        c["workload"] = name + " svc"
        c["spec"] = c["spec"].replace("workload = " + wl, "workload = " + c["workload"])
        cell = db.execute("INSERT INTO cell (%s) VALUES (%s)" % (", ".join(c), ", ".join(
            "?" * len(c))), list(c.values())).lastrowid
        db.execute("INSERT INTO cell_param SELECT ?, key, CASE key WHEN 'workload' THEN ? "
                   "ELSE value END FROM cell_param WHERE cell_id = ?", (cell, c["workload"], one[0]))
        db.execute("INSERT OR REPLACE INTO cell_param VALUES (?, 'svc.parser', 'wrk')", (cell,))
        f = 0.8 if k else 1.0
        for (inv,) in db.execute("SELECT id FROM invocation WHERE cell_id = ? AND phase = "
                                 "'measured' AND ok = 1", one).fetchall():
            w = db.execute("INSERT INTO invocation (cell_id, instance_idx, seq, phase, start, "
                           "started_at, latency_ns, fn_ns, ok) SELECT ?, instance_idx, seq, "
                           "phase, start, started_at, latency_ns, fn_ns, ok FROM invocation "
                           "WHERE id = ?", (cell, inv)).lastrowid
            for metric, v, unit in (("requests_per_s", 1000 * f * (1 + inv % 7 / 100), "1/s"),
                                    ("latency_p99_ns", 2e5 / f * (1 + inv % 5 / 100), "ns")):
                db.execute("INSERT INTO metric (cell_id, invocation_id, probe, name, value, "
                           "unit) VALUES (?, ?, 'wrk', ?, ?, ?)", (cell, w, metric, v, unit))
        if not k:
            c["cell_key"] += "-snp"
            c["status"] = "skipped"
            c["spec"] += "confidential = sev-snp\n"
            skipped = db.execute("INSERT INTO cell (%s) VALUES (%s)" % (", ".join(c), ", ".join(
                "?" * len(c))), list(c.values())).lastrowid
            db.execute("INSERT INTO skip (run_id, cell_id, probe, reason) VALUES (?, ?, NULL, ?)",
                       (new_run, skipped, name))
elif mode == "vmexit":
    cells = [r[0] for r in db.execute("SELECT id FROM cell WHERE run_id = ? ORDER BY id",
                                      (run,))]
    for cls, rate in [("idle", 3000), ("io", 1500), ("other", 500)]:
        for suffix, v, unit in [("", rate * 2, "count"), (".per_s", rate, "1/s")]:
            db.execute("INSERT INTO metric (cell_id, probe, name, value, unit) VALUES "
                       "(?, 'vmexit', ?, ?, ?)",
                       (cells[0], "%s.class.%s%s" % (name, cls, suffix), v, unit))
    db.execute("INSERT INTO metric (cell_id, probe, name, value, unit) VALUES "
               "(?, 'vmexit', ?, 10000, 'count')", (cells[0], name + ".total"))
    for c in cells[1:]:
        db.execute("INSERT INTO skip (run_id, cell_id, probe, reason) VALUES "
                   "(?, ?, 'vmexit', 'the VMs run under tcg (accel = tcg): QEMU emulates the guest, which makes no VM exits')", (run, c))
elif mode == "vmexit-pair":
    old = db.execute("SELECT min(id) FROM cell WHERE run_id = ?", (run,)).fetchone()[0]
    c = dict(zip(cols, db.execute("SELECT * FROM cell WHERE id = ?", (old,)).fetchone()))
    rates = {"none": [("idle", 2000), ("io", 1000)],
             name: [("idle", 30000), ("io", 8000), ("mmio", 4000), ("page-state", 2000)]}
    for side, slow in [("none", 1.0), (name, 1.25)]:
        row = dict(c)
        del row["id"]
        row["cell_key"] = c["cell_key"] + ("-qemu" if side == "none" else "-qemu-cvm")
        row["backend"] = "qemu"
        row["probes"] = "latency, vmexit"    # not an idle cell: only this figure's
        row["spec"] = "\n".join(
            "backend = qemu" if ln.startswith("backend = ") else
            "confidential = " + side if ln.startswith("confidential = ") else ln
            for ln in c["spec"].split("\n"))
        cell = db.execute("INSERT INTO cell (%s) VALUES (%s)" % (", ".join(row), ", ".join(
            "?" * len(row))), list(row.values())).lastrowid
        db.execute("INSERT INTO cell_param SELECT ?, key, CASE key WHEN 'backend' THEN "
                   "'qemu' WHEN 'confidential' THEN ? WHEN 'probes' THEN 'latency, vmexit' "
                   "ELSE value END FROM cell_param WHERE cell_id = ?", (cell, side, old))
        # the accelerator the VMs ran under, which the qemu backend stores for every
        # cell whose VMs started (compare takes a cell with it for one in VMs of its own)
        db.execute("INSERT INTO cell_param VALUES (?, 'qemu.accel', 'tcg')", (cell,))
        for k in range(20):
            ns = int((1000000 + 37000 * ((k * 7) % 20)) * slow)
            db.execute("INSERT INTO invocation (cell_id, instance_idx, seq, phase, start, "
                       "started_at, latency_ns, fn_ns, ok) VALUES (?, 0, ?, 'measured', "
                       "'warm', '2026-12-01T00:00:00.000000Z', ?, ?, 1)", (cell, k, ns, ns))
        total = 0
        for cls, rate in rates[side]:
            total += rate * 2
            for suffix, v, unit in [("", rate * 2, "count"), (".per_s", rate, "1/s")]:
                db.execute("INSERT INTO metric (cell_id, probe, name, value, unit) VALUES "
                           "(?, 'vmexit', ?, ?, ?)",
                           (cell, "kvm_exit.class.%s%s" % (cls, suffix), v, unit))
        db.execute("INSERT INTO metric (cell_id, probe, name, value, unit) VALUES "
                   "(?, 'vmexit', 'kvm_exit.total', ?, 'count')", (cell, total))
elif mode == "vmexit-rows":
    cells = [r[0] for r in db.execute("SELECT id FROM cell WHERE run_id = ? ORDER BY id",
                                      (run,))]
    inv = db.execute("SELECT min(id) FROM invocation WHERE cell_id = ?",
                     (cells[0],)).fetchone()[0]
    q = ("INSERT INTO vmexit (cell_id, invocation_id, vm_idx, isa, event, reason_code, "
         "reason_name, class, count, time_ns, source, method, counters_per_event, "
         "cost_ns_per_event, fidelity, skip) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, "
         "?, ?, ?, ?)")
    tp = [(120, "hlt", "idle", 4000, 39000000000), (123, "io", "io", 6000, 300000000),
          (1024, "npf", "mmio", 2000, 100000000), (124, "msr", "msr", 500, None),
          (999, name, "other", 10, None)]
    for code, rn, cls, n, t in tp:
        db.execute(q, (cells[0], None, None, "svm", "kvm_exit", code, rn, cls, n, t,
                       "tracepoint", "perf-filter", 81, None, None, None))
    db.execute(q, (cells[0], None, None, "svm", "kvm_exit", None, "total", None, 12510,
                   None, "tracepoint", "perf-filter", 81, 210.0,
                   "kvm_exit counted 12510, KVM's exits 12700: 1.50 % apart (> 1 %)", None))
    db.execute("INSERT INTO metric (cell_id, probe, name, value, unit) VALUES "
               "(?, 'vmexit', 'flag_vmexit_fidelity', 1, 'count')", (cells[0],))
    for rn, n, t in [("exits", 12700, None), ("halt_exits", 4000, None),
                     ("halt_wait_ns", None, 38000000000)]:
        db.execute(q, (cells[0], None, 0, None, "kvm-stats", None, rn, None, n, t,
                       "kvm-stats", "qmp", None, None, None, None))
    db.execute(q, (cells[0], None, 1, None, "kvm-stats", None, "exits", None, None, None,
                   "kvm-stats", "qmp", None, None, None,
                   "query-stats returned no kvm vCPU statistics (the VM does not run "
                   "under KVM)"))
    db.execute(q, (cells[0], inv, None, "svm", "kvm_exit", 123, "io", "io", 60, None,
                   "tracepoint", "perf-filter", 81, None, None, None))
    for c in cells[1:]:
        db.execute("INSERT INTO skip (run_id, cell_id, probe, reason) VALUES "
                   "(?, ?, 'vmexit', 'the VMs run under tcg (accel = tcg): QEMU emulates the guest, which makes no VM exits')", (run, c))
elif mode == "vmboot":
    phases = [("qemu-spawn", 0, "host-monotonic"), ("first-console", 500, "host-monotonic"),
              ("console-enabled", 160, "guest-kernel"), ("run-init", 1500, "guest-kernel"),
              ("init-start", 1560, "guest-kernel"), ("guest-ready", 1800, "guest-kernel"),
              ("ready", 2300, "host-monotonic")]
    for i, (vcpus, accel, keep) in enumerate([("1", name, 7), ("2", "tcg", 7),
                                              ("2", "tcg", 2)]):
        c = add_cell("vm%d" % i, {"vcpus": vcpus, "memory": "256", "accel": accel,
                                  "confidential": name}, "qemu")
        for seq, (ph, ms, clock) in enumerate(phases[:keep] if keep == 7 else
                                              [phases[0], phases[6]]):
            t = ms * 1000000 + (10 ** 12 if clock == "host-monotonic" else 0)
            db.execute("INSERT INTO vm_boot VALUES (?, 0, ?, ?, ?, ?, ?, NULL)",
                       (c, seq * 10, ph, t, clock, name))
elif mode == "ipc":
    first = db.execute("SELECT min(id) FROM cell WHERE run_id = ?", (run,)).fetchone()[0]
    for inv, in db.execute("SELECT id FROM invocation WHERE cell_id = ? AND "
                           "phase = 'measured'", (first,)).fetchall():
        for n, v, unit in [("instructions_per_cycle", 1.5, "ratio"),
                           ("mpki.cache-misses", 4, "per 1000 instructions")]:
            db.execute("INSERT INTO metric (cell_id, invocation_id, probe, name, value, "
                       "unit) VALUES (?, ?, 'pmu', ?, ?, ?)", (first, inv, n, v, unit))
elif mode == "ple":
    first = db.execute("SELECT min(id) FROM cell WHERE run_id = ?", (run,)).fetchone()[0]
    icols = [d[0] for d in db.execute("SELECT * FROM invocation LIMIT 0").description]
    calls = db.execute("SELECT * FROM invocation WHERE cell_id = ? AND phase = 'measured' "
                       "AND ok = 1", (first,)).fetchall()
    for i, (ple, co, kind, f) in enumerate([("default", "0", "cpu", 1), ("default", "8", "kv", 1.5),
                                            ("off", "0", "cpu", 1.2), ("off", "8", "kv", 2.5),
                                            ("off", "2", "cpu", 9)]):
        c = add_cell("ple%d" % i, {"ple": ple, "corunner": co, "corunner-kind": kind}, "qemu")
        for r in calls:
            row = dict(zip(icols, r))
            del row["id"]
            row.update(cell_id=c, latency_ns=int(row["latency_ns"] * f))
            db.execute("INSERT INTO invocation (%s) VALUES (%s)" % (
                ", ".join(row), ", ".join("?" * len(row))), list(row.values()))
elif mode == "seed":
    for i, (layer, init_ms, backend) in enumerate([("bare", 8, "zygote"), ("runtime", 1, "zygote"),
                                                   ("warm", 0.3, "zygote"), ("warm", 0.3, "qemu")]):
        p = {"seed-layer": layer}
        if backend == "qemu":
            p["confidential"] = name
        c = add_cell("seed%d" % i, p, backend)
        for k in range(4):
            db.execute("INSERT INTO seed_start VALUES (?, ?, ?, 2000000, ?, 1000000)",
                       (c, 100 + k, layer, int(init_ms * 1e6)))
        shared = None if backend == "qemu" else 600
        for k in range(3):
            db.execute("INSERT INTO seed_memory (cell_id, children, called, pid, pss_kb, "
                       "uss_kb, private_dirty_kb, seed_shared_kb, seed_pss_kb) VALUES "
                       "(?, 3, 1, ?, 900, 300, 200, ?, 1800)", (c, 100 + k, shared))
        db.execute("INSERT INTO seed_memory (cell_id, children, called, pid, pss_kb, uss_kb, "
                   "private_dirty_kb, seed_shared_kb, seed_pss_kb) VALUES "
                   "(?, 1, 0, 100, 99999, 99999, 99999, 99999, 99999)", (c,))
elif mode == "text":
    # stored as TEXT with its bytes as they are (a BLOB cast to TEXT)
    t = "CAST(? AS TEXT)"
    for (r,) in db.execute("SELECT id FROM run").fetchall():
        first = db.execute("SELECT min(id) FROM cell WHERE run_id = ?", (r,)).fetchone()[0]
        db.execute("UPDATE cell SET experiment = %s, workload = %s WHERE run_id = ?"
                   % (t, t), (PAYLOAD, PAYLOAD, r))
        db.execute("UPDATE cell SET cell_key = %s WHERE id = ?" % t, (PAYLOAD, first))
        db.execute("UPDATE cell_param SET value = %s WHERE cell_id = ? AND key = 'wait'"
                   % t, (PAYLOAD, first))
        db.execute("INSERT INTO skip (run_id, cell_id, probe, reason) VALUES "
                   "(?, ?, 'cpu', %s)" % t, (r, first, PAYLOAD))
        db.execute("INSERT INTO error (run_id, cell_id, at, source, message) VALUES "
                   "(?, ?, '2026-12-01T00:00:00.000000Z', 'craft-db.py:1 text', %s)" % t,
                   (r, first, PAYLOAD))
        db.execute("INSERT OR REPLACE INTO environment VALUES (?, 'craft.text', %s, "
                   "'craft')" % t, (r, PAYLOAD))
        db.execute("UPDATE run SET command_line = %s, config_path = %s WHERE id = ?"
                   % (t, t), (PAYLOAD, PAYLOAD, r))
elif mode == "numbers":
    kind = name.split()[0]
    some = " AND rowid % 2 = 0" if name.endswith(" some") else ""
    new = {"zero": "0", "negative": "-(%s)", "inf": "9e999", "nan": "NULL",
           "huge": "1e300"}[kind]
    for table, col, null_ok in [
            ("invocation", "latency_ns", 1), ("invocation", "fn_ns", 1),
            ("metric", "value", 0), ("runc_start", "total_ns", 0),
            ("runc_start", "cold_start_ns", 1), ("runc_start", "blocked_ns", 0),
            ("runc_phase", "duration_ns", 0), ("runc_lock", "blocked_ns", 0),
            ("vm_boot", "t_ns", 0), ("memory_sample", "value", 0),
            ("vmexit", "count", 1), ("vmexit", "time_ns", 1),
            ("oci_pool_event", "cost_ns", 1), ("oci_pool_event", "cpu_ns", 1),
            ("seed_start", "fork_ns", 0), ("seed_start", "init_ns", 0),
            ("seed_start", "first_call_ns", 0), ("seed_memory", "pss_kb", 1),
            ("seed_memory", "uss_kb", 1), ("seed_memory", "private_dirty_kb", 1),
            ("seed_memory", "seed_shared_kb", 1), ("seed_memory", "seed_pss_kb", 1)]:
        if kind == "nan" and not null_ok:
            continue
        db.execute("UPDATE %s SET %s = %s WHERE %s IS NOT NULL%s" % (
            table, col, new.replace("%s", col) if "%s" in new else new, col, some))
else:
    sys.exit("craft-db.py: unknown mode " + mode)
db.commit()
