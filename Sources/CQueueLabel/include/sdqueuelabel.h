#ifndef SDPORT_SDQUEUELABEL_H
#define SDPORT_SDQUEUELABEL_H
/* Where the calling code runs, for SDWebImageTrace. libdispatch answers "which queue am I on" through
 * dispatch_queue_get_label(DISPATCH_CURRENT_QUEUE_LABEL); Swift's Dispatch overlay on Linux does not expose that
 * call (only the label of a queue you already hold), so it is made here, in C. */
#include <stdint.h>

/* The label of the queue the caller runs on ("" when it has none, e.g. a thread libdispatch did not start).
 * The string belongs to the queue: copy it before the queue can go away. */
const char *sdport_current_queue_label(void);

/* The kernel's id of the calling thread (gettid), the number `top -H` and `ps -L` show. */
uint64_t sdport_current_thread_id(void);

#endif
