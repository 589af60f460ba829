/* engine_heap.c - binary-heap event engine.
 *
 * Heap entries are 16 bytes: the event time and a key = sequence << 24 |
 * slot.  Comparing (time, key) orders by (time, insertion sequence), and the
 * key is also the event id handed to callers.  Payloads live in a slot table
 * with a free list.  Cancellation is lazy: the slot is released at once, and
 * its heap entry is dropped when it reaches the top, recognised because the
 * slot no longer holds that sequence number (it may be free or reused) -
 * or, once such dead entries outnumber the live ones, all at once (compact).
 * Limits, both checked: 2^24 events pending at once, 2^40 scheduled per run.
 *
 * Few events are pending in most runs (a handful per core), and then a
 * sorted array beats the heap: the array is kept in descending order, so
 * the next event is its last entry (popped without a sift) and a new one is
 * inserted by shifting the entries due before it.  Above SMALL_MAX entries
 * the array is reversed, which makes it a valid heap (ascending order), and
 * heap operations take over; below SMALL_MAX / 4 it is sorted back.  The
 * order popped is the same in both modes: (time, key).
 *
 * The common insertion (a free slot, the small array below SMALL_MAX) is
 * inline in every caller (engine.h, sim_heap_at); heap_at below is the
 * complete one, which it falls back on.
 */
#include "engine_heap.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/err.h"

#define SLOT_BITS SIM_HEAP_SLOT_BITS
#define SLOT_MASK ((UINT64_C(1) << SLOT_BITS) - 1)
#define MAX_SLOTS (UINT32_C(1) << SLOT_BITS)
#define MAX_SEQ SIM_HEAP_MAX_SEQ
#define FREE_END SIM_HEAP_FREE_END

/* (The engine's state, struct sim_heap, is in engine.h, beside the inline
 * insertion sim_at uses for the common case.) */
#define SMALL_MAX 24

/* The inline insertion's room: the small array up to SMALL_MAX entries
 * (its last insertion, which may turn it into a heap, is out of line), as
 * far as the array's capacity goes. */
static void set_room(struct sim_heap *he)
{
    he->small_room = !he->small ? 0 : he->cap < SMALL_MAX ? he->cap : SMALL_MAX;
}

static inline int entry_less(const struct sim_heap_entry *a, const struct sim_heap_entry *b)
{
    return a->t < b->t || (a->t == b->t && a->key < b->key);
}

/* A binary heap.  (A 4-ary heap, whose children share a cache line,
 * measured no faster on the small populations gvlsim produces.) */
static void sift_up(struct sim_heap_entry *h, uint32_t i)
{
    struct sim_heap_entry x = h[i];  /* the newest: the largest key (insert) */
    while (i > 0) {
        uint32_t p = (i - 1) / 2;
        if (x.t >= h[p].t) break;
        h[i] = h[p];
        i = p;
    }
    h[i] = x;
}

static void sift_down(struct sim_heap_entry *h, uint32_t n, uint32_t i)
{
    struct sim_heap_entry x = h[i];
    uint32_t c;
    while ((c = 2 * i + 1) < n) {
        if (c + 1 < n && entry_less(&h[c + 1], &h[c])) c++;
        if (!entry_less(&h[c], &x)) break;
        h[i] = h[c];
        i = c;
    }
    h[i] = x;
}

/* ---- mode changes ---- */

static __attribute__((noinline)) void to_heap(struct sim_heap *he)
{
    for (uint32_t i = 0, j = he->n - 1; i < j; i++, j--) {
        struct sim_heap_entry x = he->heap[i];
        he->heap[i] = he->heap[j];
        he->heap[j] = x;
    }
    he->small = 0;
    set_room(he);
}

static __attribute__((noinline)) void to_small(struct sim_heap *he)
{
    struct sim_heap_entry *h = he->heap;
    for (uint32_t i = 1; i < he->n; i++) {  /* insertion sort, descending */
        struct sim_heap_entry x = h[i];
        uint32_t j = i;
        while (j > 0 && entry_less(&h[j - 1], &x)) {
            h[j] = h[j - 1];
            j--;
        }
        h[j] = x;
    }
    he->small = 1;
    set_room(he);
}

static inline const struct sim_heap_entry *top_of(const struct sim_heap *he)
{
    return he->small ? &he->heap[he->n - 1] : &he->heap[0];
}

static inline void remove_top(struct sim_heap *he)
{
    he->n--;
    if (he->small) return;
    if (he->n > 0) {
        he->heap[0] = he->heap[he->n];
        sift_down(he->heap, he->n, 0);
    }
    if (he->n < SMALL_MAX / 4) to_small(he);
}

/* Queue a new event.  Its key holds the newest sequence number, larger
 * than every pending key, so it goes after every entry due at the same
 * time: comparing times alone gives the (time, key) order. */
static inline void insert(struct sim_heap *he, sim_time t, uint64_t key)
{
    struct sim_heap_entry x = { t, key }, *h = he->heap;
    if (!he->small) {
        h[he->n] = x;
        sift_up(h, he->n);
        he->n++;
        return;
    }
    sim_heap_small_insert(h, he->n, t, key);
    if (++he->n > SMALL_MAX) to_heap(he);
}

/* ---- slots ---- */

static inline void slot_release(struct sim_heap *he, uint32_t s)
{
    he->slots[s].seq = 0;
    he->slots[s].next_free = he->free_head;
    he->free_head = s;
}

/* Fill slot s (taken off the free list) with the event and queue it. */
static inline sim_event_id at_fill(struct sim_heap *he, uint32_t s, sim_time t, sim_handler h,
                                   void *obj, uint64_t arg)
{
    uint64_t key = sim_heap_fill(he, s, h, obj, arg);
    insert(he, t, key);
    he->base.pending++;
    return key;
}

/* heap_at when the free list is empty, the array full or the sequence
 * numbers exhausted: out of line, so that the fast path stays small. */
static __attribute__((noinline)) sim_event_id at_slow(struct sim_engine *e, sim_time t, sim_handler h,
                                                      void *obj, uint64_t arg)
{
    struct sim_heap *he = (struct sim_heap *)e;
    if (he->seq + 1 >= MAX_SEQ) goto oom;
    if (he->n == he->cap) {
        uint32_t cap = he->cap * 2;
        struct sim_heap_entry *nh = realloc(he->heap, (size_t)cap * sizeof *nh);
        if (!nh) goto oom;
        he->heap = nh;
        he->cap = cap;
        set_room(he);
    }
    uint32_t s = he->free_head;
    if (s != FREE_END) {
        he->free_head = he->slots[s].next_free;
    } else {
        if (he->nslots == he->slots_cap) {
            if (he->slots_cap >= MAX_SLOTS) goto oom;
            uint32_t cap = he->slots_cap * 2;
            if (cap > MAX_SLOTS) cap = MAX_SLOTS;
            struct sim_heap_slot *ns = realloc(he->slots, (size_t)cap * sizeof *ns);
            if (!ns) goto oom;
            he->slots = ns;
            he->slots_cap = cap;
        }
        s = he->nslots++;
    }
    return at_fill(he, s, t, h, obj, arg);
oom:
    he->oom = 1;
    e->stop = 1;
    return 0;
}

static sim_event_id heap_at(struct sim_engine *e, sim_time t, sim_handler h, void *obj, uint64_t arg)
{
    struct sim_heap *he = (struct sim_heap *)e;
    uint32_t s = he->free_head;
    if (__builtin_expect(s == FREE_END || he->n == he->cap || he->seq + 1 >= MAX_SEQ, 0))
        return at_slow(e, t, h, obj, arg);
    he->free_head = he->slots[s].next_free;
    return at_fill(he, s, t, h, obj, arg);
}

/* Drop the cancelled entries at once, and rebuild the array or the heap
 * from the live ones.  Lazy cancellation alone lets a cancelled event stay
 * queued until its time comes: the 3.1 GVL's timer thread waits on its
 * condvar with a 100 ms timeout and is signalled every few microseconds
 * (models/gvl_barging.c), so each signal left a dead timeout 100 ms ahead,
 * and a 2-core queue ping-pong ran with about 3,500 entries queued for 3
 * live events (every insertion and pop a walk down a heap of 12 levels,
 * 12% of the pops dead ones).  Called when the dead entries outnumber the
 * live ones by more than SMALL_MAX, so each entry dropped has been paid
 * for by its own cancellation (amortised O(1)).  The order in which the
 * live events fire is (time, key) whatever the structure holding them:
 * the same events fire in the same order. */
static __attribute__((noinline)) void compact(struct sim_heap *he)
{
    struct sim_heap_entry *h = he->heap;
    uint32_t n = 0;
    for (uint32_t i = 0; i < he->n; i++) {
        uint32_t s = (uint32_t)(h[i].key & SLOT_MASK);
        if (he->slots[s].seq == (h[i].key >> SLOT_BITS)) h[n++] = h[i];
    }
    he->n = n;
    if (n <= SMALL_MAX) {
        to_small(he);  /* sorts any order */
        return;
    }
    for (uint32_t i = n / 2; i-- > 0;) sift_down(h, n, i);  /* Floyd's heapify */
    he->small = 0;
    set_room(he);
}

static int heap_cancel(struct sim_engine *e, sim_event_id id)
{
    struct sim_heap *he = (struct sim_heap *)e;
    uint32_t s = (uint32_t)(id & SLOT_MASK);
    if (s >= he->nslots || he->slots[s].seq != (id >> SLOT_BITS)) return 0;
    slot_release(he, s);
    e->pending--;
    if (__builtin_expect(he->n > 2 * e->pending + SMALL_MAX, 0)) compact(he);
    return 1;
}

static int heap_run(struct sim_engine *e, sim_time until, char *err, unsigned errlen)
{
    struct sim_heap *he = (struct sim_heap *)e;
    e->stop = 0;
    while (he->n > 0 && !e->stop) {
        struct sim_heap_entry top = *top_of(he);
        uint32_t s = (uint32_t)(top.key & SLOT_MASK);
        struct sim_heap_slot *slot = &he->slots[s];
        int live = slot->seq == (top.key >> SLOT_BITS);
        if (live && top.t > until) break;
        remove_top(he);
        if (!live) continue;  /* cancelled */
        sim_handler h = slot->h;
        void *obj = slot->obj;
        uint64_t arg = slot->arg;
        slot_release(he, s);
        e->now = top.t;
        /* Two separate read-modify-writes: merged into one 16-byte vector
         * operation (as GCC's SLP vectoriser does) the load would straddle
         * the 8-byte store of `pending` made by the last heap_at, which the
         * CPU cannot forward - a stall on every event. */
        e->pending--;
        __asm__ volatile("" ::: "memory");
        e->fired++;
        h(obj, arg);
    }
    if (he->oom)
        return gv_fail(err, errlen, GV_ENOMEM,
                       "event engine: out of memory (%u events pending)", he->n);
    return GV_OK;
}

static void heap_destroy(struct sim_engine *e)
{
    struct sim_heap *he = (struct sim_heap *)e;
    free(he->heap);
    free(he->slots);
    free(he);
}

const struct sim_engine_ops sim_heap_ops = {
    .name = "native",
    .at = heap_at,
    .cancel = heap_cancel,
    .run = heap_run,
    .destroy = heap_destroy,
};

/* The engine starts with room for INITIAL_CAP entries and slots, and
 * SMALL_MAX slots on the free list (the others are touched when first
 * needed, as the array's entries are).  While the array is small, every
 * slot in use belongs to one of its n entries (a cancelled entry's slot is
 * free again), and the inline insertion (engine.h) only runs below
 * SMALL_MAX entries: so it always finds a free slot, and needs no test for
 * one (2 instructions less per event). */
#define INITIAL_CAP 1024
_Static_assert(INITIAL_CAP >= SMALL_MAX, "the small array's slots");
struct sim_engine *sim_heap_create(void)
{
    struct sim_heap *he = calloc(1, sizeof *he);
    if (!he) return NULL;
    he->base.ops = &sim_heap_ops;
    he->heap = malloc(INITIAL_CAP * sizeof *he->heap);
    he->slots = malloc(INITIAL_CAP * sizeof *he->slots);
    if (!he->heap || !he->slots) {
        heap_destroy(&he->base);
        return NULL;
    }
    he->cap = he->slots_cap = INITIAL_CAP;
    he->nslots = SMALL_MAX;
    for (uint32_t s = 0; s < SMALL_MAX; s++) {
        he->slots[s].seq = 0;
        he->slots[s].next_free = s + 1 < SMALL_MAX ? s + 1 : FREE_END;
    }
    he->free_head = 0;
    he->small = 1;
    set_room(he);
    return &he->base;
}
