# SPDX-License-Identifier: MIT
"""`cvmfn fork-check NAME --runtime python [--children N]`: the uniqueness
check of zygote.c for the Python seed. Per layer the manifest allows
(fork_manifest.py), a seed is built (seed.build) in a process of its own and
forks N children; each finishes its layer as an instance would (seed.finish:
threads, re-seeding, the rest of init), then draws from every generator
loaded in it and writes one line. Compared: random's, numpy's and torch's
draws, os.urandom, uuid4, a tempfile.mkstemp name and the pid; a value two
children share fails the layer. random, tempfile and uuid are imported here,
so every seed holds them from bare on. Exit 0 when every layer passed, 1 not.
"""
import json
import os
import random
import sys
import tempfile
import uuid

import fork_manifest
import seed

EXIT_OK, EXIT_FAILED, EXIT_INIT = 0, 1, 3
MAX_CHILDREN = 256
# what each child draws, in the order printed; numpy and torch when loaded
FIELDS = ("random", "numpy", "torch", "urandom", "uuid4", "tempname", "pid")


def draw(data_dir):
    """What this process draws now, as text per field."""
    d = {"random": "%016x" % random.getrandbits(64), "urandom": os.urandom(8).hex(),
         "uuid4": str(uuid.uuid4()), "pid": str(os.getpid())}
    np = sys.modules.get("numpy")
    if np is not None:
        d["numpy"] = np.random.bytes(8).hex()
    torch = sys.modules.get("torch")
    if torch is not None:
        d["torch"] = "%016x" % int(torch.randint(0, 1 << 62, (1,)).item())
    fd, name = tempfile.mkstemp(prefix="cvmfn-fork-check.", dir=data_dir)
    os.close(fd)
    os.unlink(name)
    d["tempname"] = name
    return d


def check_child(s, out_fd):
    code = EXIT_INIT
    try:
        seed.child_start()
        seed.finish(s)
        line = json.dumps(draw(s.params.data_dir)) + "\n"
        code = EXIT_OK if os.write(out_fd, line.encode()) == len(line) else EXIT_FAILED
    except Exception as e:
        sys.stderr.write("cvmfn (python): fork-check %s child: %s\n" % (s.layer, e))
    finally:
        seed.child_exit(code)


def check_seed(name, params, layer, children, out_fd):
    """The check's seed: build @layer, fork @children, wait; never returns."""
    code = EXIT_INIT
    try:
        s = seed.build(name, params, layer)
        for _ in range(children):
            if os.fork() == 0:
                check_child(s, out_fd)
        while True:
            try:
                os.wait()
            except ChildProcessError:
                break
        code = EXIT_OK
    except Exception as e:
        sys.stderr.write("cvmfn (python): fork-check %s: %s\n" % (layer, e))
    finally:
        os._exit(code)


def repeats(rows, field):
    """How many rows hold @field's value of an earlier row; one such value."""
    seen, n, example = set(), 0, ""
    for r in rows:
        if r[field] in seen:
            n, example = n + 1, r[field]
        seen.add(r[field])
    return n, example


def check_layer(name, params, layer, children):
    """One layer: its line printed; True when it passed."""
    rd, wr = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(rd)
        check_seed(name, params, layer, children, wr)
    os.close(wr)
    with os.fdopen(rd, "rb") as f:
        text = f.read().decode(errors="replace")
    os.waitpid(pid, 0)
    rows = [json.loads(line) for line in text.splitlines() if line.startswith("{")]
    fields = [f for f in FIELDS if rows and all(f in r for r in rows)]
    counts, example = [], ""
    for f in fields:
        n, e = repeats(rows, f)
        counts.append("%s %d" % (f, n))
        if n and not example:
            example = "%s=%s" % (f, e)
    ok = len(rows) == children and all(c.endswith(" 0") for c in counts)
    print("%-8s %d/%d children reported; repeated in: %s%s: %s" % (
        layer, len(rows), children, ", ".join(counts),
        ", e.g. " + example if example else "", "pass" if ok else "FAIL"), flush=True)
    return ok


def main(name, params):
    fork_manifest.print_table(name)
    sys.stdout.flush()
    children, ok = min(params.children, MAX_CHILDREN), True
    for layer in fork_manifest.LAYERS:
        why = fork_manifest.gate(name, layer)
        if why:
            print("%-8s not offered: %s" % (layer, why), flush=True)
            continue
        ok = check_layer(name, params, layer, children) and ok
    return EXIT_OK if ok else EXIT_FAILED
