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
    fprintf(f, ",%d,%d,%d,%" PRIu64 ",", m->cores, m->ractors, m->threads, m->seed);
    put_time(f, m->wall);
    fputc(',', f);
    put_time(f, m->cpu);
    for (int s = 0; s < TS_COUNT; s++) {
        fputc(',', f);
        put_time(f, m->state_time[s]);
    }
    fprintf(f, ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64
               ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%.3f,",
            m->vol_switches, m->invol_switches, m->main_vol_switches, m->gvl_handoffs,
            m->wakeups, m->wasted_wakes, m->timer_ticks, m->syscalls, m->ops,
            rate(m->ops, m->wall));
    for (int r = 0; r < m->nractor_ops; r++)
        fprintf(f, "%s%.3f", r ? ";" : "", rate(m->ractor_ops[r], m->wall));
    fprintf(f, ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",",
            m->barriers, m->vmlock_acquires, m->vmlock_waits, m->line_transfers,
            m->native_threads, m->engine_events);
    if (!reproducible) fprintf(f, "%.6f", m->host_seconds);
    fputc('\n', f);
}

int csv_prepare_file(struct afile *out, const char *path, const struct run_metrics *m, bool header,
                     bool reproducible, char *err, size_t errlen)
{
    int rc = afile_open(out, path, err, errlen);
    if (rc != GV_OK) return rc;
    if (header) csv_write_header(out->f);
    csv_write_row(out->f, m, reproducible);
    return afile_prepare(out, err, errlen);
}

int csv_write_file(const char *path, const struct run_metrics *m, bool header,
                   bool reproducible, char *err, size_t errlen)
{
    struct afile out;
    int rc = csv_prepare_file(&out, path, m, header, reproducible, err, errlen);
    if (rc != GV_OK) return rc;
    return afile_commit(&out, err, errlen);
}
