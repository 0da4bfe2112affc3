# runc-contention.gp - time a container start's tasks were blocked on
# kernel locks (lock:contention_begin to _end), mean per start, stacked by
# lock, one bar per runtime and variant (the study's Fig. 9); the mean
# start on the right for scale.
#
# Run by `cvmbench plot runc-contention` (analysis/plot.c), which sets:
#   datafile, outfile, term, ncells, nlocks, run
# Data (analysis/fig-runc-contention.c): header row, then per cell
#   1 label (with N, the container starts of the bar)  2..nlocks+1 blocked ms per start per lock  nlocks+2 total ms per start

w = 700 + 120 * ncells
if (term eq 'svg') {
	set terminal svg size w,520 dynamic enhanced font 'Sans,11' background rgb 'white'
} else {
	set terminal pngcairo size w,520 enhanced font 'Sans,10' background rgb 'white'
}
set output outfile

set style data histograms
set style fill solid 0.85 border rgb '#555555'
set boxwidth 0.7
set yrange [0:*]
set xrange [-0.6:ncells - 0.4]
# Labels (at most 48 characters, gp-string.c) end at their tick and reach
# left and down: room for the longest under and left of the plot.
set xtics rotate by 30 right nomirror noenhanced
set lmargin 28
set bmargin 12
set ytics nomirror
set grid ytics lc rgb '#dddddd'
set border 3
set key outside right top noenhanced

set multiplot layout 1,2 title sprintf("Lock contention per container start, run %d; N = container starts per bar", run)
set title 'blocked on kernel locks (mean per start)'
set ylabel 'blocked (ms)'
set style histogram rowstacked
plot for [i = 2:nlocks + 1] datafile using i:xtic(1) title columnheader(i)
set title 'whole start, fork to last exit (mean)'
set ylabel 'start (ms)'
plot datafile skip 1 using 0:nlocks + 2:xtic(1) with boxes notitle lc rgb '#4477aa'
unset multiplot
