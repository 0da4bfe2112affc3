# warm-latency.gp - warm-start latency per cell of one run.
#
# Run by `cvmbench plot warm-latency` (analysis/plot.c), which sets:
#   datafile, outfile, term ('pngcairo' or 'svg'), logy (0|1), ncells, run,
#   unit ('ms' or 'µs': the unit of the latency columns),
#   maxlabel (characters in the longest x label),
#   common (what every cell shares and the labels leave out: "size test"),
#   runtimes (1: the cells have both runtimes, c and python)
# Data columns (analysis/fig-warm-latency.c):
#   1 x  2 label  3 min  4 p5  5 p25  6 median  7 p75  8 p95  9 max
#   10 n (written above the whisker as N=n)  11 workload number (colour)
#   12 runtime: 0 one runtime in the run, 1 c (solid), 2 python (hatched)
# Box: 25-75 %; whiskers: 5-95 %; thick bar: median. min and max are in
# the data but not drawn: one outlier would squash every box.

w = ncells * 64 + 220
w = (w < 760) ? 760 : w
if (term eq 'svg') {
	set terminal svg size w,540 dynamic enhanced font 'Sans,11' background rgb 'white'
} else {
	set terminal pngcairo size w,540 enhanced font 'Sans,10' background rgb 'white'
}
set output outfile

set title sprintf("Warm-start latency per cell, run %d%s\nN = measured invocations per cell", run, common ne '' ? '; every cell: '.common : '') noenhanced
set ylabel sprintf('latency (%s)', unit)
set xrange [0.4:ncells + 0.6]
set xtics rotate by 30 right nomirror noenhanced
set ytics nomirror
set grid ytics lc rgb '#dddddd'
set border 3
# Rotated labels reach left of their tick: room for the first one.
lm = 0.75 * maxlabel - 4
set lmargin (lm < 10 ? 10 : lm)
set boxwidth 0.5 absolute
set style fill solid 0.35 border
set key below center horizontal maxcols 2 samplen 2 width -3
if (logy) {
	set logscale y
	set format y '%g'
	set ylabel sprintf('latency (%s, log scale)', unit)
} else {
	set yrange [0:*]
}

# The key uses neutral samples: the boxes are coloured by workload; with
# both runtimes, a C box is solid and a Python box hatched.
py(c) = (column(12) == 2) ? column(c) : NaN
cc(c) = (column(12) == 2) ? NaN : column(c)
plot NaN with boxes lc rgb '#888888' title (runtimes ? 'runtime c: solid box' : 'box: 25-75 %, whiskers: 5-95 %'), \
     NaN with boxes lc rgb '#888888' fs pattern 4 border \
	     title (runtimes ? 'runtime python: hatched box' : ''), \
     NaN with lines lt -1 lw 2.5 title 'median', \
     datafile using 1:(cc(5)):4:8:(cc(7)):11 with candlesticks \
	     whiskerbars 0.6 lc variable notitle, \
     '' using 1:(py(5)):4:8:(py(7)):11 with candlesticks fs pattern 4 border \
	     whiskerbars 0.6 lc variable notitle, \
     '' using 1:6:6:6:6:xticlabels(2) with candlesticks lt -1 lw 2.5 notitle, \
     '' using 1:8:(sprintf('N=%d', int($10))) with labels offset 0,0.8 font ',8' notitle
