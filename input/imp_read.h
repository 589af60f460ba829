/* imp_read.h - what the readers of the two trace forms share (input/
 * imp_read.c reads the file and calls one of them): the reading state,
 * errors naming an event, threads by tid, segments, event fields.  Not
 * for use outside the importer. */
#ifndef INPUT_IMP_READ_H
#define INPUT_IMP_READ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "../common/hmap.h"
#include "import.h"
#include "jsonpos.h"

#define IMP_MAX_ERRORS 20

struct rd {
    const char *name;
    struct diag_list *diags;
    int nerr;
    struct jpos_table *pos;
    const char *text;            /* the decompressed JSON */
    size_t len;
    struct imp_trace *t;
    struct hmap tids;            /* tid -> current thread index */
    /* per thread, while reading */
    struct th_rd { int open; enum imp_state st; const char *st_name; sim_time t0; int ev; sim_time last;
                   int last_ev; bool any, begun, dead, broken; } *th;
    size_t thcap;
    sim_time origin;             /* the first event's time: 0 of the segments */
    int64_t pid;                 /* gvl-tracing: the traced process */
    struct busy { char *task; sim_time t0, t1; bool busy; } *busy;  /* gvlsim: core slices of a task */
    size_t nbusy, capbusy;
    int tracer;                  /* gvl-tracing: the thread that started tracing, or -1 */
    int64_t tracer_tid;
};

/* One error "NAME[:L:C]: ...", at byte offset `off` of the text (SIZE_MAX:
 * none); after IMP_MAX_ERRORS, one line saying the rest are not shown. */
void imp_err_at(struct rd *r, size_t off, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* The byte offset of a node in the text, or SIZE_MAX. */
size_t imp_off_of(const struct rd *r, const cJSON *node);

/* The current thread of tid, created (starting at ts) if there is none;
 * a new thread for tid (a native id reused); -1 when out of memory. */
int imp_thread_of(struct rd *r, int64_t tid, sim_time ts);
int imp_new_thread(struct rd *r, int64_t tid, sim_time start);
/* Append a segment (zero-length ones dropped, one state split in two
 * events merged, the hold a wait implies inserted).  GV_OK or GV_ENOMEM. */
int imp_add_seg(struct imp_trace *t, struct imp_thread *th, enum imp_state st, sim_time t0, sim_time t1, int ev,
                enum imp_class known);
/* Set the name of thread ti (the last one given wins).  GV_OK or GV_ENOMEM. */
int imp_set_name(struct imp_trace *t, int ti, const char *name);

/* A number node in microseconds as ps, quietly: 1 ok, 0 not a number, -1
 * beyond 9e12 us, -2 negative. */
int imp_us_value(const struct rd *r, const cJSON *v, sim_time *out);
/* Event i of the array: 1 to read it, 0 to skip it (not an object:
 * reported), -1 to stop (too many errors already). */
int imp_event_use(struct rd *r, const cJSON *ev, int i);
/* Fields of event i: 1 ok, 0 missing or bad (reported). */
int imp_field_int(struct rd *r, const cJSON *ev, int i, const char *key, int64_t *out);
int imp_field_us(struct rd *r, const cJSON *ev, int i, const char *key, sim_time *out);
/* A string field, or NULL; args.name of an M event, or NULL. */
const char *imp_field_str(const cJSON *ev, const char *key);
const char *imp_meta_arg_name(const cJSON *ev);

/* The two forms: GV_OK, GV_EINVAL (reported) or GV_ENOMEM. */
int imp_read_gvl_tracing(struct rd *r, const cJSON *events);
int imp_read_gvlsim(struct rd *r, const cJSON *root, const cJSON *events);

#endif
