/* csv.c - the CSV schema shared by `run`, `exec` and later commands.
 *
 * Times are printed from integer picoseconds as seconds with nine decimals
 * (rounded to the nanosecond), so a simulated row is byte-identical from
 * run to run; rates are printed with three decimals. */
#include "csv.h"

#include <inttypes.h>
#include <string.h>

#include "../common/afile.h"
#include "../common/err.h"

void csv_format_seconds(char *buf, size_t len, sim_time t)
{
    int neg = t < 0;
    uint64_t ps = neg ? (uint64_t)(-t) : (uint64_t)t;
    uint64_t ns = (ps + 500) / 1000;
    snprintf(buf, len, "%s%" PRIu64 ".%09" PRIu64, neg ? "-" : "", ns / 1000000000u,
             ns % 1000000000u);
}

void csv_put_field(FILE *f, const char *s)
{
    if (!s) s = "";
    if (strpbrk(s, ",\"\n\r")) {
        fputc('"', f);
        for (; *s; s++) {
            if (*s == '"') fputc('"', f);
            fputc(*s, f);
        }
        fputc('"', f);
    } else {
        fputs(s, f);
    }
}

static void put_time(FILE *f, sim_time t)
{
    char buf[48];
    csv_format_seconds(buf, sizeof buf, t);
    fputs(buf, f);
}

static double rate(uint64_t n, sim_time wall)
{
    return wall > 0 ? (double)n * (double)SIM_S / (double)wall : 0.0;
}

void csv_write_header(FILE *f)
{
    fputs("scenario,backend,engine,policy,invariant_check,insn_counter,cores,ractors,threads,seed,"
          "wall_s,cpu_s", f);
    for (int s = 0; s < TS_COUNT; s++) fprintf(f, ",%s_s", thread_state_name((enum thread_state)s));
    fputs(",vol_switches,invol_switches,main_vol_switches,gvl_handoffs,wakeups,wasted_wakes,"
          "timer_ticks,syscalls,ops,ops_per_s,ractor_ops_per_s,barriers,vmlock_acquires,"
          "vmlock_waits,line_transfers,native_threads,engine_events,host_s\n", f);
}

/* ",value" for a count, or "," alone when the backend did not measure it. */
static void put_count(FILE *f, const struct run_metrics *m, enum metric_id id, uint64_t v)
{
    fputc(',', f);
    if (metrics_measured(m, id)) fprintf(f, "%" PRIu64, v);
}

static void put_seconds(FILE *f, const struct run_metrics *m, enum metric_id id, sim_time t)
{
    fputc(',', f);
    if (metrics_measured(m, id)) put_time(f, t);
}

void csv_write_row(FILE *f, const struct run_metrics *m, bool reproducible)
{
    csv_put_field(f, m->scenario);
    fputc(',', f);
    csv_put_field(f, m->backend);
    fputc(',', f);
    csv_put_field(f, m->engine);
    fputc(',', f);
    csv_put_field(f, m->policy);
    fputc(',', f);
    csv_put_field(f, m->invariant_check);
    fputc(',', f);
    csv_put_field(f, m->insn_counter);
    fprintf(f, ",%d,%d,%d,%" PRIu64, m->cores, m->ractors, m->threads, m->seed);
    put_seconds(f, m, MET_WALL, m->wall);
    put_seconds(f, m, MET_CPU, m->cpu);
    for (int s = 0; s < TS_COUNT; s++)
        put_seconds(f, m, (enum metric_id)(MET_STATE_TIME + s), m->state_time[s]);
    put_count(f, m, MET_VOL_SWITCHES, m->vol_switches);
    put_count(f, m, MET_INVOL_SWITCHES, m->invol_switches);
    put_count(f, m, MET_MAIN_VOL_SWITCHES, m->main_vol_switches);
    put_count(f, m, MET_GVL_HANDOFFS, m->gvl_handoffs);
    put_count(f, m, MET_WAKEUPS, m->wakeups);
    put_count(f, m, MET_WASTED_WAKES, m->wasted_wakes);
    put_count(f, m, MET_TIMER_TICKS, m->timer_ticks);
    put_count(f, m, MET_SYSCALLS, m->syscalls);
    put_count(f, m, MET_OPS, m->ops);
    fputc(',', f);
    bool timed = metrics_measured(m, MET_WALL);
    if (timed && metrics_measured(m, MET_OPS)) fprintf(f, "%.3f", rate(m->ops, m->wall));
    fputc(',', f);
    if (timed && metrics_measured(m, MET_RACTOR_OPS))
        for (int r = 0; r < m->nractor_ops; r++)
            fprintf(f, "%s%.3f", r ? ";" : "", rate(m->ractor_ops[r], m->wall));
    put_count(f, m, MET_BARRIERS, m->barriers);
    put_count(f, m, MET_VMLOCK_ACQUIRES, m->vmlock_acquires);
    put_count(f, m, MET_VMLOCK_WAITS, m->vmlock_waits);
    put_count(f, m, MET_LINE_TRANSFERS, m->line_transfers);
    put_count(f, m, MET_NATIVE_THREADS, m->native_threads);
    put_count(f, m, MET_ENGINE_EVENTS, m->engine_events);
    fputc(',', f);
    if (!reproducible) fprintf(f, "%.6f", m->host_seconds);
    fputc('\n', f);
}

int csv_write_file(const char *path, const struct run_metrics *m, bool header,
                   bool reproducible, char *err, size_t errlen)
{
    struct afile out;
    int rc = afile_open(&out, path, err, errlen);
    if (rc != GV_OK) return rc;
    if (header) csv_write_header(out.f);
    csv_write_row(out.f, m, reproducible);
    return afile_commit(&out, err, errlen);
}
