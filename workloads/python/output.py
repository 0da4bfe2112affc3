# SPDX-License-Identifier: MIT
"""What one call produced (workloads/output.h), recorded, hashed after the call.

The digest is SHA-256 over the recorded bytes in order, the same bytes the
C function records, so a Python twin that defines the same output has the
same digest. Files (--output) are written after the end time too.
"""
import hashlib
import os
import stat
import struct


class Output:
    def __init__(self):
        self.segments = []
        self.files = []

    def ref(self, data):
        """Record @data (bytes-like) without copying it (wl_out_ref)."""
        self.segments.append(data)

    def u64(self, value):
        """8 little-endian bytes (wl_out_u64)."""
        self.segments.append(struct.pack("<Q", value))

    def double(self, value, decimals):
        """@value as "%.*f;" text, "-0.00" as "0.00" (wl_out_double)."""
        self.segments.append((value, decimals))

    def file(self, path, data):
        """Write @data to @path after the end time (wl_out_file). @data may be
        a callable that makes the bytes: it runs after the end time too
        (wl_out_file_with), so making a copy stays out of the timed call."""
        self.files.append((path, data))

    def digest(self):
        h = hashlib.sha256()
        for seg in self.segments:
            if isinstance(seg, tuple):
                text = "%.*f;" % (seg[1], seg[0])
                if text.startswith("-") and not text.strip("-0.;"):
                    text = text[1:]
                seg = text.encode()
            h.update(seg)
        return h.hexdigest()

    def write_files(self):
        for path, data in self.files:
            write_atomic(path, data() if callable(data) else data)


def write_atomic(path, data):
    """A regular file through a temporary and rename; a device or FIFO in place."""
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            with open(path, "wb") as f:
                f.write(data)
            return
    except FileNotFoundError:
        pass
    target = os.path.realpath(path)
    tmp = "%s.tmp%d" % (target, os.getpid())
    with open(tmp, "wb") as f:
        f.write(data)
    os.replace(tmp, target)
