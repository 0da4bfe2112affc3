# seed-start.gp - the start of a child forked from a seed (backend =
# zygote), one stacked bar per workload, seed layer and VM type: the mean
# over its children, in ms, of the fork, the rest of init its layer left,
# and its first call; N starts above each bar.
#
# Run by `cvmbench plot seed-start` (analysis/plot.c), which sets:
#   datafile, outfile, term, ngroups, run
# Data (analysis/fig-seed-start.c): a header row, then one row per group:
#   1 label  2..4 mean ms of each part  5 total  6 starts  7 cells

w = 560 + 80 * ngroups
if (term eq 'svg') {
	set terminal svg size w,640 dynamic enhanced font 'Sans,11' background rgb 'white'
} else {
	set terminal pngcairo size w,640 enhanced font 'Sans,10' background rgb 'white'
}
set output outfile

array c[3] = ['#bbbbbb', '#4477aa', '#228833']
do for [i = 1:3] { set linetype i lc rgb c[i] }
set title sprintf("Start of a child forked from a seed (mean per start), run %d", run)
set style data histograms
set style histogram rowstacked
set style fill solid 0.85 border rgb '#555555'
set boxwidth 0.6
set ylabel 'ms from the fork request to the end of the first call'
set yrange [0:*]
set offsets 0, 0, graph 0.1, 0
set xtics nomirror noenhanced rotate by -30
set ytics nomirror
set grid ytics lc rgb '#dddddd'
set border 3
set key outside below center horizontal noenhanced
set key autotitle columnheader
plot for [i = 2:4] datafile using i:xtic(1) title columnheader(i), \
	datafile using 0:5:(sprintf("N = %d", int($6))) with labels offset 0,0.8 notitle
