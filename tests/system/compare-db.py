#!/usr/bin/python3
# tests/system/compare-db.py OUT [options] - write a cvmbench results
# database with known invocation latencies, for the compare and merge tests.
# It is made from results-schema/*.sql by Python's sqlite3 (not by
# cvmbench), with one run, its environment and one measured cell per
# workload. Latencies: 1000 .. 1000+N-1 us times --scale, or with --lognormal
# SEED N lognormal draws (median 1 ms, sigma 0.5) times --scale.
#   --cvm TYPE          the run's environment cvm.type (default none)
#   --env KEY=VALUE     set (or with KEY= remove) an environment fact
#   --cell K=V          a spec line of every cell (backend=qemu, confidential=model;
#                       a qemu cell also gets the cell_param qemu.accel = tcg)
#   --set I:K=V         cell I only (0, 1, ... in the order made): a spec line K = V,
#                       or with a dotted K a note (cell_param only: guest.cvm.type)
#   --hostmem I:KB      cell I's hostmem probe summed PSS (metric pss_kb)
#   --metric I:NAME=V   cell I's hostmem probe cell-window metric NAME = V
#                       (memcg_usage_kb, pss_vs_memcg_pct, flag_memcg_pss_disagree)
#   --workloads A,B     one cell per workload (default pyaes,matmul)
#   --repeats R         R cells per workload (repeat 0 .. R-1)
#   --mem KB            each instance's pss_kb (default: none recorded)
#   --exits CLASS=RATE  a vmexit metric (unit 1/s) of every cell
#   --started ISO       run.started_at; --hostname NAME
#   --upto N            only the migrations up to N (an older database)
# Every cell also gets a per-invocation metric on its first three calls, a
# skipped probe and an error, so that a merge has every link to keep.
import argparse, glob, os, random, re, sqlite3, sys

p = argparse.ArgumentParser()
p.add_argument("out")
p.add_argument("--cvm", default="none")
p.add_argument("--env", action="append", default=[])
p.add_argument("--cell", action="append", default=[])
p.add_argument("--set", action="append", default=[])
p.add_argument("--hostmem", action="append", default=[])
p.add_argument("--metric", action="append", default=[])
p.add_argument("--workloads", default="pyaes,matmul")
p.add_argument("--repeats", type=int, default=1)
p.add_argument("--n", type=int, default=100)
p.add_argument("--scale", type=float, default=1.0)
p.add_argument("--lognormal", type=int)
p.add_argument("--mem", type=int)
p.add_argument("--exits", action="append", default=[])
p.add_argument("--started", default="2026-12-01T08:00:00.000000Z")
p.add_argument("--hostname", default="vm")
p.add_argument("--vantage", default="guest")
p.add_argument("--upto", type=int, default=10**6)
a = p.parse_args()

here = os.path.dirname(os.path.abspath(__file__))
num = lambda f: int(re.match(r"(\d+)", os.path.basename(f)).group(1))
schema = [f for f in sorted(glob.glob(os.path.join(here, "..", "..", "results-schema", "*.sql")))
          if num(f) <= a.upto]
db = sqlite3.connect(a.out)
for f in schema:
    db.executescript(open(f).read())
db.execute("PRAGMA user_version = %d" % num(schema[-1]))
db.execute("PRAGMA application_id = %d" % 0x63766d62)

run = db.execute(
    "INSERT INTO run (started_at, ended_at, status, vantage, cvmbench_version, "
    "command_line, config_path, config_text, hostname) VALUES (?, ?, 'complete', ?, "
    "'test', 'cvmbench run test.ini', 'test.ini', '[experiment t]', ?)",
    (a.started, a.started, a.vantage, a.hostname)).lastrowid
env = {"cpu.model": "17", "cpu.microcode": "0x1", "kernel.release": "6.1.0-test",
       "tools.qemu.version": "QEMU 7.2", "cpuidle.driver": "none",
       "thp.enabled": "madvise", "cvm.type": a.cvm,
       "memory.available": str(random.randint(1, 10**6)),
       "cpu.flag.sev_snp": "yes" if a.cvm == "sev-snp" else "no"}
for kv in a.env:
    k, v = kv.split("=", 1)
    if v:
        env[k] = v
    else:
        env.pop(k, None)
for k, v in env.items():
    db.execute("INSERT INTO environment VALUES (?, ?, ?, 'test')", (run, k, v))

rng = random.Random(a.lognormal)
at = lambda opts, i: [o.split(":", 1)[1] for o in opts if int(o.split(":", 1)[0]) == i]
idx = -1
for w in a.workloads.split(","):
    for r in range(a.repeats):
        idx += 1
        mine = [kv for kv in at(a.set, idx) if "." not in kv.split("=", 1)[0]]
        lines = ["experiment = t", "workload = " + w, "size = test"] + \
            [kv.replace("=", " = ", 1) for kv in a.cell + mine] + ["repeat = %d" % r]
        spec = "\n".join(lines) + "\n"
        backend = dict(kv.split("=", 1) for kv in a.cell + mine).get("backend", "native")
        cell = db.execute(
            "INSERT INTO cell (run_id, cell_key, experiment, workload, size, backend, "
            "threads, wait, mode, instances, invocations, warmup, repeat_index, seed, "
            "probes, spec, status, started_at, ended_at) VALUES (?, ?, 't', ?, 'test', ?, "
            "0, 'hybrid:200', 'warm', 1, ?, 0, ?, 1, 'latency', ?, 'ok', ?, ?)",
            (run, "t-%s-%d" % (w, r), w, backend, a.n, r, spec, a.started,
             a.started)).lastrowid
        for line in lines[1:]:
            k, v = line.split(" = ", 1)
            db.execute("INSERT INTO cell_param VALUES (?, ?, ?)", (cell, k, v))
        if backend == "qemu":   # as the qemu backend notes it for a cell whose VMs started
            db.execute("INSERT INTO cell_param VALUES (?, 'qemu.accel', 'tcg')", (cell,))
        for kv in at(a.set, idx):
            if "." in kv.split("=", 1)[0]:
                db.execute("INSERT OR REPLACE INTO cell_param VALUES (?, ?, ?)",
                           (cell,) + tuple(kv.split("=", 1)))
        for kb in at(a.hostmem, idx):
            db.execute("INSERT INTO metric (cell_id, probe, name, value, unit) VALUES "
                       "(?, 'hostmem', 'pss_kb', ?, 'kB')", (cell, float(kb)))
        for kv in at(a.metric, idx):
            k, v = kv.split("=", 1)
            db.execute("INSERT INTO metric (cell_id, probe, name, value, unit) VALUES "
                       "(?, 'hostmem', ?, ?, ?)", (cell, k, float(v),
                       "flag" if k.startswith("flag_") else "%" if k.endswith("_pct") else "kB"))
        db.execute("INSERT INTO instance (cell_id, idx, pid, pss_kb) VALUES (?, 0, 1, ?)",
                   (cell, a.mem))
        for i in range(a.n):
            base = rng.lognormvariate(0, 0.5) * 1e6 if a.lognormal is not None else (1000 + i) * 1000
            inv = db.execute(
                "INSERT INTO invocation (cell_id, instance_idx, seq, phase, start, "
                "started_at, latency_ns, fn_ns, ok) VALUES (?, 0, ?, 'measured', 'warm', "
                "?, ?, NULL, 1)", (cell, i, a.started, round(base * a.scale))).lastrowid
            if i < 3:
                db.execute("INSERT INTO metric (cell_id, invocation_id, probe, name, value, "
                           "unit) VALUES (?, ?, 'null', 'seq', ?, 'count')", (cell, inv, i))
        db.execute("INSERT INTO skip (run_id, cell_id, probe, reason) VALUES "
                   "(?, ?, 'idle', 'no cpuidle driver')", (run, cell))
        db.execute("INSERT INTO error (run_id, cell_id, at, source, message) VALUES "
                   "(?, ?, ?, 'test.c:1 f', ?)", (run, cell, a.started, "an error of " + w))
        for kv in a.exits:
            k, v = kv.split("=", 1)
            db.execute("INSERT INTO metric (cell_id, probe, name, value, unit) VALUES "
                       "(?, 'vmexit', ?, ?, '1/s')", (cell, k, float(v)))
db.commit()
