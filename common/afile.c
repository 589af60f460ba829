/* afile.c - temporary file + rename, in two phases, and the table of
 * pending temporary files, directories and child processes that the
 * signal handler cleans up.
 *
 * Only regular files are replaced that way.  An existing device, FIFO or
 * socket (`-o /dev/null`, `-o /dev/stdout`, a pipe) is written in place:
 * renaming a temporary file over /dev/null would replace the device node
 * with a regular file for every program on the machine.  A symbolic link
 * to a regular file is resolved, so the link survives and its target is
 * replaced atomically. */
#include "afile.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "err.h"

/* ---- pending temporary files ----------------------------------------------
 * A slot is free (0), being filled (1) or armed (2); the handler acts on
 * the armed ones: a child process is killed and reaped first (so that it
 * writes nothing more), then files are unlinked, then directories emptied
 * and removed.  The path is copied into the slot, so the handler never
 * reads memory that another thread may free.  More pending entries than
 * slots (or a longer path) only lose the clean-up, never the output. */
#define AFILE_SLOTS 32
#define AFILE_SLOT_PATH 4096

enum pending_kind { PENDING_FILE, PENDING_DIR, PENDING_CHILD };

static struct {
    atomic_int state;
    enum pending_kind kind;
    pid_t pid;  /* PENDING_CHILD */
    char path[AFILE_SLOT_PATH];
} afile_pending[AFILE_SLOTS];

static int pending_add(enum pending_kind kind, const char *path, pid_t pid)
{
    size_t n = path ? strlen(path) : 0;
    if (n >= AFILE_SLOT_PATH) return -1;
    for (int i = 0; i < AFILE_SLOTS; i++) {
        int expect = 0;
        if (!atomic_compare_exchange_strong(&afile_pending[i].state, &expect, 1)) continue;
        afile_pending[i].kind = kind;
        afile_pending[i].pid = pid;
        memcpy(afile_pending[i].path, path ? path : "", n + 1);
        atomic_store(&afile_pending[i].state, 2);
        return i;
    }
    return -1;
}

static void pending_remove(int slot)
{
    if (slot >= 0) atomic_store(&afile_pending[slot].state, 0);
}

/* Empty the directory `path` (its files; it holds no subdirectory) and
 * remove it, with async-signal-safe calls only: open, the getdents64
 * system call (readdir may allocate), unlinkat, rmdir.  Unlinking while
 * reading can skip entries, so it reads again from the start until a
 * pass finds nothing (at most a few passes). */
static void remove_dir(const char *path)
{
    for (int pass = 0; rmdir(path) != 0 && errno == ENOTEMPTY && pass < 8; pass++) {
        int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (fd < 0) return;
        _Alignas(8) char buf[4096];
        long n;
        while ((n = syscall(SYS_getdents64, fd, buf, sizeof buf)) > 0)
            for (long off = 0; off < n;) {
                /* struct linux_dirent64: d_ino (8), d_off (8), d_reclen (2), d_type (1), d_name */
                unsigned short reclen;
                memcpy(&reclen, buf + off + 16, sizeof reclen);
                const char *name = buf + off + 19;
                if (strcmp(name, ".") != 0 && strcmp(name, "..") != 0) unlinkat(fd, name, 0);
                off += reclen;
            }
        close(fd);
    }
}

static void on_signal(int sig)
{
    int saved = errno;
    for (int i = 0; i < AFILE_SLOTS; i++)
        if (atomic_load(&afile_pending[i].state) == 2 && afile_pending[i].kind == PENDING_CHILD) {
            kill(afile_pending[i].pid, SIGKILL);
            while (waitpid(afile_pending[i].pid, NULL, 0) < 0 && errno == EINTR) {}
        }
    for (int i = 0; i < AFILE_SLOTS; i++)
        if (atomic_load(&afile_pending[i].state) == 2 && afile_pending[i].kind == PENDING_FILE)
            unlink(afile_pending[i].path);
    for (int i = 0; i < AFILE_SLOTS; i++)
        if (atomic_load(&afile_pending[i].state) == 2 && afile_pending[i].kind == PENDING_DIR)
            remove_dir(afile_pending[i].path);
    errno = saved;
    /* SA_RESETHAND restored the default action: delivered when the handler
     * returns, it ends the process with this signal's status. */
    raise(sig);
}

void afile_catch_signals(void)
{
    static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
        struct sigaction old, sa;
        if (sigaction(sigs[i], NULL, &old) != 0 || old.sa_handler == SIG_IGN) continue;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_signal;
        sa.sa_flags = SA_RESETHAND;
        sigemptyset(&sa.sa_mask);
        for (size_t j = 0; j < sizeof sigs / sizeof sigs[0]; j++) sigaddset(&sa.sa_mask, sigs[j]);
        sigaction(sigs[i], &sa, NULL);
    }
}

void afile_untrack(int slot) { pending_remove(slot); }

void afile_hold(sigset_t *old)
{
    sigset_t block;
    sigemptyset(&block);
    sigaddset(&block, SIGINT);
    sigaddset(&block, SIGTERM);
    sigaddset(&block, SIGHUP);
    pthread_sigmask(SIG_BLOCK, &block, old);
}

void afile_release(const sigset_t *old)
{
    int e = errno;
    pthread_sigmask(SIG_SETMASK, old, NULL);
    errno = e;
}

int afile_mkstemp(char *tmpl, int *slot)
{
    /* no signal between the file's creation and its entry in the table:
     * it would leave the file behind */
    sigset_t old;
    afile_hold(&old);
    int fd = mkstemp(tmpl);
    *slot = fd >= 0 ? pending_add(PENDING_FILE, tmpl, 0) : -1;
    afile_release(&old);
    return fd;
}

char *afile_mkdtemp(char *tmpl, int *slot)
{
    sigset_t old;
    afile_hold(&old);
    char *dir = mkdtemp(tmpl);
    *slot = dir ? pending_add(PENDING_DIR, tmpl, 0) : -1;
    afile_release(&old);
    return dir;
}

int afile_track_child(pid_t pid) { return pending_add(PENDING_CHILD, NULL, pid); }

/* ---- the files ------------------------------------------------------------ */

static void release(struct afile *a)
{
    free(a->path);
    free(a->tmp);
    memset(a, 0, sizeof *a);
    a->slot = -1;
}

int afile_open(struct afile *a, const char *path, char *err, size_t errlen)
{
    memset(a, 0, sizeof *a);
    a->slot = -1;
    if (strcmp(path, "-") == 0) {
        a->f = stdout;
        return GV_OK;
    }
    struct stat st;
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
        if (S_ISDIR(st.st_mode))
            return gv_fail(err, errlen, GV_EIO, "%s: is a directory", path);
        a->f = fopen(path, "w");  /* a device or a pipe: write in place */
        if (!a->f) return gv_fail(err, errlen, GV_EIO, "%s: cannot open for writing: %s", path, strerror(errno));
        a->direct = 1;
        return GV_OK;
    }
    char *resolved = NULL;
    struct stat lst;
    if (lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode)) resolved = realpath(path, NULL);
    if (resolved) path = resolved;
    size_t n = strlen(path);
    a->path = strdup(path);
    a->tmp = malloc(n + 16);
    free(resolved);
    if (!a->path || !a->tmp) {
        release(a);
        return gv_fail(err, errlen, GV_ENOMEM, "output file: out of memory");
    }
    snprintf(a->tmp, n + 16, "%s.tmp.XXXXXX", a->path);
    int fd = afile_mkstemp(a->tmp, &a->slot);
    if (fd < 0) {
        int rc = gv_fail(err, errlen, GV_EIO, "%s: cannot create output file: %s", a->path, strerror(errno));
        release(a);
        return rc;
    }
    fchmod(fd, 0644);
    a->f = fdopen(fd, "w");
    if (!a->f) {
        int rc = gv_fail(err, errlen, GV_EIO, "%s: %s", a->path, strerror(errno));
        close(fd);
        unlink(a->tmp);
        pending_remove(a->slot);
        release(a);
        return rc;
    }
    return GV_OK;
}

int afile_prepare(struct afile *a, char *err, size_t errlen)
{
    if (a->prepared || !a->f) return GV_OK;
    a->prepared = true;
    if (!a->path) {  /* stdout, or a device / pipe written in place */
        int bad = fflush(a->f) != 0 || ferror(a->f);
        int e = errno;
        if (a->direct && fclose(a->f) != 0 && !bad) { bad = 1; e = errno; }
        a->f = NULL;
        return bad ? gv_fail(err, errlen, GV_EIO, "output: write error: %s", strerror(e)) : GV_OK;
    }
    int bad = fflush(a->f) != 0 || ferror(a->f);
    int e = errno;
    if (fclose(a->f) != 0 && !bad) { bad = 1; e = errno; }
    a->f = NULL;
    if (!bad) return GV_OK;
    int rc = gv_fail(err, errlen, GV_EIO, "%s: write error: %s", a->path, strerror(e));
    unlink(a->tmp);
    pending_remove(a->slot);
    release(a);
    return rc;
}

int afile_commit(struct afile *a, char *err, size_t errlen)
{
    int rc = afile_prepare(a, err, errlen);
    if (rc != GV_OK || !a->path) {
        release(a);
        return rc;
    }
    if (rename(a->tmp, a->path) != 0) {
        rc = gv_fail(err, errlen, GV_EIO, "%s: cannot rename into place: %s", a->path, strerror(errno));
        unlink(a->tmp);
    }
    pending_remove(a->slot);
    release(a);
    return rc;
}

void afile_abort(struct afile *a)
{
    if (a->f && (a->path || a->direct)) fclose(a->f);
    if (a->tmp) unlink(a->tmp);
    pending_remove(a->slot);
    release(a);
}
