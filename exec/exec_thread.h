/* exec_thread.h - the program interpreter of one real Ruby thread. */
#ifndef EXEC_EXEC_THREAD_H
#define EXEC_EXEC_THREAD_H

#include "exec_vm.h"

/* pthread entry point: wait at the start gate, take the GVL, run the
 * program, release the GVL, record the thread's context switches. */
void *exec_thread_main(void *arg);

#endif
