/* csv.c - the columns of a result row, shared by `run`, `exec`, `sweep`
 * and later commands.
 *
 * Times are printed from integer picoseconds as seconds with nine decimals
 * (rounded to the nanosecond), so a simulated row is byte-identical from
 * run to run; rates are printed with three decimals. */
#include "csv.h"

#include <inttypes.h>
#include <string.h>

#include "../common/afile.h"
#include "../common/err.h"

void csv_format_seconds(char *buf, size_t len, sim_sum t)
{
    int neg = t < 0;
    unsigned __int128 ps = neg ? -(unsigned __int128)t : (unsigned __int128)t;
    unsigned __int128 ns = (ps + 500) / 1000, s = ns / 1000000000u;
    char digits[48], *d = digits + sizeof digits;  /* the seconds may exceed 64 bits */
    *--d = '\0';
    do {
        *--d = (char)('0' + (int)(s % 10));
        s /= 10;
    } while (s);
    snprintf(buf, len, "%s%s.%09u", neg ? "-" : "", d, (unsigned)(ns % 1000000000u));
}

static double rate(uint64_t n, sim_time wall)
{
    return wall > 0 ? (double)n * (double)SIM_S / (double)wall : 0.0;
}

static void put_time(struct row *r, sim_sum t)
{
    char buf[48];
    csv_format_seconds(buf, sizeof buf, t);
    row_cell(r, ROW_NUM);
    row_printf(r, "%s", buf);
}

static void put_u64(struct row *r, uint64_t v)
{
    row_cell(r, ROW_NUM);
    row_printf(r, "%" PRIu64, v);
}

static const char *const first_columns[] = {
    "scenario", "backend", "engine", "policy", "invariant_check", "insn_counter", "cores",
    "ractors", "threads", "seed", "work_scale", "wall_s", "cpu_s",
};
static const char *const last_columns[] = {
    "vol_switches", "invol_switches", "main_vol_switches", "gvl_handoffs", "wakeups",
    "wasted_wakes", "timer_ticks", "syscalls", "ops", "ops_per_s", "ractor_ops_per_s",
    "barriers", "vmlock_acquires", "vmlock_waits", "line_transfers", "native_threads",
    "gc_count", "gc_clock_s", "mutex_waits", "timeouts", "engine_events", "host_s",
};
/* After the fixed columns, per named measure, in declaration order: */
static const char *const measure_columns[] = { "count", "per_s", "mean_s", "p50_s", "p90_s", "p99_s", "max_s" };

void csv_columns(struct row *cols)
{
    for (size_t i = 0; i < sizeof first_columns / sizeof *first_columns; i++)
        row_text(cols, first_columns[i]);
    for (int s = 0; s < TS_COUNT; s++) {
        row_cell(cols, ROW_TEXT);
        row_printf(cols, "%s_s", thread_state_name((enum thread_state)s));
    }
    for (size_t i = 0; i < sizeof last_columns / sizeof *last_columns; i++)
        row_text(cols, last_columns[i]);
}

void csv_measure_columns(struct row *cols, const char *name)
{
    for (size_t i = 0; i < sizeof measure_columns / sizeof *measure_columns; i++) {
        row_cell(cols, ROW_TEXT);
        row_printf(cols, "%s_%s", name, measure_columns[i]);
    }
}

int csv_column_kind(const char *name)
{
    for (size_t i = 0; i < sizeof first_columns / sizeof *first_columns; i++)
        if (strcmp(name, first_columns[i]) == 0) return i < 6 ? ROW_TEXT : ROW_NUM;
    if (strcmp(name, "ractor_ops_per_s") == 0) return ROW_LIST;
    for (size_t i = 0; i < sizeof last_columns / sizeof *last_columns; i++)
        if (strcmp(name, last_columns[i]) == 0) return ROW_NUM;
    for (int s = 0; s < TS_COUNT; s++) {
        const char *st = thread_state_name((enum thread_state)s);
        size_t n = strlen(st);
        if (strncmp(name, st, n) == 0 && strcmp(name + n, "_s") == 0) return ROW_NUM;
    }
    /* a named measure's: NAME_ + one of measure_columns, NAME not empty */
    size_t n = strlen(name);
    for (size_t i = 0; i < sizeof measure_columns / sizeof *measure_columns; i++) {
        size_t k = strlen(measure_columns[i]);
        if (n > k + 1 && name[n - k - 1] == '_' && strcmp(name + n - k, measure_columns[i]) == 0) return ROW_NUM;
    }
    return -1;
}

/* The rates' window: from the warm-up's end to the end of the run. */
static sim_time window(const struct run_metrics *m)
{
    return m->wall > m->warmup ? m->wall - m->warmup : 0;
}

/* Measured counts or times, or a null cell (empty in CSV, null in JSON)
 * for each that the backend cannot observe. */
struct metric_count {
    enum metric_id id;
    uint64_t v;
};

static void put_counts(struct row *r, const struct run_metrics *m, const struct metric_count *c, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (metrics_measured(m, c[i].id)) put_u64(r, c[i].v);
        else row_null(r);
    }
}

static void put_seconds(struct row *r, const struct run_metrics *m, enum metric_id id, sim_sum t)
{
    if (metrics_measured(m, id)) put_time(r, t);
    else row_null(r);
}

void csv_row(struct row *r, const struct run_metrics *m, bool reproducible)
{
    row_text(r, m->scenario);
    row_text(r, m->backend);
    row_text(r, m->engine);
    row_text(r, m->policy);
    row_text(r, m->invariant_check);
    row_text(r, m->insn_counter);
    put_u64(r, (uint64_t)m->cores);
    put_u64(r, (uint64_t)m->ractors);
    put_u64(r, (uint64_t)m->threads);
    put_u64(r, m->seed);
    row_cell(r, ROW_NUM);
    row_printf(r, "%.6g", m->work_scale);
    put_seconds(r, m, MET_WALL, m->wall);
    put_seconds(r, m, MET_CPU, m->cpu);
    for (int s = 0; s < TS_COUNT; s++)
        put_seconds(r, m, (enum metric_id)(MET_STATE_TIME + s), m->state_time[s]);
    const struct metric_count counts[] = {
        { MET_VOL_SWITCHES, m->vol_switches }, { MET_INVOL_SWITCHES, m->invol_switches },
        { MET_MAIN_VOL_SWITCHES, m->main_vol_switches }, { MET_GVL_HANDOFFS, m->gvl_handoffs },
        { MET_WAKEUPS, m->wakeups }, { MET_WASTED_WAKES, m->wasted_wakes },
        { MET_TIMER_TICKS, m->timer_ticks }, { MET_SYSCALLS, m->syscalls }, { MET_OPS, m->ops },
    };
    put_counts(r, m, counts, sizeof counts / sizeof *counts);
    bool timed = metrics_measured(m, MET_WALL);
    if (timed && metrics_measured(m, MET_OPS)) {
        row_cell(r, ROW_NUM);
        row_printf(r, "%.3f", rate(m->ops, window(m)));
    } else {
        row_null(r);
    }
    if (timed && metrics_measured(m, MET_RACTOR_OPS)) {
        row_cell(r, ROW_LIST);
        for (int k = 0; k < m->nractor_ops; k++)
            row_printf(r, "%s%.3f", k ? ";" : "", rate(m->ractor_ops[k], window(m)));
    } else {
        row_null(r);
    }
    const struct metric_count more[] = {
        { MET_BARRIERS, m->barriers }, { MET_VMLOCK_ACQUIRES, m->vmlock_acquires },
        { MET_VMLOCK_WAITS, m->vmlock_waits }, { MET_LINE_TRANSFERS, m->line_transfers },
        { MET_NATIVE_THREADS, m->native_threads }, { MET_GC_COUNT, m->gc_count },
    };
    put_counts(r, m, more, sizeof more / sizeof *more);
    put_seconds(r, m, MET_GC_CLOCK, m->gc_clock);
    const struct metric_count last[] = {
        { MET_MUTEX_WAITS, m->mutex_waits }, { MET_TIMEOUTS, m->timeouts },
        { MET_ENGINE_EVENTS, m->engine_events },
    };
    put_counts(r, m, last, sizeof last / sizeof *last);
    if (reproducible) {
        row_null(r);
    } else {
        row_cell(r, ROW_NUM);
        row_printf(r, "%.6f", m->host_seconds);
    }
    bool measured = metrics_measured(m, MET_MEASURES);
    for (int k = 0; k < m->nmeasures; k++) {
        const struct run_measure *x = &m->measures[k];
        if (measured) put_u64(r, x->count);
        else row_null(r);
        if (measured && timed) {
            row_cell(r, ROW_NUM);
            row_printf(r, "%.3f", rate(x->count, window(m)));
        } else {
            row_null(r);
        }
        const sim_time v[] = { x->mean, x->p50, x->p90, x->p99, x->max };
        for (size_t i = 0; i < sizeof v / sizeof *v; i++) {
            if (measured && x->count) put_time(r, v[i]);
            else row_null(r);  /* no sample: no latency */
        }
    }
}

void csv_columns_of(struct row *cols, const struct run_metrics *m)
{
    csv_columns(cols);
    for (int k = 0; k < m->nmeasures; k++) csv_measure_columns(cols, m->measures[k].name);
}

void csv_put_field(FILE *f, const char *s)
{
    struct row r;
    row_init(&r);
    row_text(&r, s ? s : "");
    if (!r.oom) rows_encode(f, ROWS_CSV, NULL, &r);
    row_free(&r);
}

void csv_write_header(FILE *f, const struct run_metrics *m)
{
    struct row cols;
    row_init(&cols);
    csv_columns_of(&cols, m);
    struct rows_writer w;
    if (!cols.oom) rows_begin(&w, f, ROWS_CSV, &cols, true);
    row_free(&cols);
}

void csv_write_row(FILE *f, const struct run_metrics *m, bool reproducible)
{
    struct row r;
    row_init(&r);
    csv_row(&r, m, reproducible);
    struct rows_writer w;
    rows_begin(&w, f, ROWS_CSV, NULL, false);
    if (!r.oom) rows_put(&w, &r);
    row_free(&r);
}

int csv_prepare_result(struct afile *out, const char *path, enum rows_format fmt,
                       const struct run_metrics *m, bool header, bool reproducible, char *err,
                       size_t errlen)
{
    struct row cols, r;
    row_init(&cols);
    row_init(&r);
    csv_columns_of(&cols, m);
    csv_row(&r, m, reproducible);
    int rc = GV_OK;
    if (cols.oom || r.oom) {
        rc = gv_fail(err, errlen, GV_ENOMEM, "out of memory");
    } else {
        rc = afile_open(out, path, err, errlen);
        if (rc == GV_OK) {
            struct rows_writer w;
            rows_begin(&w, out->f, fmt, &cols, header);
            rows_put(&w, &r);
            rows_end(&w);
            rc = afile_prepare(out, err, errlen);
        }
    }
    row_free(&cols);
    row_free(&r);
    return rc;
}

int csv_write_result(const char *path, enum rows_format fmt, const struct run_metrics *m,
                     bool header, bool reproducible, char *err, size_t errlen)
{
    struct afile out;
    int rc = csv_prepare_result(&out, path, fmt, m, header, reproducible, err, errlen);
    return rc == GV_OK ? afile_commit(&out, err, errlen) : rc;
}

int csv_write_file(const char *path, const struct run_metrics *m, bool header,
                   bool reproducible, char *err, size_t errlen)
{
    return csv_write_result(path, ROWS_CSV, m, header, reproducible, err, errlen);
}
