#!/bin/bash
# tests/system/cvmload.t - the open-loop load generator (bench/services/loadgen/,
# docs/experiments/system-suite.md) against servers it did not count itself:
#  (a) nginx on loopback serving a static file: the requests cvmload reports
#      (warm-up and measured) are the lines nginx wrote to its access log, the
#      measured count is the schedule's rate x duration, and the achieved rate
#      is within 10 % of the target (the slack is for a shared 2-CPU machine);
#  (b) coordinated omission: stall-server.py holds every request that arrives
#      in a window [a, b) it fixes and logs itself (1 s, 1 s after the first
#      request). Every request whose intended send time falls in that window
#      must end after b (cvmload's end stamp against the server's clock), the
#      maximum latency must reach 0.9 s, and about rate x S/2 requests must
#      show more than S/2 (the schedule's count, plus the few queued behind
#      the burst after b) - where a closed-loop measure (from the actual send)
#      sees at most one slow request per connection;
#  (c) nginx's 404s and a body cut short (the test server) are errors of their
#      kind; a refused port: every request an error, exit 0; bad arguments:
#      exit 2 naming the option and the value.
# nginx missing: SKIP (a), a failure under CI=1.
set -u
cd "$(dirname "$0")/../.."
. tests/system/tap.sh

CVMLOAD=${CVMLOAD:-./cvmload}
plan 21
tmp=$(mktemp -d /tmp/cvmload-t.XXXXXX)
chmod 755 "$tmp"
pids=()
cleanup() {
	local p
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null && wait "$p" 2>/dev/null; done
	rm -rf "$tmp"
}
trap cleanup EXIT

# key FILE KEY: the value of KEY in cvmload's report FILE
key() { awk -v k="$2" '$1 == k { print $2; exit }' "$1"; }
# free_port: a loopback TCP port nothing listens on
free_port() {
	local p
	while :; do
		p=$((20000 + RANDOM % 40000))
		[ -z "$(ss -Htln "sport = :$p" 2>/dev/null)" ] && { echo $p; return; }
	done
}

# --- (a) nginx -------------------------------------------------------------
nginx_test() {
	local port ng=$tmp/nginx i lines rate=500 dur=2 warm=0.5 req warmreq ok achieved
	port=$(free_port)
	mkdir -p "$ng/www" "$ng/tmp" "$ng/logs"
	head -c 4096 /dev/zero | tr '\0' x > "$ng/www/index.html"
	chmod -R a+rX "$ng"
	cat > "$ng/nginx.conf" <<-CONF
	daemon off;
	worker_processes 1;
	pid $ng/nginx.pid;
	error_log $ng/logs/error.log;
	events { worker_connections 256; }
	http {
	  access_log $ng/logs/access.log;
	  client_body_temp_path $ng/tmp; proxy_temp_path $ng/tmp; fastcgi_temp_path $ng/tmp;
	  uwsgi_temp_path $ng/tmp; scgi_temp_path $ng/tmp;
	  server { listen 127.0.0.1:$port; root $ng/www; }
	}
	CONF
	"$NGINX" -p "$ng" -c "$ng/nginx.conf" 2>"$ng/stderr" &
	pids+=($!)
	for ((i = 0; i < 50; i++)); do
		[ -s "$ng/nginx.pid" ] && (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break
		sleep 0.1
	done
	: > "$ng/logs/access.log"   # the probe above wrote nothing (no request), but be sure
	"$CVMLOAD" --url "http://127.0.0.1:$port/index.html" --rate $rate --duration $dur \
		--connections 4 --warmup $warm > "$tmp/a.out" 2> "$tmp/a.err"
	is "$?" 0 "cvmload against nginx exits 0 ($(head -c 200 "$tmp/a.err"))"
	req=$(key "$tmp/a.out" requests); warmreq=$(key "$tmp/a.out" warmup_requests)
	ok=$(key "$tmp/a.out" ok); achieved=$(key "$tmp/a.out" achieved_per_s)
	sleep 0.2
	lines=$(wc -l < "$ng/logs/access.log")
	is "$((req + warmreq))" "$lines" "requests + warm-up requests = nginx's access log lines ($lines)"
	is "$req/$warmreq" "$((rate * dur))/$(awk -v r=$rate -v w=$warm 'BEGIN { print r * w }')" \
		"the schedule: rate x duration measured, rate x warm-up before"
	is "$(awk '$9 != 200' "$ng/logs/access.log" | wc -l)/$ok" "0/$req" \
		"nginx answered every one 200 and cvmload counted them all ok"
	ok "$(awk -v a="${achieved:-0}" -v r=$rate 'BEGIN { print (a >= 0.9 * r && a <= 1.1 * r) }')" \
		= 1 "achieved rate $achieved/s within 10 % of the target $rate/s"
	: > "$ng/logs/access.log"
	"$CVMLOAD" --url "http://127.0.0.1:$port/missing" --rate 200 --duration 0.5 \
		--connections 2 > "$tmp/a404.out" 2>&1
	sleep 0.2
	is "$(key "$tmp/a404.out" errors_status)/$(awk '$9 == 404' "$ng/logs/access.log" | wc -l)" \
		"100/100" "nginx's 404s: all 100 counted as errors_status, as its log has them"
}

NGINX=$(command -v nginx || ls /usr/sbin/nginx 2>/dev/null)
if [ ! -x "$CVMLOAD" ]; then
	skip_all 21 "no $CVMLOAD (make)"
elif [ -n "$NGINX" ]; then
	nginx_test
elif [ -n "${CI:-}" ]; then
	for i in 1 2 3 4 5 6; do _tap 1 "required under CI: nginx (nginx-light)"; done
else
	skip_rest 6 "no nginx (apt-get install nginx-light)"
fi

# --- (b) coordinated omission ----------------------------------------------
stall_test() {
	local ready=$tmp/stall.ready port i rate=200 stall=1 a b maxlat
	python3 tests/system/stall-server.py "$ready" 1 $stall &
	pids+=($!)
	for ((i = 0; i < 100; i++)); do [ -s "$ready" ] && break; sleep 0.1; done
	port=$(awk '$1 == "port" { print $2 }' "$ready" 2>/dev/null)
	if [ -z "$port" ]; then
		for i in 1 2 3 4 5 6 7 8; do _tap 1 "the stall server did not start"; done
		return
	fi
	"$CVMLOAD" --url "http://127.0.0.1:$port/" --rate $rate --duration 3 --connections 4 \
		--dump "$tmp/b.dump" > "$tmp/b.out" 2> "$tmp/b.err"
	is "$?/$(key "$tmp/b.out" errors)" "0/0" "cvmload against the stalling server: exit 0, no errors"
	read -r _ a b < "$ready.stall"
	# the dump's intended times follow the schedule t0 + i/R (to 1 us)
	is "$(awk -v r=$rate '!/^#/ { if ($1 == 0) t0 = $3; d = $3 - t0 - $1 * 1e9 / r;
		if (d > 1000 || d < -1000) bad++ } END { print bad + 0 }' "$tmp/b.dump")" 0 \
		"every request's intended send time is t0 + i/R"
	is "$(awk -v a="$a" -v b="$b" '!/^#/ && $2 == 0 && $3 >= a && $3 < b && ($6 != "ok" || $5 < b) {
		n++ } END { print n + 0 }' "$tmp/b.dump")" 0 \
		"every request due in the server's stall window [a, b) ended after b"
	maxlat=$(key "$tmp/b.out" latency_max_ns)
	ok "${maxlat:-0}" -ge $((stall * 900000000)) "the largest latency, $maxlat ns, is >= 0.9 x the 1 s stall"
	# open loop: each request due in [a, b - S/2) waits more than S/2 (the schedule
	# has rate x S/2 of them); some due just after wait behind the burst that
	# follows b (the Python server drains it in tens to hundreds of ms on a busy
	# machine), hence up to 2 x

	n_open=$(awk -v h=$((stall * 500000000)) '!/^#/ && $2 == 0 && $6 == "ok" && $5 - $3 > h {
		n++ } END { print n + 0 }' "$tmp/b.dump")
	ok "$(awk -v n="$n_open" -v want=$((rate * stall / 2)) \
		'BEGIN { print (n >= want - 2 && n <= 2 * want) }')" = 1 \
		"$n_open requests above S/2 from their intended time, about rate x S/2 = $((rate * stall / 2))"
	# so the report's p90 is above S/2: the schedule puts S/(2 x 3 s) = 1/6 of the requests there
	ok "$(key "$tmp/b.out" latency_p90_ns)" -gt $((stall * 500000000)) \
		"the report's p90 ($(key "$tmp/b.out" latency_p90_ns) ns) is above S/2, as 1/6 of the schedule is"
	# closed loop (from the actual send) would see one slow request per connection at most
	n_closed=$(awk -v h=$((stall * 500000000)) '!/^#/ && $2 == 0 && $6 == "ok" && $5 - $4 > h {
		n++ } END { print n + 0 }' "$tmp/b.dump")
	ok "$n_closed" -le 4 "measured from the actual send only $n_closed (<= 4 connections) would show it"
	"$CVMLOAD" --url "http://127.0.0.1:$port/short" --rate 50 --duration 0.4 --connections 2 \
		> "$tmp/short.out" 2>&1
	is "$(key "$tmp/short.out" errors_read)/$(key "$tmp/short.out" errors)" "20/20" \
		"a body cut short by the server: all 20 requests errors_read"
}
if [ -x "$CVMLOAD" ]; then
	stall_test
fi

# --- (c) refused connections and bad arguments ------------------------------
refused_test() {
	local port out rc
	port=$(free_port)
	out=$("$CVMLOAD" --url "http://127.0.0.1:$port/" --rate 100 --duration 0.3 --connections 2)
	rc=$?
	is "$rc/$(echo "$out" | key /dev/stdin errors_connect)/$(echo "$out" | key /dev/stdin latency_p50_ns)" \
		"0/30/none" "a refused port: exit 0, all 30 requests connect errors, no latency"
}
# bad ARGS... / WANT: exit 2 and stderr naming WANT
bad() {
	local want=${*: -1} err rc
	err=$("$CVMLOAD" "${@:1:$#-1}" 2>&1 >/dev/null)
	rc=$?
	if [ $rc = 2 ] && [[ $err == *"$want"* ]]; then
		_tap 0 "exit 2 naming '$want': ${err%%$'\n'*}"
	else
		_tap 1 "exit 2 naming '$want'"
		echo "#   rc $rc: $err"
	fi
}
if [ -x "$CVMLOAD" ]; then
	refused_test
	u=http://127.0.0.1:1/
	bad --url $u --rate abc --duration 1 --connections 1 "--rate: 'abc'"
	bad --url http://localhost/ --rate 1 --duration 1 --connections 1 "'http://localhost/' has no IP literal"
	bad --url $u --rate 1 --duration 1 --connections 0 "--connections: '0'"
	bad --url $u --rate 1 --duration -2 --connections 1 "--duration: '-2'"
	bad --url $u --rate 1 --connections 1 "--duration"
	bad --url $u --rate 1 --duration 1 --connections 1 --fast "--fast"
fi
