#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""tests/layering.t - the rules between the parts of cvmbench (docs/internals.md).

Every `#include "x.h"` of every .c and .h under lib/, journal/, tracing/,
metrics/, bench/, probes/, workloads/, analysis/, planner/ and tests/ is resolved to its
file by name (every header name is unique in the tree, which is checked too).
Each part (PARTS) has one rule, one TAP test: what it may include (ALLOW);
the few includes against it that stay are EXCEPTIONS, each with its reason,
and one that is no longer used is reported too. Two more rules: who may
include <sqlite3.h> and the agent's store-free sources; and no backend is told
apart by its name outside bench/backends/. A break prints one line:

    FILE:LINE includes X (rule)

The checker first runs on a small tree it makes itself with one break of each
rule, and must find exactly those (so a rule that cannot fail fails here).
Run it alone: tests/layering.t [ROOT]  (default: the checkout it is in).
"""
import os
import re
import sys
import tempfile

SOURCE_DIRS = ("lib", "journal", "tracing", "metrics", "bench", "probes", "workloads",
               "analysis", "planner", "tests")
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')

# The parts (docs/internals.md), lowest first. A file belongs to the part of
# the longest folder below that holds it; "bench" is the files directly in
# bench/: the vocabulary every part of the CLI shares (the cell, its keys,
# exit codes, the version, where the shared files are).
PARTS = ("lib", "journal", "tracing", "metrics", "workloads", "bench", "probes",
         "bench/env", "bench/store", "bench/services", "bench/agent", "bench/knobs",
         "bench/backends", "bench/config", "bench/calib", "bench/run", "bench/cluster", "bench/cmd",
         "analysis", "planner", "tests")

# The store: the only part that includes <sqlite3.h> outside analysis/ and planner/.
STORE = ("bench/store/*.c", "bench/store/*.h")


def under(path, *dirs):
    """Whether @path is in one of @dirs (directly or deeper)."""
    return any(path.startswith(d.rstrip("/") + "/") for d in dirs)


def part(path):
    """The part @path belongs to ("bench" only for files directly in bench/)."""
    if os.path.dirname(path) == "bench":
        return "bench"
    best = None
    for p in PARTS:
        if p != "bench" and under(path, p) and (best is None or len(p) > len(best)):
            best = p
    return best


def matches(path, patterns):
    """Whether @path is one of @patterns (a '*' stands for [^/]*)."""
    for p in patterns:
        rx = "^" + re.escape(p).replace(r"\*", "[^/]*") + "$"
        if re.match(rx, path):
            return True
    return False


# The sources of the static cvmbench-agent (Makefile AGENT_SRCS): it runs
# inside a guest and never sees the store.
AGENT = ("bench/agent", "probes", "bench/env", "lib", "tracing", "journal")

# What each part may include: whole parts, or single headers that are the
# published face of a higher part (a plug-in interface). A part may always
# include itself. Each entry says why.
ALLOW = {
    "lib": ((), (), "helpers that know nothing above them"),
    "journal": (("lib",), (), "the journal of host changes and created objects: a low "
                "part every knob, backend and probe calls"),
    "tracing": (("lib", "journal"), (), "a tracefs mount or instance is a host change, "
                "journalled before it is made"),
    "metrics": ((), (), "data-only names shared by a probe and the analysis"),
    "workloads": ((), (), "cvmfn is static and runs alone in a container rootfs or a guest"),
    "bench": (("lib",), ("workloads/protocol.h",),
              "the CLI's shared vocabulary; paths.h names cvmfn's protocol"),
    "probes": (("lib", "tracing", "metrics"), ("bench/cell.h", "journal/journal.h"),
               "probes see probe.h, sink.h, lib/, tracing/, their metric names, the cell "
               "they measure around and the journal (a probe journals what it changes)"),
    "bench/env": (("lib",), (), "environment collectors read the machine only"),
    "bench/store": (("lib", "bench"), ("probes/sink.h",),
                    "the store implements the probes' sink"),
    "bench/services": (("lib", "journal", "metrics", "bench"), (),
                       "the system suite's servers, load generators and their output "
                       "parsers: processes the journal holds, metric names"),
    "bench/agent": (("lib", "tracing", "journal", "bench", "probes", "bench/env",
                     "bench/services"),
                    ("workloads/protocol.h",),
                    "the in-guest agent runs probes and collects the guest's environment"),
    "bench/knobs": (("lib", "journal", "tracing", "bench", "bench/env"),
                    ("bench/backends/backend.h",),
                    "knobs ask a backend's capabilities through backend.h only"),
    "bench/backends": (("lib", "journal", "tracing", "bench", "bench/env", "bench/agent",
                        "workloads"),
                       ("probes/sink.h", "bench/cmd/command.h", "bench/cmd/opts.h",
                        "metrics/pool-metrics.h"),
                       "backends start instances; a backend's own subcommands (guest, "
                       "qemu-argv) register through command.h and opts.h; the runc/crun "
                       "cgroup pool stores its rows under pool-metrics.h's names"),
    "bench/config": (("lib", "bench", "workloads"),
                     ("bench/backends/backend.h", "probes/probe.h", "probes/pmu-events.h",
                      "bench/knobs/knob-idle.h", "bench/knobs/knob-halt-poll.h",
                      "bench/knobs/placement.h", "bench/services/svc-list.h"),
                     "the config checks each key's value with the plug-in that owns it"),
    "bench/calib": (("lib", "journal", "tracing", "metrics", "bench"), (),
                    "calibration counts events it makes with the tracepoint counters"),
    "bench/run": (("lib", "journal", "tracing", "bench", "probes", "bench/env",
                   "bench/store", "bench/services", "bench/agent", "bench/knobs", "bench/backends",
                   "bench/config", "workloads"), (),
                  "the run drives every lower part around a cell"),
    "bench/cluster": (("lib", "bench", "bench/config", "bench/store"),
                      ("bench/run/runner.h",),
                      "shards and Slurm scripts split a run (runner.h: the run's options)"),
    "bench/cmd": (("lib", "journal", "tracing", "bench", "probes", "bench/env",
                   "bench/store", "bench/services", "bench/agent", "bench/knobs", "bench/backends",
                   "bench/config", "bench/calib", "bench/run", "bench/cluster",
                   "workloads"), (),
                  "the subcommands sit on top of the CLI"),
    "analysis": (("lib", "metrics", "bench"),
                 ("bench/store/db.h", "bench/cmd/command.h", "bench/cmd/opts.h"),
                 "analysis reads the database (db.h opens it read-only), the metric "
                 "names and lib/; its subcommands register through command.h and opts.h"),
    "planner": (("lib", "metrics", "bench"),
                ("bench/store/db.h", "bench/cmd/command.h", "bench/cmd/opts.h",
                 "analysis/cell-series.h"),
                "the capacity planner is analysis-side: it reads the database (db.h, "
                "and its cells' series as the figures name them: cell-series.h), "
                "the metric names and lib/, never a run's internals; its subcommands "
                "register through command.h and opts.h"),
    "tests": (PARTS, (), "tests may reach anything they test"),
}

# Includes against a part's ALLOW that stay, each with its reason. An entry
# here that no longer matches an include is itself reported (so the list
# cannot rot).
EXCEPTIONS = {
    ("bench/backends/backend-oci.c", "bench/knobs/knob-pin.h"):
        "a container's cpuset is the pin knob's placement, applied when the "
        "backend creates the container",
    ("bench/backends/qemu/qemu-vms.c", "bench/knobs/pin-vcpu.h"):
        "vCPU threads are pinned by the pin knob once QEMU reports them",
    ("bench/backends/qemu/corunner-vm.c", "bench/knobs/pin-vcpu.h"):
        "the co-runner VM's vCPU threads are pinned as the pin knob pins a cell's",
    ("bench/knobs/knob-corunner-vm.c", "bench/backends/qemu/corunner-vm.h"):
        "corunner-in = vm: the co-runner's VM is booted with the qemu backend's code",
    ("bench/agent/guest/agent-kv.c", "bench/knobs/corunner-kv.h"):
        "the co-runner VM's agent runs the kv co-runner's own code inside the guest "
        "(one implementation on the host and in a guest)",
    ("bench/backends/qemu/qemu-vms.c", "bench/knobs/idle-guest.h"):
        "a qemu cell's idle policy is the guest's: every booted guest is checked "
        "against it with the idle knob's decision",
    ("bench/backends/qemu/qemu-cell.c", "bench/knobs/idle-guest.h"):
        "a qemu cell's idle policy goes on its guest kernel's command line",
    ("bench/backends/qemu/backend-qemu.c", "bench/knobs/idle-guest.h"):
        "the backend notes where the cell's idle policy was applied (the guest)",
    ("bench/backends/qemu/cmd-qemu-argv.c", "bench/config/config.h"):
        "qemu-argv is a command: it reads a config like `run` does",
    ("bench/backends/qemu/cmd-qemu-argv.c", "bench/run/cell-check.h"):
        "qemu-argv refuses a cell `run` would refuse, with the same check",
    ("bench/run/runner.c", "bench/cluster/shard-split.h"):
        "a run with --shard takes its share of the matrix",
    ("analysis/summary.c", "bench/run/run-status.h"):
        "the words of a run's stored status, one list for writer and reader",
    ("analysis/cmd-compare.c", "bench/config/config.h"):
        "--pair-by names a config key: its kind comes from the key list",
    ("analysis/compare-pair.c", "bench/config/config.h"):
        "pairing by a key reads the key list",
    ("analysis/compare-pair.c", "bench/config/cell-hash.h"):
        "a twin's key is the cell hash with one key changed",
    ("analysis/show-cells.c", "bench/config/config.h"):
        "show --table cells prints a key's values as the key list spells them",
    ("analysis/cell-order.c", "bench/config/config.h"):
        "old databases without a stored matrix index re-expand their config",
}


def local(inc):
    return not inc.startswith("<")


def part_allows(f, inc):
    """Whether the part of @f may include the resolved header @inc."""
    me, them = part(f), part(inc)
    if me is None or me == them:
        return True
    parts, files, _ = ALLOW[me]
    return them in parts or inc in files


def part_rule(name):
    """The TAP name of the rule of part @name."""
    parts, files, why = ALLOW[name]
    what = ", ".join([p + "/" for p in parts] + [os.path.basename(f) for f in files])
    where = "bench/*.[ch]" if name == "bench" else name + "/"
    return "%s includes only %s" % (where, what or "itself")


# every exception belongs to the rule of its file's part
assert all(part(f) not in (None, "tests") for f, _ in EXCEPTIONS), "an exception outside every part"

RULES = [(part_rule(p),
          (lambda p: lambda f: part(f) == p)(p),
          (lambda p: lambda f, inc: not local(inc) or part_allows(f, inc))(p),
          {k: v for k, v in EXCEPTIONS.items() if part(k[0]) == p})
         for p in PARTS if p != "tests"] + [
    ("only the store includes <sqlite3.h> outside analysis/ and planner/",
     lambda f: not under(f, "analysis", "planner", "tests") and not matches(f, STORE),
     lambda f, inc: inc != "<sqlite3.h>",
     {("workloads/crud-api.c", "<sqlite3.h>"):
      "the crud-api function's own work is SQLite CRUD on a scratch database; "
      "cvmfn links its own SQLite and never opens the results database"}),
    ("the agent's sources include no store header (bench/store/*.h, <sqlite3.h>)",
     lambda f: under(f, *AGENT),
     lambda f, inc: inc != "<sqlite3.h>" and not matches(inc, ("bench/store/*.h",)),
     {}),
]


def sources(root):
    """Every .c and .h under the source folders, as paths from @root."""
    out = []
    for d in SOURCE_DIRS:
        for top, dirs, files in os.walk(os.path.join(root, d)):
            dirs.sort()
            for name in sorted(files):
                if name.endswith((".c", ".h")):
                    out.append(os.path.relpath(os.path.join(top, name), root))
    return out


def includes(root, path):
    """(line, '<name>' or the quoted name) of each #include of @path."""
    with open(os.path.join(root, path), encoding="utf-8", errors="replace") as f:
        for n, text in enumerate(f, 1):
            m = INCLUDE.match(text)
            if m:
                yield n, ("<%s>" % m.group(2)) if m.group(1) == "<" else m.group(2)


def check(root):
    """A dict rule name -> list of violation lines; the headers' rule first."""
    files = sources(root)
    used = set()
    by_name = {}
    for f in files:
        if f.endswith(".h"):
            by_name.setdefault(os.path.basename(f), []).append(f)
    found = {"every quoted include names one header of the tree": []}
    hdr = found["every quoted include names one header of the tree"]
    for name, paths in sorted(by_name.items()):
        if len(paths) > 1:
            hdr.append("%s: header name %s is also %s (rule: names are unique)"
                       % (paths[0], name, ", ".join(paths[1:])))
    for name, _, _, _ in RULES:
        found[name] = []
    for f in files:
        for line, inc in includes(root, f):
            target = inc
            if local(inc):
                paths = by_name.get(os.path.basename(inc), [])
                if len(paths) != 1 or "/" in inc:
                    hdr.append("%s:%d includes %s (%s)" % (
                        f, line, inc, "no header of the tree has that name"
                        if not paths else "include by name only: one -I path each"
                        if "/" in inc else "the name is not unique"))
                    continue
                target = paths[0]
            for name, governs, allowed, exceptions in RULES:
                if governs(f) and not allowed(f, target):
                    if (f, target) in exceptions:
                        used.add((f, target))
                        continue
                    found[name].append("%s:%d includes %s (%s)" % (f, line, target, name))
    for name, _, _, exceptions in RULES:
        for (f, inc), why in sorted(exceptions.items()):
            if (f, inc) not in used:
                found[name].append("%s: exception for %s is no longer needed (%s)"
                                   % (f, inc, name))
    found[BY_NAME] = list(backend_names(root, files))
    return found


# Code asks a backend's capabilities (backend.h), never its name: a name
# compared outside bench/backends/ is a break.
BY_NAME = "no backend is told apart by name outside bench/backends/"
NAME_CMP = re.compile(r'str(?:n|case)?cmp\s*\([^;]*"(native|runc|crun|qemu)"')


def backend_names(root, files):
    """FILE:LINE of each comparison with a backend's name outside its folder."""
    for f in files:
        if under(f, "bench/backends", "tests") or not f.endswith(".c"):
            continue
        with open(os.path.join(root, f), encoding="utf-8", errors="replace") as fh:
            for n, text in enumerate(fh, 1):
                if NAME_CMP.search(text):
                    yield "%s:%d compares a backend's name (%s)" % (f, n, BY_NAME)


def report(found, prefix=""):
    """TAP lines for @found; returns how many rules failed."""
    failed = 0
    for name, bad in found.items():
        print("%sok - %s%s" % ("not " if bad else "", prefix, name))
        for b in bad:
            sys.stderr.write(b + "\n")
        failed += bool(bad)
    return failed


# The self-test tree: one break of each rule, one used and one stale
# exception, and the lines the checker must print (exactly these).
FIXTURE = {
    "workloads/w.c": '#include "w.h"\n#include <sqlite3.h>\n',
    "workloads/crud-api.c": '#include <sqlite3.h>\n',
    "workloads/w.h": "",
    "probes/p.c": '#include "sink.h"\n#include "log.h"\n#include "cell.h"\n'
                  '#include "journal.h"\n#include "db.h"\n',
    "probes/sink.h": "", "metrics/p-metrics.h": "",
    "analysis/a.c": '#include <sqlite3.h>\n#include "db.h"\n#include "nothing.h"\n'
                    '#include "lib/log.h"\n#include "p-metrics.h"\n',
    "analysis/top.h": "", "analysis/summary.c": "",
    "bench/cell.h": "", "journal/journal.h": "", "bench/store/db.h": "",
    "bench/store/db.c": '#include <sqlite3.h>\n',
    "bench/store/db-x.c": '#include <sqlite3.h>\n',
    "bench/run/run.c": '#include  <sqlite3.h>\n',
    "bench/run/runner.c": '#include "shard-split.h"\n',
    "bench/cluster/shard-split.h": "",
    "bench/backends/backend.h": "",
    "lib/log.h": "",
    "tracing/tracefs-host.c": '#include "journal.h"\n',
    "tests/unit/t.c": '#include <sqlite3.h>\n#include "p-dup.h"\n#include "top.h"\n',
    "tests/unit/t-only.h": "",
    "tests/unit/p-dup.h": "", "bench/p-dup.h": "",
    "bench/agent/guest/m.c": '#include "db.h"\n',
    "bench/knobs/k.c": 'if (!strcmp(c->backend, "qemu"))\n',
}
# ... every other exception's file, empty (so each is reported as unused) ...
for (_f, _inc) in EXCEPTIONS:
    FIXTURE.setdefault(_f, "")
# ... and in every part, a file that includes a header no part may include
# (analysis/top.h; analysis itself: a test's header).
for _p in PARTS:
    if _p != "tests":
        FIXTURE["%s/break.c" % _p] = '#include "%s"\n' % ("t-only.h" if _p == "analysis" else "top.h")
EXPECTED = sorted([
    "workloads/w.c:2 includes <sqlite3.h> (only the store includes <sqlite3.h> outside analysis/ and planner/)",
    "probes/p.c:5 includes bench/store/db.h (%s)" % part_rule("probes"),
    "probes/p.c:5 includes bench/store/db.h (the agent's sources include no store header "
    "(bench/store/*.h, <sqlite3.h>))",
    "analysis/a.c:3 includes nothing.h (no header of the tree has that name)",
    "analysis/a.c:4 includes lib/log.h (include by name only: one -I path each)",
    "bench/run/run.c:1 includes <sqlite3.h> (only the store includes <sqlite3.h> outside analysis/ and planner/)",
    "bench/p-dup.h: header name p-dup.h is also tests/unit/p-dup.h (rule: names are unique)",
    "tests/unit/t.c:2 includes p-dup.h (the name is not unique)",
    "bench/agent/guest/m.c:1 includes bench/store/db.h (%s)" % part_rule("bench/agent"),
    "bench/agent/guest/m.c:1 includes bench/store/db.h (the agent's sources include no store "
    "header (bench/store/*.h, <sqlite3.h>))",
    "analysis/summary.c: exception for bench/run/run-status.h is no longer needed (%s)"
    % part_rule("analysis"),
    "bench/knobs/k.c:1 compares a backend's name (%s)" % BY_NAME,
] + ["%s: exception for %s is no longer needed (%s)" % (f, inc, part_rule(part(f)))
     for f, inc in EXCEPTIONS if FIXTURE[f] == "" and (f, inc) != ("analysis/summary.c",
                                                               "bench/run/run-status.h")]
  + ["%s/break.c:1 includes %s (%s)" % (p, "tests/unit/t-only.h" if p == "analysis"
                                        else "analysis/top.h", part_rule(p))
     for p in PARTS if p not in ("tests", "analysis")]
  + ["analysis/break.c:1 includes tests/unit/t-only.h (%s)" % part_rule("analysis")])


def self_test():
    with tempfile.TemporaryDirectory(prefix="cvmbench-layering-") as root:
        for path, text in FIXTURE.items():
            os.makedirs(os.path.join(root, os.path.dirname(path)), exist_ok=True)
            with open(os.path.join(root, path), "w") as f:
                f.write(text)
        got = sorted(b for bad in check(root).values() for b in bad)
    ok = got == EXPECTED
    print("%sok - the checker finds exactly the %d breaks of its test tree"
          % ("" if ok else "not ", len(EXPECTED)))
    if not ok:
        for line in sorted(set(EXPECTED) - set(got)):
            print("#   missed: " + line)
        for line in sorted(set(got) - set(EXPECTED)):
            print("#   extra:  " + line)
    return 0 if ok else 1


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else \
        os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    print("1..%d" % (len(RULES) + 3))
    failed = self_test()
    failed += report(check(root))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
