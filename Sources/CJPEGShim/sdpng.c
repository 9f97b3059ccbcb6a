#include "sdpng.h"
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <png.h>

struct sdpng_stream {
    png_structp png;
    png_infop info;
    uint64_t max_pixels;
    uint8_t *canvas;       /* width * height * 4 bytes, calloc'd once the header is known */
    size_t stride;
    int passes;
    int too_large;
    sdpng_stream_info state;
};

static void sdpng_error(png_structp png, png_const_charp message) {
    sdpng_stream *s = (sdpng_stream *)png_get_error_ptr(png);
    strncpy(s->state.message, message ? message : "libpng error", sizeof s->state.message - 1);
    png_longjmp(png, 1);
}

static void sdpng_warning(png_structp png, png_const_charp message) {
    (void)png;
    (void)message;  /* warnings (bad CRC in an ancillary chunk, ...) do not stop decoding */
}

static void sdpng_info_callback(png_structp png, png_infop info) {
    sdpng_stream *s = (sdpng_stream *)png_get_progressive_ptr(png);
    png_uint_32 width = png_get_image_width(png, info), height = png_get_image_height(png, info);
    if ((uint64_t)width * (uint64_t)height > s->max_pixels) {
        s->too_large = 1;
        s->state.width = width;
        s->state.height = height;
        png_error(png, "image too large");
    }
    int color_type = png_get_color_type(png, info);
    int has_trns = png_get_valid(png, info, PNG_INFO_tRNS) != 0;
    s->state.has_alpha = (color_type & PNG_COLOR_MASK_ALPHA) || has_trns;
    s->state.interlaced = png_get_interlace_type(png, info) != PNG_INTERLACE_NONE;
    /* Everything to 8-bit RGBA: palette and low-bit gray expanded, tRNS to alpha, 16 bits scaled down. */
    png_set_expand(png);
    if (png_get_bit_depth(png, info) == 16) png_set_scale_16(png);
    if (!(color_type & PNG_COLOR_MASK_COLOR)) png_set_gray_to_rgb(png);
    if (!s->state.has_alpha) png_set_filler(png, 0xFF, PNG_FILLER_AFTER);
    s->passes = png_set_interlace_handling(png);
    png_read_update_info(png, info);
    if (png_get_rowbytes(png, info) != (size_t)width * 4) png_error(png, "unexpected row size after transforms");
    s->stride = (size_t)width * 4;
    s->canvas = calloc((size_t)height, s->stride);
    if (!s->canvas) png_error(png, "out of memory");
    s->state.width = width;
    s->state.height = height;
    s->state.header_ready = 1;
}

static void sdpng_row_callback(png_structp png, png_bytep new_row, png_uint_32 row, int pass) {
    sdpng_stream *s = (sdpng_stream *)png_get_progressive_ptr(png);
    if (!new_row || row >= s->state.height) return;
    /* Interlaced rows arrive once per pass; combine_row merges only this pass's pixels. */
    png_progressive_combine_row(png, s->canvas + (size_t)row * s->stride, new_row);
    s->state.pass = pass;
    if (pass == s->passes - 1 || !s->state.interlaced) s->state.rows_done = (int)row + 1;
}

static void sdpng_end_callback(png_structp png, png_infop info) {
    (void)info;
    sdpng_stream *s = (sdpng_stream *)png_get_progressive_ptr(png);
    s->state.finished = 1;
}

sdpng_stream *sdpng_stream_create(uint64_t max_pixels) {
    sdpng_stream *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->max_pixels = max_pixels;
    s->png = png_create_read_struct(PNG_LIBPNG_VER_STRING, s, sdpng_error, sdpng_warning);
    if (!s->png) { free(s); return NULL; }
    s->info = png_create_info_struct(s->png);
    if (!s->info) { png_destroy_read_struct(&s->png, NULL, NULL); free(s); return NULL; }
    png_set_progressive_read_fn(s->png, s, sdpng_info_callback, sdpng_row_callback, sdpng_end_callback);
    return s;
}

void sdpng_stream_destroy(sdpng_stream *s) {
    if (!s) return;
    png_destroy_read_struct(&s->png, &s->info, NULL);
    free(s->canvas);
    free(s);
}

int sdpng_stream_feed(sdpng_stream *s, const uint8_t *bytes, size_t size) {
    if (s->state.failed) return s->too_large ? SDPNG_TOO_LARGE : SDPNG_ERROR;
    if (size == 0 || s->state.finished) return SDPNG_OK;
    if (setjmp(png_jmpbuf(s->png))) {
        s->state.failed = 1;
        return s->too_large ? SDPNG_TOO_LARGE : SDPNG_ERROR;
    }
    png_process_data(s->png, s->info, (png_bytep)bytes, size);
    return SDPNG_OK;
}

void sdpng_stream_get_info(const sdpng_stream *s, sdpng_stream_info *info) {
    *info = s->state;
}

int sdpng_stream_copy_rgba(const sdpng_stream *s, uint8_t *out, size_t stride, size_t capacity) {
    if (!s->canvas || stride < s->stride || capacity < stride * (size_t)s->state.height) return SDPNG_ERROR;
    for (uint32_t y = 0; y < s->state.height; y++) {
        memcpy(out + (size_t)y * stride, s->canvas + (size_t)y * s->stride, s->stride);
    }
    return SDPNG_OK;
}
