# SPDX-License-Identifier: MIT
"""hello-world: a small JSON greeting, byte for byte hello-world.c's."""
REQUIRES = []


class Function:
    threads = 1

    def __init__(self, params):
        self.seed = params.seed
        self.summary = ""

    def invoke(self, out):
        body = '{"message":"Hello, World!","seed":%d}' % self.seed
        out.ref(body.encode())
        self.summary = body
