/* schema.c - the format tables and the validator that walks them. */
#include "schema.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdbool.h>
#include <string.h>

#include "../common/err.h"
#include "jptr.h"
#include "ruby_version.h"
#include "scenario.h"
#include "units.h"

#define HOUR (3600 * SIM_S)
#define DAY (24 * HOUR)
#define OP_DUR_MAX DAY   /* op durations: beyond a day is a typo, and sums stay far from overflow */
#define NKEYS(a) ((int)(sizeof a / sizeof a[0]))
#define SCH_MAX_KEYS 80

/* ---- tables --------------------------------------------------------------- */

#define M_DUR(key, d, field) \
    { .name = key, .kind = SCH_DUR, .def = d, .min = 0, .max = HOUR, \
      .off = offsetof(struct scn_machine, field) }
#define M_DUR_POS(key, d, field) \
    { .name = key, .kind = SCH_DUR, .flags = SCH_POSITIVE, .def = d, .max = HOUR, \
      .off = offsetof(struct scn_machine, field) }

/* What `gvlsim calibrate` records beside the keys it derives: the host, every
 * measurement (median and quartiles of its samples), and each key's
 * derivation.  Validated so that a hand-edited record stays readable;
 * nothing here changes a simulation. */
#define C_STR(key) { .name = key, .kind = SCH_STRING, .off = SCH_NOFF }
#define C_NUM(key) { .name = key, .kind = SCH_NUMBER, .flags = SCH_ZERO_OK, .dmax = 1e15, .off = SCH_NOFF }
#define C_SNUM(key) { .name = key, .kind = SCH_NUMBER, .flags = SCH_SIGNED, .dmax = 1e15, .off = SCH_NOFF }
#define C_INT(key) { .name = key, .kind = SCH_INT, .min = 0, .max = 1000000000, .off = SCH_NOFF }
static const struct sch_key calib_host_keys[] = {
    C_STR("cpu"), C_INT("cpus_online"), C_INT("cpus_allowed"), C_STR("kernel"),
    C_STR("kernel_version"), C_STR("arch"), C_STR("libc"), C_INT("config_hz"), C_STR("date"),
    C_STR("command"), { .name = "quick", .kind = SCH_BOOL, .off = SCH_NOFF }, C_NUM("seconds"),
};
static const struct sch_obj calib_host_obj = { "calibration host", calib_host_keys, NKEYS(calib_host_keys) };
static const struct sch_key calib_meas_keys[] = {
    { .name = "name", .kind = SCH_STRING, .flags = SCH_REQUIRED, .off = SCH_NOFF },
    /* a measurement can be a difference (handoff_ppoll_extra_ns): any sign */
    C_STR("unit"), C_STR("what"), C_SNUM("median"), C_SNUM("q1"), C_SNUM("q3"), C_INT("samples"),
    C_INT("rounds"), C_NUM("round_spread"), C_NUM("within_spread"),
    { .name = "stable", .kind = SCH_BOOL, .off = SCH_NOFF }, C_STR("note"),
};
static const struct sch_obj calib_meas_obj = { "measurement", calib_meas_keys, NKEYS(calib_meas_keys) };
static const struct sch_key calib_key_keys[] = {
    { .name = "key", .kind = SCH_STRING, .flags = SCH_REQUIRED, .off = SCH_NOFF },
    C_STR("value"), { .name = "measured", .kind = SCH_BOOL, .off = SCH_NOFF }, C_STR("derivation"),
};
static const struct sch_obj calib_key_obj = { "derived key", calib_key_keys, NKEYS(calib_key_keys) };
static const struct sch_key calibration_keys[] = {
    { .name = "host", .kind = SCH_OBJECT, .obj = &calib_host_obj, .off = SCH_NOFF },
    { .name = "measurements", .kind = SCH_ARRAY, .min = 0, .obj = &calib_meas_obj, .off = SCH_NOFF },
    { .name = "keys", .kind = SCH_ARRAY, .min = 0, .obj = &calib_key_obj, .off = SCH_NOFF },
    { .name = "warnings", .kind = SCH_INT, .min = 0, .max = 1000, .off = SCH_NOFF },
};
static const struct sch_obj calibration_obj = { "calibration", calibration_keys, NKEYS(calibration_keys) };

/* "syscalls": this machine's CPU time of each real system call a syscall op
 * names, by its "call" name (scn_call_names; not nanosleep, which is a wait
 * of the op's own dur, not a cost).  No defaults: a syscall op with "dur":
 * "machine" needs its call's key (check_op).  The builder fills
 * scn_machine.syscall_cost from them (sch_machine_syscall). */
#define M_CALL(key) { .name = key, .kind = SCH_DUR, .min = 0, .max = HOUR, .off = SCH_NOFF }
static const struct sch_key syscalls_keys[] = {
    M_CALL("stat"), M_CALL("write_devnull"), M_CALL("getpid"), M_CALL("open_devnull"), M_CALL("close"),
};
const struct sch_obj sch_syscalls = { "syscalls", syscalls_keys, NKEYS(syscalls_keys) };

/* "method_work": this machine's CPU of the Ruby method the Ruby backend
 * runs for a syscall op, beyond the method's system calls, by the op's
 * "call" name, holding the GVL before the call: "stat" File.mtime's before
 * its stat, "open_devnull" File.write's before its open, "write_devnull"
 * and "close" File.write's between its open and write and between its write
 * and close (its open, write and close are three ops).  "method_work_after":
 * the same after the call ("stat": File.mtime's Time, "close": what
 * File.write does after its close).  No defaults: a syscall op with
 * "method_work": "machine" needs its call's key (check_syscall).  The
 * builder fills scn_machine.method_work_cost and method_work_after_cost. */
static const struct sch_key method_work_keys[] = {
    M_CALL("stat"), M_CALL("open_devnull"), M_CALL("write_devnull"), M_CALL("close"),
};
const struct sch_obj sch_method_work = { "method_work", method_work_keys, NKEYS(method_work_keys) };
const struct sch_obj sch_method_work_after = { "method_work_after", method_work_keys, NKEYS(method_work_keys) };
/* "method_after_idle": what that method costs more as its thread's first
 * work after it arrived on an idle core (`gvlsim calibrate`: right after a
 * hand-off from a thread on the other CPU, less on one CPU): "stat"
 * File.mtime's, "open_devnull" File.write's whole (its first call).
 * Optional: a call without a key adds nothing.  The builder fills
 * scn_machine.method_after_idle_cost; a syscall op with "method_work":
 * "machine" takes it (models/thread.c). */
const struct sch_obj sch_method_after_idle = { "method_after_idle", method_work_keys,
                                               NKEYS(method_work_keys) };

/* "profile" first: sch_machine_profile is this table without it. */
static const struct sch_key machine_keys[] = {
    { .name = "profile", .kind = SCH_STRING, .off = SCH_NOFF },
    { .name = "name", .kind = SCH_STRING, .off = offsetof(struct scn_machine, name) },
    { .name = "source", .kind = SCH_STRING, .flags = SCH_FREE_TEXT, .def = "",
      .off = offsetof(struct scn_machine, source) },
    { .name = "description", .kind = SCH_STRING, .flags = SCH_FREE_TEXT, .off = SCH_NOFF },
    { .name = "cores", .kind = SCH_INT, .def = "8", .min = 1, .max = 4096,
      .off = offsetof(struct scn_machine, cores) },
    M_DUR("context_switch", "1.5us", context_switch),
    M_DUR("futex_wake", "1us", futex_wake),
    M_DUR("futex_wake_none", "0ns", futex_wake_none),
    /* a FUTEX_WAIT's way in and a FUTEX_WAKE that meets one there, each
     * drawn per wait from equally likely values (models/vm.h
     * vm_futex_wait_entry, vm_futex_wake_race); absent: futex_wake_none */
    { .name = "futex_wait_window", .kind = SCH_DURS, .max = SIM_S, .dmax = GV_CURVE_MAX,
      .off = offsetof(struct scn_machine, futex_wait_window) },
    { .name = "futex_wake_race", .kind = SCH_DURS, .max = SIM_S, .dmax = GV_CURVE_MAX,
      .off = offsetof(struct scn_machine, futex_wake_race) },
    /* a condvar waiter's mutex section, drawn per section (models/gvl.c
     * to_running_section); absent: an instant */
    { .name = "cond_wait_section", .kind = SCH_DURS, .max = SIM_S, .dmax = GV_CURVE_MAX,
      .off = offsetof(struct scn_machine, cond_wait_section) },
    M_DUR("wake_ipi", "0ns", wake_ipi),
    { .name = "wake_ipi_extra", .kind = SCH_CURVE, .max = SIM_S,
      .off = offsetof(struct scn_machine, wake_ipi_extra) },
    { .name = "wake_waking", .kind = SCH_DURS, .max = SIM_S, .dmax = GV_CURVE_MAX,
      .off = offsetof(struct scn_machine, wake_waking) },
    /* a wake before an idle vCPU halted (sim/machine.c, prehalt_wake) */
    M_DUR("wake_prehalt_window", "0ns", wake_prehalt_window),
    { .name = "wake_prehalt_share", .kind = SCH_NUMBER, .flags = SCH_ZERO_OK, .def = "1", .dmax = 1.0,
      .off = offsetof(struct scn_machine, wake_prehalt_share) },
    M_DUR("wake_prehalt_return", "0ns", wake_prehalt_return),
    M_DUR("futex_wake_chain", "0ns", futex_wake_chain),
    M_DUR("ppoll_wake_extra", "0ns", ppoll_wake_extra),
    M_DUR("ppoll_return", "0ns", ppoll_return),
    M_DUR("wake_idle_core", "25us", wake_idle_core),
    M_DUR("wake_idle_cpu", "0ns", wake_idle_cpu),
    M_DUR("wake_busy_core", "2us", wake_busy_core),
    { .name = "wake_jitter", .kind = SCH_NUMBER, .flags = SCH_ZERO_OK, .def = "0.5", .dmax = 1.0,
      .off = offsetof(struct scn_machine, wake_jitter) },
    { .name = "wake_idle_extra", .kind = SCH_CURVE, .max = SIM_S,
      .off = offsetof(struct scn_machine, wake_idle_extra) },
    { .name = "wake_pack", .kind = SCH_NUMBER, .flags = SCH_ZERO_OK, .def = "0", .dmax = 1.0,
      .off = offsetof(struct scn_machine, wake_pack) },
    M_DUR("wake_pack_sleep", "0", wake_pack_sleep),
    { .name = "wake_pack_util", .kind = SCH_NUMBER, .flags = SCH_ZERO_OK, .def = "0", .dmax = 1.0,
      .off = offsetof(struct scn_machine, wake_pack_util) },
    /* hidden steal (sim/machine.h): gaps per second of a busy core, and
     * their lengths (at most MACH_STEAL_LENS, equally likely); a rate
     * needs lengths (check_steal) */
    { .name = "hidden_steal_rate", .kind = SCH_NUMBER, .flags = SCH_ZERO_OK, .def = "0", .dmax = 1e6,
      .off = offsetof(struct scn_machine, hidden_steal_rate) },
    { .name = "hidden_steal_len", .kind = SCH_DURS, .min = 1, .max = SIM_S, .dmax = GV_CURVE_MAX,
      .off = offsetof(struct scn_machine, hidden_steal_len) },
    M_DUR_POS("os_timeslice", "3ms", os_timeslice),
    { .name = "os_scheduler", .kind = SCH_ENUM, .def = "fifo", .values = scn_os_scheduler_names,
      .off = offsetof(struct scn_machine, os_scheduler) },
    M_DUR_POS("os_tick", "4ms", os_tick),
    { .name = "work_scale", .kind = SCH_NUMBER, .def = "1.0", .dmax = 1000.0,
      .off = offsetof(struct scn_machine, work_scale) },
    { .name = "corun_slowdown", .kind = SCH_NUMBER, .def = "1.0", .dmin = 1.0, .dmax = 100.0,
      .off = offsetof(struct scn_machine, corun_slowdown) },
    /* a core's speed levels (sim/machine.h): each level's factor on the
     * time work takes, and its mean dwell, the two lists of one length
     * (check_speed); the builder fills scn_machine.speed_levels */
    { .name = "speed_levels", .kind = SCH_WEIGHTS, .min = 2, .dmax = SCN_SPEED_LEVELS, .off = SCH_NOFF },
    { .name = "speed_dwell", .kind = SCH_DURS, .min = 2, .max = HOUR, .dmax = SCN_SPEED_LEVELS,
      .off = offsetof(struct scn_machine, speed_dwell) },
    { .name = "speed_wake_share", .kind = SCH_NUMBER, .flags = SCH_ZERO_OK, .def = "1", .dmax = 2.0,
      .off = offsetof(struct scn_machine, speed_wake_share) },
    M_DUR("timer_tick_cost", "1us", timer_tick_cost),
    M_DUR("timer_slack", "50us", timer_slack),
    { .name = "timer_wake", .kind = SCH_DUR, .min = 0, .max = HOUR,
      .off = offsetof(struct scn_machine, timer_wake) },  /* absent: SCN_DUR_UNSET */
    { .name = "timer_stall", .kind = SCH_DUR, .min = 0, .max = HOUR,
      .off = offsetof(struct scn_machine, timer_stall) },  /* absent: SCN_DUR_UNSET */
    M_DUR("mutex_uncontended", "40ns", mutex_uncontended),
    M_DUR("lock_line", "0ns", lock_line),
    M_DUR("sched_lock_cs", "75ns", sched_lock_cs),
    M_DUR("remote_rmw", "100ns", remote_rmw),
    M_DUR("safepoint_gap", "0.5us", safepoint_gap),
    M_DUR("escape_check_cs", "0.3us", escape_check_cs),
    M_DUR("lockless_check", "1ns", lockless_check),
    { .name = "mutex_impl", .kind = SCH_ENUM, .def = "glibc", .values = scn_mutex_impl_names,
      .off = offsetof(struct scn_machine, mutex_impl) },
    M_DUR_POS("insn_time", "7ns", insn_time),
    M_DUR("line_transfer", "90ns", line_transfer),
    M_DUR("free_remote", "0ns", free_remote),
    /* the cache regime the cache keys were measured in (calib_line_probe):
     * no simulation reads it; `validate` compares its real runs' probe */
    M_DUR("cache_probe", "0ns", cache_probe),
    { .name = "line_store_batch", .kind = SCH_INT, .def = "1", .min = 1, .max = 1000000,
      .off = offsetof(struct scn_machine, line_store_batch) },
    M_DUR("tls_insn_overhead", "0.5ns", tls_insn_overhead),
    M_DUR("coroutine_switch", "0.3us", coroutine_switch),
    M_DUR("thread_create", "6us", thread_create),
    M_DUR("alloc_object", "0ns", alloc_object),
    M_DUR("env_escape_work", "0ns", env_escape_work),
    M_DUR("compute_after_idle", "0ns", compute_after_idle),
    M_DUR("gc_mark_base", "43us", gc_mark_base),
    M_DUR("gc_mark_per_object", "15ns", gc_mark_per_object),
    M_DUR("gc_mark_per_page", "0ns", gc_mark_per_page),
    M_DUR("gc_mark_per_thread", "0ns", gc_mark_per_thread),
    M_DUR("gc_sweep_per_slot", "16ns", gc_sweep_per_slot),
    M_DUR("gc_free_body", "0ns", gc_free_body),
    { .name = "gc_cold", .kind = SCH_CURVE, .max = SIM_S,
      .off = offsetof(struct scn_machine, gc_cold) },
    { .name = "syscalls", .kind = SCH_OBJECT, .obj = &sch_syscalls, .off = SCH_NOFF },
    { .name = "method_work", .kind = SCH_OBJECT, .obj = &sch_method_work, .off = SCH_NOFF },
    { .name = "method_work_after", .kind = SCH_OBJECT, .obj = &sch_method_work_after, .off = SCH_NOFF },
    { .name = "method_after_idle", .kind = SCH_OBJECT, .obj = &sch_method_after_idle, .off = SCH_NOFF },
    { .name = "calibration", .kind = SCH_OBJECT, .obj = &calibration_obj, .off = SCH_NOFF },
};
_Static_assert(NKEYS(machine_keys) <= SCH_MAX_KEYS, "raise SCH_MAX_KEYS");

const struct sch_obj sch_machine = { "machine", machine_keys, NKEYS(machine_keys) };
const struct sch_obj sch_machine_profile = { "machine profile", machine_keys + 1,
                                             NKEYS(machine_keys) - 1 };

#define R_ENUM(key, names, d, field) \
    { .name = key, .kind = SCH_ENUM, .def = d, .values = names, \
      .off = offsetof(struct scn_runtime, field) }

static const struct sch_key runtime_keys[] = {
    R_ENUM("gvl_policy", scn_policy_names, "eager", gvl_policy),
    { .name = "quantum", .kind = SCH_DUR, .flags = SCH_POSITIVE, .def = "100ms", .max = HOUR,
      .off = offsetof(struct scn_runtime, quantum) },
    { .name = "timer_tick", .kind = SCH_DUR, .flags = SCH_POSITIVE, .def = "10ms", .max = HOUR,
      .off = offsetof(struct scn_runtime, timer_tick) },
    { .name = "threshold", .kind = SCH_DUR, .def = "100us", .max = HOUR,
      .off = offsetof(struct scn_runtime, threshold) },
    R_ENUM("invariant_check", scn_invariant_names, "none", invariant_check),
    R_ENUM("insn_counter", scn_counter_names, "none", insn_counter),
    R_ENUM("counter_model", scn_counter_model_names, "line", counter_model),
    R_ENUM("alloc_counters", scn_alloc_counters_names, "local", alloc_counters),
    { .name = "max_cpu", .kind = SCH_INT, .def = "8", .min = 1, .max = 4096,
      .off = offsetof(struct scn_runtime, max_cpu) },
    R_ENUM("snt_cap", scn_snt_cap_names, "exact", snt_cap),
    { .name = "mn_main", .kind = SCH_BOOL, .def = "false", .off = offsetof(struct scn_runtime, mn_main) },
    { .name = "gc_heap_init_slots", .kind = SCH_INT, .def = "10000", .min = 1, .max = 1000000000,
      .off = offsetof(struct scn_runtime, gc_heap_init_slots) },
    { .name = "gc_heap_growth_factor", .kind = SCH_NUMBER, .def = "1.8", .dmax = 100.0,
      .off = offsetof(struct scn_runtime, gc_heap_growth_factor) },
    { .name = "gc_boot_objects", .kind = SCH_INT, .def = "0", .min = 0, .max = 1000000000,
      .off = offsetof(struct scn_runtime, gc_boot_objects) },
    { .name = "yjit", .kind = SCH_BOOL, .def = "false", .off = offsetof(struct scn_runtime, yjit) },
    { .name = "event_hook", .kind = SCH_DUR, .def = "0", .max = SIM_S,
      .off = offsetof(struct scn_runtime, event_hook) },
    { .name = "event_hook_flush", .kind = SCH_DUR, .def = "0", .max = SIM_S,
      .off = offsetof(struct scn_runtime, event_hook_flush) },
    { .name = "event_hook_flush_every", .kind = SCH_INT, .def = "0", .min = 0, .max = 1000000000,
      .off = offsetof(struct scn_runtime, event_hook_flush_every) },
    { .name = "ruby", .kind = SCH_RUBY, .off = SCH_NOFF },
};

const struct sch_obj sch_runtime = { "runtime", runtime_keys, NKEYS(runtime_keys) };

/* Distribution objects, indexed by enum scn_dist_kind. */
#define DIST_KEY { .name = "dist", .kind = SCH_ENUM, .flags = SCH_REQUIRED, .values = scn_dist_names, \
                   .off = SCH_NOFF }
#define DIST_DUR(key) { .name = key, .kind = SCH_DUR, .flags = SCH_REQUIRED, .max = OP_DUR_MAX, \
                        .off = SCH_NOFF }
static const struct sch_key dist_const_keys[] = { DIST_KEY, DIST_DUR("value") };
static const struct sch_key dist_uniform_keys[] = { DIST_KEY, DIST_DUR("min"), DIST_DUR("max") };
static const struct sch_key dist_exp_keys[] = { DIST_KEY, DIST_DUR("mean") };
/* lognormal: exactly one of median and mean (check_dist) */
static const struct sch_key dist_lognormal_keys[] = {
    DIST_KEY,
    { .name = "median", .kind = SCH_DUR, .max = OP_DUR_MAX, .off = SCH_NOFF },
    { .name = "mean", .kind = SCH_DUR, .max = OP_DUR_MAX, .off = SCH_NOFF },
    { .name = "sigma", .kind = SCH_NUMBER, .flags = SCH_REQUIRED | SCH_ZERO_OK, .dmax = 10.0, .off = SCH_NOFF },
};
#define DIST_MAX_VALUES 100000
static const struct sch_key dist_empirical_keys[] = {
    DIST_KEY,
    { .name = "values", .kind = SCH_DURS, .flags = SCH_REQUIRED, .min = 1, .max = OP_DUR_MAX, .off = SCH_NOFF },
    { .name = "weights", .kind = SCH_WEIGHTS, .off = SCH_NOFF },
};
static const struct sch_obj dist_objs[] = {
    { "distribution", dist_const_keys, NKEYS(dist_const_keys) },
    { "distribution", dist_uniform_keys, NKEYS(dist_uniform_keys) },
    { "distribution", dist_exp_keys, NKEYS(dist_exp_keys) },
    { "distribution", dist_lognormal_keys, NKEYS(dist_lognormal_keys) },
    { "distribution", dist_empirical_keys, NKEYS(dist_empirical_keys) },
};
_Static_assert(NKEYS(dist_objs) == DIST_KIND_COUNT, "one table per distribution");

/* Ops, indexed by enum scn_op_kind.  "op" itself is checked first.  Every
 * op may say where it comes from ("trace": gvlsim import writes it); the
 * simulator never reads it. */
#define OP_KEY { .name = "op", .kind = SCH_STRING, .flags = SCH_REQUIRED, .off = SCH_NOFF }
#define OP_TRACE { .name = "trace", .kind = SCH_STRING, .off = SCH_NOFF }
#define OP_DIST(flags_) { .name = "dur", .kind = SCH_DIST, .flags = flags_, .off = SCH_NOFF }

static const struct sch_key compute_keys[] = {
    OP_KEY, OP_DIST(0),
    { .name = "insns", .kind = SCH_INT, .min = 0, .max = 1000000000000000LL, .off = SCH_NOFF },
    OP_TRACE,
};
static const struct sch_key syscall_keys[] = {
    OP_KEY, OP_DIST(SCH_REQUIRED | SCH_MACHINE_OK),
    { .name = "call", .kind = SCH_ENUM, .def = "getpid", .values = scn_call_names, .off = SCH_NOFF },
    { .name = "releases_gvl", .kind = SCH_BOOL, .def = "true", .off = SCH_NOFF },
    { .name = "io_wait", .kind = SCH_BOOL, .off = SCH_NOFF },
    { .name = "allocates", .kind = SCH_INT, .min = 0, .max = 1000000000000LL, .off = SCH_NOFF },
    { .name = "method_work", .kind = SCH_DUR, .flags = SCH_MACHINE_OK, .def = "0ns", .min = 0, .max = OP_DUR_MAX,
      .off = SCH_NOFF },
    { .name = "method_work_after", .kind = SCH_DUR, .flags = SCH_MACHINE_OK, .def = "0ns", .min = 0,
      .max = OP_DUR_MAX, .off = SCH_NOFF },
    OP_TRACE,
};
static const struct sch_key queue_op_keys[] = {
    OP_KEY, { .name = "queue", .kind = SCH_QUEUE, .flags = SCH_REQUIRED, .off = SCH_NOFF }, OP_TRACE,
};
static const struct sch_key queue_pop_keys[] = {
    OP_KEY, { .name = "queue", .kind = SCH_QUEUE, .flags = SCH_REQUIRED, .off = SCH_NOFF },
    { .name = "timeout", .kind = SCH_DUR, .max = OP_DUR_MAX, .off = SCH_NOFF }, OP_TRACE,
};
#define LATENCY_FROM { .name = "latency_from", .kind = SCH_ENUM, .def = "start", \
                       .values = sch_latency_from_names, .off = SCH_NOFF }
static const char *const sch_latency_from_names[] = { "start", "pop", NULL };
static const char *const sch_on_timeout_names[] = { "continue", "raise", NULL };
static const struct sch_key sleep_keys[] = { OP_KEY, OP_DIST(SCH_REQUIRED), OP_TRACE };
static const struct sch_key loop_keys[] = {
    OP_KEY,
    { .name = "times", .kind = SCH_INT, .min = 0, .max = 1000000000000000LL, .off = SCH_NOFF },
    { .name = "times_total", .kind = SCH_INT, .min = 0, .max = SCH_INT_MAX, .off = SCH_NOFF },
    { .name = "forever", .kind = SCH_TRUE, .off = SCH_NOFF },
    { .name = "body", .kind = SCH_OPS, .flags = SCH_REQUIRED, .min = 1, .off = SCH_NOFF },
    { .name = "measure", .kind = SCH_MEASURE_OR_BOOL, .def = "false", .off = SCH_NOFF },
    LATENCY_FROM, OP_TRACE,
};
static const struct sch_key env_escape_keys[] = {
    OP_KEY,
    { .name = "iseq", .kind = SCH_INT, .flags = SCH_REQUIRED, .min = 0, .max = 1000000, .off = SCH_NOFF },
    OP_TRACE,
};
static const struct sch_key join_keys[] = {
    OP_KEY, { .name = "thread", .kind = SCH_TMPL, .off = SCH_NOFF }, OP_TRACE,
};
static const struct sch_key measure_keys[] = {
    OP_KEY,
    { .name = "name", .kind = SCH_MEASURE, .flags = SCH_REQUIRED, .off = SCH_NOFF },
    { .name = "body", .kind = SCH_OPS, .flags = SCH_REQUIRED, .min = 1, .off = SCH_NOFF },
    LATENCY_FROM, OP_TRACE,
};
static const struct sch_key branch_keys[] = {
    OP_KEY,
    { .name = "p", .kind = SCH_NUMBER, .flags = SCH_REQUIRED | SCH_ZERO_OK, .dmax = 1.0, .off = SCH_NOFF },
    { .name = "then", .kind = SCH_OPS, .flags = SCH_REQUIRED, .min = 0, .off = SCH_NOFF },
    { .name = "else", .kind = SCH_OPS, .min = 0, .off = SCH_NOFF }, OP_TRACE,
};
#define MUTEX_KEY { .name = "mutex", .kind = SCH_MUTEX, .flags = SCH_REQUIRED, .off = SCH_NOFF }
#define CV_KEY { .name = "cv", .kind = SCH_CONDVAR, .flags = SCH_REQUIRED, .off = SCH_NOFF }
static const struct sch_key mutex_op_keys[] = { OP_KEY, MUTEX_KEY, OP_TRACE };
static const struct sch_key synchronize_keys[] = {
    OP_KEY, MUTEX_KEY,
    { .name = "body", .kind = SCH_OPS, .flags = SCH_REQUIRED, .min = 0, .off = SCH_NOFF }, OP_TRACE,
};
static const struct sch_key cv_wait_keys[] = {
    OP_KEY, CV_KEY, MUTEX_KEY,
    { .name = "timeout", .kind = SCH_DUR, .max = OP_DUR_MAX, .off = SCH_NOFF },
    { .name = "while_empty", .kind = SCH_QUEUE, .off = SCH_NOFF },
    { .name = "on_timeout", .kind = SCH_ENUM, .def = "continue", .values = sch_on_timeout_names, .off = SCH_NOFF },
    OP_TRACE,
};
static const struct sch_key cv_op_keys[] = { OP_KEY, CV_KEY, OP_TRACE };
static const struct sch_key spawn_keys[] = {
    OP_KEY, { .name = "thread", .kind = SCH_TMPL, .flags = SCH_REQUIRED, .off = SCH_NOFF }, OP_TRACE,
};
static const struct sch_key gc_keys[] = { OP_KEY, OP_DIST(SCH_REQUIRED), OP_TRACE };
static const struct sch_key alloc_keys[] = {
    OP_KEY,
    { .name = "objects", .kind = SCH_INT, .flags = SCH_REQUIRED, .min = 0, .max = 1000000000000LL,
      .off = SCH_NOFF },
    { .name = "survive", .kind = SCH_NUMBER, .flags = SCH_ZERO_OK, .def = "0", .dmax = 1.0, .off = SCH_NOFF },
    OP_TRACE,
};

static const struct sch_obj op_objs[] = {
    [OP_COMPUTE] = { "op", compute_keys, NKEYS(compute_keys) },
    [OP_SYSCALL] = { "op", syscall_keys, NKEYS(syscall_keys) },
    [OP_QUEUE_PUSH] = { "op", queue_op_keys, NKEYS(queue_op_keys) },
    [OP_QUEUE_POP] = { "op", queue_pop_keys, NKEYS(queue_pop_keys) },
    [OP_SLEEP] = { "op", sleep_keys, NKEYS(sleep_keys) },
    [OP_LOOP] = { "op", loop_keys, NKEYS(loop_keys) },
    [OP_ENV_ESCAPE] = { "op", env_escape_keys, NKEYS(env_escape_keys) },
    [OP_JOIN] = { "op", join_keys, NKEYS(join_keys) },
    [OP_MEASURE] = { "op", measure_keys, NKEYS(measure_keys) },
    [OP_BRANCH] = { "op", branch_keys, NKEYS(branch_keys) },
    [OP_MUTEX_LOCK] = { "op", mutex_op_keys, NKEYS(mutex_op_keys) },
    [OP_MUTEX_UNLOCK] = { "op", mutex_op_keys, NKEYS(mutex_op_keys) },
    [OP_SYNCHRONIZE] = { "op", synchronize_keys, NKEYS(synchronize_keys) },
    [OP_CV_WAIT] = { "op", cv_wait_keys, NKEYS(cv_wait_keys) },
    [OP_CV_SIGNAL] = { "op", cv_op_keys, NKEYS(cv_op_keys) },
    [OP_CV_BROADCAST] = { "op", cv_op_keys, NKEYS(cv_op_keys) },
    [OP_SPAWN] = { "op", spawn_keys, NKEYS(spawn_keys) },
    [OP_ALLOC] = { "op", alloc_keys, NKEYS(alloc_keys) },
    [OP_GC] = { "op", gc_keys, NKEYS(gc_keys) },
};
_Static_assert(NKEYS(op_objs) == OP_KIND_COUNT, "one table per op");

static const struct sch_key thread_keys[] = {
    { .name = "name", .kind = SCH_STRING, .off = SCH_NOFF },
    { .name = "count", .kind = SCH_INT, .def = "1", .min = 1, .max = SCH_MAX_THREADS, .off = SCH_NOFF },
    { .name = "program", .kind = SCH_OPS, .min = 0, .off = SCH_NOFF },
    { .name = "start", .kind = SCH_DUR, .def = "0s", .max = OP_DUR_MAX, .off = SCH_NOFF },
    { .name = "spawned", .kind = SCH_BOOL, .def = "false", .off = SCH_NOFF },
};
const struct sch_obj sch_thread = { "thread", thread_keys, NKEYS(thread_keys) };

static const struct sch_key ractor_keys[] = {
    { .name = "name", .kind = SCH_STRING, .off = SCH_NOFF },
    { .name = "count", .kind = SCH_INT, .def = "1", .min = 1, .max = SCH_MAX_RACTORS, .off = SCH_NOFF },
    { .name = "threads", .kind = SCH_ARRAY, .flags = SCH_REQUIRED, .min = 1, .obj = &sch_thread,
      .off = SCH_NOFF },
};
const struct sch_obj sch_ractor = { "Ractor", ractor_keys, NKEYS(ractor_keys) };

static const struct sch_key queue_keys[] = {
    { .name = "name", .kind = SCH_NAME, .flags = SCH_REQUIRED, .off = SCH_NOFF },
    { .name = "initial", .kind = SCH_INT, .def = "0", .min = 0, .max = SCH_INT_MAX, .off = SCH_NOFF },
};
const struct sch_obj sch_queue = { "queue", queue_keys, NKEYS(queue_keys) };

static const struct sch_key name_only_keys[] = {
    { .name = "name", .kind = SCH_NAME, .flags = SCH_REQUIRED, .off = SCH_NOFF },
};
static const struct sch_obj mutex_obj = { "mutex", name_only_keys, NKEYS(name_only_keys) };
static const struct sch_obj condvar_obj = { "condvar", name_only_keys, NKEYS(name_only_keys) };
static const struct sch_obj measure_obj = { "measure", name_only_keys, NKEYS(name_only_keys) };

/* rate and interval: exactly one (check_generator) */
static const struct sch_key generator_keys[] = {
    { .name = "name", .kind = SCH_STRING, .off = SCH_NOFF },
    { .name = "queue", .kind = SCH_QUEUE, .flags = SCH_REQUIRED, .off = SCH_NOFF },
    { .name = "process", .kind = SCH_ENUM, .def = "poisson", .values = scn_process_names, .off = SCH_NOFF },
    { .name = "rate", .kind = SCH_NUMBER, .dmax = 1e12, .off = SCH_NOFF },
    { .name = "interval", .kind = SCH_DUR, .flags = SCH_POSITIVE, .max = OP_DUR_MAX, .off = SCH_NOFF },
    { .name = "start", .kind = SCH_DUR, .def = "0s", .max = OP_DUR_MAX, .off = SCH_NOFF },
    { .name = "count", .kind = SCH_INT, .min = 1, .max = SCH_INT_MAX, .off = SCH_NOFF },
};
const struct sch_obj sch_generator = { "generator", generator_keys, NKEYS(generator_keys) };

static const struct sch_key stop_keys[] = {
    { .name = "time", .kind = SCH_DUR, .flags = SCH_REQUIRED | SCH_POSITIVE, .max = SIM_TIME_MAX,
      .off = SCH_NOFF },
};
static const struct sch_obj stop_obj = { "stop", stop_keys, NKEYS(stop_keys) };

static const struct sch_key root_keys[] = {
    { .name = "name", .kind = SCH_STRING, .off = SCH_NOFF },
    { .name = "description", .kind = SCH_STRING, .flags = SCH_FREE_TEXT, .off = SCH_NOFF },
    { .name = "seed", .kind = SCH_INT, .def = "1", .min = 0, .max = SCH_INT_MAX, .off = SCH_NOFF },
    { .name = "machine", .kind = SCH_MACHINE, .off = SCH_NOFF },
    { .name = "runtime", .kind = SCH_OBJECT, .obj = &sch_runtime, .off = SCH_NOFF },
    { .name = "queues", .kind = SCH_ARRAY, .min = 0, .obj = &sch_queue, .off = SCH_NOFF },
    { .name = "mutexes", .kind = SCH_ARRAY, .min = 0, .obj = &mutex_obj, .off = SCH_NOFF },
    { .name = "condvars", .kind = SCH_ARRAY, .min = 0, .obj = &condvar_obj, .off = SCH_NOFF },
    { .name = "measures", .kind = SCH_ARRAY, .min = 0, .obj = &measure_obj, .off = SCH_NOFF },
    { .name = "generators", .kind = SCH_ARRAY, .min = 0, .obj = &sch_generator, .off = SCH_NOFF },
    { .name = "ractors", .kind = SCH_ARRAY, .flags = SCH_REQUIRED, .min = 1, .obj = &sch_ractor,
      .off = SCH_NOFF },
    { .name = "stop", .kind = SCH_OBJECT, .obj = &stop_obj, .off = SCH_NOFF },
    { .name = "warmup", .kind = SCH_DUR, .def = "0s", .max = SIM_TIME_MAX, .off = SCH_NOFF },
};
const struct sch_obj sch_scenario = { "scenario", root_keys, NKEYS(root_keys) };

const struct sch_obj *sch_op(int kind) { return &op_objs[kind]; }
const struct sch_obj *sch_dist(int kind) { return &dist_objs[kind]; }

const struct sch_key *sch_find(const struct sch_obj *o, const char *name)
{
    for (int i = 0; i < o->nkeys; i++)
        if (!strcmp(o->keys[i].name, name)) return &o->keys[i];
    return NULL;
}

/* The key an op of any kind has under `name` (an op's keys depend on its
 * "op"; a --set path does not say which). */
static const struct sch_key *op_key(const char *name)
{
    for (int k = 0; k < OP_KIND_COUNT; k++) {
        const struct sch_key *key = sch_find(sch_op(k), name);
        if (key) return key;
    }
    return NULL;
}

const struct sch_key *sch_path_key(const char *path)
{
    const struct sch_obj *o = &sch_scenario;
    bool in_ops = false;
    const struct sch_key *k = NULL;
    char seg[128];
    for (const char *p = path; *p;) {
        size_t n = strcspn(p, ".");
        if (n == 0 || n >= sizeof seg) return NULL;
        memcpy(seg, p, n);
        seg[n] = 0;
        p += n;
        if (*p) p++;
        if (!o && !in_ops) return NULL;   /* below a leaf */
        k = in_ops ? op_key(seg) : sch_find(o, seg);
        if (!k) return NULL;
        in_ops = false;
        o = NULL;
        switch (k->kind) {
        case SCH_OBJECT: o = k->obj; break;
        case SCH_MACHINE: o = &sch_machine; break;
        case SCH_ARRAY:
        case SCH_OPS: {  /* an index comes next */
            size_t m = strcspn(p, ".");
            if (m == 0 || strspn(p, "0123456789") != m) return *p ? NULL : k;
            p += m;
            if (*p) p++;
            if (k->kind == SCH_ARRAY) o = k->obj;
            else in_ops = true;
            if (!*p) return NULL;   /* an element, not a key */
            break;
        }
        default: break;
        }
    }
    return k;
}

int sch_enum_index(const char *const *values, const char *s)
{
    for (int i = 0; values[i]; i++)
        if (!strcmp(values[i], s)) return i;
    return -1;
}

/* ---- did you mean ----------------------------------------------------------- */

static int lower(int c) { return c >= 'A' && c <= 'Z' ? c + 32 : c; }

/* Optimal string alignment distance (a transposition costs 1), ignoring
 * ASCII case, for strings of at most 64 bytes. */
static int osa_distance(const char *a, const char *b)
{
    int n = (int)strlen(a), m = (int)strlen(b);
    int d[65][65];
    for (int i = 0; i <= n; i++) d[i][0] = i;
    for (int j = 0; j <= m; j++) d[0][j] = j;
    for (int i = 1; i <= n; i++)
        for (int j = 1; j <= m; j++) {
            int cost = lower(a[i - 1]) != lower(b[j - 1]);
            int v = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < v) v = d[i][j - 1] + 1;
            if (d[i - 1][j - 1] + cost < v) v = d[i - 1][j - 1] + cost;
            if (i > 1 && j > 1 && lower(a[i - 1]) == lower(b[j - 2]) &&
                lower(a[i - 2]) == lower(b[j - 1]) && d[i - 2][j - 2] + 1 < v)
                v = d[i - 2][j - 2] + 1;
            d[i][j] = v;
        }
    return d[n][m];
}

static int is_prefix(const char *p, const char *s)
{
    size_t n = strlen(p);
    return n >= 3 && strncmp(p, s, n) == 0;
}

const char *sch_suggest(const char *given, const void *names, size_t n, size_t stride)
{
    size_t glen = strlen(given);
    if (glen == 0 || glen > 64) return NULL;
    const char *best = NULL, *prefix = NULL;
    int bestd = 3;
    for (size_t i = 0; i < n; i++) {
        const char *cand = *(const char *const *)((const char *)names + i * stride);
        if (!cand || strlen(cand) > 64) continue;
        int dist = osa_distance(given, cand);
        /* Two edits in a short word make another word ("nop" -> "loop"). */
        if (dist < bestd && dist <= (glen <= 4 ? 1 : 2)) { best = cand; bestd = dist; }
        if (!prefix && (is_prefix(given, cand) || is_prefix(cand, given))) prefix = cand;
    }
    return best ? best : prefix;
}

/* ---- the validator ------------------------------------------------------- */

/* A declared name: of a queue, mutex, condition variable, measure or
 * thread template.  `ractor` is the Ractor template that declares a thread
 * template, or (mutexes, condvars) the first that uses the object, -1 if
 * none yet; `user` the node of that first use. */
struct qname {
    const char *name;
    const cJSON *node;
    size_t order;
    int ractor;
    int spawned;          /* thread templates: "spawned": true */
    const cJSON *user;
};

enum { NT_QUEUE, NT_MUTEX, NT_CONDVAR, NT_MEASURE, NT_TMPL, NT_COUNT };

/* The names of one kind, sorted, first declaration first. */
struct nametab {
    struct qname *v;
    size_t n;
};

/* Per kind: what it is called in messages, and the top-level key that declares it. */
static const char *const nt_what[NT_COUNT] = { "queue", "mutex", "condition variable", "measure",
                                                "thread template" };
static const char *const nt_plural[NT_COUNT] = { "queues", "mutexes", "condition variables", "measures",
                                                  "thread templates" };
static const char *const nt_key[NT_COUNT] = { "queues", "mutexes", "condvars", "measures", NULL };

struct vctx {
    const struct sch_doc *d;
    struct diag_list *diags;
    int nerr, stopped;
    struct jptr ptr;
    int loop_depth;         /* blocks (loop, measure, branch, synchronize) open */
    int has_stop_time;
    sim_time stop_time;
    struct nametab tabs[NT_COUNT];
    int ractor;             /* the Ractor template being walked, -1 outside */
    int64_t ractor_count;   /* its count */
    int thread_index;       /* its thread template being walked */
    int oom;
};

static void report(struct vctx *c, const cJSON *node, int at_key, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void report(struct vctx *c, const cJSON *node, int at_key, const char *fmt, ...)
{
    if (c->stopped) return;
    if (!diag_capped(c->diags, &c->nerr, SCH_MAX_ERRORS, c->d->file)) {
        c->stopped = 1;
        return;
    }
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    struct jpos p;
    int line = 0, col = 0;
    if (jpos_get(c->d->pos, node, &p)) {
        line = at_key && p.key_line ? p.key_line : p.line;
        col = at_key && p.key_line ? p.key_col : p.col;
    }
    diag_at(c->diags, p.file ? p.file : c->d->file, line, col, jptr_str(&c->ptr), "%s", msg);
}

static const char *got(const cJSON *v)
{
    if (cJSON_IsString(v)) return "a string";
    if (cJSON_IsNumber(v)) return "a number";
    if (cJSON_IsTrue(v)) return "true";
    if (cJSON_IsFalse(v)) return "false";
    if (cJSON_IsNull(v)) return "null";
    if (cJSON_IsArray(v)) return "an array";
    if (cJSON_IsObject(v)) return "an object";
    return "an invalid value";
}

static void type_error(struct vctx *c, const cJSON *v, const char *expected)
{
    report(c, v, 0, "expected %s, got %s", expected, got(v));
}

/* The exact source text of a number, or its double as a fallback. */
static const char *num_text(const struct jpos_table *pos, const cJSON *v, char *buf, size_t size,
                            size_t *len)
{
    const char *t = jpos_number_text(pos, v, len);
    if (t) return t;
    snprintf(buf, size, "%.17g", v->valuedouble);
    *len = strlen(buf);
    return buf;
}

static void join_names(char *buf, size_t size, const void *names, size_t n, size_t stride)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < n && used < size; i++) {
        const char *s = *(const char *const *)((const char *)names + i * stride);
        int w = snprintf(buf + used, size - used, "%s%s", i ? ", " : "", s);
        if (w < 0) break;
        used += (size_t)w;
    }
}

static size_t count_names(const char *const *values)
{
    size_t n = 0;
    while (values[n]) n++;
    return n;
}

static void bad_enum(struct vctx *c, const cJSON *v, const char *label, const char *const *values)
{
    size_t n = count_names(values);
    const char *s = sch_suggest(v->valuestring, values, n, sizeof *values);
    if (s) {
        report(c, v, 0, "unknown %s \"%.80s\" (did you mean \"%s\"?)", label, v->valuestring, s);
    } else {
        char list[512];
        join_names(list, sizeof list, values, n, sizeof *values);
        report(c, v, 0, "unknown %s \"%.80s\" (expected one of: %s)", label, v->valuestring, list);
    }
}

/* Quiet readers: 1 and *out if v is a valid integer / duration. */
static int read_int(const struct jpos_table *pos, const cJSON *v, int64_t *out, int *why)
{
    char buf[40];
    size_t len;
    if (!cJSON_IsNumber(v)) { *why = -1; return 0; }
    const char *t = num_text(pos, v, buf, sizeof buf, &len);
    int rc = units_exact(t, len, 0, out);
    if (rc == UNITS_OK && (*out > SCH_INT_MAX || *out < -SCH_INT_MAX)) rc = UNITS_EOVERFLOW;
    *why = rc;
    return rc == UNITS_OK;
}

static int read_dur(const struct jpos_table *pos, const cJSON *v, sim_time *out, char *err, size_t errlen)
{
    if (cJSON_IsString(v)) return units_parse(v->valuestring, out, err, errlen) == UNITS_OK;
    if (cJSON_IsNumber(v)) {
        char buf[40];
        size_t len;
        const char *t = num_text(pos, v, buf, sizeof buf, &len);
        return units_parse_ns(t, len, out, err, errlen) == UNITS_OK;
    }
    return 0;
}

int64_t sch_int(const struct jpos_table *pos, const cJSON *v)
{
    int64_t x = 0;
    int why;
    read_int(pos, v, &x, &why);
    return x;
}

sim_time sch_dur(const struct jpos_table *pos, const cJSON *v)
{
    sim_time t = 0;
    char err[8];
    read_dur(pos, v, &t, err, sizeof err);
    return t;
}

int64_t sch_default_int(const struct sch_key *k)
{
    int64_t x = 0;
    if (k->def) units_exact(k->def, strlen(k->def), 0, &x);
    return x;
}

sim_time sch_default_dur(const struct sch_key *k)
{
    sim_time t = 0;
    char err[8];
    if (k->def) units_parse(k->def, &t, err, sizeof err);
    return t;
}

static int check_int(struct vctx *c, const cJSON *v, const struct sch_key *k)
{
    int64_t x;
    int why;
    if (read_int(c->d->pos, v, &x, &why)) {
        if (x < k->min || x > k->max) {
            report(c, v, 0, "%lld is out of range (%lld..%lld)", (long long)x, (long long)k->min,
                   (long long)k->max);
            return 0;
        }
        return 1;
    }
    char buf[40];
    size_t len;
    if (why < 0) type_error(c, v, "an integer");
    else if (why == UNITS_EPRECISION) {
        const char *t = num_text(c->d->pos, v, buf, sizeof buf, &len);
        report(c, v, 0, "expected an integer, got %.*s", (int)len, t);
    } else {
        const char *t = num_text(c->d->pos, v, buf, sizeof buf, &len);
        report(c, v, 0, "%.*s is beyond 2^53: integers that large are not exact in JSON",
               (int)len, t);
    }
    return 0;
}

#define EXP_DUR "a duration (like \"1.5us\", or a number of nanoseconds)"

static int check_dur_range(struct vctx *c, const cJSON *v, sim_time lo, sim_time hi, int positive,
                           int allow_dist)
{
    sim_time t;
    char err[160];
    if (!cJSON_IsString(v) && !cJSON_IsNumber(v)) {
        if (allow_dist)
            report(c, v, 0, "expected " EXP_DUR " or a distribution object, got %s", got(v));
        else if (cJSON_IsObject(v))
            report(c, v, 0, "expected " EXP_DUR ", got an object (distributions are only allowed in ops)");
        else
            type_error(c, v, EXP_DUR);
        return 0;
    }
    char shown[96];
    if (cJSON_IsString(v)) {
        snprintf(shown, sizeof shown, "\"%.60s\"", v->valuestring);
    } else {
        char buf[40];
        size_t len;
        const char *tx = num_text(c->d->pos, v, buf, sizeof buf, &len);
        snprintf(shown, sizeof shown, "%.*s", (int)len, tx);
    }
    if (!read_dur(c->d->pos, v, &t, err, sizeof err)) {
        report(c, v, 0, "bad duration %s: %s", shown, err);
        return 0;
    }
    if (positive) lo = 1;
    if (t < lo || t > hi) {
        char a[32], b[32];
        units_format(lo, a, sizeof a);
        units_format(hi, b, sizeof b);
        const char *unit = cJSON_IsNumber(v) ? " ns" : "";
        if (!positive) report(c, v, 0, "%s%s is out of range (%s..%s)", shown, unit, a, b);
        else if (hi == SIM_TIME_MAX) report(c, v, 0, "%s%s is out of range (must be > 0)", shown, unit);
        else report(c, v, 0, "%s%s is out of range (> 0 and <= %s)", shown, unit, b);
        return 0;
    }
    return 1;
}

static int check_object(struct vctx *c, const cJSON *v, const struct sch_obj *o,
                        const cJSON **found);
static void check_ops(struct vctx *c, const cJSON *v, const struct sch_key *k);
static void exclusive(struct vctx *c, const cJSON *a, const cJSON *b, const char *rule);
static int64_t count_of(const struct vctx *c, const cJSON *obj, int64_t max);

/* The position of a node for "first at L:C", with its file if it differs. */
static void where(struct vctx *c, const cJSON *first, const cJSON *now, int at_key, char *buf,
                  size_t size)
{
    struct jpos a, b;
    jpos_get(c->d->pos, first, &a);
    jpos_get(c->d->pos, now, &b);
    int line = at_key && a.key_line ? a.key_line : a.line;
    int col = at_key && a.key_line ? a.key_col : a.col;
    if (a.file && b.file && strcmp(a.file, b.file) != 0)
        snprintf(buf, size, "%s:%d:%d", a.file, line, col);
    else
        snprintf(buf, size, "%d:%d", line, col);
}

static int qname_cmp(const void *pa, const void *pb)
{
    const struct qname *a = pa, *b = pb;
    int r = strcmp(a->name, b->name);
    return r ? r : (a->order > b->order) - (a->order < b->order);
}

/* The first declaration of a name in tab, or NULL. */
static struct qname *find_name(const struct nametab *tab, const char *name)
{
    size_t lo = 0, hi = tab->n;
    while (lo < hi) {  /* lower bound: the first entry with this name */
        size_t mid = (lo + hi) / 2;
        if (strcmp(tab->v[mid].name, name) < 0) lo = mid + 1;
        else hi = mid;
    }
    return lo < tab->n && !strcmp(tab->v[lo].name, name) ? &tab->v[lo] : NULL;
}

const char *sch_ruby_text(const struct jpos_table *pos, const cJSON *v, char *buf, size_t size)
{
    if (cJSON_IsString(v)) return v->valuestring;
    if (!cJSON_IsNumber(v)) return NULL;
    size_t len;
    const char *t = num_text(pos, v, buf, size, &len);
    snprintf(buf, size, "%.*s", (int)len, t);
    return buf;
}

/* runtime.ruby: a version the table covers (ruby_version.c). */
static void check_ruby(struct vctx *c, const cJSON *v)
{
    char buf[40];
    const char *t = sch_ruby_text(c->d->pos, v, buf, sizeof buf);
    if (!t) { type_error(c, v, "a Ruby version such as \"3.1\" or \"3.4.2\""); return; }
    struct rver rv;
    struct rver_facts f;
    char oldest[16];
    rver_format(&rver_oldest, oldest, sizeof oldest);
    if (rver_parse(t, &rv) != 0)
        report(c, v, 0, "bad Ruby version \"%.40s\" (expected MAJOR.MINOR or MAJOR.MINOR.PATCH, e.g. \"3.1\")", t);
    else if (rver_facts_of(&rv, &f) != GV_OK)
        report(c, v, 0, "Ruby %.40s is older than the version table (%s and later: Ractors exist from 3.0)", t,
               oldest);
}

/* A reference to a declared name of kind `nt`; the entry, or NULL
 * (reported: unknown, with a suggestion). */
static struct qname *check_ref(struct vctx *c, const cJSON *v, int nt)
{
    const struct nametab *tab = &c->tabs[nt];
    if (!cJSON_IsString(v)) {
        char what[64];
        snprintf(what, sizeof what, "a %s name (a string)", nt_what[nt]);
        type_error(c, v, what);
        return NULL;
    }
    struct qname *q = find_name(tab, v->valuestring);
    if (q) return q;
    if (tab->n == 0) {
        if (nt_key[nt])
            report(c, v, 0, "unknown %s \"%.80s\" (no %s are declared: add it to the top-level \"%s\")",
                   nt_what[nt], v->valuestring, nt_plural[nt], nt_key[nt]);
        else
            report(c, v, 0, "unknown %s \"%.80s\" (no thread template has a \"name\")", nt_what[nt],
                   v->valuestring);
        return NULL;
    }
    /* Names in declaration order for the hint. */
    const char **names = malloc(tab->n * sizeof *names);
    if (!names) { c->oom = 1; return NULL; }
    size_t n = 0;
    for (size_t i = 0; i < tab->n; i++)
        if (i == 0 || strcmp(tab->v[i].name, tab->v[i - 1].name)) names[n++] = tab->v[i].name;
    const char *s = sch_suggest(v->valuestring, names, n, sizeof *names);
    if (s) {
        report(c, v, 0, "unknown %s \"%.80s\" (did you mean \"%s\"?)", nt_what[nt], v->valuestring, s);
    } else {
        char list[512];
        join_names(list, sizeof list, names, n, sizeof *names);
        report(c, v, 0, "unknown %s \"%.80s\" (declared %s: %s)", nt_what[nt], v->valuestring, nt_plural[nt],
               list);
    }
    free(names);
    return NULL;
}

/* A thread template named by an op ("join", "spawn"): its name must be
 * one template's alone. */
static struct qname *check_tmpl_ref(struct vctx *c, const cJSON *v)
{
    struct qname *q = check_ref(c, v, NT_TMPL);
    if (!q) return NULL;
    if (q + 1 < c->tabs[NT_TMPL].v + c->tabs[NT_TMPL].n && !strcmp(q[1].name, q->name)) {
        char a[300], b[300];
        where(c, q->node, v, 0, a, sizeof a);
        where(c, q[1].node, v, 0, b, sizeof b);
        report(c, v, 0, "thread template name \"%.80s\" is not unique (at %s and %s): give each a distinct "
               "\"name\"", q->name, a, b);
        return NULL;
    }
    return q;
}

/* A Mutex or ConditionVariable is not shareable: every op naming one
 * must be in threads of the same Ractor template, which has one instance. */
static void check_scope(struct vctx *c, const cJSON *v, struct qname *q, int nt)
{
    if (!q || c->ractor < 0) return;
    const char *what = nt == NT_MUTEX ? "Mutex" : "ConditionVariable";
    if (c->ractor_count > 1) {
        report(c, v, 0, "a %s cannot be used in a replicated Ractor (ractors[%d] has count %lld): each "
               "copy would need its own; use a Ractor with count 1", what, c->ractor, (long long)c->ractor_count);
        return;
    }
    if (q->ractor < 0) {
        q->ractor = c->ractor;
        q->user = v;
    } else if (q->ractor != c->ractor) {
        char at[300];
        where(c, q->user, v, 0, at, sizeof at);
        report(c, v, 0, "%s \"%.80s\" is used by threads of ractors[%d] (first at %s) and of ractors[%d]: a %s "
               "cannot be shared between Ractors", nt == NT_MUTEX ? "mutex" : "condition variable", q->name,
               q->ractor, at, c->ractor, what);
    }
}

static int valid_name(const char *s)
{
    if (!*s) return 0;
    for (; *s; s++) {
        char ch = *s;
        if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
              ch == '_' || ch == '.' || ch == '-'))
            return 0;
    }
    return 1;
}

/* A name is printed (CSV, summaries, run reports): no control characters,
 * bidi overrides or line separators (the ones diag_escape escapes). */
static int check_printable(struct vctx *c, const cJSON *v)
{
    const char *s = v->valuestring;
    for (size_t i = 0, n; s[i]; i += n) {
        unsigned long cp;
        n = diag_utf8_decode(s + i, &cp);
        if (!n) {  /* a --set value is argv text, not parsed JSON */
            report(c, v, 0, "invalid UTF-8 in a name (byte 0x%02X)", (unsigned char)s[i]);
            return 0;
        }
        if (diag_unsafe_cp(cp)) {
            report(c, v, 0, "control character U+%04lX in a name (names are printed in output and "
                   "messages; only \"description\" and \"source\" may hold them)", cp);
            return 0;
        }
    }
    return 1;
}

static void check_steal(struct vctx *c, const cJSON *mach);
static void check_speed(struct vctx *c, const cJSON *mach);

static void check_profile_file(struct vctx *c)
{
    const cJSON *p = c->d->profile;
    /* A profile is its own document: pointers start again at its root. */
    struct jptr saved = c->ptr;
    jptr_init(&c->ptr);
    const cJSON *found[SCH_MAX_KEYS];
    if (!cJSON_IsObject(p))
        report(c, p, 0, "a machine profile must be a JSON object, got %s", got(p));
    else
        check_object(c, p, &sch_machine_profile, found);
    if (c->ptr.oom) c->oom = 1;
    jptr_free(&c->ptr);
    c->ptr = saved;
}

static int check_dist(struct vctx *c, const cJSON *v)
{
    if (!cJSON_IsObject(v)) return check_dur_range(c, v, 0, OP_DUR_MAX, 0, 1);
    const cJSON *dist = cJSON_GetObjectItemCaseSensitive(v, "dist");
    if (!dist) {
        report(c, v, 0, "missing required key \"dist\" (one of: const, uniform, exp, lognormal, empirical)");
        return 0;
    }
    size_t mark = jptr_push_key(&c->ptr, "dist");
    int kind = -1;
    if (!cJSON_IsString(dist)) type_error(c, dist, "a string");
    else if ((kind = sch_enum_index(scn_dist_names, dist->valuestring)) < 0)
        bad_enum(c, dist, "dist", scn_dist_names);
    jptr_pop(&c->ptr, mark);
    if (kind < 0) return 0;
    const cJSON *found[SCH_MAX_KEYS];
    int before = c->nerr;
    check_object(c, v, &dist_objs[kind], found);
    if (kind == DIST_UNIFORM && found[1] && found[2] && c->nerr == before) {
        sim_time lo = sch_dur(c->d->pos, found[1]), hi = sch_dur(c->d->pos, found[2]);
        if (lo > hi) {
            char a[32], b[32];
            units_format(lo, a, sizeof a);
            units_format(hi, b, sizeof b);
            mark = jptr_push_key(&c->ptr, "max");
            report(c, found[2], 0, "min (%s) is greater than max (%s)", a, b);
            jptr_pop(&c->ptr, mark);
        }
    }
    if (kind == DIST_LOGNORMAL) {
        if (found[1] && found[2]) exclusive(c, found[1], found[2], "a lognormal takes one of them");
        else if (!found[1] && !found[2]) report(c, v, 0, "a lognormal needs \"median\" or \"mean\"");
    }
    if (kind == DIST_EMPIRICAL && found[1] && found[2] && c->nerr == before) {
        int nv = cJSON_GetArraySize(found[1]), nw = cJSON_GetArraySize(found[2]);
        double total = 0;
        for (const cJSON *w = found[2]->child; w; w = w->next) total += w->valuedouble;
        mark = jptr_push_key(&c->ptr, "weights");
        if (nw != nv)
            report(c, found[2], 0, "%d weight%s for %d value%s: give one weight per value", nw,
                   nw == 1 ? "" : "s", nv, nv == 1 ? "" : "s");
        else if (!(total > 0))
            report(c, found[2], 0, "the weights add up to 0: at least one must be positive");
        jptr_pop(&c->ptr, mark);
    }
    return c->nerr == before;
}

/* An array of durations (SCH_DURS) or of weights (SCH_WEIGHTS). */
static int check_list(struct vctx *c, const cJSON *v, const struct sch_key *k)
{
    if (!cJSON_IsArray(v)) {
        type_error(c, v, k->kind == SCH_DURS ? "an array of durations" : "an array of numbers");
        return 0;
    }
    int n = cJSON_GetArraySize(v), before = c->nerr;
    if (n < (k->min > 0 ? k->min : 0)) {
        report(c, v, 0, "must have at least %lld value%s", (long long)k->min, k->min == 1 ? "" : "s");
        return 0;
    }
    int most = k->dmax > 0 ? (int)k->dmax : DIST_MAX_VALUES;
    if (n > most) {
        report(c, v, 0, "too many values (%d; the limit is %d)", n, most);
        return 0;
    }
    size_t i = 0;
    for (const cJSON *e = v->child; e && !c->stopped; e = e->next, i++) {
        size_t mark = jptr_push_index(&c->ptr, i);
        if (k->kind == SCH_DURS) {
            check_dur_range(c, e, 0, k->max, 0, 0);
        } else if (!cJSON_IsNumber(e)) {
            type_error(c, e, "a number");
        } else if (!(e->valuedouble >= 0) || e->valuedouble > 1e15) {
            char buf[40];
            size_t len;
            const char *t = num_text(c->d->pos, e, buf, sizeof buf, &len);
            report(c, e, 0, "%.*s is out of range (>= 0 and <= 1e15)", (int)len, t);
        }
        jptr_pop(&c->ptr, mark);
    }
    return c->nerr == before;
}

/* A curve (SCH_CURVE): [[x, y], ...], x > 0 strictly increasing, y in [0, max]. */
static int check_curve(struct vctx *c, const cJSON *v, const struct sch_key *k)
{
    if (!cJSON_IsArray(v)) {
        type_error(c, v, "an array of [duration, duration] pairs");
        return 0;
    }
    int n = cJSON_GetArraySize(v), before = c->nerr;
    if (n > GV_CURVE_MAX) {
        report(c, v, 0, "too many points (%d; the limit is %d)", n, GV_CURVE_MAX);
        return 0;
    }
    size_t i = 0;
    sim_time prev = 0;
    for (const cJSON *e = v->child; e && !c->stopped; e = e->next, i++) {
        size_t mark = jptr_push_index(&c->ptr, i);
        if (!cJSON_IsArray(e)) {
            type_error(c, e, "a [duration, duration] pair");
        } else if (cJSON_GetArraySize(e) != 2) {
            report(c, e, 0, "a point is a pair [duration, extra], got %d value%s", cJSON_GetArraySize(e),
                   cJSON_GetArraySize(e) == 1 ? "" : "s");
        } else {
            int b = c->nerr;
            size_t m2 = jptr_push_index(&c->ptr, 0);
            check_dur_range(c, e->child, 0, k->max, 1, 0);
            jptr_pop(&c->ptr, m2);
            m2 = jptr_push_index(&c->ptr, 1);
            check_dur_range(c, e->child->next, 0, k->max, 0, 0);
            jptr_pop(&c->ptr, m2);
            if (c->nerr == b) {
                sim_time x = sch_dur(c->d->pos, e->child);
                if (i > 0 && x <= prev) {
                    char a[32], p[32];
                    units_format(x, a, sizeof a);
                    units_format(prev, p, sizeof p);
                    m2 = jptr_push_index(&c->ptr, 0);
                    report(c, e->child, 0, "%s is not after the previous point's %s: the points go in increasing "
                           "order of their first value", a, p);
                    jptr_pop(&c->ptr, m2);
                }
                prev = x;
            }
        }
        jptr_pop(&c->ptr, mark);
    }
    return c->nerr == before;
}

static void check_array(struct vctx *c, const cJSON *v, const struct sch_key *k);

/* Validate one value against its key; 1 if valid. */
static int check_value(struct vctx *c, const cJSON *v, const struct sch_key *k)
{
    const cJSON *found[SCH_MAX_KEYS];
    switch (k->kind) {
    case SCH_STRING:
        if (!cJSON_IsString(v)) { type_error(c, v, "a string"); return 0; }
        return (k->flags & SCH_FREE_TEXT) || check_printable(c, v);
    case SCH_NAME:
        if (!cJSON_IsString(v)) { type_error(c, v, "a string"); return 0; }
        if (!valid_name(v->valuestring)) {
            report(c, v, 0, "\"%.80s\" is not a valid name (use letters, digits, '_', '.' and '-')",
                   v->valuestring);
            return 0;
        }
        return 1;
    case SCH_INT:
        return check_int(c, v, k);
    case SCH_NUMBER: {
        if (!cJSON_IsNumber(v)) { type_error(c, v, "a number"); return 0; }
        int zero_ok = (k->flags & SCH_ZERO_OK) != 0;
        bool low_ok = (k->flags & SCH_SIGNED) ? v->valuedouble >= -k->dmax
                      : k->dmin > 0           ? v->valuedouble >= k->dmin
                                              : v->valuedouble > 0 || (zero_ok && v->valuedouble == 0);
        if (!low_ok || v->valuedouble > k->dmax) {
            char buf[40];
            size_t len;
            const char *t = num_text(c->d->pos, v, buf, sizeof buf, &len);
            if (k->flags & SCH_SIGNED)
                report(c, v, 0, "%.*s is out of range (>= %g and <= %g)", (int)len, t, -k->dmax, k->dmax);
            else if (k->dmin > 0)
                report(c, v, 0, "%.*s is out of range (>= %g and <= %g)", (int)len, t, k->dmin, k->dmax);
            else
                report(c, v, 0, "%.*s is out of range (%s 0 and <= %g)", (int)len, t,
                       zero_ok ? ">=" : ">", k->dmax);
            return 0;
        }
        return 1;
    }
    case SCH_BOOL:
        if (!cJSON_IsBool(v)) { type_error(c, v, "true or false"); return 0; }
        return 1;
    case SCH_DUR:
        /* a syscall's method_work "machine": whether the machine has it, check_syscall */
        if ((k->flags & SCH_MACHINE_OK) && cJSON_IsString(v) && !strcmp(v->valuestring, SCH_DUR_MACHINE))
            return 1;
        return check_dur_range(c, v, k->min, k->max, (k->flags & SCH_POSITIVE) != 0, 0);
    case SCH_DIST:
        /* a syscall's "machine": whether the machine has that cost, check_syscall */
        if ((k->flags & SCH_MACHINE_OK) && cJSON_IsString(v) && !strcmp(v->valuestring, SCH_DUR_MACHINE))
            return 1;
        return check_dist(c, v);
    case SCH_ENUM:
        if (!cJSON_IsString(v)) { type_error(c, v, "a string"); return 0; }
        if (sch_enum_index(k->values, v->valuestring) < 0) {
            bad_enum(c, v, k->name, k->values);
            return 0;
        }
        return 1;
    case SCH_TRUE:
        if (cJSON_IsFalse(v)) {
            report(c, v, 0, "\"%s\" must be true (for a finite loop use \"times\")", k->name);
            return 0;
        }
        if (!cJSON_IsTrue(v)) { type_error(c, v, "true"); return 0; }
        return 1;
    case SCH_OBJECT:
        return check_object(c, v, k->obj, found);
    case SCH_ARRAY:
        check_array(c, v, k);
        return 1;
    case SCH_OPS:
        check_ops(c, v, k);
        return 1;
    case SCH_MACHINE:
        if (cJSON_IsString(v)) check_printable(c, v);
        else if (cJSON_IsObject(v)) check_object(c, v, &sch_machine, found);
        else if (!cJSON_IsString(v)) type_error(c, v, "a machine profile name or a machine object");
        if (c->d->profile) check_profile_file(c);
        check_steal(c, v);
        check_speed(c, v);
        return 1;
    case SCH_QUEUE:
        return check_ref(c, v, NT_QUEUE) != NULL;
    case SCH_MUTEX:
        return check_ref(c, v, NT_MUTEX) != NULL;
    case SCH_CONDVAR:
        return check_ref(c, v, NT_CONDVAR) != NULL;
    case SCH_MEASURE:
        return check_ref(c, v, NT_MEASURE) != NULL;
    case SCH_MEASURE_OR_BOOL:
        if (cJSON_IsBool(v)) return 1;
        if (!cJSON_IsString(v)) { type_error(c, v, "true, false or a measure name"); return 0; }
        return check_ref(c, v, NT_MEASURE) != NULL;
    case SCH_TMPL:
        return check_tmpl_ref(c, v) != NULL;
    case SCH_DURS:
    case SCH_WEIGHTS:
        return check_list(c, v, k);
    case SCH_CURVE:
        return check_curve(c, v, k);
    case SCH_RUBY:
        check_ruby(c, v);
        return 1;
    }
    return 1;
}

static void unknown_key(struct vctx *c, const cJSON *m, const struct sch_obj *o)
{
    if (o == &sch_machine_profile && !strcmp(m->string, "profile")) {
        report(c, m, 1, "a machine profile file cannot name another profile");
        return;
    }
    const char *s = sch_suggest(m->string, o->keys, (size_t)o->nkeys, sizeof *o->keys);
    if (s) {
        report(c, m, 1, "unknown key \"%.80s\" (did you mean \"%s\"?)", m->string, s);
    } else {
        char list[768];
        join_names(list, sizeof list, o->keys, (size_t)o->nkeys, sizeof *o->keys);
        report(c, m, 1, "unknown key \"%.80s\" (valid keys: %s)", m->string, list);
    }
}

/* Keys in document order: unknown, duplicate, then each value; then the
 * required keys that are missing.  found[i] = member for o->keys[i]. */
static int check_object(struct vctx *c, const cJSON *v, const struct sch_obj *o,
                        const cJSON **found)
{
    for (int i = 0; i < o->nkeys; i++) found[i] = NULL;
    if (!cJSON_IsObject(v)) {
        type_error(c, v, "an object");
        return 0;
    }
    int before = c->nerr;
    for (const cJSON *m = v->child; m && !c->stopped && !c->oom; m = m->next) {
        size_t mark = jptr_push_key(&c->ptr, m->string);
        int i = 0;
        while (i < o->nkeys && strcmp(o->keys[i].name, m->string)) i++;
        if (i == o->nkeys) {
            unknown_key(c, m, o);
        } else if (found[i]) {
            char at[300];
            where(c, found[i], m, 1, at, sizeof at);
            report(c, m, 1, "duplicate key \"%s\" (first at %s)", m->string, at);
        } else {
            found[i] = m;
            check_value(c, m, &o->keys[i]);
        }
        jptr_pop(&c->ptr, mark);
    }
    for (int i = 0; i < o->nkeys; i++)
        if (!found[i] && (o->keys[i].flags & SCH_REQUIRED))
            report(c, v, 0, "missing required key \"%s\"", o->keys[i].name);
    return c->nerr == before;
}

/* 1 if member b comes after member a in their object. */
static int after(const cJSON *a, const cJSON *b)
{
    for (const cJSON *x = a->next; x; x = x->next)
        if (x == b) return 1;
    return 0;
}

static void exclusive(struct vctx *c, const cJSON *a, const cJSON *b, const char *rule)
{
    const cJSON *second = after(a, b) ? b : a, *first = second == b ? a : b;
    size_t mark = jptr_push_key(&c->ptr, second->string);
    report(c, second, 1, "\"%s\" and \"%s\" are mutually exclusive (%s)", first->string,
           second->string, rule);
    jptr_pop(&c->ptr, mark);
}

/* Ops that open a block: a frame of the thread's program cursor. */
static int is_block(int kind)
{
    return kind == OP_LOOP || kind == OP_MEASURE || kind == OP_BRANCH || kind == OP_SYNCHRONIZE;
}

/* The key `name` of an op was found (found[i] for key i of its table). */
static const cJSON *found_key(const cJSON *const *found, int kind, const char *name)
{
    const struct sch_obj *o = &op_objs[kind];
    for (int i = 0; i < o->nkeys; i++)
        if (!strcmp(o->keys[i].name, name)) return found[i];
    return NULL;
}

static void at_key(struct vctx *c, const cJSON *m, const char *fmt, const char *a)
{
    size_t mark = jptr_push_key(&c->ptr, m->string);
    report(c, m, 0, fmt, a);
    jptr_pop(&c->ptr, mark);
}

/* What only the whole op can tell: a Mutex or ConditionVariable used from
 * one Ractor, the spawn target, latency_from with a named measure. */
static void check_op_refs(struct vctx *c, int kind, const cJSON *const *found)
{
    const cJSON *m = found_key(found, kind, "mutex");
    if (m && cJSON_IsString(m)) {
        size_t mark = jptr_push_key(&c->ptr, "mutex");
        check_scope(c, m, find_name(&c->tabs[NT_MUTEX], m->valuestring), NT_MUTEX);
        jptr_pop(&c->ptr, mark);
    }
    const cJSON *cv = found_key(found, kind, "cv");
    if (cv && cJSON_IsString(cv)) {
        size_t mark = jptr_push_key(&c->ptr, "cv");
        check_scope(c, cv, find_name(&c->tabs[NT_CONDVAR], cv->valuestring), NT_CONDVAR);
        jptr_pop(&c->ptr, mark);
    }
    const cJSON *t = found_key(found, kind, "thread");
    if (kind == OP_SPAWN && t && cJSON_IsString(t)) {
        struct qname *q = find_name(&c->tabs[NT_TMPL], t->valuestring);
        if (q && !q->spawned)
            at_key(c, t, "thread template \"%.80s\" is not \"spawned\": its instances start by themselves; "
                   "add \"spawned\": true to it", q->name);
        else if (q && c->ractor >= 0 && q->ractor != c->ractor)
            at_key(c, t, "thread template \"%.80s\" belongs to another Ractor: Thread.new starts a thread in "
                   "the caller's Ractor", q->name);
    }
    const cJSON *lf = found_key(found, kind, "latency_from");
    if (kind == OP_LOOP && lf) {
        const cJSON *meas = found_key(found, kind, "measure");
        if (!meas || !cJSON_IsString(meas))
            at_key(c, lf, "\"latency_from\" needs a named measure (\"measure\": \"NAME\")%s", "");
    }
}

/* m.OBJ.KEY (m.KEY when obj is NULL), or NULL */
static const cJSON *member_of(const cJSON *m, const char *obj, const char *key)
{
    if (obj) m = cJSON_IsObject(m) ? cJSON_GetObjectItemCaseSensitive(m, obj) : NULL;
    return cJSON_IsObject(m) ? cJSON_GetObjectItemCaseSensitive(m, key) : NULL;
}

/* machine.OBJ.KEY (machine.KEY when obj is NULL) of the scenario, else of
 * its profile file, else NULL */
static const cJSON *machine_member(const struct sch_doc *d, const char *obj, const char *key)
{
    const cJSON *m = cJSON_IsObject(d->root) ? cJSON_GetObjectItemCaseSensitive(d->root, "machine") : NULL;
    const cJSON *v = member_of(m, obj, key);
    return v ? v : member_of(d->profile, obj, key);
}

const cJSON *sch_machine_member(const struct sch_doc *d, const char *key)
{
    return machine_member(d, NULL, key);
}

const cJSON *sch_machine_syscall(const struct sch_doc *d, const char *call)
{
    return machine_member(d, "syscalls", call);
}

const cJSON *sch_machine_call_key(const struct sch_doc *d, const struct sch_obj *o, const char *call)
{
    return sch_find(o, call) ? machine_member(d, o->what, call) : NULL;
}

/* hidden_steal_rate > 0 needs the gaps' lengths (hidden_steal_len). */
/* A message about machine key `key` (value v, the scenario's or its
 * profile's): at the key when the scenario's machine object gives it, else
 * at the machine. */
static void machine_key_report(struct vctx *c, const cJSON *mach, const char *key, const cJSON *v, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
static void machine_key_report(struct vctx *c, const cJSON *mach, const char *key, const cJSON *v, const char *fmt, ...)
{
    bool here = cJSON_IsObject(mach) && cJSON_GetObjectItemCaseSensitive(mach, key) == v;
    size_t mark = here ? jptr_push_key(&c->ptr, key) : 0;
    char msg[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    report(c, here ? v : mach, 0, "%s", msg);
    if (here) jptr_pop(&c->ptr, mark);
}

/* speed_levels and speed_dwell: both or neither, one length, the factors
 * above 0 and the dwells too; each message at the key it is about. */
static void check_speed(struct vctx *c, const cJSON *mach)
{
    const cJSON *f = machine_member(c->d, NULL, "speed_levels"), *d = machine_member(c->d, NULL, "speed_dwell");
    if (!f && !d) return;
    if (!f || !d) {
        machine_key_report(c, mach, f ? "speed_levels" : "speed_dwell", f ? f : d,
                     "%s needs %s (a level's factor and its mean dwell, one of each per level; gvlsim calibrate "
                     "measures both)", f ? "speed_levels" : "speed_dwell", f ? "speed_dwell" : "speed_levels");
        return;
    }
    if (!cJSON_IsArray(f) || !cJSON_IsArray(d)) return;  /* (check_list said so) */
    if (cJSON_GetArraySize(f) != cJSON_GetArraySize(d))
        machine_key_report(c, mach, "speed_dwell", d, "speed_levels has %d values and speed_dwell %d: one of each per level",
                     cJSON_GetArraySize(f), cJSON_GetArraySize(d));
    for (const cJSON *e = f->child; e; e = e->next)
        if (cJSON_IsNumber(e) && !(e->valuedouble > 0)) {
            machine_key_report(c, mach, "speed_levels", f, "a speed level's factor must be above 0 (got %g)", e->valuedouble);
            break;
        }
    char err[160];
    for (const cJSON *e = d->child; e; e = e->next) {
        sim_time v;
        if (read_dur(c->d->pos, e, &v, err, sizeof err) && v <= 0) {
            machine_key_report(c, mach, "speed_dwell", d, "a speed level's dwell must be above 0");
            break;
        }
    }
}

static void check_steal(struct vctx *c, const cJSON *mach)
{
    const cJSON *rate = machine_member(c->d, NULL, "hidden_steal_rate");
    if (!cJSON_IsNumber(rate) || !(rate->valuedouble > 0) || machine_member(c->d, NULL, "hidden_steal_len")) return;
    machine_key_report(c, mach, "hidden_steal_rate", rate, "hidden_steal_rate %g needs the gaps' lengths: "
                       "machine.hidden_steal_len (an array of durations; gvlsim calibrate measures both)",
                       rate->valuedouble);
}

/* Which machine a scenario runs on, for a message: its profile's name, or
 * the machine object it gives, or the defaults. */
static void machine_what(const struct vctx *c, char *buf, size_t size)
{
    const cJSON *m = cJSON_GetObjectItemCaseSensitive(c->d->root, "machine");
    const cJSON *p = cJSON_IsObject(m) ? cJSON_GetObjectItemCaseSensitive(m, "profile") : m;
    if (cJSON_IsString(p)) snprintf(buf, size, "the machine profile \"%.200s\"", p->valuestring);
    else if (cJSON_IsObject(m)) snprintf(buf, size, "the scenario's \"machine\"");
    else snprintf(buf, size, "the default machine (the scenario names none)");
}

/* A syscall op's "method_work" or "method_work_after" (after): "machine"
 * is the machine's work of the call's Ruby method: one calibrate measures
 * (machine.method_work has a key for it), and the machine must give it. */
static void check_method_work(struct vctx *c, const cJSON *mw, bool after, const char *name)
{
    const char *key = after ? sch_method_work_after.what : sch_method_work.what;
    size_t mark = jptr_push_key(&c->ptr, key);
    char what[256];
    if (!sch_find(&sch_method_work, name))
        report(c, mw, 0, "\"machine\": no Ruby method's work is measured for call \"%s\" (machine.%s has "
               "\"stat\", File.mtime, and \"open_devnull\", \"write_devnull\" and \"close\", File.write): give "
               "the op a duration", name, key);
    else if (!sch_machine_call_key(c->d, after ? &sch_method_work_after : &sch_method_work, name)) {
        machine_what(c, what, sizeof what);
        report(c, mw, 0, "\"machine\": %s has no Ruby method work for call \"%s\" (machine.%s.%s): "
               "measure it with gvlsim calibrate (with a Ruby), set it (--set machine.%s.%s=DURATION), "
               "or give the op a duration", what, name, key, name, key, name);
    }
    jptr_pop(&c->ptr, mark);
}

/* A syscall op's "dur": "machine" is the machine's cost of its real call:
 * the call must be one (not nanosleep, not an io_wait: those sleep for
 * their dur) and the machine must give it (machine.syscalls.CALL). */
static void check_syscall(struct vctx *c, const cJSON *const *found)
{
    const cJSON *dur = found[1], *call = found[2], *io = found[4], *mw = found[6], *mwa = found[7];
    const char *name = cJSON_IsString(call) ? call->valuestring : sch_find(&op_objs[OP_SYSCALL], "call")->def;
    int ci = sch_enum_index(scn_call_names, name);
    if (ci < 0) return;   /* reported at "call" */
    if (cJSON_IsString(mw) && !strcmp(mw->valuestring, SCH_DUR_MACHINE)) check_method_work(c, mw, false, name);
    if (cJSON_IsString(mwa) && !strcmp(mwa->valuestring, SCH_DUR_MACHINE)) check_method_work(c, mwa, true, name);
    if (!cJSON_IsString(dur) || strcmp(dur->valuestring, SCH_DUR_MACHINE)) return;
    size_t mark = jptr_push_key(&c->ptr, "dur");
    char what[256];
    if (ci == CALL_NANOSLEEP)
        report(c, dur, 0, "\"machine\": a nanosleep waits for its dur, which is no cost of the machine: give it "
               "a duration");
    else if (cJSON_IsTrue(io))
        report(c, dur, 0, "\"machine\": an io_wait sleeps off the CPU for its dur, which is no cost of the "
               "machine: give it a duration");
    else if (!sch_machine_syscall(c->d, name)) {
        machine_what(c, what, sizeof what);
        report(c, dur, 0, "\"machine\": %s has no cost for call \"%s\" (machine.syscalls.%s): measure it with "
               "gvlsim calibrate, set it (--set machine.syscalls.%s=DURATION), or give the op a duration",
               what, name, name, name);
    }
    jptr_pop(&c->ptr, mark);
}

static void check_op(struct vctx *c, const cJSON *v)
{
    if (!cJSON_IsObject(v)) { type_error(c, v, "an op object"); return; }
    const cJSON *opv = cJSON_GetObjectItemCaseSensitive(v, "op");
    if (!opv) {
        char list[512];
        join_names(list, sizeof list, scn_op_names, OP_KIND_COUNT, sizeof *scn_op_names);
        report(c, v, 0, "missing required key \"op\" (one of: %s)", list);
        return;
    }
    size_t mark = jptr_push_key(&c->ptr, "op");
    int kind = -1;
    if (!cJSON_IsString(opv)) type_error(c, opv, "a string");
    else if ((kind = sch_enum_index(scn_op_names, opv->valuestring)) < 0)
        bad_enum(c, opv, "op", scn_op_names);
    jptr_pop(&c->ptr, mark);
    if (kind < 0) return;

    if (is_block(kind) && c->loop_depth >= SCN_MAX_LOOP_DEPTH) {
        report(c, v, 0, "blocks (loop, measure, branch, synchronize) nested deeper than %d", SCN_MAX_LOOP_DEPTH);
        return;
    }
    const cJSON *found[SCH_MAX_KEYS];
    if (is_block(kind)) c->loop_depth++;
    check_object(c, v, &op_objs[kind], found);
    if (is_block(kind)) c->loop_depth--;
    check_op_refs(c, kind, found);

    if (kind == OP_SYSCALL) {
        check_syscall(c, found);
    } else if (kind == OP_COMPUTE) {
        if (found[1] && found[2]) exclusive(c, found[1], found[2], "compute takes one of them");
        else if (!found[1] && !found[2]) report(c, v, 0, "compute needs \"dur\" or \"insns\"");
    } else if (kind == OP_LOOP) {
        const cJSON *modes[3] = { found[1], found[2], found[3] };
        const cJSON *seen = NULL;
        for (int i = 0; i < 3; i++) {
            if (!modes[i]) continue;
            if (seen) {
                exclusive(c, seen, modes[i],
                          "a loop takes exactly one of \"times\", \"times_total\", \"forever\"");
                break;
            }
            seen = modes[i];
        }
        if (!seen) report(c, v, 0, "loop needs one of \"times\", \"times_total\" or \"forever\"");
        if (found[3] && cJSON_IsTrue(found[3]) && !c->has_stop_time) {
            mark = jptr_push_key(&c->ptr, "forever");
            report(c, found[3], 0,
                   "a \"forever\" loop needs a top-level \"stop\": {\"time\": ...} to end the run");
            jptr_pop(&c->ptr, mark);
        }
    }
}

/* A thread template: "start" and "spawned" exclude each other, and the
 * main thread is never spawned. */
static void check_thread(struct vctx *c, const cJSON *const *found, size_t index)
{
    const cJSON *start = found[3], *spawned = found[4];
    if (!spawned || !cJSON_IsTrue(spawned)) return;
    if (start) {
        exclusive(c, start, spawned, "a spawned thread starts when a spawn op starts it");
    } else if (c->ractor == 0 && index == 0) {
        at_key(c, spawned, "ractors[0].threads[0] is the main thread: it runs from the start and cannot be "
               "\"spawned\"%s", "");
    } else if (c->ractor_count > 1) {
        at_key(c, spawned, "a spawned thread template needs a Ractor with count 1 (the spawn op would not "
               "say which copy starts it)%s", "");
    }
}

/* A generator: exactly one of "rate" and "interval"; without "count" it
 * runs until stop.time. */
static void check_generator(struct vctx *c, const cJSON *g, const cJSON *const *found)
{
    const cJSON *rate = found[3], *interval = found[4], *count = found[6];
    if (rate && interval) exclusive(c, rate, interval, "a generator takes one of them");
    else if (!rate && !interval) report(c, g, 0, "a generator needs \"rate\" (arrivals per second) or \"interval\"");
    if (!count && !c->has_stop_time)
        report(c, g, 0, "a generator without \"count\" runs until the run stops: it needs a top-level "
               "\"stop\": {\"time\": ...}");
}

static void check_ops(struct vctx *c, const cJSON *v, const struct sch_key *k)
{
    if (!cJSON_IsArray(v)) { type_error(c, v, "an array of ops"); return; }
    if (k->min > 0 && !v->child) report(c, v, 0, "must have at least %lld op", (long long)k->min);
    size_t i = 0;
    for (const cJSON *op = v->child; op && !c->stopped && !c->oom; op = op->next, i++) {
        size_t mark = jptr_push_index(&c->ptr, i);
        check_op(c, op);
        jptr_pop(&c->ptr, mark);
    }
}

/* The name table of objects declared by an array of `o`, or -1. */
static int declared_kind(const struct sch_obj *o)
{
    if (o == &sch_queue) return NT_QUEUE;
    if (o == &mutex_obj) return NT_MUTEX;
    if (o == &condvar_obj) return NT_CONDVAR;
    if (o == &measure_obj) return NT_MEASURE;
    return -1;
}

static void check_array(struct vctx *c, const cJSON *v, const struct sch_key *k)
{
    if (!cJSON_IsArray(v)) { type_error(c, v, "an array"); return; }
    if (k->min > 0 && !v->child)
        report(c, v, 0, "must have at least %lld %s", (long long)k->min, k->obj->what);
    int nt = declared_kind(k->obj);
    size_t i = 0;
    for (const cJSON *e = v->child; e && !c->stopped && !c->oom; e = e->next, i++) {
        size_t mark = jptr_push_index(&c->ptr, i);
        const cJSON *found[SCH_MAX_KEYS];
        if (k->obj == &sch_ractor) {
            c->ractor = (int)i;
            c->ractor_count = count_of(c, e, SCH_MAX_RACTORS);
        }
        if (k->obj == &sch_thread) c->thread_index = (int)i;
        check_object(c, e, k->obj, found);
        if (k->obj == &sch_ractor) c->ractor = -1;
        if (k->obj == &sch_thread) check_thread(c, found, i);
        if (k->obj == &sch_generator && cJSON_IsObject(e)) check_generator(c, e, found);
        if (k->obj == &sch_ractor && i == 0 && found[1]) {
            int64_t n;
            int why;
            if (read_int(c->d->pos, found[1], &n, &why) && n > 1 && n <= SCH_MAX_RACTORS) {
                size_t m2 = jptr_push_key(&c->ptr, "count");
                report(c, found[1], 0,
                       "ractors[0] is the main Ractor and cannot be replicated: count must be 1, got %lld",
                       (long long)n);
                jptr_pop(&c->ptr, m2);
            }
        }
        if (nt >= 0 && found[0] && cJSON_IsString(found[0])) {
            const struct qname *q = find_name(&c->tabs[nt], found[0]->valuestring);
            if (q && q->node != found[0]) {
                char at[300];
                where(c, q->node, found[0], 0, at, sizeof at);
                size_t m2 = jptr_push_key(&c->ptr, "name");
                report(c, found[0], 0, "duplicate %s name \"%.80s\" (first at %s)", nt_what[nt],
                       found[0]->valuestring, at);
                jptr_pop(&c->ptr, m2);
            }
        }
        jptr_pop(&c->ptr, mark);
    }
}

/* The names of one top-level array's objects into tab. */
static int prescan_names(const cJSON *arr, struct nametab *tab)
{
    if (!cJSON_IsArray(arr)) return GV_OK;
    size_t n = 0;
    for (const cJSON *q = arr->child; q; q = q->next) n++;
    if (!n) return GV_OK;
    tab->v = malloc(n * sizeof *tab->v);
    if (!tab->v) return GV_ENOMEM;
    for (const cJSON *q = arr->child; q; q = q->next) {
        const cJSON *nm = cJSON_IsObject(q) ? cJSON_GetObjectItemCaseSensitive(q, "name") : NULL;
        if (cJSON_IsString(nm)) {
            tab->v[tab->n] = (struct qname){ nm->valuestring, nm, tab->n, -1, 0, NULL };
            tab->n++;
        }
    }
    qsort(tab->v, tab->n, sizeof *tab->v, qname_cmp);
    return GV_OK;
}

/* The named thread templates, with their Ractor template. */
static int prescan_tmpls(const cJSON *rs, struct nametab *tab)
{
    size_t n = 0;
    for (const cJSON *r = cJSON_IsArray(rs) ? rs->child : NULL; r; r = r->next) {
        const cJSON *ts = cJSON_IsObject(r) ? cJSON_GetObjectItemCaseSensitive(r, "threads") : NULL;
        for (const cJSON *t = cJSON_IsArray(ts) ? ts->child : NULL; t; t = t->next) n++;
    }
    if (!n) return GV_OK;
    tab->v = malloc(n * sizeof *tab->v);
    if (!tab->v) return GV_ENOMEM;
    int ri = 0;
    for (const cJSON *r = rs->child; r; r = r->next, ri++) {
        const cJSON *ts = cJSON_IsObject(r) ? cJSON_GetObjectItemCaseSensitive(r, "threads") : NULL;
        for (const cJSON *t = cJSON_IsArray(ts) ? ts->child : NULL; t; t = t->next) {
            const cJSON *nm = cJSON_IsObject(t) ? cJSON_GetObjectItemCaseSensitive(t, "name") : NULL;
            const cJSON *sp = cJSON_IsObject(t) ? cJSON_GetObjectItemCaseSensitive(t, "spawned") : NULL;
            if (!cJSON_IsString(nm)) continue;
            tab->v[tab->n] = (struct qname){ nm->valuestring, nm, tab->n, ri, cJSON_IsTrue(sp), NULL };
            tab->n++;
        }
    }
    qsort(tab->v, tab->n, sizeof *tab->v, qname_cmp);
    return GV_OK;
}

/* Declared names and whether stop.time is given, before the walk: ops
 * may name a queue (mutex, ...) declared further down the file. */
static int prescan(struct vctx *c)
{
    const cJSON *root = c->d->root;
    const cJSON *stop = cJSON_GetObjectItemCaseSensitive(root, "stop");
    const cJSON *st = cJSON_IsObject(stop) ? cJSON_GetObjectItemCaseSensitive(stop, "time") : NULL;
    c->has_stop_time = st != NULL;
    if (st) {
        char err[8];
        if (!read_dur(c->d->pos, st, &c->stop_time, err, sizeof err)) c->stop_time = 0;
    }
    c->ractor = -1;
    for (int nt = 0; nt < NT_COUNT; nt++) {
        int rc = nt == NT_TMPL ? prescan_tmpls(cJSON_GetObjectItemCaseSensitive(root, "ractors"), &c->tabs[nt])
                               : prescan_names(cJSON_GetObjectItemCaseSensitive(root, nt_key[nt]), &c->tabs[nt]);
        if (rc != GV_OK) return rc;
    }
    return GV_OK;
}

/* warmup must end before stop.time. */
static void check_warmup(struct vctx *c)
{
    const cJSON *w = cJSON_GetObjectItemCaseSensitive(c->d->root, "warmup");
    sim_time t;
    char err[8];
    if (!w || !c->has_stop_time || c->stop_time <= 0 || !read_dur(c->d->pos, w, &t, err, sizeof err)) return;
    if (t >= c->stop_time) {
        char a[32], b[32];
        units_format(t, a, sizeof a);
        units_format(c->stop_time, b, sizeof b);
        size_t mark = jptr_push_key(&c->ptr, "warmup");
        report(c, w, 0, "warmup (%s) must end before stop.time (%s)", a, b);
        jptr_pop(&c->ptr, mark);
    }
}

/* A count for the size check: a valid one, else 1 (already reported). */
static int64_t count_of(const struct vctx *c, const cJSON *obj, int64_t max)
{
    const cJSON *v = cJSON_IsObject(obj) ? cJSON_GetObjectItemCaseSensitive(obj, "count") : NULL;
    int64_t n;
    int why;
    if (v && read_int(c->d->pos, v, &n, &why) && n >= 1 && n <= max) return n;
    return 1;
}

static void check_size(struct vctx *c)
{
    const cJSON *rs = cJSON_GetObjectItemCaseSensitive(c->d->root, "ractors");
    if (!cJSON_IsArray(rs)) return;
    int64_t threads = 0, ractors = 0;  /* <= 1e5 x (1e6 x templates): no overflow */
    for (const cJSON *r = rs->child; r; r = r->next) {
        int64_t rc = count_of(c, r, SCH_MAX_RACTORS), per = 0;
        const cJSON *ts = cJSON_IsObject(r) ? cJSON_GetObjectItemCaseSensitive(r, "threads") : NULL;
        for (const cJSON *t = cJSON_IsArray(ts) ? ts->child : NULL; t; t = t->next) {
            per += count_of(c, t, SCH_MAX_THREADS);
            if (per > SCH_MAX_THREADS) break;  /* already too large; keeps the product small */
        }
        ractors += rc;
        threads += rc * per;
        if (threads > SCH_MAX_THREADS * 1000) threads = SCH_MAX_THREADS * 1000;
    }
    size_t mark = jptr_push_key(&c->ptr, "ractors");
    if (threads > SCH_MAX_THREADS)
        report(c, rs, 0, "scenario too large: %lld%s threads (limit %lld)", (long long)threads,
               threads == SCH_MAX_THREADS * 1000 ? "+" : "", (long long)SCH_MAX_THREADS);
    if (ractors > SCH_MAX_RACTORS)
        report(c, rs, 0, "scenario too large: %lld Ractor instances (limit %lld)", (long long)ractors,
               (long long)SCH_MAX_RACTORS);
    jptr_pop(&c->ptr, mark);
}

int sch_validate(const struct sch_doc *d, struct diag_list *diags)
{
    struct vctx c;
    memset(&c, 0, sizeof c);
    c.d = d;
    c.diags = diags;
    jptr_init(&c.ptr);
    int rc = GV_OK;
    if (!cJSON_IsObject(d->root)) {
        report(&c, d->root, 0, "a scenario must be a JSON object, got %s", got(d->root));
    } else if ((rc = prescan(&c)) == GV_OK) {
        const cJSON *found[SCH_MAX_KEYS];
        check_object(&c, d->root, &sch_scenario, found);
        if (!c.stopped && !c.oom) check_warmup(&c);
        if (!c.stopped && !c.oom) check_size(&c);
    }
    if (c.oom || c.ptr.oom || diags->oom) rc = GV_ENOMEM;
    else if (rc == GV_OK && c.nerr) rc = GV_EINVAL;
    for (int nt = 0; nt < NT_COUNT; nt++) free(c.tabs[nt].v);
    jptr_free(&c.ptr);
    return rc;
}
