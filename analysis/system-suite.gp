# system-suite.gp - the system suite in the OCI blog's form: a panel per
# tool, the bars of its headline throughput for the regular VM and each
# confidential side (median over measured windows), the 95 % interval of
# each median as an error bar, and N, the interval and its achieved
# coverage printed above each bar; a missing side (skipped: no CVM here)
# has no bar, "missing: skipped" (or refused, unpaired) in its place; the
# report's System suite section gives the whole reason.
#
# Run by `cvmbench plot system-suite` (analysis/plot.c), which sets:
#   datafile, outfile, term, npanels, title0 .., nbars0 ..
# Data (analysis/fig-system-suite.c): block i = panel i, rows:
#   1 x  2 median  3 lo  4 hi  5 label_y  6 "label"  7 "tick"

cols = (npanels < 3) ? npanels : 3
rows = (npanels + cols - 1) / cols
if (term eq 'svg') {
	set terminal svg size 520 * cols, 420 * rows dynamic enhanced font 'Sans,10' background rgb 'white'
} else {
	set terminal pngcairo size 520 * cols, 420 * rows enhanced font 'Sans,9' background rgb 'white'
}
set output outfile
set multiplot layout rows, cols title "System suite: regular VM vs confidential, headline throughput (median over measured windows, 95 % interval, N, achieved coverage)" noenhanced
set style fill solid 0.8 border rgb '#555555'
set boxwidth 0.6
set yrange [0:*]
set offsets 0, 0, graph 0.15, 0
set ytics nomirror
set grid ytics lc rgb '#dddddd'
set border 3
set xtics nomirror noenhanced
unset key
do for [i = 0:npanels - 1] {
	set title value(sprintf('title%d', i)) noenhanced
	set xrange [0.4:value(sprintf('nbars%d', i)) + 0.6]
	plot datafile index i using 1:2:1 with boxes lc variable, \
	     datafile index i using 1:2:3:4 with yerrorbars pt 0 lc rgb 'black', \
	     datafile index i using 1:5:6 with labels offset 0,0.9 font ',7' noenhanced, \
	     datafile index i using 1:(NaN):xticlabels(7)
}
unset multiplot
