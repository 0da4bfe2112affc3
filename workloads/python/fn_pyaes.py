# SPDX-License-Identifier: MIT
"""pyaes: AES-128-CTR encrypt and decrypt a message, N times, with the pyaes
library FunctionBench's function uses (Debian python3-pyaes, pure Python).

Key, IV and message are pyaes.c's: the files `cvmfn prepare pyaes` writes
(key-iv, message), or --key / --iv / --input. The counter is the IV as one
128-bit big-endian number, as in pyaes.c and OpenSSL, so the ciphertext,
and the digest (its length as u64, then the ciphertext), are the C one's.
"""
import time

import inputs

REQUIRES = [("pyaes", "python3-pyaes")]


def hex128(what, text):
    if len(text) != 32:
        raise ValueError("bad %s '%s': need exactly 32 hex digits" % (what, text))
    return bytes.fromhex(text)


class Function:
    threads = 1

    def __init__(self, params):
        import pyaes
        self.pyaes = pyaes
        self.iterations = params.pick(1, 10, 10)
        key_iv = inputs.read(params, "pyaes", "key-iv", 32)
        self.key = hex128("--key", params.key) if params.key else key_iv[:16]
        iv = hex128("--iv", params.iv) if params.iv else key_iv[16:]
        self.counter0 = int.from_bytes(iv, "big")
        if params.input:
            with open(params.input, "rb") as f:
                self.message = f.read()
        else:
            self.message = inputs.read(params, "pyaes", "message",
                                       params.pick(4096, 65536, 1 << 20))
        self.output = params.output
        self.summary = ""

    def ctr(self, data):
        counter = self.pyaes.Counter(initial_value=self.counter0)
        return self.pyaes.AESModeOfOperationCTR(self.key, counter=counter).encrypt(data)

    def invoke(self, out):
        t0 = time.monotonic()
        for i in range(self.iterations):
            cipher = self.ctr(self.message)
            if self.ctr(cipher) != self.message:
                raise RuntimeError("decryption %d does not give the message back" % (i + 1))
        secs = time.monotonic() - t0
        out.u64(len(self.message))
        out.ref(cipher)
        self.summary = "%d bytes x %d encrypt+decrypt, %.2f MiB/s AES-128-CTR (pyaes)" % (
            len(self.message), self.iterations,
            2.0 * len(self.message) * self.iterations / secs / 1048576 if secs > 0 else 0)
        if self.output:
            out.file(self.output, cipher)
