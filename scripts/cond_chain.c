/* cond_chain.c - what one CPU's hand-off chain of the eager ping-pong costs
 * on real pthreads, against calibrate's futex ping-pong.  The chain: thread
 * A takes a mutex, sets a flag and signals B's condvar holding it (CRuby 3.3+
 * signals under sched->lock_), B preempts A, returns from its FUTEX_WAIT,
 * finds the mutex held and sleeps on it (pthread_cond_wait's re-lock), A
 * runs on and unlocks (a FUTEX_WAKE), B preempts again, answers and waits
 * for the next signal.  The model charges such a cycle its calls
 * (futex_wake_none for each FUTEX_WAKE, the sleeper's wake_return for each
 * wait, context_switch for each switch); the futex ping-pong is the
 * measurement those keys come from (handoff_same_cpu_ns: a FUTEX_WAKE and
 * a FUTEX_WAIT per switch).  docs/validate.md, "The hot_steal race and the
 * one-CPU chain".
 *
 *   cc -O2 -pthread -o cond_chain scripts/cond_chain.c
 *   ./cond_chain [ROUNDS [CPU]]
 *
 * Both threads pinned to CPU (default 0); per round, 100K cycles of the
 * chain, then 100K of the ping-pong (interleaved, round after round).
 * Prints each one's ns per cycle and, from the threads' voluntary and
 * involuntary switches (getrusage), the switches per cycle and the ns per
 * switch; and each thread's CPU a cycle (CLOCK_THREAD_CPUTIME_ID: what
 * the kernel charged it, which its vruntime follows), A the signaller, B
 * the thread woken. */
#include "probe.h"

#include <stdio.h>
#include <sys/resource.h>

#define CYCLES 100000

static int cpu;
static long long b_cpu;  /* B's CPU over its loop (ns) */

static long long thread_cpu_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return t.tv_sec * 1000000000LL + t.tv_nsec;
}
static void pin(void)
{
    allow(cpu, -1);
}

/* the chain */
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t c = PTHREAD_COND_INITIALIZER, c_ack = PTHREAD_COND_INITIALIZER;
static int flag, ack, stop;

static void *chain_b(void *x)
{
    (void)x;
    pin();
    long long c0 = thread_cpu_ns();
    pthread_mutex_lock(&m);
    for (;;) {
        while (!flag && !stop) pthread_cond_wait(&c, &m);
        if (stop) break;
        flag = 0;
        ack = 1;
        pthread_cond_signal(&c_ack);
    }
    pthread_mutex_unlock(&m);
    b_cpu = thread_cpu_ns() - c0;
    return NULL;
}

/* the ping-pong */
static atomic_int w_b, w_a;
static void fwait(atomic_int *w, int v)
{
    syscall(SYS_futex, w, FUTEX_WAIT_PRIVATE, v, NULL, NULL, 0);
}
static void fwake(atomic_int *w)
{
    syscall(SYS_futex, w, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}
static void *pingpong_b(void *x)
{
    (void)x;
    pin();
    long long c0 = thread_cpu_ns();
    for (int i = 0; i < CYCLES; i++) {
        while (atomic_load(&w_b) == 0) fwait(&w_b, 0);
        atomic_store(&w_b, 0);
        atomic_store(&w_a, 1);
        fwake(&w_a);
    }
    b_cpu = thread_cpu_ns() - c0;
    return NULL;
}

static long switches(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_nvcsw + ru.ru_nivcsw;
}

/* ns per cycle; *sw: switches per cycle, *a, *b: A's and B's CPU per
 * cycle (ns) */
static double run_chain(double *sw, double *a, double *b)
{
    pthread_t t;
    flag = ack = stop = 0;
    if (pthread_create(&t, NULL, chain_b, NULL) != 0) exit(1);
    usleep(2000);
    long s0 = switches();
    long long a0 = thread_cpu_ns();
    long long t0 = now_ns();
    for (int i = 0; i < CYCLES; i++) {
        pthread_mutex_lock(&m);
        flag = 1;
        pthread_cond_signal(&c);
        pthread_mutex_unlock(&m);
        pthread_mutex_lock(&m);
        while (!ack) pthread_cond_wait(&c_ack, &m);
        ack = 0;
        pthread_mutex_unlock(&m);
    }
    long long t1 = now_ns();
    *a = (double)(thread_cpu_ns() - a0) / CYCLES;
    *sw = (double)(switches() - s0) / CYCLES;
    pthread_mutex_lock(&m);
    stop = 1;
    pthread_cond_signal(&c);
    pthread_mutex_unlock(&m);
    pthread_join(t, NULL);
    *b = (double)b_cpu / CYCLES;
    return (double)(t1 - t0) / CYCLES;
}

static double run_pingpong(double *sw, double *a, double *b)
{
    pthread_t t;
    atomic_store(&w_b, 0);
    atomic_store(&w_a, 0);
    if (pthread_create(&t, NULL, pingpong_b, NULL) != 0) exit(1);
    usleep(2000);
    long s0 = switches();
    long long a0 = thread_cpu_ns();
    long long t0 = now_ns();
    for (int i = 0; i < CYCLES; i++) {
        atomic_store(&w_b, 1);
        fwake(&w_b);
        while (atomic_load(&w_a) == 0) fwait(&w_a, 0);
        atomic_store(&w_a, 0);
    }
    long long t1 = now_ns();
    *a = (double)(thread_cpu_ns() - a0) / CYCLES;
    *sw = (double)(switches() - s0) / CYCLES;
    pthread_join(t, NULL);
    *b = (double)b_cpu / CYCLES;
    return (double)(t1 - t0) / CYCLES;
}

int main(int argc, char **argv)
{
    int rounds = argc > 1 ? atoi(argv[1]) : 5;
    cpu = argc > 2 ? atoi(argv[2]) : 0;
    if (rounds < 1) rounds = 1;
    pin();
    for (int r = 0; r < rounds; r++) {
        double sc, sp, ca, cb, pa, pb;
        double ch = run_chain(&sc, &ca, &cb), pp = run_pingpong(&sp, &pa, &pb);
        printf("round %d: chain %.0f ns a cycle, %.2f switches, %.0f ns a switch, CPU A %.0f B %.0f; "
               "ping-pong %.0f ns a cycle, %.2f switches, %.0f ns a switch, CPU A %.0f B %.0f\n",
               r, ch, sc, ch / sc, ca, cb, pp, sp, pp / sp, pa, pb);
        fflush(stdout);
    }
    return 0;
}
