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

/* Fill the core part of every Ractor and thread instance, in scenario
 * order: template by template, each Ractor instance followed by its
 * threads.  ractor_at / thread_at return the core part of the i-th
 * instance of the backend's arrays (zeroed, sized for the scenario's
 * instance counts).  GV_OK, or GV_ENOMEM (the names and frame stacks
 * already made are freed by core_ractor_free / core_thread_free). */
int core_expand(const struct scenario *scn, struct core_ractor *(*ractor_at)(void *ctx, int i),
                struct core_thread *(*thread_at)(void *ctx, int i), void *ctx);

/* Free what core_expand made: names, frame stacks (NULL ones are skipped). */
void core_ractor_free(struct core_ractor *r);
void core_thread_free(struct core_thread *th);

/* Instance names: `base` alone, or "base#i" when the template is
 * replicated (count > 1); a thread's name is prefixed with its Ractor's
 * ("r#2/worker") when the run has several Ractor instances.  Malloc'ed;
 * NULL when out of memory. */
char *core_instance_name(const char *base, int idx, int count);
char *core_thread_name(const char *ractor_name, const char *base, int idx, int count,
                       bool multi_ractor);

#endif
