# idle-policy.gp - latency and halt entries per call, side by side, for
# each warm cell of one run under its idle policy, grouped by VM type (the
# study's Table III), and the host's VM exits where the vmexit probe
# counted them.
#
# Run by `cvmbench plot idle-policy` (analysis/plot.c), which sets:
#   datafile, outfile, term ('pngcairo' or 'svg'), ncells, xmax (the last x),
#   nvmtypes, havehalt, haltnote (why there are no halt entries), haltsource
#   (where they came from, when one source for all), logy, run, haveexits
# Data columns (analysis/fig-idle-policy.c), latencies in ms:
#   1 x  2 label  3 colour of the policy (0xRRGGBB)
#   4 median  5 p25  6 p75  7 mean  8 halt entries per call  9 CPU burnt %
#   10 label of the halt panel (with the entries' source when they differ)
#   11 N (measured invocations of the cell)
#   12 VM exits  13 HLT exits  14 HLT % of exits  15 HLT % of exit time (NaN: none)
# One block per VM type, a gap of one x between blocks; the VM type leads
# each label when there is more than one.
# Left: median latency, whiskers 25-75 %, N and CPU burnt % above each bar.
# Middle: halt-state entries per call (HLT exits under the hlt policy).
# Right, where some cell has them: the host's VM exits of the cell window,
# all (grey) and HLT (the policy's colour), HLT's shares above.

npanels = haveexits ? 3 : 2
w = xmax * 55 * npanels + 500
w = (w < 500 * npanels) ? 500 * npanels : w
if (term eq 'svg') {
	set terminal svg size w,620 dynamic enhanced font 'Sans,11' background rgb 'white'
} else {
	set terminal pngcairo size w,620 enhanced font 'Sans,10' background rgb 'white'
}
set output outfile

set style fill solid 0.6 border -1
set boxwidth 0.6 absolute
set xrange [0.4:xmax + 0.6]
set xtics rotate by 30 right nomirror noenhanced
set ytics nomirror
set grid ytics lc rgb '#dddddd'
set border 3
set bmargin 11
set lmargin 14

set multiplot layout 1,npanels title sprintf("Idle policy%s: latency and halt entries%s, run %d", \
	nvmtypes > 1 ? ' per VM type' : '', haveexits ? ', VM exits' : '', run)

set title "latency (median, 25-75 %)\nN = measured invocations, CPU burnt above"
if (logy) {
	set logscale y
	set ylabel 'latency (ms, log scale)'
} else {
	set yrange [0:*]
	set ylabel 'latency (ms)'
}
plot datafile using 1:4:3:xticlabels(2) with boxes lc rgb variable notitle, \
     '' using 1:4:5:6 with yerrorbars lt -1 pt -1 notitle, \
     '' using 1:6:(sprintf('N=%d', int($11)).(valid(9) ? sprintf(', %.0f%%', $9) : '')) \
	with labels offset 0,0.8 \
	font ',9' notitle

set title 'halt-state entries per call (HLT exits under hlt)'. \
	(haltsource ne '' ? "\nfrom ".haltsource : '') noenhanced
unset logscale y
set yrange [0:*]
set ylabel 'entries per call'
if (havehalt) {
	plot datafile using 1:8:3:xticlabels(10) with boxes lc rgb variable notitle
} else {
	set label 1 haltnote at graph 0.5, 0.5 center noenhanced
	set yrange [0:1]
	unset xtics
	plot NaN notitle
	unset label 1
	set xtics rotate by 30 right nomirror noenhanced
}
if (haveexits) {
	set title "host VM exits of the cell (kvm_exit)\nall (grey), HLT; HLT % of exits / of exit time" \
		noenhanced
	set ylabel 'exits'
	set yrange [0:*]
	plot datafile using 1:(valid(12) ? $12 : NaN):xticlabels(2) with boxes \
		lc rgb '#bbbbbb' notitle, \
	     '' using 1:(valid(13) ? $13 : NaN):3 with boxes lc rgb variable notitle, \
	     '' using 1:(valid(12) ? $12 : NaN):(valid(14) ? sprintf('%.0f%%', $14). \
		(valid(15) ? sprintf(' / %.0f%%', $15) : '') : '') \
		with labels offset 0,0.8 font ',9' notitle
}
unset multiplot
