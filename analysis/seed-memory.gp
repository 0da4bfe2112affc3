# seed-memory.gp - memory per child of a seed after its calls (backend =
# zygote), one cluster per workload, seed layer and VM type: the mean per
# child, in kB, of its PSS, its USS, what it wrote itself (Private_Dirty)
# and its kB on the seed's page frames (no bar where not measured), with
# the seed's own PSS as a mark; N children sampled and children alive
# above each cluster.
#
# Run by `cvmbench plot seed-memory` (analysis/plot.c), which sets:
#   datafile, outfile, term, ngroups, run
# Data (analysis/fig-seed-memory.c): a header row, then one row per group:
#   1 label  2 PSS  3 USS  4 written  5 on the seed's frames (NaN: not
#   measured)  6 the seed's PSS  7 children  8 samples  9 cells

w = 560 + 110 * ngroups
if (term eq 'svg') {
	set terminal svg size w,640 dynamic enhanced font 'Sans,11' background rgb 'white'
} else {
	set terminal pngcairo size w,640 enhanced font 'Sans,10' background rgb 'white'
}
set output outfile

array c[4] = ['#4477aa', '#66ccee', '#228833', '#ccbb44']
do for [i = 1:4] { set linetype i lc rgb c[i] }
set title sprintf("Memory per child of a seed after its calls (mean per child), run %d", run)
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 border rgb '#555555'
set ylabel 'kB'
set yrange [0:*]
set offsets 0, 0, graph 0.1, 0
set xtics nomirror noenhanced rotate by -30
set ytics nomirror
set grid ytics lc rgb '#dddddd'
set border 3
set key outside below center horizontal noenhanced
set key autotitle columnheader
plot for [i = 2:5] datafile using i:xtic(1) title columnheader(i), \
	datafile using 0:6 with points pt 9 ps 1.4 lc rgb '#aa3377' title columnheader(6), \
	datafile using 0:6:(sprintf("N = %d, %.0f alive", int($8), $7)) with labels offset 0,1.2 notitle
