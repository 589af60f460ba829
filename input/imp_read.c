/* imp_read.c - a GVL trace file -> per-thread state segments (import.h).
 *
 * A trace is Chrome trace-event JSON, plain or gzip (recognised by its
 * magic bytes), in one of two forms: gvl-tracing's (imp_gvlt.c) or the one
 * `gvlsim run --trace` writes (imp_gvlsim.c).  This file reads the file,
 * inflates it, finds where a truncated file stops, blanks out the trailing
 * comma gvl-tracing may leave before the closing `]` (Chrome's trace
 * viewer accepts one; cJSON does not), parses it with positions, and does
 * what both forms share: threads by tid, segments, event fields, names.
 *
 * Nothing is guessed: an event the reader cannot place (an unknown phase or
 * state, a B while a state is open, an E closing nothing, time going
 * backwards on a thread, a truncated file) is an error naming the event's
 * index in the event array (from 0) and its line and column.
 */
#include "imp_read.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>

#include "../common/err.h"
#include "../common/rfile.h"
#include "jsonpos.h"
#include "units.h"

/* Values per trace event the importer allows (gvl-tracing's events hold 6
 * to 8, `gvlsim run --trace`'s up to 10), the most in all (with the
 * cJSON nodes and their positions, about IMP_MB_PER_MEVENT MB per million
 * events, measured on x86-64). */
#define IMP_VALUES_PER_EVENT 16
/* ... and what the position table is sized for before parsing: the most
 * the two writers' events hold (above) */
#define IMP_VALUES_TYPICAL 10
#define IMP_MAX_VALUES 40000000
#define IMP_MB_PER_MEVENT 1800

static const char *const state_names[IMP_STATE_COUNT] = {
    [IMP_RUNNING] = "running",   [IMP_GC] = "gc",           [IMP_WANTS_GVL] = "wants_gvl",
    [IMP_WAITING] = "waiting",   [IMP_SLEEPING] = "sleeping", [IMP_STARTED] = "started",
    [IMP_DIED] = "died",         [IMP_STOPPED] = "stopped_tracing", [IMP_OTHER] = "other",
};

const char *imp_state_name(enum imp_state s) { return s < IMP_STATE_COUNT ? state_names[s] : "?"; }

/* ---- reading and decompressing ------------------------------------------ */

/* One error "NAME[:L:C]: ...", at byte offset `off` of the text (SIZE_MAX:
 * none); after IMP_MAX_ERRORS, one line saying the rest are not shown. */
void imp_err_at(struct rd *r, size_t off, const char *fmt, ...)
{
    if (!diag_capped(r->diags, &r->nerr, IMP_MAX_ERRORS, r->name)) return;
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    int line = 0, col = 0;
    if (off != SIZE_MAX && r->text) jpos_linecol(r->text, off, &line, &col);
    diag_at(r->diags, r->name, line, col, NULL, "%s", msg);
}

/* Inflate a gzip stream (several members are read one after another, as
 * gzip -d does).  The text is NUL-terminated.  A stream that ends early or
 * fails its check is an error; what was inflated before is kept in *out so
 * that the message can say where in the JSON the data stops. */
static int gunzip(const char *name, const unsigned char *in, size_t inlen, char **out, size_t *outlen,
                  bool *truncated, char *corrupt, size_t corruptlen, struct diag_list *diags)
{
    *truncated = false;
    corrupt[0] = '\0';
    size_t cap = inlen * 4 + 1024, n = 0;
    if (cap > IMP_MAX_BYTES + 1) cap = IMP_MAX_BYTES + 1;
    char *buf = malloc(cap);
    if (!buf) return GV_ENOMEM;
    z_stream z;
    memset(&z, 0, sizeof z);
    if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK) { free(buf); return GV_ENOMEM; }
    z.next_in = (unsigned char *)in;
    z.avail_in = (uInt)(inlen > UINT_MAX ? UINT_MAX : inlen);
    size_t consumed_total = 0;
    int rc = GV_OK;
    for (;;) {
        if (n + 1 >= cap) {
            if (cap > IMP_MAX_BYTES) {
                diag_add(diags, "%s: trace is too large once decompressed (the limit is %u MiB)", name,
                         IMP_MAX_BYTES >> 20);
                rc = GV_EINVAL;
                break;
            }
            size_t nc = cap * 2 > IMP_MAX_BYTES + 1 ? IMP_MAX_BYTES + 1 : cap * 2;
            char *b = realloc(buf, nc);
            if (!b) { rc = GV_ENOMEM; break; }
            buf = b;
            cap = nc;
        }
        z.next_out = (unsigned char *)buf + n;
        z.avail_out = (uInt)(cap - n - 1);
        size_t before_in = z.avail_in;
        int zr = inflate(&z, Z_NO_FLUSH);
        n = cap - 1 - z.avail_out;
        consumed_total += before_in - z.avail_in;
        if (zr == Z_STREAM_END) {
            /* another member? (skip trailing zero padding, as gzip does) */
            size_t rest = inlen - consumed_total;
            const unsigned char *p = in + consumed_total;
            while (rest && *p == 0) { p++; rest--; consumed_total++; }
            if (rest < 2 || p[0] != 0x1f || p[1] != 0x8b) {
                if (rest) {
                    diag_add(diags, "%s: %zu bytes of garbage after the gzip data", name, rest);
                    rc = GV_EINVAL;
                }
                break;
            }
            inflateReset(&z);
            z.next_in = (unsigned char *)p;
            z.avail_in = (uInt)(rest > UINT_MAX ? UINT_MAX : rest);
            continue;
        }
        if (zr == Z_OK) {
            if (z.avail_in == 0 && consumed_total < inlen) {
                size_t rest = inlen - consumed_total;
                z.avail_in = (uInt)(rest > UINT_MAX ? UINT_MAX : rest);
            }
            continue;
        }
        if (zr == Z_BUF_ERROR && z.avail_out > 0) {  /* no more input: the stream was cut */
            *truncated = true;
            break;
        }
        if (zr == Z_BUF_ERROR) continue;
        if (zr == Z_MEM_ERROR) { rc = GV_ENOMEM; break; }
        snprintf(corrupt, corruptlen, "corrupt gzip data after %zu compressed bytes (%s)", consumed_total,
                 z.msg ? z.msg : "inflate failed");
        break;
    }
    inflateEnd(&z);
    buf[n] = '\0';
    *out = buf;
    *outlen = n;
    return rc;
}

/* ---- a structural pre-scan ---------------------------------------------- */

/* What the scan finds: where each event of the event array starts, whether
 * the text ends inside the JSON (a truncated file), and trailing commas
 * before a ']' or '}', which it blanks out (a space keeps every position)
 * because cJSON rejects them and Chrome's trace readers accept them. */
struct scan {
    size_t nevents;          /* events that started */
    size_t complete;         /* events whose '}' was seen */
    size_t last_start;       /* offset of the last event that started */
    bool ends_inside;        /* the text ends with an open string, array or object */
    int commas;
};

static void scan_text(char *s, size_t len, struct scan *sc)
{
    memset(sc, 0, sizeof *sc);
    /* container stack: '[' or '{'; the event array is the root array or the
     * array under the root object's "traceEvents" key */
    char stack[JPOS_MAX_DEPTH + 2];
    int depth = 0, event_depth = -1;
    bool in_str = false, esc = false, key_is_events = false, after_key = false;
    size_t str_start = 0;
    for (size_t i = 0; i < len; i++) {
        char c = s[i];
        if (in_str) {
            if (esc) esc = false;
            else if (c == '\\') esc = true;
            else if (c == '"') {
                in_str = false;
                if (depth == 1 && stack[0] == '{') {
                    /* a key of the root object? (followed by ':') */
                    size_t j = i + 1;
                    while (j < len && (s[j] == ' ' || s[j] == '\t' || s[j] == '\n' || s[j] == '\r')) j++;
                    if (j < len && s[j] == ':') {
                        key_is_events = i - str_start - 1 == 11 && !memcmp(s + str_start + 1, "traceEvents", 11);
                        after_key = true;
                    }
                }
            }
            continue;
        }
        switch (c) {
        case '"':
            in_str = true;
            str_start = i;
            break;
        case '[': case '{':
            if (depth >= JPOS_MAX_DEPTH) return;  /* the parser reports it */
            if (depth == event_depth && c == '{') {
                sc->nevents++;
                sc->last_start = i;
            }
            if (c == '[' && event_depth < 0 &&
                ((depth == 0) || (depth == 1 && stack[0] == '{' && after_key && key_is_events)))
                event_depth = depth + 1;
            stack[depth++] = c;
            after_key = false;
            break;
        case ']': case '}':
            if (depth > 0) depth--;
            if (depth == event_depth && c == '}') sc->complete++;
            if (depth == event_depth - 1 && c == ']') event_depth = -2;  /* closed: no more events */
            break;
        case ',': {
            size_t j = i + 1;
            while (j < len && (s[j] == ' ' || s[j] == '\t' || s[j] == '\n' || s[j] == '\r')) j++;
            if (j < len && (s[j] == ']' || s[j] == '}')) {
                s[i] = ' ';
                sc->commas++;
            }
            if (depth == 1) after_key = false;
            break;
        }
        default:
            break;
        }
    }
    sc->ends_inside = in_str || depth > 0;
}

/* ---- tid -> thread ------------------------------------------------------ */

/* A new thread for tid, its index stored in tid's slot of the map; its
 * index, or -1 when out of memory. */
static int new_thread_at(struct rd *r, int32_t *slot, int64_t tid, sim_time start)
{
    struct imp_trace *t = r->t;
    if ((size_t)t->nthreads == r->thcap) {
        size_t cap = r->thcap ? r->thcap * 2 : 8;
        struct imp_thread *nt = realloc(t->threads, cap * sizeof *nt);
        if (!nt) return -1;
        t->threads = nt;
        struct th_rd *nr = realloc(r->th, cap * sizeof *nr);
        if (!nr) return -1;
        r->th = nr;
        r->thcap = cap;
    }
    int i = t->nthreads++;
    *slot = i;
    memset(&t->threads[i], 0, sizeof t->threads[i]);
    t->threads[i].tid = tid;
    t->threads[i].spawner = -1;
    t->threads[i].start = start;
    memset(&r->th[i], 0, sizeof r->th[i]);
    return i;
}

/* A new thread for tid; its index, or -1 when out of memory. */
int imp_new_thread(struct rd *r, int64_t tid, sim_time start)
{
    int32_t *slot = hmap_slot(&r->tids, (uint64_t)tid);
    return slot ? new_thread_at(r, slot, tid, start) : -1;
}

/* The current thread of tid, created at `ts` if there is none. */
int imp_thread_of(struct rd *r, int64_t tid, sim_time ts)
{
    int32_t *slot = hmap_slot(&r->tids, (uint64_t)tid);
    if (!slot) return -1;
    if (*slot != HMAP_NONE) return *slot;
    return new_thread_at(r, slot, tid, ts);
}

static int push_seg(struct imp_thread *th, struct imp_seg seg)
{
    if (th->nsegs == th->cap) {
        int cap = th->cap ? th->cap * 2 : 16;
        struct imp_seg *s = realloc(th->segs, (size_t)cap * sizeof *s);
        if (!s) return GV_ENOMEM;
        th->segs = s;
        th->cap = cap;
    }
    th->segs[th->nsegs++] = seg;
    return GV_OK;
}

int imp_add_seg(struct imp_trace *t, struct imp_thread *th, enum imp_state st, sim_time t0,
                   sim_time t1, int ev, enum imp_class known)
{
    if (t1 == t0 && st != IMP_DIED && st != IMP_STOPPED) {
        t->zero_length++;
        return GV_OK;
    }
    /* A thread blocks by running Ruby code: a wait or a sleep that follows
     * a state without the GVL (wants_gvl, or a wait: CRuby 3.2's native_sleep
     * reports SUSPENDED before and after releasing the GVL; gvlsim leaves
     * out zero-length running slices) had a hold of its own at its start,
     * where it may have woken another thread. */
    if ((st == IMP_WAITING || st == IMP_SLEEPING) && th->nsegs > 0) {
        const struct imp_seg *p = &th->segs[th->nsegs - 1];
        if (p->st != IMP_RUNNING && p->st != IMP_GC && p->t1 == t0 &&
            push_seg(th, (struct imp_seg){ .st = IMP_RUNNING, .t0 = t0, .t1 = t0, .event = ev, .waker = -1,
                                           .cpu = -1 }) != GV_OK)
            return GV_ENOMEM;
    }
    if (th->nsegs > 0) {
        struct imp_seg *p = &th->segs[th->nsegs - 1];
        if (p->st == st && p->t1 == t0 && p->known == known) {  /* one state, split in two events */
            p->t1 = t1;
            t->merged++;
            return GV_OK;
        }
    }
    return push_seg(th, (struct imp_seg){ .st = st, .t0 = t0, .t1 = t1, .event = ev, .waker = -1, .known = known,
                                          .cpu = -1 });
}

/* ---- event fields -------------------------------------------------------- */

size_t imp_off_of(const struct rd *r, const cJSON *node)
{
    struct jpos p;
    if (!jpos_get(r->pos, node, &p) || !p.text) return SIZE_MAX;
    return (size_t)(p.text - r->text);
}

/* The source text of number field `key` of event i (len bytes), or NULL
 * (missing or not a number: reported, `what` saying what it must be). */
static const char *field_text(struct rd *r, const cJSON *ev, int i, const char *key, const char *what,
                              const cJSON **node, size_t *len)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(ev, key);
    if (!v) {
        imp_err_at(r, imp_off_of(r, ev), "event %d: missing \"%s\"", i, key);
        return NULL;
    }
    const char *txt = cJSON_IsNumber(v) ? jpos_number_text(r->pos, v, len) : NULL;
    if (!txt) imp_err_at(r, imp_off_of(r, v), "event %d: \"%s\" must be %s", i, key, what);
    *node = v;
    return txt;
}

/* An integer field (pid, tid). 1 ok, 0 missing or bad (reported). */
int imp_event_use(struct rd *r, const cJSON *ev, int i)
{
    if (r->nerr > IMP_MAX_ERRORS) return -1;
    if (cJSON_IsObject(ev)) return 1;
    imp_err_at(r, imp_off_of(r, ev), "event %d: expected an object", i);
    return 0;
}

int imp_field_int(struct rd *r, const cJSON *ev, int i, const char *key, int64_t *out)
{
    const cJSON *v;
    size_t len;
    const char *txt = field_text(r, ev, i, key, "an integer", &v, &len);
    if (!txt) return 0;
    if (units_exact(txt, len, 0, out) != UNITS_OK) {
        imp_err_at(r, imp_off_of(r, v), "event %d: \"%s\" must be an integer", i, key);
        return 0;
    }
    return 1;
}

/* A time field in microseconds -> ps, exactly (a finer fraction is rounded
 * to the picosecond).  1 ok, 0 missing or bad (reported). */
/* The value of a number node in microseconds as ps: 1 ok, 0 not a number,
 * -1 out of range (beyond 9e12 us), -2 negative. */
int imp_us_value(const struct rd *r, const cJSON *v, sim_time *out)
{
    size_t len;
    const char *txt = cJSON_IsNumber(v) ? jpos_number_text(r->pos, v, &len) : NULL;
    if (!txt) return 0;
    int64_t ps;
    int rc = units_exact(txt, len, 6, &ps);
    if (!isfinite(v->valuedouble) || fabs(v->valuedouble) >= 9e12) return -1;
    if (rc == UNITS_EPRECISION) {   /* finer than a picosecond: rounded */
        ps = (int64_t)llround(v->valuedouble * 1e6);
        rc = UNITS_OK;
    }
    if (rc != UNITS_OK) return -1;
    if (ps < 0) return -2;
    *out = ps;
    return 1;
}

int imp_field_us(struct rd *r, const cJSON *ev, int i, const char *key, sim_time *out)
{
    const cJSON *v;
    size_t len;
    const char *txt = field_text(r, ev, i, key, "a number (microseconds)", &v, &len);
    if (!txt) return 0;
    int rc = imp_us_value(r, v, out);
    if (rc == -1)
        imp_err_at(r, imp_off_of(r, v), "event %d: \"%s\" %.*s is out of range (microseconds up to 9e12)", i,
                   key, (int)(len > 40 ? 40 : len), txt);
    else if (rc == -2)
        imp_err_at(r, imp_off_of(r, v), "event %d: \"%s\" is negative", i, key);
    return rc == 1;
}

const char *imp_field_str(const cJSON *ev, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(ev, key);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

/* args.name of an M event, or NULL. */
const char *imp_meta_arg_name(const cJSON *ev)
{
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(ev, "args");
    return cJSON_IsObject(a) ? imp_field_str(a, "name") : NULL;
}

/* Set the name of thread ti (the last one given wins). */
int imp_set_name(struct imp_trace *t, int ti, const char *name)
{
    /* a name is printed (CSV, summaries, messages): control characters,
     * bidi overrides and invalid UTF-8 are escaped, as messages escape them */
    char *s = diag_escape(name);
    if (!s) return GV_ENOMEM;
    free(t->threads[ti].name);
    t->threads[ti].name = s;
    return GV_OK;
}

/* ---- after the events ---------------------------------------------------- */

/* Close what the trace left open, drop thread tracks with no state (the
 * gvlsim timer and cores, names of threads never seen), name the rest
 * uniquely and pick the main thread. */
static int finish(struct rd *r)
{
    struct imp_trace *t = r->t;
    for (int ti = 0; ti < t->nthreads; ti++) {
        struct th_rd *x = &r->th[ti];
        struct imp_thread *th = &t->threads[ti];
        if (x->open && !x->dead && x->st != IMP_STOPPED) {
            /* still in this state when the trace ended */
            if (imp_add_seg(t, th, x->st, x->t0, t->end, x->ev, IMP_CLS_NONE) != GV_OK) return GV_ENOMEM;
            if (th->nsegs && th->segs[th->nsegs - 1].st == IMP_WAITING)
                th->segs[th->nsegs - 1].cls = IMP_CLS_END;
        }
    }
    if (r->tracer >= 0) r->tracer_tid = t->threads[r->tracer].tid;
    int keep = 0;
    for (int ti = 0; ti < t->nthreads; ti++) {
        struct imp_thread *th = &t->threads[ti];
        bool any = false;
        for (int k = 0; k < th->nsegs; k++)
            if (th->segs[k].st != IMP_DIED && th->segs[k].st != IMP_STOPPED) any = true;
        if (!any) {
            free(th->segs);
            free(th->name);
            continue;
        }
        t->threads[keep++] = *th;
    }
    t->nthreads = keep;
    if (keep == 0) {
        imp_err_at(r, SIZE_MAX, "no thread states in this trace (nothing to replay)");
        return GV_EINVAL;
    }
    const struct imp_seg *late = NULL;
    const struct imp_thread *late_th = NULL;
    for (int ti = 0; ti < keep; ti++)
        for (int k = 0; k < t->threads[ti].nsegs; k++) {
            const struct imp_seg *s = &t->threads[ti].segs[k];
            if (s->t1 > IMP_SPAN_MAX && (!late || s->t0 < late->t0)) {
                late = s;
                late_th = &t->threads[ti];
            }
        }
    if (late) {
        char a[48];
        units_format(late->t1, a, sizeof a);
        imp_err_at(r, SIZE_MAX, "event %d (tid %" PRId64 "): its state lasts until %s after the trace's start; a "
                   "scenario's op lengths and start times are at most a day", late->event, late_th->tid, a);
        return GV_EINVAL;
    }
    /* the main thread: the one gvl-tracing labels "Main Thread" (thread_label
     * in lib/gvl-tracing.rb), or whose native id is the pid (Linux, 3.2), or
     * gvlsim's "main", else the one that started tracing (the first) */
    int main_i = -1;
    for (int ti = 0; ti < keep && main_i < 0; ti++)
        if (t->threads[ti].name && (!strcmp(t->threads[ti].name, "Main Thread") ||
                                    (t->form == IMP_FORM_GVLSIM && !strcmp(t->threads[ti].name, "main"))))
            main_i = ti;
    for (int ti = 0; ti < keep && main_i < 0; ti++)
        if (t->form == IMP_FORM_GVL_TRACING && t->threads[ti].tid == r->pid) main_i = ti;
    for (int ti = 0; ti < keep && main_i < 0; ti++)
        if (t->threads[ti].tid == r->tracer_tid && r->tracer >= 0) main_i = ti;
    if (main_i < 0) main_i = 0;
    t->threads[main_i].is_main = true;
    /* unique names: the trace's, else "t<tid>"; a repeated one gets " (tid N)" */
    for (int ti = 0; ti < keep; ti++) {
        struct imp_thread *th = &t->threads[ti];
        char buf[64];
        if (!th->name || !*th->name) {
            if (th->is_main) snprintf(buf, sizeof buf, "main");
            else snprintf(buf, sizeof buf, "t%" PRId64, th->tid);
            if (imp_set_name(t, ti, buf) != GV_OK) return GV_ENOMEM;
        }
    }
    /* a name several threads share (gvl-tracing 3.2 traces call every
     * thread "ruby") gets each one's tid; a tid reused too, its order */
    unsigned char *x_dup = calloc(keep > 0 ? (size_t)keep : 1, 1);
    if (!x_dup) return GV_ENOMEM;
    for (int ti = 0; ti < keep; ti++) {
        int same = 0;
        for (int tj = 0; tj < keep; tj++) same += !strcmp(t->threads[ti].name, t->threads[tj].name);
        x_dup[ti] = same > 1;
    }
    for (int ti = 0; ti < keep; ti++) {
        if (!x_dup[ti]) continue;
        int n = 0;
        for (int tj = 0; tj < ti; tj++) n += x_dup[tj] && t->threads[tj].tid == t->threads[ti].tid;
        size_t len = strlen(t->threads[ti].name) + 48;
        char *s = malloc(len);
        if (!s) {
            free(x_dup);
            return GV_ENOMEM;
        }
        if (n) snprintf(s, len, "%s (tid %" PRId64 " #%d)", t->threads[ti].name, t->threads[ti].tid, n + 1);
        else snprintf(s, len, "%s (tid %" PRId64 ")", t->threads[ti].name, t->threads[ti].tid);
        free(t->threads[ti].name);
        t->threads[ti].name = s;
    }
    free(x_dup);
    return GV_OK;
}

void imp_trace_free(struct imp_trace *t)
{
    if (!t) return;
    for (int i = 0; i < t->nthreads; i++) {
        free(t->threads[i].segs);
        free(t->threads[i].name);
    }
    free(t->threads);
    free(t->file);
    free(t->ruby);
    free(t->flush);
    memset(t, 0, sizeof *t);
}

int imp_read_mem(const char *name, const void *data, size_t len, struct imp_trace *out,
                 struct diag_list *diags)
{
    memset(out, 0, sizeof *out);
    struct rd r = { .name = name, .diags = diags, .t = out, .tracer = -1 };
    char *text = NULL;
    size_t tlen = 0;
    bool truncated = false;
    char corrupt[256] = "";
    int rc;
    const unsigned char *d = data;
    if (len >= 2 && d[0] == 0x1f && d[1] == 0x8b) {
        rc = gunzip(name, d, len, &text, &tlen, &truncated, corrupt, sizeof corrupt, diags);
        if (rc != GV_OK) { free(text); return rc; }
    } else {
        if (len > IMP_MAX_BYTES) {
            diag_add(diags, "%s: trace is too large (the limit is %u MiB)", name, IMP_MAX_BYTES >> 20);
            return GV_EINVAL;
        }
        if (!(text = malloc(len + 1))) return GV_ENOMEM;
        memcpy(text, data, len);
        text[len] = '\0';
        tlen = len;
    }
    if (memchr(text, '\0', tlen)) {
        diag_add(diags, "%s: not a JSON trace (it contains a NUL byte)", name);
        free(text);
        return GV_EINVAL;
    }
    if (strspn(text, " \t\r\n") == tlen && !corrupt[0] && !truncated) {
        diag_add(diags, "%s: an empty file is not a trace", name);
        free(text);
        return GV_EINVAL;
    }
    struct scan sc;
    scan_text(text, tlen, &sc);
    out->trailing_commas = sc.commas;
    r.text = text;
    r.len = tlen;
    if (truncated || corrupt[0] || sc.ends_inside) {
        const char *what = corrupt[0] ? corrupt : truncated ? "the gzip stream is truncated" : "the JSON is not closed";
        if (sc.nevents > sc.complete)
            imp_err_at(&r, sc.last_start,
                   "%s: %s inside event %zu (after %zu complete events)%s", what,
                   corrupt[0] ? "what could be read ends" : "it ends", sc.complete, sc.complete,
                   corrupt[0] ? "" : ": a truncated trace (gvl-tracing closes the file at GvlTracing.stop)");
        else
            imp_err_at(&r, SIZE_MAX, "%s: it ends after %zu complete events%s", what, sc.complete,
                   corrupt[0] ? "" : ": a truncated trace (gvl-tracing closes the file at GvlTracing.stop)");
        free(text);
        return GV_EINVAL;
    }
    cJSON *root = NULL;
    int doc;
    /* A trace is as large as the program's history: its bound follows
     * the events the scan counted (IMP_VALUES_PER_EVENT each, more than
     * either writer's events hold), up to IMP_MAX_VALUES in all. */
    if (sc.nevents > (IMP_MAX_VALUES - JPOS_MAX_VALUES) / IMP_VALUES_PER_EVENT) {
        imp_err_at(&r, SIZE_MAX, "%zu trace events: more than this importer reads (%d; about %d MB "
                   "of memory each million)", sc.nevents, (IMP_MAX_VALUES - JPOS_MAX_VALUES) / IMP_VALUES_PER_EVENT,
                   IMP_MB_PER_MEVENT);
        free(text);
        return GV_EINVAL;
    }
    if ((rc = jpos_new(&r.pos)) != GV_OK) { free(text); return rc; }
    jpos_set_max_values(r.pos, JPOS_MAX_VALUES + IMP_VALUES_PER_EVENT * sc.nevents);
    /* the position table sized once for the values such events hold
     * (IMP_VALUES_TYPICAL each) rather than doubled a dozen times while
     * parsing, each doubling moving every entry and touching new pages */
    if ((rc = jpos_reserve(r.pos, IMP_VALUES_TYPICAL * sc.nevents)) != GV_OK) { free(text); goto done; }
    if ((rc = jpos_add_doc(r.pos, name, text, tlen, &doc)) != GV_OK) goto done;
    if ((rc = jpos_parse(r.pos, doc, 0, &root, diags)) != GV_OK) goto done;
    const cJSON *events = root;
    if (cJSON_IsObject(root)) events = cJSON_GetObjectItemCaseSensitive(root, "traceEvents");
    if (!cJSON_IsArray(events)) {
        imp_err_at(&r, 0, "not a trace: expected an array of trace events or an object with "
                      "\"traceEvents\" (Chrome trace-event format)");
        rc = GV_EINVAL;
        goto done;
    }
    out->nevents = cJSON_GetArraySize(events);
    const cJSON *meta = cJSON_IsObject(root) ? cJSON_GetObjectItemCaseSensitive(root, "metadata") : NULL;
    const char *gen = cJSON_IsObject(meta) ? imp_field_str(meta, "generator") : NULL;
    out->form = gen && !strcmp(gen, "gvlsim") ? IMP_FORM_GVLSIM : IMP_FORM_GVL_TRACING;
    rc = out->form == IMP_FORM_GVLSIM ? imp_read_gvlsim(&r, root, events) : imp_read_gvl_tracing(&r, events);
    if (rc == GV_OK) rc = finish(&r);
    if (rc == GV_OK && !(out->file = strdup(name))) rc = GV_ENOMEM;
done:
    if (rc == GV_EINVAL && diags->oom) rc = GV_ENOMEM;
    cJSON_Delete(root);
    jpos_free(r.pos);
    hmap_free(&r.tids);
    free(r.th);
    for (size_t i = 0; i < r.nbusy; i++) free(r.busy[i].task);
    free(r.busy);
    if (rc != GV_OK) imp_trace_free(out);
    return rc;
}

int imp_read(const char *file, struct imp_trace *out, struct diag_list *diags)
{
    char *data;
    size_t len;
    memset(out, 0, sizeof *out);
    int rc = rfile_read(file, "trace", IMP_MAX_BYTES, &data, &len, diags);
    if (rc != GV_OK) return rc;
    rc = imp_read_mem(file, data, len, out, diags);
    free(data);
    return rc;
}
