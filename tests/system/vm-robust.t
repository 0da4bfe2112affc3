#!/bin/bash
# tests/system/vm-robust.t - qemu cells that go wrong, under TCG, sharing the
# built guest image (build/test-cache): in one run, a guest whose kernel
# panics (no init: guest-append = rdinit=/nonexistent, panic=-1) is an error
# well within its boot timeout with the console's last lines - the panic
# message - in the error row; a guest not ready within boot-timeout = 1 s is
# an error saying so; a memory key larger than MemAvailable is a skip naming
# both numbers; a guest whose /init answers instead of the agent (its echo
# test mode) is an error quoting its ready line (malformed lines from the
# agent itself: tests/system/qemu-agent.t); the native cell
# after them runs; no journalled QEMU process stays open. Then kill -9 of
# cvmbench mid-cell and `cvmbench restore`: the QEMU pid and the VM
# directory that the journal holds (not found by name) are gone.
# SKIPs without root or qemu-system-x86_64 (a failure under CI).
set -u
cd "$(dirname "$0")/../.."
. tests/system/tap.sh
. tests/system/guest-lib.sh

N=14
guest_test_begin $N || exit 0
db=$tmp/r.db
q() { sqlite3 "$db" "$@"; }
journal=$tmp/state/journal

# the journal's open entries of a kind: "proc" -> "PID STARTTIME", "obj" -> "KIND NAME"
open_entries() {
	awk -v k="$1" '$1 == "done" { done[$2] = 1; next }
		$1 == k { id[++n] = $2; line[n] = $3 " " $4 }
		END { for (i = 1; i <= n; i++) if (!done[id[i]]) print line[i] }' "$journal" 2>/dev/null
}
unhex() { printf "$(sed 's/../\\x&/g' <<<"$1")"; }
# whether process PID with start time START (field 22 of its stat) still runs (a zombie does not)
alive() {
	local s
	s=$(awk '{ print $3 " " $22 }' /proc/$1/stat 2>/dev/null)
	[ -n "$s" ] && [ "${s% *}" != Z ] && [ "${s#* }" = "$2" ]
}

avail=$(awk '/^MemAvailable:/ { print int($2 / 1024) }' /proc/meminfo)
big=$((avail * 2 + 1024))
cat >"$tmp/bad.ini" <<EOF
[defaults]
workload = hello-world
backend = qemu
accel = tcg
invocations = 1
warmup = 0
[experiment panic]
guest-append = rdinit=/nonexistent
boot-timeout = 120
[experiment slow]
boot-timeout = 1
[experiment big]
memory = $big
[experiment echo]
guest-append = cvmbench.test=echo
[experiment after]
workload = null
backend = native
invocations = 2
EOF
$CVMBENCH run "$tmp/bad.ini" --db "$db" --wait-lock 300 >"$tmp/run.out" 2>&1 &
pid=$!
while kill -0 $pid 2>/dev/null; do   # the processes journalled while it runs
	grep "^proc " "$journal" >>"$tmp/seen" 2>/dev/null
	sleep 0.02
done
wait $pid
rc=$?
is "$rc $(q "select group_concat(experiment || ':' || status, ' ') from cell")" \
	"1 panic:failed slow:failed big:skipped echo:failed after:ok" \
	"three failed cells, one skipped, and the native cell after them ran (exit 1)" ||
	tail -5 "$tmp/run.out" | sed 's/^/# /'
err() { q "select message from error e join cell c on c.id = e.cell_id where c.experiment = '$1'"; }
secs() { q "select cast(round((julianday(ended_at) - julianday(started_at)) * 86400) as int) from cell where experiment = '$1'"; }

# --- a kernel that panics ------------------------------------------------------
m=$(err panic)
grep -q "^--- last console lines ---" <<<"$m" && grep -q "Kernel panic - not syncing" <<<"$m"
is "$?" 0 "panic: the error row has the console's last lines, the panic message among them" ||
	tail -3 <<<"$m" | sed 's/^/# /'
grep -q "QEMU ended" <<<"$m"
is "$?" 0 "... and says QEMU ended before the guest was ready"
ok "$(secs panic)" -lt 60 "... within the boot timeout of 120 s ($(secs panic) s)"
is "$(q "select group_concat(phase, ' ') from (select phase from vm_boot b join cell c on c.id = b.cell_id where c.experiment = 'panic' order by seq)")" \
	"qemu-spawn first-console" "... its boot phases stop before ready"

# --- not ready in time, not enough memory, a line the protocol does not know ---
m=$(err slow)
grep -q "the guest was not ready within 1.0 s" <<<"$m" && grep -q "^--- last console lines ---" <<<"$m"
is "$?" 0 "boot-timeout = 1: an error saying the guest was not ready within 1.0 s, with the console"
ok "$(secs slow)" -lt 20 "... and the cell ended soon after ($(secs slow) s)"
r=$(q "select reason from skip s join cell c on c.id = s.cell_id where c.experiment = 'big'")
got=$(sed -nE 's/.*memory = ([0-9]+) MiB \+ 64 MiB\) = [0-9]+ MiB but only ([0-9]+) MiB available.*/\1 \2/p' <<<"$r")
ok "${got% *}" = "$big" "memory = $big MiB > MemAvailable: a skip naming the memory asked for ($r)"
a=${got#* }
ok "$(( ${a:-0} > avail * 9 / 10 && ${a:-0} < avail * 11 / 10 ))" = 1 \
	"... and the MemAvailable it saw (${a:-none} MiB; the test read $avail MiB)"
m=$(err echo)
grep -q "the guest has no cvmbench-agent (ready line 'cvmbench-ready uptime=" <<<"$m"
is "$?" 0 "a guest whose /init answers instead of the agent: an error quoting its ready line" ||
	echo "# $m"
left=
nq=0
while read -r _ _ p st; do
	nq=$((nq + 1))
	alive "$p" "$st" && left="$left $p"
done < <(sort -u "$tmp/seen" 2>/dev/null)
is "$((nq >= 3)):$left:$(ls -d "$tmp"/cvmbench-vm-* 2>/dev/null | wc -l)" "1::0" \
	"the QEMU processes journalled during the run ($nq entries) have all ended; no VM directory left"

# --- kill -9 mid-cell, then restore: what the journal holds is gone ---------------
cat >"$tmp/long.ini" <<'EOF'
[experiment long]
workload = hello-world
backend = qemu
accel = tcg
invocations = 1000000
EOF
$CVMBENCH run "$tmp/long.ini" --db "$tmp/long.db" --wait-lock 300 >"$tmp/long.out" 2>&1 &
pid=$!
for ((i = 0; i < 1200; i++)); do   # until calls run in the VM (up to 60 s)
	[ "$(sqlite3 "$tmp/long.db" "select count(*) from invocation" 2>/dev/null)" -gt 0 ] 2>/dev/null && break
	sleep 0.05
done
procs=$(open_entries proc | sort -u)
dir=$(unhex "$(open_entries obj | awk '$1 == "qemu-vm-dir" { print $2 }')")
qpid=
while read -r p st; do
	[ -n "$p" ] && [ "$(cat /proc/$p/comm 2>/dev/null)" = qemu-system-x86 ] &&
		[ "$(awk '{ print $22 }' /proc/$p/stat)" = "$st" ] && qpid=$p
done <<<"$procs"
ok "${qpid:-0}" -gt 0 "the journal holds the running QEMU's pid and start time (${qpid:-none})"
[ -n "$dir" ] && [ -d "$dir" ]
is "$?" 0 "... and its VM directory (${dir:-none})"
exec 3>&2 2>/dev/null
kill -9 $pid
wait $pid
exec 2>&3 3>&-
$CVMBENCH restore >"$tmp/restore.out" 2>&1
rc=$?
gone() {   # the process with that start time ended, within 5 s
	local i
	for ((i = 0; i < 100; i++)); do
		alive "$1" "$2" || return 0
		sleep 0.05
	done
	return 1
}
qst=$(awk -v p="${qpid:-0}" '$1 == p { print $2 }' <<<"$procs")
[ -n "$qpid" ] && gone "$qpid" "$qst"
is "$rc $? $([ -n "$dir" ] && [ ! -e "$dir" ] && echo removed || echo left)" "0 0 removed" \
	"kill -9 then restore: the journalled QEMU ended, its VM directory removed" ||
	sed 's/^/# /' "$tmp/restore.out"
