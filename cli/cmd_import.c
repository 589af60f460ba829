/* cmd_import.c - `gvlsim import gvl-tracing TRACE`: a recorded GVL trace
 * becomes a scenario that replays each thread's history (input/import.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/afile.h"
#include "../common/diag.h"
#include "../common/err.h"
#include "../input/import.h"
#include "../input/load.h"
#include "../input/ruby_version.h"
#include "../input/units.h"
#include "../output/csv.h"
#include "cli.h"
#include "options.h"

static int import_exec(const struct args *a);

static const char *const import_formats[] = { "gvl-tracing", NULL };

static int check_classify(const char *v, char *err, size_t errlen)
{
    struct imp_override o;
    return imp_override_parse(v, &o, err, errlen);
}

static const struct args_opt import_opts[] = {
    CLI_OPT_OUTPUT_H("FILE", "write the scenario to FILE (atomically; default: stdout)"),
    { .name = "ruby", .kind = ARGS_STRING, .metavar = "VERSION",
      .help = "the Ruby the trace was recorded on (e.g. 3.2), when the\n"
              "trace does not say (gvl-tracing 1.5+ records it)" },
    { .name = "machine", .kind = ARGS_STRING, .metavar = "PROFILE",
      .help = "the machine profile the scenario names (the trace does not\n"
              "record its machine)" },
    { .name = "classify", .kind = ARGS_STRING, .flags = ARGS_REPEAT, .metavar = "THREAD:INDEX=io|sync",
      .check = check_classify,
      .help = "replay waiting segment INDEX (from 0; * for all) of THREAD\n"
              "(its name or tid) as I/O of the recorded length, or as a wait\n"
              "ended by the thread that acted nearest its end" },
    { .name = "window", .kind = ARGS_SECONDS, .min = 1, .max = 10 * SIM_S,
      .help = "how near another thread's GVL release or death a wait must\n"
              "end to count as woken by it (default 100us)" },
    { .name = "quantum", .kind = ARGS_SECONDS, .min = 1, .max = 3600 * SIM_S,
      .help = "the GVL quantum of the traced program (default: the trace's,\n"
              "else 100ms); also written to runtime.quantum" },
    { .name = "report", .kind = ARGS_PATH,
      .help = "write every segment of the trace with its class, as CSV" },
    { .name = "stats", .kind = ARGS_PATH,
      .help = "write the trace's totals (the CSV's state columns), its\n"
              "waits by class and its GVL hand-off latencies, as one CSV row" },
    CLI_OPT_MACHINES,
    CLI_OPT_QUIET_H("no summary on stderr"),
    CLI_OPT_END,
};

const struct cli_command cli_cmd_import = {
    .name = "import",
    .usage = "FORMAT TRACE [-o SCENARIO.json] [--ruby VERSION] [--machine PROFILE] [options]",
    .summary = "turn a recorded GVL trace into a scenario that replays it",
    .description =
        "FORMAT is gvl-tracing: TRACE is a trace of the gvl-tracing gem (Chrome\n"
        "trace-event JSON, plain or .gz) or one written by `gvlsim run --trace` or\n"
        "`gvlsim exec --trace`.  Each traced thread replays its\n"
        "own history: running and gc become compute of the measured length,\n"
        "sleeping a sleep, waiting an I/O of the measured length or a wait that\n"
        "another thread ends (a queue, a mutex, a join: never frozen into a\n"
        "fixed length); wants_gvl is what the simulator predicts and is not\n"
        "copied.  Every op says where it comes from (\"trace\").",
    .args = { import_opts, "TRACE", 2, 2 },
    .details =
        "How waits are classified, and what a replay cannot capture:\n"
        "docs/import.md.  The scenario is validated like any file before it is\n"
        "written; a summary of the trace and of its waits goes to stderr.",
    .exit_status = "0 ok, 2 usage error, 3 malformed trace (the event is named) or a\n"
                   "--classify that names no wait, 5 I/O error, 6 out of memory.",
    .exec = import_exec,
};

/* The scenario's name: the trace's base name without .json[.gz]. */
static char *scenario_name(const char *path)
{
    const char *b = strrchr(path, '/');
    b = b ? b + 1 : path;
    size_t n = strlen(b);
    if (n > 3 && !strcmp(b + n - 3, ".gz")) n -= 3;
    if (n > 5 && !strncmp(b + n - 5, ".json", 5)) n -= 5;
    char *raw = strndup(b, n), *name = raw ? diag_escape(raw) : NULL;  /* names are printed */
    free(raw);
    return name;
}

/* Every segment of the trace, with its class. */
static void write_report(FILE *f, const struct imp_trace *t)
{
    fprintf(f, "thread,tid,ractor,segment,event,state,start_s,dur_s,wait,class,rule,waker,gap_s\n");
    for (int i = 0; i < t->nthreads; i++) {
        const struct imp_thread *th = &t->threads[i];
        for (int k = 0; k < th->nsegs; k++) {
            const struct imp_seg *s = &th->segs[k];
            char name[2 * IMP_NAME_MAX + 3], *p = name;
            *p++ = '"';
            for (const char *q = th->name; *q && p < name + sizeof name - 3; q++) {
                if (*q == '"') *p++ = '"';
                *p++ = *q;
            }
            *p++ = '"';
            *p = '\0';
            char t0[40], d[40], gap[40];
            csv_format_seconds(t0, sizeof t0, s->t0);
            csv_format_seconds(d, sizeof d, s->t1 - s->t0);
            csv_format_seconds(gap, sizeof gap, s->gap);
            fprintf(f, "%s,%lld,%d,%d,%d,%s,%s,%s,", name, (long long)th->tid, th->ractor, k, s->event,
                    imp_state_name(s->st), t0, d);
            if (s->st == IMP_WAITING) {
                fprintf(f, "%d,%s,\"%s\",", s->wait_index, imp_class_name(s->cls), imp_rule_text(s->rule));
                if (s->waker >= 0) fprintf(f, "%d,%s\n", s->waker, gap);
                else fprintf(f, ",\n");
            } else {
                fprintf(f, ",,,,\n");
            }
        }
    }
}

/* The trace's own totals, as one CSV row.  GV_OK or GV_ENOMEM. */
static int write_stats(FILE *f, const struct imp_trace *t, const char *ruby)
{
    struct imp_totals tot;
    struct imp_latency lat;
    imp_totals(t, &tot);
    if (imp_latencies(t, &lat) != GV_OK) return GV_ENOMEM;
    const sim_time times[] = { tot.wall, tot.running, tot.gc, tot.wants_gvl, tot.waiting, tot.sleeping };
    fprintf(f, "form,ruby,threads,ractors,events,wall_s,running_s,gc_s,wants_gvl_s,waiting_s,sleeping_s,"
                 "waits,io,sync,join,yield,end,exit,handoffs,handoff_s,acquires,acquire_s,flushes,flush_s,hook_s,"
                 "joins,join_ready_s,death_handoffs,death_handoff_s");
    for (int b = 0; b < IMP_QUIET_BINS; b++)
        fprintf(f, ",handoffs_%s,handoff_%s_s,handoff_%s_quiet_s", imp_quiet_bin_name(b), imp_quiet_bin_name(b),
                imp_quiet_bin_name(b));
    fputc('\n', f);
    fprintf(f, "%s,%s,%d,%d,%d", t->form == IMP_FORM_GVLSIM ? "gvlsim" : "gvl-tracing", ruby ? ruby : "",
            t->nthreads, t->nractors, t->nevents);
    for (size_t i = 0; i < sizeof times / sizeof times[0]; i++) {
        char b[40];
        csv_format_seconds(b, sizeof b, times[i]);
        fprintf(f, ",%s", b);
    }
    char h[40], q[40], fl[40], k[40];
    csv_format_seconds(h, sizeof h, lat.handoff_median);
    csv_format_seconds(q, sizeof q, lat.acquire_median);
    csv_format_seconds(fl, sizeof fl, lat.flush_median);
    csv_format_seconds(k, sizeof k, imp_event_hook(t, &lat).hook);
    char jr[40], dh[40];
    csv_format_seconds(jr, sizeof jr, lat.join_median);
    csv_format_seconds(dh, sizeof dh, lat.death_handoff_median);
    fprintf(f, ",%d,%d,%d,%d,%d,%d,%d,%d,%s,%d,%s,%d,%s,%s,%d,%s,%d,%s", tot.waits, tot.cls[IMP_CLS_IO],
            tot.cls[IMP_CLS_SYNC], tot.cls[IMP_CLS_JOIN], tot.cls[IMP_CLS_YIELD], tot.cls[IMP_CLS_END],
            tot.cls[IMP_CLS_EXIT], lat.handoffs, h, lat.acquires, q, lat.flushes, fl, k, lat.joins, jr,
            lat.death_handoffs, dh);
    for (int b = 0; b < IMP_QUIET_BINS; b++) {
        char ql[40], qt[40];
        csv_format_seconds(ql, sizeof ql, lat.quiet_median[b]);
        csv_format_seconds(qt, sizeof qt, lat.quiet_time[b]);
        fprintf(f, ",%d,%s,%s", lat.quiet[b], ql, qt);
    }
    fputc('\n', f);
    return GV_OK;
}

static void summary(const struct imp_trace *t, const struct imp_emit_opts *eo, const char *ruby, const char *ruby_from,
                    const char *out)
{
    struct imp_totals tot;
    imp_totals(t, &tot);
    char w[48], run[48], gc[48], wg[48], wt[48], sl[48];
    units_format(tot.wall, w, sizeof w);
    units_format(tot.running, run, sizeof run);
    units_format(tot.gc, gc, sizeof gc);
    units_format(tot.wants_gvl, wg, sizeof wg);
    units_format(tot.waiting, wt, sizeof wt);
    units_format(tot.sleeping, sl, sizeof sl);
    fprintf(stderr, "%s: %s trace, %s%s, %d thread%s in %d Ractor%s, %d events, %s\n", t->file,
            t->form == IMP_FORM_GVLSIM ? "gvlsim" : "gvl-tracing", ruby ? "Ruby " : "Ruby version not recorded",
            ruby ? ruby : "",
            t->nthreads, t->nthreads == 1 ? "" : "s", t->nractors, t->nractors == 1 ? "" : "s", t->nevents, w);
    if (ruby) fprintf(stderr, "  Ruby %s (%s)\n", ruby, ruby_from);
    else fprintf(stderr, "  the trace does not say which Ruby recorded it: pass --ruby VERSION\n");
    fprintf(stderr, "  thread time: running %s, gc %s, wants_gvl %s, waiting %s, sleeping %s\n", run, gc, wg,
            wt, sl);
    fprintf(stderr, "  waits: %d io (fixed length), %d sync and %d join (ended by another thread), %d quantum "
                    "yields and %d thread exits (not copied), %d still open at the end (the thread ends there)\n",
            tot.cls[IMP_CLS_IO], tot.cls[IMP_CLS_SYNC], tot.cls[IMP_CLS_JOIN], tot.cls[IMP_CLS_YIELD],
            tot.cls[IMP_CLS_EXIT], tot.cls[IMP_CLS_END]);
    int woken = imp_holds_wake(t);
    if (woken > 0 && eo->wake > 0) {
        char wk[48];
        units_format(eo->wake, wk, sizeof wk);
        fprintf(stderr, "  sleeps and off-CPU I/O waits: %d, each less the machine's wake-up of an idle core (%s%s), "
                        "which the replay adds: the trace's end of each is when the thread ran again\n",
                woken, wk, eo->wake_extra && eo->wake_extra->n > 0 ? ", plus wake_idle_extra" : "");
    }
    struct imp_latency lat;
    if (imp_latencies(t, &lat) == GV_OK && (lat.handoffs || lat.acquires)) {
        char h[48], q[48];
        units_format(lat.handoff_median, h, sizeof h);
        units_format(lat.acquire_median, q, sizeof q);
        fprintf(stderr, "  GVL hand-offs: %d, median %s from a release to the next thread running; uncontended "
                        "acquisitions: %d, median %s\n", lat.handoffs, h, lat.acquires, q);
        fprintf(stderr, "  hand-offs (not at a death) by how long no other thread had changed state (the other CPUs "
                        "idle):");
        for (int b = 0; b < IMP_QUIET_BINS; b++) {
            char lo[32], hi[32], md[48];
            units_format(imp_quiet_bin_from(b), lo, sizeof lo);
            units_format(imp_quiet_bin_from(b + 1), hi, sizeof hi);
            units_format(lat.quiet_median[b], md, sizeof md);
            if (b + 1 < IMP_QUIET_BINS) fprintf(stderr, "%s %s-%s: %d", b ? ";" : "", b ? lo : "0", hi, lat.quiet[b]);
            else fprintf(stderr, "; %s or more: %d", lo, lat.quiet[b]);
            if (lat.quiet[b]) fprintf(stderr, ", median %s", md);
        }
        fputc('\n', stderr);
        if (lat.flushes) {
            char p[48], fl[48];
            units_format(lat.plain_median, p, sizeof p);
            units_format(lat.flush_median, fl, sizeof fl);
            fprintf(stderr, "  of which %d wrote the tracer's buffer out (median %s; the others %s)\n", lat.flushes,
                    fl, p);
        }
    }
    if (lat.joins || lat.death_handoffs) {
        char jr[48], dh[48];
        units_format(lat.join_median, jr, sizeof jr);
        units_format(lat.death_handoff_median, dh, sizeof dh);
        fprintf(stderr, "  at a thread's death: %d joiner%s ready a median %s after its release, %d waiting "
                        "thread%s running a median %s after it\n", lat.joins, lat.joins == 1 ? "" : "s", jr,
                lat.death_handoffs, lat.death_handoffs == 1 ? "" : "s", dh);
    }
    if (t->trailing_commas || t->os_view_events || t->other_events || t->after_death || t->merged)
        fprintf(stderr, "  read: %d trailing comma%s accepted, %d OS-view events and %d other events skipped, "
                        "%d states after a thread's death dropped, %d repeated states merged\n",
                t->trailing_commas, t->trailing_commas == 1 ? "" : "s", t->os_view_events, t->other_events,
                t->after_death, t->merged);
    fprintf(stderr, "  wrote %s\n", out);
}

/* The scenario of trace t as text (*root, *text: replaced), loaded by the
 * loader itself as `out` would be; *startup is the start-up of a new
 * thread on its machine (the wake-up on an idle core), *extra how that
 * grows with the core's idle time (wake_idle_extra).  The loader's
 * warnings are printed when `warn` (once per import), its errors always. */
static int emit_checked(const struct imp_trace *t, const struct imp_emit_opts *eo, const struct load_opts *lo,
                        const char *out, bool warn, cJSON **root, char **text, sim_time *startup,
                        struct gv_curve *extra)
{
    cJSON_Delete(*root);
    free(*text);
    *text = NULL;
    if (!(*root = imp_emit(t, eo)) || !(*text = imp_print(*root))) {
        fprintf(stderr, "gvlsim import: out of memory\n");
        return GV_ENOMEM;
    }
    struct scenario scn;
    struct diag_list d;
    diag_init(&d);
    int rc = scn_load_text(strcmp(out, "-") ? out : "<stdout>", *text, strlen(*text), lo, &scn, &d);
    for (size_t i = 0; (warn || rc != GV_OK) && i < d.n; i++) fprintf(stderr, "%s\n", d.msgs[i]);
    diag_free(&d);
    if (rc != GV_OK) {
        fprintf(stderr, "gvlsim import: the scenario made from %s does not load (above); nothing written\n", t->file);
        return rc;
    }
    *startup = scn.machine.wake_idle_core;
    *extra = scn.machine.wake_idle_extra;
    scenario_free(&scn);
    return GV_OK;
}

static int import_exec(const struct args *a)
{
    const char *format = a->operands[0], *file = a->operands[1];
    if (strcmp(format, import_formats[0]))
        return cli_usage_error(&cli_cmd_import, "unknown trace format \"%s\" (known: gvl-tracing)", format);
    const char *out = args_str(a, "output", "-");
    int n = args_count(a, "classify");
    struct imp_override *ov = calloc((size_t)n + 1, sizeof *ov);
    if (!ov) return GV_EXIT_NOMEM;
    const char *const *specs = args_strs(a, "classify");
    char err[GV_ERRLEN];
    for (int i = 0; i < n; i++) imp_override_parse(specs[i], &ov[i], err, sizeof err);  /* checked by args */

    struct imp_trace t;
    struct diag_list d;
    diag_init(&d);
    int rc = imp_read(file, &t, &d);
    for (size_t i = 0; i < d.n; i++) fprintf(stderr, "%s\n", d.msgs[i]);
    diag_free(&d);
    if (rc != GV_OK) {
        free(ov);
        if (rc == GV_ENOMEM) fprintf(stderr, "gvlsim import: out of memory\n");
        return gv_exit_code(rc);
    }

    /* the Ruby version: the trace's word first; --ruby must agree with it */
    const char *ruby = t.ruby, *ruby_from = "from the trace";
    const char *given = args_str(a, "ruby", NULL);
    cJSON *root = NULL;
    char *text = NULL, *name = NULL;
    struct rver gv, tv = { 0, 0, 0 };
    if (given && rver_parse(given, &gv) != 0) {
        rc = GV_EUSAGE;
        cli_usage_error(&cli_cmd_import, "--ruby %s: not a Ruby version (MAJOR.MINOR or MAJOR.MINOR.PATCH)", given);
        goto done;
    }
    if (given && ruby && rver_parse(ruby, &tv) == 0 &&
        (gv.major != tv.major || gv.minor != tv.minor || (gv.patch >= 0 && tv.patch >= 0 && gv.patch != tv.patch))) {
        rc = GV_EUSAGE;
        cli_usage_error(&cli_cmd_import, "--ruby %s: the trace says it was recorded on Ruby %s", given, ruby);
        goto done;
    }
    if (given && (!ruby || (tv.patch < 0 && gv.patch >= 0))) {   /* none in the trace, or less precise */
        ruby_from = ruby ? "--ruby, which the trace's agrees with" : "--ruby";
        ruby = given;
    }

    struct imp_classify_opts co = { .window = args_num(a, "window", 0), .quantum = args_num(a, "quantum", 0),
                                    .overrides = ov, .noverrides = n };
    if (co.quantum > 0) t.quantum = co.quantum;
    rc = imp_classify(&t, &co, err, sizeof err);
    if (rc != GV_OK) {
        fprintf(stderr, "gvlsim import: %s\n", err);
        goto done;
    }
    if (!(name = scenario_name(file))) { rc = GV_ENOMEM; goto done; }
    struct imp_emit_opts eo = { .name = name, .machine = args_str(a, "machine", NULL), .ruby = ruby };
    struct imp_latency lat;
    if ((rc = imp_latencies(&t, &lat)) != GV_OK) goto done;
    eo.hook = imp_event_hook(&t, &lat);
    eo.hook_samples = lat.acquires;
    eo.hook_flushes = lat.flushes;
    /* validated like any scenario, by the loader itself, before it is written */
    struct load_opts lo = { .machines_dirs = args_strs(a, "machines"), .nmachines_dirs = args_count(a, "machines") };
    sim_time startup = 0;
    struct gv_curve extra = { 0 };
    if ((rc = emit_checked(&t, &eo, &lo, out, true, &root, &text, &startup, &extra)) != GV_OK) goto done;
    /* a created thread starts one start-up of the replay's machine after
     * its spawn: where the trace's `started` lags the creation by as much,
     * the spawn goes that much earlier (imp_start_lead); a recorded sleep
     * or off-CPU wait holds the thread's wake-up, which the replay's
     * machine adds itself (imp_wake_of) */
    eo.start_lead = imp_start_lead(&t, ruby, startup);
    eo.wake = startup;
    eo.wake_extra = &extra;
    if ((eo.start_lead > 0 || eo.wake > 0) &&
        (rc = emit_checked(&t, &eo, &lo, out, false, &root, &text, &startup, &extra)) != GV_OK)
        goto done;
    /* the scenario, the report and the stats: all written, or none */
    const char *paths[3] = { out, args_str(a, "report", NULL), args_str(a, "stats", NULL) };
    struct afile f[3];
    int nf = 0;
    for (int i = 0; i < 3 && rc == GV_OK; i++) {
        if (!paths[i]) continue;
        if ((rc = afile_open(&f[nf], paths[i], err, sizeof err)) != GV_OK) break;
        FILE *o = f[nf++].f;
        if (i == 0) fputs(text, o);
        else if (i == 1) write_report(o, &t);
        else rc = write_stats(o, &t, ruby);
    }
    for (int i = 0; i < nf && rc == GV_OK; i++) rc = afile_prepare(&f[i], err, sizeof err);
    for (int i = 0; i < nf && rc == GV_OK; i++) rc = afile_commit(&f[i], err, sizeof err);
    for (int i = 0; i < nf; i++) afile_abort(&f[i]);   /* a no-op once committed */
    if (rc == GV_EIO) fprintf(stderr, "gvlsim import: %s\n", err);
    if (rc != GV_OK) goto done;
    if (!args_has(a, "quiet")) summary(&t, &eo, ruby, ruby_from, strcmp(out, "-") ? out : "stdout");
done:
    if (rc == GV_ENOMEM) fprintf(stderr, "gvlsim import: out of memory\n");
    cJSON_Delete(root);
    free(text);
    free(name);
    free(ov);
    imp_trace_free(&t);
    return gv_exit_code(rc);
}
