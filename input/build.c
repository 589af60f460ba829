/* build.c - fill struct scenario from a tree that passed validation. */
#include "build.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/err.h"
#include "jptr.h"
#include "ruby_version.h"

struct qent { const char *name; int index; };

struct bctx {
    const struct sch_doc *d;
    struct scenario *s;
    struct jptr ptr;
    struct qent *qorder;   /* queues sorted by name, for name -> index */
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
            sim_time x = v ? sch_dur(b->d->pos, v) : sch_default_dur(k);
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

static void build_dist(const struct bctx *b, const cJSON *v, struct scn_dist *out)
{
    memset(out, 0, sizeof *out);
    if (!cJSON_IsObject(v)) {
        out->kind = DIST_CONST;
        out->a = sch_dur(b->d->pos, v);
        return;
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
    }
}

static int queue_index(const struct bctx *b, const char *name)
{
    int lo = 0, hi = b->s->nqueues;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        int r = strcmp(b->qorder[mid].name, name);
        if (r == 0) return b->qorder[mid].index;
        if (r < 0) lo = mid + 1;
        else hi = mid;
    }
    return -1;  /* not reached: the validator checked every queue name */
}

static int build_prog(struct bctx *b, const cJSON *arr, struct scn_prog *p);

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
            build_dist(b, member(v, "dur"), &op->u.compute.dur);
        }
        break;
    case OP_SYSCALL: {
        const cJSON *call = member(v, "call");
        build_dist(b, member(v, "dur"), &op->u.syscall.dur);
        op->u.syscall.call = (enum scn_syscall_call)sch_enum_index(
            scn_call_names, call ? call->valuestring : sch_find(t, "call")->def);
        op->u.syscall.releases_gvl = bool_or_default(v, t, "releases_gvl");
        const cJSON *io = member(v, "io_wait");
        op->u.syscall.io_wait = io ? cJSON_IsTrue(io) : op->u.syscall.call == CALL_NANOSLEEP;
        break;
    }
    case OP_QUEUE_PUSH:
    case OP_QUEUE_POP:
        op->u.queue.queue = queue_index(b, member(v, "queue")->valuestring);
        break;
    case OP_SLEEP:
        build_dist(b, member(v, "dur"), &op->u.sleep.dur);
        break;
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
        op->u.loop.measure = bool_or_default(v, t, "measure");
        op->u.loop.body = calloc(1, sizeof *op->u.loop.body);
        if (!op->u.loop.body) return GV_ENOMEM;
        size_t mark = jptr_push_key(&b->ptr, "body");
        int rc = build_prog(b, member(v, "body"), op->u.loop.body);
        jptr_pop(&b->ptr, mark);
        return rc;
    }
    case OP_ENV_ESCAPE:
        op->u.env_escape.iseq = (int)sch_int(pos, member(v, "iseq"));
        break;
    case OP_JOIN:
    case OP_KIND_COUNT:
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
        const cJSON *prog = member(t, "program");
        if (prog) {
            size_t m1 = jptr_push_index(&b->ptr, (size_t)j);
            size_t m2 = jptr_push_key(&b->ptr, "program");
            int rc = build_prog(b, prog, &th->prog);
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
        size_t m1 = jptr_push_key(&b->ptr, "ractors");
        size_t m2 = jptr_push_index(&b->ptr, (size_t)i);
        size_t m3 = jptr_push_key(&b->ptr, "threads");
        int rc = build_threads(b, i, member(r, "threads"), ra);
        jptr_pop(&b->ptr, m3);
        jptr_pop(&b->ptr, m2);
        jptr_pop(&b->ptr, m1);
        if (rc != GV_OK) return rc;
        int per = 0;
        for (int j = 0; j < ra->nthreads; j++) per += ra->threads[j].count;
        s->total_ractors += ra->count;
        s->total_threads += ra->count * per;  /* validated: <= 1e6 */
    }
    return GV_OK;
}

static int qent_cmp(const void *a, const void *b)
{
    return strcmp(((const struct qent *)a)->name, ((const struct qent *)b)->name);
}

static int build_queues(struct bctx *b, const cJSON *arr)
{
    struct scenario *s = b->s;
    int n = cJSON_GetArraySize(arr);
    if (n == 0) return GV_OK;
    s->queues = calloc((size_t)n, sizeof *s->queues);
    b->qorder = malloc((size_t)n * sizeof *b->qorder);
    if (!s->queues || !b->qorder) return GV_ENOMEM;
    s->nqueues = n;
    int i = 0;
    for (const cJSON *q = arr->child; q; q = q->next, i++) {
        if (dup_to(&s->queues[i].name, member(q, "name")->valuestring) != GV_OK) return GV_ENOMEM;
        s->queues[i].initial = int_or_default(b, q, &sch_queue, "initial");
        b->qorder[i] = (struct qent){ s->queues[i].name, i };
    }
    qsort(b->qorder, (size_t)n, sizeof *b->qorder, qent_cmp);
    return GV_OK;
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
    if (!s->machine.name &&
        dup_to(&s->machine.name, profile_name ? profile_name : "default") != GV_OK)
        return GV_ENOMEM;
    if (build_runtime(b, member(root, "runtime")) != GV_OK) return GV_ENOMEM;

    if ((v = member(root, "queues")) && build_queues(b, v) != GV_OK) return GV_ENOMEM;
    if (build_ractors(b, member(root, "ractors")) != GV_OK) return GV_ENOMEM;
    const cJSON *stop = member(root, "stop");
    s->stop_time = stop ? sch_dur(b->d->pos, member(stop, "time")) : 0;
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
    free(b.qorder);
    if (rc != GV_OK) scenario_free(out);
    return rc;
}
