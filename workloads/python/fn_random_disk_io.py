# SPDX-License-Identifier: MIT
"""random-disk-io: FunctionBench's random disk I/O: random 4 KiB writes over
a file, one fsync, random 4 KiB reads (os.pwrite, os.fsync, os.pread:
buffered, no O_DIRECT, as random-disk-io.c and the original).

init copies the file `cvmfn prepare random-disk-io` exports (file: every
block in its initial state) into a scratch directory of its own (removed
at exit) and fsyncs it; the blocks written (writes) and the block numbers
(blocks: the writes', then the reads') are random-disk-io.c's draws. The
digest is the C one's: the read count, then the 64-bit FNV-1a of every
block read over its u64 words, computed with NumPy across all blocks read
(the one step plain Python would take seconds for at size large).
"""
import atexit
import os
import shutil
import tempfile

import inputs

REQUIRES = [("numpy", "python3-numpy")]
BLOCK = 4096
FNV_OFFSET, FNV_PRIME = 0xcbf29ce484222325, 0x100000001b3


class Function:
    threads = 1

    def __init__(self, params):
        import numpy
        self.np = numpy
        if params.input:
            raise ValueError("random-disk-io takes no --input")
        nblocks = params.pick(4 << 20, 64 << 20, 256 << 20) // BLOCK
        self.ops = nblocks // 4
        self.writes = inputs.read(params, "random-disk-io", "writes", self.ops * BLOCK)
        blocks = numpy.frombuffer(inputs.read(params, "random-disk-io", "blocks",
                                              16 * self.ops), dtype="<u8")
        self.write_at = [int(b) * BLOCK for b in blocks[:self.ops]]
        self.read_at = [int(b) * BLOCK for b in blocks[self.ops:]]
        os.makedirs(params.scratch_dir, exist_ok=True)
        scratch = tempfile.mkdtemp(prefix="random-disk-io-python-", dir=params.scratch_dir)
        atexit.register(shutil.rmtree, scratch, True)
        self.path = os.path.join(scratch, "file")
        src = inputs.path(params, "random-disk-io", "file")
        if os.path.getsize(src) != nblocks * BLOCK:
            raise inputs.MissingInput("%s: not %d blocks (prepare it again)" % (src, nblocks))
        shutil.copyfile(src, self.path)
        self.fd = os.open(self.path, os.O_RDWR | os.O_CLOEXEC)
        os.fsync(self.fd)
        self.output, self.summary = params.output, ""

    def checksums(self, data):
        """FNV-1a over each 4 KiB block's 512 u64 words, all blocks at once."""
        np = self.np
        words = np.frombuffer(data, dtype="<u8").reshape(-1, BLOCK // 8)
        h = np.full(words.shape[0], FNV_OFFSET, dtype=np.uint64)
        prime = np.uint64(FNV_PRIME)
        for j in range(words.shape[1]):
            h = (h ^ words[:, j]) * prime
        return h

    def invoke(self, out):
        fd, w = self.fd, memoryview(self.writes)
        for i, off in enumerate(self.write_at):
            if os.pwrite(fd, w[i * BLOCK:(i + 1) * BLOCK], off) != BLOCK:
                raise OSError("short write to %s" % self.path)
        os.fsync(fd)
        data = bytearray()
        for off in self.read_at:
            block = os.pread(fd, BLOCK, off)
            if len(block) != BLOCK or int.from_bytes(block[56:64], "little") * BLOCK != off:
                raise OSError("%s: block at %d holds another block's data" % (self.path, off))
            data += block
        out.u64(self.ops)
        out.ref(self.checksums(bytes(data)).astype("<u8").tobytes())
        self.summary = "%d x 4 KiB random writes, fsync, %d reads, file %d MiB" % (
            self.ops, self.ops, 4 * len(self.read_at) * BLOCK >> 20)
        if self.output:
            with open(self.path, "rb") as f:
                out.file(self.output, f.read())
