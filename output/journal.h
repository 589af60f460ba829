/* journal.h - an append-only log of completed runs, so that a long sweep
 * survives being killed.
 *
 * One journal per output file ("OUT.csv.journal"): a sweep appends a record
 * for each run as it completes, with a single write(2) (so a killed process
 * loses nothing it finished) and an fdatasync at most once a second (so a
 * machine that goes down loses at most the last second); `--resume` reads
 * the records back and runs only what is missing.  The journal starts with
 * a description of the sweep (scenario, options, values), and is resumed
 * only by the same sweep.
 *
 * Format (text, one record after another):
 *     gvlsim-journal 1 LEN CRC\n DESCRIPTION \n
 *     K INDEX CODE LEN CRC\n DATA \n
 * K is R (a run's result: DATA is its output, CODE its exit code, 0 if it
 * succeeded) or T (DATA is the name of the output's temporary file, which
 * a resumed sweep removes: a killed process cannot); LEN is DATA's length
 * in bytes, CRC its CRC-32 in hex.  A torn last record (the process died in
 * the middle of writing it) is dropped when the journal is resumed. */
#ifndef OUTPUT_JOURNAL_H
#define OUTPUT_JOURNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct journal;

/* A record read back by jnl_open: GV_OK to go on, or an error code. */
typedef int (*jnl_record_fn)(void *ctx, char kind, uint64_t index, int code, const char *data,
                             size_t len);

/* Open the journal at `path` for the sweep described by `desc`.  If none
 * exists, create it (GV_OK).  If one exists: without `resume`, GV_EUSAGE
 * (the message says to resume or remove it); with `resume`, GV_EUSAGE if
 * it describes another sweep, else every intact record goes to `record`
 * and the journal is reopened for appending.  GV_EIO: unreadable,
 * unwritable or not a journal.  *out is NULL on failure. */
int jnl_open(struct journal **out, const char *path, const char *desc, bool resume,
             jnl_record_fn record, void *ctx, char *err, size_t errlen);
/* Append one record (see above). */
int jnl_append(struct journal *j, char kind, uint64_t index, int code, const char *data, size_t len,
               char *err, size_t errlen);
/* Flush to disk and close; `remove` deletes it (the sweep is complete and
 * its output committed).  Frees j. */
int jnl_close(struct journal *j, bool remove, char *err, size_t errlen);

#endif
