# SPDX-License-Identifier: MIT
"""compression: pack a directory tree into a .tar.gz, as SeBS 311 does with
shutil.make_archive (tarfile over gzip, Python's standard library).

init unpacks the tree `cvmfn prepare compression` exports (tree.tar.gz:
compression.c's generated tree, or its --input) into a scratch directory
of its own under --scratch-dir, removed at exit; --input DIR is used as it
is. invoke archives it: entries sorted by name, depth first, gzip level 6
with mtime 0 (make_archive stamps the time, which would change the digest
from call to call). The archive's bytes (the digest) are not the C one's
(tarfile writes PAX headers, another deflate): the check is the archive's
contents, every member's name, type, permission bits and bytes.
"""
import atexit
import gzip
import io
import os
import shutil
import tarfile
import tempfile

import inputs

REQUIRES = []


def unpack(params):
    os.makedirs(params.scratch_dir, exist_ok=True)
    root = tempfile.mkdtemp(prefix="compression-python-", dir=params.scratch_dir)
    atexit.register(shutil.rmtree, root, True)
    data = inputs.read(params, "compression", "tree.tar.gz")
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as tar:
        tar.extractall(root)
    return root


class Function:
    threads = 1

    def __init__(self, params):
        self.root = params.input or unpack(params)
        if not os.path.isdir(self.root):
            raise NotADirectoryError("--input %s is not a directory" % self.root)
        self.output, self.summary = params.output, ""

    def invoke(self, out):
        buf = io.BytesIO()
        with gzip.GzipFile(fileobj=buf, mode="wb", compresslevel=6, mtime=0) as gz:
            with tarfile.open(fileobj=gz, mode="w") as tar:
                for name in sorted(os.listdir(self.root)):
                    tar.add(os.path.join(self.root, name), arcname=name)
                members = tar.getmembers()
        data = buf.getvalue()
        out.ref(data)
        size = sum(m.size for m in members if m.isfile())
        self.summary = "%d files, %d dirs, %d bytes -> %d bytes tar.gz (%.1f%%, tarfile)" % (
            sum(m.isfile() for m in members), sum(m.isdir() for m in members), size,
            len(data), 100.0 * len(data) / size if size else 0)
        if self.output:
            out.file(self.output, data)
