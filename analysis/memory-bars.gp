# memory-bars.gp - host memory (per cell its VMs' memory cgroups, else the
# summed PSS of its QEMU processes) as
# clustered bars: a group per cell layout (memory-mixed: VMs and function;
# consolidation: workload, instances and VMs), a bar per memory variant
# (regular ksm on, ksm off; model, sev-snp, tdx under any KSM setting: the
# confidential type each cell got), the mean over the group's cells in MiB,
# N (cells) above each bar.
#
# Run by `cvmbench plot memory-mixed` and `cvmbench plot consolidation`
# (analysis/plot.c), which set:
#   datafile, outfile, term, ngroups, run, title (a constant of the figure),
#   nbars (5), cols (the columns among 2 .. nbars + 1 that hold a bar in
#   some group: gnuplot refuses to draw a column without any), hostsrc
#   (the source of host memory, for the axis), srcnote (a sentence when the
#   figure mixes cgroup and PSS cells, or '')
# Data (analysis/memory-bars.c): a header row, then one row per group:
#   1 label  2 ksm on MiB  3 ksm off MiB  4 model MiB  5 sev-snp MiB
#   6 tdx MiB (NaN: none)  7..11 N of each  12..16 source of each

w = 560 + 170 * ngroups
if (term eq 'svg') {
	set terminal svg size w,560 dynamic enhanced font 'Sans,11' background rgb 'white'
} else {
	set terminal pngcairo size w,560 enhanced font 'Sans,10' background rgb 'white'
}
set output outfile

array c[5] = ['#4477aa', '#ee6677', '#228833', '#ccbb44', '#aa3377']
do for [i = 1:5] { set linetype i lc rgb c[i] }
set title sprintf("%s, run %d", title, run) \
	. (strlen(srcnote) > 0 ? "\n" . srcnote : '') noenhanced
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 border rgb '#555555'
set boxwidth 0.9
set ylabel sprintf('host memory, %s (MiB)', hostsrc) noenhanced
set yrange [0:*]
set offsets 0, 0, graph 0.1, 0
# long labels (vm-workloads lists) slope down to their tick instead of overlapping
set xtics nomirror noenhanced rotate by 20 right
set ytics nomirror
set grid ytics lc rgb '#dddddd'
set border 3
# the key below the plot area, never over a point or bar (inside, top left, it
# covered the points when every cell had one VM: tests/system/key-outside.py)
set key outside below center horizontal noenhanced
set key autotitle columnheader
# the k-th (1..n) of n bars of group g sits at g + (k - (n + 1) / 2) / (n + 1)
n = words(cols)
plot for [k = 1:n] datafile using int(word(cols, k)):xtic(1) \
	lt int(word(cols, k)) - 1 title columnheader(int(word(cols, k))), \
     for [k = 1:n] datafile using ($0 + (k - (n + 1) / 2.0) / (n + 1)):int(word(cols, k)):\
	(column(int(word(cols, k)) + nbars) > 0 ? sprintf('N=%d', int(column(int(word(cols, k)) + nbars))) : '') \
	with labels offset 0,0.8 font ',8' notitle
