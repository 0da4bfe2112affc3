# plan-pareto.gp - a capacity plan's Pareto curves: per (platform, policy)
# of the TTL ladder, cold starts (% of invocations) against the mean warm
# memory (MiB) of the pool.
#
# Run by `cvmbench plot plan-pareto` (analysis/plot.c), which sets:
#   datafile, outfile, term, nblocks, plan
# Data (analysis/fig-plan.c): one block per curve, titled (columnheader(1)),
#   rows: 1 mean warm memory (MiB)  2 cold starts (%)
if (term eq 'svg') {
	set terminal svg size 860,560 dynamic enhanced font 'Sans,11' background rgb 'white'
} else {
	set terminal pngcairo size 860,560 enhanced font 'Sans,10' background rgb 'white'
}
set output outfile
set title sprintf("plan %d: cold starts against mean warm memory (TTL ladder)", plan) noenhanced
set xlabel 'mean warm memory (MiB)'
set ylabel 'cold starts (% of invocations)'
set logscale y
# a TTL with no cold start at all has no place on a log scale: say so, not a silent gap
set label 1 'a point with no cold starts (0 %) is not drawn on the log scale' at screen 0.01, screen 0.02 font ',8' tc rgb '#555555' noenhanced
set grid lc rgb '#dddddd'
set key outside right top noenhanced
plot for [i = 0:nblocks - 1] datafile index i using 1:2 with linespoints lw 2 pt 7 \
	title columnheader(1)
