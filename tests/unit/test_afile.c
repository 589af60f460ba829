/* test_afile.c - all-or-nothing output files: the two phases (prepare
 * writes and checks everything, commit renames), aborts at each phase, and
 * the signal handler that removes pending temporary files and directories,
 * kills pending child processes and ends the
 * process with the signal. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../common/afile.h"
#include "../../common/err.h"
#include "test.h"

static char dir[64];

/* Entries of the test directory whose name contains ".tmp.". */
static int temp_files(void)
{
    DIR *d = opendir(dir);
    ASSERT(d);
    int n = 0;
    for (struct dirent *e; (e = readdir(d));) n += strstr(e->d_name, ".tmp.") != NULL;
    closedir(d);
    return n;
}

static void slurp(const char *path, char *buf, size_t n)
{
    FILE *f = fopen(path, "r");
    ASSERT(f);
    size_t got = fread(buf, 1, n - 1, f);
    buf[got] = '\0';
    fclose(f);
}

static void test_two_phases(void)
{
    char path[128], buf[64], err[GV_ERRLEN];
    snprintf(path, sizeof path, "%s/out.csv", dir);
    FILE *f = fopen(path, "w");
    ASSERT(f);
    fputs("old\n", f);
    fclose(f);

    struct afile a, b;
    ASSERT_EQ(afile_open(&a, path, err, sizeof err), GV_OK);
    fputs("new\n", a.f);
    ASSERT_EQ(temp_files(), 1);
    ASSERT_EQ(afile_prepare(&a, err, sizeof err), GV_OK);
    ASSERT_EQ(afile_prepare(&a, err, sizeof err), GV_OK);  /* idempotent */
    slurp(path, buf, sizeof buf);
    ASSERT_STREQ(buf, "old\n");                            /* prepared: not yet in place */
    ASSERT_EQ(temp_files(), 1);
    afile_abort(&a);                                       /* abort after prepare */
    ASSERT_EQ(temp_files(), 0);
    slurp(path, buf, sizeof buf);
    ASSERT_STREQ(buf, "old\n");

    ASSERT_EQ(afile_open(&b, path, err, sizeof err), GV_OK);
    fputs("new\n", b.f);
    ASSERT_EQ(afile_prepare(&b, err, sizeof err), GV_OK);
    ASSERT_EQ(afile_commit(&b, err, sizeof err), GV_OK);
    slurp(path, buf, sizeof buf);
    ASSERT_STREQ(buf, "new\n");
    ASSERT_EQ(temp_files(), 0);
    unlink(path);
}

/* A write error shows at prepare (here a device written in place). */
static void test_prepare_fails(void)
{
    char err[GV_ERRLEN];
    struct afile a;
    ASSERT_EQ(afile_open(&a, "/dev/full", err, sizeof err), GV_OK);
    ASSERT(a.direct);
    fputs("row\n", a.f);
    ASSERT_EQ(afile_prepare(&a, err, sizeof err), GV_EIO);
    ASSERT_CONTAINS(err, "No space left on device");
    afile_abort(&a);  /* harmless after a failed prepare */
}

/* SIGINT, SIGTERM, SIGHUP: the pending temporary files and directories are
 * removed, a pending child process is killed and reaped, and the process
 * dies by the signal (its status is 128 + N in a shell). */
static void test_signals(void)
{
    const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
    int report[2];  /* the test process tells its child's pid */
    ASSERT(pipe(report) == 0);
    for (int i = 0; i < 3; i++) {
        pid_t pid = fork();
        ASSERT(pid >= 0);
        if (pid == 0) {
            char path[128], err[GV_ERRLEN];
            struct afile a, b;
            signal(sigs[i], SIG_DFL);  /* as for a foreground command */
            afile_catch_signals();
            snprintf(path, sizeof path, "%s/a.csv", dir);
            if (afile_open(&a, path, err, sizeof err) != GV_OK) _exit(90);
            snprintf(path, sizeof path, "%s/b.json", dir);
            if (afile_open(&b, path, err, sizeof err) != GV_OK) _exit(91);
            fputs("partial", a.f);
            if (afile_prepare(&b, err, sizeof err) != GV_OK) _exit(92);
            /* a temporary file made by another program (gnuplot's PNG) */
            snprintf(path, sizeof path, "%s/c.png.tmp.XXXXXX", dir);
            int slot, fd = afile_mkstemp(path, &slot);
            if (fd < 0 || slot < 0) _exit(93);
            close(fd);
            /* a private directory with files (the Ruby backend's) */
            snprintf(path, sizeof path, "%s/d.tmp.XXXXXX", dir);
            if (!afile_mkdtemp(path, &slot) || slot < 0) _exit(95);
            size_t n = strlen(path);
            for (int k = 0; k < 300; k++) {  /* more than one getdents64 buffer */
                snprintf(path + n, sizeof path - n, "/file-with-a-long-name-%03d", k);
                fd = open(path, O_WRONLY | O_CREAT, 0600);
                if (fd < 0) _exit(96);
                close(fd);
            }
            /* a child that would run on: killed and reaped by the handler */
            sigset_t held;
            afile_hold(&held);
            pid_t kid = fork();
            if (kid == 0) {
                for (;;) pause();
            }
            if (kid < 0 || afile_track_child(kid) < 0) _exit(97);
            afile_release(&held);
            if (write(report[1], &kid, sizeof kid) != (ssize_t)sizeof kid) _exit(98);
            raise(sigs[i]);
            _exit(94);  /* not reached */
        }
        int st;
        ASSERT_EQ(waitpid(pid, &st, 0), pid);
        ASSERT(WIFSIGNALED(st));
        ASSERT_EQ(WTERMSIG(st), sigs[i]);
        ASSERT_EQ(temp_files(), 0);
        pid_t kid = 0;
        ASSERT_EQ(read(report[0], &kid, sizeof kid), (ssize_t)sizeof kid);
        ASSERT(kid > 0);
        int alive = kill(kid, 0) == 0 || errno != ESRCH;  /* killed, and reaped by the handler */
        if (alive) kill(kid, SIGKILL);
        ASSERT(!alive);
    }
    close(report[0]);
    close(report[1]);
    /* A signal ignored at start (a shell's background job) stays ignored. */
    pid_t pid = fork();
    ASSERT(pid >= 0);
    if (pid == 0) {
        signal(SIGINT, SIG_IGN);
        afile_catch_signals();
        raise(SIGINT);
        _exit(0);
    }
    int st;
    ASSERT_EQ(waitpid(pid, &st, 0), pid);
    ASSERT(WIFEXITED(st) && WEXITSTATUS(st) == 0);
}

int main(void)
{
    snprintf(dir, sizeof dir, "/tmp/gvlsim_afile_XXXXXX");
    ASSERT(mkdtemp(dir));
    RUN(test_two_phases);
    RUN(test_prepare_fails);
    RUN(test_signals);
    rmdir(dir);
    TEST_DONE();
}
