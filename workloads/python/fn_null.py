# SPDX-License-Identifier: MIT
"""null: does nothing; the harness round trip through the Python handler."""
REQUIRES = []


class Function:
    threads = 1
    summary = ""

    def __init__(self, params):
        pass

    def invoke(self, out):
        pass
