/* imp_read.c - a GVL trace file -> per-thread state segments (import.h).
 *
 * Two forms of Chrome trace-event JSON are read, plain or gzip:
 *
 * gvl-tracing (ivoanjo/gvl-tracing, ext/gvl_tracing_native_extension/
 * gvl_tracing.c render_event): every state change of a thread is an `E`
 * event closing its previous state and a `B` event opening the next at the
 * same `ts` (microseconds from GvlTracing.start); `M` events name the
 * threads (written at stop) and, from gem 1.5, the process: "Ruby threads
 * view (RUBY_VERSION[, Nms])", N being RUBY_THREAD_TIMESLICE.  With
 * os_threads_view_enabled a second process (pid 0, "OS threads view")
 * shows native threads; it is skipped.  The file is an array written as
 * events happen, closed by GvlTracing.stop, with a trailing comma before
 * the `]` in some gem versions (Chrome's trace viewer accepts one).
 *
 * gvlsim (output/trace.c): an object {"traceEvents": [...], "metadata":
 * {"generator": "gvlsim", ...}} whose thread tracks are `X` slices of
 * category "thread", named by the CSV's state names.
 *
 * Nothing is guessed: an event the reader cannot place (an unknown phase or
 * state, a B while a state is open, an E closing nothing, time going
 * backwards on a thread, a truncated file) is an error naming the event's
 * index in the event array (from 0) and its line and column.
 */
#include "import.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <zlib.h>

#include "../common/err.h"
#include "jsonpos.h"
#include "units.h"

#define MAX_ERRORS 20

static const char *const state_names[IMP_STATE_COUNT] = {
    [IMP_RUNNING] = "running",   [IMP_GC] = "gc",           [IMP_WANTS_GVL] = "wants_gvl",
    [IMP_WAITING] = "waiting",   [IMP_SLEEPING] = "sleeping", [IMP_STARTED] = "started",
    [IMP_DIED] = "died",         [IMP_STOPPED] = "stopped_tracing", [IMP_OTHER] = "other",
};

const char *imp_state_name(enum imp_state s) { return s < IMP_STATE_COUNT ? state_names[s] : "?"; }

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

/* gvlsim's thread states (output/trace.c, thread_state_name). */
static const struct { const char *name; enum imp_state st; enum imp_class known; } sim_states[] = {
    { "running", IMP_RUNNING, IMP_CLS_NONE },       { "wants_gvl", IMP_WANTS_GVL, IMP_CLS_NONE },
    { "blocking", IMP_WAITING, IMP_CLS_IO },        { "parked", IMP_WAITING, IMP_CLS_SYNC },
    { "sleeping", IMP_SLEEPING, IMP_CLS_NONE },     { "barrier_init", IMP_OTHER, IMP_CLS_NONE },
    { "barrier_join", IMP_OTHER, IMP_CLS_NONE },    { "vmlock_wait", IMP_OTHER, IMP_CLS_NONE },
    { "wants_snt", IMP_OTHER, IMP_CLS_NONE },
};
#define SIM_STATE_LIST "running, wants_gvl, blocking, parked, sleeping, barrier_init, " \
                       "barrier_join, vmlock_wait, wants_snt"

#define NELEM(a) (sizeof a / sizeof a[0])

/* ---- reading and decompressing ------------------------------------------ */

struct rd {
    const char *name;
    struct diag_list *diags;
    int nerr;
    struct jpos_table *pos;
    const char *text;            /* the decompressed JSON */
    size_t len;
    struct imp_trace *t;
    /* tid -> current thread index (open addressing) */
    int64_t *keys;
    int *vals;
    size_t hcap, hcount;
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

static void err_at(struct rd *r, size_t off, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* One error "NAME[:L:C]: ...", at byte offset `off` of the text (SIZE_MAX:
 * none); after MAX_ERRORS, one line saying the rest are not shown. */
static void err_at(struct rd *r, size_t off, const char *fmt, ...)
{
    if (r->nerr > MAX_ERRORS) return;
    if (r->nerr++ == MAX_ERRORS) {
        diag_add(r->diags, "%s: too many errors; stopping after %d", r->name, MAX_ERRORS);
        return;
    }
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    int line = 0, col = 0;
    if (off != SIZE_MAX && r->text) jpos_linecol(r->text, off, &line, &col);
    diag_at(r->diags, r->name, line, col, NULL, "%s", msg);
}

static int read_all(const char *path, char **out, size_t *len, struct diag_list *diags)
{
    *out = NULL;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        diag_add(diags, "%s: cannot read trace: %s", path, strerror(errno));
        return GV_EIO;
    }
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    if (!buf) { close(fd); return GV_ENOMEM; }
    for (;;) {
        if (n == cap) {
            if (cap > IMP_MAX_BYTES) {
                free(buf);
                close(fd);
                diag_add(diags, "%s: trace is too large (the limit is %u MiB)", path, IMP_MAX_BYTES >> 20);
                return GV_EINVAL;
            }
            char *b = realloc(buf, cap * 2);
            if (!b) { free(buf); close(fd); return GV_ENOMEM; }
            buf = b;
            cap *= 2;
        }
        ssize_t k = read(fd, buf + n, cap - n);
        if (k < 0 && errno == EINTR) continue;
        if (k < 0) {
            int e = errno;
            free(buf);
            close(fd);
            diag_add(diags, "%s: cannot read trace: %s", path, strerror(e));
            return GV_EIO;
        }
        if (k == 0) break;
        n += (size_t)k;
    }
    close(fd);
    *out = buf;
    *len = n;
    return GV_OK;
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

static int map_grow(struct rd *r)
{
    size_t ncap = r->hcap ? r->hcap * 2 : 64;
    int64_t *k = malloc(ncap * sizeof *k);
    int *v = malloc(ncap * sizeof *v);
    if (!k || !v) { free(k); free(v); return GV_ENOMEM; }
    for (size_t i = 0; i < ncap; i++) v[i] = -1;
    for (size_t i = 0; i < r->hcap; i++) {
        if (r->vals[i] < 0) continue;
        size_t h = ((uint64_t)r->keys[i] * 0x9E3779B97F4A7C15ULL >> 17) & (ncap - 1);
        while (v[h] >= 0) h = (h + 1) & (ncap - 1);
        k[h] = r->keys[i];
        v[h] = r->vals[i];
    }
    free(r->keys);
    free(r->vals);
    r->keys = k;
    r->vals = v;
    r->hcap = ncap;
    return GV_OK;
}

/* The slot of tid (its value is -1 if absent); NULL when out of memory. */
static int *map_slot(struct rd *r, int64_t tid)
{
    if ((r->hcount + 1) * 2 > r->hcap && map_grow(r) != GV_OK) return NULL;
    size_t h = ((uint64_t)tid * 0x9E3779B97F4A7C15ULL >> 17) & (r->hcap - 1);
    while (r->vals[h] >= 0 && r->keys[h] != tid) h = (h + 1) & (r->hcap - 1);
    if (r->vals[h] < 0) r->keys[h] = tid;
    return &r->vals[h];
}

/* A new thread for tid; its index, or -1 when out of memory. */
static int new_thread(struct rd *r, int64_t tid, sim_time start)
{
    struct imp_trace *t = r->t;
    int *slot = map_slot(r, tid);
    if (!slot) return -1;
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
    if (*slot < 0) r->hcount++;
    *slot = i;
    memset(&t->threads[i], 0, sizeof t->threads[i]);
    t->threads[i].tid = tid;
    t->threads[i].spawner = -1;
    t->threads[i].start = start;
    memset(&r->th[i], 0, sizeof r->th[i]);
    return i;
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

static int add_seg(struct imp_trace *t, struct imp_thread *th, enum imp_state st, sim_time t0,
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

static size_t off_of(const struct rd *r, const cJSON *node)
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
        err_at(r, off_of(r, ev), "event %d: missing \"%s\"", i, key);
        return NULL;
    }
    const char *txt = cJSON_IsNumber(v) ? jpos_number_text(r->pos, v, len) : NULL;
    if (!txt) err_at(r, off_of(r, v), "event %d: \"%s\" must be %s", i, key, what);
    *node = v;
    return txt;
}

/* An integer field (pid, tid). 1 ok, 0 missing or bad (reported). */
static int field_int(struct rd *r, const cJSON *ev, int i, const char *key, int64_t *out)
{
    const cJSON *v;
    size_t len;
    const char *txt = field_text(r, ev, i, key, "an integer", &v, &len);
    if (!txt) return 0;
    if (units_exact(txt, len, 0, out) != UNITS_OK) {
        err_at(r, off_of(r, v), "event %d: \"%s\" must be an integer", i, key);
        return 0;
    }
    return 1;
}

/* A time field in microseconds -> ps, exactly (a finer fraction is rounded
 * to the picosecond).  1 ok, 0 missing or bad (reported). */
static int field_us(struct rd *r, const cJSON *ev, int i, const char *key, sim_time *out)
{
    const cJSON *v;
    size_t len;
    const char *txt = field_text(r, ev, i, key, "a number (microseconds)", &v, &len);
    if (!txt) return 0;
    int64_t ps;
    int rc = units_exact(txt, len, 6, &ps);
    if (rc == UNITS_EPRECISION && fabs(v->valuedouble) < 9e12) {
        ps = (int64_t)llround(v->valuedouble * 1e6);
        rc = UNITS_OK;
    }
    if (rc != UNITS_OK || !isfinite(v->valuedouble) || fabs(v->valuedouble) >= 9e12) {
        err_at(r, off_of(r, v), "event %d: \"%s\" %.*s is out of range (microseconds up to 9e12)", i,
               key, (int)(len > 40 ? 40 : len), txt);
        return 0;
    }
    if (ps < 0) {
        err_at(r, off_of(r, v), "event %d: \"%s\" is negative", i, key);
        return 0;
    }
    *out = ps;
    return 1;
}

static const char *field_str(const cJSON *ev, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(ev, key);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

/* args.name of an M event, or NULL. */
static const char *meta_arg_name(const cJSON *ev)
{
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(ev, "args");
    return cJSON_IsObject(a) ? field_str(a, "name") : NULL;
}

/* Set the name of thread ti (the last one given wins). */
static int set_name(struct imp_trace *t, int ti, const char *name)
{
    char *s = strdup(name);
    if (!s) return GV_ENOMEM;
    free(t->threads[ti].name);
    t->threads[ti].name = s;
    return GV_OK;
}

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

/* The current thread of tid, created at `ts` if there is none. */
static int thread_of(struct rd *r, int64_t tid, sim_time ts)
{
    int *slot = map_slot(r, tid);
    if (!slot) return -1;
    if (*slot >= 0) return *slot;
    return new_thread(r, tid, ts);
}

static int read_gvl_tracing(struct rd *r, const cJSON *events)
{
    struct imp_trace *t = r->t;
    int i;
    const cJSON *ev;
    /* pass 1: the processes (the Ruby view and the skipped OS view) and the
     * first time, so that segments start at 0 */
    int64_t ruby_pid = INT64_MIN, os_pid = INT64_MIN, first_pid = INT64_MIN;
    bool have_origin = false;
    cJSON_ArrayForEach(ev, events) {
        const char *ph = cJSON_IsObject(ev) ? field_str(ev, "ph") : NULL;
        int64_t pid;
        const cJSON *pv = ph ? cJSON_GetObjectItemCaseSensitive(ev, "pid") : NULL;
        size_t len;
        const char *txt = cJSON_IsNumber(pv) ? jpos_number_text(r->pos, pv, &len) : NULL;
        if (txt && units_exact(txt, len, 0, &pid) == UNITS_OK) {
            if (!strcmp(ph, "M") && field_str(ev, "name") && !strcmp(field_str(ev, "name"), "process_name")) {
                const char *pn = meta_arg_name(ev);
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
        const char *ph = cJSON_IsObject(ev) ? field_str(ev, "ph") : NULL;
        if (!ph || (strcmp(ph, "B") && strcmp(ph, "E"))) continue;
        const cJSON *pv = cJSON_GetObjectItemCaseSensitive(ev, "pid");
        const cJSON *tv = cJSON_GetObjectItemCaseSensitive(ev, "ts");
        int64_t pid, ps;
        size_t len;
        const char *txt = cJSON_IsNumber(pv) ? jpos_number_text(r->pos, pv, &len) : NULL;
        if (!txt || units_exact(txt, len, 0, &pid) != UNITS_OK || pid != ruby_pid) continue;
        txt = cJSON_IsNumber(tv) ? jpos_number_text(r->pos, tv, &len) : NULL;
        if (!txt) continue;
        if (units_exact(txt, len, 6, &ps) != UNITS_OK) ps = (int64_t)llround(tv->valuedouble * 1e6);
        if (!have_origin || ps < r->origin) r->origin = ps;
        have_origin = true;
    }

    /* pass 2: the state machine of each thread */
    i = -1;
    cJSON_ArrayForEach(ev, events) {
        i++;
        if (r->nerr > MAX_ERRORS) break;
        if (!cJSON_IsObject(ev)) {
            err_at(r, off_of(r, ev), "event %d: expected an object", i);
            continue;
        }
        const char *ph = field_str(ev, "ph");
        if (!ph) {
            err_at(r, off_of(r, ev), "event %d: missing \"ph\" (the event's phase)", i);
            continue;
        }
        int64_t pid = 0;
        if (!strcmp(ph, "M")) {
            const char *what = field_str(ev, "name");
            if (what && !strcmp(what, "thread_name")) {
                int64_t tid;
                const char *nm = meta_arg_name(ev);
                if (!field_int(r, ev, i, "pid", &pid) || !field_int(r, ev, i, "tid", &tid)) continue;
                if (pid != ruby_pid) {
                    if (pid == os_pid) t->os_view_events++;
                    else t->other_events++;
                    continue;
                }
                if (!nm) {
                    err_at(r, off_of(r, ev), "event %d: thread_name without args.name", i);
                    continue;
                }
                int ti = thread_of(r, tid, 0);
                if (ti < 0 || set_name(t, ti, nm) != GV_OK) return GV_ENOMEM;
            } else if (!what || strcmp(what, "process_name")) {
                t->other_events++;  /* sort indexes and labels: nothing to replay */
            }
            continue;
        }
        if (strcmp(ph, "B") && strcmp(ph, "E")) {
            err_at(r, off_of(r, ev),
                   "event %d: phase \"%.20s\" is not part of a gvl-tracing trace (B, E and M are)", i, ph);
            continue;
        }
        int64_t tid;
        sim_time ts;
        if (!field_int(r, ev, i, "pid", &pid)) continue;
        if (pid != ruby_pid) {
            if (pid == os_pid) { t->os_view_events++; continue; }
            err_at(r, off_of(r, ev),
                   "event %d: pid %" PRId64 " is not the traced process (%" PRId64 "): one process per trace",
                   i, pid, ruby_pid);
            continue;
        }
        if (!field_int(r, ev, i, "tid", &tid) || !field_us(r, ev, i, "ts", &ts)) continue;
        ts -= r->origin;
        enum imp_state st = IMP_RUNNING;
        if (ph[0] == 'B') {
            const char *nm = field_str(ev, "name");
            if (!nm) {
                err_at(r, off_of(r, ev), "event %d: a B event needs the state as \"name\"", i);
                continue;
            }
        }
        int ti = thread_of(r, tid, ts);
        if (ti < 0) return GV_ENOMEM;
        struct th_rd *x = &r->th[ti];
        if (x->broken) continue;  /* one error per thread: what follows is not placed either */
        if (ph[0] == 'B' && !lookup_state(field_str(ev, "name"), &st)) {
            err_at(r, off_of(r, ev), "event %d (tid %" PRId64 "): unknown state \"%.40s\" (gvl-tracing's: %s)", i,
                   tid, field_str(ev, "name"), GVLT_STATE_LIST);
            x->broken = true;
            continue;
        }
        if (x->any && ts < x->last) {
            char a[48], b[48];
            units_format(x->last + r->origin, a, sizeof a);
            units_format(ts + r->origin, b, sizeof b);
            err_at(r, off_of(r, ev),
                   "event %d (tid %" PRId64 "): time goes backwards: ts %s after %s at event %d", i, tid, b,
                   a, x->last_ev);
            x->broken = true;
            continue;
        }
        if (ph[0] == 'E') {
            if (!x->open) {
                if (x->any) {
                    err_at(r, off_of(r, ev),
                           "event %d (tid %" PRId64 "): an E event closes nothing (unbalanced B/E: the "
                           "previous E was not followed by a B)", i, tid);
                    x->broken = true;
                    continue;
                }
            } else {
                x->open = 0;
                if (!x->dead && add_seg(t, &t->threads[ti], x->st, x->t0, ts, x->ev, IMP_CLS_NONE) != GV_OK)
                    return GV_ENOMEM;
            }
        } else {
            if (x->open) {
                err_at(r, off_of(r, ev),
                       "event %d (tid %" PRId64 "): B \"%s\" while \"%s\" (event %d) is still open: a missing "
                       "E (unbalanced B/E)", i, tid, field_str(ev, "name"), x->st_name, x->ev);
                x->broken = true;
                continue;
            }
            if (x->dead && st == IMP_STARTED) {
                /* a native thread id reused by a new Ruby thread (3.2 traces name threads by
                 * native id) */
                ti = new_thread(r, tid, ts);
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
            if (r->tracer < 0 && !strcmp(field_str(ev, "name"), "started_tracing")) r->tracer = ti;
            x->open = 1;
            x->st = st;
            x->st_name = field_str(ev, "name");
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

/* ---- the gvlsim form ----------------------------------------------------- */

/* A core busy running a task (core slices name the task as the thread
 * tracks name the thread): was a blocking thread on a CPU? */
static int add_busy(struct rd *r, const cJSON *ev)
{
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(ev, "args");
    const char *state = cJSON_IsObject(a) ? field_str(a, "state") : NULL;
    const char *task = cJSON_IsObject(a) ? field_str(a, "task") : NULL;
    const cJSON *tv = cJSON_GetObjectItemCaseSensitive(ev, "ts"), *dv = cJSON_GetObjectItemCaseSensitive(ev, "dur");
    if (!state || !task || !cJSON_IsNumber(tv) || !cJSON_IsNumber(dv)) return GV_OK;
    bool busy = !strcmp(state, "busy");
    if (!busy && strcmp(state, "wake") && strcmp(state, "switch")) return GV_OK;
    if (r->nbusy == r->capbusy) {
        size_t cap = r->capbusy ? r->capbusy * 2 : 256;
        struct busy *b = realloc(r->busy, cap * sizeof *b);
        if (!b) return GV_ENOMEM;
        r->busy = b;
        r->capbusy = cap;
    }
    char *name = strdup(task);
    if (!name) return GV_ENOMEM;
    sim_time t0 = (sim_time)llround(tv->valuedouble * 1e6);
    r->busy[r->nbusy++] = (struct busy){ name, t0, t0 + (sim_time)llround(dv->valuedouble * 1e6), busy };
    return GV_OK;
}

static int cmp_busy(const void *x, const void *y)
{
    const struct busy *p = x, *q = y;
    int c = strcmp(p->task, q->task);
    return c ? c : p->t0 < q->t0 ? -1 : p->t0 > q->t0;
}

/* How long each slice of a thread had a core.  A blocking slice during
 * which the thread's task was busy on a core for at least half its length
 * was a system call on the CPU (io_wait false); a running slice or a
 * system call that waited for a core replays only the time it had one.
 * An off-CPU wait (a sleep, an io_wait system call) ends when its thread
 * is woken, which an idle core's "wake" or a busy core's "switch" to the
 * task shows: the wake-up is the machine's, not the wait's own length. */
static void mark_oncpu(struct rd *r)
{
    struct imp_trace *t = r->t;
    if (r->nbusy) qsort(r->busy, r->nbusy, sizeof *r->busy, cmp_busy);
    for (int ti = 0; ti < t->nthreads; ti++) {
        struct imp_thread *th = &t->threads[ti];
        if (!th->name) continue;
        size_t lo = 0, hi = r->nbusy;   /* the first core slice of this task */
        while (lo < hi) {
            size_t mid = (lo + hi) / 2;
            if (strcmp(r->busy[mid].task, th->name) < 0) lo = mid + 1;
            else hi = mid;
        }
        size_t first = lo;
        for (int k = 0; k < th->nsegs; k++) {
            struct imp_seg *s = &th->segs[k];
            bool hold = s->st == IMP_RUNNING || s->st == IMP_GC;
            if (s->known != IMP_CLS_IO && !hold && s->st != IMP_SLEEPING) continue;
            /* slices of one task do not overlap: skip those that ended before s */
            while (first < r->nbusy && !strcmp(r->busy[first].task, th->name) && r->busy[first].t1 <= s->t0)
                first++;
            sim_time on = 0, woke = -1;
            for (size_t j = first; j < r->nbusy && !strcmp(r->busy[j].task, th->name) && r->busy[j].t0 < s->t1;
                 j++) {
                const struct busy *b = &r->busy[j];
                sim_time a = b->t0 > s->t0 ? b->t0 : s->t0, e = b->t1 < s->t1 ? b->t1 : s->t1;
                if (b->busy && e > a) on += e - a;
                if (!b->busy && b->t0 > s->t0) woke = b->t0;   /* the last wake-up in the slice */
            }
            if (hold) {
                s->cpu = on;
                continue;
            }
            if (s->known == IMP_CLS_IO) s->oncpu = on * 2 >= s->t1 - s->t0;
            s->cpu = s->oncpu ? on : woke >= 0 ? woke - s->t0 : -1;
        }
    }
}

static int read_gvlsim(struct rd *r, const cJSON *root, const cJSON *events)
{
    struct imp_trace *t = r->t;
    const cJSON *meta = cJSON_GetObjectItemCaseSensitive(root, "metadata");
    if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(meta, "truncated"))) {
        err_at(r, off_of(r, meta),
               "this gvlsim trace was cut at its event cap (--trace-max-events): it does not hold the "
               "whole run");
        return GV_EINVAL;
    }
    int i = -1;
    const cJSON *ev;
    cJSON_ArrayForEach(ev, events) {
        i++;
        if (r->nerr > MAX_ERRORS) break;
        if (!cJSON_IsObject(ev)) {
            err_at(r, off_of(r, ev), "event %d: expected an object", i);
            continue;
        }
        const char *ph = field_str(ev, "ph"), *cat = field_str(ev, "cat"), *nm = field_str(ev, "name");
        if (!ph) {
            err_at(r, off_of(r, ev), "event %d: missing \"ph\" (the event's phase)", i);
            continue;
        }
        int64_t tid;
        if (!strcmp(ph, "M") && nm && !strcmp(nm, "thread_name")) {
            const char *tn = meta_arg_name(ev);
            if (!field_int(r, ev, i, "tid", &tid)) continue;
            if (!tn) {
                err_at(r, off_of(r, ev), "event %d: thread_name without args.name", i);
                continue;
            }
            int ti = thread_of(r, tid, 0);
            if (ti < 0 || set_name(t, ti, tn) != GV_OK) return GV_ENOMEM;
            continue;
        }
        if (!strcmp(ph, "X") && cat && !strcmp(cat, "core")) {
            if (add_busy(r, ev) != GV_OK) return GV_ENOMEM;
            t->other_events++;
            continue;
        }
        if (strcmp(ph, "X") || !cat || strcmp(cat, "thread")) {
            if (!strcmp(ph, "B") || !strcmp(ph, "E")) {
                err_at(r, off_of(r, ev), "event %d: a %s event in a gvlsim trace (its thread states are X slices)",
                       i, ph);
                continue;
            }
            t->other_events++;  /* cores, the timer, counters, instants: what the model predicts */
            continue;
        }
        sim_time ts, dur;
        if (!field_int(r, ev, i, "tid", &tid) || !field_us(r, ev, i, "ts", &ts) ||
            !field_us(r, ev, i, "dur", &dur))
            continue;
        size_t k;
        for (k = 0; k < NELEM(sim_states); k++)
            if (nm && !strcmp(sim_states[k].name, nm)) break;
        if (k == NELEM(sim_states)) {
            err_at(r, off_of(r, ev), "event %d (tid %" PRId64 "): unknown thread state \"%.40s\" (gvlsim's: %s)",
                   i, tid, nm ? nm : "", SIM_STATE_LIST);
            continue;
        }
        int ti = thread_of(r, tid, ts);
        if (ti < 0) return GV_ENOMEM;
        struct th_rd *x = &r->th[ti];
        if (x->broken) continue;
        if (x->any && ts < x->last) {
            char a[48], b[48];
            units_format(x->last, a, sizeof a);
            units_format(ts, b, sizeof b);
            err_at(r, off_of(r, ev),
                   "event %d (tid %" PRId64 "): time goes backwards: this slice starts at %s, before the "
                   "end of the previous one (event %d) at %s", i, tid, b, x->last_ev, a);
            x->broken = true;
            continue;
        }
        if (!x->any) t->threads[ti].start = ts;
        if (add_seg(t, &t->threads[ti], sim_states[k].st, ts, ts + dur, i, sim_states[k].known) != GV_OK)
            return GV_ENOMEM;
        x->any = true;
        x->last = ts + dur;
        x->last_ev = i;
        if (ts + dur > t->end) t->end = ts + dur;
    }
    /* gvlsim's threads end with their last slice */
    for (int ti = 0; ti < t->nthreads; ti++) t->threads[ti].died = t->threads[ti].nsegs > 0;
    if (!r->nerr) mark_oncpu(r);
    return r->nerr ? GV_EINVAL : GV_OK;
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
            if (add_seg(t, th, x->st, x->t0, t->end, x->ev, IMP_CLS_NONE) != GV_OK) return GV_ENOMEM;
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
        err_at(r, SIZE_MAX, "no thread states in this trace (nothing to replay)");
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
            if (set_name(t, ti, buf) != GV_OK) return GV_ENOMEM;
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
    if (truncated || corrupt[0] || sc.ends_inside) {
        const char *what = corrupt[0] ? corrupt : truncated ? "the gzip stream is truncated" : "the JSON is not closed";
        if (sc.nevents > sc.complete)
            err_at(&r, sc.last_start,
                   "%s: %s inside event %zu (after %zu complete events)%s", what,
                   corrupt[0] ? "what could be read ends" : "it ends", sc.complete, sc.complete,
                   corrupt[0] ? "" : ": a truncated trace (gvl-tracing closes the file at GvlTracing.stop)");
        else
            err_at(&r, SIZE_MAX, "%s: it ends after %zu complete events%s", what, sc.complete,
                   corrupt[0] ? "" : ": a truncated trace (gvl-tracing closes the file at GvlTracing.stop)");
        free(text);
        return GV_EINVAL;
    }
    cJSON *root = NULL;
    int doc;
    if ((rc = jpos_new(&r.pos)) != GV_OK) { free(text); return rc; }
    if ((rc = jpos_add_doc(r.pos, name, text, tlen, &doc)) != GV_OK) goto done;
    if ((rc = jpos_parse(r.pos, doc, 0, &root, diags)) != GV_OK) goto done;
    const cJSON *events = root;
    if (cJSON_IsObject(root)) events = cJSON_GetObjectItemCaseSensitive(root, "traceEvents");
    if (!cJSON_IsArray(events)) {
        err_at(&r, 0, "not a trace: expected an array of trace events or an object with "
                      "\"traceEvents\" (Chrome trace-event format)");
        rc = GV_EINVAL;
        goto done;
    }
    out->nevents = cJSON_GetArraySize(events);
    const cJSON *meta = cJSON_IsObject(root) ? cJSON_GetObjectItemCaseSensitive(root, "metadata") : NULL;
    const char *gen = cJSON_IsObject(meta) ? field_str(meta, "generator") : NULL;
    out->form = gen && !strcmp(gen, "gvlsim") ? IMP_FORM_GVLSIM : IMP_FORM_GVL_TRACING;
    rc = out->form == IMP_FORM_GVLSIM ? read_gvlsim(&r, root, events) : read_gvl_tracing(&r, events);
    if (rc == GV_OK) rc = finish(&r);
    if (rc == GV_OK && !(out->file = strdup(name))) rc = GV_ENOMEM;
done:
    if (rc == GV_EINVAL && diags->oom) rc = GV_ENOMEM;
    cJSON_Delete(root);
    jpos_free(r.pos);
    free(r.keys);
    free(r.vals);
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
    int rc = read_all(file, &data, &len, diags);
    if (rc != GV_OK) return rc;
    rc = imp_read_mem(file, data, len, out, diags);
    free(data);
    return rc;
}
