/* test_sensitivity.c - the variants of validate --sensitivity
 * (cli/sensitivity.c): a measurement at its q1 and q3 moves exactly the
 * keys calib_map derives from it, to what calib_map derives (a key of two
 * measurements moves with each), a key that is not its calibration's
 * derivation and a key the user sets stay put, a list of one measurement's
 * quantiles moves with it, scaled, and a profile without a
 * calibration section is an error with its file and position; a move of
 * keys the simulation never reads is dropped; the keys measured from
 * samples rather than a median are named as not varied; wake_jitter from
 * the spread within rounds stays put. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../cli/sensitivity.h"
#include "../../common/err.h"
#include "test.h"

static char *write_temp(const char *content)
{
    char *path = strdup("/tmp/gvlsim_sens_XXXXXX");
    ASSERT(path);
    int fd = mkstemp(path);
    ASSERT(fd >= 0);
    size_t len = strlen(content);
    ASSERT_EQ(write(fd, content, len), (long long)len);
    close(fd);
    return path;
}

/* the plan of a profile given as text (written to a temporary file, gone
 * once read) that must load without a diagnostic */
static void plan_from(const char *json, struct sens_plan *p)
{
    char *path = write_temp(json);
    struct diag_list d;
    diag_init(&d);
    ASSERT_EQ(sens_plan_make(path, p, &d), GV_OK);
    ASSERT_EQ(d.n, 0);
    diag_free(&d);
    unlink(path);
    free(path);
}

static void test_one_key(void)
{
    struct sens_plan p;
    struct diag_list d;
    diag_init(&d);
    ASSERT_EQ(sens_plan_make("tests/data/machines/calibrated.json", &p, &d), GV_OK);
    ASSERT_EQ(d.n, 0);
    ASSERT_EQ(p.nvar, 2);
    ASSERT_EQ(p.nmeasured, 2);
    ASSERT_STREQ(p.var[0].measurement, "syscall_stat_ns");
    ASSERT(!p.var[0].high && p.var[0].at == 500);
    ASSERT_EQ(p.var[0].nsets, 1);
    ASSERT_STREQ(p.var[0].sets[0], "machine.syscalls.stat=500ns");
    ASSERT(p.var[1].high && p.var[1].at == 2000);
    ASSERT_STREQ(p.var[1].sets[0], "machine.syscalls.stat=2us");
    ASSERT_STREQ(p.var[1].keys, "syscalls.stat");
    /* write_devnull is 5us in the profile, 1us by its derivation */
    ASSERT_CONTAINS(p.notes, "not its calibration's derivation): syscalls.write_devnull");
    ASSERT_CONTAINS(p.notes, "1 measurement this gvlsim does not derive keys from");
    sens_plan_free(&p);
    diag_free(&d);
}

/* context_switch = yield_switch_ns - syscall_getpid_ns: moving the getpid
 * moves it the other way, with syscalls.getpid */
static void test_two_measurements(void)
{
    struct sens_plan p;
    plan_from(
        "{\"name\": \"two\", \"context_switch\": \"1us\", \"syscalls\": {\"getpid\": \"1us\"},\n"
        " \"calibration\": {\"measurements\": [\n"
        "  {\"name\": \"yield_switch_ns\", \"median\": 2000, \"q1\": 1800, \"q3\": 2500},\n"
        "  {\"name\": \"speed_wake_ns\", \"unit\": \"ns\", \"note\": \"one speed level: no share to measure\"},\n"
        "  {\"name\": \"syscall_getpid_ns\", \"median\": 1000, \"q1\": 900, \"q3\": 1100}]}}\n", &p);
    ASSERT_EQ(p.nvar, 4);
    ASSERT_STREQ(p.notes, "");
    /* calib.h's order: the getpid before the yield */
    ASSERT_STREQ(p.var[0].measurement, "syscall_getpid_ns");
    ASSERT_EQ(p.var[0].nsets, 2);
    ASSERT_STREQ(p.var[0].sets[0], "machine.context_switch=1.1us");
    ASSERT_STREQ(p.var[0].sets[1], "machine.syscalls.getpid=900ns");
    ASSERT_STREQ(p.var[0].keys, "context_switch syscalls.getpid");
    ASSERT_STREQ(p.var[1].sets[0], "machine.context_switch=900ns");
    ASSERT_STREQ(p.var[2].measurement, "yield_switch_ns");
    ASSERT_EQ(p.var[2].nsets, 1);
    ASSERT_STREQ(p.var[2].sets[0], "machine.context_switch=800ns");
    ASSERT_STREQ(p.var[3].sets[0], "machine.context_switch=1.5us");
    /* the user sets context_switch: the yield's moves go, the getpid's keep syscalls.getpid */
    ASSERT_EQ(sens_plan_drop_key(&p, "context_switch"), GV_OK);
    ASSERT_EQ(p.nvar, 2);
    ASSERT_EQ(p.var[0].nsets, 1);
    ASSERT_STREQ(p.var[0].sets[0], "machine.syscalls.getpid=900ns");
    ASSERT_STREQ(p.var[0].keys, "syscalls.getpid");
    ASSERT_STREQ(p.var[1].sets[0], "machine.syscalls.getpid=1.1us");
    sens_plan_free(&p);
}

/* wake_jitter from the spread within rounds (within_spread) stays put when
 * its measurement moves; from all the samples' quartiles it moves with the
 * median (a wider spread over a lower one) */
static void test_within_spread(void)
{
    static const char *const fmt =
        "{\"name\": \"w\", \"wake_idle_core\": \"10us\", \"wake_jitter\": %s,\n"
        " \"calibration\": {\"measurements\": [\n"
        "  {\"name\": \"wake_after_idle_10us_ns\", \"median\": 10000, \"q1\": 9000, \"q3\": 11000%s}]}}\n";
    char json[512];
    struct sens_plan p;
    snprintf(json, sizeof json, fmt, "0.04", ", \"within_spread\": 0.04");
    plan_from(json, &p);
    ASSERT_EQ(p.nvar, 2);
    ASSERT_STREQ(p.var[0].measurement, "wake_after_idle_10us_ns");
    for (int v = 0; v < p.nvar; v++) ASSERT(!strstr(p.var[v].keys, "wake_jitter"));
    ASSERT_CONTAINS(p.var[0].keys, "wake_idle_core");
    sens_plan_free(&p);
    snprintf(json, sizeof json, fmt, "0.2", "");
    plan_from(json, &p);
    ASSERT_EQ(p.nvar, 2);
    ASSERT_CONTAINS(p.var[0].keys, "wake_jitter");   /* 2000 / 9000: 0.22 */
    sens_plan_free(&p);
}

/* keys the calibration measured from samples rather than a median (the
 * speed levels) are named in the note when the profile has them; a key
 * derived from a median, one not measured, one the profile lacks, and a
 * list that moves with its measurement (futex_wait_window, below) are not */
static void test_underived(void)
{
    struct sens_plan p;
    plan_from(
        "{\"name\": \"lists\", \"context_switch\": \"1us\", \"syscalls\": {\"getpid\": \"1us\"},\n"
        " \"futex_wait_window\": [\"300ns\", \"400ns\"], \"speed_levels\": [1, 1.3], \"cores\": 2,\n"
        " \"calibration\": {\"measurements\": [\n"
        "  {\"name\": \"yield_switch_ns\", \"median\": 2000, \"q1\": 1800, \"q3\": 2500},\n"
        "  {\"name\": \"syscall_getpid_ns\", \"median\": 1000, \"q1\": 900, \"q3\": 1100}],\n"
        "  \"keys\": [{\"key\": \"cores\", \"value\": \"2\", \"measured\": false},\n"
        "   {\"key\": \"context_switch\", \"value\": \"1us\", \"measured\": true},\n"
        "   {\"key\": \"futex_wait_window\", \"value\": \"[\\\"300ns\\\", \\\"400ns\\\"]\", \"measured\": true},\n"
        "   {\"key\": \"wake_waking\", \"value\": \"[]\", \"measured\": true},\n"
        "   {\"key\": \"speed_levels\", \"value\": \"[1, 1.3]\", \"measured\": true}]}}\n", &p);
    ASSERT_EQ(p.nvar, 4);
    ASSERT_STREQ(p.notes, "not varied (measured from samples, not a median): speed_levels");
    sens_plan_free(&p);
}

/* a list of one measurement's quantiles moves with that measurement, every
 * entry scaled as its median (rounded to 3 digits as calibrate rounds); a
 * list the profile holds otherwise than its calibration wrote stays put and
 * is named (a hand-set key whose name begins another's too); a list whose
 * measurement has no quartiles is not moved */
static void test_lists(void)
{
    struct sens_plan p;
    plan_from(
        "{\"name\": \"lists\", \"futex_wait_window\": [\"300ns\", \"1.2us\"],\n"
        " \"futex_wake_race\": [\"500ns\"], \"wake_waking\": [\"1us\", \"2us\"], \"futex_wake\": \"5us\",\n"
        " \"calibration\": {\"measurements\": [\n"
        "  {\"name\": \"futex_wake_ns\", \"median\": 1000, \"q1\": 900, \"q3\": 1100},\n"
        "  {\"name\": \"futex_wait_window_ns\", \"median\": 400, \"q1\": 300, \"q3\": 500},\n"
        "  {\"name\": \"futex_wake_race_ns\", \"median\": 500, \"q1\": 400, \"q3\": 700},\n"
        "  {\"name\": \"wake_waking_ns\", \"median\": 1500}],\n"
        "  \"keys\": [{\"key\": \"futex_wait_window\", \"value\": \"[\\\"300ns\\\", \\\"1.2us\\\"]\", \"measured\": true},\n"
        "   {\"key\": \"futex_wake_race\", \"value\": \"[\\\"600ns\\\"]\", \"measured\": true},\n"
        "   {\"key\": \"wake_waking\", \"value\": \"[\\\"1us\\\", \\\"2us\\\"]\", \"measured\": true}]}}\n", &p);
    ASSERT_EQ(p.nvar, 2);
    ASSERT_STREQ(p.var[0].measurement, "futex_wait_window_ns");
    ASSERT(!p.var[0].high && p.var[0].at == 300);
    ASSERT_EQ(p.var[0].nsets, 1);
    ASSERT_STREQ(p.var[0].sets[0], "machine.futex_wait_window=[\"225ns\", \"900ns\"]");
    ASSERT_STREQ(p.var[0].keys, "futex_wait_window");
    ASSERT(p.var[1].high);
    ASSERT_STREQ(p.var[1].sets[0], "machine.futex_wait_window=[\"375ns\", \"1.5us\"]");
    /* futex_wake_race is 500ns in the profile, 600ns as calibrated; futex_wake
     * 5us, 1us: both named (the one's name is the start of the other's) */
    ASSERT_STREQ(p.notes, "not varied (the profile's value is not its calibration's derivation): futex_wake_race, "
                          "futex_wake");
    sens_plan_free(&p);
}

/* a reader that reads every key but the listed ones */
static bool reads_all_but(const char *key, void *ctx)
{
    for (const char *const *k = ctx; *k; k++)
        if (!strcmp(*k, key)) return false;
    return true;
}

/* a move whose every key the simulation does not read is dropped (named
 * once in the note); a move with one key read keeps all of its keys */
static void test_drop_unread(void)
{
    struct sens_plan p;
    plan_from(
        "{\"name\": \"two\", \"context_switch\": \"1us\", \"syscalls\": {\"getpid\": \"1us\", \"stat\": \"1us\"},\n"
        " \"calibration\": {\"measurements\": [\n"
        "  {\"name\": \"yield_switch_ns\", \"median\": 2000, \"q1\": 1800, \"q3\": 2500},\n"
        "  {\"name\": \"syscall_stat_ns\", \"median\": 1000, \"q1\": 900, \"q3\": 1100},\n"
        "  {\"name\": \"syscall_getpid_ns\", \"median\": 1000, \"q1\": 900, \"q3\": 1100}]}}\n", &p);
    ASSERT_EQ(p.nvar, 6);
    const char *unread[] = { "syscalls.stat", "syscalls.getpid", NULL };
    char note[64] = "";
    ASSERT_EQ(sens_plan_drop_unread(&p, reads_all_but, unread, note, sizeof note), 2);
    ASSERT_STREQ(note, "syscall_stat_ns");
    ASSERT_EQ(p.nvar, 4);
    for (int i = 0; i < p.nvar; i++) ASSERT(strcmp(p.var[i].measurement, "syscall_stat_ns") != 0);
    /* the getpid's moves shift context_switch too: kept whole */
    ASSERT_STREQ(p.var[0].measurement, "syscall_getpid_ns");
    ASSERT_STREQ(p.var[0].keys, "context_switch syscalls.getpid");
    ASSERT_STREQ(p.var[2].measurement, "yield_switch_ns");
    /* nothing read: every move goes, each measurement named once */
    const char *none[] = { "syscalls.getpid", "context_switch", NULL };
    ASSERT_EQ(sens_plan_drop_unread(&p, reads_all_but, none, note, sizeof note), 4);
    ASSERT_EQ(p.nvar, 0);
    ASSERT_STREQ(note, "syscall_stat_ns syscall_getpid_ns yield_switch_ns");
    sens_plan_free(&p);
}

static void test_errors(void)
{
    struct sens_plan p;
    struct diag_list d;
    diag_init(&d);
    ASSERT_EQ(sens_plan_make("scenarios/machines/report_m4.json", &p, &d), GV_EINVAL);
    ASSERT_EQ(d.n, 1);
    ASSERT_CONTAINS(d.msgs[0], "scenarios/machines/report_m4.json:1:1: no \"calibration\" section");
    diag_free(&d);

    char *path = write_temp("{\"calibration\": {\"measurements\": [\n"
                            "  {\"name\": \"syscall_stat_ns\", \"median\": 1000, \"q1\": 500, \"q3\": 900}]}}\n");
    diag_init(&d);
    ASSERT_EQ(sens_plan_make(path, &p, &d), GV_EINVAL);
    ASSERT_EQ(d.n, 1);
    char want[512];
    snprintf(want, sizeof want, "%s:2:64: /calibration/measurements/0: measurement \"syscall_stat_ns\": q1 500, "
             "median 1000, q3 900 are not in order", path);
    ASSERT_STREQ(d.msgs[0], want);
    diag_free(&d);
    unlink(path);
    free(path);

    /* no median and no note (a skipped measurement has one): an error */
    path = write_temp("{\"calibration\": {\"measurements\": [\n"
                      "  {\"name\": \"syscall_stat_ns\", \"q1\": 500, \"q3\": 900}]}}\n");
    diag_init(&d);
    ASSERT_EQ(sens_plan_make(path, &p, &d), GV_EINVAL);
    ASSERT_EQ(d.n, 1);
    ASSERT_CONTAINS(d.msgs[0], "measurement \"syscall_stat_ns\" has no median: the keys are derived from it");
    diag_free(&d);
    unlink(path);
    free(path);

    diag_init(&d);
    ASSERT_EQ(sens_plan_make("/nonexistent/profile.json", &p, &d), GV_EIO);
    diag_free(&d);
}

int main(void)
{
    RUN(test_one_key);
    RUN(test_two_measurements);
    RUN(test_within_spread);
    RUN(test_drop_unread);
    RUN(test_underived);
    RUN(test_lists);
    RUN(test_errors);
    TEST_DONE();
}
