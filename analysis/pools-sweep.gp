# pools-sweep.gp - p50 (left) and p99 (right) of container cold starts
# against the starts made at once, one line per variant (experiment and
# runtime; configs/pools.ini), each p99 point labelled with its value.
#
# Run by `cvmbench plot pools-sweep` (analysis/plot.c), which sets:
#   datafile, outfile, term, nblocks, run
# Data (analysis/fig-pools-sweep.c): one block per variant, its first row
# the title (columnheader), then columns
#   1 parallel  2 p50 ms  3 p99 ms  4 N (container starts of the point)

if (term eq 'svg') {
	set terminal svg size 1200,540 dynamic enhanced font 'Sans,11' background rgb 'white'
} else {
	set terminal pngcairo size 1200,540 enhanced font 'Sans,10' background rgb 'white'
}
set output outfile

set xlabel 'container starts at once (parallel)'
set logscale x 2
set xtics (1, 2, 4, 8, 16, 24) nomirror
set xrange [0.8:32]
set ytics nomirror
set grid xtics ytics lc rgb '#dddddd'
set border 3
set yrange [0:*]
set offsets 0, 0, graph 0.05, 0
set key top left noenhanced
set style data linespoints

set multiplot layout 1,2 title sprintf("Container cold start (fork of the runtime to the first reply), run %d", run)
set title 'p50 per start (N = starts of the point below each)'
set ylabel 'cold start (ms)'
plot for [i = 0:nblocks - 1] datafile index i using 1:2 lw 2 pt 7 title columnheader(1), \
     for [i = 0:nblocks - 1] datafile index i using 1:2:(sprintf('N = %d', int($4))) \
	with labels offset char 0, char -0.9 font ',8' notitle
set title 'p99 per start (value beside each point)'
plot for [i = 0:nblocks - 1] datafile index i using 1:3 lw 2 pt 7 title columnheader(1), \
     for [i = 0:nblocks - 1] datafile index i using 1:3:(sprintf('%.1f', $3)) \
	with labels offset char 0, char 0.8 font ',8' notitle
unset multiplot
