/* cmd_help.c - `gvlsim help`: every command's help, the man page and the
 * bash completion's word lists, all printed from the command table and
 * the option tables (cli/args.h), so that none of them can drift from
 * what the parser accepts. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/err.h"
#include "../input/scenario.h"
#include "../input/schema.h"
#include "cli.h"
#include "options.h"

static int help_exec(const struct args *a);

static const struct args_opt help_opts[] = {
    { .name = "man", .kind = ARGS_FLAG,
      .help = "print the manual page (roff) of gvlsim and every command" },
    { .name = "completion-data", .kind = ARGS_FLAG,
      .help = "print the commands, options and scenario keys as bash\n"
              "variables (the data of the bash completion script)" },
    CLI_OPT_END,
};

const struct cli_command cli_cmd_help = {
    .name = "help",
    .usage = "[COMMAND] [--man]",
    .summary = "list the commands, or a command's options (like `gvlsim COMMAND --help`)",
    .args = { help_opts, "COMMAND", 0, 1 },
    .exit_status = "0 ok, 2 unknown command or usage error, 5 output not written.",
    .exec = help_exec,
};

/* ---- gvlsim itself -------------------------------------------------------- */

static const char *const description =
    "gvlsim explains and predicts why a language runtime gets slower when it is\n"
    "given more cores.  It simulates CPU cores with an OS scheduler, CRuby's\n"
    "per-Ractor GVL and its policies around blocking system calls, the VM lock\n"
    "with its stop-the-world barrier, M:N threads and a contended cache line;\n"
    "it replays scenario files (JSON) and writes one result row per run.  A\n"
    "pthread executor runs the same scenario files on real threads and writes\n"
    "the same columns.";

static const char *const conventions =
    "Every command takes -h/--help, and options as --name VALUE, --name=VALUE\n"
    "(needed for a value that starts with '-') or -x VALUE, in any order\n"
    "around its arguments; -- ends the options.  An option that takes a value\n"
    "is given once, unless it is marked (repeatable).";

static const struct args_opt global_opts[] = {
    { .name = "help", .short_name = 'h', .kind = ARGS_FLAG,
      .help = "list the commands (`gvlsim COMMAND --help`: a command's options)" },
    { .name = "version", .short_name = 'V', .kind = ARGS_FLAG,
      .help = "print gvlsim's version and exit" },
    CLI_OPT_END,
};

static const char *const environment =
    "GVLSIM_MACHINES  a colon-separated list of directories of machine profiles\n"
    "                 (NAME.json), searched after the --machines directories\n"
    "                 and the scenario's own machines/ directory.";

static const char *const exit_codes[][2] = {
    { "0", "success" },
    { "1", "compare: a metric moved beyond its tolerance (a regression)" },
    { "2", "usage error: an unknown option, a missing or malformed value" },
    { "3", "invalid input: a scenario (each problem as FILE:LINE:COL: /json/pointer: message), or result rows (compare, merge)" },
    { "4", "the run failed: deadlock, simulated time limit, watchdog" },
    { "5", "I/O error: a file that cannot be read, an output that cannot be written" },
    { "6", "out of memory" },
    { "7", "not supported by this build" },
};
#define NEXIT (sizeof exit_codes / sizeof *exit_codes)

/* ---- help texts ------------------------------------------------------------ */

#define LABEL_MAX 22   /* longer labels put their help on the next line */

static void print_opt(FILE *f, const struct args_opt *o, int width)
{
    char label[160];
    args_opt_label(o, label, sizeof label);
    const char *h = o->help ? o->help : "";
    bool own_line = (int)strlen(label) > width;
    fprintf(f, "  %-*s", own_line ? 0 : width, label);
    for (bool first = true; first || *h; first = false) {
        size_t n = strcspn(h, "\n");
        if (!first || own_line) fprintf(f, "\n  %-*s", width, "");
        fprintf(f, "  %.*s", (int)n, h);
        h += n;
        if (*h) h++;
        if (!*h && (o->flags & ARGS_REPEAT)) fputs(" (repeatable)", f);
    }
    fputc('\n', f);
}

static int label_width(const struct args_opt *opts)
{
    int w = (int)strlen("-h, --help");
    for (const struct args_opt *o = opts; o && o->name; o++) {
        char label[160];
        args_opt_label(o, label, sizeof label);
        int n = (int)strlen(label);
        if (n > w && n <= LABEL_MAX) w = n;
    }
    return w;
}

static void print_overview(FILE *f)
{
    fprintf(f, "usage: gvlsim COMMAND [ARGS...]\n"
               "       gvlsim help [COMMAND]\n"
               "       gvlsim --version\n\n%s\n\ncommands:\n", description);
    for (size_t i = 0; cli_commands[i]; i++)
        fprintf(f, "  %-7s %s\n          %s\n", cli_commands[i]->name, cli_commands[i]->usage,
                cli_commands[i]->summary);
    fprintf(f, "\noptions:\n");
    int w = label_width(global_opts);
    for (const struct args_opt *o = global_opts; o->name; o++) print_opt(f, o, w);
    fprintf(f, "\n%s\n\nenvironment:\n", conventions);
    for (const char *p = environment; *p;) {
        size_t n = strcspn(p, "\n");
        fprintf(f, "  %.*s\n", (int)n, p);
        p += n + (p[n] ? 1 : 0);
    }
    fprintf(f, "\nexit status:\n");
    for (size_t i = 0; i < NEXIT; i++) fprintf(f, "  %s  %s\n", exit_codes[i][0], exit_codes[i][1]);
}

void cli_print_help(FILE *f, const struct cli_command *cmd)
{
    if (!cmd) {
        print_overview(f);
        return;
    }
    fprintf(f, "usage: gvlsim %s %s\n%s\n", cmd->name, cmd->usage, cmd->summary);
    if (cmd->description) fprintf(f, "\n%s\n", cmd->description);
    fprintf(f, "\noptions:\n");
    int w = label_width(cmd->args.opts);
    for (const struct args_opt *o = cmd->args.opts; o && o->name; o++) print_opt(f, o, w);
    const struct args_opt help = { .name = "help", .short_name = 'h', .kind = ARGS_FLAG,
                                   .help = "this help" };
    print_opt(f, &help, w);
    if (cmd->details) fprintf(f, "\n%s\n", cmd->details);
    fprintf(f, "\nexit status: %s\n", cmd->exit_status);
}

/* ---- the man page ------------------------------------------------------- */

/* Text for roff: backslashes and hyphens escaped, a leading '.' or '\''
 * protected. */
static void roff_text(FILE *f, const char *s, size_t n)
{
    if (n && (s[0] == '.' || s[0] == '\'')) fputs("\\&", f);
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '\\') fputs("\\e", f);
        else if (s[i] == '-') fputs("\\-", f);
        else fputc(s[i], f);
    }
}

static void roff_line(FILE *f, const char *s)
{
    roff_text(f, s, strlen(s));
    fputc('\n', f);
}

/* Paragraphs of a help text: blank lines separate paragraphs, lines that
 * start with two spaces are kept as they are (examples, tables). */
static void roff_prose(FILE *f, const char *text)
{
    bool literal = false;
    fputs(".PP\n", f);
    for (const char *p = text; *p;) {
        size_t n = strcspn(p, "\n");
        bool blank = n == 0, indented = n >= 2 && p[0] == ' ' && p[1] == ' ';
        if (literal && !indented) {
            fputs(".fi\n.RE\n", f);
            literal = false;
        }
        if (blank) {
            fputs(".PP\n", f);
        } else if (indented) {
            if (!literal) fputs(".RS 2\n.nf\n", f);
            literal = true;
            roff_text(f, p + 2, n - 2);
            fputc('\n', f);
        } else {
            roff_text(f, p, n);
            fputc('\n', f);
        }
        p += n + (p[n] ? 1 : 0);
    }
    if (literal) fputs(".fi\n.RE\n", f);
}

static void roff_opt(FILE *f, const struct args_opt *o)
{
    char mv[128];
    args_metavar(o, mv, sizeof mv);
    fputs(".TP\n", f);
    if (o->short_name) fprintf(f, "\\fB\\-%c\\fR, ", o->short_name);
    fputs("\\fB\\-\\-", f);
    roff_text(f, o->name, strlen(o->name));
    fputs("\\fR", f);
    if (*mv) {
        fputs(" \\fI", f);
        roff_text(f, mv, strlen(mv));
        fputs("\\fR", f);
    }
    fputc('\n', f);
    for (const char *p = o->help ? o->help : ""; *p;) {
        size_t n = strcspn(p, "\n");
        roff_text(f, p, n);
        fputc('\n', f);
        p += n + (p[n] ? 1 : 0);
    }
    if (o->flags & ARGS_REPEAT) fputs("(repeatable)\n", f);
}

static void roff_usage(FILE *f, const struct cli_command *c)
{
    fputs("\\fBgvlsim ", f);
    roff_text(f, c->name, strlen(c->name));
    fputs("\\fR ", f);
    roff_line(f, c->usage);
}

static void print_man(FILE *f)
{
    fprintf(f, ".\\\" gvlsim(1), generated by `gvlsim help --man` from the command tables.\n"
               ".TH GVLSIM 1 \"\" \"gvlsim %s\" \"User Commands\"\n"
               ".nh\n.ad l\n"
               ".SH NAME\n"
               "gvlsim \\- explain and predict why a runtime gets slower with more cores\n"
               ".SH SYNOPSIS\n", GVLSIM_VERSION);
    for (size_t i = 0; cli_commands[i]; i++) {
        if (i) fputs(".br\n", f);
        roff_usage(f, cli_commands[i]);
    }
    fputs(".br\n\\fBgvlsim \\-\\-version\\fR\n.SH DESCRIPTION\n", f);
    roff_prose(f, description);
    roff_prose(f, conventions);
    fputs(".SH OPTIONS\n", f);
    for (const struct args_opt *o = global_opts; o->name; o++) roff_opt(f, o);
    fputs(".SH COMMANDS\n", f);
    for (size_t i = 0; cli_commands[i]; i++) {
        const struct cli_command *c = cli_commands[i];
        fputs(".SS ", f);
        roff_text(f, c->name, strlen(c->name));
        fputs("\n", f);
        roff_usage(f, c);
        fputs(".PP\n", f);
        roff_line(f, c->summary);
        if (c->description) roff_prose(f, c->description);
        for (const struct args_opt *o = c->args.opts; o && o->name; o++) roff_opt(f, o);
        const struct args_opt help = { .name = "help", .short_name = 'h', .kind = ARGS_FLAG,
                                       .help = "this command's help" };
        roff_opt(f, &help);
        if (c->details) roff_prose(f, c->details);
        fputs(".PP\nExit status: ", f);
        roff_line(f, c->exit_status);
    }
    fputs(".SH ENVIRONMENT\n", f);
    roff_prose(f, environment);
    fputs(".SH EXIT STATUS\n", f);
    for (size_t i = 0; i < NEXIT; i++) {
        fprintf(f, ".TP\n.B %s\n", exit_codes[i][0]);
        roff_line(f, exit_codes[i][1]);
    }
    fputs(".SH FILES\n", f);
    roff_prose(f, "The scenario format, the result columns and the models are documented in\n"
                  "README.md, scenarios/README.md and docs/ of the source tree (installed\n"
                  "under share/doc/gvlsim); example scenarios and machine profiles are\n"
                  "installed under share/gvlsim/scenarios.");
}

/* ---- the bash completion's data ----------------------------------------- */

/* Text inside a single-quoted shell word ('...'). */
static void sh_text(FILE *f, const char *s)
{
    for (; *s; s++) {
        if (*s == '\'') fputs("'\\''", f);
        else fputc(*s, f);
    }
}

static const char *arg_kind(const struct args_opt *o)
{
    switch (o->kind) {
    case ARGS_FLAG: return "flag";
    case ARGS_PATH: return "file";
    case ARGS_DIR: return "dir";
    case ARGS_INT: return "int";
    case ARGS_SECONDS: return "time";
    case ARGS_ENUM: return (o->flags & ARGS_LIST) ? "list" : "enum";
    case ARGS_KV:
    case ARGS_STRING: return (o->flags & ARGS_KEYPATH) ? "setkey" : "text";
    }
    return "text";
}

static void completion_opt(FILE *f, const char *cmd, const char *opt, const struct args_opt *o)
{
    fprintf(f, "  [%s %s]='%s", cmd, opt, arg_kind(o));
    for (size_t i = 0; o->kind == ARGS_ENUM && args_enum_value(o, i); i++) {
        fputc(' ', f);
        sh_text(f, args_enum_value(o, i));
    }
    fputs("'\n", f);
}

/* Scenario keys as --set paths, '#' standing for an array index. */
enum walk_mode { WALK_KEYS, WALK_VALUES };

struct walk {
    FILE *f;
    enum walk_mode mode;
};

static void walk_obj(struct walk *w, const struct sch_obj *o, const char *prefix, int ops_depth);

static void leaf(struct walk *w, const char *path, const struct sch_key *k, const char *values)
{
    if (w->mode == WALK_KEYS) {
        fprintf(w->f, " %s", path);
        return;
    }
    if (!values && k->kind == SCH_BOOL) values = "true false";
    if (!values && k->kind == SCH_TRUE) values = "true";
    if (!values && k->kind != SCH_ENUM) return;
    fprintf(w->f, "  [%s]='", path);
    if (values) {
        sh_text(w->f, values);
    } else {
        for (size_t i = 0; k->values[i]; i++) {
            if (i) fputc(' ', w->f);
            sh_text(w->f, k->values[i]);
        }
    }
    fputs("'\n", w->f);
}

/* The keys of every op kind at `prefix` (an op's keys depend on its "op"). */
static void walk_ops(struct walk *w, const char *prefix, int ops_depth)
{
    const char *seen[64];
    int nseen = 0;
    char opnames[512] = "";
    for (int k = 0; k < OP_KIND_COUNT; k++) {
        size_t len = strlen(opnames);
        snprintf(opnames + len, sizeof opnames - len, "%s%s", k ? " " : "",
                 scn_op_name((enum scn_op_kind)k));
    }
    for (int k = 0; k < OP_KIND_COUNT; k++) {
        const struct sch_obj *o = sch_op(k);
        for (int i = 0; i < o->nkeys; i++) {
            const struct sch_key *key = &o->keys[i];
            bool dup = false;
            for (int j = 0; j < nseen; j++) dup = dup || strcmp(seen[j], key->name) == 0;
            if (dup || nseen == 64) continue;
            seen[nseen++] = key->name;
            char path[512];
            /* (never that long: three levels of short key names) */
            if (snprintf(path, sizeof path, "%s%s", prefix, key->name) >= (int)sizeof path) continue;
            if (key->kind == SCH_OPS) {
                if (ops_depth < 3) {
                    char sub[520];
                    snprintf(sub, sizeof sub, "%s.#.", path);
                    walk_ops(w, sub, ops_depth + 1);
                }
            } else {
                leaf(w, path, key, strcmp(key->name, "op") == 0 ? opnames : NULL);
            }
        }
    }
}

static void walk_obj(struct walk *w, const struct sch_obj *o, const char *prefix, int ops_depth)
{
    for (int i = 0; i < o->nkeys; i++) {
        const struct sch_key *k = &o->keys[i];
        char path[512], sub[520];
        snprintf(path, sizeof path, "%s%s", prefix, k->name);
        switch (k->kind) {
        case SCH_OBJECT:
            snprintf(sub, sizeof sub, "%s.", path);
            walk_obj(w, k->obj, sub, ops_depth);
            break;
        case SCH_ARRAY:
            snprintf(sub, sizeof sub, "%s.#.", path);
            walk_obj(w, k->obj, sub, ops_depth);
            break;
        case SCH_OPS:
            snprintf(sub, sizeof sub, "%s.#.", path);
            walk_ops(w, sub, ops_depth + 1);
            break;
        case SCH_MACHINE:
            leaf(w, path, k, "@profiles");
            snprintf(sub, sizeof sub, "%s.", path);
            walk_obj(w, &sch_machine, sub, ops_depth);
            break;
        default:
            leaf(w, path, k, o == &sch_machine && !strcmp(k->name, "profile") ? "@profiles" : NULL);
            break;
        }
    }
}

static void print_completion_data(FILE *f)
{
    fputs("# generated by `gvlsim help --completion-data` from gvlsim's tables\n"
          "_gvlsim_commands='", f);
    for (size_t i = 0; cli_commands[i]; i++) {
        if (i) fputc(' ', f);
        sh_text(f, cli_commands[i]->name);
    }
    fputs("'\n_gvlsim_global_opts='-h --help -V --version'\ndeclare -gA _gvlsim_opts=(\n", f);
    for (size_t i = 0; cli_commands[i]; i++) {
        const struct cli_command *c = cli_commands[i];
        fprintf(f, "  [%s]='", c->name);
        for (const struct args_opt *o = c->args.opts; o && o->name; o++) {
            if (o->short_name) fprintf(f, "-%c ", o->short_name);
            fputs("--", f);
            sh_text(f, o->name);
            fputc(' ', f);
        }
        fputs("-h --help'\n", f);
    }
    fputs(")\n# an option's value: flag, file, dir, int, time, text, setkey (a --set path),\n"
          "# enum V... or list V... (comma-separated)\ndeclare -gA _gvlsim_arg=(\n", f);
    for (size_t i = 0; cli_commands[i]; i++) {
        const struct cli_command *c = cli_commands[i];
        for (const struct args_opt *o = c->args.opts; o && o->name; o++) {
            char opt[80];
            snprintf(opt, sizeof opt, "--%s", o->name);
            completion_opt(f, c->name, opt, o);
            if (o->short_name) {
                snprintf(opt, sizeof opt, "-%c", o->short_name);
                completion_opt(f, c->name, opt, o);
            }
        }
    }
    fputs(")\ndeclare -gA _gvlsim_operand=(\n", f);
    for (size_t i = 0; cli_commands[i]; i++)
        fprintf(f, "  [%s]=%s\n", cli_commands[i]->name,
                cli_commands[i]->args.operand ? cli_commands[i]->args.operand : "none");
    fputs(")\n# scenario keys as --set paths; '#' stands for an array index\n_gvlsim_keys='", f);
    struct walk w = { f, WALK_KEYS };
    walk_obj(&w, &sch_scenario, "", 0);
    fputs("'\n# the values of a key (@profiles: the machine profiles found)\n"
          "declare -gA _gvlsim_key_values=(\n", f);
    w.mode = WALK_VALUES;
    walk_obj(&w, &sch_scenario, "", 0);
    fputs(")\n", f);
}

/* ---- the command ---------------------------------------------------------- */

static int help_exec(const struct args *a)
{
    if (args_has(a, "man") && args_has(a, "completion-data"))
        return cli_usage_error(&cli_cmd_help, "--man and --completion-data exclude each other");
    if ((args_has(a, "man") || args_has(a, "completion-data")) && a->noperands)
        return cli_usage_error(&cli_cmd_help, "--man and --completion-data cover every command");
    if (args_has(a, "man")) print_man(stdout);
    else if (args_has(a, "completion-data")) print_completion_data(stdout);
    else if (a->noperands == 0) cli_print_help(stdout, NULL);
    else {
        const struct cli_command *c = cli_find_command(a->operands[0]);
        if (!c) return cli_unknown_command(&cli_cmd_help, a->operands[0]);
        cli_print_help(stdout, c);
    }
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "gvlsim help: cannot write the output\n");
        return GV_EXIT_IO;
    }
    return GV_EXIT_OK;
}
