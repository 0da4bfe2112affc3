# vmexit-rate.gp - the study's Fig. 5: VM exits per second of each cell by
# cross-vendor class, one stacked bar per cell (left axis), and beside the
# bar of a confidential (or model) cell its slowdown against its regular
# twin (right axis: the ratio of median latencies, a point with its
# bootstrap interval, as `cvmbench compare` pairs and computes them). Under
# such a bar's label: N of both sides (regular/confidential) and the
# achieved coverage of each side's median interval, and the run or
# experiment a twin came from when not this one. Without a paired cell the
# bars are drawn alone and the title says "no paired run".
#
# Run by `cvmbench plot vmexit-rate` (analysis/plot.c), which sets:
#   datafile, outfile, term, ncells, npaired, run, event, resamples,
#   maxlabel (characters of the longest label line, as drawn)
# Data (analysis/fig-vmexit-rate.c): a header row, then one row per cell:
#   1 label (with N, the measured invocations of the cell)  2..9 exits per
#   second of idle, io, mmio, msr, cpuid, interrupt, page-state, other
#   10 x  11 ratio  12 lo  13 hi ('?': no slowdown)  14 "slowdown R [LO, HI]"
#   15 note ('-': none)  16 "baseline from EXP, run R" ('-': none); 14, 15 and
#   16 are drawn under the label

# gnuplot wants the width of a rotated label (characters x cos 30 x ~8 px)
# to be under a quarter of the image: wide enough for the longest one
w = 560 + (npaired ? 110 : 70) * ncells
w = (w < 28 * maxlabel) ? 28 * maxlabel : w
w = (npaired && w < 980) ? 980 : w          # room for the three title lines
if (term eq 'svg') {
	set terminal svg size w,600 dynamic enhanced font 'Sans,11' background rgb 'white'
} else {
	set terminal pngcairo size w,600 enhanced font 'Sans,10' background rgb 'white'
}
set output outfile
set datafile missing '?'

array c[8] = ['#4477aa', '#66ccee', '#228833', '#ccbb44', '#ee6677', '#aa3377', \
	'#332288', '#bbbbbb']
do for [i = 1:8] { set linetype i lc rgb c[i] }
if (npaired) {
	set title sprintf("%s per second by class (bars, cell window), run %d, and slowdown to the regular twin (points, right axis):\nthe ratio of median latencies with its 95 %% bootstrap interval (%d resamples), paired as cvmbench compare pairs them\nN = measured invocations of the cell; under it: slowdown [interval], N regular/confidential, each median's achieved coverage", event, run, resamples) noenhanced
} else {
	set title sprintf("%s per second by class (cell window), run %d: no paired run\n(no cell drawn is the confidential side of a pair cvmbench compare accepts); N = measured invocations of the cell", event, run) noenhanced
}
set style data histograms
set style histogram rowstacked
set style fill solid 0.85 border rgb '#555555'
set boxwidth 0.7
set ylabel 'exits per second'
set yrange [0:*]
# Labels (at most 48 characters a line, gp-string.c) end at their tick and
# reach left and down: room for the longest under and left of the plot.
set xtics rotate by 30 right nomirror noenhanced
set lmargin 28
set bmargin 15
set ytics nomirror
set grid ytics lc rgb '#dddddd'
set key outside right top noenhanced title 'class'
# the tick: the label, and under it the slowdown and the note of the pair
tl(s) = (s eq '-') ? '' : "\n" . s
tick(l, v, n, f) = l . tl(v) . tl(n) . tl(f)
if (!npaired) {
	set border 3
	plot for [i = 2:9] datafile using i:xtic(tick(strcol(1), strcol(14), strcol(15), strcol(16))) title columnheader(i)
} else {
	set border 11
	set y2label 'slowdown: confidential / regular median'
	set y2range [0:*]
	set y2tics nomirror
	set arrow from graph 0, second 1 to graph 1, second 1 nohead dt 2 lc rgb '#333333' front
	plot for [i = 2:9] datafile using i:xtic(tick(strcol(1), strcol(14), strcol(15), strcol(16))) title columnheader(i), \
	     datafile using 10:11:12:13 every ::1 axes x1y2 with yerrorbars pt 7 ps 0.8 \
		lc rgb 'black' title 'slowdown (right axis)'
}
