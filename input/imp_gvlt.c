/* imp_gvlt.c - the gvl-tracing form of a trace (imp_read.h).
 *
 * ivoanjo/gvl-tracing, ext/gvl_tracing_native_extension/gvl_tracing.c
 * render_event: every state change of a thread is an `E` event closing its
 * previous state and a `B` event opening the next at the same `ts`
 * (microseconds from GvlTracing.start); `M` events name the threads
 * (written at stop) and, from gem 1.5, the process: "Ruby threads view
 * (RUBY_VERSION[, Nms])", N being RUBY_THREAD_TIMESLICE.  With
 * os_threads_view_enabled a second process (pid 0, "OS threads view")
 * shows native threads; it is skipped.
 */
#include "imp_read.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../common/err.h"
#include "units.h"

#define NELEM(a) (sizeof a / sizeof a[0])

/* The tracer's output buffer.  render_event (gvl_tracing.c, gem commit
 * 69af6bc and since) stamps the time, then writes the E and B lines with one
 * fprintf to the FILE that tracing_start fopen()ed, which starts with
 * "[\n": byte 0 of the trace is byte 0 of the buffer.  glibc buffers a
 * regular file in blocks of its st_blksize capped at BUFSIZ
 * (libio/filedoalloc.c _IO_file_doallocate): 4096 bytes on Linux's local
 * file systems, and the fprintf that overflows a block write()s it out
 * before it returns.  In the example traces a READY whose lines cross a
 * 4096-byte boundary takes its free GVL 5-6 times as long as the others (23
 * us against 4 in ping-pong-3_2; no such step at other block sizes): that
 * write is in the thread's wants_gvl (docs/import.md, "The tracer itself"). */
#define IMP_TRACER_BUF 4096

/* Did the fprintf of bytes [a, b) of the trace overflow a buffer block: a
 * full block before it (a on a boundary) or a boundary inside it? */
static bool crosses_block(size_t a, size_t b)
{
    return a > 0 && b > a && (a - 1) / IMP_TRACER_BUF != (b - 1) / IMP_TRACER_BUF;
}

/* The start of the line holding byte off, and the end of it (past its
 * newline, or the end of the text). */
static size_t line_start(const struct rd *r, size_t off)
{
    while (off > 0 && r->text[off - 1] != '\n') off--;
    return off;
}
static size_t line_end(const struct rd *r, size_t off)
{
    while (off < r->len && r->text[off] != '\n') off++;
    return off < r->len ? off + 1 : off;
}

/* gvl-tracing's state names, old ones included ("ready" and "exited" were
 * renamed "wants_gvl" and "died" in gem 1.0). */
static const struct { const char *name; enum imp_state st; } gvlt_states[] = {
    { "running", IMP_RUNNING },       { "started_tracing", IMP_RUNNING },
    { "gc", IMP_GC },                 { "wants_gvl", IMP_WANTS_GVL },
    { "ready", IMP_WANTS_GVL },       { "waiting", IMP_WAITING },
    { "sleeping", IMP_SLEEPING },     { "started", IMP_STARTED },
    { "died", IMP_DIED },             { "exited", IMP_DIED },
    { "stopped_tracing", IMP_STOPPED },
};
#define GVLT_STATE_LIST "started, wants_gvl, running, waiting, sleeping, gc, died, " \
                        "started_tracing, stopped_tracing (and the old ready, exited)"

/* "Ruby threads view (3.3.5)" or "Ruby threads view (3.4.0, 50ms)". */
static int parse_process_name(struct imp_trace *t, const char *s)
{
    static const char pre[] = "Ruby threads view (";
    if (strncmp(s, pre, sizeof pre - 1)) return GV_OK;
    const char *v = s + sizeof pre - 1, *e = v;
    while (*e && *e != ',' && *e != ')') e++;
    if (e == v) return GV_OK;
    free(t->ruby);
    if (!(t->ruby = strndup(v, (size_t)(e - v)))) return GV_ENOMEM;
    if (*e == ',') {
        char *end;
        long ms = strtol(e + 1, &end, 10);
        if (ms > 0 && ms < 3600000 && !strncmp(end, "ms", 2)) t->quantum = (sim_time)ms * SIM_MS;
    }
    return GV_OK;
}

/* ---- the gvl-tracing form ------------------------------------------------ */

static int lookup_state(const char *name, enum imp_state *st)
{
    for (size_t k = 0; k < NELEM(gvlt_states); k++)
        if (!strcmp(gvlt_states[k].name, name)) { *st = gvlt_states[k].st; return 1; }
    return 0;
}

int imp_read_gvl_tracing(struct rd *r, const cJSON *events)
{
    struct imp_trace *t = r->t;
    int i;
    const cJSON *ev;
    /* pass 1: the processes (the Ruby view and the skipped OS view) and the
     * first time, so that segments start at 0 */
    int64_t ruby_pid = INT64_MIN, os_pid = INT64_MIN, first_pid = INT64_MIN;
    bool have_origin = false;
    cJSON_ArrayForEach(ev, events) {
        const char *ph = cJSON_IsObject(ev) ? imp_field_str(ev, "ph") : NULL;
        int64_t pid;
        const cJSON *pv = ph ? cJSON_GetObjectItemCaseSensitive(ev, "pid") : NULL;
        size_t len;
        const char *txt = cJSON_IsNumber(pv) ? jpos_number_text(r->pos, pv, &len) : NULL;
        if (txt && units_exact(txt, len, 0, &pid) == UNITS_OK) {
            if (!strcmp(ph, "M") && imp_field_str(ev, "name") && !strcmp(imp_field_str(ev, "name"), "process_name")) {
                const char *pn = imp_meta_arg_name(ev);
                if (pn && !strcmp(pn, "OS threads view")) os_pid = pid;
                else if (pn && !strncmp(pn, "Ruby threads view", 17)) {
                    ruby_pid = pid;
                    if (parse_process_name(t, pn) != GV_OK) return GV_ENOMEM;
                }
            } else if ((!strcmp(ph, "B") || !strcmp(ph, "E") || !strcmp(ph, "M")) && first_pid == INT64_MIN &&
                       pid != os_pid) {
                first_pid = pid;
            }
        }
    }
    if (ruby_pid == INT64_MIN) ruby_pid = first_pid;
    r->pid = ruby_pid;
    cJSON_ArrayForEach(ev, events) {
        const char *ph = cJSON_IsObject(ev) ? imp_field_str(ev, "ph") : NULL;
        if (!ph || (strcmp(ph, "B") && strcmp(ph, "E"))) continue;
        const cJSON *pv = cJSON_GetObjectItemCaseSensitive(ev, "pid");
        const cJSON *tv = cJSON_GetObjectItemCaseSensitive(ev, "ts");
        int64_t pid, ps;
        size_t len;
        const char *txt = cJSON_IsNumber(pv) ? jpos_number_text(r->pos, pv, &len) : NULL;
        if (!txt || units_exact(txt, len, 0, &pid) != UNITS_OK || pid != ruby_pid) continue;
        if (imp_us_value(r, tv, &ps) != 1) continue;   /* reported in pass 2 */
        if (!have_origin || ps < r->origin) r->origin = ps;
        have_origin = true;
    }

    /* pass 2: the state machine of each thread */
    if (!(t->flush = calloc((size_t)cJSON_GetArraySize(events) + 1, sizeof *t->flush))) return GV_ENOMEM;
    size_t e_from = SIZE_MAX;  /* the line of the E event just before, else SIZE_MAX */
    int64_t e_tid = 0;
    i = -1;
    cJSON_ArrayForEach(ev, events) {
        int use = imp_event_use(r, ev, ++i);
        if (use < 0) break;
        if (!use) continue;
        const char *ph = imp_field_str(ev, "ph");
        if (!ph) {
            imp_err_at(r, imp_off_of(r, ev), "event %d: missing \"ph\" (the event's phase)", i);
            continue;
        }
        int64_t pid = 0;
        if (!strcmp(ph, "M")) {
            const char *what = imp_field_str(ev, "name");
            if (what && !strcmp(what, "thread_name")) {
                int64_t tid;
                const char *nm = imp_meta_arg_name(ev);
                if (!imp_field_int(r, ev, i, "pid", &pid) || !imp_field_int(r, ev, i, "tid", &tid)) continue;
                if (pid != ruby_pid) {
                    if (pid == os_pid) t->os_view_events++;
                    else t->other_events++;
                    continue;
                }
                if (!nm) {
                    imp_err_at(r, imp_off_of(r, ev), "event %d: thread_name without args.name", i);
                    continue;
                }
                int ti = imp_thread_of(r, tid, 0);
                if (ti < 0 || imp_set_name(t, ti, nm) != GV_OK) return GV_ENOMEM;
            } else if (!what || strcmp(what, "process_name")) {
                t->other_events++;  /* sort indexes and labels: nothing to replay */
            }
            continue;
        }
        if (strcmp(ph, "B") && strcmp(ph, "E")) {
            imp_err_at(r, imp_off_of(r, ev),
                   "event %d: phase \"%.20s\" is not part of a gvl-tracing trace (B, E and M are)", i, ph);
            continue;
        }
        int64_t tid;
        sim_time ts;
        if (!imp_field_int(r, ev, i, "pid", &pid)) continue;
        if (pid != ruby_pid) {
            if (pid == os_pid) { t->os_view_events++; continue; }
            imp_err_at(r, imp_off_of(r, ev),
                   "event %d: pid %" PRId64 " is not the traced process (%" PRId64 "): one process per trace",
                   i, pid, ruby_pid);
            continue;
        }
        if (!imp_field_int(r, ev, i, "tid", &tid) || !imp_field_us(r, ev, i, "ts", &ts)) continue;
        ts -= r->origin;
        /* one render_event writes an E and the B after it (the hook's output) */
        size_t off = imp_off_of(r, ev), from = e_from;
        e_from = SIZE_MAX;
        if (off != SIZE_MAX && ph[0] == 'E') {
            e_from = line_start(r, off);
            e_tid = tid;
        } else if (off != SIZE_MAX && from != SIZE_MAX && e_tid == tid) {
            t->flush[i] = crosses_block(from, line_end(r, off));
        }
        enum imp_state st = IMP_RUNNING;
        if (ph[0] == 'B') {
            const char *nm = imp_field_str(ev, "name");
            if (!nm) {
                imp_err_at(r, imp_off_of(r, ev), "event %d: a B event needs the state as \"name\"", i);
                continue;
            }
        }
        int ti = imp_thread_of(r, tid, ts);
        if (ti < 0) return GV_ENOMEM;
        struct th_rd *x = &r->th[ti];
        if (x->broken) continue;  /* one error per thread: what follows is not placed either */
        if (ph[0] == 'B' && !lookup_state(imp_field_str(ev, "name"), &st)) {
            imp_err_at(r, imp_off_of(r, ev), "event %d (tid %" PRId64 "): unknown state \"%.40s\" (gvl-tracing's: %s)", i,
                   tid, imp_field_str(ev, "name"), GVLT_STATE_LIST);
            x->broken = true;
            continue;
        }
        if (x->any && ts < x->last) {
            char a[48], b[48];
            units_format(x->last + r->origin, a, sizeof a);
            units_format(ts + r->origin, b, sizeof b);
            imp_err_at(r, imp_off_of(r, ev),
                   "event %d (tid %" PRId64 "): time goes backwards: ts %s after %s at event %d", i, tid, b,
                   a, x->last_ev);
            x->broken = true;
            continue;
        }
        if (ph[0] == 'E') {
            if (!x->open) {
                if (x->any) {
                    imp_err_at(r, imp_off_of(r, ev),
                           "event %d (tid %" PRId64 "): an E event closes nothing (unbalanced B/E: the "
                           "previous E was not followed by a B)", i, tid);
                    x->broken = true;
                    continue;
                }
            } else {
                x->open = 0;
                if (!x->dead && imp_add_seg(t, &t->threads[ti], x->st, x->t0, ts, x->ev, IMP_CLS_NONE) != GV_OK)
                    return GV_ENOMEM;
            }
        } else {
            if (x->open) {
                imp_err_at(r, imp_off_of(r, ev),
                       "event %d (tid %" PRId64 "): B \"%s\" while \"%s\" (event %d) is still open: a missing "
                       "E (unbalanced B/E)", i, tid, imp_field_str(ev, "name"), x->st_name, x->ev);
                x->broken = true;
                continue;
            }
            if (x->dead && st == IMP_STARTED) {
                /* a native thread id reused by a new Ruby thread (3.2 traces name threads by
                 * native id) */
                ti = imp_new_thread(r, tid, ts);
                if (ti < 0) return GV_ENOMEM;
                x = &r->th[ti];
            }
            if (x->dead) {
                t->after_death++;  /* 3.3+ reports the exiting thread's GVL release after "died" */
            } else if (!x->begun) {
                x->begun = true;
                t->threads[ti].start = ts;
                t->threads[ti].created = st == IMP_STARTED;
            }
            if (r->tracer < 0 && !strcmp(imp_field_str(ev, "name"), "started_tracing")) r->tracer = ti;
            x->open = 1;
            x->st = st;
            x->st_name = imp_field_str(ev, "name");
            x->t0 = ts;
            x->ev = i;
            if (st == IMP_DIED) {
                if (!x->dead) t->threads[ti].died = true;
                x->dead = true;
            }
        }
        x->any = true;
        x->last = ts;
        x->last_ev = i;
        if (ts > t->end) t->end = ts;
    }
    return r->nerr ? GV_EINVAL : GV_OK;
}
