/* calltime_blob.c - the call-timing preload library (exec/preload/calltime.c,
 * built as build/calltime.so by the Makefile before this file) carried in the
 * executable, so that `gvlsim calibrate` needs no file beside it. */
#include "calltime.h"

__asm__(".section .rodata\n"
        ".balign 16\n"
        "calltime_so_start:\n"
        ".incbin \"build/calltime.so\"\n"
        "calltime_so_end:\n"
        ".previous\n");

extern const unsigned char calltime_so_start[], calltime_so_end[];

const unsigned char *calltime_lib(size_t *size)
{
    *size = (size_t)(calltime_so_end - calltime_so_start);
    return calltime_so_start;
}
