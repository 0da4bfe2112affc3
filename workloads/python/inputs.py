# SPDX-License-Identifier: MIT
"""The inputs cvmfn generated from the seed, read from the files `cvmfn prepare`
writes (workloads/wlexport.h): "<data_dir>/<workload>-<size>-seed<N>.<part>"."""
import os


class MissingInput(Exception):
    pass


def path(params, workload, part):
    """The name of input file @part (which must exist)."""
    name = os.path.join(params.data_dir, "%s-%s-seed%d.%s" %
                        (workload, params.size, params.seed, part))
    if not os.path.exists(name):
        raise MissingInput("%s: No such file or directory (run `cvmfn prepare %s "
                           "--size %s --seed %d`)" % (name, workload, params.size, params.seed))
    return name


def read(params, workload, part, size=None):
    """The bytes of input file @part; @size, when given, must match."""
    name = path(params, workload, part)
    try:
        with open(name, "rb") as f:
            data = f.read()
    except OSError as e:
        raise MissingInput("%s: %s" % (name, e.strerror))
    if size is not None and len(data) != size:
        raise MissingInput("%s: %d bytes, expected %d (prepare it again)" %
                           (name, len(data), size))
    return data
