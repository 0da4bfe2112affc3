# SPDX-License-Identifier: MIT
"""The inputs cvmfn generated from the seed, read from the files `cvmfn prepare`
writes (workloads/wlexport.h): "<data_dir>/<workload>-<size>-seed<N>.<part>"."""
import os


class MissingInput(Exception):
    pass


def read(params, workload, part, size=None):
    """The bytes of input file @part; @size, when given, must match."""
    path = os.path.join(params.data_dir, "%s-%s-seed%d.%s" %
                        (workload, params.size, params.seed, part))
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise MissingInput("%s: %s (run `cvmfn prepare %s --size %s --seed %d`)" %
                           (path, e.strerror, workload, params.size, params.seed))
    if size is not None and len(data) != size:
        raise MissingInput("%s: %d bytes, expected %d (prepare it again)" %
                           (path, len(data), size))
    return data
