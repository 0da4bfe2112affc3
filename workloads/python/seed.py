# SPDX-License-Identifier: MIT
"""`cvmfn seed NAME --layer L --runtime python`: the Python seed, speaking
workloads/zygote.h's protocol exactly (SOCK_SEQPACKET records on fd 0;
"fork" with the child's two protocol descriptors by SCM_RIGHTS; seeded,
forked, started records) and forking each instance with os.fork().

The layers (docs/experiments/seed-tree.md): bare holds the interpreter with
the handler (serve.py, functions.py) and the twin's module loaded; runtime
adds every library the twin uses imported (functions.runtime_modules: NumPy,
torch, torchvision, cv2, PIL, sklearn, ...); warm adds the twin's init
(Function(params): inputs read, model loaded). The seed is single-threaded
(OMP, OPENBLAS, MKL_NUM_THREADS=1, torch.set_num_threads(1)): a fork with a
library's thread pool running leaves the child a pool without threads
(libgomp waits for them for ever). The child sets --threads, re-seeds the
generators (fork_manifest.py) and does what its layer left, then serves
(serve.py) and reports "started" after its first call.
"""
import atexit
import copy
import os
import signal
import socket
import sys
import time

import fork_manifest
import functions
import memstat
import serve

NO_RESEED_ENV = "CVMFN_ZYGOTE_NO_RESEED"       # tests only, as zygote.h's
THREAD_VARS = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")
RECORD_MAX = 4096                               # protocol.h's PROTO_LINE_MAX
EXIT_OK, EXIT_INIT = 0, 3


class Seed:
    """A built layer: its name, the parameters and, at warm, the instance."""

    def __init__(self, name, params, layer):
        self.name, self.params, self.layer, self.fn = name, params, layer, None


def set_threads(n):
    """The libraries' thread counts: the environment (read at import),
    torch's intra-op threads, a loaded OpenBLAS's (by its own call)."""
    for var in THREAD_VARS:
        os.environ[var] = str(n)
    torch = sys.modules.get("torch")
    if torch is not None:
        torch.set_num_threads(n)
    for lib in loaded_openblas():
        import ctypes
        call = getattr(ctypes.CDLL(lib), "openblas_set_num_threads", None)
        if call is not None:
            call(n)


def loaded_openblas():
    """The OpenBLAS libraries this process has mapped (Debian's are in
    .../openblas-pthread/ or named libopenblas*)."""
    try:
        with open("/proc/self/maps") as f:
            paths = {line.split()[-1] for line in f if "openblas" in line and "/" in line}
    except OSError:
        return []
    return sorted(p for p in paths if ".so" in p)


def reseed():
    """Re-seed what fork copied (fork_manifest.py): random's Mersenne
    Twister, numpy's global RandomState, torch's default generator, each
    from the kernel's entropy; nothing is imported here. Off with
    CVMFN_ZYGOTE_NO_RESEED=1 (tests: random is still re-seeded, by CPython)."""
    if os.environ.get(NO_RESEED_ENV) == "1":
        return
    for module, reseed_call in (("random", lambda m: m.seed()),
                                ("numpy", lambda m: m.random.seed()),
                                ("torch", lambda m: m.seed())):
        if module in sys.modules:
            reseed_call(sys.modules[module])


def build(name, params, layer):
    """The seed's layer; raises with a message when it cannot be built."""
    why = fork_manifest.gate(name, layer)
    if why:
        raise ValueError(why)
    s = Seed(name, params, layer)
    set_threads(1)
    mod = functions.module(name)                # bare: the handler and the twin
    if layer == "bare":
        return s
    functions.import_libraries(name, functions.runtime_modules)
    set_threads(1)
    if layer == "warm":
        single = copy.copy(params)
        single.threads = 1
        s.fn = mod.Function(single)
        set_threads(1)
    return s


def finish(s):
    """In the child: what the layer left; (instance, import_ns)."""
    set_threads(s.params.threads)
    reseed()
    if s.fn is None:
        fn, import_ns, _ = functions.open_instance(s.name, s.params)
        return fn, import_ns
    s.fn.threads = s.params.threads
    return s.fn, 0


def send(sock, text):
    try:
        sock.send(text.encode()[:RECORD_MAX - 1])
    except OSError:
        pass


def child_exit(code):
    """End a child: the exit handlers it registered itself (a twin's
    scratch directory), not the seed's (cleared by child_start), then _exit."""
    try:
        atexit._run_exitfuncs()
    finally:
        os._exit(code)


def child_start():
    """A child's first statements: the seed's exit handlers are the seed's."""
    atexit._clear()
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)


def child_run(sock, s, fds, t_fork):
    """The forked instance, from its first instant; never returns."""
    fork_ns = time.monotonic_ns() - t_fork
    t0 = time.monotonic_ns()
    code = EXIT_INIT
    try:
        child_start()
        report = os.dup(0)                      # the seed socket, close-on-exec
        sock.detach()
        os.dup2(fds[0], 0)
        os.dup2(fds[1], 1)
        os.close(fds[0])
        os.close(fds[1])
        try:
            fn, import_ns = finish(s)
        except Exception as e:
            serve.refuse(e)
            child_exit(EXIT_INIT)
        init_ns = time.monotonic_ns() - t0

        def first_call(fn_ns):
            os.write(report, b"started pid=%d fork_ns=%d init_ns=%d first_call_ns=%d\n" %
                     (os.getpid(), fork_ns, init_ns, fn_ns))
            os.close(report)
        code = serve.serve_instance(fn, s.params, "init_ns=%d" % init_ns,
                                    "interp_ns=-1 import_ns=%d" % import_ns,
                                    " fork_ns=%d layer=%s" % (fork_ns, s.layer), first_call)
    finally:
        child_exit(code)


def fork_one(sock, s, fds):
    t = time.monotonic_ns()
    try:
        pid = os.fork()
    except OSError as e:
        pid = -1
        send(sock, "error fork: %s\n" % e.strerror)
    if pid == 0:
        child_run(sock, s, fds, t)
    for fd in fds:
        os.close(fd)
    if pid > 0:
        send(sock, "forked pid=%d\n" % pid)


def seed_main(name, params, t0):
    """The seed on fd 0 (a SOCK_SEQPACKET socket); @t0: its exec, the
    start of build_ns. Returns the exit code."""
    sock = socket.socket(fileno=0)
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)   # the kernel reaps the children
    try:
        if params.layer not in fork_manifest.LAYERS:
            raise ValueError("seed needs --layer bare, runtime or warm (got '%s')" %
                             params.layer)
        s = build(name, params, params.layer)
    except Exception as e:
        send(sock, "error %s\n" % serve.one_line(e))
        return EXIT_INIT
    rss, pss = memstat.read()
    send(sock, "seeded pid=%d layer=%s build_ns=%d rss_kb=%d pss_kb=%d\n" %
         (os.getpid(), s.layer, time.monotonic_ns() - t0, rss, pss))
    while True:
        try:
            msg, fds, _, _ = socket.recv_fds(sock, RECORD_MAX, 2, socket.MSG_CMSG_CLOEXEC)
        except OSError:
            break                               # the harness is gone: as EOF
        if not msg:
            break
        line = msg.decode(errors="replace").split("\n")[0]
        if line == "fork" and len(fds) == 2:
            fork_one(sock, s, fds)
            continue
        for fd in fds:
            os.close(fd)
        send(sock, "error expected 'fork' with two descriptors, got '%.64s'\n" % line)
    return EXIT_OK
