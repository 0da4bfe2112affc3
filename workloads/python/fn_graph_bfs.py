# SPDX-License-Identifier: MIT
"""graph-bfs: breadth-first search from node 0 over graph-bfs.c's
Barabasi-Albert graph (its edges from `cvmfn prepare graph-bfs`).

SeBS 503 calls igraph's graph.bfs(0); the python rootfs has neither igraph
nor NetworkX, so this is the plain-Python BFS (a deque over adjacency
lists) that runs on the small rootfs too. The digest is the level of every
node as 32-bit little-endian integers (-1 = unreached), graph-bfs.c's.
"""
import array
import collections

import inputs

REQUIRES = []


class Function:
    threads = 1

    def __init__(self, params):
        self.n = params.pick(1000, 100000, 1000000)
        m = 10
        edges = m + (self.n - m - 1) * m
        pairs = array.array("I")
        pairs.frombytes(inputs.read(params, "graph-bfs", "edges", 8 * edges))
        self.adj = [[] for _ in range(self.n)]
        for k in range(0, len(pairs), 2):
            u, v = pairs[k], pairs[k + 1]
            self.adj[u].append(v)
            self.adj[v].append(u)
        self.edges = edges
        self.summary = ""

    def invoke(self, out):
        level = array.array("i", [-1]) * self.n
        level[0] = 0
        queue = collections.deque([0])
        adj, reached, depth = self.adj, 1, 0
        while queue:
            u = queue.popleft()
            next_level = level[u] + 1
            for v in adj[u]:
                if level[v] < 0:
                    level[v] = next_level
                    queue.append(v)
                    reached += 1
                    depth = next_level
        out.ref(level.tobytes())
        self.summary = "%d nodes, %d edges: reached %d, depth %d" % (
            self.n, self.edges, reached, depth)
