/* calltime.h - where a Ruby method's own CPU falls between its system
 * calls, from the records of the call-timing preload library
 * (exec/calltime_rec.h, exec/preload/calltime.c), for `gvlsim calibrate`'s
 * method_work and method_work_after.
 *
 * The measuring Ruby runs three loops in turn, each of which ends every
 * iteration with a marker (Process.ppid): the marker alone, File.mtime then
 * the marker, File.write then the marker.  The gaps between one recorded
 * call's return and the next call are CPU the Ruby spends holding the GVL:
 * the loop's own (marker to marker), and each method's before, between and
 * after its calls. */
#ifndef EXEC_CALLTIME_H
#define EXEC_CALLTIME_H

#include <stddef.h>

#include "calltime_rec.h"

enum calltime_gap {
    CALLTIME_GAP_LOOP,         /* marker -> marker with nothing between: the loop and the marker's own call */
    CALLTIME_GAP_MTIME_BEFORE, /* marker -> stat: the loop, then File.mtime before its stat */
    CALLTIME_GAP_MTIME_AFTER,  /* stat -> marker: File.mtime after its stat, then the marker's call */
    CALLTIME_GAP_WRITE_BEFORE, /* marker -> open: the loop, then File.write before its open */
    CALLTIME_GAP_OPEN_WRITE,   /* open -> write: File.write between them */
    CALLTIME_GAP_WRITE_CLOSE,  /* write -> close */
    CALLTIME_GAP_WRITE_AFTER,  /* close -> marker: File.write after its close, then the marker's call */
    CALLTIME_NGAPS
};

/* The shared object (its bytes in the executable) and its size. */
const unsigned char *calltime_lib(size_t *size);

/* The gaps of `n` records: each kind's cycles (after the first eighth, a
 * warm-up) in `nchunks` consecutive chunks, the median gap of each chunk
 * in out[kind * nchunks + chunk], ns.  A cycle is a marker, the kind's
 * calls in order, and the next marker; any other sequence is skipped.
 * GV_OK, or GV_ERUN (err says which kind had fewer than nchunks cycles:
 * the Ruby called something else). */
int calltime_gaps(const struct calltime_rec *r, size_t n, int nchunks, double *out, char *err, size_t errlen);

#endif
