# plot_sweep_syscall.gp - plot the CSV of scripts/sweep_syscall.sh.
#
#   gnuplot scripts/plot_sweep_syscall.gp
#   gnuplot -e "in='out/sweep_syscall.csv'; out='out/sweep_syscall.png'" scripts/plot_sweep_syscall.gp
#
# Four panels: rows = workload, columns = 1 and 2 cores; x = syscall
# duration (log), one line per GVL policy.
#   mtime2: wall time of 2 threads sharing stat-like calls, relative to
#           eager at the same duration and cores (below 1: faster than eager)
#   io_cpu: I/O calls per second of a thread beside a CPU-bound one
# The duration is read from the scenario column
# ("sweep_syscall/<workload>/dur_us=<D>").

if (!exists("in")) in = 'out/sweep_syscall.csv'
if (!exists("out")) out = 'out/sweep_syscall.png'

set terminal pngcairo size 1400,1000 font ",10" noenhanced
set output out
set datafile separator ","
set datafile missing NaN  # rows of other series: skipped, lines go on
set key top left font ",9"
set grid
set logscale x
set logscale y
set format x "%g"
set xlabel "syscall duration (µs)"

policies = "eager hot_steal delayed threshold barging"
dur(s) = real(s[strstrt(s, "dur_us=") + 7:])
is(w, p, c) = strstrt(strcol(1), "/".w."/") > 0 && strcol(4) eq p && column(7) == c
# eager's mtime2 wall time per (duration, cores), for the ratios: a first
# pass stores it by cores and tenth of a decade of the duration
array E[200]
slot(d, c) = (c - 1) * 100 + int(floor(log10(d) * 10 + 0.5)) + 20
keep(d, c, v) = (E[slot(d, c)] = v, 0)
stats in skip 1 using (is("mtime2", "eager", column(7)) ? keep(dur(strcol(1)), column(7), column(11)) : 0) nooutput
rel_eager(p, c) = is("mtime2", p, c) ? column(11) / E[slot(dur(strcol(1)), c)] : NaN
io_rate(p, c) = is("io_cpu", p, c) ? column(31) : NaN

set multiplot layout 2,2 title "GVL policy vs syscall duration (scripts/sweep_syscall.sh)"

do for [c = 1:2] {
    set title sprintf("mtime2: 2 threads, stat-like calls on the CPU, %d core%s", c, c == 1 ? "" : "s")
    set ylabel "wall time relative to eager"
    plot for [i = 1:words(policies)] in skip 1 using (dur(strcol(1))):(rel_eager(word(policies, i), c)) \
         with linespoints title word(policies, i)
}
do for [c = 1:2] {
    set title sprintf("io_cpu: I/O calls (sleeping in the kernel) beside a CPU-bound thread, %d core%s", c, c == 1 ? "" : "s")
    set ylabel "I/O calls per second"
    plot for [i = 1:words(policies)] in skip 1 using (dur(strcol(1))):(io_rate(word(policies, i), c)) \
         with linespoints title word(policies, i)
}
unset multiplot
