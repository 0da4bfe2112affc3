# runc-sweep.gp - container cold start against one runc dimension (the
# study's Fig. 8 a-d): median and 25-75 % per start on the left, mean time
# blocked on kernel locks per start on the right; one line per runtime.
#
# Run by `cvmbench plot runc-cpus|runc-quota|runc-corunner|runc-parallel`
# (analysis/plot.c), which sets: datafile, outfile, term, nblocks, xlabel, run,
# maxpts (the most points of a line: with fewer than three the points are
# not joined, two points are no trend), baseline (the key of ringed points).
# Data (analysis/fig-runc-sweep.c): one block per line, its first row the
# title (columnheader), then columns
#   1 x  2 median ms  3 p25  4 p75  5 blocked ms per start  6 total ms per start
#   7 N (container starts behind the point, written beside it)
#   8 x tick label (the value; "2 (all)" for cpus = 0 on 2 CPUs): the keys
#     swept are integers, ticks only where a value was measured
#   9 1 for a point at the key's default that another experiment measured:
#     ringed, the key saying which (variable baseline, '' when none)

if (term eq 'svg') {
	set terminal svg size 1100,500 dynamic enhanced font 'Sans,11' background rgb 'white'
} else {
	set terminal pngcairo size 1100,500 enhanced font 'Sans,10' background rgb 'white'
}
set output outfile

set xlabel xlabel noenhanced
set ytics nomirror
set xtics nomirror
set grid xtics ytics lc rgb '#dddddd'
set border 3
set yrange [0:*]
set offsets graph 0.05, graph 0.05, 0, 0
set key top left noenhanced

set multiplot layout 1,2 title sprintf("Container cold start, run %d", run)
set title "fork of the runtime to the first reply (median, 25-75 %)\nN = container starts per point"
set ylabel 'cold start (ms)'
if (maxpts < 3) { set style data yerrorbars } else { set style data yerrorlines }
plot for [i = 0:nblocks - 1] datafile index i using 1:2:3:4:xtic(8) \
	lw 2 pt 7 title columnheader(1), \
     for [i = 0:nblocks - 1] datafile index i using 1:($9 > 0 ? $2 : NaN) \
	with points pt 6 ps 3 lc rgb 'black' title (i ? '' : baseline), \
     for [i = 0:nblocks - 1] datafile index i using 1:2:(sprintf('N=%d', int($7))) \
	with labels offset char 2.5, char 0.6 font ',8' notitle
set title 'blocked on kernel locks (mean per start)'
set ylabel 'blocked (ms)'
if (maxpts < 3) { set style data points } else { set style data linespoints }
plot for [i = 0:nblocks - 1] datafile index i using 1:5:xtic(8) \
	lw 2 pt 7 title columnheader(1)
unset multiplot
