# SPDX-License-Identifier: MIT
"""The Python twins of cvmfn's functions: `cvmfn run|serve NAME --runtime python`.

cvmfn executes /usr/bin/python3 on this zip application with its own
arguments (workloads/pyapp.c); this file dispatches them like cvmfn.c:
run (print the digest), serve (protocol.h, in serve.py), check (the modules
a function needs: exit 0, or 4 naming the missing Debian package), seed
(zygote.h, in seed.py) and fork-check (forkcheck.py).
"""
import time
START_NS = time.monotonic_ns()     # first: the end of the interpreter-start window

import os  # noqa: E402
import sys  # noqa: E402

import wlargs  # noqa: E402

EXIT_USAGE, EXIT_INIT, EXIT_UNSUPPORTED = 2, 3, 4
QEMU_CPU, OPENBLAS_SAFE_CORE = "QEMU Virtual CPU", "Prescott"


def openblas_core(cpuinfo="/proc/cpuinfo"):
    """On QEMU's emulated qemu64 CPU (a TCG guest) pin OpenBLAS's kernels to
    Prescott's (SSE3, which qemu64 has), before NumPy or torch load it:
    OpenBLAS's DYNAMIC_ARCH takes qemu64's AMD family 15 signature for an
    Opteron and runs an instruction TCG does not emulate (SIGILL in
    libopenblasp, OpenBLAS issues 272 and 5831). A set OPENBLAS_CORETYPE,
    and every other CPU, are left alone."""
    if "OPENBLAS_CORETYPE" in os.environ:
        return
    try:
        with open(cpuinfo) as f:
            text = f.read(4096)
    except OSError:
        return
    if "model name\t: " + QEMU_CPU in text:
        os.environ["OPENBLAS_CORETYPE"] = OPENBLAS_SAFE_CORE


def interp_ns():
    """ns from cvmfn's execv() (CVMFN_EXEC_NS, pyapp.h) to START_NS, or -1."""
    exec_ns = os.environ.get("CVMFN_EXEC_NS", "")
    return START_NS - int(exec_ns) if exec_ns.isdigit() and int(exec_ns) <= START_NS else -1


def main(argv):
    openblas_core()
    try:
        cmd, name, params = wlargs.parse(argv)
    except wlargs.UsageError as e:
        sys.stderr.write("cvmfn (python): %s\n" % e)
        return EXIT_USAGE
    if cmd == "check":
        import functions
        missing = functions.missing_modules(name)
        for module, package in missing:
            sys.stdout.write("missing %s (Debian package %s)\n" % (module, package))
        return EXIT_UNSUPPORTED if missing else 0
    if cmd == "serve":
        import serve
        return serve.serve_loop(name, params, interp_ns())
    if cmd == "seed":
        import seed
        return seed.seed_main(name, params, START_NS - max(interp_ns(), 0))
    if cmd == "fork-check":
        import forkcheck
        return forkcheck.main(name, params)
    import run
    return run.run(name, params, interp_ns())


sys.exit(main(sys.argv[1:]))
