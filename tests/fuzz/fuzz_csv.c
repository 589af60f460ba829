/* fuzz_csv.c - fuzz target: the CSV reader (output/csvread.c) and what
 * `gvlsim plot` builds from a table (output/gnuplot.c).
 *
 * An input is a CSV text (cut at its first NUL, as a file is read).  When
 * it parses, its first columns are plotted as `gvlsim plot --x C0 --y C1
 * --series C2` would, and the gnuplot script is written to memory.  The
 * promises checked with abort():
 *   - the reader returns GV_OK, GV_EINVAL or GV_ENOMEM with a message;
 *     a table has at least one column and every cell;
 *   - the plot data is built or refused with GV_EUSAGE;
 *   - the script is gnuplot commands, comments and data blocks only: no
 *     text of the CSV (a column name, a series value) can start a line of
 *     its own, where gnuplot would run it (`system(...)`). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/err.h"
#include "../../output/csvread.h"
#include "../../output/gnuplot.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(e) do { if (!(e)) { \
    fprintf(stderr, "fuzz_csv: %s:%d: promise broken: %s\n", __FILE__, __LINE__, #e); \
    abort(); } } while (0)

/* Every line of the script is one gvlsim writes: a comment, a known
 * command, a continuation of `plot`, or a line of a data block. */
static void check_script(char *text)
{
    static const char *const starts[] = { "#", "out = ", "fmt = ", "if (fmt eq 'svg') {", "    set terminal ",
                                          "set ", "unset ", "plot ", "     $s", "$s", NULL };
    static const char *const whole[] = { "} else {", "}", NULL };
    int in_data = 0;
    for (char *line = text, *nl; *line; line = nl + 1) {
        nl = strchr(line, '\n');
        CHECK(nl != NULL);  /* every line ends */
        *nl = '\0';
        if (in_data) {
            if (!strcmp(line, "EOD")) in_data = 0;
            else CHECK(line[0] == '#' || strspn(line, "0123456789.eE+-,infa") == strlen(line));
            continue;
        }
        int ok = 0;
        for (int i = 0; starts[i] && !ok; i++) ok = !strncmp(line, starts[i], strlen(starts[i]));
        for (int i = 0; whole[i] && !ok; i++) ok = !strcmp(line, whole[i]);
        if (!ok) fprintf(stderr, "fuzz_csv: a script line gvlsim does not write: \"%s\"\n", line);
        CHECK(ok);
        if (line[0] == '$' && strstr(line, " << EOD")) in_data = 1;
    }
    CHECK(!in_data);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text) return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    struct csv_table t;
    char err[GV_ERRLEN] = "";
    int rc = csvr_parse(text, "fuzz.csv", &t, err, sizeof err);
    CHECK(rc == GV_OK || rc == GV_EINVAL || rc == GV_ENOMEM);
    if (rc != GV_OK) {
        CHECK(err[0] != '\0');
        free(text);
        return 0;
    }
    CHECK(t.ncols >= 1 && t.header);
    for (size_t i = 0; i < (t.nrows + 1) * (size_t)t.ncols; i++) CHECK(t.header[i] != NULL);
    if (t.ncols >= 2) {
        struct gp_spec spec = { .csv_path = "fuzz.csv", .xcol = t.header[0], .ycol = t.header[1],
                                .series_col = t.ncols >= 3 ? t.header[2] : NULL, .out = "fuzz.png",
                                .command = "gvlsim plot fuzz.csv" };
        struct gp_data d;
        memset(&d, 0, sizeof d);
        rc = gp_build(&t, &spec, &d, err, sizeof err);
        CHECK(rc == GV_OK || rc == GV_EUSAGE || rc == GV_ENOMEM);
        if (rc == GV_OK) {
            char *buf = NULL;
            size_t len = 0;
            FILE *f = open_memstream(&buf, &len);
            if (f) {
                gp_write_script(f, &spec, &d);
                if (fclose(f) == 0 && buf) check_script(buf);
                free(buf);
            }
        }
        gp_data_free(&d);
    }
    csvr_free(&t);
    free(text);
    return 0;
}
