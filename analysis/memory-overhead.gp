# memory-overhead.gp - host memory of ksm off and model cells as a
# percentage over the ksm on cells of the same workload and VM count,
# against the VMs per cell, as the study's Fig. 3 d; the overhead and N
# (cells of the variant / of ksm on) beside each point.
#
# Run by `cvmbench plot memory-overhead` (analysis/plot.c), which sets:
#   datafile, outfile, term, nblocks, maxvms, noref (points left out: no
#   ksm on cell to compare with), run, ylo, yhi (the y range, 0 in it),
#   hostsrc (the source of host memory), srcnote (a sentence when the
#   figure mixes cgroup and PSS cells, or '')
# Data (analysis/fig-memory-overhead.c): one block per line, its first row
# the title (columnheader(1)), then columns
#   1 VMs  2 overhead %  3 N of the variant  4 N of ksm on  5 source

if (term eq 'svg') {
	set terminal svg size 800,520 dynamic enhanced font 'Sans,11' background rgb 'white'
} else {
	set terminal pngcairo size 800,520 enhanced font 'Sans,10' background rgb 'white'
}
set output outfile

set xrange [0.5:maxvms + 0.5]
set xtics 1 nomirror
set mxtics 1
set format x '%.0f'
set xlabel 'VMs'
set ylabel 'host memory over ksm on (%)'
set ytics nomirror
set yrange [ylo:yhi]
set grid xtics ytics lc rgb '#dddddd'
set border 3
set xzeroaxis lt 1 lc rgb '#888888'
# the key below the plot area, never over a point or bar (inside, top left, it
# covered the points when every cell had one VM: tests/system/key-outside.py)
set key outside below center horizontal noenhanced
set title sprintf("Host memory overhead against KSM on (%s), run %d%s", hostsrc, run, \
	noref > 0 ? sprintf(" (%d points without a ksm on cell left out)", noref) : '') \
	. (strlen(srcnote) > 0 ? "\n" . srcnote : '') noenhanced

# the labels of line i sit i lines lower, in its colour: lines that coincide stay readable
plot for [i = 0:nblocks - 1] datafile index i using 1:2 \
	with linespoints lw 2 pt 7 lt i + 1 title columnheader(1), \
     for [i = 0:nblocks - 1] datafile index i using 1:2:(sprintf('%+.1f %%, N=%d/%d', $2, $3, $4)) \
	with labels left offset char 1, char (0.6 - 1.1 * i) font ',8' \
	textcolor lt i + 1 notitle
