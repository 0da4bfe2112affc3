#!/usr/bin/env bash
# graph-bfs: the generated Barabasi-Albert graph and the BFS levels against
# NetworkX, determinism across threads and seeds.
cd "$(dirname "$0")/../.." || exit 1
. tests/workloads/lib.sh
digest() { "$fn" run graph-bfs --data-dir "$d" "$@" | sed -n 's/^digest //p'; }
echo 1..8

"$fn" run graph-bfs --data-dir "$d" --threads 2 --output "$d/g.out" > "$d/run.txt"
grep -q "1000 nodes, 9900 edges: reached 1000" "$d/run.txt"
ok $? "test size: 1000 nodes, m=10 -> 9900 edges, all reached"

if [ -x "$PY" ] && "$PY" -c 'import networkx' 2>/dev/null; then
	# 2: the graph is a Barabasi-Albert graph as networkx builds it:
	# star 0 - 1..m, then each node s > m has m distinct neighbours < s.
	"$PY" - "$d/g.out" <<'PYEOF'
import sys, collections
import networkx as nx
lines = [l.split() for l in open(sys.argv[1])]
n, m = int(lines[0][1]), int(lines[0][3])
edges = [(int(a), int(b)) for t, a, b in lines[1:] if t == "e"]
G = nx.Graph(); G.add_nodes_from(range(n)); G.add_edges_from(edges)
assert G.number_of_edges() == len(edges) == m + (n - m - 1) * m
earlier = collections.Counter(max(a, b) for a, b in edges)
assert all(earlier[s] == m for s in range(m + 1, n)), "not m links per new node"
assert sorted(G.neighbors(0))[:m] == list(range(1, m + 1))
# preferential attachment: hubs far above uniform attachment (~m ln(n/m))
assert max(d for _, d in G.degree()) > 100, "no hubs"
PYEOF
	ok $? "graph: n nodes, m distinct earlier neighbours per node, hubs (networkx)"
	# 3: levels equal single_source_shortest_path_length from node 0
	"$PY" - "$d/g.out" <<'PYEOF'
import sys
import networkx as nx
G = nx.Graph(); levels = {}
for l in open(sys.argv[1]):
    p = l.split()
    if p[0] == "n":
        G.add_nodes_from(range(int(p[1])))
    elif p[0] == "e":
        G.add_edge(int(p[1]), int(p[2]))
    else:
        levels[int(p[1])] = int(p[2])
want = nx.single_source_shortest_path_length(G, 0)
want = {v: want.get(v, -1) for v in G}
assert levels == want, "levels differ"
PYEOF
	ok $? "levels equal networkx single_source_shortest_path_length(G, 0)"
else
	noref "$PY or python3-networkx missing"
	noref "$PY or python3-networkx missing"
fi

# 4-6: determinism
a=$(digest --threads 1); b=$(digest --threads 2); c=$(digest --threads 2 --wait block)
[ -n "$a" ] && [ "$a" = "$b" ]; ok $? "same digest at --threads 1 and 2"
[ "$a" = "$c" ]; ok $? "same digest with --wait block"
e=$(digest --seed 2)
[ -n "$e" ] && [ "$a" != "$e" ]; ok $? "another seed gives another digest"

# 7-8: bad input
out=$("$fn" run graph-bfs --data-dir "$d" --variant dfs 2>&1); rc=$?
[ $rc -ne 0 ] && [[ $out == *dfs* ]]; ok $? "unknown variant is an error"
out=$("$fn" run graph-bfs --data-dir "$d" --output "$d/missing/g.out" 2>&1); rc=$?
[ $rc -ne 0 ] && [[ $out == *g.out* ]] && [ ! -e "$d/missing" ]
ok $? "unwritable output: error naming the file, nothing written"
