#ifndef SDPORT_SDJPEG_H
#define SDPORT_SDJPEG_H
/* libjpeg calls made from C so that its longjmp-based error handling never crosses a Swift frame
 * (libjpeg's default error_exit calls exit(); this shim installs its own and jumps back with setjmp).
 * The header exposes no libjpeg types, so jpeglib.h is never seen through two Clang modules. */
#include <stddef.h>
#include <stdint.h>

enum {
    SDJPEG_OK = 0,
    SDJPEG_ERROR = -1,       /* libjpeg refused the data; info->message says why */
    SDJPEG_TRUNCATED = -2,   /* the data ended before the image did, and complete data was required */
    SDJPEG_BAD_BUFFER = -3,  /* the caller's buffer does not match the image's size */
};

typedef struct {
    int width;               /* output size in pixels */
    int height;
    int jpeg_color_space;    /* J_COLOR_SPACE of the file: 1 gray, 2 RGB, 3 YCbCr, 4 CMYK, 5 YCCK */
    int progressive;         /* 1 for a progressive (multi-scan) JPEG */
    int num_warnings;        /* libjpeg warnings, e.g. "Corrupt JPEG data: ..." */
    int hit_end_of_data;     /* 1 when the data ended early ("Premature end of JPEG file") */
    int end_of_data_row;     /* output scanline at which the data ended, or -1 */
    char message[200];       /* the last error or warning text (JMSG_LENGTH_MAX) */
} sdjpeg_info;

/* Reads the header only: fills width, height, jpeg_color_space, progressive. */
int sdjpeg_read_header(const uint8_t *data, size_t size, sdjpeg_info *info);

/* Decodes to RGBA8 (alpha 255) into `out`, rows `stride` bytes apart, `capacity` bytes in all; the caller sizes
 * it from sdjpeg_read_header. Gray, YCbCr, RGB, CMYK and YCCK files are all converted to RGB.
 * allow_truncated = 0: data that ends early is SDJPEG_TRUNCATED. allow_truncated = 1: it decodes what arrived,
 * libjpeg filling the rest (for progressive loading); info->end_of_data_row says where the data ended. */
int sdjpeg_decode_rgba(const uint8_t *data, size_t size, int allow_truncated,
                       uint8_t *out, size_t stride, size_t capacity, sdjpeg_info *info);

/* Row by row, to scale a large image down without its whole bitmap: open reads the header and starts
 * decoding to RGBA8 (NULL on error or for CMYK/YCCK, info->message says why); read_row writes the next row
 * (info->width * 4 bytes); data that ends early is finished as sdjpeg_decode_rgba with allow_truncated = 1
 * finishes it (sdjpeg_stream_info says where it ended); after the first SDJPEG_ERROR every further call fails
 * at once without touching libjpeg; close frees everything. The data must outlive the stream. */
typedef struct sdjpeg_stream sdjpeg_stream;
sdjpeg_stream *sdjpeg_stream_open(const uint8_t *data, size_t size, sdjpeg_info *info);
int sdjpeg_stream_read_row(sdjpeg_stream *s, uint8_t *row);
const sdjpeg_info *sdjpeg_stream_info(const sdjpeg_stream *s);  /* its message after an error */
void sdjpeg_stream_close(sdjpeg_stream *s);

#endif
