# alloc_overlap.rb - CPU per op of two allocating Ractors while both run at
# once, against while one runs alone, within one run (docs/validate.md,
# proc_heavy).  On a shared host the two Ractors of a 2-CPU run are often not
# running at the same time, so a run's CPU per op mixes both cases; here each
# Ractor records its thread's CPU clock and the wall clock every 1,024 ops,
# and each chunk is classed by how much the other Ractor ran meanwhile.
#
#   taskset -c 0,1 ruby scripts/alloc_overlap.rb MODE SECONDS
#
# MODE as in alloc_ab.rb: proc (`-> { x }`: an environment and a Proc, both
# with a malloc'd body), obj (Object.new), none (the control), nogc, objnogc
# (the same with GC.disable).  Prints, for the chunks where this Ractor ran
# over 80% of the chunk's wall time and the other one over 80% ("both") or
# under 20% ("alone"): the chunks, ops and CPU ns per op.
Warning[:experimental] = false
require_relative "alloc_loop"
MODE = ARGV.fetch(0, "proc").to_sym
SECS = Float(ARGV.fetch(1, "2"))
abort "alloc_overlap.rb: MODE is proc, obj, none, nogc or objnogc" unless ALLOC_MODES.include?(MODE)
GC.disable if MODE == :nogc || MODE == :objnogc
CHUNK = 1024

def work(mode, secs)
  mono = Process::CLOCK_MONOTONIC
  tcpu = Process::CLOCK_THREAD_CPUTIME_ID
  t_end = Process.clock_gettime(mono) + secs
  walls = [Process.clock_gettime(mono)]
  cpus = [Process.clock_gettime(tcpu)]
  loop do
    alloc_chunk(mode, CHUNK)
    walls << Process.clock_gettime(mono)
    cpus << Process.clock_gettime(tcpu)
    break if walls[-1] >= t_end
  end
  [walls, cpus]
end

rs = Array.new(2) { Ractor.new(MODE, SECS) { |m, s| Ractor.receive; work(m, s) } }
sleep 0.05
g0 = GC.count
rs.each { |r| r.send(:go) }
runs = rs.map(&:take)
gcs = GC.count - g0

# Fraction of [s, e] the other Ractor spent on its CPU: its chunks' CPU
# spread evenly over their wall time.
def ran(walls, cpus, s, e)
  i = walls.bsearch_index { |w| w > s } || walls.size
  i = 1 if i < 1
  t = 0.0
  while i < walls.size && walls[i - 1] < e
    a = walls[i - 1]
    b = walls[i]
    ov = [b, e].min - [a, s].max
    t += ov * (cpus[i] - cpus[i - 1]) / (b - a) if ov > 0 && b > a
    i += 1
  end
  t / (e - s)
end

stat = Hash.new { |h, k| h[k] = [0, 0.0] }
runs.each_with_index do |(walls, cpus), me|
  ow, oc = runs[1 - me]
  (1...walls.size).each do |i|
    s = walls[i - 1]
    e = walls[i]
    next unless e > s
    cpu = cpus[i] - cpus[i - 1]
    next if cpu / (e - s) < 0.8
    f = ran(ow, oc, s, e)
    cls = f > 0.8 ? :both : (f < 0.2 ? :alone : :mixed)
    stat[cls][0] += 1
    stat[cls][1] += cpu
  end
end
line = %i[alone both mixed].map do |c|
  n, cpu = stat[c]
  format("%s_chunks=%d %s_cpu_ns_per_op=%.1f", c, n, c, n > 0 ? cpu * 1e9 / (n * CHUNK) : 0)
end
puts "#{MODE} gc=#{gcs} #{line.join(' ')}"
