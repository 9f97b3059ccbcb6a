#include "sdjpeg.h"
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jpeglib.h>
#include <jerror.h>

/* The error manager: libjpeg's public part first, then where to jump and what to report. */
typedef struct {
    struct jpeg_error_mgr pub;
    jmp_buf jump;
    sdjpeg_info *info;
    int allow_truncated;
} sdjpeg_error_mgr;

/* Replaces error_exit (which would print and exit the process): keep the message and jump back. */
static void sdjpeg_error_exit(j_common_ptr cinfo) {
    sdjpeg_error_mgr *err = (sdjpeg_error_mgr *)cinfo->err;
    (*cinfo->err->format_message)(cinfo, err->info->message);
    longjmp(err->jump, 1);
}

/* Replaces emit_message: counts warnings instead of printing them, and notices when the data ran out. */
static void sdjpeg_emit_message(j_common_ptr cinfo, int msg_level) {
    sdjpeg_error_mgr *err = (sdjpeg_error_mgr *)cinfo->err;
    if (msg_level >= 0) return;  /* trace messages */
    err->pub.num_warnings++;
    err->info->num_warnings++;
    (*cinfo->err->format_message)(cinfo, err->info->message);
    if (cinfo->err->msg_code == JWRN_JPEG_EOF && !err->info->hit_end_of_data) {
        err->info->hit_end_of_data = 1;
        if (cinfo->is_decompressor) {
            err->info->end_of_data_row = (int)((j_decompress_ptr)cinfo)->output_scanline;
        }
        if (!err->allow_truncated) longjmp(err->jump, 2);
    }
}

static void sdjpeg_setup(struct jpeg_decompress_struct *cinfo, sdjpeg_error_mgr *err, sdjpeg_info *info,
                         int allow_truncated) {
    memset(info, 0, sizeof *info);
    info->end_of_data_row = -1;
    cinfo->err = jpeg_std_error(&err->pub);
    err->pub.error_exit = sdjpeg_error_exit;
    err->pub.emit_message = sdjpeg_emit_message;
    err->info = info;
    err->allow_truncated = allow_truncated;
}

static void sdjpeg_fill_header_info(const struct jpeg_decompress_struct *cinfo, sdjpeg_info *info) {
    info->width = (int)cinfo->image_width;
    info->height = (int)cinfo->image_height;
    info->jpeg_color_space = (int)cinfo->jpeg_color_space;
    info->progressive = cinfo->progressive_mode ? 1 : 0;
}

int sdjpeg_read_header(const uint8_t *data, size_t size, sdjpeg_info *info) {
    struct jpeg_decompress_struct cinfo;
    sdjpeg_error_mgr err;
    sdjpeg_setup(&cinfo, &err, info, 0);
    if (size == 0) {
        strcpy(info->message, "Empty input buffer");
        return SDJPEG_ERROR;
    }
    if (setjmp(err.jump)) {
        int truncated = info->hit_end_of_data;
        jpeg_destroy_decompress(&cinfo);
        return truncated ? SDJPEG_TRUNCATED : SDJPEG_ERROR;
    }
    jpeg_create_decompress(&cinfo);
    jpeg_mem_src(&cinfo, data, (unsigned long)size);
    jpeg_read_header(&cinfo, TRUE);
    sdjpeg_fill_header_info(&cinfo, info);
    jpeg_destroy_decompress(&cinfo);
    return SDJPEG_OK;
}

/* CMYK to RGB in place. Adobe's writers (Photoshop, Pillow, ...) store CMYK inverted, which the APP14
 * marker announces; plain CMYK is stored as is. */
static void sdjpeg_cmyk_to_rgba(uint8_t *out, size_t stride, int width, int height, int adobe_inverted) {
    for (int y = 0; y < height; y++) {
        uint8_t *p = out + (size_t)y * stride;
        for (int x = 0; x < width; x++, p += 4) {
            unsigned c = p[0], m = p[1], ye = p[2], k = p[3];
            if (!adobe_inverted) { c = 255 - c; m = 255 - m; ye = 255 - ye; k = 255 - k; }
            /* inverted values: 255 means no ink, so the colour is (stored C) * (stored K) / 255 */
            p[0] = (uint8_t)((c * k + 127) / 255);
            p[1] = (uint8_t)((m * k + 127) / 255);
            p[2] = (uint8_t)((ye * k + 127) / 255);
            p[3] = 255;
        }
    }
}

int sdjpeg_decode_rgba(const uint8_t *data, size_t size, int allow_truncated,
                       uint8_t *out, size_t stride, size_t capacity, sdjpeg_info *info) {
    struct jpeg_decompress_struct cinfo;
    sdjpeg_error_mgr err;
    sdjpeg_setup(&cinfo, &err, info, allow_truncated);
    if (size == 0) {
        strcpy(info->message, "Empty input buffer");
        return SDJPEG_ERROR;
    }
    int jumped = setjmp(err.jump);
    if (jumped) {
        jpeg_destroy_decompress(&cinfo);
        return jumped == 2 ? SDJPEG_TRUNCATED : SDJPEG_ERROR;
    }
    jpeg_create_decompress(&cinfo);
    jpeg_mem_src(&cinfo, data, (unsigned long)size);
    jpeg_read_header(&cinfo, TRUE);
    sdjpeg_fill_header_info(&cinfo, info);
    int cmyk = cinfo.jpeg_color_space == JCS_CMYK || cinfo.jpeg_color_space == JCS_YCCK;
    /* libjpeg-turbo converts gray/YCbCr/RGB straight to RGBA; CMYK and YCCK only to CMYK (converted below). */
    cinfo.out_color_space = cmyk ? JCS_CMYK : JCS_EXT_RGBA;
    jpeg_start_decompress(&cinfo);
    if (cinfo.output_width != (JDIMENSION)info->width || cinfo.output_height != (JDIMENSION)info->height
        || cinfo.output_components != 4 || stride < (size_t)info->width * 4
        || capacity < stride * (size_t)info->height) {
        strcpy(info->message, "Output buffer does not match the image size");
        jpeg_destroy_decompress(&cinfo);
        return SDJPEG_BAD_BUFFER;
    }
    /* Many rows per call: one row per jpeg_read_scanlines call is markedly slower with 4:2:0 upsampling. */
    JSAMPROW rows[32];
    while (cinfo.output_scanline < cinfo.output_height) {
        JDIMENSION n = cinfo.output_height - cinfo.output_scanline;
        if (n > 32) n = 32;
        for (JDIMENSION i = 0; i < n; i++) rows[i] = out + (size_t)(cinfo.output_scanline + i) * stride;
        jpeg_read_scanlines(&cinfo, rows, n);
    }
    if (cmyk) sdjpeg_cmyk_to_rgba(out, stride, info->width, info->height, cinfo.saw_Adobe_marker);
    jpeg_finish_decompress(&cinfo);
    jpeg_destroy_decompress(&cinfo);
    return SDJPEG_OK;
}

/* A decoder that hands out rows one at a time (sdjpeg_stream_*), for scaling down without holding the whole
 * bitmap. The error manager lives in the stream, so each call can set its own jump point. */
struct sdjpeg_stream {
    struct jpeg_decompress_struct cinfo;
    sdjpeg_error_mgr err;
    sdjpeg_info info;  /* the stream's own: libjpeg's callbacks write to it on every call */
    int failed;        /* libjpeg jumped out of a call: it must not be called again, only destroyed */
};

sdjpeg_stream *sdjpeg_stream_open(const uint8_t *data, size_t size, sdjpeg_info *info) {
    sdjpeg_stream *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    /* Data that ends early is finished as the whole-image decode finishes it (rows filled); info says where. */
    sdjpeg_setup(&s->cinfo, &s->err, &s->info, 1);
    if (size == 0) {
        strcpy(s->info.message, "Empty input buffer");
        *info = s->info;
        free(s);
        return NULL;
    }
    if (setjmp(s->err.jump)) {
        jpeg_destroy_decompress(&s->cinfo);
        *info = s->info;
        free(s);
        return NULL;
    }
    jpeg_create_decompress(&s->cinfo);
    jpeg_mem_src(&s->cinfo, data, (unsigned long)size);
    jpeg_read_header(&s->cinfo, TRUE);
    sdjpeg_fill_header_info(&s->cinfo, &s->info);
    if (s->cinfo.jpeg_color_space == JCS_CMYK || s->cinfo.jpeg_color_space == JCS_YCCK) {
        strcpy(s->info.message, "CMYK is not streamed");
        jpeg_destroy_decompress(&s->cinfo);
        *info = s->info;
        free(s);
        return NULL;
    }
    s->cinfo.out_color_space = JCS_EXT_RGBA;
    jpeg_start_decompress(&s->cinfo);
    *info = s->info;
    return s;
}

int sdjpeg_stream_read_row(sdjpeg_stream *s, uint8_t *row) {
    if (s->failed) return SDJPEG_ERROR;
    int jumped = setjmp(s->err.jump);
    if (jumped) {
        s->failed = 1;
        return jumped == 2 ? SDJPEG_TRUNCATED : SDJPEG_ERROR;
    }
    if (s->cinfo.output_scanline >= s->cinfo.output_height) {
        strcpy(s->info.message, "Read past the last row");
        return SDJPEG_ERROR;
    }
    JSAMPROW rows[1] = { row };
    jpeg_read_scanlines(&s->cinfo, rows, 1);
    return SDJPEG_OK;
}

const sdjpeg_info *sdjpeg_stream_info(const sdjpeg_stream *s) { return &s->info; }

void sdjpeg_stream_close(sdjpeg_stream *s) {
    if (!s) return;
    /* jpeg_destroy_decompress also releases a decompressor that stopped in the middle (or after an error). */
    jpeg_destroy_decompress(&s->cinfo);
    free(s);
}
