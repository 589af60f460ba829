/* calib_timer.c - how late a timed futex wait ends (CALIB_TIMER_LATE_*).
 *
 * glibc's pthread_cond_timedwait sleeps in FUTEX_WAIT_BITSET with an
 * absolute CLOCK_MONOTONIC deadline (nptl/pthread_cond_wait.c,
 * __futex_abstimed_wait_common64).  Linux arms that sleep's hrtimer over
 * [deadline, deadline + current->timer_slack_ns] (kernel/futex/waitwake.c
 * futex_wait -> futex_setup_timer), and a timer alone on its CPU fires at
 * the end of the range: a normal thread's slack is 50 us
 * (init/init_task.c; prctl(2) PR_SET_TIMERSLACK).  What the thread sees
 * is that plus the time from the expiry to its own code running again
 * (the interrupt, the wake-up, the switch, the futex's return).
 *
 * The measuring thread waits on the first CPU with a busy thread beside it
 * there (a threshold helper polls while a Ruby thread runs), for each size
 * with its default slack and with the slack set to 1 ns, and records the
 * time from the deadline to its return.  A round takes every (size, slack)
 * TIMER_PER_ROUND times in a shuffled order, so that a busy moment of the
 * host falls on all of them alike; rounds go on until the longest size's
 * medians agree, or the budget is spent.  The thread's slack is restored.
 */
#include <errno.h>
#include <linux/futex.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "../common/err.h"
#include "calib_int.h"

#define TIMER_PER_ROUND 3
#define TIMER_CASES (2 * CALIB_TIMER_SIZES)

const long long calib_timer_ns[CALIB_TIMER_SIZES] = { 100000, 300000, 1000000 };

struct spinner {
    atomic_int stop;
};

static void *spin_thread(void *arg)
{
    struct spinner *s = arg;
    while (!atomic_load(&s->stop)) {
    }
    return NULL;
}

/* One timed wait on a futex word nobody changes: the deadline -> the
 * return, ns. */
static long long late_once(long long wait_ns)
{
    static atomic_int word;
    long long dl = calib_now_ns() + wait_ns;
    struct timespec ts = { (time_t)(dl / 1000000000LL), (long)(dl % 1000000000LL) };
    long r;
    do {
        r = syscall(SYS_futex, (int *)&word, FUTEX_WAIT_BITSET_PRIVATE, 0, &ts, NULL, FUTEX_BITSET_MATCH_ANY);
    } while (r == -1 && errno == EINTR);
    return calib_now_ns() - dl;
}

static enum calib_id case_id(int k)
{
    return (enum calib_id)((k < CALIB_TIMER_SIZES ? CALIB_TIMER_LATE_100US : CALIB_TIMER_LATE_1NS_100US) +
                           k % CALIB_TIMER_SIZES);
}

void calib_bench_timer(struct calib_ctx *c)
{
    enum calib_id ids[TIMER_CASES];
    for (int k = 0; k < TIMER_CASES; k++) ids[k] = case_id(k);
    int slack = prctl(PR_GET_TIMERSLACK, 0, 0, 0, 0);
    struct spinner sp;
    memset(&sp, 0, sizeof sp);
    pthread_t ts;
    if (slack < 0 || calib_thread_start(c, &ts, c->cpu0, spin_thread, &sp) != GV_OK) {
        calib_skip_ids(c, ids, TIMER_CASES, slack < 0 ? "PR_GET_TIMERSLACK failed" : c->err);
        c->err[0] = '\0';
        return;
    }
    unsigned long long rnd = 0x9e3779b97f4a7c15ull;
    /* the rounds go on until the longest wait's, default slack, agree */
    _Static_assert(TIMER_CASES <= CALIB_KINDS_MAX, "the timed waits are calib_kinds");
    struct calib_kinds kinds;
    calib_kinds_start(&kinds, c, ids, TIMER_CASES, CALIB_TIMER_SIZES - 1, 1.5, c->min_rounds);
    late_once(calib_timer_ns[0]);  /* the spinner running, the first wait's setup out of the samples */
    do {
        int order[TIMER_CASES * TIMER_PER_ROUND], n = TIMER_CASES * TIMER_PER_ROUND;
        calib_rounds_order(order, TIMER_CASES, TIMER_PER_ROUND, &rnd);
        for (int i = 0; i < n; i++) {
            int k = order[i];
            prctl(PR_SET_TIMERSLACK, k < CALIB_TIMER_SIZES ? (unsigned long)slack : 1UL, 0, 0, 0);
            calib_kinds_add(&kinds, k, (double)late_once(calib_timer_ns[k % CALIB_TIMER_SIZES]));
        }
    } while (calib_kinds_round_end(&kinds));
    prctl(PR_SET_TIMERSLACK, (unsigned long)slack, 0, 0, 0);
    atomic_store(&sp.stop, 1);
    pthread_join(ts, NULL);
    calib_kinds_end(&kinds, c);
}
