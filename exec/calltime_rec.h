/* calltime_rec.h - the records of the call-timing preload library
 * (exec/preload/calltime.c) and their reader (exec/calltime.c).
 *
 * The library, LD_PRELOADed into a Ruby that `gvlsim calibrate` runs, times
 * the C library calls the Ruby methods of the Ruby backend make (File.write:
 * open, write, close; File.mtime: stat) and the marker the measuring loop
 * puts between two methods (Process.ppid: getppid), on the thread that made
 * the first marker, and writes them to the file named by GVLSIM_CALLTIME_OUT
 * when the process exits: a CALLTIME_MAGIC word, then one record per call,
 * in call order.  The gaps between a call's return and the next call are the
 * method's own CPU between its system calls. */
#ifndef EXEC_CALLTIME_REC_H
#define EXEC_CALLTIME_REC_H

#include <stdint.h>

#define CALLTIME_ENV "GVLSIM_CALLTIME_OUT"
#define CALLTIME_MAGIC UINT64_C(0x31656d69746c6163) /* "calltime1" */

enum calltime_call { CALLTIME_OPEN, CALLTIME_WRITE, CALLTIME_CLOSE, CALLTIME_STAT, CALLTIME_MARK, CALLTIME_NCALLS };

struct calltime_rec {
    int64_t enter_ns, exit_ns; /* CLOCK_MONOTONIC before the call and after it returned */
    uint32_t call;             /* enum calltime_call */
    uint32_t pad;
};

#endif
