# start-phases.gp - the start of each cell's first instance by phase, one
# stacked bar per cell: a function's C and Python instances side by side
# (issue 32; docs/workloads.md, "Cold start of a Python instance").
#
# Run by `cvmbench plot start-phases` (analysis/plot.c), which sets:
#   datafile, outfile, term, ncells, run, longest (characters of the
#   longest x label)
# Data (analysis/fig-start-phases.c): a header row, then one row per cell:
#   1 label ("workload [runtime]")  2..6 ms: rest of the start, interpreter
#   start, imports, init, first call (bottom up)

w = 360 + 70 * ncells
h = 420 + 8 * longest
if (term eq 'svg') {
	set terminal svg size w,h dynamic enhanced font 'Sans,11' background rgb 'white'
} else {
	set terminal pngcairo size w,h enhanced font 'Sans,10' background rgb 'white'
}
set bmargin 1.5 + 0.5 * longest
set output outfile

array c[5] = ['#bbbbbb', '#4477aa', '#ee6677', '#228833', '#ccbb44']
do for [i = 1:5] { set linetype i lc rgb c[i] }
set title sprintf("Instance start by phase (first instance of each cell), run %d; N = 1 start per bar", run)
set style data histograms
set style histogram rowstacked
set style fill solid 0.85 border rgb '#555555'
set boxwidth 0.7
set ylabel 'time (ms)'
set yrange [0:*]
set xtics rotate by 90 right nomirror noenhanced
set ytics nomirror
set grid ytics lc rgb '#dddddd'
set border 3
set key outside right top noenhanced invert title 'phase (top to bottom)'
plot for [i = 2:6] datafile using i:xtic(1) title columnheader(i)
