/* spawn.c - run gvlsim as a child process (see spawn.h).
 *
 * The pipes are created close-on-exec, so that a child spawned at the same
 * time by another worker thread does not inherit them and hold them open
 * (its parent would then wait for EOF until that other child ends). */
#include "spawn.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../common/err.h"

extern char **environ;

struct buf {
    char *p;
    size_t n, cap;
};

static int buf_read(struct buf *b, int fd)
{
    if (b->cap - b->n < 4096) {
        size_t cap = b->cap ? 2 * b->cap : 8192;
        char *p = realloc(b->p, cap);
        if (!p) return -2;
        b->p = p;
        b->cap = cap;
    }
    ssize_t k = read(fd, b->p + b->n, b->cap - b->n - 1);
    if (k > 0) b->n += (size_t)k;
    if (b->p) b->p[b->n] = 0;
    return k > 0 ? 1 : (k == 0 ? 0 : (errno == EINTR ? 1 : -1));
}

int spawn_self(char *const argv[], struct spawn_result *res, char *err, size_t errlen)
{
    memset(res, 0, sizeof *res);
    int po[2] = { -1, -1 }, pe[2] = { -1, -1 };
    if (pipe2(po, O_CLOEXEC) != 0 || pipe2(pe, O_CLOEXEC) != 0) {
        int e = errno;
        for (int i = 0; i < 2; i++) {
            if (po[i] >= 0) close(po[i]);
            if (pe[i] >= 0) close(pe[i]);
        }
        return gv_fail(err, errlen, GV_EIO, "cannot create a pipe: %s", strerror(e));
    }
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&fa, po[1], 1);
    posix_spawn_file_actions_adddup2(&fa, pe[1], 2);
    pid_t pid;
    int src = posix_spawn(&pid, "/proc/self/exe", &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    close(po[1]);
    close(pe[1]);
    if (src != 0) {
        close(po[0]);
        close(pe[0]);
        return gv_fail(err, errlen, GV_EIO, "cannot run %s: %s", argv[0], strerror(src));
    }
    struct buf out = { 0 }, eb = { 0 };
    struct pollfd pf[2] = { { po[0], POLLIN, 0 }, { pe[0], POLLIN, 0 } };
    int open_fds = 2, rc = GV_OK;
    while (open_fds > 0) {
        if (poll(pf, 2, -1) < 0) {
            if (errno == EINTR) continue;
            rc = gv_fail(err, errlen, GV_EIO, "poll: %s", strerror(errno));
            break;
        }
        for (int i = 0; i < 2; i++) {
            if (pf[i].fd < 0 || !(pf[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
            int k = buf_read(i == 0 ? &out : &eb, pf[i].fd);
            if (k == -2 && rc == GV_OK) rc = gv_fail(err, errlen, GV_ENOMEM, "out of memory");
            if (k <= 0) {
                close(pf[i].fd);
                pf[i].fd = -1;
                open_fds--;
            }
        }
    }
    for (int i = 0; i < 2; i++)
        if (pf[i].fd >= 0) close(pf[i].fd);
    int st;
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR) {
            st = 0;
            if (rc == GV_OK) rc = gv_fail(err, errlen, GV_EIO, "waitpid: %s", strerror(errno));
            break;
        }
    res->out = out.p ? out.p : strdup("");
    res->errtext = eb.p ? eb.p : strdup("");
    if (WIFSIGNALED(st)) {
        res->signal = WTERMSIG(st);
        res->exit_code = GV_EXIT_RUN;
    } else {
        res->exit_code = WEXITSTATUS(st);
    }
    if (rc == GV_OK && (!res->out || !res->errtext)) rc = gv_fail(err, errlen, GV_ENOMEM, "out of memory");
    return rc;
}

void spawn_result_free(struct spawn_result *res)
{
    free(res->out);
    free(res->errtext);
    res->out = res->errtext = NULL;
}
