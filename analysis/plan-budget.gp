# plan-budget.gp - a capacity plan's budget question: per (platform,
# policy) at the budget, cold starts (%, bars) and the p99 latency (ms,
# points on the right axis), means over the seeds.
#
# Run by `cvmbench plot plan-budget` (analysis/plot.c), which sets:
#   datafile, outfile, term, nrows, budget (MiB), plan
# Data (analysis/fig-plan.c): one row per (platform, policy):
#   1 "platform: policy"  2 cold starts (%)  3 p99 (ms)
w = 420 + 90 * nrows
w = (w < 760) ? 760 : w
if (term eq 'svg') {
	set terminal svg size w,520 dynamic enhanced font 'Sans,11' background rgb 'white'
} else {
	set terminal pngcairo size w,520 enhanced font 'Sans,10' background rgb 'white'
}
set output outfile
set title sprintf("plan %d: a budget of %d MiB per platform and policy", plan, budget) noenhanced
set style fill solid 0.8 border rgb '#555555'
set boxwidth 0.6
set yrange [0:*]
set y2range [0:*]
set ylabel 'cold starts (% of invocations)'
set y2label 'p99 latency (ms)'
set ytics nomirror
set y2tics
set xtics rotate by -30 noenhanced
set bmargin 8
set xrange [-0.6:nrows - 0.4]
set key outside top center horizontal
plot datafile using 0:2:xtic(1) with boxes lc rgb '#4477aa' title 'cold starts (%)', \
	'' using 0:3 axes x1y2 with points pt 7 ps 1.4 lc rgb '#ee6677' title 'p99 (ms)'
