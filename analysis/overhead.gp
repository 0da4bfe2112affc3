# overhead.gp - the study's Fig. 4: latency overhead of a CVM per function,
# the ratio of median latencies (confidential / regular twin) with its 95 %
# bootstrap interval, one bar per CVM type (or model) present, N of both
# sides above each bar. Pairs as `cvmbench compare` makes them.
#
# Run by `cvmbench plot overhead` (analysis/plot.c), which sets:
#   datafile, outfile, term, nsides, ngroups, resamples
# Data (analysis/fig-overhead.c): blocks 0 .. nsides-1, one per side, a
# header row naming it, then rows: 1 x  2 ratio  3 lo  4 hi  5 "N=base/side";
# block nsides: 1 x  2 tick label.

w = 320 + 110 * ngroups
w = (w < 1200) ? 1200 : w   # rotated labels: see runc-phases.gp
if (term eq 'svg') {
	set terminal svg size w,600 dynamic enhanced font 'Sans,11' background rgb 'white'
} else {
	set terminal pngcairo size w,600 enhanced font 'Sans,10' background rgb 'white'
}
set output outfile

array c[6] = ['#cc3311', '#0077bb', '#ee7733', '#009988', '#aa3377', '#bbbbbb']
set title sprintf("Latency overhead of the confidential VM: median ratio to the regular twin\n95 %% bootstrap interval (%d resamples); N = invocations regular/confidential; cov = achieved coverage of each side's median interval", resamples) noenhanced
set ylabel 'median latency ratio (confidential / regular)'
set style fill solid 0.8 border rgb '#555555'
set boxwidth 0.8 / nsides
set xrange [0.4:ngroups + 0.6]
set yrange [0:*]
# Labels (at most 48 characters, gp-string.c) end at their tick and reach
# left and down: room for the longest under and left of the plot.
set xtics rotate by 30 right nomirror noenhanced
set lmargin 28
set bmargin 12
set ytics nomirror
set grid ytics lc rgb '#dddddd'
set border 3
set key outside right top noenhanced
set arrow from graph 0, first 1 to graph 1, first 1 nohead dt 2 lc rgb '#333333' front
plot for [i = 0:nsides - 1] datafile index i using 1:2 with boxes lc rgb c[i % 6 + 1] \
	title columnheader(2), \
     for [i = 0:nsides - 1] datafile index i using 1:2:3:4 with yerrorbars pt 0 \
	lc rgb 'black' notitle, \
     for [i = 0:nsides - 1] datafile index i using 1:4:5 with labels offset 0,0.8 \
	font ',8' noenhanced notitle, \
     datafile index nsides using 1:(NaN):xticlabels(2) notitle
