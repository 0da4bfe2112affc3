#!/usr/bin/python3
# tests/system/svc-db.py DB [options] - add service windows' metrics to a
# database written by tests/system/compare-db.py (its cells and their
# measured invocations: each invocation is one window, as the system suite
# stores it). For every measured invocation of a cell whose workload is a
# service, one metric row per metric of that service's parser in the catalog
# metrics/service-metrics.h (read here with a regular expression: the names,
# units and directions are the contract, not cvmbench's code), tied to the
# invocation (metric.invocation_id), probe = the parser. Values: a base per
# metric times a lognormal draw (sigma --sigma, seeded), times --higher for a
# metric where higher is better and --lower where lower is better.
#   --higher F / --lower F   the CVM side's factors (default 1)
#   --seed S, --sigma X      the draws (default 1, 0.02)
#   --skip WORKLOAD=REASON   add a skipped cell of WORKLOAD asking for
#                            confidential = sev-snp (backend qemu), the reason a skip row
#   --extra PARSER:NAME      one more metric per window of that parser, not in the catalog
#   --map WORKLOAD=PARSER    a service beyond the seven of the system suite
import argparse, os, random, re, sqlite3

SERVICES = {"nginx-open": "cvmload", "nginx-wrk": "wrk", "redis": "redis-benchmark",
            "pgbench": "pgbench", "sysbench-cpu": "sysbench-cpu",
            "sysbench-memory": "sysbench-memory", "fio": "fio"}
p = argparse.ArgumentParser()
p.add_argument("db")
p.add_argument("--higher", type=float, default=1.0)
p.add_argument("--lower", type=float, default=1.0)
p.add_argument("--seed", type=int, default=1)
p.add_argument("--sigma", type=float, default=0.02)
p.add_argument("--skip", action="append", default=[])
p.add_argument("--extra", action="append", default=[])
p.add_argument("--map", action="append", default=[])
a = p.parse_args()
for kv in a.map:
    k, v = kv.split("=", 1)
    SERVICES[k] = v

here = os.path.dirname(os.path.abspath(__file__))
hdr = open(os.path.join(here, "..", "..", "metrics", "service-metrics.h")).read()
catalog = re.findall(r'X\("([^"]+)", "([^"]+)", "([^"]+)", (SVC_\w+),', hdr)
base = {"1/s": 1000.0, "B/s": 5e8, "ns": 2e5, "count": 10.0}

rng = random.Random(a.seed)
db = sqlite3.connect(a.db)
cells = db.execute("SELECT id, workload FROM cell WHERE status = 'ok'").fetchall()
for cell, wl in cells:
    parser = SERVICES.get(wl)
    if not parser:
        continue
    # what makes a cell a service cell, as bench/run/cell-svc.c notes it
    db.execute("INSERT INTO cell_param VALUES (?, 'svc.parser', ?)", (cell, parser))
    invs = db.execute("SELECT id FROM invocation WHERE cell_id = ? AND phase = 'measured' "
                      "AND ok = 1 ORDER BY id", (cell,)).fetchall()
    for (inv,) in invs:
        rows = [(pp, n, u, d) for pp, n, u, d in catalog if pp == parser]
        rows += [(x.split(":", 1)[0], x.split(":", 1)[1], "count", "SVC_INFO")
                 for x in a.extra if x.split(":", 1)[0] == parser]
        for pp, name, unit, d in rows:
            f = a.higher if d == "SVC_HIGHER" else a.lower if d == "SVC_LOWER" else 1.0
            v = base.get(unit, 1.0) * f * rng.lognormvariate(0, a.sigma)
            db.execute("INSERT INTO metric (cell_id, invocation_id, probe, name, value, unit) "
                       "VALUES (?, ?, ?, ?, ?, ?)", (cell, inv, pp, name, v, unit))
run = db.execute("SELECT max(id) FROM run").fetchone()[0]
started = db.execute("SELECT started_at FROM run WHERE id = ?", (run,)).fetchone()[0]
for kv in a.skip:
    wl, reason = kv.split("=", 1)
    spec = "experiment = t\nworkload = %s\nsize = test\nbackend = qemu\nconfidential = sev-snp\nrepeat = 0\n" % wl
    cell = db.execute(
        "INSERT INTO cell (run_id, cell_key, experiment, workload, size, backend, threads, wait, "
        "mode, instances, invocations, warmup, repeat_index, seed, probes, spec, status, "
        "started_at, ended_at) VALUES (?, ?, 't', ?, 'test', 'qemu', 0, 'hybrid:200', 'warm', "
        "1, 5, 0, 0, 1, 'latency', ?, 'skipped', ?, ?)",
        (run, "t-%s-snp" % wl, wl, spec, started, started)).lastrowid
    for line in spec.splitlines()[1:]:
        k, v = line.split(" = ", 1)
        db.execute("INSERT INTO cell_param VALUES (?, ?, ?)", (cell, k, v))
    db.execute("INSERT INTO skip (run_id, cell_id, probe, reason) VALUES (?, ?, NULL, ?)",
               (run, cell, reason))
db.commit()
