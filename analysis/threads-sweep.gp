# threads-sweep.gp - latency against worker threads, one line per VM type
# and idle policy (and workload), as the study's Fig. 6; halt entries per
# call on the right. Colour: the policy; point type: the VM type.
#
# Run by `cvmbench plot threads-sweep` (analysis/plot.c), which sets:
#   datafile, outfile, term, nblocks, maxthreads, colours (space-separated,
#   one per block), points (point types, one per block), nvmtypes, run,
#   havehalt (0|1), haltnote (why no halt entries),
#   haltsource (where the entries came from, when one source for all),
#   maxpts (the most points of a line: below three they are not joined)
# Threads are integers: ticked only at the counts measured (xtic(1)).
# Data (analysis/fig-threads-sweep.c): one block per line, its first row the
# title (columnheader(1)) and the title in the halt panel (columnheader(2),
# with the entries' source when blocks differ), then columns
#   1 threads  2 median ms  3 p25 ms  4 p75 ms  5 halt entries per call (NaN: none)
#   6 N (measured invocations behind the point, written beside it)

if (term eq 'svg') {
	set terminal svg size 1100,520 dynamic enhanced font 'Sans,11' background rgb 'white'
} else {
	set terminal pngcairo size 1100,520 enhanced font 'Sans,10' background rgb 'white'
}
set output outfile

set logscale x 2
set xrange [0.8:maxthreads * 1.25]
set xlabel 'worker threads'
set ytics nomirror
set xtics nomirror
set grid xtics ytics lc rgb '#dddddd'
set border 3
set yrange [0:*]
set key top left noenhanced

set multiplot layout 1,2 title sprintf("Threads sweep per %sidle policy, run %d", \
	nvmtypes > 1 ? 'VM type and ' : '', run)
set title "latency (median, 25-75 %)\nN = measured invocations per point"
set ylabel 'latency (ms)'
if (maxpts < 3) { set style data yerrorbars } else { set style data yerrorlines }
plot for [i = 0:nblocks - 1] datafile index i using 1:2:3:4:xtic(1) \
	lw 2 pt int(word(points, i + 1)) lc rgb word(colours, i + 1) title columnheader(1), \
     for [i = 0:nblocks - 1] datafile index i using 1:2:(sprintf('N=%d', int($6))) \
	with labels offset char 2.5, char 0.6 font ',8' notitle
set title 'halt-state entries per call'.(haltsource ne '' ? "\nfrom ".haltsource : '') \
	noenhanced
set ylabel 'entries per call'
if (havehalt) {
	if (maxpts < 3) { set style data points } else { set style data linespoints }
	plot for [i = 0:nblocks - 1] datafile index i using 1:5:xtic(1) \
		lw 2 pt int(word(points, i + 1)) lc rgb word(colours, i + 1) \
		title columnheader(2)
} else {
	set label 1 haltnote at graph 0.5, 0.5 center noenhanced
	set yrange [0:1]
	plot NaN notitle
	unset label 1
}
unset multiplot
