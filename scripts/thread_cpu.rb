# thread_cpu.rb - run COMMAND and print, for each thread of it and of its
# child processes (`gvlsim exec --backend ruby` runs Ruby as one), the CPU it
# used (/proc/PID/task/TID/schedstat: the scheduler's own run time, ns) and
# its voluntary and involuntary switches, as last seen before it ended.  The
# threads are sampled every 2 ms, so a thread's last 2 ms and a thread that
# lived less than that can be missed; a long run (a second or more) makes
# that small.  With -n MSGS the CPU is also given per message.
#
#   taskset -c 0 ruby scripts/thread_cpu.rb [-n MSGS] COMMAND...
#
# (docs/validate.md, "What Ruby's own methods cost": the per-thread CPU of
# the one-CPU ping-pong on the executor and on a real Ruby.)
msgs = nil
if ARGV[0] == "-n"
  ARGV.shift
  msgs = Integer(ARGV.shift, exception: false)
  abort "thread_cpu.rb: -n needs a positive number of messages" unless msgs&.positive?
end
abort "usage: ruby thread_cpu.rb [-n MSGS] COMMAND..." if ARGV.empty?

# pid and its descendants (/proc/PID/task/TID/children)
def family(pid)
  kids = Dir.children("/proc/#{pid}/task").flat_map do |tid|
    File.read("/proc/#{pid}/task/#{tid}/children").split.map(&:to_i)
  rescue SystemCallError
    []
  end
  [pid] + kids.flat_map { |k| family(k) }
rescue SystemCallError
  []
end

def sample(pid, last)
  Dir.children("/proc/#{pid}/task").each do |tid|
    b = "/proc/#{pid}/task/#{tid}/"
    ns = File.read(b + "schedstat").split[0].to_i
    st = File.read(b + "status")
    vol = st[/^voluntary_ctxt_switches:\s+(\d+)/, 1].to_i
    inv = st[/^nonvoluntary_ctxt_switches:\s+(\d+)/, 1].to_i
    last[tid.to_i] = [pid, File.read(b + "comm").strip, ns, vol, inv]
  rescue SystemCallError
    next # the thread ended between the listing and the read
  end
rescue SystemCallError
  nil # the process ended
end

last = {}
pid = Process.spawn(*ARGV, out: File::NULL)
loop do
  family(pid).each { |p| sample(p, last) }
  break if Process.wait(pid, Process::WNOHANG)
  sleep 0.002
end
status = $?
last.sort.each do |tid, (proc, comm, ns, vol, inv)|
  per = msgs ? format("  %8.1f ns/msg", ns.to_f / msgs) : ""
  puts format("pid %-8d tid %-8d %-16s cpu %9.1f ms%s  voluntary %8d  involuntary %8d", proc, tid, comm, ns / 1e6, per, vol, inv)
end
exit(status.exitstatus || 1)
