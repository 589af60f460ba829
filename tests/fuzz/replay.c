/* replay.c - run every file given (or every file in each directory given)
 * through a fuzz target's LLVMFuzzerTestOneInput, without libFuzzer: how
 * `make test` replays the kept corpus and crashers under the normal and the
 * ASan+UBSan builds.  A broken promise aborts (and names the file). */
#include <dirent.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *current;  /* the input being run, named if it crashes */

static void on_crash(int sig)
{
    static const char msg[] = "replay: crashed on input ";
    if (write(2, msg, sizeof msg - 1) < 0 || write(2, current, strlen(current)) < 0 || write(2, "\n", 1) < 0) {}
    signal(sig, SIG_DFL);
    raise(sig);
}

static int run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) { perror(path); return 1; }
    size_t cap = 4096, n = 0;
    uint8_t *buf = malloc(cap);
    for (;;) {
        if (!buf) { fclose(f); fprintf(stderr, "%s: out of memory\n", path); return 1; }
        n += fread(buf + n, 1, cap - n, f);
        if (n < cap) break;
        uint8_t *nb = realloc(buf, cap * 2);
        if (!nb) free(buf);
        buf = nb;
        cap *= 2;
    }
    fclose(f);
    current = path;
    LLVMFuzzerTestOneInput(buf, n);
    free(buf);
    return 0;
}

static int cmp(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

int main(int argc, char **argv)
{
    int bad = 0, files = 0;
    signal(SIGABRT, on_crash);
    signal(SIGSEGV, on_crash);
    for (int i = 1; i < argc; i++) {
        struct stat st;
        if (stat(argv[i], &st) != 0) { perror(argv[i]); return 1; }
        if (!S_ISDIR(st.st_mode)) { bad |= run_file(argv[i]); files++; continue; }
        DIR *d = opendir(argv[i]);
        if (!d) { perror(argv[i]); return 1; }
        char **names = NULL;
        size_t n = 0, cap = 0;
        for (struct dirent *e; (e = readdir(d));) {
            if (e->d_name[0] == '.') continue;
            if (n == cap) {
                cap = cap ? 2 * cap : 256;
                char **nn = realloc(names, cap * sizeof *nn);
                if (!nn) return 1;
                names = nn;
            }
            size_t len = strlen(argv[i]) + strlen(e->d_name) + 2;
            names[n] = malloc(len);
            if (!names[n]) return 1;
            snprintf(names[n++], len, "%s/%s", argv[i], e->d_name);
        }
        closedir(d);
        if (n) qsort(names, n, sizeof *names, cmp);
        for (size_t k = 0; k < n; k++) {
            bad |= run_file(names[k]);
            files++;
            free(names[k]);
        }
        free(names);
    }
    fprintf(stderr, "replayed %d inputs\n", files);
    return bad;
}
