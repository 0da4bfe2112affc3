# SPDX-License-Identifier: MIT
"""matmul: C = A x B for matmul.c's N x N doubles with numpy, as
FunctionBench's function does (numpy.dot; Debian python3-numpy, its BLAS).

A and B come from `cvmfn prepare matmul` (a-b). The digest (N as u64, then
C's bytes) differs from matmul.c's: the BLAS sums in another order. The
check is C itself, within a tolerance (docs/workloads.md): --output FILE
writes A, B and C as raw little-endian doubles, as matmul.c does.
"""
import os

import inputs

REQUIRES = [("numpy", "python3-numpy")]
IMPORTS = []    # numpy loads its BLAS in init, after the thread count is set


class Function:
    def __init__(self, params):
        for var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
            os.environ[var] = str(params.threads)      # before numpy loads its BLAS
        import numpy
        self.np = numpy
        self.threads = params.threads
        n = params.pick(64, 512, 2048)
        ab = numpy.frombuffer(inputs.read(params, "matmul", "a-b", 16 * n * n), dtype="<f8")
        self.a, self.b = ab[:n * n].reshape(n, n), ab[n * n:].reshape(n, n)
        self.n, self.output, self.summary = n, params.output, ""

    def invoke(self, out):
        c = self.np.dot(self.a, self.b)
        out.u64(self.n)
        out.ref(c.data)
        self.summary = "N=%d trace=%.6f (numpy.dot)" % (self.n, float(self.np.trace(c)))
        if self.output:
            out.file(self.output, self.a.tobytes() + self.b.tobytes() + c.tobytes())
