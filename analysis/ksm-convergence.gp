# ksm-convergence.gp - KSM at work in the ksm = on cells of a run: the
# summed PSS of each cell's QEMU processes (solid, left axis) and KSM's
# pages_sharing (dashed, right axis) against seconds since the cell's probe
# window started; N (samples) in each title.
#
# Run by `cvmbench plot ksm-convergence` (analysis/plot.c), which sets:
#   datafile, outfile, term, ncells, nleft (ksm = on cells not drawn), run
# Data (analysis/fig-ksm-convergence.c): two blocks per cell, each headed by
# its title (columnheader(1)): block 2i seconds, summed PSS MiB; block
# 2i+1 seconds, pages_sharing.

if (term eq 'svg') {
	set terminal svg size 860,560 dynamic enhanced font 'Sans,11' background rgb 'white'
} else {
	set terminal pngcairo size 860,560 enhanced font 'Sans,10' background rgb 'white'
}
set output outfile

set xlabel 'seconds since the cell window started'
set ylabel 'summed PSS of the QEMUs (MiB)'
set y2label 'KSM pages\_sharing'
set xrange [0:*]
set yrange [0:*]
set y2range [0:*]
set ytics nomirror
set y2tics
set grid xtics ytics lc rgb '#dddddd'
set key outside below center vertical maxrows 8 noenhanced
set title sprintf("KSM convergence (ksm = on cells), run %d%s", run, \
	nleft > 0 ? sprintf("; %d more cells not drawn", nleft) : '') noenhanced

plot for [i = 0:ncells - 1] datafile index 2 * i using 1:2 with lines lw 2 \
	lc i + 1 title columnheader(1), \
     for [i = 0:ncells - 1] datafile index 2 * i + 1 using 1:2 axes x1y2 \
	with lines lw 2 dt 2 lc i + 1 title columnheader(1)
