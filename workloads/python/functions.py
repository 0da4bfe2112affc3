# SPDX-License-Identifier: MIT
"""The Python twins, by cvmfn's workload name: one module per function
(fn_<name>.py), each with REQUIRES, the (module, Debian package) pairs it
imports, optionally IMPORTS, the modules imported before init (default:
REQUIRES' modules), and a class Function: __init__(params) is init (what
a warm instance holds), invoke(out) one call, .threads and .summary as
cvmfn's."""
import importlib
import importlib.util
import time

MODULES = {
    "null": "fn_null",
    "hello-world": "fn_hello_world",
    "pyaes": "fn_pyaes",
    "graph-bfs": "fn_graph_bfs",
    "map-reduce": "fn_map_reduce",
    "matmul": "fn_matmul",
    "chameleon": "fn_chameleon",
    "compression": "fn_compression",
    "crud-api": "fn_crud_api",
    "random-disk-io": "fn_random_disk_io",
    "logistic-regression": "fn_logistic_regression",
    "sentiment": "fn_sentiment",
    "image-recognition": "fn_image_recognition",
    "cnn-classification": "fn_cnn_classification",
    "rnn-generate": "fn_rnn_generate",
    "video-processing": "fn_video_processing",
    "video-face-detection": "fn_video_face_detection",
}


class NoTwin(Exception):
    pass


def module(name):
    if name not in MODULES:
        raise NoTwin("%s has no Python version yet (there are: %s)" %
                     (name, ", ".join(sorted(MODULES))))
    return importlib.import_module(MODULES[name])


def missing_modules(name):
    """(module, package) pairs of @name's libraries this interpreter lacks."""
    return [(m, p) for m, p in module(name).REQUIRES if importlib.util.find_spec(m) is None]


def import_libraries(name, which=None):
    """@name's module, its libraries imported: which(module) names them,
    default its IMPORTS (default: REQUIRES' modules); a missing one raises
    NoTwin naming its Debian package."""
    mod = module(name)
    missing = missing_modules(name)
    if missing:
        raise NoTwin("%s needs %s" % (name, ", ".join(
            "%s (Debian package %s)" % mp for mp in missing)))
    for lib in which(mod) if which else getattr(mod, "IMPORTS", [m for m, _ in mod.REQUIRES]):
        importlib.import_module(lib)
    return mod


def runtime_modules(mod):
    """Every library @mod uses (its IMPORTS and REQUIRES' modules): what a
    seed's runtime layer imports (seed.py)."""
    names = list(getattr(mod, "IMPORTS", []))
    return names + [m for m, _ in mod.REQUIRES if m not in names]


def open_instance(name, params):
    """(instance, import_ns, init_ns): the twin's module and its libraries
    imported (import_libraries), then Function(params), each window timed
    with time.monotonic_ns()."""
    t0 = time.monotonic_ns()
    mod = import_libraries(name)
    t1 = time.monotonic_ns()
    fn = mod.Function(params)
    return fn, t1 - t0, time.monotonic_ns() - t1
