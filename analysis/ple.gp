# ple.gp - the study's Fig. 7: per workload, the median call latency with
# the host's pause-loop exiting on (ple = default) and off, each alone and
# next to a key-value co-runner (corunner-kind = kv: redis-server under
# redis-benchmark load).
#
# Run by `cvmbench plot ple` (analysis/plot.c), which sets:
#   datafile, outfile, term, nwork, run, longest (characters of the longest
#   label as drawn: room below and the width gnuplot wants for slanted
#   labels, so none runs off and gnuplot does not warn)
# Data (analysis/fig-ple.c): a header row, then one row per workload:
#   1 label (with N, the calls drawn)  2 PLE on, alone  3 PLE on, kv
#   4 PLE off, alone  5 PLE off, kv   (median ms; "?": no such measured cell)

w = 420 + 160 * nwork
w = (w < 22 * longest) ? 22 * longest : w
w = (w < 760) ? 760 : w
h = 460 + 6 * longest
if (term eq 'svg') {
	set terminal svg size w,h dynamic enhanced font 'Sans,11' background rgb 'white'
} else {
	set terminal pngcairo size w,h enhanced font 'Sans,10' background rgb 'white'
}
set output outfile
set datafile missing '?'
set title sprintf("run %d: median latency per call, pause-loop exiting on and off (N = calls)", \
	run) noenhanced
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 border rgb '#555555'
set yrange [0:*]
# the header row is cluster 0 (no values): the workloads are clusters 1..nwork
set xrange [0.4:nwork + 0.6]
set grid ytics lc rgb '#dddddd'
set border 3
set ytics nomirror
set ylabel 'median latency (ms)'
set xtics rotate by -30 nomirror noenhanced
set bmargin 2 + 0.3 * longest
set key outside top center horizontal noenhanced
plot datafile using 2:xtic(1) title 'PLE on, alone' lc rgb '#4477aa', \
	'' using 3 title 'PLE on, kv co-runner' lc rgb '#66ccee', \
	'' using 4 title 'PLE off, alone' lc rgb '#ee6677', \
	'' using 5 title 'PLE off, kv co-runner' lc rgb '#ccbb44'
