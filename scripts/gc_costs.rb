# gc_costs.rb - measures the GC and thread costs behind the machine
# profile keys gc_mark_base, gc_mark_per_object, gc_sweep_per_slot and
# thread_create (scenarios/README.md): where the schema's defaults came
# from.  `gvlsim calibrate` now measures the GC's keys itself with its Ruby
# (docs/calibrate.md: a slot to sweep as a dead object's, the marking's
# part per page apart); this script's sweep figure is over a heap of
# mostly free slots.  Run it with the Ruby whose costs you want, on an
# idle machine:
#
#   ruby scripts/gc_costs.rb
#
# Marking is measured in a default heap; sweeping in a second process whose
# heap is large enough (RUBY_GC_HEAP_INIT_SLOTS) that no GC runs while it
# allocates.  Each figure is the median of repeated runs (wall time,
# CLOCK_MONOTONIC).
require "rbconfig"
def median(a) = a.sort[a.size / 2]
def now = Process.clock_gettime(Process::CLOCK_MONOTONIC, :nanosecond)

# A minor GC's pause (marking, sweep left lazy) with n young survivors.
def minor_pause(n)
  21.times.map do
    keep = Array.new(n) { Object.new }
    t0 = now
    GC.start(full_mark: false, immediate_sweep: false)
    t = now - t0
    keep = nil
    GC.start
    t
  end.then { median(_1) }
end

# Sweeping: a minor GC that sweeps at once minus one that leaves it lazy,
# over the heap's slots.
def sweep_cost
  lazy = []
  swept = []
  9.times do
    GC.start
    200_000.times { Object.new }
    t0 = now
    GC.start(full_mark: false, immediate_sweep: false)
    lazy << now - t0
    GC.start
    200_000.times { Object.new }
    t0 = now
    GC.start(full_mark: false, immediate_sweep: true)
    swept << now - t0
  end
  slots = GC.stat[:heap_available_slots]
  puts format("gc_sweep_per_slot   %.1f ns  (%d slots)", (median(swept) - median(lazy)).to_f / slots, slots)
end

if ENV["GC_COSTS_SWEEP"]
  sweep_cost
  exit
end

base = minor_pause(0)
marked = minor_pause(100_000)
puts format("gc_mark_base        %.1f us  (a minor GC, no young survivor)", base / 1e3)
puts format("gc_mark_per_object  %.1f ns  (100,000 young survivors)", (marked - base) / 100_000.0)
system({ "GC_COSTS_SWEEP" => "1", "RUBY_GC_HEAP_INIT_SLOTS" => "1200000" }, RbConfig.ruby, __FILE__)

# Thread.new, the creating thread's time (the new threads park on a queue).
q = Queue.new
per = 11.times.map do
  t0 = now
  threads = 100.times.map { Thread.new { q.pop } }
  t = (now - t0) / 100.0
  100.times { q << 1 }
  threads.each(&:join)
  t
end
puts format("thread_create       %.1f us", median(per) / 1e3)
puts RUBY_DESCRIPTION
