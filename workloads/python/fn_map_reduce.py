# SPDX-License-Identifier: MIT
"""map-reduce: word count as map, shuffle, reduce over map-reduce.c's text
(from `cvmfn prepare map-reduce`, or --input, upper case folded as there).

Map: one Counter per chunk (chunks of map-reduce.c's size, each ended at a
non-letter); shuffle: hash-partition into 16 buckets; reduce: sum each
bucket; output: (word, count) sorted by count desc, then word. Words are
runs of a-z. Digest: each word, a NUL, its count as u64: map-reduce.c's.
"""
import collections
import re

import inputs

REQUIRES = []
PARTITIONS = 16
WORD = re.compile(rb"[a-z]+")


def split_chunks(text, size):
    ends, pos = [], 0
    while pos < len(text):
        pos = min(pos + size, len(text))
        while pos < len(text) and 0x61 <= text[pos] <= 0x7a:
            pos += 1
        ends.append(pos)
    return ends


class Function:
    threads = 1

    def __init__(self, params):
        if params.input:
            with open(params.input, "rb") as f:
                self.text = fold(f.read())
        else:
            self.text = inputs.read(params, "map-reduce", "text",
                                    params.pick(64 << 10, 8 << 20, 64 << 20))
        self.ends = split_chunks(self.text, params.pick(8 << 10, 256 << 10, 1 << 20))
        self.summary = ""

    def invoke(self, out):
        buckets = [[] for _ in range(PARTITIONS)]
        begin = 0
        for end in self.ends:                       # map
            counts = collections.Counter(WORD.findall(self.text, begin, end))
            parts = [{} for _ in range(PARTITIONS)]
            for word, n in counts.items():
                parts[hash(word) % PARTITIONS][word] = n
            for b, part in zip(buckets, parts):     # shuffle
                b.append(part)
            begin = end
        total = []
        for b in buckets:                           # reduce
            reduced = collections.Counter()
            for part in b:
                reduced.update(part)
            total.extend(reduced.items())
        total.sort(key=lambda wc: (-wc[1], wc[0]))
        for word, n in total:
            out.ref(word + b"\0")
            out.u64(n)
        self.summary = "%d words, %d distinct, top '%s' x%d" % (
            sum(n for _, n in total), len(total), total[0][0].decode() if total else "",
            total[0][1] if total else 0)


def fold(data):
    """A-Z to a-z, every other byte as it is (map-reduce.c's load_text)."""
    return data.translate(bytes.maketrans(b"ABCDEFGHIJKLMNOPQRSTUVWXYZ",
                                          b"abcdefghijklmnopqrstuvwxyz"))
