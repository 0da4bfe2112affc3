# tests/system/plot-lib.sh - what the figure tests share (sourced after
# tap.sh, with N, py and tmp set): plot_needs N skips the rest of the plan
# without ./cvmbench, python or gnuplot (gnuplot missing under CI is a
# bail-out); plot_base_db DB runs the small warm sweep the crafted
# databases start from (the null function at threads 1 and 2, latency
# only) into DB, waiting for the host lock, its output in $tmp/run.out.

plot_needs() {
	if [ ! -x ./cvmbench ] || [ ! -x $py ]; then
		skip_rest $1 "./cvmbench (make) and $py are needed"
		exit 0
	fi
	if ! command -v gnuplot > /dev/null; then
		[ -n "${CI:-}" ] && { echo "Bail out! gnuplot is missing under CI"; exit 1; }
		skip_rest $1 "gnuplot is not installed (apt-get install gnuplot-nox)"
		exit 0
	fi
}

plot_base_db() {
	cat > "$tmp/sweep.ini" <<'INI'
[experiment sweep]
workload = null
threads = 1, 2
invocations = 5
warmup = 0
INI
	./cvmbench run "$tmp/sweep.ini" --db "$1" --wait-lock 300 > "$tmp/run.out" 2>&1
}
