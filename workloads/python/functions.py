# SPDX-License-Identifier: MIT
"""The Python twins, by cvmfn's workload name: one module per function
(fn_<name>.py), each with REQUIRES, the (module, Debian package) pairs it
imports, and a class Function: __init__(params) is init (what a warm
instance holds), invoke(out) one call, .threads and .summary as cvmfn's."""
import importlib
import importlib.util

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


def open_instance(name, params):
    missing = missing_modules(name)
    if missing:
        raise NoTwin("%s needs %s" % (name, ", ".join(
            "%s (Debian package %s)" % mp for mp in missing)))
    return module(name).Function(params)
