/* ruby_run.c - the Ruby backend (see ruby_run.h).
 *
 * The program runs as a child process: posix_spawnp with stdin from
 * /dev/null, stdout and stderr into files of a private temporary directory
 * (removed afterwards), with the CPU mask of machine.cores inherited from
 * gvlsim; it stays in gvlsim's process group, so a Ctrl-C stops both.  A
 * gvlsim ended by SIGINT, SIGTERM or SIGHUP (a Ctrl-C, `kill`, `timeout`,
 * a batch system) kills the child, then removes the directory: both are
 * in the table of pending temporaries of common/afile.h.  The
 * watchdog waits on a pidfd; when --timeout passes it sends SIGUSR1 (the
 * program prints where each thread of its main Ractor is and exits), then
 * SIGKILL if it has not ended DUMP_GRACE_S later.  Environment variables set
 * the runtime settings Ruby reads from the environment (RUBY_MAX_CPU,
 * RUBY_MN_THREADS, RUBY_THREAD_TIMESLICE); everything else is passed through.
 */
#include "ruby_run.h"

#include <cjson/cJSON.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../common/afile.h"
#include "../common/diag.h"
#include "../common/err.h"
#include "../core/heap.h"
#include "../input/jsonpos.h"
#include "calltime.h"
#include "exec_affinity.h"

extern char **environ;

#define DEFAULT_TIMEOUT_S 600.0
#define PROBE_TIMEOUT_S 60.0
#define DUMP_GRACE_S 2.0     /* after SIGUSR1, before SIGKILL */
#define MAX_CAPTURE (4u << 20) /* bytes of a child's output kept */

/* ---- files ------------------------------------------------------------------ */

/* The file's text (at most MAX_CAPTURE bytes), or NULL. */
static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    char *buf = malloc(MAX_CAPTURE + 1);
    if (!buf) {
        fclose(f);
        return NULL;
    }
    size_t n = fread(buf, 1, MAX_CAPTURE, f);
    fclose(f);
    buf[n] = '\0';
    return buf;
}

static int write_file(const char *path, const char *text, size_t len, char *err, size_t errlen)
{
    FILE *f = fopen(path, "wb");
    if (!f) return gv_fail(err, errlen, GV_EIO, "%s: %s", path, strerror(errno));
    size_t n = fwrite(text, 1, len, f);
    int bad = n != len;
    if (fclose(f) != 0) bad = 1;
    if (bad) return gv_fail(err, errlen, GV_EIO, "%s: write failed: %s", path, strerror(errno));
    return GV_OK;
}

/* The run's private directory: in the table of pending temporaries
 * (common/afile.h) while it exists, so that an interrupted gvlsim removes it. */
struct tmpdir {
    char dir[PATH_MAX - 32];
    char prog[PATH_MAX], result[PATH_MAX], out[PATH_MAX], errf[PATH_MAX];
    char lib[PATH_MAX], calls[PATH_MAX]; /* rrun_method_gaps: the preload library, its records */
    int slot;
};

static int tmpdir_make(struct tmpdir *t, char *err, size_t errlen)
{
    const char *base = getenv("TMPDIR");
    if (!base || !*base || strlen(base) > sizeof t->dir - 32) base = "/tmp";
    snprintf(t->dir, sizeof t->dir, "%s/gvlsim-ruby.XXXXXX", base);
    if (!afile_mkdtemp(t->dir, &t->slot))
        return gv_fail(err, errlen, GV_EIO, "mkdtemp %s: %s", t->dir, strerror(errno));
    snprintf(t->prog, sizeof t->prog, "%s/program.rb", t->dir);
    snprintf(t->result, sizeof t->result, "%s/result.json", t->dir);
    snprintf(t->out, sizeof t->out, "%s/stdout", t->dir);
    snprintf(t->errf, sizeof t->errf, "%s/stderr", t->dir);
    snprintf(t->lib, sizeof t->lib, "%s/calltime.so", t->dir);
    snprintf(t->calls, sizeof t->calls, "%s/calls", t->dir);
    return GV_OK;
}

static void tmpdir_remove(struct tmpdir *t)
{
    unlink(t->prog);
    unlink(t->result);
    unlink(t->out);
    unlink(t->errf);
    unlink(t->lib);
    unlink(t->calls);
    rmdir(t->dir);
    afile_untrack(t->slot);
}

/* ---- a child under a watchdog ----------------------------------------------- */

struct child {
    int status;        /* waitpid status */
    bool timed_out;
};

static double mono_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Wait until pid exits or `until` (monotonic seconds) passes.  1 if it
 * exited (status filled), 0 on timeout. */
static int wait_until(pid_t pid, int pidfd, double until, int *status)
{
    for (;;) {
        pid_t w = waitpid(pid, status, WNOHANG);
        if (w == pid) return 1;
        if (w < 0 && errno != EINTR) {
            *status = 0;
            return 1;
        }
        double left = until - mono_s();
        if (left <= 0) return 0;
        if (pidfd >= 0) {
            struct pollfd p = { .fd = pidfd, .events = POLLIN };
            int ms = left > 3600 ? 3600000 : (int)(left * 1000) + 1;
            (void)poll(&p, 1, ms);
        } else {
            struct timespec ts = { 0, 20000000 };  /* no pidfd (old kernel): look every 20 ms */
            nanosleep(&ts, NULL);
        }
    }
}

/* Run argv with envp, stdin /dev/null, stdout and stderr into files; wait
 * at most timeout_s (then SIGUSR1, DUMP_GRACE_S, SIGKILL).  GV_OK with c filled, or the spawn error (ENOENT/EACCES:
 * GV_EUNSUP, the executable is missing). */
static int run_child(char *const *argv, char *const *envp, const char *out_path, const char *err_path,
                     double timeout_s, struct child *c, char *err, size_t errlen)
{
    memset(c, 0, sizeof *c);
    posix_spawn_file_actions_t fa;
    posix_spawnattr_t at;
    if (posix_spawn_file_actions_init(&fa) != 0 || posix_spawnattr_init(&at) != 0)
        return gv_fail(err, errlen, GV_ENOMEM, "out of memory");
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 1, out_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    posix_spawn_file_actions_addopen(&fa, 2, err_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    sigset_t none;
    sigemptyset(&none);
    posix_spawnattr_setsigmask(&at, &none);
    posix_spawnattr_setflags(&at, POSIX_SPAWN_SETSIGMASK);
    pid_t pid;
    sigset_t held;
    afile_hold(&held);  /* an interrupted gvlsim kills the child: enter it before any signal */
    int rc = posix_spawnp(&pid, argv[0], &fa, &at, argv, envp);
    int slot = rc == 0 ? afile_track_child(pid) : -1;
    afile_release(&held);
    posix_spawn_file_actions_destroy(&fa);
    posix_spawnattr_destroy(&at);
    if (rc != 0)
        return gv_fail(err, errlen, rc == ENOENT || rc == EACCES || rc == ENOEXEC ? GV_EUNSUP : GV_ERUN,
                       "cannot run %s: %s", argv[0], strerror(rc));
#ifdef SYS_pidfd_open
    int pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
#else
    int pidfd = -1;
#endif
    double t0 = mono_s();
    if (!wait_until(pid, pidfd, t0 + (timeout_s > 0 ? timeout_s : DEFAULT_TIMEOUT_S), &c->status)) {
        c->timed_out = true;
        kill(pid, SIGUSR1);
        if (!wait_until(pid, pidfd, mono_s() + DUMP_GRACE_S, &c->status)) {
            kill(pid, SIGKILL);
            while (waitpid(pid, &c->status, 0) < 0 && errno == EINTR) {}
        }
    }
    afile_untrack(slot);
    if (pidfd >= 0) close(pidfd);
    return GV_OK;
}

/* environ with `set` (NAME=VALUE strings) replacing variables of the same
 * name; malloc'ed array of borrowed strings. */
static char **make_env(char *const *set, int nset)
{
    int n = 0;
    while (environ && environ[n]) n++;
    char **env = calloc((size_t)(n + nset + 1), sizeof *env);
    if (!env) return NULL;
    int k = 0;
    for (int i = 0; i < n; i++) {
        bool replaced = false;
        for (int j = 0; j < nset; j++) {
            size_t len = strcspn(set[j], "=");
            if (!strncmp(environ[i], set[j], len) && environ[i][len] == '=') replaced = true;
        }
        if (!replaced) env[k++] = environ[i];
    }
    for (int j = 0; j < nset; j++) env[k++] = set[j];
    return env;
}

/* ---- the probe -------------------------------------------------------------- */

static const char probe_script[] =
    "print [RUBY_ENGINE, RUBY_VERSION, (defined?(RubyVM::YJIT) ? 1 : 0),"
    " (defined?(RubyVM::YJIT) && RubyVM::YJIT.enabled? ? 1 : 0), (defined?(RubyVM::RJIT) ? 1 : 0),"
    " RUBY_DESCRIPTION].join(\"\\t\")";

static const char *ruby_exe(const struct rrun_opts *o)
{
    return o && o->ruby ? o->ruby : "ruby";
}

/* argv: ruby, its options (and --yjit), then `tail` (n strings) */
static char **make_argv(const struct rrun_opts *o, bool add_yjit, const char *const *tail, int n)
{
    int nopts = o ? o->nruby_opts : 0;
    char **argv = calloc((size_t)(nopts + n + 3), sizeof *argv);
    if (!argv) return NULL;
    int k = 0;
    argv[k++] = (char *)ruby_exe(o);
    for (int i = 0; i < nopts; i++) argv[k++] = (char *)o->ruby_opts[i];
    if (add_yjit) argv[k++] = "--yjit";
    for (int i = 0; i < n; i++) argv[k++] = (char *)tail[i];
    return argv;
}

/* The last `max` bytes of s, from a line start, for messages. */
static const char *tail_of(const char *s, size_t max)
{
    size_t n = strlen(s);
    if (n <= max) return s;
    const char *p = s + n - max, *nl = strchr(p, '\n');
    return nl ? nl + 1 : p;
}

/* Run `ruby [opts] -e SCRIPT` under a PROBE_TIMEOUT_S watchdog, in a
 * temporary directory of its own; *so and *se get what it wrote on stdout
 * and stderr (malloc'd, NULL if unreadable).  GV_OK with *c filled, or the
 * error of the start. */
static int ruby_capture_args(const struct rrun_opts *o, bool add_yjit, const char *script, const char *arg0,
                             const char *arg1, char *setenv1, struct child *c, char **so, char **se, char *err,
                             size_t errlen)
{
    *so = *se = NULL;
    memset(c, 0, sizeof *c);
    struct tmpdir t;
    int rc = tmpdir_make(&t, err, errlen);
    if (rc != GV_OK) return rc;
    const char *tail[] = { "-e", script, arg0, arg1 };
    char **argv = make_argv(o, add_yjit, tail, arg0 ? (arg1 ? 4 : 3) : 2);
    char **env = setenv1 ? make_env(&setenv1, 1) : environ;
    if (!argv || !env) rc = gv_fail(err, errlen, GV_ENOMEM, "out of memory");
    else rc = run_child(argv, env, t.out, t.errf, PROBE_TIMEOUT_S, c, err, errlen);
    free(argv);
    if (env != environ) free(env);
    if (rc == GV_OK) {
        *so = slurp(t.out);
        *se = slurp(t.errf);
    }
    tmpdir_remove(&t);
    return rc;
}

static int ruby_capture(const struct rrun_opts *o, bool add_yjit, const char *script, struct child *c, char **so,
                        char **se, char *err, size_t errlen)
{
    return ruby_capture_args(o, add_yjit, script, NULL, NULL, NULL, c, so, se, err, errlen);
}

int rrun_probe(const struct rrun_opts *o, bool add_yjit, struct rrun_ruby *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    struct child c;
    char *so, *se;
    int rc = ruby_capture(o, add_yjit, probe_script, &c, &so, &se, err, errlen);
    if (rc == GV_EUNSUP) {
        size_t len = strlen(err);
        snprintf(err + len, errlen - len,
                 "; the Ruby backend needs CRuby 3.0 or later: install Debian's ruby package "
                 "(apt-get install ruby) or pass --ruby PATH");
    }
    if (rc == GV_OK && (c.timed_out || !WIFEXITED(c.status) || WEXITSTATUS(c.status) != 0 || !so))
        rc = gv_fail(err, errlen, GV_EUNSUP, "%s %sdoes not start%s: %s", ruby_exe(o),
                     o && o->nruby_opts ? "with these --ruby-opt options " : "",
                     c.timed_out ? " (no answer within 60 s)" : "", se ? tail_of(se, 2000) : "");
    if (rc == GV_OK) {
        char engine[64] = "";
        int yj = 0, yon = 0, rj = 0, used = 0;
        if (sscanf(so, "%63[^\t]\t%31[^\t]\t%d\t%d\t%d\t%n", engine, out->version, &yj, &yon, &rj, &used) < 5) {
            rc = gv_fail(err, errlen, GV_EUNSUP, "%s answered the version probe with \"%.200s\"", ruby_exe(o), so);
        } else {
            snprintf(out->description, sizeof out->description, "%s", so + used);
            out->has_yjit = yj;
            out->yjit = yon;
            out->has_jit = yj || rj;
            struct rver v;
            if (strcmp(engine, "ruby") != 0)
                rc = gv_fail(err, errlen, GV_EUNSUP, "%s is %s %s, not CRuby: the Ruby backend models CRuby's GVL",
                             ruby_exe(o), engine, out->version);
            else if (rver_parse(out->version, &v) != 0 || rver_facts_of(&v, &out->facts) != GV_OK)
                rc = gv_fail(err, errlen, GV_EUNSUP, "%s is Ruby %s: the Ruby backend needs 3.0 or later (Ractors)",
                             ruby_exe(o), out->version);
        }
    }
    free(so);
    free(se);
    return rc;
}

/* ns per VM instruction of the counted loop that `compute` insns runs
 * (gv_loop of the prelude), on the thread's CPU clock: after a 20 ms
 * warm-up, samples of about 4 ms each; the instructions per sample are read
 * off the loop's instruction sequence (gv_insn_shape), as the generated
 * programs count them. */
static const char insn_script[] =
    "shape = gv_insn_shape\n"
    "n = 1 << 14\n"
    "t0 = gv_tcpu\n"
    "gv_loop(n) while gv_tcpu - t0 < 20_000_000\n"
    "t1 = gv_tcpu\n"
    "gv_loop(n)\n"
    "dt = gv_tcpu - t1\n"
    "dt = 1 if dt < 1\n"
    "per = (n * 4_000_000.0 / dt).to_i\n"
    "per = 1000 if per < 1000\n"
    "insns = shape[1] + per * shape[0]\n"
    "print Array.new(%d) { a = gv_tcpu; gv_loop(per); (gv_tcpu - a).to_f / insns }.join(' ')\n";

/* ns per call of a Ruby method the Ruby backend runs for a syscall op (its
 * generated line: File.mtime(GV_STAT), File.write(GV_NULL, "0"), under the
 * prelude's frozen string literals), beyond the loop around it, on the
 * thread's CPU clock: after a 20 ms warm-up, samples of about 4 ms each,
 * each the method's loop less gv_loop over as many iterations.  The GC is
 * off within a sample (started before it): its steps are the model's
 * `allocates` (models/gc.c), not the method's work.  ARGV: the method
 * ("stat" File.mtime, "open_devnull" File.write), the file File.mtime
 * reads. */
static const char method_script[] =
    "GV_STAT = ARGV[1]\n"
    "def gv_method(k, n)\n"
    "  i = 0\n"
    "  if k\n"
    "    while i < n\n"
    "      File.mtime(GV_STAT)\n"
    "      i += 1\n"
    "    end\n"
    "  else\n"
    "    while i < n\n"
    "      File.write(GV_NULL, \"0\")\n"
    "      i += 1\n"
    "    end\n"
    "  end\n"
    "end\n"
    "k = ARGV[0] == \"stat\"\n"
    "n = 64\n"
    "t0 = gv_tcpu\n"
    "gv_method(k, n) while gv_tcpu - t0 < 20_000_000\n"
    "t1 = gv_tcpu\n"
    "gv_method(k, n)\n"
    "dt = gv_tcpu - t1\n"
    "dt = 1 if dt < 1\n"
    "per = (n * 4_000_000.0 / dt).to_i\n"
    "per = 16 if per < 16\n"
    "print Array.new(%d) {\n"
    "  GC.start\n"
    "  GC.disable\n"
    "  a = gv_tcpu; gv_method(k, per); b = gv_tcpu; gv_loop(per); e = gv_tcpu\n"
    "  GC.enable\n"
    "  ((b - a) - (e - b)).to_f / per\n"
    "}.join(' ')\n";

/* What the GC costs in this Ruby, on the thread's CPU clock.  The main
 * run's heap is made large at start (RUBY_GC_HEAP_INIT_SLOTS, set by
 * rrun_gc_costs_ns: 400,000 slots, twice a fill) so that no GC runs while
 * a sample fills it (one would sweep the garbage first, or age the
 * survivors out of a minor GC's marking).  Each sample prints six
 * figures, after one sample's worth of warm-up (the first sample of a
 * fresh process swept and marked less, its heap not yet touched):
 * - the sweep of a dead object with a malloc'd body beyond a dead plain
 *   object's (gc.c obj_free: an environment's xfree(env->env), a Proc's
 *   RUBY_TYPED_DEFAULT_FREE, each through objspace_xfree): 100,000 dead
 *   escapes (a lambda capturing a local: an environment and a Proc, as
 *   proc_heavy's env_escape allocates) against 200,000 dead Object.new,
 *   the difference over the 200,000 objects;
 * - the sweep of a slot holding a dead plain object, what a slot of a
 *   full heap costs (each sweep the cost of a minor GC that sweeps at once
 *   less one that leaves the sweep lazy: scripts/gc_costs.rb's method): a
 *   free slot's visit - the sweep of the heap with nothing allocated, over
 *   its free slots (on the AMD EPYC guest about 4.8 ns: the sweep reads
 *   every slot's flags, 16 MB of them) - and what a dead object costs
 *   beyond it - 300,000 dead Object.new less that empty sweep, over the
 *   300,000;
 * - a minor GC's marking with no young survivor (immediate_sweep: false,
 *   after a GC that swept at once, so no sweep is left to finish), and the
 *   heap's slots then;
 * - its marking of a young survivor: the same with 100,000 Object.new kept,
 *   less the first, over the 100,000;
 * - an Object.new's own CPU, as the Ruby backend's alloc op makes it
 *   (`N.times { Object.new }`), the GC off: 200,000 of them, over the
 *   200,000;
 * - a call of the method the Ruby backend writes for an env_escape op
 *   (exec/ruby_gen.c: `x = 1; -> { x }`, an environment and a Proc), the
 *   GC off: 100,000 calls in a while loop less the same loop empty, over
 *   the 100,000 (the two objects' slots taken from the free list
 *   included: the machine's env_escape_work charges the op's whole CPU).
 * The second run (gc_small_script) has the boot heap (about 50 pages, 20 times
 * fewer) and prints that marking and the slots, then the marking again
 * with GC_THREADS more threads alive (parked on a queue): a minor GC visits
 * every page (rgengc_rememberset_mark) and marks every living thread's
 * stacks (rb_thread_mark), so the three give a page's part, a thread's
 * part and the rest. */
#define GC_THREADS 64
#define GC_STR_(x) #x
#define GC_STR(x) GC_STR_(x)
#define GC_MARK_DEFS \
    "def gv_mark(n)\n" \
    "  GC.start\n" \
    "  keep = Array.new(n) { Object.new }\n" \
    "  GC.start(full_mark: false, immediate_sweep: true)\n" \
    "  a = gv_tcpu\n" \
    "  GC.start(full_mark: false, immediate_sweep: false)\n" \
    "  t = gv_tcpu - a\n" \
    "  keep = nil\n" \
    "  t\n" \
    "end\n"

static const char gc_script[] =
    "def gv_body(i) = -> { i }\n"
    "def gv_escape\n"
    "  x = 1\n"
    "  -> { x }\n"
    "end\n"
    "def gv_escapes(n, escape)\n"
    "  i = 0\n"
    "  a = gv_tcpu\n"
    "  if escape\n"
    "    while i < n\n"
    "      gv_escape\n"
    "      i += 1\n"
    "    end\n"
    "  else\n"
    "    while i < n\n"
    "      i += 1\n"
    "    end\n"
    "  end\n"
    "  gv_tcpu - a\n"
    "end\n"
    "def gv_fill(bodies, n)\n"
    "  i = 0\n"
    "  if bodies\n"
    "    n /= 2\n"
    "    while i < n\n"
    "      gv_body(i)\n"
    "      i += 1\n"
    "    end\n"
    "  else\n"
    "    while i < n\n"
    "      Object.new\n"
    "      i += 1\n"
    "    end\n"
    "  end\n"
    "end\n"
    "def gv_sweep(bodies, n)\n"
    "  lazy, swept = 2.times.map do |k|\n"
    "    GC.start\n"
    "    gv_fill(bodies, n)\n"
    "    a = gv_tcpu\n"
    "    GC.start(full_mark: false, immediate_sweep: k == 1)\n"
    "    gv_tcpu - a\n"
    "  end\n"
    "  swept - lazy\n"
    "end\n"
    GC_MARK_DEFS
    "def gv_gc_sample\n"
    "  n = 100_000\n"
    "  empty = gv_sweep(false, 0)\n"
    "  free = GC.stat(:heap_available_slots) - GC.stat(:heap_live_slots)\n"
    "  full = gv_sweep(false, 3 * n)\n"
    "  plain = gv_sweep(false, 2 * n)\n"
    "  body = gv_sweep(true, 2 * n)\n"
    "  base = gv_mark(0)\n"
    "  slots = GC.stat(:heap_available_slots)\n"
    "  marked = gv_mark(n)\n"
    "  GC.start\n"
    "  GC.disable\n"
    "  a = gv_tcpu\n"
    "  (2 * n).times { Object.new }\n"
    "  alloc = gv_tcpu - a\n"
    "  GC.enable\n"
    "  GC.start\n"
    "  GC.disable\n"
    "  escape = gv_escapes(n, true) - gv_escapes(n, false)\n"
    "  GC.enable\n"
    "  [(body - plain).to_f / (2 * n), empty.to_f / free + (full - empty).to_f / (3 * n), base.to_f,\n"
    "   (marked - base).to_f / n, slots, alloc.to_f / (2 * n), escape.to_f / n]\n"
    "end\n"
    "gv_gc_sample\n"
    "print Array.new(%d) { gv_gc_sample.join(' ') }.join(' ')\n";

static const char gc_small_script[] =
    GC_MARK_DEFS
    "gv_mark(0)\n"
    "alone = Array.new(%d) { [gv_mark(0), GC.stat(:heap_available_slots)] }\n"
    "q = Thread::Queue.new\n"
    "ths = Array.new(" GC_STR(GC_THREADS) ") { Thread.new { q.pop } }\n"
    "Thread.pass until ths.all? { |t| t.status == 'sleep' }\n"
    "gv_mark(0)\n"
    "print alone.map { |m, slots| [m, slots, gv_mark(0)].join(' ') }.join(' ')\n";

#define GC_HEAP "RUBY_GC_HEAP_INIT_SLOTS=400000"

/* How a measuring run of the Ruby ended (`what` it was, its stderr `se`,
 * whether it `answered` on stdout): GV_OK, GV_EUNSUP when it could not be
 * run (127: the child could not exec it; posix_spawn reports that so where
 * it must fork, as under valgrind), GV_ERUN when it failed. */
static int child_check(const struct rrun_opts *o, const struct child *c, bool answered, const char *what,
                       const char *se, char *err, size_t errlen)
{
    if (!c->timed_out && WIFEXITED(c->status) && WEXITSTATUS(c->status) == 127)
        return gv_fail(err, errlen, GV_EUNSUP, "cannot run %s", ruby_exe(o));
    if (c->timed_out || !WIFEXITED(c->status) || WEXITSTATUS(c->status) != 0 || !answered)
        return gv_fail(err, errlen, GV_ERUN, "%s failed %s%s: %s", ruby_exe(o), what,
                       c->timed_out ? " (no answer within 60 s)" : "", se ? tail_of(se, 500) : "");
    return GV_OK;
}

/* Run prelude + script (with n for its %d: n samples of `per` figures
 * each) and read n x per numbers, positive unless `any_sign` (differences
 * of costs). */
static int ruby_samples(const struct rrun_opts *o, const char *script, size_t slen, const char *what,
                        const char *arg0, const char *arg1, char *setenv1, bool any_sign, double *samples, int n,
                        int per, char *err, size_t errlen)
{
    size_t plen = strlen(rgen_prelude), cap = plen + slen + 16;
    char *text = malloc(cap);
    if (!text) return gv_fail(err, errlen, GV_ENOMEM, "out of memory");
    memcpy(text, rgen_prelude, plen);
    snprintf(text + plen, cap - plen, script, n);
    struct child c;
    char *so, *se;
    int rc = ruby_capture_args(o, false, text, arg0, arg1, setenv1, &c, &so, &se, err, errlen);
    free(text);
    if (rc == GV_OK) rc = child_check(o, &c, so != NULL, what, se, err, errlen);
    const char *p = so;
    for (int i = 0; rc == GV_OK && i < n * per; i++) {
        char *end;
        samples[i] = strtod(p, &end);
        if (end == p || !(any_sign ? isfinite(samples[i]) : samples[i] > 0))
            rc = gv_fail(err, errlen, GV_ERUN, "%s answered %s with \"%.100s\"", ruby_exe(o), what, so);
        p = end;
    }
    free(so);
    free(se);
    return rc;
}

int rrun_insn_ns(const struct rrun_opts *o, double *samples, int n, char *err, size_t errlen)
{
    if (n < 1 || n > 1000) return gv_fail(err, errlen, GV_EINVAL, "rrun_insn_ns: %d samples", n);
    return ruby_samples(o, insn_script, sizeof insn_script, "the instruction loop", NULL, NULL, NULL, false, samples, n,
                        1, err, errlen);
}

int rrun_method_ns(const struct rrun_opts *o, enum scn_syscall_call call, double *samples, int n, char *err,
                   size_t errlen)
{
    if (n < 1 || n > 1000) return gv_fail(err, errlen, GV_EINVAL, "rrun_method_ns: %d samples", n);
    if (call != CALL_STAT && call != CALL_OPEN_DEVNULL)
        return gv_fail(err, errlen, GV_EINVAL, "rrun_method_ns: no Ruby method for call %d", (int)call);
    const char *path = o && o->stat_path ? o->stat_path : "/";
    return ruby_samples(o, method_script, sizeof method_script,
                        call == CALL_STAT ? "the File.mtime loop" : "the File.write loop",
                        call == CALL_STAT ? "stat" : "open_devnull", path, NULL, false, samples, n, 1, err, errlen);
}

/* The three loops of calltime.h, n iterations each, the GC off. */
static const char gaps_script[] =
    "GV_STAT = ARGV[1]\n"
    "n = Integer(ARGV[0])\n"
    "GC.disable\n"
    "i = 0\n"
    "while i < n\n"
    "  Process.ppid\n"
    "  i += 1\n"
    "end\n"
    "i = 0\n"
    "while i < n\n"
    "  File.mtime(GV_STAT)\n"
    "  Process.ppid\n"
    "  i += 1\n"
    "end\n"
    "i = 0\n"
    "while i < n\n"
    "  File.write(GV_NULL, \"0\")\n"
    "  Process.ppid\n"
    "  i += 1\n"
    "end\n"
    "GC.enable\n";

#define GAPS_ITERATIONS 12000
#define MAX_CALLS_FILE (64u << 20)

/* The records file the library wrote (calltime_rec.h): *recs malloc'd. */
static int read_calls(const char *path, struct calltime_rec **recs, size_t *n, char *err, size_t errlen)
{
    *recs = NULL;
    *n = 0;
    FILE *f = fopen(path, "rb");
    if (!f)
        return gv_fail(err, errlen, GV_ERUN, "no call records from the preload library (%s: %s): did the Ruby "
                       "load it (LD_PRELOAD)?", path, strerror(errno));
    uint64_t magic = 0;
    struct stat st;
    int rc = GV_OK;
    if (fread(&magic, sizeof magic, 1, f) != 1 || magic != CALLTIME_MAGIC || fstat(fileno(f), &st) != 0 ||
        st.st_size > MAX_CALLS_FILE)
        rc = gv_fail(err, errlen, GV_ERUN, "%s: not the preload library's call records", path);
    size_t cap = rc == GV_OK ? ((size_t)st.st_size - sizeof magic) / sizeof **recs : 0;
    if (rc == GV_OK && cap > 0) {
        *recs = malloc(cap * sizeof **recs);
        if (!*recs) rc = gv_fail(err, errlen, GV_ENOMEM, "out of memory");
        else *n = fread(*recs, sizeof **recs, cap, f);
    }
    fclose(f);
    return rc;
}

int rrun_method_gaps(const struct rrun_opts *o, double *samples, int n, char *err, size_t errlen)
{
    if (n < 1 || n > 1000) return gv_fail(err, errlen, GV_EINVAL, "rrun_method_gaps: %d samples", n);
    struct tmpdir t;
    int rc = tmpdir_make(&t, err, errlen);
    if (rc != GV_OK) return rc;
    size_t libsize;
    const unsigned char *lib = calltime_lib(&libsize);
    rc = write_file(t.lib, (const char *)lib, libsize, err, errlen);
    size_t plen = strlen(rgen_prelude), cap = plen + sizeof gaps_script;
    char *text = malloc(cap), iters[24], preload[PATH_MAX + 16], out[PATH_MAX + 32];
    snprintf(iters, sizeof iters, "%d", GAPS_ITERATIONS);
    snprintf(preload, sizeof preload, "LD_PRELOAD=%s", t.lib);
    snprintf(out, sizeof out, "%s=%s", CALLTIME_ENV, t.calls);
    char *set[] = { preload, out };
    const char *tail[] = { "-e", text, iters, o && o->stat_path ? o->stat_path : "/" };
    char **argv = make_argv(o, false, tail, 4), **env = make_env(set, 2);
    if (rc == GV_OK && (!text || !argv || !env)) rc = gv_fail(err, errlen, GV_ENOMEM, "out of memory");
    struct child c;
    if (rc == GV_OK) {
        memcpy(text, rgen_prelude, plen);
        memcpy(text + plen, gaps_script, sizeof gaps_script);
        rc = run_child(argv, env, t.out, t.errf, PROBE_TIMEOUT_S, &c, err, errlen);
    }
    if (rc == GV_OK) {
        char *se = slurp(t.errf);
        rc = child_check(o, &c, true, "the timed File.mtime and File.write loops", se, err, errlen);
        free(se);
    }
    struct calltime_rec *recs = NULL;
    size_t nrecs = 0;
    if (rc == GV_OK) rc = read_calls(t.calls, &recs, &nrecs, err, errlen);
    if (rc == GV_OK) rc = calltime_gaps(recs, nrecs, n, samples, err, errlen);
    free(recs);
    free(text);
    free(argv);
    free(env);
    tmpdir_remove(&t);
    return rc;
}

int rrun_gc_costs_ns(const struct rrun_opts *o, struct rrun_gc_costs *samples, int n, char *err, size_t errlen)
{
    if (n < 1 || n > 1000) return gv_fail(err, errlen, GV_EINVAL, "rrun_gc_costs_ns: %d samples", n);
    double *v = malloc(sizeof *v * 10 * (size_t)n), *w = v + 7 * n;
    if (!v) return gv_fail(err, errlen, GV_ENOMEM, "out of memory");
    char heap[] = GC_HEAP;
    int rc = ruby_samples(o, gc_script, sizeof gc_script, "the GC's sweeps and marks", NULL, NULL, heap, true, v, n, 7,
                          err, errlen);
    if (rc == GV_OK)
        rc = ruby_samples(o, gc_small_script, sizeof gc_small_script, "the GC's marks in its boot heap", NULL, NULL,
                          NULL, true, w, n, 3, err, errlen);
    for (int i = 0; rc == GV_OK && i < n; i++) {
        const double *x = v + 7 * i, *y = w + 3 * i;
        /* the heaps' sizes in the model's pages (core/heap.h: 409 slots, 3.1's
         * 16 KB page; 3.3+ pages hold more, and are counted by their slots) */
        double pages = (x[4] - y[1]) / CORE_HEAP_PAGE_SLOTS;
        if (!(pages >= 1)) {
            rc = gv_fail(err, errlen, GV_ERUN, "%s: the large heap has %g slots, the boot heap %g", ruby_exe(o),
                         x[4], y[1]);
            break;
        }
        double page = (x[2] - y[0]) / pages, thread = (y[2] - y[0]) / GC_THREADS;
        /* what is left of the boot heap's marking: its pages' part and its
         * one thread's (the main thread) out */
        samples[i] = (struct rrun_gc_costs){ .sweep_body = x[0], .sweep_slot = x[1],
                                             .mark_base = y[0] - y[1] / CORE_HEAP_PAGE_SLOTS * page - thread,
                                             .mark_page = page,
                                             .mark_thread = thread, .mark_object = x[3], .alloc_object = x[5],
                                             .escape = x[6] };
    }
    free(v);
    return rc;
}

/* A minor GC of the boot heap swept at once, GAP seconds after the one
 * before: 5,000 Object.new spread over the gap in 50 chunks (as a program
 * allocates between its collections), the thread spinning on the clock in
 * between; its thread CPU.  The gap runs from the GC before's start
 * (gv_gap's t0). */
static const char gc_gap_script[] =
    "def gv_mono = Process.clock_gettime(Process::CLOCK_MONOTONIC)\n"
    "def gv_gap(gap)\n"
    "  t0 = gv_mono\n"
    "  GC.start(full_mark: false, immediate_sweep: true)\n"
    "  50.times do |k|\n"
    "    100.times { Object.new }\n"
    "    t = t0 + gap * (k + 1) / 51.0\n"
    "    nil while gv_mono < t\n"
    "  end\n"
    "  nil while gv_mono - t0 < gap\n"
    "  a = gv_tcpu\n"
    "  GC.start(full_mark: false, immediate_sweep: true)\n"
    "  gv_tcpu - a\n"
    "end\n"
    "GC.start\n"
    "gaps = [%s]\n"
    "gaps.each { |g| gv_gap(g) }\n"
    "print Array.new(%%d) { gaps.map { |g| gv_gap(g) }.join(' ') }.join(' ')\n";

int rrun_gc_gap_ns(const struct rrun_opts *o, const long long *gaps_ns, int ngaps, double *samples, int n, char *err,
                   size_t errlen)
{
    if (n < 1 || n > 1000 || ngaps < 1 || ngaps > 8)
        return gv_fail(err, errlen, GV_EINVAL, "rrun_gc_gap_ns: %d samples of %d gaps", n, ngaps);
    char list[8 * 24] = "", script[sizeof gc_gap_script + sizeof list];
    for (int i = 0; i < ngaps; i++) {
        size_t used = strlen(list);
        snprintf(list + used, sizeof list - used, "%s%.9g", i ? ", " : "", (double)gaps_ns[i] / 1e9);
    }
    /* the gaps into the script; its %%d stays for ruby_samples' n */
    snprintf(script, sizeof script, gc_gap_script, list);
    return ruby_samples(o, script, strlen(script) + 1, "the GC after a gap", NULL, NULL, NULL, false, samples, n,
                        ngaps, err, errlen);
}

/* Two threads pass a token through two queues, PER times each per sample
 * and kind; each times one call of the kind's work right after taking the
 * token (the other made the same call just before it passed the token),
 * and a sample is the median of the 2 x PER calls. */
static const char handoff_work_script[] =
    "GV_STAT = ARGV[0]\n"
    "GV_WORK = [-> { [1, 1] }, -> { File.mtime(GV_STAT) }, -> { File.write(GV_NULL, \"0\") }]\n"
    "def gv_handoff_work(w, per)\n"
    "  q = [Thread::Queue.new, Thread::Queue.new]\n"
    "  d = Array.new(2 * per, 0)\n"
    "  th = [0, 1].map do |me|\n"
    "    Thread.new do\n"
    "      i = me\n"
    "      while i < 2 * per\n"
    "        q[me].pop\n"
    "        t0 = gv_now\n"
    "        w.call\n"
    "        d[i] = gv_now - t0\n"
    "        q[1 - me].push(true)\n"
    "        i += 2\n"
    "      end\n"
    "    end\n"
    "  end\n"
    "  q[0].push(true)\n"
    "  th.each(&:join)\n"
    "  d.sort[per]\n"
    "end\n"
    "GV_WORK.each { |w| gv_handoff_work(w, 100) }\n"
    "print Array.new(%d) { GV_WORK.map { |w| gv_handoff_work(w, 300) }.join(' ') }.join(' ')\n";

int rrun_handoff_work_ns(const struct rrun_opts *o, double *samples, int n, char *err, size_t errlen)
{
    if (n < 1 || n > 1000) return gv_fail(err, errlen, GV_EINVAL, "rrun_handoff_work_ns: %d samples", n);
    const char *path = o && o->stat_path ? o->stat_path : "/";
    return ruby_samples(o, handoff_work_script, sizeof handoff_work_script, "the hand-off loop", path, NULL, NULL,
                        false, samples, n, RRUN_WORKS, err, errlen);
}

/* ---- settings ------------------------------------------------------------- */

/* Whether prog (blocks' bodies included) has an op of this kind; with
 * `flag`, only a compute of insns, a queue_pop with a timeout or a syscall
 * that allocates. */
static bool has_op(const struct scn_prog *prog, enum scn_op_kind kind, bool flag)
{
    if (!prog) return false;
    for (int i = 0; i < prog->nops; i++) {
        const struct scn_op *op = &prog->ops[i];
        if (op->kind == kind && !flag) return true;
        if (op->kind == kind && kind == OP_COMPUTE && op->u.compute.has_insns) return true;
        if (op->kind == kind && kind == OP_QUEUE_POP && op->u.queue.has_timeout) return true;
        if (op->kind == kind && kind == OP_SYSCALL && op->u.syscall.allocates) return true;
        switch (op->kind) {
        case OP_LOOP:
            if (has_op(op->u.loop.body, kind, flag)) return true;
            break;
        case OP_MEASURE:
            if (has_op(op->u.measure.body, kind, flag)) return true;
            break;
        case OP_SYNCHRONIZE:
            if (has_op(op->u.mutex.body, kind, flag)) return true;
            break;
        case OP_BRANCH:
            if (has_op(op->u.branch.then_body, kind, flag) || has_op(op->u.branch.else_body, kind, flag))
                return true;
            break;
        default: break;
        }
    }
    return false;
}

static bool scn_has(const struct scenario *scn, enum scn_op_kind kind, bool flag)
{
    for (int r = 0; r < scn->nractors; r++)
        for (int t = 0; t < scn->ractors[r].nthreads; t++)
            if (has_op(&scn->ractors[r].threads[t].prog, kind, flag)) return true;
    return false;
}

static bool asked(const struct scenario *scn, enum scn_rt_key k)
{
    return (scn->runtime.asked >> k) & 1u;
}

/* What this Ruby does for the three CSV columns. */
static enum scn_invariant_check actual_invariant(const struct rrun_ruby *rb)
{
    return rb->yjit ? rb->facts.invariant_yjit : INVARIANT_NONE;
}

static enum scn_insn_counter actual_counter(const struct rrun_ruby *rb)
{
    return rb->has_jit ? rb->facts.insn_counter_jit : COUNTER_NONE;
}

/* Whether a cap of shared native threads would hold back a non-main Ractor. */
static bool cap_binds(const struct scenario *scn, enum scn_snt_cap cap)
{
    int snt = scn->runtime.max_cpu - (cap == SNT_CAP_MINUS_ONE ? 1 : 0);
    return scn->total_ractors - 1 > snt;
}

#define NOTE "; runtime.ruby sets what a version does (scenarios/README.md, \"Ruby versions\")"

int rrun_check_settings(const struct scenario *scn, const struct rrun_ruby *rb, char *err, size_t errlen)
{
    const struct scn_runtime *r = &scn->runtime;
    const struct rver_facts *f = &rb->facts;
    const char *v = rb->version;
    if (asked(scn, RT_GVL_POLICY) && r->gvl_policy != f->gvl_policy)
        return gv_fail(err, errlen, GV_EUNSUP,
                       "runtime.gvl_policy = %s: Ruby %s hands the GVL over as \"%s\"; run it with "
                       "--set runtime.gvl_policy=%s" NOTE,
                       scn_policy_name(r->gvl_policy), v, scn_policy_name(f->gvl_policy),
                       scn_policy_name(f->gvl_policy));
    if (asked(scn, RT_YJIT) && r->yjit && !rb->has_yjit)
        return gv_fail(err, errlen, GV_EUNSUP, "runtime.yjit = true: this Ruby %s was built without YJIT", v);
    if (asked(scn, RT_YJIT) && !r->yjit && rb->yjit)
        return gv_fail(err, errlen, GV_EUNSUP,
                       "runtime.yjit = false, but YJIT is on (--ruby-opt or RUBY_YJIT_ENABLE)");
    if (asked(scn, RT_INVARIANT_CHECK) && scn_has(scn, OP_ENV_ESCAPE, false) &&
        r->invariant_check != actual_invariant(rb)) {
        if (r->invariant_check == f->invariant_yjit && !rb->yjit)
            return gv_fail(err, errlen, GV_EUNSUP,
                           "runtime.invariant_check = %s needs YJIT on Ruby %s: add --set runtime.yjit=true",
                           scn_invariant_name(r->invariant_check), v);
        return gv_fail(err, errlen, GV_EUNSUP,
                       "runtime.invariant_check = %s: an env escape on Ruby %s with YJIT %s costs \"%s\"%s%s%s; "
                       "run it with --set runtime.invariant_check=%s" NOTE,
                       scn_invariant_name(r->invariant_check), v, rb->yjit ? "on" : "off",
                       scn_invariant_name(actual_invariant(rb)), rb->yjit ? "" : " (with YJIT on: \"",
                       rb->yjit ? "" : scn_invariant_name(f->invariant_yjit), rb->yjit ? "" : "\")",
                       scn_invariant_name(actual_invariant(rb)));
    }
    if (asked(scn, RT_INSN_COUNTER) && scn_has(scn, OP_COMPUTE, true) && r->insn_counter != actual_counter(rb))
        return gv_fail(err, errlen, GV_EUNSUP,
                       "runtime.insn_counter = %s: Ruby %s%s counts instructions as \"%s\"; run it with "
                       "--set runtime.insn_counter=%s" NOTE,
                       scn_counter_name(r->insn_counter), v, rb->has_jit ? "" : " (built without a JIT)",
                       scn_counter_name(actual_counter(rb)), scn_counter_name(actual_counter(rb)));
    if (asked(scn, RT_ALLOC_COUNTERS) &&
        (scn_has(scn, OP_ALLOC, false) || scn_has(scn, OP_ENV_ESCAPE, false) || scn_has(scn, OP_SYSCALL, true)) &&
        r->alloc_counters != f->alloc_counters)
        return gv_fail(err, errlen, GV_EUNSUP,
                       "runtime.alloc_counters = %s: Ruby %s keeps its allocation counters \"%s\"; run it with "
                       "--set runtime.alloc_counters=%s" NOTE,
                       scn_alloc_counters_name(r->alloc_counters), v, scn_alloc_counters_name(f->alloc_counters),
                       scn_alloc_counters_name(f->alloc_counters));
    if (asked(scn, RT_QUANTUM) && r->quantum != 100 * SIM_MS &&
        (!f->quantum_env || r->quantum % SIM_MS != 0))
        return gv_fail(err, errlen, GV_EUNSUP,
                       "runtime.quantum = %.3f ms: %s", (double)r->quantum / (double)SIM_MS,
                       f->quantum_env ? "RUBY_THREAD_TIMESLICE takes whole milliseconds"
                                      : "the quantum is a constant 100 ms before Ruby 3.4");
    if (asked(scn, RT_TIMER_TICK) && r->timer_tick != 10 * SIM_MS)
        return gv_fail(err, errlen, GV_EUNSUP,
                       "runtime.timer_tick = %.3f ms: CRuby's timer period is a constant (10 ms from 3.3; "
                       "no tick in the GVL of 3.0-3.2)", (double)r->timer_tick / (double)SIM_MS);
    if (asked(scn, RT_EVENT_HOOK) && r->event_hook > 0)
        return gv_fail(err, errlen, GV_EUNSUP,
                       "runtime.event_hook = %.3f us: the Ruby backend runs the program without a tracer's "
                       "thread-event hook; run it with --set runtime.event_hook=0",
                       (double)r->event_hook / (double)SIM_US);
    if (!f->pop_timeout && scn_has(scn, OP_QUEUE_POP, true))
        return gv_fail(err, errlen, GV_EUNSUP,
                       "queue_pop with a timeout: Ruby %s has no Queue#pop(timeout:) (3.2 and later)", v);
    if (asked(scn, RT_MN_MAIN) && r->mn_main && !f->mn)
        return gv_fail(err, errlen, GV_EUNSUP, "runtime.mn_main = true: Ruby %s has no M:N threads (3.3 and later)", v);
    if (!f->mn && (asked(scn, RT_MAX_CPU) || asked(scn, RT_SNT_CAP)) && cap_binds(scn, r->snt_cap))
        return gv_fail(err, errlen, GV_EUNSUP,
                       "runtime.max_cpu = %d caps the %d worker Ractors, but Ruby %s has no M:N threads "
                       "(every Ractor runs on its own native thread)",
                       r->max_cpu, scn->total_ractors - 1, v);
    if (f->mn && asked(scn, RT_SNT_CAP) && r->snt_cap != f->snt_cap &&
        (cap_binds(scn, r->snt_cap) || cap_binds(scn, f->snt_cap)))
        return gv_fail(err, errlen, GV_EUNSUP,
                       "runtime.snt_cap = %s: Ruby %s caps shared native threads as \"%s\"; run it with "
                       "--set runtime.snt_cap=%s" NOTE,
                       scn_snt_cap_name(r->snt_cap), v, scn_snt_cap_name(f->snt_cap), scn_snt_cap_name(f->snt_cap));
    return GV_OK;
}

/* The environment variables that honour asked-for settings. */
static int settings_env(const struct scenario *scn, const struct rrun_ruby *rb, char set[][48])
{
    int n = 0;
    const struct scn_runtime *r = &scn->runtime;
    if (rb->facts.mn && asked(scn, RT_MAX_CPU)) snprintf(set[n++], 48, "RUBY_MAX_CPU=%d", r->max_cpu);
    if (rb->facts.mn && asked(scn, RT_MN_MAIN)) snprintf(set[n++], 48, "RUBY_MN_THREADS=%d", r->mn_main ? 1 : 0);
    if (rb->facts.quantum_env && asked(scn, RT_QUANTUM))
        snprintf(set[n++], 48, "RUBY_THREAD_TIMESLICE=%" PRId64, (int64_t)(r->quantum / SIM_MS));
    return n;
}

/* ---- the program ------------------------------------------------------------ */

static void stat_path_of(const struct scenario *scn, const struct rrun_opts *o, char *buf, size_t len)
{
    if (o && o->stat_path) {
        snprintf(buf, len, "%s", o->stat_path);
        return;
    }
    char real[PATH_MAX];
    if (scn->file && realpath(scn->file, real)) snprintf(buf, len, "%s", real);
    else snprintf(buf, len, "/");
}

int rrun_program(const struct scenario *scn, const struct rrun_opts *o, struct rgen_program *p, char *err,
                 size_t errlen)
{
    char path[PATH_MAX];
    stat_path_of(scn, o, path, sizeof path);
    double spread = o && o->max_spread > 0 ? o->max_spread : 0;
    struct rgen_opts go = { .stat_path = path, .max_spread = spread };
    return rgen_generate(scn, &go, p, err, errlen);
}

/* Append to err the program's stderr, each "program.rb:N" of it followed by
 * the op that line runs. */
static void explain(char *err, size_t errlen, const char *stderr_text, const char *prog_path,
                    const struct rgen_program *p)
{
    size_t len = strlen(err);
    const char *s = tail_of(stderr_text ? stderr_text : "", 6000);
    size_t plen = strlen(prog_path);
    while (*s && len + 1 < errlen) {
        const char *nl = strchr(s, '\n');
        size_t n = nl ? (size_t)(nl - s) : strlen(s);
        /* the line, with the temporary program's path shortened */
        int w = snprintf(err + len, errlen - len, "\n  | ");
        if (w < 0) break;
        len = strlen(err);
        for (const char *q = s; q < s + n && len + 1 < errlen;) {
            if (!strncmp(q, prog_path, plen)) {
                len += (size_t)snprintf(err + len, errlen - len, "program.rb");
                q += plen;
            } else {
                err[len++] = *q++;
                err[len] = '\0';
            }
        }
        len = strlen(err);
        /* the ops on this line of the report */
        int shown = 0;
        for (const char *q = s; q < s + n && len + 1 < errlen; q++) {
            if (strncmp(q, prog_path, plen) != 0 || q[plen] != ':') continue;
            int ln = atoi(q + plen + 1);
            const struct scn_op *op = rgen_op_at(p, ln);
            if (op && ln != shown) {
                shown = ln;
                snprintf(err + len, errlen - len, "\n  |   (program line %d runs %s %s, line %d)", ln,
                         scn_op_name(op->kind), op->path, op->line);
                len = strlen(err);
            }
        }
        s += n + (nl ? 1 : 0);
    }
}

static double num(const cJSON *o, const char *key, bool *ok)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    if (!cJSON_IsNumber(v)) {
        *ok = false;
        return 0;
    }
    return v->valuedouble;
}

/* A count the program reported: an integer 0..2^53 (what a JSON number
 * holds exactly; also keeps nanoseconds x 1000 within sim_time). */
static uint64_t count(const cJSON *o, const char *key, bool *ok)
{
    double d = num(o, key, ok);
    if (!(d >= 0) || d > 9007199254740992.0) {
        *ok = false;
        return 0;
    }
    return (uint64_t)llround(d);
}

static int parse_result(const struct scenario *scn, const char *text, struct rrun_report *rep, char *err,
                        size_t errlen)
{
    /* the loader's parser: strict, and no global error state (cJSON_Parse
     * keeps one) */
    cJSON *j = NULL;
    struct jpos_table *pos = NULL;
    struct diag_list d;
    diag_init(&d);
    int doc;
    char *copy = strdup(text);
    int prc = copy ? jpos_new(&pos) : GV_ENOMEM;
    if (prc == GV_OK) prc = jpos_add_doc(pos, "report", copy, strlen(copy), &doc);
    else free(copy);
    if (prc == GV_OK) prc = jpos_parse(pos, doc, 0, &j, &d);
    jpos_free(pos);
    diag_free(&d);
    if (prc == GV_ENOMEM) return gv_fail(err, errlen, GV_ENOMEM, "out of memory reading the Ruby program's report");
    if (!j) return gv_fail(err, errlen, GV_ERUN, "the Ruby program's report is not JSON: %.200s", text);
    bool ok = true;
    struct run_metrics *m = &rep->m;
    rep->ns_per_iter = num(j, "ns_per_iter", &ok);
    rep->ns_min = num(j, "ns_min", &ok);
    rep->ns_max = num(j, "ns_max", &ok);
    rep->spread = num(j, "spread", &ok);
    rep->iqr = num(j, "iqr", &ok);
    rep->noloop_ns = num(j, "noloop_ns", &ok);
    rep->one_ns = num(j, "one_ns", &ok);
    rep->knee_ns = num(j, "knee_ns", &ok);
    rep->attempts = (int)num(j, "attempts", &ok);
    rep->insns_per_iter = (int)num(j, "insns_per_iter", &ok);
    rep->insns_fixed = (int)num(j, "insns_fixed", &ok);
    m->wall = (sim_time)count(j, "wall_ns", &ok) * SIM_NS;
    m->cpu = (sim_time)count(j, "cpu_ns", &ok) * SIM_NS;
    rep->gc_count = count(j, "gc_count", &ok);
    double gc_ms = num(j, "gc_time_ms", &ok);
    rep->gc_time_s = gc_ms >= 0 ? gc_ms / 1000.0 : -1;
    m->ops = count(j, "ops", &ok);
    m->syscalls = count(j, "syscalls", &ok);
    rep->insns = count(j, "insns", &ok);
    m->vol_switches = count(j, "vol_switches", &ok);
    m->invol_switches = count(j, "invol_switches", &ok);
    m->main_vol_switches = count(j, "main_vol_switches", &ok);
    m->native_threads = count(j, "native_threads", &ok);
    uint64_t threads = count(j, "threads", &ok);
    m->timeouts = count(j, "timeouts", &ok);
    m->gc_count = rep->gc_count;
    /* the measures: [count, mean, p50, p90, p99, max] in ns, one per
     * declared measure, in declaration order */
    const cJSON *ms = cJSON_GetObjectItemCaseSensitive(j, "measures");
    if (!cJSON_IsArray(ms) || cJSON_GetArraySize(ms) != scn->nmeasures) ok = false;
    if (ok && scn->nmeasures > 0) {
        m->measures = calloc((size_t)scn->nmeasures, sizeof *m->measures);
        if (!m->measures) {
            cJSON_Delete(j);
            return gv_fail(err, errlen, GV_ENOMEM, "out of memory");
        }
        m->nmeasures = scn->nmeasures;
    }
    for (int k = 0; ok && k < scn->nmeasures; k++) {
        const cJSON *a = cJSON_GetArrayItem(ms, k);
        double v[6];
        for (int f = 0; f < 6; f++) {
            const cJSON *x = cJSON_IsArray(a) ? cJSON_GetArrayItem(a, f) : NULL;
            if (!cJSON_IsNumber(x) || !(x->valuedouble >= 0)) ok = false;
            v[f] = ok ? x->valuedouble : 0;
        }
        struct run_measure *r = &m->measures[k];
        r->name = scn->measures[k].name;
        r->count = (uint64_t)llround(v[0]);
        r->mean = (sim_time)llround(v[1]) * SIM_NS;
        r->p50 = (sim_time)llround(v[2]) * SIM_NS;
        r->p90 = (sim_time)llround(v[3]) * SIM_NS;
        r->p99 = (sim_time)llround(v[4]) * SIM_NS;
        r->max = (sim_time)llround(v[5]) * SIM_NS;
    }
    const cJSON *st = cJSON_GetObjectItemCaseSensitive(j, "stopped");
    rep->stopped_at_time = cJSON_IsTrue(st);
    const cJSON *ro = cJSON_GetObjectItemCaseSensitive(j, "ractor_ops");
    if (!cJSON_IsArray(ro) || cJSON_GetArraySize(ro) != scn->total_ractors) ok = false;
    for (int i = 0; ok && i < scn->total_ractors; i++) {
        const cJSON *x = cJSON_GetArrayItem(ro, i);
        if (!cJSON_IsNumber(x) || x->valuedouble < 0) ok = false;
        else rep->ractor_ops_buf[i] = (uint64_t)llround(x->valuedouble);
    }
    /* spawned threads that never started do not report: at most the
     * scenario's threads, the generators' included */
    int most = scn->total_threads + scn->ngenerators;
    if (ok && (threads > (uint64_t)most || threads == 0)) {
        cJSON_Delete(j);
        return gv_fail(err, errlen, GV_ERUN, "the Ruby program reported %" PRIu64 " threads, the scenario has %d",
                       threads, most);
    }
    rep->threads = (int)threads;
    cJSON_Delete(j);
    if (!ok) return gv_fail(err, errlen, GV_ERUN, "the Ruby program's report lacks a field: %.300s", text);
    return GV_OK;
}

/* What a Ruby program cannot observe from inside. */
static const enum metric_id unmeasured[] = {
    MET_GVL_HANDOFFS, MET_WAKEUPS,  MET_WASTED_WAKES,   MET_TIMER_TICKS,    MET_BARRIERS,
    MET_VMLOCK_ACQUIRES, MET_VMLOCK_WAITS, MET_LINE_TRANSFERS, MET_MUTEX_WAITS, MET_ENGINE_EVENTS,
};

static void fill_metrics(const struct scenario *scn, struct rrun_report *rep)
{
    struct run_metrics *m = &rep->m;
    const struct rrun_ruby *rb = &rep->ruby;
    snprintf(rep->engine, sizeof rep->engine, "ruby %s%s", rb->version, rb->yjit ? " +YJIT" : "");
    scn_metrics_describe(scn, m);
    m->backend = "ruby";
    m->engine = rep->engine;
    /* what this Ruby does, not what the scenario asked (rrun_check_settings
     * refused what it asked and cannot have) */
    m->policy = scn_policy_name(rb->facts.gvl_policy);
    m->invariant_check = scn_invariant_name(actual_invariant(rb));
    m->insn_counter = scn_counter_name(actual_counter(rb));
    m->ractors = scn->total_ractors;
    m->threads = rep->threads;
    m->ractor_ops = rep->ractor_ops_buf;
    m->nractor_ops = scn->total_ractors;
    /* no state times; the GC's clock when the Ruby reports it:
     * GC.stat(:time) (3.1+), which gc.c's gc_enter_clock reads from the
     * process's CPU clock (current_process_time), from before the
     * collection's rb_vm_barrier to its end - the other Ractors' CPU until
     * they stop is in it too, as the kernel accounts it (sim/machine.h
     * mach_cpu_clock_read) - so not the GC's own time (gc_s) */
    if (rep->gc_time_s >= 0) m->gc_clock = (sim_sum)sim_round(rep->gc_time_s * (double)SIM_S);
    else metrics_set_unmeasured(m, MET_GC_CLOCK);
    for (int s = 0; s < TS_COUNT; s++) metrics_set_unmeasured(m, (enum metric_id)(MET_STATE_TIME + s));
    for (size_t i = 0; i < sizeof unmeasured / sizeof unmeasured[0]; i++) metrics_set_unmeasured(m, unmeasured[i]);
}

/* The child's exit, as an error with its stderr (GV_ERUN). */
static int child_failed(const struct child *c, const struct scenario *scn, double timeout, const char *errtext,
                        const struct tmpdir *t, const struct rgen_program *p, char *err, size_t errlen)
{
    if (c->timed_out)
        gv_fail(err, errlen, GV_ERUN,
                "%s: watchdog: the Ruby program did not finish within %g s (--timeout); stopped it. "
                "Its threads and stderr:", scn->file, timeout);
    else if (errtext && strstr(errtext, "No live threads left. Deadlock"))
        gv_fail(err, errlen, GV_ERUN,
                "%s: deadlock: Ruby found every thread of the main Ractor waiting forever:", scn->file);
    else if (WIFEXITED(c->status) && WEXITSTATUS(c->status) == RGEN_EXIT_CALIBRATION)
        gv_fail(err, errlen, GV_ERUN, "%s: the Ruby program stopped:", scn->file);
    else if (WIFSIGNALED(c->status))
        gv_fail(err, errlen, GV_ERUN, "%s: the Ruby program died of signal %d:", scn->file, WTERMSIG(c->status));
    else
        gv_fail(err, errlen, GV_ERUN, "%s: the Ruby program failed (exit %d):", scn->file,
                WIFEXITED(c->status) ? WEXITSTATUS(c->status) : -1);
    explain(err, errlen, errtext, t->prog, p);
    return GV_ERUN;
}

int rrun_run(const struct scenario *scn, const struct rrun_opts *o, struct rrun_report *rep, char *err,
             size_t errlen)
{
    memset(rep, 0, sizeof *rep);
    rep->gc_time_s = -1;
    int rc = rgen_check(scn, err, errlen);
    if (rc != GV_OK) return rc;
    rep->ractor_ops_buf = calloc((size_t)scn->total_ractors, sizeof *rep->ractor_ops_buf);
    if (!rep->ractor_ops_buf) return gv_fail(err, errlen, GV_ENOMEM, "out of memory");

    /* machine.cores: pin this thread; the children inherit the mask */
    struct exec_affinity aff;
    rc = exec_affinity_pin(&aff, scn->machine.cores, err, errlen);
    if (rc != GV_OK) return rc;
    bool add_yjit = (scn->runtime.asked >> RT_YJIT & 1u) && scn->runtime.yjit;
    rc = rrun_probe(o, add_yjit, &rep->ruby, err, errlen);
    if (rc == GV_OK) rc = rrun_check_settings(scn, &rep->ruby, err, errlen);
    struct rgen_program prog = { 0 };
    if (rc == GV_OK) rc = rrun_program(scn, o, &prog, err, errlen);
    struct tmpdir t;
    bool have_dir = false;
    if (rc == GV_OK) have_dir = (rc = tmpdir_make(&t, err, errlen)) == GV_OK;
    if (rc == GV_OK) rc = write_file(t.prog, prog.text, prog.len, err, errlen);
    struct child c = { 0 };
    double timeout = o && o->timeout_s > 0 ? o->timeout_s : DEFAULT_TIMEOUT_S;
    if (rc == GV_OK) {
        char set[4][48];
        char *setp[4];
        int nset = settings_env(scn, &rep->ruby, set);
        for (int i = 0; i < nset; i++) setp[i] = set[i];
        const char *tail[] = { t.prog, t.result };
        char **argv = make_argv(o, add_yjit, tail, 2);
        char **env = make_env(setp, nset);
        if (!argv || !env) rc = gv_fail(err, errlen, GV_ENOMEM, "out of memory");
        else rc = run_child(argv, env, t.out, t.errf, timeout, &c, err, errlen);
        free(argv);
        free(env);
    }
    exec_affinity_restore(&aff);
    if (rc == GV_OK) {
        char *errtext = slurp(t.errf);
        if (c.timed_out || !WIFEXITED(c.status) || WEXITSTATUS(c.status) != 0) {
            rc = child_failed(&c, scn, timeout, errtext, &t, &prog, err, errlen);
        } else {
            char *result = slurp(t.result);
            if (!result) rc = gv_fail(err, errlen, GV_ERUN, "the Ruby program wrote no report (%s)", t.result);
            else rc = parse_result(scn, result, rep, err, errlen);
            free(result);
            if (errtext && *errtext) {
                rep->ruby_stderr = errtext;
                errtext = NULL;
            }
        }
        free(errtext);
    }
    if (have_dir) tmpdir_remove(&t);
    rgen_program_free(&prog);
    if (rc == GV_OK) fill_metrics(scn, rep);
    return rc;
}

void rrun_report_free(struct rrun_report *rep)
{
    free(rep->ractor_ops_buf);
    free(rep->ruby_stderr);
    free(rep->m.measures);
    rep->m.measures = NULL;
    rep->m.nmeasures = 0;
    rep->ractor_ops_buf = NULL;
    rep->ruby_stderr = NULL;
    rep->m.ractor_ops = NULL;
}

void rrun_summary_write(FILE *f, const struct rrun_report *rep)
{
    fprintf(f, "  ruby: %s\n", rep->ruby.description);
    fprintf(f, "  busy loop: %.3f ns/iteration (the mean of 48 samples, min %.3f, max %.3f, uncertain by %.1f%%, "
               "interquartile range %.1f%% of the median; %d attempt%s); a compute costs %.0f ns with no loop, "
               "%.0f ns with 1 iteration, %.0f ns with 64\n",
            rep->ns_per_iter, rep->ns_min, rep->ns_max, 100.0 * rep->spread, 100.0 * rep->iqr, rep->attempts,
            rep->attempts == 1 ? "" : "s", rep->noloop_ns, rep->one_ns, rep->knee_ns);
    if (rep->insns)
        fprintf(f, "  instructions: %" PRIu64 " executed (%d per loop iteration + %d per compute, from the "
                   "loop's instruction sequence)\n",
                rep->insns, rep->insns_per_iter, rep->insns_fixed);
    if (rep->gc_time_s >= 0)
        fprintf(f, "  GC: %" PRIu64 " runs, %.3f s\n", rep->gc_count, rep->gc_time_s);
    else
        fprintf(f, "  GC: %" PRIu64 " runs\n", rep->gc_count);
    if (rep->stopped_at_time) fprintf(f, "  stopped at stop.time\n");
    if (rep->ruby_stderr) fprintf(f, "  ruby's stderr:\n%s", rep->ruby_stderr);
}
