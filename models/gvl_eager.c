/* gvl_eager.c - eager GVL hand-off: CRuby 3.3 to 4.0.x before the
 * backport of PR 15840 (#17751).
 *
 * At blocking-region entry (thread_sched_to_waiting_common) the head of
 * the ready queue is made `running` and its native thread is signalled at
 * once, however short the coming syscall is.  At exit
 * (thread_sched_to_running_common) the thread finds `running` is someone
 * else, queues up behind them and sleeps: one voluntary context switch per
 * syscall while anyone else is ready, and on a multi-core machine a
 * cross-core wake-up per hand-off (bug #21685).
 */
#include "gvl.h"
#include "gvl_policy.h"

const struct gvl_policy gvl_eager = {
    .name = "eager",
    .id = GVL_POLICY_EAGER,
    .blocking_enter = gvl33_blocking_enter,
    .blocking_exit = gvl33_blocking_exit,
    .park = gvl33_park,
    .ready = gvl33_ready,
    .yield = gvl33_yield,
    .start = gvl33_start,
    .dead = gvl33_dead,
    .tick = NULL,
    .uses_timer_thread = true,
};
