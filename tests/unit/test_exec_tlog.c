/* test_exec_tlog.c - the executor's record of state changes for --trace
 * (exec/exec_tlog.h), on one thread: blocks handed out in turn, sized for
 * the pool's threads; the record sorted by time, ties by thread and then
 * in each thread's order, each with its CPU; each thread's first block its
 * own (a first change timed back at the gate never cuts the record); a
 * full pool cut at the earliest change that found no block, with what was
 * recorded beyond it and dropped since. */
#include <stdint.h>
#include <stdlib.h>

#include "../../common/err.h"
#include "../../exec/exec_tlog.h"
#include "test.h"

static void test_blocks(void)
{
    struct exec_tlog l;
    /* 2M entries for 9 threads: whole blocks of the largest size */
    ASSERT_EQ(exec_tlog_init(&l, 2000000, 9), GV_OK);
    ASSERT_EQ(l.block, EXEC_TLOG_BLOCK);
    ASSERT((uint64_t)l.nblocks * l.block >= 2000000);
    exec_tlog_free(&l);
    /* a small pool: a quarter of a thread's share, not below the minimum */
    ASSERT_EQ(exec_tlog_init(&l, 400, 4), GV_OK);
    ASSERT_EQ(l.block, 25);
    ASSERT_EQ(l.nblocks, 16);
    exec_tlog_free(&l);
    /* fewer entries than threads: still a first block of its own for each */
    ASSERT_EQ(exec_tlog_init(&l, 10, 100), GV_OK);
    ASSERT_EQ(l.block, EXEC_TLOG_BLOCK_MIN);
    ASSERT_EQ(l.nblocks, 100);
    ASSERT_EQ(l.nown, 100);
    exec_tlog_free(&l);
}

static void test_sorted(void)
{
    struct exec_tlog l;
    ASSERT_EQ(exec_tlog_init(&l, 1000, 2), GV_OK);
    struct exec_tlog_cursor a = { 0 }, b = { 0 };
    /* thread 1 first in the pool; thread 0's changes interleave in time,
     * two of them at one time (their order kept), and one tie with
     * thread 1 (thread 0 first) */
    exec_tlog_add(&l, &b, 1, 3, 100, 1);
    exec_tlog_add(&l, &b, 1, 4, 250, 0);
    exec_tlog_add(&l, &a, 0, 1, 50, 0);
    exec_tlog_add(&l, &a, 0, 2, 250, 70000);
    exec_tlog_add(&l, &a, 0, 5, 250, -1);
    exec_tlog_add(&l, &a, 0, 6, 300, 65534);
    struct exec_tlog_entry *e;
    size_t n;
    int64_t cut;
    uint64_t beyond;
    ASSERT_EQ(exec_tlog_sorted(&l, &e, &n, &cut, &beyond), GV_OK);
    ASSERT_EQ(n, 6);
    ASSERT_EQ(cut, INT64_MAX);
    ASSERT_EQ(beyond, 0);
    static const int64_t t[] = { 50, 100, 250, 250, 250, 300 };
    static const uint32_t th[] = { 0, 1, 0, 0, 1, 0 };
    static const int to[] = { 1, 3, 2, 5, 4, 6 };
    /* the CPU kept with its change; one the entry cannot hold, or none
     * (-1), recorded as unknown */
    static const int cpu[] = { 0, 1, EXEC_TLOG_NO_CPU, EXEC_TLOG_NO_CPU, 0, 65534 };
    for (size_t i = 0; i < n; i++) {
        ASSERT_EQ(e[i].t_ns, t[i]);
        ASSERT_EQ(e[i].thread, th[i]);
        ASSERT_EQ(e[i].to, to[i]);
        ASSERT_EQ(e[i].cpu, cpu[i]);
    }
    free(e);
    exec_tlog_free(&l);
}

static void test_full(void)
{
    struct exec_tlog l;
    /* three blocks of 16 for two threads: each one's first block its own,
     * one for the pool */
    ASSERT_EQ(exec_tlog_init(&l, 48, 2), GV_OK);
    ASSERT_EQ(l.nblocks, 3);
    struct exec_tlog_cursor a = { 0 }, b = { 0 };
    for (int i = 0; i < 20; i++) exec_tlog_add(&l, &a, 0, i % 3, 10 * (i + 1), 0);  /* 10 .. 200: its own, then the pool's */
    ASSERT(!a.full);
    /* thread 1's first change, timed back at the gate after the pool's
     * last block went: recorded in its own block, not a cut at t=5 */
    exec_tlog_add(&l, &b, 1, 1, 5, 1);
    ASSERT(!b.full);
    for (int i = 0; i < 16; i++) exec_tlog_add(&l, &b, 1, i % 3, 300 + 10 * i, 1);  /* 300 .. 440: the 16th finds none */
    ASSERT(b.full);
    ASSERT_EQ(b.dropped, 1);
    for (int i = 20; i < 33; i++) exec_tlog_add(&l, &a, 0, i % 3, 10 * (i + 1), 0);  /* 210 .. 330: the pool's block ends at 320 */
    ASSERT(a.full);
    ASSERT_EQ(a.dropped, 1);
    struct exec_tlog_entry *e;
    size_t n;
    int64_t cut;
    uint64_t beyond;
    ASSERT_EQ(exec_tlog_sorted(&l, &e, &n, &cut, &beyond), GV_OK);
    ASSERT_EQ(cut, 330);  /* thread 0's change that found none, earlier than thread 1's (450) */
    ASSERT_EQ(n, 37);     /* thread 1 at 5 and 300-330, thread 0 at 10-320 */
    ASSERT_EQ(beyond, 11);  /* thread 1 at 340-440 */
    ASSERT_EQ(e[0].t_ns, 5);
    ASSERT_EQ(e[0].thread, 1);
    for (size_t i = 0; i < n; i++) ASSERT(e[i].t_ns <= 330);
    free(e);
    exec_tlog_free(&l);
}

int main(void)
{
    RUN(test_blocks);
    RUN(test_sorted);
    RUN(test_full);
    TEST_DONE();
}
