/* test_calltime.c - the gaps of the call-timing records (exec/calltime.h):
 * synthetic records of the three loops, with known gaps, give those gaps
 * chunk by chunk after the warm-up; a sequence that is no cycle of any
 * kind is skipped; too few cycles of a kind is GV_ERUN naming it. */
#include "../../common/err.h"
#include "../../exec/calltime.h"
#include "test.h"

#define MAXR 4000

static struct calltime_rec recs[MAXR];
static size_t nrecs;
static int64_t clock_ns;

/* a call of 100 ns after `gap` ns */
static void call(enum calltime_call c, int64_t gap)
{
    clock_ns += gap;
    recs[nrecs].enter_ns = clock_ns;
    clock_ns += 100;
    recs[nrecs].exit_ns = clock_ns;
    recs[nrecs].call = (uint32_t)c;
    nrecs++;
}

/* n cycles of each loop; the gaps of cycle i grow by `step` from the
 * base, so that chunks have different medians */
static void loops(int n, int64_t step)
{
    for (int i = 0; i < n; i++) call(CALLTIME_MARK, 200 + step * i);
    for (int i = 0; i < n; i++) {
        call(CALLTIME_STAT, 500 + step * i);
        call(CALLTIME_MARK, 600 + step * i);
    }
    for (int i = 0; i < n; i++) {
        call(CALLTIME_OPEN, 1000 + step * i);
        call(CALLTIME_WRITE, 2000 + step * i);
        call(CALLTIME_CLOSE, 300 + step * i);
        call(CALLTIME_MARK, 400 + step * i);
    }
}

static void test_constant_gaps(void)
{
    char err[GV_ERRLEN];
    nrecs = 0;
    call(CALLTIME_OPEN, 0);   /* before the first marker: the Ruby's start-up */
    call(CALLTIME_CLOSE, 5);
    loops(80, 0);
    double out[CALLTIME_NGAPS * 4];
    ASSERT_EQ(calltime_gaps(recs, nrecs, 4, out, err, sizeof err), GV_OK);
    static const double want[CALLTIME_NGAPS] = { 200, 500, 600, 1000, 2000, 300, 400 };
    for (int g = 0; g < CALLTIME_NGAPS; g++)
        for (int c = 0; c < 4; c++) ASSERT_EQ(out[g * 4 + c], want[g]);
}

/* Gaps growing by 1 ns a cycle: the first eighth is left out, and each of
 * the two chunks has the median of its half of the rest. */
static void test_chunks(void)
{
    char err[GV_ERRLEN];
    nrecs = 0;
    loops(80, 1);
    double out[CALLTIME_NGAPS * 2];
    ASSERT_EQ(calltime_gaps(recs, nrecs, 2, out, err, sizeof err), GV_OK);
    /* the marker loop: cycles 0..78 (the 80th marker starts the mtime
     * loop's first cycle), 9 left out, chunks 9..43 and 44..78 */
    ASSERT_EQ(out[CALLTIME_GAP_LOOP * 2 + 0], 200 + 1 + 26);
    ASSERT_EQ(out[CALLTIME_GAP_LOOP * 2 + 1], 200 + 1 + 61);
    /* File.write: cycles 0..79, 10 left out, chunks 10..44 and 45..79 */
    ASSERT_EQ(out[CALLTIME_GAP_OPEN_WRITE * 2 + 0], 2000 + 27);
    ASSERT_EQ(out[CALLTIME_GAP_OPEN_WRITE * 2 + 1], 2000 + 62);
}

/* A stray call in a cycle makes it no cycle; too few cycles of a kind is
 * an error naming the kind. */
static void test_not_cycles(void)
{
    char err[GV_ERRLEN];
    nrecs = 0;
    loops(40, 0);
    /* turn every File.write cycle's write into a stat */
    for (size_t i = 0; i < nrecs; i++)
        if (recs[i].call == CALLTIME_WRITE) recs[i].call = CALLTIME_STAT;
    double out[CALLTIME_NGAPS * 3];
    ASSERT_EQ(calltime_gaps(recs, nrecs, 3, out, err, sizeof err), GV_ERUN);
    ASSERT_CONTAINS(err, "0 cycles of File.write");
    nrecs = 0;
    loops(2, 0);
    ASSERT_EQ(calltime_gaps(recs, nrecs, 3, out, err, sizeof err), GV_ERUN);
    ASSERT_CONTAINS(err, "the marker loop");
    ASSERT_EQ(calltime_gaps(recs, 0, 3, out, err, sizeof err), GV_ERUN);
    ASSERT_EQ(calltime_gaps(recs, nrecs, 0, out, err, sizeof err), GV_EINVAL);
}

/* The library is in the executable: an ELF shared object. */
static void test_lib(void)
{
    size_t n;
    const unsigned char *p = calltime_lib(&n);
    ASSERT(n > 1000);
    ASSERT(p[0] == 0x7f && p[1] == 'E' && p[2] == 'L' && p[3] == 'F');
}

int main(void)
{
    RUN(test_constant_gaps);
    RUN(test_chunks);
    RUN(test_not_cycles);
    RUN(test_lib);
    TEST_DONE();
}
