# system-overhead.gp - the system suite's CVM overhead across tools: one
# bar per tool, metric and confidential side, in percent, positive when the
# CVM is worse (throughput: regular / CVM - 1; latency: CVM / regular - 1),
# with its 95 % bootstrap interval and N of both sides above it; blue for
# throughput metrics, orange for latency and error metrics. A tool whose
# confidential side is missing (skipped: no CVM here) has a place with
# "missing: skipped" and no bar.
#
# Run by `cvmbench plot system-overhead` (analysis/plot.c), which sets:
#   datafile, outfile, term, nbars, nhigher, nlower, nmissing
# Data (analysis/fig-system-overhead.c): blocks 0 (higher is better) and 1
# (lower is better): 1 x  2 overhead %  3 lo  4 hi  5 label_y  6 "N=b/s";
# block 2 (missing): 1 x  2 y  3 "missing: KIND"; block 3: 1 x  2 tick label.

w = 300 + 40 * nbars
w = (w < 1000) ? 1000 : w
if (term eq 'svg') {
	set terminal svg size w,640 dynamic enhanced font 'Sans,11' background rgb 'white'
} else {
	set terminal pngcairo size w,640 enhanced font 'Sans,10' background rgb 'white'
}
set output outfile
set title "System suite: CVM overhead per tool and metric (positive: the CVM is worse)\n95 % bootstrap interval of the ratio of medians over measured windows; N = windows regular/confidential" noenhanced
set ylabel 'overhead (%)'
set style fill solid 0.8 border rgb '#555555'
set boxwidth 0.7
set xrange [0.4:nbars + 0.6]
set xtics rotate by 40 right nomirror noenhanced font ',8'
set bmargin 14
set lmargin 28   # rotated labels reach left: room for the longest (see runc-phases.gp)
set ytics nomirror
set grid ytics lc rgb '#dddddd'
set border 3
set key above noenhanced
set arrow from graph 0, first 0 to graph 1, first 0 nohead lc rgb '#333333' front
# an empty block is not plotted (gnuplot would warn): for [k = 1:has] runs once or never
plot for [k = 1:nhigher > 0] datafile index 0 using 1:2 with boxes lc rgb '#0077bb' title 'throughput (higher is better)', \
     for [k = 1:nlower > 0] datafile index 1 using 1:2 with boxes lc rgb '#ee7733' title 'latency, errors (lower is better)', \
     for [k = 1:nhigher > 0] datafile index 0 using 1:2:3:4 with yerrorbars pt 0 lc rgb 'black' notitle, \
     for [k = 1:nlower > 0] datafile index 1 using 1:2:3:4 with yerrorbars pt 0 lc rgb 'black' notitle, \
     for [k = 1:nhigher > 0] datafile index 0 using 1:5:6 with labels offset 0,0.8 font ',7' noenhanced notitle, \
     for [k = 1:nlower > 0] datafile index 1 using 1:5:6 with labels offset 0,0.8 font ',7' noenhanced notitle, \
     for [k = 1:nmissing > 0] datafile index 2 using 1:2:3 with labels rotate by 90 left offset 0,0.5 font ',8' textcolor rgb '#993300' noenhanced notitle, \
     datafile index 3 using 1:(NaN):xticlabels(2) notitle
