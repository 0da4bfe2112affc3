# vmexit-reasons.gp - one cell's VM exits by reason over the cell window:
# counts, and beside them the time per reason where it was measured (the
# study's Table III: HLT is a minority of exits but most of their time).
#
# Run by `cvmbench plot vmexit-reasons` (analysis/plot.c), which sets:
#   datafile, outfile, term, run, cell, event, nreasons, has_time, n (the
#   cell's measured invocations), longest (characters of the longest label,
#   as drawn: the slanted labels get room below and the image width gnuplot
#   wants for them, so none runs off and gnuplot does not warn)
# Data (analysis/fig-vmexit-reasons.c): a header row, then one row per
# reason, largest count first:
#   1 label "reason (class)"  2 count  3 time in ms ("?": not measured)

w = 420 + 46 * nreasons
w = (w < 22 * longest) ? 22 * longest : w
h0 = 400 + 7 * longest
if (term eq 'svg') {
	set terminal svg size w,(has_time ? h0 + 300 : h0) dynamic enhanced font 'Sans,11' background rgb 'white'
} else {
	set terminal pngcairo size w,(has_time ? h0 + 300 : h0) enhanced font 'Sans,10' background rgb 'white'
}
set output outfile
set datafile missing '?'
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 border rgb '#555555'
set boxwidth 0.8
set yrange [0:*]
set xtics rotate by -40 nomirror noenhanced
set ytics nomirror
set grid ytics lc rgb '#dddddd'
set border 3
unset key
set bmargin 2 + 0.3 * longest
set xrange [-0.5:nreasons - 0.5]
if (has_time) { set multiplot layout 2,1 }
set title sprintf("%s by reason, cell %s (cell window), run %d\nN = %d measured invocations", event, cell, run, n) noenhanced
set ylabel 'exits'
plot datafile using 2:xtic(1) lc rgb '#4477aa' title columnheader(2)
if (has_time) {
	set title "time per reason, ms (no bar: not measured)" noenhanced
	set ylabel 'ms'
	plot datafile using 3:xtic(1) lc rgb '#ee6677' title columnheader(3)
	unset multiplot
}
