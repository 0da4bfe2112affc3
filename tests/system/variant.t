#!/bin/bash
# tests/system/variant.t - the variant key: a config error naming file:line
# for a variant the workload does not have (or a workload without variants),
# exit 2; the cell key unchanged when it is not set; and the variant reaches
# the function on the native backend: the digest of each cell's output is the
# digest `cvmfn run --variant V` prints when run directly (video-processing's
# ramp and cube frames differ from its default clip, so a variant lost on the
# way gives the default's digest), and cell_param records it; the same in a
# runc container (root and runc needed, else a SKIP) and in a TCG guest (one
# boot; QEMU needed): there the data disk is prepared for the variant too,
# and `cvmbench guest disk --variant` names that same cached disk. A variant
# `guest disk` does not know is refused like the config key's (exit 2,
# naming the value and the variants), also one of a workload that checks its
# variants itself (video-processing, through its ops' variant_check: its own
# message, no image cached; before, cvmfn prepare refused it, exit 1), and
# the config key refuses such a one at file:line too. The guest's spawn line:
# tests/unit/agent-guest.c.
set -u
cd "$(dirname "$0")/../.."
. tests/system/tap.sh

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export CVMBENCH_STATE_DIR=$tmp/state CVMBENCH_DATA_DIR=$tmp/data
db=$tmp/r.db
q() { sqlite3 "$db" "$@"; }

plan 17

cat > "$tmp/bad1.ini" <<'INI'
[defaults]
workload = hello-world, image-recognition
variant = resnet152
[experiment a]
invocations = 1
INI
$CVMBENCH run "$tmp/bad1.ini" --dry-run >/dev/null 2>"$tmp/err"; rc=$?
is "$rc $(grep -c "bad1.ini:3: .*hello-world has no variants" "$tmp/err")" "2 1" \
	"a variant for a workload without variants: exit 2, error at file:line"
cat > "$tmp/bad2.ini" <<'INI'
[defaults]
workload = image-recognition
[experiment a]
invocations = 1
variant = resnet50, resnet99
INI
$CVMBENCH run "$tmp/bad2.ini" --dry-run >/dev/null 2>"$tmp/err"; rc=$?
is "$rc $(grep -c "bad2.ini:5: .*unknown variant 'resnet99' (variants: resnet50, resnet152)" "$tmp/err")" \
	"2 1" "an unknown variant: exit 2, error at file:line naming the variants"

$CVMBENCH guest disk image-recognition --variant resnet99 >/dev/null 2>"$tmp/err"; rc=$?
is "$rc $(grep -c "unknown variant 'resnet99' (variants: resnet50, resnet152)" "$tmp/err")" \
	"2 1" "guest disk --variant: an unknown variant: exit 2 naming it and the variants"
$CVMBENCH guest disk hello-world --variant resnet152 >/dev/null 2>"$tmp/err"; rc=$?
is "$rc $(grep -c "hello-world has no variants (got 'resnet152')" "$tmp/err")" "2 1" \
	"guest disk --variant for a workload without variants: exit 2"
# video-processing checks its variants itself: refused before cvmfn prepare runs
$CVMBENCH guest disk video-processing --variant bogus >/dev/null 2>"$tmp/err"; rc=$?
is "$rc $(grep -c "guest disk: video-processing: unknown variant 'bogus' (ramp, cube or solid:R,G,B)" "$tmp/err") $(ls "$CVMBENCH_CACHE_DIR/disk" 2>/dev/null | grep -c -- -bogus-)" \
	"2 1 0" "guest disk --variant bogus of video-processing: exit 2, the workload's message, no image" ||
	cat "$tmp/err"
printf '[defaults]\nworkload = video-processing\nvariant = ramp, bogus\n[experiment e]\n' >"$tmp/bad3.ini"
$CVMBENCH run "$tmp/bad3.ini" --dry-run >/dev/null 2>"$tmp/err"; rc=$?
is "$rc $(grep -c "bad3.ini:3: .*video-processing: unknown variant 'bogus' (ramp, cube or solid:R,G,B)" "$tmp/err")" \
	"2 1" "variant = bogus for video-processing: exit 2 at file:line with the workload's message" ||
	cat "$tmp/err"

cat > "$tmp/v.ini" <<'INI'
[defaults]
workload = video-processing
size = test
threads = 1
invocations = 2
warmup = 0
[experiment plain]
[experiment var]
variant = ramp, cube
INI
# plain-b2dc5f74: the key cvmbench gave this cell before the variant key existed
is "$($CVMBENCH run "$tmp/v.ini" --dry-run 2>/dev/null | grep -o '^plain-[0-9a-f]*')" \
	plain-b2dc5f74 "a cell without a variant keeps the key it had before the variant key"

$CVMBENCH run "$tmp/v.ini" --db "$db" 2>"$tmp/err"; rc=$?
is "$rc $(q "SELECT count(*) FROM cell WHERE status = 'ok'")" "0 3" "three cells ok"
is "$(q "SELECT group_concat(p.value, ',') FROM cell c JOIN cell_param p ON p.cell_id = c.id
	 AND p.key = 'variant' WHERE c.experiment = 'var' ORDER BY c.id")" "ramp,cube" \
	"cell_param records each cell's variant"
digest_of() {
	q "SELECT DISTINCT i.digest FROM invocation i JOIN cell c ON c.id = i.cell_id
	   JOIN cell_param p ON p.cell_id = c.id AND p.key = 'variant'
	   WHERE p.value = '$1' AND i.digest IS NOT NULL"
}
direct() {
	$CVMFN run video-processing --size test --seed 1 --threads 1 --data-dir "$tmp/direct" \
		--prepare "$@" 2>/dev/null | sed -n 's/^digest //p'
}
d0=$(digest_of ""); d1=$(digest_of ramp); d2=$(digest_of cube)
is "$d0" "$(direct)" "no variant: the digest cvmfn run prints without --variant"
is "$d1" "$(direct --variant ramp)" "variant = ramp: the digest of cvmfn run --variant ramp"
is "$d2" "$(direct --variant cube)" "variant = cube: the digest of cvmfn run --variant cube"
ok "$(printf '%s\n' "$d0" "$d1" "$d2" | sort -u | grep -c .)" = 3 \
	"three different outputs (a lost variant would repeat the default's digest)"
is "$(q "SELECT count(*) FROM cell_param WHERE key = 'variant' AND value = ''")" 1 \
	"the cell without a variant records it empty"

if [ "$(id -u)" != 0 ]; then skip "runc container: needs root"
elif ! command -v runc >/dev/null; then skip "runc container: runc is not installed"
else
	sed 's/^variant = ramp, cube$/variant = ramp\nbackend = runc/; /^\[experiment plain\]$/d' \
		"$tmp/v.ini" > "$tmp/r.ini"
	$CVMBENCH run "$tmp/r.ini" --db "$tmp/rc.db" --data-dir "$tmp/data" 2>"$tmp/err"; rc=$?
	got=$(sqlite3 "$tmp/rc.db" "SELECT DISTINCT c.status || ' ' || i.digest FROM invocation i
		JOIN cell c ON c.id = i.cell_id WHERE i.digest IS NOT NULL" 2>/dev/null)
	is "$rc $got" "0 ok $d1" "runc: variant = ramp gives the digest of cvmfn run --variant ramp" ||
		sed 's/^/# /' "$tmp/err" | tail -3
fi

if ! command -v qemu-system-x86_64 >/dev/null; then skip_rest 2 "guest: no qemu-system-x86_64"
else
	sed 's/^variant = ramp, cube$/variant = ramp\nbackend = qemu\naccel = tcg\nmemory = 256\nboot-timeout = 300/; /^\[experiment plain\]$/d' \
		"$tmp/v.ini" > "$tmp/g.ini"
	$CVMBENCH run "$tmp/g.ini" --db "$tmp/g.db" --wait-lock 600 2>"$tmp/err"; rc=$?
	got=$(sqlite3 "$tmp/g.db" "SELECT DISTINCT c.status || ' ' || i.digest FROM invocation i
		JOIN cell c ON c.id = i.cell_id WHERE i.digest IS NOT NULL" 2>/dev/null)
	is "$rc $got" "0 ok $d1" "guest: variant = ramp gives the digest of cvmfn run --variant ramp" ||
		sed 's/^/# /' "$tmp/err" | tail -3
	# the run built (or found) the ramp disk: guest disk --variant ramp finds that one
	out=$($CVMBENCH guest disk video-processing --size test --seed 1 --variant ramp 2>&1)
	is "$(grep -Ec '^cached data disk .*/disk/video-processing-ramp-test-1-[0-9a-f]+\.img ' \
		<<<"$out")" 1 "guest disk --variant ramp: the cached disk the guest run used" ||
		echo "#   $out"
fi
