# SPDX-License-Identifier: MIT
"""RSS and PSS of this process from /proc/self/smaps_rollup (memstat.c); -1 unknown."""


def read():
    rss = pss = -1
    try:
        with open("/proc/self/smaps_rollup") as f:
            for line in f:
                if line.startswith("Rss:"):
                    rss = int(line.split()[1])
                elif line.startswith("Pss:"):
                    pss = int(line.split()[1])
    except OSError:
        pass
    return rss, pss
