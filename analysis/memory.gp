# memory.gp - host memory (per cell its VMs' memory cgroups, else the summed
# PSS of its QEMU processes) against the VMs per cell, one line per workload
# and variant (ksm on, ksm off, model), as the study's Fig. 3 a-c; N (cells)
# beside each point.
#
# Run by `cvmbench plot memory` (analysis/plot.c), which sets:
#   datafile, outfile, term, nblocks, maxvms, nodata (cells left out: no
#   hostmem data), run, hostsrc (the source of host memory, for the axis),
#   srcnote (a sentence when the figure mixes cgroup and PSS cells, or '')
# Data (analysis/fig-memory.c): one block per line, its first row the title
# (columnheader(1)), then columns
#   1 VMs  2 mean MiB  3 min MiB  4 max MiB  5 N  6 source (memcg, pss, memcg+pss)

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
set ylabel sprintf('host memory, %s (MiB)', hostsrc) noenhanced
set ytics nomirror
set yrange [0:*]
set grid xtics ytics lc rgb '#dddddd'
set border 3
# the key below the plot area, never over a point or bar (inside, top left, it
# covered the points when every cell had one VM: tests/system/key-outside.py)
set key outside below center horizontal noenhanced
set title sprintf("Host memory against VMs, run %d%s", run, \
	nodata > 0 ? sprintf(" (%d cells without hostmem data left out)", nodata) : '') \
	. (strlen(srcnote) > 0 ? "\n" . srcnote : '') noenhanced

# maxpts: the most points of a line; two points are two points, not a trend
if (maxpts < 3) { set style data yerrorbars } else { set style data yerrorlines }
# the labels of line i sit i lines lower, in its colour: lines that coincide
# (ksm off and model of a workload often do) stay readable, as in memory-overhead.gp
plot for [i = 0:nblocks - 1] datafile index i using 1:2:3:4 \
	lw 2 pt 7 lt i + 1 title columnheader(1), \
     for [i = 0:nblocks - 1] datafile index i using 1:2:(sprintf('N=%d', $5)) \
	with labels left offset char 1, char (0.6 - 1.1 * i) font ',8' \
	textcolor lt i + 1 notitle
