/* core.h - the parts of a Ruby VM that both backends share: a thread's
 * identity, its program cursor and its place in its Ractor's scheduler,
 * and the per-Ractor scheduler (the GVL's state) itself.
 *
 * core/ knows neither time nor locks.  The simulator (models/) and the
 * real executor (exec/) embed these structures in their own thread and
 * Ractor structs (rb_thread and exec_thread hold a `struct core_thread
 * core`, rb_ractor and exec_ractor a `struct core_ractor core`) and call
 * core's decisions; what happens in time (a burst, a wake-up, a
 * cond_wait) stays with them.
 */
#ifndef CORE_CORE_H
#define CORE_CORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../common/rng.h"
#include "../input/scenario.h"

/* The backend struct that embeds `ptr` as its member `member`. */
#define core_container_of(ptr, type, member) ((type *)(void *)((char *)(ptr) - offsetof(type, member)))

/* A thread's frame stack holds its program and one frame per loop it is
 * inside; the loader limits nesting to SCN_MAX_LOOP_DEPTH. */
#define CORE_MAX_FRAMES (SCN_MAX_LOOP_DEPTH + 1)

struct core_frame {
    const struct scn_prog *prog;
    int pc;
    uint64_t left;               /* iterations left after the current one */
    bool forever;
    bool measure;
};

/* Where a thread is in its program (core/cursor.h). */
struct core_cursor {
    struct core_frame stack[CORE_MAX_FRAMES];
    int sp;
    uint64_t ops;                /* iterations of "measure" loops completed */
};

/* A Ractor instance. */
struct core_ractor {
    int id;
    char *name;                  /* "main", "r", "r#3" */
    int nthreads;
};

/* A Ruby thread instance. */
struct core_thread {
    int id;                      /* index among all thread instances: its random stream */
    char *name;                  /* "main", "worker", "worker#3", "r#2/worker" */
    struct core_ractor *ractor;
    int instance, ninstances;    /* among instances of its template (times_total) */
    struct rng rng;
    struct core_cursor cur;
};

#endif
