/* expand.h - a scenario's Ractor and thread templates become instances.
 *
 * Both backends allocate their own arrays of Ractors and threads (each
 * embedding a core_ractor / core_thread) and let core_expand fill in what
 * an instance is: its index, its name, its Ractor, its share of a
 * times_total loop, its random stream and its program.
 */
#ifndef CORE_EXPAND_H
#define CORE_EXPAND_H

#include "core.h"

/* Thread instances a run has: every template's (a "spawned" template's
 * count are slots, started by spawn ops), then one per generator. */
int core_thread_count(const struct scenario *scn);

/* Random streams.  A template's instances that start by themselves are
 * numbered in scenario order and use that number as their stream, as every
 * thread did before spawned threads and generators existed; a spawned
 * instance and a generator get a stream of their own space, keyed by what
 * they are, so that adding one never shifts another thread's draws. */
#define CORE_STREAM_SPAWNED (UINT64_C(1) << 62)   /* | template << 24 | slot */
#define CORE_STREAM_GENERATOR (UINT64_C(1) << 61) /* | generator index */

/* Fill the core part of every Ractor and thread instance, in scenario
 * order: template by template, each Ractor instance followed by its
 * threads; then the generators' threads (in the main Ractor).
 * ractor_at / thread_at return the core part of the i-th instance of the
 * backend's arrays (zeroed, sized for the scenario's Ractor instances and
 * core_thread_count).  The Ractor instances' names and their threads'
 * names and frame stacks share one allocation, held by the first Ractor
 * (thousands of threads: no malloc each, and the frames of threads next
 * to each other are next to each other).  GV_OK, or GV_ENOMEM (what was
 * made is freed by core_ractor_free). */
int core_expand(const struct scenario *scn, struct core_ractor *(*ractor_at)(void *ctx, int i),
                struct core_thread *(*thread_at)(void *ctx, int i), void *ctx);

/* Free what core_expand made for a Ractor and its threads: their names and
 * frame stacks, all in the first Ractor's block (the others hold none: a
 * NULL one is skipped); called for every Ractor, the first among them. */
void core_ractor_free(struct core_ractor *r);

/* Instance names: `base` alone, or "base#i" when the template is
 * replicated (count > 1); a thread's name is prefixed with its Ractor's
 * ("r#2/worker") when the run has several Ractor instances.  Malloc'ed;
 * NULL when out of memory. */
char *core_instance_name(const char *base, int idx, int count);
char *core_thread_name(const char *ractor_name, const char *base, int idx, int count,
                       bool multi_ractor);

#endif
