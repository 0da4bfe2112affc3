# vm-boot.gp - a VM's boot to its ready line by phase, one stacked bar per
# VM shape (vCPUs, memory; accelerator and confidential type when they
# differ), the mean over its boots in seconds, N boots above each bar; the
# mean first console byte seen by the host as a mark.
#
# Run by `cvmbench plot vm-boot` (analysis/plot.c), which sets:
#   datafile, outfile, term, nshapes, nleft, run
# Data (analysis/fig-vm-boot.c): a header row, then one row per shape:
#   1 label  2..4 mean s of each phase  5 total  6 first console (s, NaN: none)  7 boots

w = 560 + 90 * nshapes
if (term eq 'svg') {
	set terminal svg size w,680 dynamic enhanced font 'Sans,11' background rgb 'white'
} else {
	set terminal pngcairo size w,680 enhanced font 'Sans,10' background rgb 'white'
}
set output outfile

array c[3] = ['#bbbbbb', '#4477aa', '#228833']
do for [i = 1:3] { set linetype i lc rgb c[i] }
set title sprintf("VM boot to ready by phase (mean per boot), run %d", run) . \
	(nleft > 0 ? sprintf("; %d boot%s without its phases not drawn", nleft, nleft == 1 ? "" : "s") : "")
set style data histograms
set style histogram rowstacked
set style fill solid 0.85 border rgb '#555555'
set boxwidth 0.6
set ylabel 'seconds from QEMU spawn'
set yrange [0:*]
set offsets 0, 0, graph 0.1, 0
set xtics nomirror noenhanced
set ytics nomirror
set grid ytics lc rgb '#dddddd'
set border 3
set key outside below center vertical maxrows 5 noenhanced
# the header row is every plot's header, so $0 counts the shapes from 0 in all
set key autotitle columnheader
plot for [i = 2:4] datafile using i:xtic(1) title columnheader(i), \
	datafile using 0:6 with points pt 9 ps 1.4 lc rgb '#aa3377' \
		title 'first console byte (host)', \
	datafile using 0:5:(sprintf("N = %d", int($7))) with labels offset 0,0.8 notitle
