# gnuplot script written by `gvlsim plot` (docs/output.md).
# data: docs/data/import-whatif.csv
# made by: gvlsim plot docs/data/import-whatif.csv --x cores --y wants_gvl_s --logy --series runtime.gvl_policy --series-title policy --title 'bug #19717 repro, recorded on Ruby 3.2, replayed' --xlabel cores --ylabel 'time waiting for the GVL (s)' -o docs/img/import_whatif.png
# Re-render: gnuplot -d THIS.gp   (or: gnuplot -d -c THIS.gp OTHER.png)
# Points: wants_gvl_s (mean over rows with the same x), one line per runtime.gvl_policy.
out = (ARGC >= 1) ? ARG1 : 'docs/img/import_whatif.png'
set terminal pngcairo size 1280,720 noenhanced font 'DejaVu Sans,11'
set output out
set datafile separator comma
set title 'bug #19717 repro, recorded on Ruby 3.2, replayed'
set xlabel 'cores'
set ylabel 'time waiting for the GVL (s)'
set grid
set key outside right top
set offsets graph 0.03, graph 0.03, graph 0.05, graph 0.05
set logscale y
set xtics (1, 2, 4, 8)
$s0 << EOD
# x,mean,min,max,n
1,0.00416203,0.00416203,0.00416203,1
2,0.018532236,0.018532236,0.018532236,1
4,0.018725997,0.018725997,0.018725997,1
8,0.018680681,0.018680681,0.018680681,1
EOD
$s1 << EOD
# x,mean,min,max,n
1,0.005575066,0.005575066,0.005575066,1
2,0.005822146,0.005822146,0.005822146,1
4,0.019245743,0.019245743,0.019245743,1
8,0.019177676,0.019177676,0.019177676,1
EOD
$s2 << EOD
# x,mean,min,max,n
1,0.005575066,0.005575066,0.005575066,1
2,0.005822146,0.005822146,0.005822146,1
4,0.019245743,0.019245743,0.019245743,1
8,0.019177676,0.019177676,0.019177676,1
EOD
$s3 << EOD
# x,mean,min,max,n
1,1.820964537,1.820964537,1.820964537,1
2,1.81585148,1.81585148,1.81585148,1
4,1.819272327,1.819272327,1.819272327,1
8,1.821226053,1.821226053,1.821226053,1
EOD
$s4 << EOD
# x,mean,min,max,n
1,0.109267873,0.109267873,0.109267873,1
2,0.1242789,0.1242789,0.1242789,1
4,0.124278132,0.124278132,0.124278132,1
8,0.124653405,0.124653405,0.124653405,1
EOD
plot $s0 using 1:2 with linespoints lw 2 pt 7 title 'policy=barging', \
     $s1 using 1:2 with linespoints lw 2 pt 7 title 'policy=eager', \
     $s2 using 1:2 with linespoints lw 2 pt 7 title 'policy=hot_steal', \
     $s3 using 1:2 with linespoints lw 2 pt 7 title 'policy=delayed', \
     $s4 using 1:2 with linespoints lw 2 pt 7 title 'policy=threshold'
unset output
