# pool-depletion.gp - each pool's free slots over time (top; a refill is
# a triangle, a fallback - a start that found the pool empty - a cross)
# and what each refill cost (bottom: its wall time; the key gives each
# pool's refills, their wall and CPU time), one colour per pool.
#
# Run by `cvmbench plot pool-depletion` (analysis/plot.c), which sets:
#   datafile, outfile, term, npools, nleft, run, nrefills (of all pools)
# Data (analysis/fig-pool-depletion.c): two blocks per pool, each headed by
# its title (columnheader):
#   block 2i:   1 seconds since the first take  2 free  3 event (1 refill, 2 fallback)
#   block 2i+1: 1 seconds  2 the refill's wall time ms  3 its CPU time ms

if (term eq 'svg') {
	set terminal svg size 1100,760 dynamic enhanced font 'Sans,11' background rgb 'white'
} else {
	set terminal pngcairo size 1100,760 enhanced font 'Sans,10' background rgb 'white'
}
set output outfile

set ytics nomirror
set xtics nomirror
set grid xtics ytics lc rgb '#dddddd'
set border 3
set key outside right top noenhanced
set lmargin 10
set rmargin 44

left = nleft > 0 ? sprintf(" (%d more pools not drawn)", nleft) : ""
set multiplot layout 2,1 title sprintf("Pool depletion, run %d%s", run, left)
set title 'free slots after each event (triangle: refill, cross: fallback)'
set ylabel 'free slots'
set yrange [0:*]
plot for [i = 0:npools - 1] datafile index 2 * i using 1:2 with steps lw 2 \
	lc i + 1 title columnheader(1), \
     for [i = 0:npools - 1] datafile index 2 * i using 1:($3 == 1 ? $2 : NaN) \
	with points pt 9 ps 1.2 lc i + 1 notitle, \
     for [i = 0:npools - 1] datafile index 2 * i using 1:($3 == 2 ? $2 : NaN) \
	with points pt 2 ps 1.5 lw 2 lc i + 1 notitle
set xrange [GPVAL_X_MIN:GPVAL_X_MAX]
if (nrefills == 0) { set yrange [0:1] }
set title "each refill's own cost (wall time, in cvmbench's refill thread)"
set xlabel 'seconds since the pool was first taken from'
set ylabel 'refill (ms)'
plot for [i = 0:npools - 1] datafile index 2 * i + 1 using 1:2 with impulses lw 2 \
	lc i + 1 title columnheader(1), \
     for [i = 0:npools - 1] datafile index 2 * i + 1 using 1:2 with points pt 7 \
	lc i + 1 notitle
unset multiplot
