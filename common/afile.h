/* afile.h - all-or-nothing output files.
 *
 * Output goes to a temporary file beside the target ("PATH.tmp.XXXXXX")
 * and is renamed over PATH only by afile_commit, so a failed or interrupted
 * run never leaves a half-written file.  PATH "-" means stdout; an existing
 * device or FIFO (e.g. /dev/null) is written in place, never replaced.
 *
 * Several outputs of one run are committed together in two phases:
 * afile_prepare each (every byte written and checked: a full disk or a
 * write error shows here, and then the temporary file is removed), and
 * only if all succeeded, afile_commit each (a rename); otherwise
 * afile_abort each.  Only a failing rename, after every write succeeded,
 * can then leave one output committed and not another.
 *
 * Interruption: afile_catch_signals() makes SIGINT, SIGTERM and SIGHUP
 * remove the temporary file of every output not yet committed, and the
 * temporary directories and child processes entered below (the pending
 * entries are kept in a fixed table, read by the handler with
 * async-signal-safe calls only: the one process-wide state of gvlsim), and
 * then end the process by the same signal, so that its exit status is the
 * conventional 128 + signal (130 for SIGINT).  Files that are not afiles,
 * like a sweep's journal, are left alone. */
#ifndef GV_AFILE_H
#define GV_AFILE_H

#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>

struct afile {
    FILE *f;     /* NULL once prepared */
    char *path;  /* target, NULL for stdout and direct outputs */
    char *tmp;   /* temporary name, NULL for stdout and direct outputs */
    int direct;  /* an existing device or pipe, written in place */
    int slot;    /* index in the table of pending files, or -1 */
    bool prepared;
};

/* Returns GV_OK or GV_EIO / GV_ENOMEM with a message naming the file. */
int afile_open(struct afile *a, const char *path, char *err, size_t errlen);
/* Phase 1: flush and close (a direct output or stdout: flush), checking
 * every write.  On failure the output is aborted (GV_EIO, message). */
int afile_prepare(struct afile *a, char *err, size_t errlen);
/* Phase 2: prepare if not yet done, then rename into place. */
int afile_commit(struct afile *a, char *err, size_t errlen);
/* Close and remove the temporary file (no-op after commit). */
void afile_abort(struct afile *a);

/* Install the handlers described above (a signal ignored when gvlsim
 * started, as for a background job of a shell, stays ignored). */
void afile_catch_signals(void);

/* A temporary file made by other means (a PNG that gnuplot writes before it
 * is renamed into place) joins the pending ones: afile_mkstemp creates it
 * as mkstemp(3) does and enters it in the table with those signals blocked
 * (*slot: its entry, or -1 if the table is full), afile_untrack(slot) takes
 * it out once it is renamed or removed. */
int afile_mkstemp(char *tmpl, int *slot);
void afile_untrack(int slot);

/* A private temporary directory (the Ruby backend's program and its
 * output) joins them the same way: afile_mkdtemp creates it as mkdtemp(3)
 * does; the handler removes the files in it, then it (it must hold no
 * subdirectory).  afile_untrack(slot) once the caller has removed it. */
char *afile_mkdtemp(char *tmpl, int *slot);

/* A child process whose files are pending: the handler kills it (SIGKILL)
 * and reaps it before it removes anything, so that the child writes no
 * new file into a directory being removed, and does not run on after
 * gvlsim.  Enter it between afile_hold and afile_release around its spawn
 * (no signal may come between the two); afile_untrack(slot) as soon as it
 * has been reaped.  Returns the slot, or -1 if the table is full. */
int afile_track_child(pid_t pid);
/* Block SIGINT, SIGTERM and SIGHUP in the calling thread (the previous
 * mask in *old), and restore them (errno is kept). */
void afile_hold(sigset_t *old);
void afile_release(const sigset_t *old);

#endif
