# tests/system/idle-nodrv-lib.sh - checks of the idle experiments on a
# machine without a cpuidle driver (12 tests), shared by idle-no-driver.t
# (machine B's captured tree) and idle-policy.t (a real machine without a
# driver). The expected reasons are the tool's, for the case the machine
# is in: the test reads root and tracefs through `cvmbench env`.

# nodrv_expected_idle_skip: the idle probe's skip reason without states.
nodrv_expected_idle_skip() {
	local pre="no cpuidle states under /sys/devices/system/cpu/cpu0/cpuidle (cpuidle driver 'none') and"
	if [ "$(id -u)" != 0 ]; then
		echo "$pre power:cpu_idle count needs root"
	elif [ -n "${CVMBENCH_SYSROOT:-}" ]; then
		echo "idle entries: no cpuidle states (cpuidle driver 'none') and no power:cpu_idle count: tracefs is not mounted in the test root"
	else
		echo "idle entries: no cpuidle states (cpuidle driver 'none'), and power:cpu_idle does not fire on every CPU"
	fi
}

# check_no_driver TMP WHERE: list and run a poll/hlt/spin config.
check_no_driver() {
	local tmp=$1 where=$2 db=$1/nd.db reason rc poll hlt spin skipped got
	reason="idle = poll: no cpuidle driver (current_driver is 'none'): the kernel idles with HLT and POLL cannot be chosen at run time (idle = spin keeps the CPUs busy instead)"
	mkdir -p "$tmp/cfg"
	cat > "$tmp/cfg/nd.ini" <<'INI'
[defaults]
workload = hello-world
threads = 2
wait = block
invocations = 20
warmup = 1
probes = latency, idle, cpu
[experiment idle-nodrv]
idle = poll, hlt, spin
INI
	./cvmbench list --json --configs "$tmp/cfg" > "$tmp/list.json"
	got=$(python3 -c 'import json,sys
for e in json.load(open(sys.argv[1]))["experiments"]:
    print(e.get("cells_unsupported"), e.get("reason", "").split("; ")[0])' "$tmp/list.json")
	is "$got" "1 1 of 3 cells not here: $reason" "list ($where): the poll cell cannot run, with the reason"
	./cvmbench run "$tmp/cfg/nd.ini" --db "$db" 2> "$tmp/nd.err"; rc=$?
	is "$rc" 3 "run ($where): exits 3 (finished, some cells skipped)" || sed 's/^/# /' "$tmp/nd.err"
	q() { sqlite3 "$db" "$@"; }
	cell() { q "SELECT c.id FROM cell c JOIN cell_param p ON p.cell_id = c.id AND p.key = 'idle' AND p.value = '$1'"; }
	poll=$(cell poll); hlt=$(cell hlt); spin=$(cell spin)
	is "$(q "SELECT status FROM cell WHERE id = $poll")" skipped "poll cell skipped"
	is "$(q "SELECT reason FROM skip WHERE cell_id = $poll AND probe IS NULL")" "$reason" \
		"run stores the reason list gave"
	skipped=$(q "SELECT (julianday(ended_at) - julianday(started_at)) * 86400 < 0.2
		     AND (SELECT count(*) FROM instance WHERE cell_id = $poll) = 0
		     AND (SELECT count(*) FROM invocation WHERE cell_id = $poll) = 0
		     FROM cell WHERE id = $poll")
	is "$skipped" 1 "the poll cell cost nothing: no instance, no call, under 0.2 s"
	is "$(q "SELECT status FROM cell WHERE id = $hlt")/$(q "SELECT count(*) FROM invocation WHERE cell_id = $hlt AND phase = 'measured' AND ok")" \
		ok/20 "hlt cell measured (20 calls)"
	q "SELECT value FROM cell_param WHERE cell_id = $hlt AND key = 'idle.applied'" | grep -q '^hlt, no cpuidle driver'
	is $? 0 "hlt cell recorded as 'hlt, no cpuidle driver'"
	is "$(q "SELECT status FROM cell WHERE id = $spin")" ok "spin cell measured"
	q "SELECT value FROM cell_param WHERE cell_id = $spin AND key = 'idle.applied'" | grep -q '^spin: [0-9]* SCHED_IDLE'
	is $? 0 "spin cell recorded as spin (never poll)"
	ok "$(q "SELECT value < 0.05 * (SELECT value FROM metric WHERE cell_id = $spin AND name = 'wall') * (SELECT value FROM metric WHERE cell_id = $spin AND name = 'cpus') + 25 FROM metric WHERE cell_id = $spin AND probe = 'cpu' AND name = 'idle' AND invocation_id IS NULL")" = 1 \
		"spin: the cpu probe's idle time stays near 0 (/proc/stat)"
	ok "$(q "SELECT count(*) FROM metric WHERE cell_id = $hlt AND probe = 'cpu' AND name IN ('busy', 'idle', 'steal') AND invocation_id IS NULL")" = 3 \
		"hlt: busy, idle and steal time of the window from the cpu probe"
	local want got src
	src=$(q "SELECT value FROM cell_param WHERE cell_id = $hlt AND key = 'idle.entries_source'")
	if [ -n "$src" ]; then
		# power:cpu_idle fired on every CPU here: it is the source
		is "$src/$(q "SELECT count(*) FROM metric WHERE cell_id = $hlt AND name = 'idle_entries' AND invocation_id IS NULL")" \
			"tracefs power:cpu_idle (no cpuidle driver; it fired on every CPU under a pinned sleeper)/1" \
			"idle probe: entries from power:cpu_idle, and the cell says so"
		return
	fi
	want=$(nodrv_expected_idle_skip)
	got=$(q "SELECT reason FROM skip WHERE cell_id = $hlt AND probe = 'idle'")
	case "$got" in
	"$want"*) is ok ok "idle probe: the exact skip reason without cpuidle states" ;;
	*) is "$got" "$want..." "idle probe: the exact skip reason without cpuidle states" ;;
	esac
}
