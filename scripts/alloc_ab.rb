# alloc_ab.rb - what allocation costs two Ractors (docs/validate.md, proc_heavy).
#
#   ruby scripts/alloc_ab.rb MODE RACTORS SECONDS
#
# Each Ractor loops a short busy loop and then, by MODE:
#   proc    `-> { x }` from a method: an environment and a Proc, both with a
#           malloc'd body (the proc_heavy loop)
#   obj     Object.new: one object, nothing malloc'd
#   none    nothing: the control
#   nogc    proc with GC.disable (the heap grows; keep SECONDS short)
#   objnogc obj with GC.disable
# and prints, per op: CPU time of the process, voluntary and involuntary
# switches of all its threads, GC counts and objects allocated (GC.stat).
# Compare one CPU with two, interleaved, for example:
#   for i in 1 2 3; do for c in 0 0,1; do
#     perf stat -e syscalls:sys_enter_futex taskset -c $c ruby scripts/alloc_ab.rb proc 2 1
#   done; done
# and count the VM lock's page refills with a uprobe (perf probe -x
# libruby-3.1.so 'lockcr=ADDRESS' at rb_vm_lock_enter_body_cr, from nm -D).
Warning[:experimental] = false
require_relative "alloc_loop"
MODE = ARGV.fetch(0, "proc").to_sym
N = Integer(ARGV.fetch(1, "2"))
SECS = Float(ARGV.fetch(2, "1"))
abort "alloc_ab.rb: MODE is proc, obj, none, nogc or objnogc" unless ALLOC_MODES.include?(MODE)
GC.disable if MODE == :nogc || MODE == :objnogc

def work(mode, secs)
  t_end = Process.clock_gettime(Process::CLOCK_MONOTONIC) + secs
  ops = 0
  loop do
    alloc_chunk(mode, 1024)
    ops += 1024
    break if Process.clock_gettime(Process::CLOCK_MONOTONIC) >= t_end
  end
  ops
end

def switches
  v = iv = 0
  Dir.children("/proc/self/task").each do |t|
    s = File.read("/proc/self/task/#{t}/status")
    v += s[/^voluntary_ctxt_switches:\s+(\d+)/, 1].to_i
    iv += s[/^nonvoluntary_ctxt_switches:\s+(\d+)/, 1].to_i
  end
  [v, iv]
end

rs = Array.new(N) { Ractor.new(MODE, SECS) { |m, s| Ractor.receive; work(m, s) } }
sleep 0.05
g0 = GC.stat
s0 = switches
c0 = Process.clock_gettime(Process::CLOCK_PROCESS_CPUTIME_ID)
t0 = Process.clock_gettime(Process::CLOCK_MONOTONIC)
rs.each { |r| r.send(:go) }
ops = rs.sum(&:take)
t1 = Process.clock_gettime(Process::CLOCK_MONOTONIC)
c1 = Process.clock_gettime(Process::CLOCK_PROCESS_CPUTIME_ID)
s1 = switches
g1 = GC.stat
d = ->(k) { g1[k] - g0[k] }
printf("%s ractors=%d ops=%d ops_per_s=%.0f cpu_ns_per_op=%.1f vol_per_op=%.6f invol_per_op=%.6f " \
       "gc=%d minor=%d major=%d objects_per_op=%.3f ops_per_gc=%.0f heap_pages=%d\n",
       MODE, N, ops, ops / (t1 - t0), (c1 - c0) * 1e9 / ops, (s1[0] - s0[0]).to_f / ops,
       (s1[1] - s0[1]).to_f / ops, d[:count], d[:minor_gc_count], d[:major_gc_count],
       d[:total_allocated_objects].to_f / ops, d[:count] > 0 ? ops.to_f / d[:count] : 0,
       g1[:heap_allocated_pages])
