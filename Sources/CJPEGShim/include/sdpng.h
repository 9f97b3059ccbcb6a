#ifndef SDPORT_SDPNG_H
#define SDPORT_SDPNG_H
/* libpng's progressive reader (png_process_data) for partial PNG data. libpng reports errors by longjmp, so
 * it is driven from C with setjmp, like libjpeg in sdjpeg.c. Whole-file decoding uses libpng's simplified
 * API from Swift instead (it catches its own errors). The header exposes no libpng types. */
#include <stddef.h>
#include <stdint.h>

enum {
    SDPNG_OK = 0,
    SDPNG_ERROR = -1,      /* libpng refused the data; the info's message says why */
    SDPNG_TOO_LARGE = -2,  /* the header claims more pixels than the stream was allowed */
};

typedef struct sdpng_stream sdpng_stream;

typedef struct {
    uint32_t width;
    uint32_t height;
    int header_ready;      /* 1 once the header has been read and the canvas exists */
    int has_alpha;         /* 1 for an alpha channel or a tRNS chunk */
    int interlaced;        /* 1 for Adam7 */
    int rows_done;         /* rows complete in the final pass (rows from the top that will not change) */
    int pass;              /* the pass the last row belonged to (0 for non-interlaced) */
    int finished;          /* 1 once the IEND chunk was read */
    int failed;            /* 1 after an error: the stream accepts no more data */
    char message[200];
} sdpng_stream_info;

/* A stream that refuses images of more than max_pixels pixels before allocating their canvas. */
sdpng_stream *sdpng_stream_create(uint64_t max_pixels);
void sdpng_stream_destroy(sdpng_stream *stream);

/* Feeds the next bytes of the file (only the new ones). */
int sdpng_stream_feed(sdpng_stream *stream, const uint8_t *bytes, size_t size);

void sdpng_stream_get_info(const sdpng_stream *stream, sdpng_stream_info *info);

/* Copies the canvas as RGBA8 straight alpha (pixels not decoded yet are transparent black) into `out`,
 * rows `stride` bytes apart. Returns SDPNG_ERROR when there is no canvas yet or the buffer is too small. */
int sdpng_stream_copy_rgba(const sdpng_stream *stream, uint8_t *out, size_t stride, size_t capacity);

#endif
