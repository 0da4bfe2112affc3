# ple.gp - the study's Fig. 7: per workload (and place of the co-runner:
# "[vm]" when it ran in a second VM), the median call latency with the
# host's pause-loop exiting on (ple = default) and off, each alone and next
# to a key-value co-runner (corunner-kind = kv: redis-server under
# redis-benchmark load); below it both sides' slowdown next to each other:
# the function's and the co-runner's own (the study reports the latter,
# 37 %, but its figure leaves it out).
#
# Run by `cvmbench plot ple` (analysis/plot.c), which sets:
#   datafile, outfile, term, nwork, run, longest (characters of the longest
#   label as drawn: room below and the width gnuplot wants for slanted
#   labels, so none runs off and gnuplot does not warn), nfn_on, nfn_off,
#   nco_on, nco_off (rows with each slowdown: a column without any is left
#   out, the panel too when all are)
# Data (analysis/fig-ple.c): a header row, then one row per workload:
#   1 label (with N, the calls drawn)  2 PLE on, alone  3 PLE on, kv
#   4 PLE off, alone  5 PLE off, kv   (median ms)
#   6 function's slowdown, PLE on  7 ... PLE off
#   8 co-runner's slowdown, PLE on  9 ... PLE off   (%)
#   ("?": no such measured cell or figure)

w = 420 + 160 * nwork
w = (w < 22 * longest) ? 22 * longest : w
w = (w < 760) ? 760 : w
nslow = nfn_on + nfn_off + nco_on + nco_off
h = (nslow > 0 ? 2 : 1) * (400 + 6 * longest)
if (term eq 'svg') {
	set terminal svg size w,h dynamic enhanced font 'Sans,11' background rgb 'white'
} else {
	set terminal pngcairo size w,h enhanced font 'Sans,10' background rgb 'white'
}
set output outfile
set datafile missing '?'
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 border rgb '#555555'
# the header row is cluster 0 (no values): the workloads are clusters 1..nwork
set xrange [0.4:nwork + 0.6]
set grid ytics lc rgb '#dddddd'
set border 3
set ytics nomirror
set xtics rotate by -30 nomirror noenhanced
set bmargin 2 + 0.3 * longest
set key outside top center horizontal noenhanced
set multiplot layout (nslow > 0 ? 2 : 1),1

set title sprintf("run %d: median latency per call, pause-loop exiting on and off (N = calls)", \
	run) noenhanced
set yrange [0:*]
set ylabel 'median latency (ms)'
plot datafile using 2:xtic(1) title 'PLE on, alone' lc rgb '#4477aa', \
	'' using 3 title 'PLE on, kv co-runner' lc rgb '#66ccee', \
	'' using 4 title 'PLE off, alone' lc rgb '#ee6677', \
	'' using 5 title 'PLE off, kv co-runner' lc rgb '#ccbb44'

if (nslow > 0) {
	set title "both sides' slowdown next to each other: the function's latency and the co-runner's time per request" noenhanced
	set yrange [*<0:0<*]    # bars from zero, below it too
	set ylabel 'slowdown (%)'
	set xzeroaxis lt -1
	# only the columns with a value: gnuplot warns of one without
	bars = ''
	if (nfn_on > 0) { bars = bars . ", datafile using 6:xtic(1) title 'function, PLE on' lc rgb '#4477aa'" }
	if (nfn_off > 0) { bars = bars . ", datafile using 7:xtic(1) title 'function, PLE off' lc rgb '#ee6677'" }
	if (nco_on > 0) { bars = bars . ", datafile using 8:xtic(1) title 'co-runner, PLE on' lc rgb '#66ccee'" }
	if (nco_off > 0) { bars = bars . ", datafile using 9:xtic(1) title 'co-runner, PLE off' lc rgb '#ccbb44'" }
	eval 'plot ' . bars[3:]
}
unset multiplot
