# runc-phases.gp - the phases of a container cold start, one stacked bar
# per runtime and variant (mean per start, ms), as the study's cold-start
# breakdown and isolation-relaxation figures.
#
# Run by `cvmbench plot runc-phases` (analysis/plot.c), which sets:
#   datafile, outfile, term, ncells, nphases, run, longest (characters of
#   the longest x label: the labels stand upright below the bars, with room
#   made for the longest, so none runs off the image)
# Data (analysis/fig-runc-phases.c): a header row, then one row per cell:
#   1 label (with N, the container starts of the bar)  2..nphases+1 mean ms per
#   start of each phase (docs/probes/runc.md), in the order drawn (bottom up)

w = 360 + 70 * ncells
h = 420 + 8 * longest
if (term eq 'svg') {
	set terminal svg size w,h dynamic enhanced font 'Sans,11' background rgb 'white'
} else {
	set terminal pngcairo size w,h enhanced font 'Sans,10' background rgb 'white'
}
set bmargin 1.5 + 0.5 * longest
set output outfile

# one colour per phase, in the order of the data's columns: runtime blues,
# state, cgroup green, init purples, namespaces yellows, mounts reds,
# seccomp, the waits grey, exec to reply greens, teardown olive, other pale
array c[20] = ['#223f66', '#4477aa', '#77aadd', '#99ddff', '#228833', '#882255', '#cc6699', \
	'#ccbb44', '#eedd88', '#ee6677', '#ee8866', '#332288', \
	'#555555', '#888888', '#bbbbbb', \
	'#117733', '#44aa99', '#88ccee', '#999933', '#eeeeee']
do for [i = 1:20] { set linetype i lc rgb c[i] }
set title sprintf("Container cold start by phase (mean per start), run %d\nN = container starts per bar", run)
set style data histograms
set style histogram rowstacked
set style fill solid 0.85 border rgb '#555555'
set boxwidth 0.7
set ylabel 'time per start (ms)'
set yrange [0:*]
set xtics rotate by 90 right nomirror noenhanced
set ytics nomirror
set grid ytics lc rgb '#dddddd'
set border 3
# key in the stacking order: the top segment first
set key outside right top noenhanced invert maxrows nphases title 'phase (top to bottom)'
plot for [i = 2:nphases + 1] datafile using i:xtic(1) title columnheader(i)
