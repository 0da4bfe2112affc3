# SPDX-License-Identifier: MIT
"""What a Python twin forked from a seed (seed.py) holds that must be
unique, as workloads/fork-manifest.c says it for the C functions: per item
of entropy, descriptor, timer or id, when it is made (the runtime layer,
the function's init, a call) and its fate after os.fork(): shared with the
seed and the siblings, copied on write, or re-made in the child. Read from
CPython 3.11 (random.py, tempfile.py, uuid.py), NumPy 1.24, PyTorch 1.13
and the twins (fn_*.py); `cvmfn fork-check NAME --runtime python` prints
it and measures the items that must differ (forkcheck.py).
"""
import sys

LAYERS = ("bare", "runtime", "warm")
MADE = {"runtime": 1, "init": 2, "call": 3}    # made in the seed from this layer on

# (workload or None for every twin, item, kind, made, fate, must differ, how)
ITEMS = [
    (None, "random's Mersenne Twister (the module's global Random)", "entropy", "runtime",
     "re-made", True, "CPython's own at-fork handler (random.py: os.register_at_fork) "
     "seeds it from os.urandom in every child; seed.reseed() does so again"),
    (None, "numpy's global RandomState (numpy.random.*)", "entropy", "runtime", "re-made",
     True, "numpy does not re-seed at fork: seed.reseed() calls numpy.random.seed() "
     "(os entropy) in the child"),
    (None, "torch's default CPU generator (torch.rand*)", "entropy", "runtime", "re-made",
     True, "torch does not re-seed at fork: seed.reseed() calls torch.seed() "
     "(std::random_device) in the child"),
    (None, "numpy Generators (numpy.random.default_rng)", "entropy", "init", "copy-on-write",
     False, "none is made before a call: the twins draw nothing, their inputs come "
     "from cvmfn prepare (the same bytes by design)"),
    (None, "tempfile's name sequence (mkstemp, mkdtemp names)", "id", "runtime", "re-made",
     True, "tempfile._RandomNameSequence makes a new Random when os.getpid() changes"),
    (None, "os.urandom, uuid.uuid4, secrets", "entropy", "call", "re-made", True,
     "no state in the process: getrandom() per call"),
    (None, "str and bytes hash secret (PYTHONHASHSEED)", "entropy", "runtime", "shared",
     False, "drawn at interpreter start: every child of a seed hashes alike (same dict "
     "and set order); only a new interpreter re-draws it"),
    (None, "thread pools of OpenBLAS and torch (OpenMP intra-op, inter-op)", "id",
     "runtime", "re-made", True, "the seed runs single-threaded (OMP, OPENBLAS, "
     "MKL_NUM_THREADS=1, torch.set_num_threads(1)): no pool at fork, the child sets "
     "--threads (seed.set_threads) and the libraries start theirs"),
    (None, "process id (ready line, tempfile's pid check)", "id", "call", "re-made", True,
     "the kernel gives each child its own"),
    (None, "protocol descriptors (stdin, stdout)", "descriptor", "call", "re-made", True,
     "passed to each child by SCM_RIGHTS"),
    (None, "the seed's report socket", "descriptor", "runtime", "shared", False,
     "one record per write (SOCK_SEQPACKET): children's reports do not mix"),
    (None, "timers", "timer", "runtime", "shared", False,
     "none armed (no signal.setitimer): waits read time.monotonic, one clock for all"),
    ("compression", "scratch directory (tempfile.mkdtemp in init)", "id", "init", "shared",
     True, "every warm child would write and remove the same one"),
    ("crud-api", "scratch directory (tempfile.mkdtemp in init)", "id", "init", "shared",
     True, "every warm child would write and remove the same one"),
    ("random-disk-io", "scratch directory and its file (tempfile.mkdtemp in init)", "id",
     "init", "shared", True, "every warm child would write and remove the same file"),
]


def items(workload):
    """The items of @workload and every twin's."""
    return [it for it in ITEMS if it[0] is None or it[0] == workload]


def gate(workload, layer):
    """None when children of @workload may be forked from @layer, else why
    not: an item that must differ would be made in the seed and shared."""
    depth = LAYERS.index(layer)
    for who, item, _, made, fate, differ, how in items(workload):
        if differ and fate == "shared" and MADE[made] <= depth:
            return ("seed-layer = %s: %s's %s would be shared by every child (%s); "
                    "fork it from runtime" % (layer, workload, item, how))
    return None


def print_table(workload, out=sys.stdout):
    out.write("%-10s %-8s %-13s %-6s %s\n" % ("kind", "made", "after fork", "differ", "item"))
    for who, item, kind, made, fate, differ, how in items(workload):
        out.write("%-10s %-8s %-13s %-6s %s%s: %s\n" % (
            kind, made, fate, "yes" if differ else "no", who + ": " if who else "", item, how))
