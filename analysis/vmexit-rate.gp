# vmexit-rate.gp - VM exits per second of each cell by cross-vendor class,
# one stacked bar per cell (the exit side of the study's Fig. 5).
#
# Run by `cvmbench plot vmexit-rate` (analysis/plot.c), which sets:
#   datafile, outfile, term, ncells, run, event, maxlabel (characters of the
#   longest x label)
# Data (analysis/fig-vmexit-rate.c): a header row, then one row per cell:
#   1 label (with N, the measured invocations of the cell)  2..9 exits per second of idle, io, mmio, msr, cpuid, interrupt,
#   page-state, other

# gnuplot wants the width of a rotated label (characters x cos 30 x ~8 px)
# to be under a quarter of the image: wide enough for the longest one
w = 560 + 70 * ncells
w = (w < 28 * maxlabel) ? 28 * maxlabel : w
if (term eq 'svg') {
	set terminal svg size w,560 dynamic enhanced font 'Sans,11' background rgb 'white'
} else {
	set terminal pngcairo size w,560 enhanced font 'Sans,10' background rgb 'white'
}
set output outfile

array c[8] = ['#4477aa', '#66ccee', '#228833', '#ccbb44', '#ee6677', '#aa3377', \
	'#332288', '#bbbbbb']
do for [i = 1:8] { set linetype i lc rgb c[i] }
set title sprintf("%s per second by class (cell window), run %d\nN = measured invocations of the cell", event, run) noenhanced
set style data histograms
set style histogram rowstacked
set style fill solid 0.85 border rgb '#555555'
set boxwidth 0.7
set ylabel 'exits per second'
set yrange [0:*]
# Labels (at most 48 characters, gp-string.c) end at their tick and reach
# left and down: room for the longest under and left of the plot.
set xtics rotate by 30 right nomirror noenhanced
set lmargin 28
set bmargin 12
set ytics nomirror
set grid ytics lc rgb '#dddddd'
set border 3
set key outside right top noenhanced title 'class'
plot for [i = 2:9] datafile using i:xtic(1) title columnheader(i)
