#!/bin/bash
# tests/system/compare-real.t - one comparison that is real here: a TCG
# guest (backend = qemu) against the native backend, measured now, with
# repeats = 2. The cells run interleaved (native, qemu, native, qemu by
# repeat, in cell.id order); `compare --pair-by backend` pairs them and
# labels the pair "backend qemu vs native", never as a CVM, with every
# invocation of both repeats on each side and the guest slower (a TCG
# guest's virtio-serial round trip against a pipe: 10 to 25 times here);
# `compare` by confidential finds no CVM pair (exit 3). SKIPs without root, sqlite3 or QEMU (a failure under CI).
set -u
cd "$(dirname "$0")/../.."
. tests/system/tap.sh

N=6
plan $N
py=/usr/bin/python3
why=
[ "$(id -u)" = 0 ] || why="needs root"
[ -z "$why" ] && ! command -v sqlite3 >/dev/null && why="no sqlite3"
[ -z "$why" ] && [ ! -x $py ] && why="no $py"
[ -z "$why" ] && ! command -v qemu-system-x86_64 >/dev/null && why="qemu-system-x86_64 is not installed"
[ -n "$why" ] && skip_all $N "$why"
command -v mkfs.ext4 >/dev/null || PATH=$PATH:/usr/sbin:/sbin
tmp=$(mktemp -d)
trap '$CVMBENCH restore >/dev/null 2>&1; rm -rf "$tmp"' EXIT
export TMPDIR=$tmp CVMBENCH_STATE_DIR=$tmp/state CVMBENCH_DATA_DIR=$tmp/data
db=$tmp/r.db
j() { $py -c 'import json, sys; d = json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"; }

if ! $CVMBENCH guest build >"$tmp/b" 2>&1; then
	if [ -z "${CI:-}" ] && grep -qiE "apt-get|apt-cache" "$tmp/b"; then
		skip_rest $N "cannot fetch the kernel package: $(head -c 200 "$tmp/b")"
		exit 0
	fi
fi
cat >"$tmp/pair.ini" <<'EOF'
[experiment tcg-vs-native]
workload = hello-world
size = test
backend = native, qemu
accel = tcg
boot-timeout = 300
invocations = 20
warmup = 3
repeats = 2
EOF
$CVMBENCH run "$tmp/pair.ini" --db "$db" --wait-lock 600 >"$tmp/run.out" 2>&1
is "$?" 0 "native and qemu (TCG) cells run" || tail -20 "$tmp/run.out" | sed 's/^/# /'
is "$(sqlite3 "$db" "select backend || repeat_index from cell order by id" | tr '\n' ' ')" \
   "native0 qemu0 native1 qemu1 " "the two sides run interleaved by repeat, in cell.id order"
$CVMBENCH compare --db "$db" --pair-by backend --json > "$tmp/c.json"
is "$?" 0 "compare --pair-by backend exits 0"
is "$(j $tmp/c.json '[(p["kind"], p["side"], p["stats"]["base"]["n"], p["stats"]["side"]["n"], len(p["cells"])) for p in d["pairs"]]')" \
   "[('backend qemu vs native', 'qemu', 40, 40, 2)]" \
   "one pair, labelled as what it is, with both repeats (40 invocations) a side"
ok "$(j $tmp/c.json 'int(d["pairs"][0]["stats"]["ratio_ci"][0] > 1)')" -eq 1 \
   "the guest is slower: ratio $(j $tmp/c.json 'd["pairs"][0]["stats"]["ratio"]') (interval above 1)"
$CVMBENCH compare --db "$db" > "$tmp/c.txt"
is "$? $(grep -c '^no pairs' "$tmp/c.txt")" "3 1" "by confidential there is no CVM pair: exit 3, said"
