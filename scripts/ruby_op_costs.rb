# ruby_op_costs.rb - the CPU one Ruby thread spends, uncontended, on the
# methods the queue ping-pong calls (Thread::Queue#push and #pop, File.write
# of /dev/null) and on the loop around them: the Ruby work that the
# scenarios' computes do not spin and the model charges only as syscall
# `method_work` (docs/validate.md, "What Ruby's own methods cost").  Run it
# pinned, with the Ruby whose costs you want:
#
#   taskset -c 0 ruby scripts/ruby_op_costs.rb [ROUNDS] [N]
#
# Each round times N iterations of each loop on this thread's CPU clock
# (CLOCK_THREAD_CPUTIME_ID, so time the thread spent preempted does not
# count); it prints ns per iteration, min / median / max over the rounds.
# File.write's line also gives the kernel's share of its CPU
# (/proc/thread-self/stat's stime over utime + stime, tick-sampled).
ROUNDS = (ARGV[0] || 10).to_i
N = (ARGV[1] || 200_000).to_i
abort "usage: ruby_op_costs.rb [ROUNDS >= 1] [N >= 4]" if ROUNDS < 1 || N < 4

def cpu = Process.clock_gettime(Process::CLOCK_THREAD_CPUTIME_ID, :nanosecond)

def ticks
  f = File.read("/proc/thread-self/stat").split(") ")[1].split
  [f[11].to_i, f[12].to_i]
end

q = Thread::Queue.new
res = Hash.new { |h, k| h[k] = [] }
nw = N / 4
ROUNDS.times do
  a = cpu; i = 0; while i < N; i += 1; end; res["while loop, per iteration"] << (cpu - a).to_f / N
  a = cpu; i = 0; while i < N; q.push(1); i += 1; end; res["Queue#push (+ loop)"] << (cpu - a).to_f / N
  a = cpu; i = 0; while i < N; q.pop; i += 1; end; res["Queue#pop, non-empty (+ loop)"] << (cpu - a).to_f / N
  a = cpu; i = 0; while i < N; q.push(1); q.pop; i += 1; end; res["Queue#push + #pop (+ loop)"] << (cpu - a).to_f / N
  u0, s0 = ticks
  a = cpu; i = 0; while i < nw; File.write("/dev/null", "0"); i += 1; end
  res["File.write(\"/dev/null\", \"0\") (+ loop)"] << (cpu - a).to_f / nw
  u1, s1 = ticks
  res["File.write: kernel share (ticks)"] << (s1 - s0).to_f / [u1 - u0 + s1 - s0, 1].max
end
puts "#{RUBY_DESCRIPTION}; #{ROUNDS} rounds of #{N} (File.write: #{nw}); CPU per iteration, min / median / max"
res.each do |k, v|
  s = v.sort
  fmt = k.include?("share") ? "%-42s %.2f / %.2f / %.2f" : "%-42s %.1f / %.1f / %.1f ns"
  puts format(fmt, k, s[0], s[s.size / 2], s[-1])
end
