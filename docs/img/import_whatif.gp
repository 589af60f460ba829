# gnuplot script written by `gvlsim plot` (docs/output.md).
# data: docs/data/import-whatif.csv
# made by: gvlsim plot docs/data/import-whatif.csv --x cores --y wants_gvl_s --logy --series runtime.gvl_policy --series-title policy --title 'bug #19717 repro, recorded on Ruby 3.2, replayed' --xlabel cores --ylabel 'time the threads waited for the GVL' -o docs/img/import_whatif.png
# Re-render: gnuplot -d THIS.gp   (or: gnuplot -d -c THIS.gp OTHER.png|OTHER.svg)
# Points: wants_gvl_s (mean over rows with the same x), one line per runtime.gvl_policy.
out = (ARGC >= 1) ? ARG1 : 'docs/img/import_whatif.png'
fmt = (ARGC >= 2) ? ARG2 : ((strlen(out) > 4 && out[strlen(out)-3:] eq '.svg') ? 'svg' : 'png')
if (fmt eq 'svg') {
    set terminal svg size 1280,720 dynamic noenhanced font 'DejaVu Sans,11'
} else {
    set terminal pngcairo size 1280,720 noenhanced font 'DejaVu Sans,11'
}
set encoding utf8
set output out
set datafile separator comma
set title 'bug #19717 repro, recorded on Ruby 3.2, replayed'
set xlabel 'cores'
set xrange [0.44:8.56]
set xtics ('1' 1, '2' 2, '4' 4, '8' 8)
set ylabel 'time the threads waited for the GVL'
set logscale y
set yrange [0.00839039036482:2.38213520396]
set ytics ('10 ms' 0.01, '20 ms' 0.02, '50 ms' 0.05, '100 ms' 0.1, '200 ms' 0.2, '500 ms' 0.5, '1 s' 1, '2 s' 2)
set grid xtics ytics lc rgb '#dddddd'
set key outside below center horizontal height 1.5
$s0 << EOD
# x,mean,min,max,n
1,0.010846523,0.010846523,0.010846523,1
2,0.015752535,0.015752535,0.015752535,1
4,0.015752535,0.015752535,0.015752535,1
8,0.015752535,0.015752535,0.015752535,1
EOD
$s1 << EOD
# x,mean,min,max,n
1,0.017947459,0.017947459,0.017947459,1
2,0.028922031,0.028922031,0.028922031,1
4,0.029714731,0.029714731,0.029714731,1
8,0.029714731,0.029714731,0.029714731,1
EOD
$s2 << EOD
# x,mean,min,max,n
1,0.017947459,0.017947459,0.017947459,1
2,0.028922031,0.028922031,0.028922031,1
4,0.029714731,0.029714731,0.029714731,1
8,0.029714731,0.029714731,0.029714731,1
EOD
$s3 << EOD
# x,mean,min,max,n
1,1.797622274,1.797622274,1.797622274,1
2,1.842714413,1.842714413,1.842714413,1
4,1.819251883,1.819251883,1.819251883,1
8,1.819251883,1.819251883,1.819251883,1
EOD
$s4 << EOD
# x,mean,min,max,n
1,0.156061076,0.156061076,0.156061076,1
2,0.175654684,0.175654684,0.175654684,1
4,0.175633829,0.175633829,0.175633829,1
8,0.175633829,0.175633829,0.175633829,1
EOD
plot $s0 using 1:2 with linespoints lw 5.50 dt 1 pt 7 ps 2.60 lc rgb '#E69F00' title 'policy=barging', \
     $s1 using 1:2 with linespoints lw 4.62 dt (10,5) pt 5 ps 2.25 lc rgb '#0072B2' title 'policy=eager', \
     $s2 using 1:2 with linespoints lw 3.75 dt (3,4) pt 9 ps 1.90 lc rgb '#009E73' title 'policy=hot_steal', \
     $s3 using 1:2 with linespoints lw 2.88 dt (12,4,3,4) pt 11 ps 1.55 lc rgb '#D55E00' title 'policy=delayed', \
     $s4 using 1:2 with linespoints lw 2.00 dt (6,3,2,3,2,3) pt 13 ps 1.20 lc rgb '#CC79A7' title 'policy=threshold'
unset output
