/* build.c - fill struct scenario from a tree that passed validation. */
#include "build.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/err.h"
#include "jptr.h"
#include "ruby_version.h"

struct qent { const char *name; int index; };

/* Names sorted, for name -> index. */
struct nameidx {
    struct qent *v;
    int n;
};

struct bctx {
    const struct sch_doc *d;
    struct scenario *s;
    struct jptr ptr;
    struct nameidx queues, mutexes, condvars, measures;
};

static const cJSON *member(const cJSON *obj, const char *key)
{
    return cJSON_IsObject(obj) ? cJSON_GetObjectItemCaseSensitive(obj, key) : NULL;
}

static int dup_to(char **dst, const char *src)
{
    *dst = strdup(src);
    return *dst ? GV_OK : GV_ENOMEM;
}

/* An integer key of object o, or the key's default from table t. */
static int64_t int_or_default(const struct bctx *b, const cJSON *o, const struct sch_obj *t,
                              const char *key)
{
    const cJSON *v = member(o, key);
    return v ? sch_int(b->d->pos, v) : sch_default_int(sch_find(t, key));
}

static int bool_or_default(const cJSON *o, const struct sch_obj *t, const char *key)
{
    const cJSON *v = member(o, key);
    if (v) return cJSON_IsTrue(v);
    const struct sch_key *k = sch_find(t, key);
    return k->def && !strcmp(k->def, "true");
}

/* Table-driven fill of a struct (machine, runtime): each key with a field
 * offset comes from `over`, else `base`, else the table default. */
static int fill_struct(const struct bctx *b, const struct sch_obj *t, const cJSON *over,
                       const cJSON *base, void *dst)
{
    for (int i = 0; i < t->nkeys; i++) {
        const struct sch_key *k = &t->keys[i];
        if (k->off == SCH_NOFF) continue;
        const cJSON *v = member(over, k->name);
        if (!v) v = member(base, k->name);
        char *field = (char *)dst + k->off;
        switch (k->kind) {
        case SCH_STRING: {
            const char *src = v ? v->valuestring : k->def;
            char *copy = NULL;
            if (src && dup_to(&copy, src) != GV_OK) return GV_ENOMEM;
            memcpy(field, &copy, sizeof copy);
            break;
        }
        case SCH_INT: {
            int x = (int)(v ? sch_int(b->d->pos, v) : sch_default_int(k));
            memcpy(field, &x, sizeof x);
            break;
        }
        case SCH_DUR: {
            /* no default (machine.timer_wake): absent is SCN_DUR_UNSET */
            sim_time x = v ? sch_dur(b->d->pos, v) : k->def ? sch_default_dur(k) : SCN_DUR_UNSET;
            memcpy(field, &x, sizeof x);
            break;
        }
        case SCH_NUMBER: {
            double x = v ? v->valuedouble : strtod(k->def, NULL);
            memcpy(field, &x, sizeof x);
            break;
        }
        case SCH_ENUM: {
            /* The scn enums have no negative values and are int-sized. */
            int x = sch_enum_index(k->values, v ? v->valuestring : k->def);
            memcpy(field, &x, sizeof x);
            break;
        }
        case SCH_BOOL: {
            bool x = v ? cJSON_IsTrue(v) : !strcmp(k->def, "true");
            memcpy(field, &x, sizeof x);
            break;
        }
        case SCH_CURVE: {  /* absent: no curve */
            struct gv_curve x = { 0 };
            for (const cJSON *e = v ? v->child : NULL; e && x.n < GV_CURVE_MAX; e = e->next, x.n++) {
                x.x[x.n] = sch_dur(b->d->pos, e->child);
                x.y[x.n] = sch_dur(b->d->pos, e->child->next);
            }
            memcpy(field, &x, sizeof x);
            break;
        }
        case SCH_DURS: {  /* a short list in the struct (scn_durs); absent: none */
            struct scn_durs x = { 0 };
            for (const cJSON *e = v ? v->child : NULL; e && x.n < GV_CURVE_MAX; e = e->next)
                x.v[x.n++] = sch_dur(b->d->pos, e);
            memcpy(field, &x, sizeof x);
            break;
        }
        default:
            break;
        }
    }
    return GV_OK;
}

_Static_assert(sizeof(enum scn_gvl_policy) == sizeof(int) && sizeof(enum scn_snt_cap) == sizeof(int) &&
               sizeof(enum scn_invariant_check) == sizeof(int) &&
               sizeof(enum scn_insn_counter) == sizeof(int) &&
               sizeof(enum scn_counter_model) == sizeof(int) &&
               sizeof(enum scn_mutex_impl) == sizeof(int),
               "fill_struct stores enums as int");

/* runtime: explicit keys, else the runtime.ruby preset (ruby_version.c),
 * else the table defaults; `asked` records which keys were not defaults. */
static int build_runtime(const struct bctx *b, const cJSON *rt)
{
    struct scn_runtime *r = &b->s->runtime;
    const cJSON *ruby = member(rt, "ruby");
    cJSON *preset = NULL;
    if (ruby) {
        char buf[40];
        struct rver v;
        struct rver_facts f;
        const char *t = sch_ruby_text(b->d->pos, ruby, buf, sizeof buf);
        if (!t || rver_parse(t, &v) != 0 || rver_facts_of(&v, &f) != GV_OK) return GV_EINVAL;
        if (dup_to(&r->ruby, t) != GV_OK) return GV_ENOMEM;
        const cJSON *yjit = member(rt, "yjit");
        preset = rver_preset(&f, yjit && cJSON_IsTrue(yjit), b->s->machine.cores);
        if (!preset) return GV_ENOMEM;
    }
    int rc = fill_struct(b, &sch_runtime, rt, preset, r);
    for (int k = 0; k < RT_KEY_COUNT; k++)
        if (member(rt, scn_rt_key_names[k]) || member(preset, scn_rt_key_names[k])) r->asked |= 1u << k;
    cJSON_Delete(preset);
    return rc;
}

static int build_dist(const struct bctx *b, const cJSON *v, struct scn_dist *out)
{
    memset(out, 0, sizeof *out);
    if (!cJSON_IsObject(v)) {
        out->kind = DIST_CONST;
        out->a = sch_dur(b->d->pos, v);
        return GV_OK;
    }
    out->kind = (enum scn_dist_kind)sch_enum_index(scn_dist_names, member(v, "dist")->valuestring);
    const struct jpos_table *pos = b->d->pos;
    switch (out->kind) {
    case DIST_CONST: out->a = sch_dur(pos, member(v, "value")); break;
    case DIST_UNIFORM:
        out->a = sch_dur(pos, member(v, "min"));
        out->b = sch_dur(pos, member(v, "max"));
        break;
    case DIST_EXP: out->a = sch_dur(pos, member(v, "mean")); break;
    case DIST_LOGNORMAL: {
        out->sigma = member(v, "sigma")->valuedouble;
        const cJSON *med = member(v, "median");
        if (med) {
            out->a = sch_dur(pos, med);
        } else {  /* mean = median * exp(sigma^2 / 2) */
            double m = (double)sch_dur(pos, member(v, "mean")) / exp(out->sigma * out->sigma / 2.0);
            out->a = (sim_time)llround(m);
        }
        break;
    }
    case DIST_EMPIRICAL: {
        const cJSON *vals = member(v, "values"), *ws = member(v, "weights");
        int n = cJSON_GetArraySize(vals);
        out->values = malloc((size_t)n * sizeof *out->values);
        out->cum = malloc((size_t)n * sizeof *out->cum);
        if (!out->values || !out->cum) return GV_ENOMEM;
        out->n = n;
        const cJSON *x = vals->child, *w = ws ? ws->child : NULL;
        double total = 0;
        for (int i = 0; i < n; i++, x = x->next) {
            out->values[i] = sch_dur(pos, x);
            total += w ? w->valuedouble : 1.0;
            out->cum[i] = total;
            if (w) w = w->next;
        }
        break;
    }
    case DIST_KIND_COUNT: break;
    }
    return GV_OK;
}

static int name_index(const struct nameidx *t, const char *name)
{
    int lo = 0, hi = t->n;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        int r = strcmp(t->v[mid].name, name);
        if (r == 0) return t->v[mid].index;
        if (r < 0) lo = mid + 1;
        else hi = mid;
    }
    return -1;  /* not reached: the validator checked every name */
}

static int queue_index(const struct bctx *b, const char *name) { return name_index(&b->queues, name); }

/* The index of the thread template of that name in scenario.tmpls. */
static int tmpl_index(const struct bctx *b, const char *name)
{
    for (int i = 0; i < b->s->ntmpls; i++)
        if (!strcmp(b->s->tmpls[i].thread->name, name)) return i;
    return 0;  /* not reached: the validator checked it */
}

/* A key's value of a string or its absence, as "1 + index" (0 absent). */
static int ref1(const struct nameidx *t, const cJSON *v)
{
    return v && cJSON_IsString(v) ? 1 + name_index(t, v->valuestring) : 0;
}

static bool from_pop(const cJSON *v)
{
    const cJSON *lf = member(v, "latency_from");
    return lf && !strcmp(lf->valuestring, "pop");
}

static int build_prog(struct bctx *b, const cJSON *arr, struct scn_prog *p);

/* A block's body under key `key` of v into a new prog (empty if absent). */
static int build_body(struct bctx *b, const cJSON *v, const char *key, struct scn_prog **out)
{
    *out = calloc(1, sizeof **out);
    if (!*out) return GV_ENOMEM;
    const cJSON *arr = member(v, key);
    if (!arr) return GV_OK;
    size_t mark = jptr_push_key(&b->ptr, key);
    int rc = build_prog(b, arr, *out);
    jptr_pop(&b->ptr, mark);
    return rc;
}

/* A syscall op's "method_work" or "method_work_after" (v, or NULL): into
 * *out, the machine's `cost` for "machine" (the validator checked that the
 * machine has it), else the duration given or 0; whether it was "machine". */
static bool method_work(const struct jpos_table *pos, const cJSON *v, sim_time cost, sim_time *out)
{
    if (cJSON_IsString(v) && !strcmp(v->valuestring, SCH_DUR_MACHINE)) {
        *out = cost;
        return true;
    }
    *out = v ? sch_dur(pos, v) : 0;
    return false;
}

static int build_op(struct bctx *b, const cJSON *v, struct scn_op *op)
{
    const struct jpos_table *pos = b->d->pos;
    int kind = sch_enum_index(scn_op_names, member(v, "op")->valuestring);
    const struct sch_obj *t = sch_op(kind);
    struct jpos p;
    op->kind = (enum scn_op_kind)kind;
    if (dup_to(&op->path, jptr_str(&b->ptr)) != GV_OK) return GV_ENOMEM;
    jpos_get(pos, v, &p);
    op->line = p.line;
    switch (op->kind) {
    case OP_COMPUTE:
        if (member(v, "insns")) {
            op->u.compute.has_insns = true;
            op->u.compute.insns = (uint64_t)sch_int(pos, member(v, "insns"));
        } else {
            return build_dist(b, member(v, "dur"), &op->u.compute.dur);
        }
        break;
    case OP_SYSCALL: {
        const cJSON *call = member(v, "call"), *dur = member(v, "dur");
        op->u.syscall.call = (enum scn_syscall_call)sch_enum_index(
            scn_call_names, call ? call->valuestring : sch_find(t, "call")->def);
        if (cJSON_IsString(dur) && !strcmp(dur->valuestring, SCH_DUR_MACHINE)) {
            /* the validator checked that the machine has this call's cost */
            op->u.syscall.dur_machine = true;
            op->u.syscall.dur.kind = DIST_CONST;
            op->u.syscall.dur.a = b->s->machine.syscall_cost[op->u.syscall.call];
        } else if (build_dist(b, dur, &op->u.syscall.dur) != GV_OK) {
            return GV_ENOMEM;
        }
        op->u.syscall.releases_gvl = bool_or_default(v, t, "releases_gvl");
        const cJSON *io = member(v, "io_wait");
        op->u.syscall.io_wait = io ? cJSON_IsTrue(io) : op->u.syscall.call == CALL_NANOSLEEP;
        const cJSON *al = member(v, "allocates");
        op->u.syscall.allocates = al ? (uint64_t)sch_int(pos, al) : 0;
        const struct scn_machine *m = &b->s->machine;
        int c = op->u.syscall.call;
        op->u.syscall.method_work_machine = method_work(pos, member(v, "method_work"), m->method_work_cost[c],
                                                        &op->u.syscall.method_work);
        op->u.syscall.method_work_after_machine = method_work(
            pos, member(v, "method_work_after"), m->method_work_after_cost[c], &op->u.syscall.method_work_after);
        break;
    }
    case OP_QUEUE_PUSH:
    case OP_QUEUE_POP: {
        op->u.queue.queue = queue_index(b, member(v, "queue")->valuestring);
        const cJSON *to = member(v, "timeout");
        op->u.queue.has_timeout = to != NULL;
        op->u.queue.timeout = to ? sch_dur(pos, to) : 0;
        break;
    }
    case OP_SLEEP:
        return build_dist(b, member(v, "dur"), &op->u.sleep.dur);
    case OP_GC:
        return build_dist(b, member(v, "dur"), &op->u.gc.dur);
    case OP_LOOP: {
        const cJSON *x;
        if ((x = member(v, "times"))) {
            op->u.loop.mode = LOOP_TIMES;
            op->u.loop.times = (uint64_t)sch_int(pos, x);
        } else if ((x = member(v, "times_total"))) {
            op->u.loop.mode = LOOP_TIMES_TOTAL;
            op->u.loop.times = (uint64_t)sch_int(pos, x);
        } else {
            op->u.loop.mode = LOOP_FOREVER;
        }
        const cJSON *m = member(v, "measure");
        op->u.loop.measure = m ? cJSON_IsTrue(m) : bool_or_default(v, t, "measure");
        op->u.loop.mid = ref1(&b->measures, m);
        op->u.loop.from_pop = from_pop(v);
        return build_body(b, v, "body", &op->u.loop.body);
    }
    case OP_ENV_ESCAPE:
        op->u.env_escape.iseq = (int)sch_int(pos, member(v, "iseq"));
        break;
    case OP_JOIN: {
        const cJSON *th = member(v, "thread");
        op->u.join.tmpl = th ? 1 + tmpl_index(b, th->valuestring) : 0;
        break;
    }
    case OP_MEASURE:
        op->u.measure.mid = ref1(&b->measures, member(v, "name"));
        op->u.measure.from_pop = from_pop(v);
        return build_body(b, v, "body", &op->u.measure.body);
    case OP_BRANCH:
        op->u.branch.p = member(v, "p")->valuedouble;
        if (build_body(b, v, "then", &op->u.branch.then_body) != GV_OK) return GV_ENOMEM;
        return build_body(b, v, "else", &op->u.branch.else_body);
    case OP_MUTEX_LOCK:
    case OP_MUTEX_UNLOCK:
    case OP_SYNCHRONIZE:
        op->u.mutex.mutex = name_index(&b->mutexes, member(v, "mutex")->valuestring);
        if (op->kind == OP_SYNCHRONIZE) {
            /* the unlock at the end of the body, reported at the synchronize */
            struct scn_op *u = calloc(1, sizeof *u);
            if (!u) return GV_ENOMEM;
            op->u.mutex.unlock = u;
            u->kind = OP_MUTEX_UNLOCK;
            u->line = op->line;
            u->u.mutex.mutex = op->u.mutex.mutex;
            if (dup_to(&u->path, op->path) != GV_OK) return GV_ENOMEM;
            return build_body(b, v, "body", &op->u.mutex.body);
        }
        break;
    case OP_CV_WAIT:
    case OP_CV_SIGNAL:
    case OP_CV_BROADCAST: {
        op->u.cv.cv = name_index(&b->condvars, member(v, "cv")->valuestring);
        const cJSON *mu = member(v, "mutex"), *to = member(v, "timeout");
        op->u.cv.mutex = mu ? name_index(&b->mutexes, mu->valuestring) : -1;
        op->u.cv.has_timeout = to != NULL;
        op->u.cv.timeout = to ? sch_dur(pos, to) : 0;
        op->u.cv.while_empty = ref1(&b->queues, member(v, "while_empty"));
        const cJSON *ot = member(v, "on_timeout");
        op->u.cv.raise = ot && !strcmp(ot->valuestring, "raise");
        break;
    }
    case OP_SPAWN:
        op->u.spawn.tmpl = tmpl_index(b, member(v, "thread")->valuestring);
        break;
    case OP_ALLOC: {
        op->u.alloc.objects = (uint64_t)sch_int(pos, member(v, "objects"));
        const cJSON *sv = member(v, "survive");
        op->u.alloc.survive = sv ? sv->valuedouble : 0.0;
        break;
    }
    case OP_KIND_COUNT:
    case OP_ARRIVE:
        break;
    }
    return GV_OK;
}

static int build_prog(struct bctx *b, const cJSON *arr, struct scn_prog *p)
{
    int n = cJSON_GetArraySize(arr);
    p->ops = NULL;
    p->nops = 0;
    if (n == 0) return GV_OK;
    p->ops = calloc((size_t)n, sizeof *p->ops);
    if (!p->ops) return GV_ENOMEM;
    p->nops = n;  /* zeroed ops: scenario_free copes with a partial build */
    int i = 0;
    for (const cJSON *v = arr->child; v; v = v->next, i++) {
        size_t mark = jptr_push_index(&b->ptr, (size_t)i);
        int rc = build_op(b, v, &p->ops[i]);
        jptr_pop(&b->ptr, mark);
        if (rc != GV_OK || b->ptr.oom) return GV_ENOMEM;
    }
    return GV_OK;
}

static int build_threads(struct bctx *b, int ri, const cJSON *arr, struct scn_ractor *r)
{
    int n = cJSON_GetArraySize(arr);
    r->threads = calloc((size_t)n, sizeof *r->threads);
    if (!r->threads) return GV_ENOMEM;
    r->nthreads = n;
    int j = 0;
    for (const cJSON *t = arr->child; t; t = t->next, j++) {
        struct scn_thread *th = &r->threads[j];
        const cJSON *nm = member(t, "name");
        char def[32];
        snprintf(def, sizeof def, ri == 0 && j == 0 ? "main" : "t%d", j);
        if (dup_to(&th->name, nm ? nm->valuestring : def) != GV_OK) return GV_ENOMEM;
        th->count = (int)int_or_default(b, t, &sch_thread, "count");
        const cJSON *st = member(t, "start");
        th->start = st ? sch_dur(b->d->pos, st) : 0;
        th->spawned = bool_or_default(t, &sch_thread, "spawned");
    }
    return GV_OK;
}

/* The programs, once every template is known (join and spawn name them). */
static int build_programs(struct bctx *b, const cJSON *arr)
{
    int i = 0;
    for (const cJSON *r = arr->child; r; r = r->next, i++) {
        int j = 0;
        for (const cJSON *t = member(r, "threads")->child; t; t = t->next, j++) {
            const cJSON *prog = member(t, "program");
            if (!prog) continue;
            size_t m1 = jptr_push_key(&b->ptr, "ractors");
            size_t m2 = jptr_push_index(&b->ptr, (size_t)i);
            size_t m3 = jptr_push_key(&b->ptr, "threads");
            size_t m4 = jptr_push_index(&b->ptr, (size_t)j);
            size_t m5 = jptr_push_key(&b->ptr, "program");
            int rc = build_prog(b, prog, &b->s->ractors[i].threads[j].prog);
            jptr_pop(&b->ptr, m5);
            jptr_pop(&b->ptr, m4);
            jptr_pop(&b->ptr, m3);
            jptr_pop(&b->ptr, m2);
            jptr_pop(&b->ptr, m1);
            if (rc != GV_OK) return rc;
        }
    }
    return GV_OK;
}

static int build_ractors(struct bctx *b, const cJSON *arr)
{
    struct scenario *s = b->s;
    int n = cJSON_GetArraySize(arr);
    s->ractors = calloc((size_t)n, sizeof *s->ractors);
    if (!s->ractors) return GV_ENOMEM;
    s->nractors = n;
    int i = 0;
    for (const cJSON *r = arr->child; r; r = r->next, i++) {
        struct scn_ractor *ra = &s->ractors[i];
        const cJSON *nm = member(r, "name");
        char def[32];
        snprintf(def, sizeof def, i == 0 ? "main" : "r%d", i);
        if (dup_to(&ra->name, nm ? nm->valuestring : def) != GV_OK) return GV_ENOMEM;
        ra->count = (int)int_or_default(b, r, &sch_ractor, "count");
        int rc = build_threads(b, i, member(r, "threads"), ra);
        if (rc != GV_OK) return rc;
        int per = 0;
        for (int j = 0; j < ra->nthreads; j++) per += ra->threads[j].count;
        s->total_ractors += ra->count;
        s->total_threads += ra->count * per;  /* validated: <= 1e6 */
        s->ntmpls += ra->nthreads;
    }
    s->tmpls = calloc((size_t)s->ntmpls, sizeof *s->tmpls);
    if (!s->tmpls) return GV_ENOMEM;
    int k = 0;
    for (i = 0; i < n; i++)
        for (int j = 0; j < s->ractors[i].nthreads; j++) s->tmpls[k++] = (struct scn_tmpl){ i, &s->ractors[i].threads[j] };
    return build_programs(b, arr);
}

static int qent_cmp(const void *a, const void *b)
{
    return strcmp(((const struct qent *)a)->name, ((const struct qent *)b)->name);
}

/* The name index of n objects whose names are at names[i * stride]. */
static int index_names(struct nameidx *t, const void *names, int n, size_t stride)
{
    if (n == 0) return GV_OK;
    t->v = malloc((size_t)n * sizeof *t->v);
    if (!t->v) return GV_ENOMEM;
    t->n = n;
    for (int i = 0; i < n; i++)
        t->v[i] = (struct qent){ *(char *const *)((const char *)names + (size_t)i * stride), i };
    qsort(t->v, (size_t)n, sizeof *t->v, qent_cmp);
    return GV_OK;
}

static int build_queues(struct bctx *b, const cJSON *arr)
{
    struct scenario *s = b->s;
    int n = cJSON_GetArraySize(arr);
    if (n == 0) return GV_OK;
    s->queues = calloc((size_t)n, sizeof *s->queues);
    if (!s->queues) return GV_ENOMEM;
    s->nqueues = n;
    int i = 0;
    for (const cJSON *q = arr->child; q; q = q->next, i++) {
        if (dup_to(&s->queues[i].name, member(q, "name")->valuestring) != GV_OK) return GV_ENOMEM;
        s->queues[i].initial = int_or_default(b, q, &sch_queue, "initial");
    }
    return index_names(&b->queues, s->queues, n, sizeof *s->queues);
}

/* "mutexes", "condvars", "measures". */
static int build_named(const cJSON *arr, struct scn_named **out, int *nout, struct nameidx *idx)
{
    int n = cJSON_GetArraySize(arr);
    if (n == 0) return GV_OK;
    *out = calloc((size_t)n, sizeof **out);
    if (!*out) return GV_ENOMEM;
    *nout = n;
    int i = 0;
    for (const cJSON *q = arr->child; q; q = q->next, i++)
        if (dup_to(&(*out)[i].name, member(q, "name")->valuestring) != GV_OK) return GV_ENOMEM;
    return index_names(idx, *out, n, sizeof **out);
}

/* A generator's program: a loop of arrivals, `count` times or forever. */
static int build_generators(struct bctx *b, const cJSON *arr)
{
    struct scenario *s = b->s;
    int n = cJSON_GetArraySize(arr);
    if (n == 0) return GV_OK;
    s->generators = calloc((size_t)n, sizeof *s->generators);
    if (!s->generators) return GV_ENOMEM;
    s->ngenerators = n;
    int i = 0;
    for (const cJSON *g = arr->child; g; g = g->next, i++) {
        struct scn_generator *gen = &s->generators[i];
        const cJSON *nm = member(g, "name"), *rate = member(g, "rate"), *iv = member(g, "interval");
        const cJSON *st = member(g, "start"), *cnt = member(g, "count"), *pr = member(g, "process");
        char def[32];
        snprintf(def, sizeof def, "gen%d", i);
        if (dup_to(&gen->name, nm ? nm->valuestring : def) != GV_OK) return GV_ENOMEM;
        gen->queue = queue_index(b, member(g, "queue")->valuestring);
        gen->process = (enum scn_process)sch_enum_index(scn_process_names, pr ? pr->valuestring : "poisson");
        if (iv) {
            gen->interval = sch_dur(b->d->pos, iv);
        } else {
            double ps = (double)SIM_S / rate->valuedouble;
            gen->interval = ps < 1 ? 1 : (sim_time)llround(ps);
        }
        gen->start = st ? sch_dur(b->d->pos, st) : 0;
        gen->count = cnt ? (uint64_t)sch_int(b->d->pos, cnt) : 0;
        /* [ loop (count | forever) [ arrive ] ] */
        char path[64];
        snprintf(path, sizeof path, "/generators/%d", i);
        struct jpos p;
        jpos_get(b->d->pos, g, &p);
        gen->prog.ops = calloc(1, sizeof *gen->prog.ops);
        if (!gen->prog.ops) return GV_ENOMEM;
        gen->prog.nops = 1;
        struct scn_op *loop = &gen->prog.ops[0];
        loop->kind = OP_LOOP;
        loop->line = p.line;
        if (dup_to(&loop->path, path) != GV_OK) return GV_ENOMEM;
        loop->u.loop.mode = gen->count ? LOOP_TIMES : LOOP_FOREVER;
        loop->u.loop.times = gen->count;
        loop->u.loop.body = calloc(1, sizeof *loop->u.loop.body);
        if (!loop->u.loop.body) return GV_ENOMEM;
        struct scn_prog *body = loop->u.loop.body;
        body->ops = calloc(1, sizeof *body->ops);
        if (!body->ops) return GV_ENOMEM;
        body->nops = 1;
        body->ops[0].kind = OP_ARRIVE;
        body->ops[0].line = p.line;
        body->ops[0].u.arrive.gen = i;
        if (dup_to(&body->ops[0].path, path) != GV_OK) return GV_ENOMEM;
    }
    return GV_OK;
}

/* machine.syscall_cost: each call's machine.syscalls key (the scenario's,
 * else its profile's), SCN_DUR_UNSET where neither gives one. */
static void build_syscall_costs(const struct bctx *b)
{
    struct scn_machine *m = &b->s->machine;
    for (int c = 0; c < CALL_COUNT; c++) {
        const cJSON *v = sch_find(&sch_syscalls, scn_call_names[c]) ? sch_machine_syscall(b->d, scn_call_names[c])
                                                                     : NULL;
        m->syscall_cost[c] = v ? sch_dur(b->d->pos, v) : SCN_DUR_UNSET;
        const cJSON *w = sch_machine_call_key(b->d, &sch_method_work, scn_call_names[c]);
        m->method_work_cost[c] = w ? sch_dur(b->d->pos, w) : SCN_DUR_UNSET;
        w = sch_machine_call_key(b->d, &sch_method_work_after, scn_call_names[c]);
        m->method_work_after_cost[c] = w ? sch_dur(b->d->pos, w) : SCN_DUR_UNSET;
        w = sch_machine_call_key(b->d, &sch_method_after_idle, scn_call_names[c]);
        m->method_after_idle_cost[c] = w ? sch_dur(b->d->pos, w) : 0;
    }
}

/* machine.speed_levels (the validator checked that speed_dwell has as
 * many); speed_dwell.n stays 0 without them. */
static void build_speed_levels(const struct bctx *b)
{
    struct scn_machine *m = &b->s->machine;
    const cJSON *f = sch_machine_member(b->d, "speed_levels");
    int n = 0;
    for (const cJSON *e = f ? f->child : NULL; e && n < SCN_SPEED_LEVELS; e = e->next) m->speed_levels[n++] = e->valuedouble;
    if (n != m->speed_dwell.n) m->speed_dwell.n = 0;
}

static int default_name(const char *file, char **out)
{
    const char *base = strrchr(file, '/');
    base = base ? base + 1 : file;
    size_t n = strlen(base);
    if (n > 5 && !strcmp(base + n - 5, ".json")) n -= 5;
    *out = strndup(base, n);
    return *out ? GV_OK : GV_ENOMEM;
}

static int build_all(struct bctx *b, const char *file, const char *profile_name)
{
    const cJSON *root = b->d->root;
    struct scenario *s = b->s;
    const cJSON *v;
    if (dup_to(&s->file, file) != GV_OK) return GV_ENOMEM;
    if ((v = member(root, "name")) ? dup_to(&s->name, v->valuestring) : default_name(file, &s->name))
        return GV_ENOMEM;
    v = member(root, "description");
    if (dup_to(&s->description, v ? v->valuestring : "") != GV_OK) return GV_ENOMEM;
    s->seed = (uint64_t)int_or_default(b, root, &sch_scenario, "seed");

    const cJSON *m = member(root, "machine");
    if (fill_struct(b, &sch_machine, cJSON_IsObject(m) ? m : NULL, b->d->profile, &s->machine) != GV_OK)
        return GV_ENOMEM;
    build_syscall_costs(b);
    build_speed_levels(b);
    if (!s->machine.name &&
        dup_to(&s->machine.name, profile_name ? profile_name : "default") != GV_OK)
        return GV_ENOMEM;
    if (build_runtime(b, member(root, "runtime")) != GV_OK) return GV_ENOMEM;

    if ((v = member(root, "queues")) && build_queues(b, v) != GV_OK) return GV_ENOMEM;
    if ((v = member(root, "mutexes")) && build_named(v, &s->mutexes, &s->nmutexes, &b->mutexes) != GV_OK)
        return GV_ENOMEM;
    if ((v = member(root, "condvars")) && build_named(v, &s->condvars, &s->ncondvars, &b->condvars) != GV_OK)
        return GV_ENOMEM;
    if ((v = member(root, "measures")) && build_named(v, &s->measures, &s->nmeasures, &b->measures) != GV_OK)
        return GV_ENOMEM;
    if ((v = member(root, "generators")) && build_generators(b, v) != GV_OK) return GV_ENOMEM;
    if (build_ractors(b, member(root, "ractors")) != GV_OK) return GV_ENOMEM;
    const cJSON *stop = member(root, "stop");
    s->stop_time = stop ? sch_dur(b->d->pos, member(stop, "time")) : 0;
    s->warmup = (v = member(root, "warmup")) ? sch_dur(b->d->pos, v) : 0;
    return b->ptr.oom ? GV_ENOMEM : GV_OK;
}

int bld_scenario(const struct sch_doc *d, const char *file, const char *profile_name,
                 struct scenario *out)
{
    struct bctx b = { .d = d, .s = out };
    memset(out, 0, sizeof *out);
    jptr_init(&b.ptr);
    int rc = build_all(&b, file, profile_name);
    jptr_free(&b.ptr);
    free(b.queues.v);
    free(b.mutexes.v);
    free(b.condvars.v);
    free(b.measures.v);
    if (rc != GV_OK) scenario_free(out);
    return rc;
}
