# SPDX-License-Identifier: MIT
"""The warm-instance side of workloads/protocol.h, as serve.c speaks it.

Plain os.read/os.write on descriptors 0 and 1: no buffering between the
harness's clock and the function. fn_ns is time.monotonic_ns()
(CLOCK_MONOTONIC, as cvmfn's) around invoke() alone; the done line goes
out before the output is hashed, files (--output) are written before it.
"""
import os
import platform
import time

import functions
import memstat
import wlargs
from output import Output

EXIT_OK, EXIT_FAILED, EXIT_INIT = 0, 1, 3


def write_line(text):
    data = text.encode()
    while data:
        data = data[os.write(1, data):]


def read_lines():
    buf = b""
    while True:
        nl = buf.find(b"\n")
        if nl >= 0:
            line, buf = buf[:nl], buf[nl + 1:]
            yield line.decode(errors="replace")
            continue
        chunk = os.read(0, 1024)
        if not chunk:
            return
        buf += chunk


def one_line(text):
    return " ".join(str(text).splitlines())


def timed_invoke(fn):
    out = Output()
    t0 = time.monotonic_ns()
    try:
        fn.invoke(out)
        error = None
    except Exception as e:          # the call fails, the instance serves on
        error = one_line("%s: %s" % (type(e).__name__, e))
    fn_ns = time.monotonic_ns() - t0
    if error is None:
        try:
            out.write_files()
        except OSError as e:
            error = one_line("cannot write %s: %s" % (e.filename, e.strerror))
    return out, fn_ns, error


def reply_invoke(fn, seq, due):
    """Answer one call; its fn_ns (also when the call failed, as serve.c)."""
    out, fn_ns, error = timed_invoke(fn)
    if error:
        write_line("done %d ok=0 fn_ns=%d error=%s\n" % (seq, fn_ns, error))
        return fn_ns
    if not due:
        write_line("done %d ok=1 fn_ns=%d\ndigest %d none\n" % (seq, fn_ns, seq))
        return fn_ns
    write_line("done %d ok=1 fn_ns=%d\n" % (seq, fn_ns))
    t0 = time.monotonic_ns()
    hexdigest = out.digest()
    write_line("digest %d sha256=%s digest_ns=%d\n" % (seq, hexdigest, time.monotonic_ns() - t0))
    return fn_ns


def parse_invoke(line):
    if not line.startswith("invoke "):
        return None
    seq = line[7:]
    return int(seq) if seq.isdigit() and len(seq) < 20 else None


def serve_loop(name, params, interp_ns=-1):
    """The ready line carries the cold-start phases: interp_ns (exec to the
    handler's first statement), import_ns, init_ns (Function(): inputs and
    model load); the first call is the first done line's fn_ns."""
    try:
        fn, import_ns, init_ns = functions.open_instance(name, params)
    except Exception as e:
        refuse(e)
        return EXIT_INIT
    return serve_instance(fn, params, "init_ns=%d" % init_ns,
                          "interp_ns=%d import_ns=%d" % (interp_ns, import_ns))


def refuse(e):
    """The instance could not be made: one error line instead of ready."""
    write_line("error %s\n" % one_line(e))


def serve_instance(fn, params, init, phases, extra="", first_call=None):
    """Serve @fn: the ready line (@init: "init_ns=N", @phases: the phase
    fields after threads=, @extra: more fields at its end), then requests
    until EOF or quit; first_call(fn_ns) once the first call was answered
    (seed.py's report, as serve.c's hook)."""
    rss, pss = memstat.read()
    write_line("ready pid=%d %s rss_kb=%d pss_kb=%d threads=%d %s runtime=python%s%s\n" %
               (os.getpid(), init, rss, pss, fn.threads, phases,
                platform.python_version(), extra))
    calls = 0
    for line in read_lines():
        seq = parse_invoke(line)
        if seq is not None:
            fn_ns = reply_invoke(fn, seq, wlargs.digest_due(params.digest_every, calls))
            if calls == 0 and first_call:
                first_call(fn_ns)
            calls += 1
        elif line == "mem":
            rss, pss = memstat.read()
            write_line("mem rss_kb=%d pss_kb=%d\n" % (rss, pss))
        elif line == "quit":
            break
        else:
            write_line("error unknown request '%.64s'\n" % line)
    return EXIT_OK
