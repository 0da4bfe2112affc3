# runc-phases.gp - the phases of a container cold start, one stacked bar
# per runtime and variant (mean per start, ms), as the study's cold-start
# breakdown and isolation-relaxation figures.
#
# Run by `cvmbench plot runc-phases` (analysis/plot.c), which sets:
#   datafile, outfile, term, ncells, run
# Data (analysis/fig-runc-phases.c): a header row, then one row per cell:
#   1 label (with N, the container starts of the bar)  2..13 mean ms per start of each phase (docs/probes/runc.md)

w = 360 + 70 * ncells
# gnuplot wants a rotated label's width (up to 48 characters, gp-string.c)
# to be under a quarter of the image
w = (w < 1200) ? 1200 : w
if (term eq 'svg') {
	set terminal svg size w,560 dynamic enhanced font 'Sans,11' background rgb 'white'
} else {
	set terminal pngcairo size w,560 enhanced font 'Sans,10' background rgb 'white'
}
set output outfile

# one colour per phase, in the probe's order
array c[12] = ['#4477aa', '#66ccee', '#228833', '#ccbb44', '#ee6677', '#aa3377', \
	'#bbbbbb', '#332288', '#88ccee', '#44aa99', '#999933', '#dddddd']
do for [i = 1:12] { set linetype i lc rgb c[i] }
set title sprintf("Container cold start by phase (mean per start), run %d\nN = container starts per bar", run)
set style data histograms
set style histogram rowstacked
set style fill solid 0.85 border rgb '#555555'
set boxwidth 0.7
set ylabel 'time per start (ms)'
set yrange [0:*]
# Labels end at their tick and reach left and down: room left and under.
set xtics rotate by 30 right nomirror noenhanced
set lmargin 28
set bmargin 12
set ytics nomirror
set grid ytics lc rgb '#dddddd'
set border 3
set key outside right top noenhanced title 'phase'
plot for [i = 2:13] datafile using i:xtic(1) title columnheader(i)
