#define _GNU_SOURCE
#include "sdqueuelabel.h"
#include <sys/syscall.h>
#include <unistd.h>

/* Declared here rather than through <dispatch/dispatch.h>, which is not on a C target's include path on Linux;
 * libdispatch itself is linked into every Swift program that uses Foundation. A NULL queue is
 * DISPATCH_CURRENT_QUEUE_LABEL: "the queue this code runs on". */
extern const char *dispatch_queue_get_label(void *queue);
/* What dispatch_get_main_queue() expands to in <dispatch/queue.h>: the address of libdispatch's main queue. */
extern struct dispatch_queue_static_s _dispatch_main_q;

const char *sdport_current_queue_label(void) {
    const char *label = dispatch_queue_get_label((void *)0);
    return label ? label : "";
}

int sdport_is_current_queue(void *queue) {
    return dispatch_queue_get_label((void *)0) == dispatch_queue_get_label(queue);
}

int sdport_is_main_queue(void) {
    return dispatch_queue_get_label((void *)0) == dispatch_queue_get_label((void *)&_dispatch_main_q);
}

int sdport_is_main_queue_object(void *queue) {
    return dispatch_queue_get_label(queue) == dispatch_queue_get_label((void *)&_dispatch_main_q);
}

uint64_t sdport_current_thread_id(void) {
    return (uint64_t)syscall(SYS_gettid);
}
