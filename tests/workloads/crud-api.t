#!/bin/bash
# crud-api: the database cvmfn leaves, read with the sqlite3 tool, holds
# what its requests should have left and the totals it reported; errors.
d=$(mktemp -d)
ro=$d/ro
cleanup() { mountpoint -q "$ro" 2> /dev/null && umount "$ro"; rm -rf "$d"; }
trap cleanup EXIT
fn=${CVMFN:-./cvmfn}   # the cvmfn under test (a sanitizer build if set)
n=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
nok() { n=$((n + 1)); echo "not ok $n - $1"; }
check() { if eval "$2"; then ok "$1"; else nok "$1"; fi; }
skip() { n=$((n + 1)); echo "ok $n # SKIP $1"; }
. tests/workloads/ref.sh
PY=${REF_PYTHON:-/usr/bin/python3}
run() { "$fn" run crud-api --data-dir "$d/data" "$@"; }
digest() { run "$@" | sed -n 's/^digest //p'; }
q() { sqlite3 "$d/cart.db" "$1"; }

echo "1..13"
run --repeat 3 --output "$d/cart.db" > "$d/out" 2>&1
check "three invocations, same digest, database copy written" "[ \$? -eq 0 ] && [ -s '$d/cart.db' ]"
# test size: 4 sessions x 10 items; every 3rd updated, every 5th from the 2nd deleted.
check "summary counts the requests" \
	"grep -q 'result: 40 inserts, 16 updates, 8 deletes, 12 cart reads' '$d/out'"
items=$(sed -n 's/.*session carts: \([0-9]*\) items, total \([0-9]*\) cents/\1/p' "$d/out")
cents=$(sed -n 's/.*session carts: \([0-9]*\) items, total \([0-9]*\) cents/\2/p' "$d/out")
if command -v sqlite3 > /dev/null; then
	check "sqlite3: integrity_check ok" "[ \"\$(q 'PRAGMA integrity_check')\" = ok ]"
	check "sqlite3: schema cart(id, user, product, qty, price)" \
		"[ \"\$(q \"SELECT group_concat(name, ',') FROM pragma_table_info('cart')\")\" = id,user,product,qty,price ]"
	check "sqlite3: 200 base carts of 5 items untouched" \
		"[ \"\$(q \"SELECT COUNT(*), COUNT(DISTINCT user) FROM cart WHERE user LIKE 'user-%'\")\" = '1000|200' ]"
	check "sqlite3: 4 session carts of 8 items (3 runs, each session starts empty)" \
		"[ \"\$(q \"SELECT COUNT(*), COUNT(DISTINCT user) FROM cart WHERE user LIKE 'session-%'\")\" = '32|4' ] && [ '$items' = 32 ]"
	check "sqlite3: session total equals what cvmfn reported ($cents cents)" \
		"[ -n '$cents' ] && [ \"\$(q \"SELECT SUM(qty * price) FROM cart WHERE user LIKE 'session-%'\")\" = '$cents' ]"
	check "sqlite3: updated quantities 1-9, prices one per product" \
		"[ \"\$(q \"SELECT MIN(qty) >= 1 AND MAX(qty) <= 9 AND MAX(qty) > 5 FROM cart WHERE user LIKE 'session-%'\")\" = 1 ] &&
		 [ \"\$(q 'SELECT COUNT(*) FROM (SELECT product FROM cart GROUP BY product HAVING COUNT(DISTINCT price) > 1)')\" = 0 ]"
	# An independent model of the documented session: its own xoshiro256**
	# (xoshiro.py, rng.c's documented generator), the draws in the documented order, and
	# the sqlite3 tool replaying the SQL; every row (id, user, product, qty,
	# price) after 3 invocations must be equal.
	cat > "$d/model.py" <<'PY'
import sys
from xoshiro import Rng
seed, base_users, sessions, items, calls = map(int, sys.argv[1:6])
out = ["CREATE TABLE cart(id INTEGER PRIMARY KEY, user TEXT NOT NULL, product TEXT NOT NULL,"
       " qty INTEGER NOT NULL, price INTEGER NOT NULL);",
       "CREATE TEMP TABLE ids(i INTEGER PRIMARY KEY, id INTEGER);", "BEGIN;"]
r = Rng(seed, 0x9e1c)
price = [99 + r.below(19901) for _ in range(500)]
def insert(user):
    qty = 1 + r.below(5)          # the quantity is drawn first, then the product
    p = r.below(500)
    out.append("INSERT INTO cart(user, product, qty, price) VALUES('%s', 'product-%04d', %d, %d);"
               % (user, p, qty, price[p]))
r = Rng(seed, 0xba5e)
for u in range(base_users):
    for i in range(5):
        insert("user-%06d" % u)
for call in range(calls):
    r = Rng(seed, 0xc4a7)
    for s in range(sessions):
        user = "session-%04d" % s
        out.append("DELETE FROM cart WHERE user = '%s';" % user)
        for i in range(items):
            insert(user)
            out.append("INSERT OR REPLACE INTO ids VALUES(%d, last_insert_rowid());" % i)
        for i in range(0, items, 3):
            out.append("UPDATE cart SET qty = %d WHERE id = (SELECT id FROM ids WHERE i = %d);"
                       % (1 + r.below(9), i))
        for i in range(1, items, 5):
            out.append("DELETE FROM cart WHERE id = (SELECT id FROM ids WHERE i = %d);" % i)
        r.below(base_users)       # the base user whose cart is read
out.append("COMMIT;")
print("\n".join(out))
PY
	if [ -x "$PY" ] && PYTHONPATH=tests/workloads PYTHONDONTWRITEBYTECODE=1 "$PY" "$d/model.py" 1 200 4 10 3 > "$d/model.sql"; then
		rm -f "$d/model.db"
		sqlite3 "$d/model.db" < "$d/model.sql"
		rows="SELECT id, user, product, qty, price FROM cart ORDER BY id"
		sqlite3 "$d/model.db" "$rows" > "$d/model.rows"
		q "$rows" > "$d/cvmfn.rows"
		check "every row ($(wc -l < "$d/model.rows")) equals an independent model replayed by sqlite3" \
			"[ -s '$d/model.rows' ] && cmp -s '$d/model.rows' '$d/cvmfn.rows'"
	else
		noref "no $PY for the session model"
	fi
else
	for i in 1 2 3 4 5 6 7; do noref "sqlite3 tool not installed"; done
fi
d1=$(digest --threads 1); d2=$(digest --threads 2); d3=$(digest --seed 2)
check "same digest at 1 and 2 threads, another for another seed" \
	"[ -n '$d1' ] && [ '$d1' = '$d2' ] && [ -n '$d3' ] && [ '$d1' != '$d3' ]"
check "scratch database removed at teardown" "[ -z \"\$(ls '$d/data')\" ]"
mkdir "$ro"
if [ "$(id -u)" = 0 ]; then
	mount -t tmpfs -o ro,size=1m tmpfs "$ro" 2> /dev/null
else
	chmod 555 "$ro"
fi
if ! touch "$ro/probe" 2> /dev/null; then
	"$fn" run crud-api --data-dir "$ro" > /dev/null 2> "$d/err"
	rc=$?
	check "read-only data dir is an init error naming it" \
		"[ $rc -eq 3 ] && grep -q 'scratch directory in $ro' '$d/err'"
else
	rm -f "$ro/probe"
	skip "cannot make a read-only directory here (root without mount)"
fi
run --output "$d/nodir/cart.db" > /dev/null 2> "$d/err"
rc=$?
check "unwritable --output fails naming it, leaves nothing" \
	"[ $rc -eq 1 ] && grep -q 'cannot write $d/nodir/cart.db' '$d/err' && [ ! -e '$d/nodir' ]"
