#ifndef SDPORT_SDQUEUELABEL_H
#define SDPORT_SDQUEUELABEL_H
/* Where the calling code runs, for SDWebImageTrace. libdispatch answers "which queue am I on" through
 * dispatch_queue_get_label(DISPATCH_CURRENT_QUEUE_LABEL); Swift's Dispatch overlay on Linux does not expose that
 * call (only the label of a queue you already hold), so it is made here, in C. */
#include <stdint.h>

/* The label of the queue the caller runs on ("" when it has none, e.g. a thread libdispatch did not start).
 * The string belongs to the queue: copy it before the queue can go away. */
const char *sdport_current_queue_label(void);

/* 4.4.8's dispatch_queue_async_safe test: 1 when the label pointer of the queue the caller runs on is `queue`'s
 * (dispatch_queue_get_label(DISPATCH_CURRENT_QUEUE_LABEL) == dispatch_queue_get_label(queue)). `queue` is a
 * dispatch_queue_t. */
int sdport_is_current_queue(void *queue);

/* The same test for the main queue (dispatch_main_async_safe), without needing the Swift wrapper's queue object. */
int sdport_is_main_queue(void);

/* Whether `queue` (a dispatch_queue_t) is the main queue itself, by the same label-pointer test (5.x's
 * `queue == dispatch_get_main_queue()` in SDCallbackQueue.m). */
int sdport_is_main_queue_object(void *queue);

/* The kernel's id of the calling thread (gettid), the number `top -H` and `ps -L` show. */
uint64_t sdport_current_thread_id(void);

#endif
