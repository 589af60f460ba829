# join_race.rb - at a thread's death, who takes the GVL first: the main
# thread, woken from its Thread#join, or the thread waiting for the GVL,
# signalled at the release?  (docs/import.md, `gc`.)
#
#   ruby scripts/join_race.rb [DEATHS] [LOG]
#
# Per death: w1 computes 3 ms and dies, w2 was created after it and waits for
# the GVL, main joins w1.  CRuby's thread_start_func_2 (thread.c) wakes main
# first (rb_threadptr_join_list_wakeup), then releases the GVL, which
# signals w2.  Prints how often each ran first; LOG (optional) gets one line
# per death: w1's and w2's native thread ids and who ran first, to match
# with `perf sched record` (which CPU each ran on, how long each wake took):
#   perf sched record -- ruby scripts/join_race.rb 100 race.log
deaths = Integer(ARGV.fetch(0, "100"))
log = ARGV[1] && File.open(ARGV[1], "w")

def spin(sec)
  t = Process.clock_gettime(Process::CLOCK_MONOTONIC)
  nil while Process.clock_gettime(Process::CLOCK_MONOTONIC) - t < sec
end

first = Hash.new(0)
deaths.times do
  order = []
  ids = []
  w1 = Thread.new { ids[0] = Thread.current.native_thread_id; spin(0.003) }
  w2 = Thread.new { order << :w2; ids[1] = Thread.current.native_thread_id }
  Thread.pass
  w1.join
  order << :main
  first[order.first] += 1
  w2.join
  log&.puts "#{ids[0]} #{ids[1]} #{order.first}"
end
log&.close
puts "#{deaths} deaths: the waiting thread ran first #{first[:w2]} times, main #{first[:main]}"
