#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""tests/layering.t - the rules between the parts of cvmbench (docs/internals.md).

Every `#include "x.h"` of every .c and .h under bench/, probes/, workloads/,
analysis/ and tests/ is resolved to its file by name (every header name is
unique in the tree, which is checked too), and each rule below is one TAP test.
A broken rule prints one line per include that breaks it:

    FILE:LINE includes X (rule)

The checker first runs on a small tree it makes itself with one break of each
rule, and must find exactly those (so a rule that cannot fail fails here).
Run it alone: tests/layering.t [ROOT]  (default: the checkout it is in).
"""
import os
import re
import sys
import tempfile

SOURCE_DIRS = ("lib", "journal", "tracing", "metrics", "bench", "probes", "workloads", "analysis", "tests")
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')

# The store: the only module that includes <sqlite3.h> outside analysis/.
STORE = ("bench/store/*.c", "bench/store/*.h")


def under(path, *dirs):
    """Whether @path is in one of @dirs (directly or deeper)."""
    return any(path.startswith(d.rstrip("/") + "/") for d in dirs)


def matches(path, patterns):
    """Whether @path is one of @patterns (a '*' stands for [^/]*)."""
    for p in patterns:
        rx = "^" + re.escape(p).replace(r"\*", "[^/]*") + "$"
        if re.match(rx, path):
            return True
    return False


# The sources of the static cvmbench-agent (Makefile AGENT_SRCS): it runs
# inside a guest and never sees the store.
AGENT = ("bench/agent", "bench/agent/guest", "probes", "bench/env", "lib", "tracing")
AGENT_FILES = ("journal/journal.c", "journal/journal-index.c", "journal/journal-lock.c",
               "journal/journal.h", "journal/journal-local.h", "journal/state-dir.c",
               "journal/state-dir.h")


# Each rule: (name, the files it governs, whether an include is allowed,
# exceptions {(file, included): why}). `inc` is the resolved path of a quoted
# include, or "<name>" for an angle-bracket one.
def local(inc):
    return not inc.startswith("<")


RULES = [
    ("workloads/ includes nothing outside workloads/",
     lambda f: under(f, "workloads"),
     lambda inc: not local(inc) or under(inc, "workloads"),
     {}),
    ("probes/ includes only probes/, lib/, the cell and the journal",
     lambda f: under(f, "probes"),
     # bench/cell.h: the cell a probe measures around (probe_target.cell in
     # probes/probe.h) is part of the probe API.
     # journal/journal.h: a probe journals what it changes or creates before it
     # does (cpuidle states, tracefs instances) and registers the journal
     # kinds it owns (JOURNAL_KIND_REGISTER), so restore can undo them.
     lambda inc: not local(inc) or under(inc, "probes", "lib", "metrics", "tracing")
     or inc in ("bench/cell.h", "journal/journal.h"),
     {}),
    ("analysis/ includes no probe and no backend",
     lambda f: under(f, "analysis"),
     # metrics/NAME-metrics.h: the names of a probe's metrics, the one contract
     # between a probe and the analysis that reads its rows (issue 11.6).
     lambda inc: not local(inc) or not under(inc, "probes", "bench/backends")
     or under(inc, "metrics"),
     {}),
    ("lib/ includes only lib/",
     lambda f: under(f, "lib"),
     lambda inc: not local(inc) or under(inc, "lib"),
     {("tracing/tracefs-host.c", "journal/journal.h"):
      "mounting tracefs and making a probe's tracefs instance are host changes, "
      "journalled before they are made; bench/ and probes/ both need them, and "
      "probes may include lib/ and the journal only"}),
    ("only the store includes <sqlite3.h> outside analysis/",
     lambda f: not under(f, "analysis", "tests") and not matches(f, STORE),
     lambda inc: inc != "<sqlite3.h>",
     {("workloads/crud-api.c", "<sqlite3.h>"):
      "the crud-api function's own work is SQLite CRUD on a scratch database; "
      "cvmfn links its own SQLite and never opens the results database"}),
    ("the agent's sources include no store header (db*.h, <sqlite3.h>)",
     lambda f: under(f, *AGENT) or f in AGENT_FILES,
     lambda inc: inc != "<sqlite3.h>" and not matches(inc, ("bench/store/*.h",)),
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
                if governs(f) and not allowed(target) and (f, target) not in exceptions:
                    found[name].append("%s:%d includes %s (%s)" % (f, line, target, name))
    return found


def report(found, prefix=""):
    """TAP lines for @found; returns how many rules failed."""
    failed = 0
    for name, bad in found.items():
        print("%sok - %s%s" % ("not " if bad else "", prefix, name))
        for b in bad:
            sys.stderr.write(b + "\n")
        failed += bool(bad)
    return failed


# The self-test tree: one break of each rule, one of each exception, and the
# lines the checker must print (exactly these).
FIXTURE = {
    "workloads/w.c": '#include "w.h"\n#include "cell.h"\n#include <sqlite3.h>\n',
    "workloads/crud-api.c": '#include <sqlite3.h>\n',
    "workloads/w.h": "",
    "probes/p.c": '#include "sink.h"\n#include "log.h"\n#include "cell.h"\n'
                  '#include "journal.h"\n#include "db.h"\n#include "w.h"\n',
    "probes/sink.h": "", "metrics/p-metrics.h": "",
    "analysis/a.c": '#include <sqlite3.h>\n#include "db.h"\n#include "sink.h"\n'
                    '#include "backend.h"\n#include "nothing.h"\n#include "lib/log.h"\n'
                    '#include "p-metrics.h"\n',
    "bench/cell.h": "", "journal/journal.h": "", "bench/store/db.h": "",
    "bench/store/db.c": '#include <sqlite3.h>\n',
    "bench/store/db-x.c": '#include <sqlite3.h>\n',
    "bench/run.c": '#include  <sqlite3.h>\n',
    "bench/backends/backend.h": "",
    "lib/log.h": "",
    "tracing/tracefs-host.c": '#include "journal.h"\n',
    "lib/other.c": '# include "journal.h"\n#include "log.h"\n',
    "tests/unit/t.c": '#include <sqlite3.h>\n#include "p-dup.h"\n',
    "tests/unit/p-dup.h": "", "bench/p-dup.h": "",
    "bench/agent/guest/m.c": '#include "db.h"\n',
}
EXPECTED = sorted([
    "workloads/w.c:2 includes bench/cell.h (workloads/ includes nothing outside workloads/)",
    "workloads/w.c:3 includes <sqlite3.h> (only the store includes <sqlite3.h> outside analysis/)",
    "probes/p.c:5 includes bench/store/db.h (probes/ includes only probes/, lib/, the cell and the journal)",
    "probes/p.c:6 includes workloads/w.h (probes/ includes only probes/, lib/, the cell and the journal)",
    "analysis/a.c:3 includes probes/sink.h (analysis/ includes no probe and no backend)",
    "analysis/a.c:4 includes bench/backends/backend.h (analysis/ includes no probe and no backend)",
    "analysis/a.c:5 includes nothing.h (no header of the tree has that name)",
    "analysis/a.c:6 includes lib/log.h (include by name only: one -I path each)",
    "bench/run.c:1 includes <sqlite3.h> (only the store includes <sqlite3.h> outside analysis/)",
    "lib/other.c:1 includes journal/journal.h (lib/ includes only lib/)",
    "bench/p-dup.h: header name p-dup.h is also tests/unit/p-dup.h (rule: names are unique)",
    "tests/unit/t.c:2 includes p-dup.h (the name is not unique)",
    "probes/p.c:5 includes bench/store/db.h (the agent's sources include no store header (db*.h, <sqlite3.h>))",
    "bench/agent/guest/m.c:1 includes bench/store/db.h (the agent's sources include no store header (db*.h, <sqlite3.h>))",
])


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
    print("1..%d" % (len(RULES) + 2))
    failed = self_test()
    failed += report(check(root))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
