/* test_args.c - the command-line parser (cli/args.c) and the command
 * tables it reads: every option kind, every form, every usage error, and
 * the tables of every command checked for what help, man page and
 * completion rely on. */
#include <stdarg.h>

#include "../../cli/args.h"
#include "../../cli/cli.h"
#include "../../common/err.h"
#include "../../common/time.h"
#include "test.h"

static const char *const colours[] = { "red", "green", "blue", NULL };

static int check_even(const char *v, char *err, size_t errlen)
{
    if (strlen(v) % 2 == 0) return 0;
    snprintf(err, errlen, "\"%s\" has an odd length", v);
    return -1;
}

static const struct args_opt opts[] = {
    { .name = "quiet", .short_name = 'q', .kind = ARGS_FLAG, .help = "quiet" },
    { .name = "verbose", .short_name = 'v', .kind = ARGS_FLAG, .help = "verbose" },
    { .name = "title", .kind = ARGS_STRING, .help = "a title" },
    { .name = "output", .short_name = 'o', .kind = ARGS_PATH, .help = "output" },
    { .name = "dir", .kind = ARGS_DIR, .flags = ARGS_REPEAT, .help = "dirs" },
    { .name = "count", .short_name = 'j', .kind = ARGS_INT, .min = 1, .max = 1000, .help = "n" },
    { .name = "seed", .kind = ARGS_INT, .min = 0, .max = INT64_C(1) << 53, .help = "seed" },
    { .name = "limit", .kind = ARGS_INT, .min = -5, .max = 5, .help = "signed" },
    { .name = "time", .kind = ARGS_SECONDS, .min = 1, .max = INT64_C(9000000) * SIM_S, .help = "t" },
    { .name = "colour", .kind = ARGS_ENUM, .values = colours, .help = "one colour" },
    { .name = "colours", .kind = ARGS_ENUM, .flags = ARGS_LIST, .values = colours, .help = "list" },
    { .name = "set", .kind = ARGS_KV, .flags = ARGS_REPEAT, .help = "k=v" },
    { .name = "even", .kind = ARGS_STRING, .check = check_even, .help = "checked" },
    { NULL },
};
static const struct args_spec spec = { opts, "FILE", 0, 2 };

static struct args A;
static char E[512];

/* Parse the NULL-terminated words after "cmd"; returns the status. */
static int parse(const char *first, ...)
{
    char *argv[64];
    int argc = 0;
    argv[argc++] = (char *)"cmd";
    va_list ap;
    va_start(ap, first);
    for (const char *w = first; w; w = va_arg(ap, const char *)) argv[argc++] = (char *)w;
    va_end(ap);
    static char *keep[64];  /* argv must outlive A */
    memcpy(keep, argv, sizeof argv);
    E[0] = 0;
    return args_parse(&spec, argc, keep, &A, E, sizeof E);
}

static void ok(int rc)
{
    if (rc != GV_OK) fprintf(stderr, "unexpected error: %s\n", E);
    ASSERT_EQ(rc, GV_OK);
}

static void usage(int rc, const char *msg)
{
    ASSERT_EQ(rc, GV_EUSAGE);
    ASSERT_STREQ(E, msg);
}

static void test_forms(void)
{
    /* --opt value, --opt=value, -o value, -oVALUE, clusters, operands anywhere */
    ok(parse("a.json", "--title", "T", "--output=x.csv", "-j", "4", "-qv", "b.json", NULL));
    ASSERT_STREQ(args_str(&A, "title", NULL), "T");
    ASSERT_STREQ(args_str(&A, "output", NULL), "x.csv");
    ASSERT_EQ(args_num(&A, "count", 0), 4);
    ASSERT(args_has(&A, "quiet") && args_has(&A, "verbose"));
    ASSERT_EQ(A.noperands, 2);
    ASSERT_STREQ(A.operands[0], "a.json");
    ASSERT_STREQ(A.operands[1], "b.json");
    ASSERT(!A.help);
    args_free(&A);

    ok(parse("-j7", "-ofile", NULL));  /* -j7, -oVALUE */
    ASSERT_EQ(args_num(&A, "count", 0), 7);
    ASSERT_STREQ(args_str(&A, "output", NULL), "file");
    args_free(&A);
    ok(parse("-qj", "9", NULL));       /* a value after a cluster of flags */
    ASSERT_EQ(args_num(&A, "count", 0), 9);
    ASSERT(args_has(&A, "quiet"));
    args_free(&A);
    usage(parse("-j7", "-j", "8", NULL), "option -j given twice (it takes one value)");

    /* values that start with '-': the '=' form, numbers, and "-" itself */
    ok(parse("--title=--yjit", "--limit", "-3", "-o", "-", "--", "-x", NULL));
    ASSERT_STREQ(args_str(&A, "title", NULL), "--yjit");
    ASSERT_EQ(args_num(&A, "limit", 0), -3);
    ASSERT_STREQ(args_str(&A, "output", NULL), "-");
    ASSERT_EQ(A.noperands, 1);
    ASSERT_STREQ(A.operands[0], "-x");   /* after --, an operand */
    args_free(&A);
    usage(parse("--title", "--yjit", NULL),
          "option --title needs a value (for a value that starts with '-', write --title=--yjit)");
    usage(parse("-o", "-q", NULL),
          "option -o needs a value (for a value that starts with '-', write --output=-q)");
    ok(parse("-", "--title=", NULL));       /* "-" is an operand; an empty string is a value */
    ASSERT_STREQ(A.operands[0], "-");
    ASSERT_STREQ(args_str(&A, "title", "x"), "");
    args_free(&A);

    /* defaults and repeats */
    ok(parse("-q", "-q", "--dir", "a", "--dir=b", "--set", "k=1", "--set", "k=2", NULL));
    ASSERT_EQ(args_count(&A, "quiet"), 2);       /* a flag may be repeated */
    ASSERT_EQ(args_count(&A, "dir"), 2);
    ASSERT_STREQ(args_strs(&A, "dir")[0], "a");
    ASSERT_STREQ(args_strs(&A, "dir")[1], "b");
    ASSERT_STREQ(args_strs(&A, "set")[1], "k=2");
    ASSERT_STREQ(args_str(&A, "title", "dflt"), "dflt");
    ASSERT_EQ(args_num(&A, "seed", 42), 42);
    ASSERT(!args_has(&A, "seed"));
    args_free(&A);
}

static void test_help(void)
{
    ok(parse("a", "--help", "--bogus", NULL));   /* help stops the parse */
    ASSERT(A.help);
    args_free(&A);
    ok(parse("-qh", NULL));
    ASSERT(A.help);
    args_free(&A);
    usage(parse("--bogus", "-h", NULL), "unknown option \"--bogus\"");  /* errors before it count */
}

static void test_kinds(void)
{
    /* integers */
    ok(parse("--seed", "9007199254740992", NULL));
    ASSERT_EQ(args_num(&A, "seed", 0), INT64_C(1) << 53);
    args_free(&A);
    usage(parse("--seed", "9007199254740993", NULL), "--seed needs an integer 0..2^53, got \"9007199254740993\"");
    usage(parse("--seed", "-1", NULL), "--seed needs an integer 0..2^53, got \"-1\"");
    usage(parse("--seed", "1.5", NULL), "--seed needs an integer 0..2^53, got \"1.5\"");
    usage(parse("--seed", "+1", NULL), "--seed needs an integer 0..2^53, got \"+1\"");
    usage(parse("--seed", "99999999999999999999999", NULL),
          "--seed needs an integer 0..2^53, got \"99999999999999999999999\"");
    usage(parse("-j", "0", NULL), "-j needs an integer 1..1000, got \"0\"");
    usage(parse("--count=", NULL), "--count needs an integer 1..1000, got \"\"");

    /* times: seconds or a duration, exact, ranged */
    ok(parse("--time", "2.5", NULL));
    ASSERT_EQ(args_num(&A, "time", 0), 2500 * SIM_MS);
    args_free(&A);
    ok(parse("--time", "500ms", NULL));
    ASSERT_EQ(args_num(&A, "time", 0), 500 * SIM_MS);
    args_free(&A);
    ok(parse("--time=1e-12", NULL));
    ASSERT_EQ(args_num(&A, "time", 0), 1);
    args_free(&A);
    ok(parse("--time", "9e6", NULL));
    ASSERT_EQ(args_num(&A, "time", 0), INT64_C(9000000) * SIM_S);
    args_free(&A);
    usage(parse("--time", "1e10", NULL), "--time needs a time > 0 and at most 9e6 s, got \"1e10\"");
    usage(parse("--time", "1e300", NULL), "--time needs a time > 0 and at most 9e6 s, got \"1e300\"");
    usage(parse("--time", "0", NULL), "--time needs a time > 0 and at most 9e6 s, got \"0\"");
    usage(parse("--time", "-1", NULL), "--time needs a time > 0 and at most 9e6 s, got \"-1\"");
    usage(parse("--time", "1e-13", NULL), "--time: \"1e-13\" is finer than a picosecond");
    usage(parse("--time", "5 parsecs", NULL),
          "--time needs seconds (e.g. 2.5) or a duration with a unit (ps, ns, us, µs, ms, s; "
          "e.g. 500ms), got \"5 parsecs\"");
    usage(parse("--time", "nan", NULL),
          "--time needs seconds (e.g. 2.5) or a duration with a unit (ps, ns, us, µs, ms, s; "
          "e.g. 500ms), got \"nan\"");

    /* enums and lists */
    ok(parse("--colour", "green", "--colours", "blue,red", NULL));
    ASSERT_EQ(args_num(&A, "colour", -1), 1);
    ASSERT_EQ(args_num(&A, "colours", 0), (1 << 2) | (1 << 0));
    args_free(&A);
    usage(parse("--colour", "gren", NULL), "--colour: unknown value \"gren\" (did you mean \"green\"?)");
    usage(parse("--colour", "purple", NULL),
          "--colour: unknown value \"purple\" (one of: red, green or blue)");
    usage(parse("--colours", "red,,blue", NULL), "--colours: empty item in \"red,,blue\"");
    usage(parse("--colours", "red,red", NULL), "--colours: \"red\" given twice in \"red,red\"");
    usage(parse("--colours", "red,pink", NULL), "--colours: unknown value \"pink\" (one of: red, green or blue)");

    /* paths, KEY=VALUE, custom checks */
    usage(parse("-o", "", NULL), "-o needs a file name, got \"\"");
    usage(parse("--output=", NULL), "--output needs a file name, got \"\"");
    usage(parse("--dir", "", NULL), "--dir needs a directory name, got \"\"");
    usage(parse("--set", "novalue", NULL), "--set needs KEY=VALUE, got \"novalue\"");
    usage(parse("--set", "=1", NULL), "--set needs KEY=VALUE, got \"=1\"");
    ok(parse("--set", "k=", NULL));  /* an empty value is the command's business */
    args_free(&A);
    usage(parse("--even", "abc", NULL), "--even: \"abc\" has an odd length");
    ok(parse("--even", "ab", NULL));
    args_free(&A);
}

static void test_errors(void)
{
    usage(parse("--bogus", NULL), "unknown option \"--bogus\"");
    usage(parse("--bogus=1", NULL), "unknown option \"--bogus\"");
    usage(parse("--titel", "x", NULL), "unknown option \"--titel\" (did you mean \"--title\"?)");
    usage(parse("-x", NULL), "unknown option \"-x\"");
    usage(parse("-qx", NULL), "unknown option \"-x\"");
    ok(parse("--", NULL));  /* "--" alone is fine */
    ASSERT_EQ(A.noperands, 0);
    args_free(&A);
    usage(parse("--quiet=yes", NULL), "option --quiet takes no value (got \"--quiet=yes\")");
    usage(parse("--title", NULL), "option --title needs a value");
    usage(parse("-o", NULL), "option -o needs a value");
    usage(parse("--seed", "1", "--seed=2", NULL), "option --seed given twice (it takes one value)");
    usage(parse("a", "b", "c", NULL), "at most 2 FILE arguments (got 3)");
    usage(parse("", NULL), "an empty FILE (\"\") was given");

    static const struct args_opt req[] = {
        { .name = "x", .kind = ARGS_STRING, .flags = ARGS_REQUIRED, .help = "x" },
        { NULL },
    };
    const struct args_spec one = { req, "CSV", 1, 1 };
    char *argv1[] = { (char *)"plot", (char *)"a.csv", NULL };
    ASSERT_EQ(args_parse(&one, 2, argv1, &A, E, sizeof E), GV_EUSAGE);
    ASSERT_STREQ(E, "option --x is required");
    char *argv2[] = { (char *)"plot", (char *)"--x", (char *)"c", NULL };
    ASSERT_EQ(args_parse(&one, 3, argv2, &A, E, sizeof E), GV_EUSAGE);
    ASSERT_STREQ(E, "missing CSV");
    char *argv3[] = { (char *)"plot", (char *)"--x", (char *)"c", (char *)"a", (char *)"b", NULL };
    ASSERT_EQ(args_parse(&one, 5, argv3, &A, E, sizeof E), GV_EUSAGE);
    ASSERT_STREQ(E, "only one CSV (got \"a\" and \"b\")");
}

static void test_labels(void)
{
    char buf[128];
    args_opt_label(&opts[3], buf, sizeof buf);
    ASSERT_STREQ(buf, "-o, --output FILE");
    args_opt_label(&opts[0], buf, sizeof buf);
    ASSERT_STREQ(buf, "-q, --quiet");
    args_opt_label(&opts[9], buf, sizeof buf);
    ASSERT_STREQ(buf, "--colour red|green|blue");
    args_opt_label(&opts[10], buf, sizeof buf);
    ASSERT_STREQ(buf, "--colours red,green,blue");
    args_opt_label(&opts[8], buf, sizeof buf);
    ASSERT_STREQ(buf, "--time SECS");
    ASSERT_STREQ(args_enum_value(&opts[9], 2), "blue");
    ASSERT(args_enum_value(&opts[9], 3) == NULL);
}

/* What help, man page and completion rely on, for every command. */
static void test_command_tables(void)
{
    int ncmd = 0;
    for (size_t i = 0; cli_commands[i]; i++, ncmd++) {
        const struct cli_command *c = cli_commands[i];
        ASSERT(cli_find_command(c->name) == c);
        ASSERT(c->usage && c->summary && c->exec);
        ASSERT(c->exit_status && *c->exit_status);
        ASSERT(c->args.operand);
        for (const struct args_opt *o = c->args.opts; o && o->name; o++) {
            ASSERT(o->help && *o->help);
            ASSERT(strcmp(o->name, "help") != 0 && o->short_name != 'h');
            ASSERT(o->kind != ARGS_INT || o->min <= o->max);
            ASSERT(o->kind != ARGS_SECONDS || (o->min >= 1 && o->min <= o->max));
            ASSERT(o->kind != ARGS_ENUM || args_enum_value(o, 0));
            for (const struct args_opt *p = o + 1; p->name; p++) {
                ASSERT(strcmp(o->name, p->name) != 0);
                ASSERT(!o->short_name || o->short_name != p->short_name);
            }
        }
        /* every option the usage line names exists */
        const char *u = c->usage;
        while ((u = strchr(u, '-'))) {
            size_t n = strcspn(u, " ]=.");
            char name[64];
            snprintf(name, sizeof name, "%.*s", (int)n, u);
            if (name[1] == '-') {
                if (!args_find(&c->args, name + 2)) fprintf(stderr, "%s: usage names %s\n", c->name, name);
                ASSERT(args_find(&c->args, name + 2) != NULL);
            } else if (name[1]) {
                bool found = false;
                for (const struct args_opt *o = c->args.opts; o && o->name; o++)
                    found = found || o->short_name == name[1];
                ASSERT(found);
            }
            u += n;
        }
        /* the help lists every option and has an exit-status section */
        char *text = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&text, &len);
        cli_print_help(f, c);
        fclose(f);
        ASSERT_CONTAINS(text, "\nexit status: ");
        ASSERT_CONTAINS(text, "  -h, --help");
        for (const struct args_opt *o = c->args.opts; o && o->name; o++) {
            char label[160];
            args_opt_label(o, label, sizeof label);
            ASSERT_CONTAINS(text, label);
        }
        free(text);
    }
    ASSERT(ncmd >= 6);
    ASSERT(cli_find_command("nosuch") == NULL);
}

int main(void)
{
    RUN(test_forms);
    RUN(test_help);
    RUN(test_kinds);
    RUN(test_errors);
    RUN(test_labels);
    RUN(test_command_tables);
    TEST_DONE();
}
