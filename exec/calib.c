/* calib.c - the calibration run: descriptions, pinned threads, futexes,
 * and calib_run, which pins itself to the first CPU and runs every
 * benchmark group. */
#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "../common/err.h"
#include "../common/stats.h"
#include "calib_int.h"

static const struct calib_desc descs[CALIB_COUNT] = {
    [CALIB_BUSY_LOOP] = { "busy_loop_ns", "ns", "busy-loop iteration (the executor's compute loop)" },
    [CALIB_BUSY_LOOP_PAIR] = { "busy_loop_pair_ns", "ns", "busy-loop iteration while both CPUs run it" },
    [CALIB_MUTEX_UNCONTENDED] = { "mutex_uncontended_ns", "ns", "mutex lock + unlock, one thread" },
    [CALIB_MUTEX_CONTENDED] = { "mutex_contended_ns", "ns", "mutex lock + unlock, two CPUs on one mutex" },
    [CALIB_SYSCALL_GETPID] = { "syscall_getpid_ns", "ns", "getpid(2): a bare system call" },
    [CALIB_SYSCALL_STAT] = { "syscall_stat_ns", "ns", "stat(2) of a cached file (File.mtime)" },
    [CALIB_SYSCALL_WRITE] = { "syscall_write_ns", "ns", "write(2) of 1 byte to /dev/null" },
    [CALIB_FILE_WRITE] = { "file_write_ns", "ns", "open + write + close of /dev/null (File.write)" },
    [CALIB_SYSCALL_OPEN] = { "syscall_open_ns", "ns", "open(2) of /dev/null for writing (File.write's flags)" },
    [CALIB_SYSCALL_CLOSE] = { "syscall_close_ns", "ns", "close(2) of such an fd (the file's last reference)" },
    [CALIB_CPU_CLOCK] = { "cpu_clock_read_ns", "ns",
                          "an interval on the thread CPU-time clock with nothing in it (two reads): taken off the CPU "
                          "times of single wakes below" },
    [CALIB_FUTEX_WAKE] = { "futex_wake_ns", "ns", "the waker's CPU time in FUTEX_WAKE, sleeper on its CPU" },
    [CALIB_FUTEX_WAKE_REMOTE] = { "futex_wake_remote_ns", "ns",
                                  "the waker's CPU time in FUTEX_WAKE, sleeper on another CPU" },
    [CALIB_FUTEX_WAKE_NONE] = { "futex_wake_none_ns", "ns", "FUTEX_WAKE of a futex word nobody waits on, one thread" },
    [CALIB_WAKE_IDLE] = { "wake_idle_ns", "ns", "FUTEX_WAKE -> running, sleeper on an idle CPU" },
    [CALIB_WAKE_IDLE_CPU] = { "wake_idle_cpu_ns", "ns",
                              "the sleeper's CPU time in its FUTEX_WAIT, woken on its CPU idle for 10 us" },
    [CALIB_STAT_AFTER_WAKE] = { "syscall_stat_after_wake_ns", "ns",
                                "stat(2) as syscall_stat_ns, by the waker right after that FUTEX_WAKE (not used by a key)" },
    [CALIB_WAKE_BUSY] = { "wake_busy_ns", "ns", "FUTEX_WAKE -> running, sleeper on a busy CPU (when at once)" },
    [CALIB_WAKE_BUSY_PREEMPT] = { "wake_busy_preempt", "fraction", "wakes onto a busy CPU that ran at once" },
    [CALIB_WAKE_PACK_SHORT] = { "wake_pack_short", "fraction",
                                "wakes kept on the waker's busy CPU after an 80 us sleep (wakee last ran there, other "
                                "CPU idle)" },
    [CALIB_WAKE_PACK_LONG] = { "wake_pack_long", "fraction", "the same after a 2.56 ms sleep" },
    [CALIB_WAKE_PACK_SLEEP] = { "wake_pack_sleep_ns", "ns",
                                "sleep length from which most such wakes go to the idle CPU (bisected)" },
    [CALIB_WAKE_PACK_OTHER] = { "wake_pack_other", "fraction",
                                "wakes onto the waker's busy CPU (wakee last ran on the other, idle CPU)" },
    [CALIB_WAKE_PACK_UTIL] = { "wake_pack_util_limit", "fraction",
                               "the waker CPU's busy share (100 ms before) from which a wakee is no longer kept there" },
    [CALIB_HANDOFF_SAME] = { "handoff_same_cpu_ns", "ns", "futex ping-pong hand-off, both threads on one CPU" },
    [CALIB_HANDOFF_SAME_INVOL] = { "handoff_same_cpu_involuntary", "fraction",
                                   "involuntary share of that ping-pong's switches" },
    [CALIB_HANDOFF_CROSS] = { "handoff_cross_cpu_ns", "ns", "futex ping-pong hand-off across two CPUs" },
    [CALIB_HANDOFF_PPOLL] = { "handoff_ppoll_same_cpu_ns", "ns",
                              "eventfd write + ppoll + read ping-pong hand-off, both threads on one CPU" },
    [CALIB_HANDOFF_PPOLL_EXTRA] = { "handoff_ppoll_extra_ns", "ns",
                                    "that hand-off - a futex one, rounds run in pairs" },
    [CALIB_EVENTFD_WAKE_EXTRA] = { "eventfd_wake_extra_ns", "ns",
                                   "the waker's CPU time in write(eventfd) - in FUTEX_WAKE, those ping-pongs" },
    [CALIB_YIELD_SWITCH] = { "yield_switch_ns", "ns", "context switch by sched_yield, two threads on one CPU" },
    [CALIB_WAKE_PREEMPT] = { "wake_preempt", "fraction", "hand-offs on one CPU where the wakee preempts its waker" },
    [CALIB_FUTEX_WAIT_WINDOW] = { "futex_wait_window_ns", "ns",
                                  "FUTEX_WAIT's way in: a store from the other CPU this soon after the call stops the sleep" },
    [CALIB_FUTEX_WAKE_RACE] = { "futex_wake_race_ns", "ns", "FUTEX_WAKE that met a FUTEX_WAIT on its way in (woke nobody)" },
    [CALIB_COND_SECTION] = { "cond_wait_section_ns", "ns",
                             "a condvar waiter's mutex section into pthread_cond_wait: a lock from the other CPU "
                             "this soon after the waiter's finds the mutex held" },
    [CALIB_LINE_PROBE] = { "line_probe_ns", "ns",
                           "the cache-regime probe: a locked add on a line the other CPU stored to, before the "
                           "cache measurements" },
    [CALIB_LINE_TRANSFER] = { "line_transfer_ns", "ns", "atomic increment of a line the other CPU wrote last" },
    [CALIB_LINE_FETCH] = { "line_fetch_ns", "ns", "locked add on a line the other CPU stored to and keeps away from, less one on a line held" },
    [CALIB_INCR_LOCAL] = { "incr_local_ns", "ns", "busy-loop step + thread-local increment" },
    [CALIB_INCR_SHARED] = { "incr_shared_ns", "ns", "busy-loop step + plain increment of one line, two CPUs" },
    [CALIB_TICK_PERIOD] = { "tick_period_ns", "ns", "period of the kernel's timer tick on a busy CPU" },
    [CALIB_TIMESLICE] = { "timeslice_ns", "ns", "run length of a CPU-bound thread sharing its CPU" },
    [CALIB_TIMER_WAKE_CPU] = { "timer_wake_cpu_ns", "ns", "CPU time per wake-up of a 1 ms epoll_wait loop" },
    [CALIB_FREE_OWN] = { "free_own_ns", "ns", "malloc + write + free of a 48-byte chunk, two CPUs, each thread its own chunks, batches with both threads at work" },
    [CALIB_FREE_REMOTE] = { "free_remote_ns", "ns", "the same, each thread freeing the chunks the other thread allocated" },
    [CALIB_LINE_PROBE_END] = { "line_probe_end_ns", "ns", "the same probe after the cache measurements" },
    [CALIB_WAKE_AFTER_IDLE_10US] = { "wake_after_idle_10us_ns", "ns",
                                     "FUTEX_WAKE -> running on a CPU idle for 10 us (the waker spins meanwhile)" },
    [CALIB_WAKE_AFTER_IDLE_30US] = { "wake_after_idle_30us_ns", "ns", "the same, the CPU idle for 30 us" },
    [CALIB_WAKE_AFTER_IDLE_100US] = { "wake_after_idle_100us_ns", "ns", "the same, idle for 100 us" },
    [CALIB_WAKE_AFTER_IDLE_300US] = { "wake_after_idle_300us_ns", "ns", "the same, idle for 300 us" },
    [CALIB_WAKE_AFTER_IDLE_1MS] = { "wake_after_idle_1ms_ns", "ns", "the same, idle for 1 ms" },
    [CALIB_WAKE_AFTER_IDLE_3MS] = { "wake_after_idle_3ms_ns", "ns", "the same, idle for 3 ms" },
    [CALIB_WAKE_AFTER_IDLE_10MS] = { "wake_after_idle_10ms_ns", "ns", "the same, idle for 10 ms" },
    [CALIB_WAKE_AFTER_IDLE_30MS] = { "wake_after_idle_30ms_ns", "ns", "the same, idle for 30 ms" },
    [CALIB_WAKE_WAKING] = { "wake_waking_ns", "ns",
                            "the waker's CPU time in a FUTEX_WAKE onto the CPU a wake of another sleeper is "
                            "waking up (0 .. that wake's latency after it)" },
    [CALIB_WAKE_PREHALT_WINDOW] = { "wake_prehalt_window_ns", "ns",
                                    "from a sleeper's FUTEX_WAIT call on the idle second CPU, the time within which "
                                    "most wakes cost their waker no IPI (its vCPU not yet halted)" },
    [CALIB_WAKE_PREHALT_SHARE] = { "wake_prehalt_share", "",
                                   "of the wakes made 1 us .. that window after the call, the share that cost no IPI" },
    [CALIB_WAKE_PREHALT_RETURN] = { "wake_prehalt_return_ns", "ns",
                                    "for those wakes, from the sleeper's call to its return" },
    [CALIB_WAKE_IPI_AFTER_IDLE_10US] = { "wake_ipi_after_idle_10us_ns", "ns",
                                         "the waker's CPU time in that FUTEX_WAKE, the other CPU idle for 10 us" },
    [CALIB_WAKE_IPI_AFTER_IDLE_30US] = { "wake_ipi_after_idle_30us_ns", "ns", "the same, idle for 30 us" },
    [CALIB_WAKE_IPI_AFTER_IDLE_100US] = { "wake_ipi_after_idle_100us_ns", "ns", "the same, idle for 100 us" },
    [CALIB_WAKE_IPI_AFTER_IDLE_300US] = { "wake_ipi_after_idle_300us_ns", "ns", "the same, idle for 300 us" },
    [CALIB_WAKE_IPI_AFTER_IDLE_1MS] = { "wake_ipi_after_idle_1ms_ns", "ns", "the same, idle for 1 ms" },
    [CALIB_WAKE_IPI_AFTER_IDLE_3MS] = { "wake_ipi_after_idle_3ms_ns", "ns", "the same, idle for 3 ms" },
    [CALIB_WAKE_IPI_AFTER_IDLE_10MS] = { "wake_ipi_after_idle_10ms_ns", "ns", "the same, idle for 10 ms" },
    [CALIB_WAKE_IPI_AFTER_IDLE_30MS] = { "wake_ipi_after_idle_30ms_ns", "ns", "the same, idle for 30 ms" },
    [CALIB_TIMER_LATE_100US] = { "timer_late_100us_ns", "ns",
                                 "a 100 us timed futex wait's deadline -> its return, a busy thread on its CPU" },
    [CALIB_TIMER_LATE_300US] = { "timer_late_300us_ns", "ns", "the same, a 300 us wait" },
    [CALIB_TIMER_LATE_1MS] = { "timer_late_1ms_ns", "ns", "the same, a 1 ms wait" },
    [CALIB_TIMER_LATE_1NS_100US] = { "timer_late_1ns_100us_ns", "ns",
                                     "the 100 us wait with the thread's timer slack set to 1 ns" },
    [CALIB_TIMER_LATE_1NS_300US] = { "timer_late_1ns_300us_ns", "ns", "the same, a 300 us wait" },
    [CALIB_TIMER_LATE_1NS_1MS] = { "timer_late_1ns_1ms_ns", "ns", "the same, a 1 ms wait" },
    [CALIB_TIMER_STALL] = { "timer_stall_ns", "ns",
                            "the busy thread's clock gap at such a 1 ns-slack expiry less the waiter's CPU per wait" },
    [CALIB_STEAL_RATE] = { "hidden_steal_gaps_per_s", "per s",
                           "clock gaps of 8 us or more per second, a pinned thread reading the clock (per 10 ms chunk)" },
    [CALIB_STEAL_LEN] = { "hidden_steal_len_ns", "ns", "those gaps' lengths" },
    [CALIB_STEAL_SHARE] = { "hidden_steal_share", "fraction", "the share of a chunk's time they took" },
    [CALIB_SPEED_WINDOW] = { "speed_window_ns", "ns",
                             "a window of stat(2) calls (the median of its 20 parts of ~50 us, x20), each CPU alone" },
    [CALIB_SPEED_WAKE] = { "speed_wake_ns", "ns",
                           "the waker's CPU time in FUTEX_WAKE, sleeper on the idle CPU, each wake followed by a "
                           "stat(2), in windows of 40 (with two speed levels)" },
    [CALIB_RUBY_INSN] = { "ruby_insn_ns", "ns", "a Ruby VM instruction of the counted loop (compute insns)" },
    [CALIB_RUBY_FILE_MTIME_EXTRA] = { "ruby_file_mtime_extra_ns", "ns",
                                      "File.mtime in that Ruby, GC off, beyond a stat(2) of its file" },
    [CALIB_RUBY_FILE_WRITE_EXTRA] = { "ruby_file_write_extra_ns", "ns",
                                      "File.write to /dev/null in that Ruby, GC off, beyond open + write + close" },
    [CALIB_RUBY_LOOP_GAP] = { "ruby_marker_loop_ns", "ns",
                              "a loop of Process.ppid in that Ruby: a getppid's return to the next call (preload library)" },
    [CALIB_RUBY_MTIME_BEFORE] = { "ruby_file_mtime_before_ns", "ns",
                                  "a loop of File.mtime then Process.ppid: the marker's return to the stat" },
    [CALIB_RUBY_MTIME_AFTER] = { "ruby_file_mtime_after_ns", "ns", "the same loop: the stat's return to the marker" },
    [CALIB_RUBY_WRITE_BEFORE] = { "ruby_file_write_before_ns", "ns",
                                  "a loop of File.write then Process.ppid: the marker's return to the open" },
    [CALIB_RUBY_WRITE_OPEN_WRITE] = { "ruby_file_write_open_write_ns", "ns",
                                      "the same loop: the open's return to the write" },
    [CALIB_RUBY_WRITE_WRITE_CLOSE] = { "ruby_file_write_write_close_ns", "ns",
                                       "the same loop: the write's return to the close" },
    [CALIB_RUBY_WRITE_AFTER] = { "ruby_file_write_after_ns", "ns", "the same loop: the close's return to the marker" },
    [CALIB_RUBY_SWEEP_BODY] = { "ruby_sweep_body_ns", "ns",
                                "the sweep of a dead environment or Proc in that Ruby, beyond a dead plain object's" },
    [CALIB_RUBY_SWEEP_SLOT] = { "ruby_sweep_slot_ns", "ns", "the sweep of a slot holding a dead plain object (Object.new) in that Ruby" },
    [CALIB_RUBY_MARK_BASE] = { "ruby_mark_base_ns", "ns",
                               "a minor GC's marking in that Ruby, no young survivor, less its pages' and its thread's parts" },
    [CALIB_RUBY_MARK_PAGE] = { "ruby_mark_page_ns", "ns",
                               "that marking's part per 409 slots of heap (a 400,000-slot heap against the boot heap)" },
    [CALIB_RUBY_MARK_THREAD] = { "ruby_mark_thread_ns", "ns",
                                 "that marking's part per living thread (64 threads more, parked on a queue)" },
    [CALIB_RUBY_MARK_OBJECT] = { "ruby_mark_object_ns", "ns", "that marking's cost per young survivor" },
    [CALIB_RUBY_ALLOC] = { "ruby_alloc_ns", "ns",
                           "an Object.new's own CPU in `N.times { Object.new }` (the Ruby backend's alloc op), GC off" },
    [CALIB_RUBY_ESCAPE] = { "ruby_escape_ns", "ns",
                            "a call of the Ruby backend's env_escape method (`x = 1; -> { x }`: the environment and "
                            "the lambda's Proc), GC off, less its loop's" },
    [CALIB_RUBY_GC_GAP_1MS] = { "ruby_gc_gap_1ms_ns", "ns",
                                "a minor GC of the boot heap swept at once, 1 ms after the GC before "
                                "(objects allocated in between)" },
    [CALIB_RUBY_GC_GAP_3MS] = { "ruby_gc_gap_3ms_ns", "ns", "the same 3 ms after the GC before" },
    [CALIB_RUBY_GC_GAP_10MS] = { "ruby_gc_gap_10ms_ns", "ns", "the same 10 ms after" },
    [CALIB_RUBY_GC_GAP_30MS] = { "ruby_gc_gap_30ms_ns", "ns", "the same 30 ms after" },
    [CALIB_RUBY_CROSS_COMPUTE] = { "ruby_cross_compute_ns", "ns",
                                   "a minimal Ruby step ([1, 1]) right after a Thread::Queue hand-off from a thread "
                                   "on the other CPU, less the same with both threads on one CPU" },
    [CALIB_RUBY_CROSS_MTIME] = { "ruby_cross_mtime_ns", "ns", "the same of a File.mtime (both threads call it)" },
    [CALIB_RUBY_CROSS_WRITE] = { "ruby_cross_write_ns", "ns",
                                 "the same of a File.write of /dev/null (both threads call it)" },
};

const long long calib_gc_gap_ns[CALIB_GC_GAPS] = { 1000000, 3000000, 10000000, 30000000 };

const long long calib_idle_ns[CALIB_IDLE_LEVELS] = { 10000, 30000, 100000, 300000,
                                                      1000000, 3000000, 10000000, 30000000 };

const char *calib_group_name(enum calib_group g)
{
    switch (g) {
    case CALIB_ONLY_CACHE: return "cache";
    case CALIB_ONLY_RUBY: return "ruby";
    case CALIB_ONLY_SPEED: return "speed";
    default: return NULL;
    }
}

bool calib_in_group(enum calib_group g, enum calib_id id)
{
    switch (id) {
    case CALIB_MUTEX_UNCONTENDED: case CALIB_LINE_PROBE: case CALIB_LINE_TRANSFER: case CALIB_LINE_FETCH:
    case CALIB_INCR_SHARED: case CALIB_FREE_OWN: case CALIB_FREE_REMOTE: case CALIB_LINE_PROBE_END:
        return g == CALIB_ALL || g == CALIB_ONLY_CACHE;
    case CALIB_RUBY_INSN: case CALIB_RUBY_FILE_MTIME_EXTRA: case CALIB_RUBY_FILE_WRITE_EXTRA:
    case CALIB_RUBY_LOOP_GAP: case CALIB_RUBY_MTIME_BEFORE: case CALIB_RUBY_MTIME_AFTER: case CALIB_RUBY_WRITE_BEFORE:
    case CALIB_RUBY_WRITE_OPEN_WRITE: case CALIB_RUBY_WRITE_WRITE_CLOSE: case CALIB_RUBY_WRITE_AFTER:
    case CALIB_RUBY_SWEEP_BODY: case CALIB_RUBY_SWEEP_SLOT: case CALIB_RUBY_MARK_BASE: case CALIB_RUBY_MARK_PAGE:
    case CALIB_RUBY_MARK_THREAD: case CALIB_RUBY_MARK_OBJECT: case CALIB_RUBY_ALLOC: case CALIB_RUBY_ESCAPE:
    case CALIB_RUBY_GC_GAP_1MS:
    case CALIB_RUBY_GC_GAP_3MS: case CALIB_RUBY_GC_GAP_10MS: case CALIB_RUBY_GC_GAP_30MS:
    case CALIB_RUBY_CROSS_COMPUTE: case CALIB_RUBY_CROSS_MTIME: case CALIB_RUBY_CROSS_WRITE:
        return g == CALIB_ALL || g == CALIB_ONLY_RUBY;
    case CALIB_SPEED_WINDOW: case CALIB_SPEED_WAKE:
        return g == CALIB_ALL || g == CALIB_ONLY_SPEED;
    case CALIB_CPU_CLOCK:
        return true;  /* every run: the wakes' CPU times need it */
    default:
        return g == CALIB_ALL;
    }
}

const struct calib_desc *calib_describe(enum calib_id id)
{
    return (unsigned)id < CALIB_COUNT ? &descs[id] : NULL;
}

double calib_budget(const struct calib_ctx *c, double full_s)
{
    return full_s * c->scale;
}

/* Let the calling thread run on CPU a alone, or on a and b (b >= 0). */
static int pin_self(struct calib_ctx *c, int a, int b)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(a, &set);
    if (b >= 0) CPU_SET(b, &set);
    int e = pthread_setaffinity_np(pthread_self(), sizeof set, &set);
    if (e && b < 0) return gv_fail(c->err, c->errlen, GV_ERUN, "cannot pin a thread to CPU %d: %s", a, strerror(e));
    if (e)
        return gv_fail(c->err, c->errlen, GV_ERUN, "cannot let a thread run on CPUs %d and %d: %s", a, b, strerror(e));
    return GV_OK;
}

void calib_name(const char *what)
{
    char name[16];
    snprintf(name, sizeof name, "cal:%s", what);
    prctl(PR_SET_NAME, name, 0, 0, 0);
}

int calib_pin_self(struct calib_ctx *c, int cpu)
{
    return pin_self(c, cpu, -1);
}

int calib_pin_self_pair(struct calib_ctx *c)
{
    return pin_self(c, c->cpu0, c->cpu1);
}

int calib_probe_begin(struct calib_probe_env *e, const char *what, char *err, size_t errlen)
{
    memset(e, 0, sizeof *e);
    if (sched_getaffinity(0, sizeof e->saved, &e->saved) != 0)
        return gv_fail(err, errlen, GV_ERUN, "sched_getaffinity: %s", strerror(errno));
    int cpus[2] = { -1, -1 };
    for (int cpu = 0, k = 0; cpu < CPU_SETSIZE && k < 2; cpu++)
        if (CPU_ISSET(cpu, &e->saved)) cpus[k++] = cpu;
    if (cpus[1] < 0) return gv_fail(err, errlen, GV_EUNSUP, "the %s probe needs two CPUs (the affinity mask has one)", what);
    struct calib_result *r = calloc(1, sizeof *r);   /* calib_ctx wants one; a probe does not fill it */
    if (!r) return gv_fail(err, errlen, GV_ENOMEM, "out of memory");
    e->c = (struct calib_ctx){ .o = &e->o, .r = r, .cpu0 = cpus[0], .cpu1 = cpus[1], .scale = 1.0, .min_rounds = 1,
                               .err = err, .errlen = errlen };
    int rc = calib_pin_self(&e->c, cpus[0]);
    if (rc != GV_OK) calib_probe_end(e);
    else e->c.cpu_clock_ns = calib_cpu_clock_cost(&e->c, false);
    return rc;
}

void calib_probe_end(struct calib_probe_env *e)
{
    sched_setaffinity(0, sizeof e->saved, &e->saved);
    free(e->c.r);
    e->c.r = NULL;
}

int calib_thread_start(struct calib_ctx *c, pthread_t *t, int cpu, void *(*fn)(void *), void *arg)
{
    pthread_attr_t a;
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    if (pthread_attr_init(&a)) return gv_fail(c->err, c->errlen, GV_ENOMEM, "pthread_attr_init failed");
    pthread_attr_setaffinity_np(&a, sizeof set, &set);
    int e = pthread_create(t, &a, fn, arg);
    pthread_attr_destroy(&a);
    if (e) return gv_fail(c->err, c->errlen, GV_ERUN, "cannot start a benchmark thread: %s", strerror(e));
    return GV_OK;
}

bool calib_busy_loop_plausible(const struct calib_stat *solo, const struct calib_stat *pair)
{
    if (!solo->measured || !pair->measured || pair->median <= 0) return true;  /* nothing to compare */
    return solo->median <= CALIB_SOLO_SLOWER_LIMIT * pair->median;
}

void calib_skip(struct calib_stat *st, const char *why)
{
    memset(st, 0, sizeof *st);
    snprintf(st->note, sizeof st->note, "%s", why);
}

void calib_nap_ns(long long ns)
{
    struct timespec ts = { 0, (long)ns };
    nanosleep(&ts, NULL);
}

void calib_allow(int a, int b)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(a, &set);
    if (b >= 0) CPU_SET(b, &set);
    sched_setaffinity(0, sizeof set, &set);
}

void calib_spin_ns(long long ns)
{
    long long end = calib_now_ns() + ns;
    while (calib_now_ns() < end) {
    }
}

long long calib_thread_cpu_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* The thread CPU-time clock is a system call (no vDSO), and an interval it
 * times holds the part of the first read after its sample and the part of
 * the second before it: about one read.  On the AMD EPYC guest (Linux
 * 6.18.44-fc-v1272, 2026-12-05) a read cost 1.37-1.5 us and an empty
 * interval 1.39 us, where a FUTEX_WAKE's wall-clock cost to its waker was
 * 5.6-6.4 us: the CPU-time samples of single wakes gave 7.2-7.5 us, and
 * the model's waker paid that. */
static int clock_round(struct calib_ctx *c, void *ctx, double *v)
{
    (void)c;
    (void)ctx;
    double s[CALIB_CLOCK_READS];
    for (int i = 0; i < CALIB_CLOCK_READS; i++) {
        long long c0 = calib_thread_cpu_ns();
        s[i] = (double)(calib_thread_cpu_ns() - c0);
    }
    stats_sort(s, CALIB_CLOCK_READS);
    *v = s[CALIB_CLOCK_READS / 2];
    return GV_OK;
}

double calib_cpu_clock_cost(struct calib_ctx *c, bool record)
{
    double v = 0;
    if (!record) {
        clock_round(c, NULL, &v);
        return v;
    }
    int rc = calib_rounds(c, CALIB_CPU_CLOCK, 0.05, clock_round, NULL);
    calib_done(c, CALIB_CPU_CLOCK);
    return rc == GV_OK ? c->r->m[CALIB_CPU_CLOCK].median : 0;
}

long long calib_cpu_interval(const struct calib_ctx *c, long long c0, long long c1)
{
    long long d = c1 - c0 - (long long)c->cpu_clock_ns;
    return d > 0 ? d : 0;
}

void calib_futex_wait(atomic_int *w, int val)
{
    while (atomic_load(w) == val) {
        long r = syscall(SYS_futex, (int *)w, FUTEX_WAIT_PRIVATE, val, NULL, NULL, 0);
        if (r == -1 && errno != EAGAIN && errno != EINTR) break;
    }
}

int calib_futex_wake(atomic_int *w, int n)
{
    long r = syscall(SYS_futex, (int *)w, FUTEX_WAKE_PRIVATE, n, NULL, NULL, 0);
    return r < 0 ? 0 : (int)r;
}

unsigned long long calib_rand(unsigned long long *s)
{
    unsigned long long x = *s;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return *s = x;
}

void calib_rounds_order(int *order, int kinds, int per_kind, unsigned long long *rnd)
{
    int n = 0;
    for (int k = 0; k < kinds; k++)
        for (int i = 0; i < per_kind; i++) order[n++] = k;
    for (int i = n - 1; i > 0; i--) {  /* Fisher-Yates */
        int j = (int)(calib_rand(rnd) % (unsigned long long)(i + 1)), x = order[i];
        order[i] = order[j];
        order[j] = x;
    }
}

int calib_rounds(struct calib_ctx *c, enum calib_id id, double full_s,
                 int (*round)(struct calib_ctx *c, void *ctx, double *v), void *ctx)
{
    struct calib_stat *st = &c->r->m[id];
    struct calib_series all = { 0 };
    struct calib_loop l;
    calib_loop_start(&l, calib_budget(c, full_s), c->min_rounds, 200, c->o->max_spread);
    double v = 0;
    int rc;
    while ((rc = round(c, ctx, &v)) == GV_OK) {
        calib_series_add(&all, v);
        if (!calib_loop_more(&l, v)) break;
    }
    calib_series_stat(&all, st);
    calib_loop_end(&l, st);
    calib_series_free(&all);
    if (rc != GV_OK) {
        calib_skip(st, c->err);
        c->err[0] = '\0';
    }
    return rc;
}

void calib_done(struct calib_ctx *c, enum calib_id id)
{
    if (c->o->progress) c->o->progress(c->o->progress_ctx, id, &c->r->m[id]);
}

void calib_skip_ids(struct calib_ctx *c, const enum calib_id *ids, int n, const char *why)
{
    for (int i = 0; i < n; i++) {
        calib_skip(&c->r->m[ids[i]], why);
        calib_done(c, ids[i]);
    }
}

void calib_kinds_start(struct calib_kinds *k, struct calib_ctx *c, const enum calib_id *ids, int n,
                       int decides, double full_s, int min_rounds)
{
    memset(k, 0, sizeof *k);
    k->n = n < CALIB_KINDS_MAX ? n : CALIB_KINDS_MAX;
    k->decides = decides;
    k->ids = ids;
    for (int i = 0; i < k->n; i++)
        calib_loop_start(&k->l[i], calib_budget(c, full_s), min_rounds, 400, c->o->max_spread);
}

void calib_kinds_add(struct calib_kinds *k, int i, double v)
{
    calib_series_add(&k->all[i], v);
    calib_series_add(&k->round[i], v);
}

bool calib_kinds_round_end(struct calib_kinds *k)
{
    bool more = false;
    for (int i = 0; i < k->n; i++) {
        double v = 0, q1, q3;
        /* (out of memory: the round's relative samples are lost, and the
         * spread within rounds is not taken from the rest) */
        if (k->round[i].n && calib_summarise(k->round[i].v, k->round[i].n, &v, &q1, &q3) != GV_OK)
            k->rel[i].oom = true;
        bool m = calib_loop_more(&k->l[i], v);
        if (i == k->decides) more = m;
        calib_series_add_relative(&k->rel[i], &k->round[i], v);
        k->round[i].n = 0;
    }
    return more;
}

void calib_kinds_end(struct calib_kinds *k, struct calib_ctx *c)
{
    for (int i = 0; i < k->n; i++) {
        struct calib_stat *st = &c->r->m[k->ids[i]];
        calib_series_stat(&k->all[i], st);
        calib_stat_within(st, &k->rel[i]);
        calib_loop_end(&k->l[i], st);
        calib_series_free(&k->all[i]);
        calib_series_free(&k->round[i]);
        calib_series_free(&k->rel[i]);
    }
    for (int i = 0; i < k->n; i++) calib_done(c, k->ids[i]);
}

void calib_kinds_finish(struct calib_kinds *k, struct calib_ctx *c, int rc)
{
    if (rc == GV_OK) {
        calib_kinds_end(k, c);
        return;
    }
    for (int i = 0; i < k->n; i++) {
        calib_series_free(&k->all[i]);
        calib_series_free(&k->round[i]);
        calib_series_free(&k->rel[i]);
        calib_series_free(&k->l[i].medians);
    }
    calib_skip_ids(c, k->ids, k->n, c->err);
    c->err[0] = '\0';
}

/* The file a stat op's call reads: the backends stat the scenario's own file
 * (File.mtime(__FILE__) in the benchmark the mtime scenario reproduces) by
 * its absolute path (exec/ruby_run.c, exec/exec_build.c), and a stat(2)
 * costs more the more directories its path walks (on an AMD EPYC guest "/"
 * 2.1 us, "scenarios/mtime_loop.json" 2.2 us, its five-directory absolute
 * path 2.75 us).  So: that scenario beside this executable
 * (DIR/scenarios/mtime_loop.json, as in the source tree), else the
 * executable itself (a regular file some directories deep), else "/". */
void calib_default_stat_path(char *buf, size_t size)
{
    char exe[PATH_MAX], real[PATH_MAX];
    struct stat st;
    snprintf(buf, size, "/");
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0) return;
    exe[n] = '\0';
    char *slash = strrchr(exe, '/');
    if (slash && (size_t)(slash - exe) + sizeof "/scenarios/mtime_loop.json" <= sizeof exe) {
        strcpy(slash, "/scenarios/mtime_loop.json");
        if (realpath(exe, real) && stat(real, &st) == 0 && S_ISREG(st.st_mode) && strlen(real) < size) {
            snprintf(buf, size, "%s", real);
            return;
        }
    }
    if (realpath("/proc/self/exe", real) && strlen(real) < size) snprintf(buf, size, "%s", real);
}

int calib_run(const struct calib_opts *o, struct calib_result *r, char *err, size_t errlen)
{
    memset(r, 0, sizeof *r);
    struct calib_opts defaults;
    if (!o) {
        memset(&defaults, 0, sizeof defaults);
        o = &defaults;
    }
    cpu_set_t saved;
    if (sched_getaffinity(0, sizeof saved, &saved) != 0)
        return gv_fail(err, errlen, GV_ERUN, "sched_getaffinity: %s", strerror(errno));
    r->ncpus_allowed = CPU_COUNT(&saved);
    r->cpus[0] = r->cpus[1] = -1;
    for (int cpu = 0, k = 0; cpu < CPU_SETSIZE && k < 2; cpu++)
        if (CPU_ISSET(cpu, &saved)) r->cpus[k++] = cpu;
    if (r->cpus[0] < 0) return gv_fail(err, errlen, GV_ERUN, "no CPU in the affinity mask");

    struct calib_opts oo = *o;
    if (oo.max_spread <= 0) oo.max_spread = 0.10;
    if (oo.stat_path) snprintf(r->stat_path, sizeof r->stat_path, "%s", oo.stat_path);
    else calib_default_stat_path(r->stat_path, sizeof r->stat_path);
    oo.stat_path = r->stat_path;
    struct calib_ctx c = {
        .o = &oo, .r = r, .cpu0 = r->cpus[0], .cpu1 = r->cpus[1],
        .scale = oo.quick ? 0.25 : 1.0, .min_rounds = oo.quick ? 3 : 5,
        .err = err, .errlen = errlen,
    };
    long long t0 = calib_now_ns();
    char name[16] = "";
    prctl(PR_GET_NAME, name, 0, 0, 0);
    int rc = calib_pin_self(&c, c.cpu0);
    if (rc == GV_OK) c.cpu_clock_ns = calib_cpu_clock_cost(&c, true);
    if (rc == GV_OK && oo.only != CALIB_ALL) {
        const char *group = calib_group_name(oo.only);
        calib_name(group);
        if (oo.only == CALIB_ONLY_CACHE) calib_bench_cache_only(&c);
        else if (oo.only == CALIB_ONLY_SPEED) calib_bench_speed(&c);
        else calib_bench_ruby(&c);
        char note[32];
        snprintf(note, sizeof note, "not run (--only %s)", group);
        for (int i = 0; i < CALIB_COUNT; i++)
            if (!calib_in_group(oo.only, (enum calib_id)i)) calib_skip(&r->m[i], note);
    } else if (rc == GV_OK) {
        calib_name("cpu");
        calib_bench_cpu(&c);
        calib_bench_wake(&c);
        calib_name("timer");
        calib_bench_timer(&c);
        calib_name("ruby");
        calib_bench_ruby(&c);
        /* last: what the start of the run leaves behind (the previous
         * program's exit, the page cache) is over by now */
        calib_name("steal");
        calib_bench_steal(&c);
        calib_name("speed");
        calib_bench_speed(&c);
    }
    prctl(PR_SET_NAME, name, 0, 0, 0);
    sched_setaffinity(0, sizeof saved, &saved);
    r->seconds = (double)(calib_now_ns() - t0) * 1e-9;
    return rc;
}
