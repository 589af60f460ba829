/* test_machine_index.c - the machine's core indexes (sim/machine.c, "core
 * indexes") agree with the cores they summarise at every model step: the
 * idle bitmap with the cores' states, the machine-wide count with the run
 * queues, and the root of the run-queue tree with the lowest-index core
 * with the shortest queue.  Runs with hundreds of threads, on core counts
 * below and above the tree's threshold, under the FIFO and a fair class. */
#include "test.h"
#include "sim_fixture.h"

struct check {
    const struct vm *vm;
    long checks, bad;
};

static void check_indexes(void *ctx, int thread, enum thread_state from, enum thread_state to,
                          sim_time now)
{
    (void)thread, (void)from, (void)to, (void)now;
    struct check *c = ctx;
    const struct machine *m = &c->vm->mach;
    int total = 0, shortest = 0;
    for (int i = 0; i < m->ncores; i++) {
        const struct mach_core *k = &m->cores[i];
        bool bit = (m->idle[i / 64] >> (i % 64)) & 1;
        if (bit != (k->state == CORE_IDLE)) c->bad++;
        total += k->nrq;
        if (k->nrq < m->cores[shortest].nrq) shortest = i;
    }
    if (total != m->nrq_total) c->bad++;
    if (m->rq_min && (int)(uint32_t)m->rq_min[1] != shortest) c->bad++;
    c->checks++;
}

static struct check *g_check;

static void setup(struct vm *vm, void *ctx)
{
    (void)ctx;
    g_check->vm = vm;
    vm->obs.ctx = g_check;
    vm->obs.thread_state = check_indexes;
}

static void run_case(const char *cores, const char *sched)
{
    char set_cores[64], set_sched[64];
    snprintf(set_cores, sizeof set_cores, "machine.cores=%s", cores);
    snprintf(set_sched, sizeof set_sched, "machine.os_scheduler=%s", sched);
    const char *sets[] = { set_cores, set_sched, "ractors.0.threads.1.count=300",
                           "ractors.0.threads.1.program.0.times_total=6000" };
    struct scenario s;
    ASSERT_EQ(fx_load("tests/bench/threads.json", sets, 4, "scenarios/machines", &s), GV_OK);
    struct check c = { 0 };
    g_check = &c;
    struct fx_hooks h = { setup, NULL, NULL };
    struct fx_result r;
    fx_run(&s, &h, &r);
    ASSERT_EQ(r.rc, GV_OK);
    ASSERT(c.checks > 10000);
    ASSERT_EQ(c.bad, 0);
    scenario_free(&s);
}

static void test_indexes_fifo(void)
{
    run_case("3", "fifo");     /* scanned: no tree */
    run_case("40", "fifo");    /* the tree, 64 leaves */
    run_case("130", "fifo");   /* three words of idle bits */
}

static void test_indexes_fair(void)
{
    run_case("5", "eevdf_delay_dequeue");
    run_case("40", "eevdf_delay_dequeue");
}

int main(void)
{
    RUN(test_indexes_fifo);
    RUN(test_indexes_fair);
    TEST_DONE();
}
