/* test_rows.c - result rows in CSV, JSON and JSON Lines (output/rows.c)
 * and the run-metrics columns (output/csv.c): the encodings byte for byte,
 * JSON read back with cJSON, the format chosen by --format and suffix. */
#include <cjson/cJSON.h>

#include "../../output/csv.h"
#include "../../output/rows.h"
#include "test.h"

static char *encode(enum rows_format fmt, const struct row *cols, const struct row *r)
{
    char *s = rows_encode_str(fmt, cols, r);
    ASSERT(s != NULL);
    return s;
}

static void test_json_number(void)
{
    const char *yes[] = { "0", "-0", "12", "-3.25", "1e3", "1E+3", "2.5e-7", "0.000000001" };
    const char *no[] = { "", "-", "01", "1.", ".5", "+1", "1e", "1e+", "nan", "inf", "0x10",
                         "1,5", " 1", "1 ", "--1", "10us" };
    for (size_t i = 0; i < sizeof yes / sizeof *yes; i++) ASSERT(rows_json_number(yes[i], strlen(yes[i])));
    for (size_t i = 0; i < sizeof no / sizeof *no; i++) ASSERT(!rows_json_number(no[i], strlen(no[i])));
}

static void test_cells(void)
{
    struct row cols, r;
    row_init(&cols);
    row_init(&r);
    row_text(&cols, "name");
    row_text(&cols, "n");
    row_text(&cols, "list");
    row_text(&cols, "none");
    row_text(&cols, "guess");
    row_text(&cols, "word");

    row_text(&r, "a,\"b\"\nc");
    row_cell(&r, ROW_NUM);
    row_printf(&r, "%d.%03d", 12, 5);
    row_cell(&r, ROW_LIST);
    for (int i = 1; i <= 3; i++) row_printf(&r, "%s%d", i > 1 ? ";" : "", i);
    row_null(&r);
    row_guess(&r, "-1.5e3");
    row_guess(&r, "10us");
    ASSERT(!r.oom && r.n == 6);
    ASSERT_STREQ(row_get(&r, 1), "12.005");
    ASSERT(row_get(&r, 6) == NULL);

    char *csv = encode(ROWS_CSV, &cols, &r);
    ASSERT_STREQ(csv, "\"a,\"\"b\"\"\nc\",12.005,1;2;3,,-1.5e3,10us");
    char *json = encode(ROWS_JSON, &cols, &r);
    ASSERT_STREQ(json, "{\"name\":\"a,\\\"b\\\"\\nc\",\"n\":12.005,\"list\":[1,2,3],\"none\":null,"
                       "\"guess\":-1.5e3,\"word\":\"10us\"}");
    char *jsonl = encode(ROWS_JSONL, &cols, &r);
    ASSERT_STREQ(jsonl, json);  /* one object either way; the writer differs */
    free(csv);
    free(json);
    free(jsonl);

    /* an empty list, a number that is no JSON number, clearing keeps capacity */
    row_clear(&r);
    ASSERT_EQ(r.n, 0);
    row_cell(&r, ROW_LIST);
    row_cell(&r, ROW_NUM);
    row_printf(&r, "nan");
    row_text(&r, NULL);
    struct row c3;
    row_init(&c3);
    row_text(&c3, "l");
    row_text(&c3, "x");
    row_text(&c3, "t");
    json = encode(ROWS_JSON, &c3, &r);
    ASSERT_STREQ(json, "{\"l\":[],\"x\":null,\"t\":null}");
    free(json);
    csv = encode(ROWS_CSV, NULL, &r);
    ASSERT_STREQ(csv, ",nan,");
    free(csv);
    row_free(&c3);
    row_free(&cols);
    row_free(&r);
}

static void test_json_strings(void)
{
    struct row cols, r;
    row_init(&cols);
    row_init(&r);
    row_text(&cols, "s");
    /* control characters escaped, UTF-8 kept, invalid bytes replaced */
    row_text(&r, "tab\there \x01 \x1b[31m del\x7f back\\slash µs \xe2\x82\xac bad\xff \xc0\xaf \xed\xa0\x80 end");
    char *json = encode(ROWS_JSON, &cols, &r);
    ASSERT_STREQ(json, "{\"s\":\"tab\\there \\u0001 \\u001b[31m del\\u007f back\\\\slash µs \xe2\x82\xac "
                       "bad\\ufffd \\ufffd\\ufffd \\ufffd\\ufffd\\ufffd end\"}");
    cJSON *doc = cJSON_Parse(json);
    ASSERT(doc != NULL);
    ASSERT(cJSON_IsString(cJSON_GetObjectItemCaseSensitive(doc, "s")));
    cJSON_Delete(doc);
    free(json);
    row_free(&cols);
    row_free(&r);
}

static void test_writer(void)
{
    struct row cols, r;
    row_init(&cols);
    row_init(&r);
    row_text(&cols, "a");
    row_text(&cols, "b");
    row_cell(&r, ROW_NUM);
    row_printf(&r, "1");
    row_text(&r, "x");
    const char *want[3][3] = {  /* 0, 1, 2 rows; CSV, JSON, JSON Lines */
        { "a,b\n", "[\n]\n", "" },
        { "a,b\n1,x\n", "[\n{\"a\":1,\"b\":\"x\"}\n]\n", "{\"a\":1,\"b\":\"x\"}\n" },
        { "a,b\n1,x\n1,x\n", "[\n{\"a\":1,\"b\":\"x\"},\n{\"a\":1,\"b\":\"x\"}\n]\n",
          "{\"a\":1,\"b\":\"x\"}\n{\"a\":1,\"b\":\"x\"}\n" },
    };
    for (int n = 0; n < 3; n++) {
        for (int fmt = ROWS_CSV; fmt <= ROWS_JSONL; fmt++) {
            char *buf = NULL;
            size_t len = 0;
            FILE *f = open_memstream(&buf, &len);
            struct rows_writer w;
            rows_begin(&w, f, (enum rows_format)fmt, &cols, true);
            for (int i = 0; i < n; i++) {
                if (i == 0) rows_put(&w, &r);
                else {
                    char *enc = rows_encode_str((enum rows_format)fmt, &cols, &r);
                    rows_put_encoded(&w, enc);
                    free(enc);
                }
            }
            rows_end(&w);
            fclose(f);
            ASSERT_STREQ(buf, want[n][fmt]);
            free(buf);
        }
    }
    /* CSV without its header */
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    struct rows_writer w;
    rows_begin(&w, f, ROWS_CSV, &cols, false);
    rows_put(&w, &r);
    rows_end(&w);
    fclose(f);
    ASSERT_STREQ(buf, "1,x\n");
    free(buf);
    row_free(&cols);
    row_free(&r);
}

static void test_choose(void)
{
    enum rows_format fmt;
    char err[256];
    struct { const char *given, *path; int want; } ok[] = {
        { NULL, NULL, ROWS_CSV }, { NULL, "out.csv", ROWS_CSV }, { NULL, "out.json", ROWS_JSON },
        { NULL, "a/b.jsonl", ROWS_JSONL }, { NULL, "x.ndjson", ROWS_JSONL },
        { NULL, "/dev/null", ROWS_CSV }, { NULL, ".json", ROWS_CSV }, { "json", NULL, ROWS_JSON },
        { "jsonl", "/dev/stdout", ROWS_JSONL }, { "csv", "x.csv", ROWS_CSV },
        { "json", "x.json", ROWS_JSON }, { "json", "x.txt", ROWS_JSON },
    };
    for (size_t i = 0; i < sizeof ok / sizeof *ok; i++) {
        ASSERT_EQ(rows_format_choose(ok[i].given, ok[i].path, &fmt, err, sizeof err), 0);
        ASSERT_EQ(fmt, ok[i].want);
    }
    ASSERT_EQ(rows_format_choose("csv", "x.json", &fmt, err, sizeof err), -1);
    ASSERT_STREQ(err, "the output x.json is named as JSON, but --format csv was given");
    ASSERT_EQ(rows_format_choose("json", "x.jsonl", &fmt, err, sizeof err), -1);
    ASSERT_STREQ(err, "the output x.jsonl is named as JSON Lines, but --format json was given");
    ASSERT_EQ(rows_format_choose("jsonl", "x.csv", &fmt, err, sizeof err), -1);
    ASSERT_EQ(rows_format_choose("xml", NULL, &fmt, err, sizeof err), -1);
    ASSERT_STREQ(rows_format_names[ROWS_JSONL], "jsonl");
}

/* A run's row: the JSON object has the CSV header's keys, in order, with
 * the same values (numbers as numbers, host_s null when reproducible). */
/* Named measures: seven columns each after the fixed ones, in declaration
 * order; rates over the window after the warm-up; no latency without a
 * sample (an empty cell, null in JSON). */
static void test_measure_columns(void)
{
    struct run_measure ms[2] = {
        { "request", 3, 2 * SIM_MS, SIM_MS, 3 * SIM_MS, 4 * SIM_MS, 5 * SIM_MS },
        { "idle", 0, 0, 0, 0, 0, 0 },
    };
    struct run_metrics m = { .scenario = "s", .backend = "sim", .engine = "native", .policy = "eager",
                             .invariant_check = "none", .insn_counter = "none", .work_scale = 1.0,
                             .wall = 2 * SIM_S, .warmup = SIM_S, .ops = 10, .measures = ms, .nmeasures = 2 };
    struct row cols, r;
    row_init(&cols);
    row_init(&r);
    csv_columns_of(&cols, &m);
    csv_row(&r, &m, true);
    ASSERT_EQ(cols.n, r.n);
    size_t n = cols.n;
    ASSERT_STREQ(row_get(&cols, n - 14), "request_count");
    ASSERT_STREQ(row_get(&cols, n - 8), "request_max_s");
    ASSERT_STREQ(row_get(&cols, n - 7), "idle_count");
    ASSERT_STREQ(row_get(&cols, n - 1), "idle_max_s");
    ASSERT_STREQ(row_get(&cols, n - 15), "host_s");
    ASSERT_STREQ(row_get(&r, n - 14), "3");
    ASSERT_STREQ(row_get(&r, n - 13), "3.000");         /* 3 in the 1 s after the warm-up */
    ASSERT_STREQ(row_get(&r, n - 12), "0.002000000");   /* mean */
    ASSERT_STREQ(row_get(&r, n - 9), "0.004000000");    /* p99 */
    ASSERT_STREQ(row_get(&r, n - 7), "0");
    ASSERT_EQ(r.cells[n - 1].kind, ROW_NULL);
    size_t ops_per_s = 0;
    for (size_t i = 0; i < n; i++)
        if (!strcmp(row_get(&cols, i), "ops_per_s")) ops_per_s = i;
    ASSERT_STREQ(row_get(&r, ops_per_s), "10.000");     /* ops after the warm-up too */
    /* every measure column is numeric to readers of rows (compare, merge, plot) */
    for (size_t i = n - 14; i < n; i++) ASSERT_EQ(csv_column_kind(row_get(&cols, i)), ROW_NUM);
    ASSERT_EQ(csv_column_kind("_p99_s"), -1);           /* no NAME */
    ASSERT_EQ(csv_column_kind("request_p98_s"), -1);
    row_free(&cols);
    row_free(&r);
}

static void test_metrics_row(void)
{
    uint64_t rops[2] = { 10, 30 };
    struct run_metrics m = {
        .scenario = "s,1", .backend = "sim", .engine = "native", .policy = "eager",
        .invariant_check = "none", .insn_counter = "none", .cores = 2, .ractors = 2,
        .threads = 3, .seed = 7, .work_scale = 1.5, .wall = 2 * SIM_S, .cpu = 1500 * SIM_MS,
        .vol_switches = 5, .ops = 40, .ractor_ops = rops, .nractor_ops = 2, .engine_events = 99,
        .gc_count = 4, .host_seconds = 0.25,
    };
    m.state_time[TS_RUNNING] = SIM_S + 1;  /* 1 ps rounds away */
    struct row cols, r;
    row_init(&cols);
    row_init(&r);
    csv_columns(&cols);
    csv_row(&r, &m, true);
    ASSERT_EQ(cols.n, r.n);

    char *hdr = NULL, *line = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&hdr, &len);
    csv_write_header(f, &m);
    fclose(f);
    f = open_memstream(&line, &len);
    csv_write_row(f, &m, true);
    fclose(f);
    char *enc = encode(ROWS_CSV, NULL, &cols);
    ASSERT(strncmp(hdr, enc, strlen(enc)) == 0 && !strcmp(hdr + strlen(enc), "\n"));
    free(enc);
    const char *start = "\"s,1\",sim,native,eager,none,none,2,2,3,7,1.5,2.000000000,1.500000000,1.000000000,";
    ASSERT(strncmp(line, start, strlen(start)) == 0);
    ASSERT_CONTAINS(line, ",5,0,0,0,0,0,0,0,40,20.000,5.000;15.000,0,0,0,0,0,4,0.000000000,0,0,99,\n");

    char *json = encode(ROWS_JSON, &cols, &r);
    cJSON *doc = cJSON_Parse(json);
    ASSERT(doc != NULL && cJSON_IsObject(doc));
    int i = 0;
    for (cJSON *it = doc->child; it; it = it->next, i++) ASSERT_STREQ(it->string, row_get(&cols, (size_t)i));
    ASSERT_EQ(i, (int)cols.n);
    ASSERT_STREQ(cJSON_GetObjectItemCaseSensitive(doc, "scenario")->valuestring, "s,1");
    ASSERT(cJSON_GetObjectItemCaseSensitive(doc, "cores")->valuedouble == 2);
    ASSERT(cJSON_GetObjectItemCaseSensitive(doc, "wall_s")->valuedouble == 2.0);
    ASSERT(cJSON_GetObjectItemCaseSensitive(doc, "ops_per_s")->valuedouble == 20.0);
    cJSON *list = cJSON_GetObjectItemCaseSensitive(doc, "ractor_ops_per_s");
    ASSERT(cJSON_IsArray(list) && cJSON_GetArraySize(list) == 2);
    ASSERT(cJSON_GetArrayItem(list, 1)->valuedouble == 15.0);
    ASSERT(cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(doc, "host_s")));
    cJSON_Delete(doc);
    free(json);

    row_clear(&r);
    csv_row(&r, &m, false);
    json = encode(ROWS_JSONL, &cols, &r);
    ASSERT_CONTAINS(json, "\"host_s\":0.250000}");
    free(json);
    free(hdr);
    free(line);
    row_free(&cols);
    row_free(&r);
}

/* Times summed over threads or cores exceed int64 picoseconds (3,000
 * threads sleeping an hour: 1.08e19 ps; 10^6 threads over 9e6 s: 9e24):
 * they are 128-bit sums, printed exactly (to the nanosecond). */
static void test_wide_sums(void)
{
    char buf[64];
    csv_format_seconds(buf, sizeof buf, (sim_sum)3000 * 3600 * SIM_S + 69758312);
    ASSERT_STREQ(buf, "10800000.000069758");
    csv_format_seconds(buf, sizeof buf, (sim_sum)1000000 * 9000000 * SIM_S + 1500);
    ASSERT_STREQ(buf, "9000000000000.000000002");
    csv_format_seconds(buf, sizeof buf, (sim_sum)SIM_TIME_MAX * 2);
    ASSERT_STREQ(buf, "18446744.073709552");
    csv_format_seconds(buf, sizeof buf, -(sim_sum)1500);
    ASSERT_STREQ(buf, "-0.000000002");
    struct run_metrics m;
    memset(&m, 0, sizeof m);
    for (int t = 0; t < 3000; t++) m.state_time[TS_SLEEPING] += 3600 * SIM_S;  /* as vm_collect sums */
    ASSERT(m.state_time[TS_SLEEPING] > (sim_sum)SIM_TIME_MAX);
    csv_format_seconds(buf, sizeof buf, m.state_time[TS_SLEEPING]);
    ASSERT_STREQ(buf, "10800000.000000000");
}

int main(void)
{
    RUN(test_json_number);
    RUN(test_cells);
    RUN(test_json_strings);
    RUN(test_writer);
    RUN(test_choose);
    RUN(test_metrics_row);
    RUN(test_measure_columns);
    RUN(test_wide_sums);
    TEST_DONE();
}
