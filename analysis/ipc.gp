# ipc.gp - instructions per cycle and LLC misses per kilo-instruction of each
# cell (pmu probe, hardware counters), the median over its measured calls.
#
# Run by `cvmbench plot ipc` (analysis/plot.c), which sets:
#   datafile, outfile, term, ncells, run, longest (characters of the
#   longest label as drawn: room below and the width gnuplot wants for
#   slanted labels, so none runs off and gnuplot does not warn)
# Data (analysis/fig-ipc.c): a header row, then one row per cell:
#   1 label (with N, the calls with an IPC row)  2 IPC  3 LLC MPKI ("?": not counted)

w = 420 + 90 * ncells
w = (w < 22 * longest) ? 22 * longest : w
h = 460 + 6 * longest
if (term eq 'svg') {
	set terminal svg size w,h dynamic enhanced font 'Sans,11' background rgb 'white'
} else {
	set terminal pngcairo size w,h enhanced font 'Sans,10' background rgb 'white'
}
set output outfile
set datafile missing '?'
set title sprintf("pmu probe, run %d: median per call (N = calls with an IPC row)", run) noenhanced
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 border rgb '#555555'
set yrange [0:*]
set y2range [0:*]
set grid ytics lc rgb '#dddddd'
set border 11
set ytics nomirror
set y2tics nomirror
set ylabel 'instructions per cycle'
set y2label 'LLC misses per 1000 instructions'
set xtics rotate by -30 nomirror noenhanced
set bmargin 2 + 0.3 * longest
set key outside top center horizontal noenhanced
plot datafile using 2:xtic(1) title 'IPC' lc rgb '#4477aa', \
	'' using 3 axes x1y2 title 'LLC MPKI' lc rgb '#ee6677'
