#!/usr/bin/env python3
"""Makes every image in Fixtures/ (see Fixtures/README.md for what each one is).

Run:  python3 -m venv /tmp/fxvenv && /tmp/fxvenv/bin/pip install Pillow
      /tmp/fxvenv/bin/python scripts/make-fixtures.py

JPEG and WebP come from Pillow (libjpeg and libwebp underneath). PNGs that Pillow cannot write (16-bit RGB,
Adam7 interlaced, a header with huge dimensions) and the GIFs (precise disposal modes, an interlaced frame,
a NETSCAPE2.0 loop count) are written byte by byte below, so their content is known exactly.
The output is deterministic: the same script makes the same bytes (random bytes come from a fixed seed).

Fixtures/hostile/ (decompression bombs and other hostile files, also fuzz seeds) is written byte by byte with the
standard library only; `python3 scripts/make-fixtures.py --hostile` makes just those, without Pillow.
"""
import gzip
import os
import random
import struct
import sys
import zlib

try:
    from PIL import Image
except ImportError:  # --hostile needs only the standard library
    Image = None

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Fixtures")


def path(name):
    return os.path.join(ROOT, name)


# ---------------------------------------------------------------- PNG writer (for what Pillow cannot write)

def png_chunk(kind, payload):
    body = kind + payload
    return struct.pack(">I", len(payload)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)


def png_bytes(width, height, bit_depth, color_type, pixel_rows, interlaced=False, bytes_per_pixel=3, level=9):
    """pixel_rows: list of `height` bytes objects, each width * bytes_per_pixel long. Filter 0 on every row.
    level: the zlib level of the IDAT data (0 stores it uncompressed)."""
    if interlaced:
        raw = bytearray()
        # Adam7: (x start, y start, x step, y step) per pass
        for x0, y0, dx, dy in [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]:
            if x0 >= width or y0 >= height:
                continue
            for y in range(y0, height, dy):
                raw.append(0)
                for x in range(x0, width, dx):
                    raw += pixel_rows[y][x * bytes_per_pixel:(x + 1) * bytes_per_pixel]
    else:
        raw = b"".join(b"\x00" + row for row in pixel_rows)
    ihdr = struct.pack(">IIBBBBB", width, height, bit_depth, color_type, 0, 0, 1 if interlaced else 0)
    return (b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", ihdr)
            + png_chunk(b"IDAT", zlib.compress(bytes(raw), level)) + png_chunk(b"IEND", b""))


# ---------------------------------------------------------------- GIF writer

def gif_lzw(indices):
    """LZW data for 8-bit indices, written as literal codes only: a clear code every 250 codes keeps the code
    width at 9 bits, so no string table is needed (valid GIF, just not small)."""
    clear, end = 256, 257
    codes = []
    for i, index in enumerate(indices):
        if i % 250 == 0:
            codes.append(clear)
        codes.append(index)
    codes.append(end)
    out, acc, nbits = bytearray(), 0, 0
    for code in codes:
        acc |= code << nbits
        nbits += 9
        while nbits >= 8:
            out.append(acc & 0xFF)
            acc >>= 8
            nbits -= 8
    if nbits:
        out.append(acc & 0xFF)
    blocks = bytearray([8])  # LZW minimum code size
    for i in range(0, len(out), 255):
        chunk = out[i:i + 255]
        blocks += bytes([len(chunk)]) + chunk
    return bytes(blocks + b"\x00")


GIF_PALETTE = [(0, 0, 0), (255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 255, 255), (255, 255, 0), (0, 255, 255), (128, 128, 128)]
TRANSPARENT = 7  # palette index used as the transparent colour where a frame asks for one


def gif_bytes(width, height, frames, loop_count=None):
    """frames: list of dicts with left, top, w, h, pixels (row-major indices), delay_cs, disposal,
    transparent (bool), interlaced (bool)."""
    out = bytearray(b"GIF89a")
    out += struct.pack("<HHBBB", width, height, 0xF2, 0, 0)  # global table of 8 colours, background index 0
    for rgb in GIF_PALETTE:
        out += bytes(rgb)
    if loop_count is not None:
        out += b"\x21\xFF\x0BNETSCAPE2.0\x03\x01" + struct.pack("<H", loop_count) + b"\x00"
    for f in frames:
        packed = (f["disposal"] << 2) | (1 if f["transparent"] else 0)
        out += b"\x21\xF9\x04" + struct.pack("<BHB", packed, f["delay_cs"], TRANSPARENT) + b"\x00"
        out += b"\x2C" + struct.pack("<HHHHB", f["left"], f["top"], f["w"], f["h"], 0x40 if f["interlaced"] else 0)
        rows = [f["pixels"][y * f["w"]:(y + 1) * f["w"]] for y in range(f["h"])]
        if f["interlaced"]:
            order = list(range(0, f["h"], 8)) + list(range(4, f["h"], 8)) + list(range(2, f["h"], 4)) + list(range(1, f["h"], 2))
            rows = [rows[y] for y in order]
        out += gif_lzw([i for row in rows for i in row])
    out += b"\x3B"
    return bytes(out)


def solid(w, h, index):
    return [index] * (w * h)


# ---------------------------------------------------------------- the fixtures

def block_color(bx, by):
    """Colour of the 16x16 block (bx, by) in blocks-based JPEG/WebP fixtures (tests recompute it)."""
    return (bx * 16 + 8, by * 20 + 10, ((bx + by) * 23) % 256)


def blocks_image():
    """256x192: 16x16 blocks of solid colour, aligned with JPEG's 4:2:0 MCUs so JPEG keeps each block's colour
    to within a few levels, and with enough entropy per row for partial-data tests."""
    im = Image.new("RGB", (256, 192))
    px = im.load()
    for y in range(192):
        for x in range(256):
            px[x, y] = block_color(x // 16, y // 16)
    return im


# The upright picture every orientation-N.jpg shows once its EXIF tag is applied: 4x2 blocks of 16x16, colours
# far apart so JPEG loss cannot confuse them (tests recompute them from ORIENTATION_COLORS).
ORIENTATION_COLORS = [
    [(255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 255, 255)],
    [(0, 0, 0), (255, 255, 0), (0, 255, 255), (255, 0, 255)],
]

# What a viewer does to the stored pixels for each EXIF orientation (Pillow's ImageOps.exif_transpose table),
# and the inverse the script applies to the upright picture so that the viewer's step undoes it.
if Image is not None:  # Pillow's fixtures only
    ORIENTATION_SHOW = {
        2: Image.Transpose.FLIP_LEFT_RIGHT, 3: Image.Transpose.ROTATE_180, 4: Image.Transpose.FLIP_TOP_BOTTOM,
        5: Image.Transpose.TRANSPOSE, 6: Image.Transpose.ROTATE_270, 7: Image.Transpose.TRANSVERSE,
        8: Image.Transpose.ROTATE_90,
    }
    ORIENTATION_STORE = {**ORIENTATION_SHOW, 6: Image.Transpose.ROTATE_90, 8: Image.Transpose.ROTATE_270}


def orientation_fixtures():
    """orientation-1.jpg ... orientation-8.jpg: each stores the 64x32 upright picture pre-transformed by the
    inverse of its EXIF orientation, so every one of them shows the same picture when the tag is applied."""
    upright = Image.new("RGB", (64, 32))
    px = upright.load()
    for y in range(32):
        for x in range(64):
            px[x, y] = ORIENTATION_COLORS[y // 16][x // 16]
    for n in range(1, 9):
        stored = upright.transpose(ORIENTATION_STORE[n]) if n in ORIENTATION_STORE else upright.copy()
        exif = Image.Exif()
        exif[0x0112] = n
        stored.save(path("orientation-%d.jpg" % n), quality=95, subsampling="4:2:0", exif=exif.tobytes())
        # Check the file the way a viewer shows it: tag applied, every block's centre the upright colour.
        with Image.open(path("orientation-%d.jpg" % n)) as saved:
            assert saved.getexif().get(0x0112) == n
            shown = saved.transpose(ORIENTATION_SHOW[n]) if n in ORIENTATION_SHOW else saved.copy()
        assert shown.size == (64, 32), (n, shown.size)
        for by in range(2):
            for bx in range(4):
                got = shown.getpixel((bx * 16 + 8, by * 16 + 8))
                want = ORIENTATION_COLORS[by][bx]
                assert all(abs(g - w) < 24 for g, w in zip(got, want)), (n, bx, by, got, want)


def write(name, data):
    with open(path(name), "wb") as f:
        f.write(data)


# ---------------------------------------------------------------- hostile files (Fixtures/hostile/, REL-01)
#
# Decompression bombs and other hostile inputs, each small on disk. Every one must end in one clear error or in an
# image within SDWebImageCoderHelper.maxDecodedPixelCount, with the process's memory bounded; each is also a fuzz
# seed (scripts/fuzz.sh copies Fixtures/hostile/ into the corpus of its format). Written byte by byte, so they need
# nothing but the standard library.

HOSTILE = "hostile"


def write_hostile(name, data):
    os.makedirs(path(HOSTILE), exist_ok=True)
    write(os.path.join(HOSTILE, name), data)


def zlib_of_zeros(count, chunk=1 << 20):
    """zlib data (level 9) for `count` zero bytes, compressed a chunk at a time so the zeros never sit in memory."""
    z = zlib.compressobj(9)
    out = bytearray()
    zeros = bytes(chunk)
    left = count
    while left:
        n = min(left, chunk)
        out += z.compress(zeros[:n])
        left -= n
    return bytes(out + z.flush())


def gif_one_pixel_frames(width, height, count, place):
    """A GIF89a of `width` x `height` with `count` frames of one pixel each (no graphic control extension, so each
    is shown for the default time); place(i) gives frame i's (left, top, colour index 0 or 1). Each frame is 15
    bytes: descriptor, LZW minimum code size 2, one sub-block holding clear, the pixel and end (3 bits each)."""
    out = bytearray(b"GIF89a" + struct.pack("<HHBBB", width, height, 0x80, 0, 0) + b"\x00\x00\x00\xff\x00\x00")
    for i in range(count):
        left, top, index = place(i)
        codes = 4 | (index << 3) | (5 << 6)  # clear (4), the index, end (5), packed from the low bit up
        out += b"\x2C" + struct.pack("<HHHHB", left, top, 1, 1, 0) + b"\x02\x02" + struct.pack("<H", codes) + b"\x00"
    return bytes(out + b"\x3B")


class BitWriter:
    """Bits least significant first, as VP8L reads them."""

    def __init__(self):
        self.value, self.count = 0, 0

    def put(self, value, bits):
        self.value |= value << self.count
        self.count += bits

    def data(self):
        return self.value.to_bytes((self.count + 7) // 8, "little")


def vp8l_solid(width, height, argb):
    """A lossless VP8L bitstream of one colour: no transform, no colour cache, five prefix codes of one symbol each
    (a one-symbol code takes 0 bits), so the pixels themselves take no bits at all, whatever the size."""
    a, r, g, b = argb
    w = BitWriter()
    w.put(0x2F, 8)
    w.put(width - 1, 14)
    w.put(height - 1, 14)
    w.put(1 if a != 255 else 0, 1)  # alpha_is_used
    w.put(0, 3)  # version
    w.put(0, 1)  # no transform
    w.put(0, 1)  # no colour cache
    w.put(0, 1)  # no meta prefix codes
    for symbol in (g, r, b, a, 0):  # green, red, blue, alpha, distance
        w.put(1, 1)  # simple code
        w.put(0, 1)  # one symbol
        w.put(1, 1)  # 8-bit symbol
        w.put(symbol, 8)
    return w.data()


def riff_chunk(fourcc, payload):
    return fourcc + struct.pack("<I", len(payload)) + payload + (b"\x00" if len(payload) % 2 else b"")


def webp_file(chunks):
    body = b"WEBP" + b"".join(chunks)
    return b"RIFF" + struct.pack("<I", len(body)) + body


def u24(value):
    return struct.pack("<I", value)[:3]


def vp8x(width, height, animated=False, alpha=False):
    flags = (0x02 if animated else 0) | (0x10 if alpha else 0)
    return riff_chunk(b"VP8X", bytes([flags, 0, 0, 0]) + u24(width - 1) + u24(height - 1))


def webp_animation(width, height, frames, loop_count=0):
    """frames: (x, y, w, h, duration_ms, argb) each, drawn as a solid VP8L frame (x, y even)."""
    chunks = [vp8x(width, height, animated=True, alpha=True), riff_chunk(b"ANIM", struct.pack("<IH", 0, loop_count))]
    for x, y, fw, fh, duration, argb in frames:
        header = u24(x // 2) + u24(y // 2) + u24(fw - 1) + u24(fh - 1) + u24(duration) + b"\x00"
        chunks.append(riff_chunk(b"ANMF", header + riff_chunk(b"VP8L", vp8l_solid(fw, fh, argb))))
    return webp_file(chunks)


def jpeg_segment(marker, payload):
    return b"\xFF" + bytes([marker]) + struct.pack(">H", len(payload) + 2) + payload


def jpeg_one_symbol_tables(dc_symbol, ac_symbol):
    """DHT with DC table 0 and AC table 0 holding one symbol each (code '0', one bit)."""
    counts = bytes([1] + [0] * 15)
    return jpeg_segment(0xC4, b"\x00" + counts + bytes([dc_symbol]) + b"\x10" + counts + bytes([ac_symbol]))


def jpeg_header(sof, width, height, components):
    dqt = jpeg_segment(0xDB, b"\x00" + bytes([1] * 64))
    comps = b"".join(bytes([c + 1, 0x11, 0]) for c in range(components))
    return b"\xFF\xD8" + dqt + jpeg_segment(sof, struct.pack(">BHHB", 8, height, width, components) + comps)


def jpeg_claiming(width, height):
    """A baseline grey JPEG whose frame header claims width x height, followed by a few blocks' worth of data
    (every block DC 0 and end of block: two bits) and EOI: the data ends long before such an image would."""
    sos = jpeg_segment(0xDA, b"\x01\x01\x00\x00\x3F\x00")
    return jpeg_header(0xC0, width, height, 1) + jpeg_one_symbol_tables(0x00, 0x00) + sos + bytes(64) + b"\xFF\xD9"


def jpeg_progressive_many_scans(side):
    """A progressive 4:4:4 YCbCr JPEG of side x side (side / 8 a power of two) whose coefficients are all 0 (a flat
    grey image), sent in the longest valid progression: one DC scan, then for each component and each of the 63 AC
    coefficients alone a first scan at point transform 13 and 13 refinement scans down to 0: 1 + 3 * 63 * 14 =
    2647 scans. Each AC scan is one end-of-band run over every block of the component (EOBn, n zero bits)."""
    blocks = (side // 8) ** 2
    run_bits = blocks.bit_length() - 1
    assert 1 << run_bits == blocks and run_bits <= 14
    out = bytearray(jpeg_header(0xC2, side, side, 3) + jpeg_one_symbol_tables(0x00, run_bits << 4))
    out += jpeg_segment(0xDA, b"\x03\x01\x00\x02\x00\x03\x00\x00\x00\x00") + bytes(3 * blocks // 8)
    bits = 1 + run_bits  # the one-bit code of EOBn and its n extra bits, all zero; padded with ones
    scan_data = bytes((bits + 7) // 8 - 1) + bytes([(1 << (8 - bits % 8)) - 1 if bits % 8 else 0])
    if bits % 8 == 0:
        scan_data = bytes(bits // 8)
    for component in (1, 2, 3):
        for k in range(1, 64):
            for ah, al in [(0, 13)] + [(a, a - 1) for a in range(13, 0, -1)]:
                out += jpeg_segment(0xDA, bytes([1, component, 0x00, k, k, (ah << 4) | al])) + scan_data
    return bytes(out + b"\xFF\xD9")


def hostile_fixtures():
    # PNG: a header claiming 100 000 x 100 000 RGBA (40 GB decoded) with a few bytes of data.
    write_hostile("png-100000x100000-header.png", b"\x89PNG\r\n\x1a\n"
                  + png_chunk(b"IHDR", struct.pack(">IIBBBBB", 100000, 100000, 8, 6, 0, 0, 0))
                  + png_chunk(b"IDAT", zlib.compress(b"\x00" * 64)) + png_chunk(b"IEND", b""))
    # PNG zlib bomb: a complete, valid 20 000 x 20 000 one-bit grey image (every row filter 0, all black); its
    # IDAT inflates to 50 MB and the decoded RGBA bitmap would be 1.6 GB.
    write_hostile("png-20000x20000-zlib-bomb.png", b"\x89PNG\r\n\x1a\n"
                  + png_chunk(b"IHDR", struct.pack(">IIBBBBB", 20000, 20000, 1, 0, 0, 0, 0))
                  + png_chunk(b"IDAT", zlib_of_zeros(20000 * (1 + 20000 // 8))) + png_chunk(b"IEND", b""))
    # GIF: a 65 535 x 65 535 logical screen (17 GB decoded) with one 1 x 1 frame.
    write_hostile("gif-65535x65535-screen.gif", gif_one_pixel_frames(65535, 65535, 1, lambda i: (0, 0, 1)))
    # GIF: 10 000 one-pixel frames on a 10 x 10 screen: within the limit (one million pixels in all), an image.
    write_hostile("gif-10000-frames-10x10.gif",
                  gif_one_pixel_frames(10, 10, 10000, lambda i: (i % 10, (i // 10) % 10, i % 2)))
    # GIF: 20 000 one-pixel frames on a 2 000 x 2 000 screen: 80 000 megapixels as frames of the whole screen.
    write_hostile("gif-20000-frames-2000x2000.gif",
                  gif_one_pixel_frames(2000, 2000, 20000, lambda i: (i % 2000, (i // 2000) * 97 % 2000, i % 2)))
    # WebP: a 16 383 x 16 383 canvas (WebP's largest) animated with one 1 x 1 frame, and the same canvas as a still
    # image whose 1 x 1 bitstream contradicts it.
    write_hostile("webp-16383x16383-canvas-animated.webp",
                  webp_animation(16383, 16383, [(0, 0, 1, 1, 100, (255, 255, 0, 0))]))
    write_hostile("webp-16383x16383-canvas-still.webp",
                  webp_file([vp8x(16383, 16383), riff_chunk(b"VP8L", vp8l_solid(1, 1, (255, 0, 0, 255)))]))
    # Animated WebP: 3 000 frames on 32 x 32 (an image within the limit) and 2 000 frames on 512 x 512 (over it).
    write_hostile("webp-3000-frames-32x32.webp",
                  webp_animation(32, 32, [(0, 0, 32, 32, 20, (255, i % 256, (i * 7) % 256, 255)) for i in range(3000)]))
    write_hostile("webp-2000-frames-512x512.webp",
                  webp_animation(512, 512, [((i % 256) * 2, 0, 1, 1, 20, (255, 0, 0, 255)) for i in range(2000)]))
    # JPEG: a frame header claiming 65 500 x 65 500 (17 GB decoded).
    write_hostile("jpeg-65500x65500-header.jpg", jpeg_claiming(65500, 65500))
    # Progressive JPEG of 1024 x 1024 in 2 647 scans.
    write_hostile("jpeg-progressive-2647-scans.jpg", jpeg_progressive_many_scans(1024))


def main():
    os.makedirs(ROOT, exist_ok=True)
    rng = random.Random(20240613)

    blocks = blocks_image()
    blocks.save(path("baseline.jpg"), quality=90, subsampling="4:2:0")
    blocks.save(path("progressive.jpg"), quality=90, subsampling="4:2:0", progressive=True)

    gray = Image.new("L", (64, 64))
    gpx = gray.load()
    for y in range(64):
        for x in range(64):
            gpx[x, y] = ((x // 8) * 8 + (y // 8)) * 4  # 8x8 blocks, value = (bx*8+by)*4
    gray.save(path("gray.jpg"), quality=95)

    cmyk = Image.new("CMYK", (32, 32))
    cpx = cmyk.load()
    for y in range(32):
        for x in range(32):
            cpx[x, y] = [(255, 0, 0, 0), (0, 255, 0, 0), (0, 0, 255, 0), (0, 0, 0, 128)][(y // 16) * 2 + x // 16]
    cmyk.save(path("cmyk.jpg"), quality=95)  # Pillow writes an Adobe (inverted) CMYK JPEG

    rgba = Image.new("RGBA", (32, 32))
    rpx = rgba.load()
    for y in range(32):
        for x in range(32):
            rpx[x, y] = (255, 0, 0, 255) if y < 16 else (0, 0, 255, 128)
    rpx[0, 0] = (0, 0, 0, 0)
    rgba.save(path("rgba.png"))

    pal = Image.new("P", (16, 16))
    pal.putpalette([255, 255, 0, 255, 0, 0, 0, 255, 0, 0, 0, 255])
    ppx = pal.load()
    for y in range(16):
        for x in range(16):
            ppx[x, y] = (y // 8) * 2 + x // 8
    pal.save(path("palette.png"), transparency=0)  # index 0 (the top-left quadrant) is transparent

    quad16 = [(10, 20, 30), (200, 100, 50), (0, 255, 128), (77, 88, 99)]
    rows16 = []
    for y in range(16):
        row = b""
        for x in range(16):
            r, g, b = quad16[(y // 8) * 2 + x // 8]
            row += struct.pack(">HHH", r * 257, g * 257, b * 257)
        rows16.append(row)
    write("rgb16.png", png_bytes(16, 16, 16, 2, rows16, bytes_per_pixel=6))

    rows_i = [bytes(v for x in range(33) for v in ((x * 7) % 256, (y * 13) % 256, ((x + y) * 5) % 256)) for y in range(17)]
    write("interlaced.png", png_bytes(33, 17, 8, 2, rows_i, interlaced=True))

    rows_g = [bytes(v for x in range(256) for v in (x, y, (x * y) % 256)) for y in range(192)]
    gradient = png_bytes(256, 192, 8, 2, rows_g)
    write("gradient.png", gradient)
    # 256x192 quadrants red, green, blue, white with an uncompressed IDAT, then gzipped: served with
    # Content-Encoding: gzip, its Content-Length is far smaller than the bytes the client has once it inflates them.
    quadrant = [(255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 255, 255)]
    rows_q = [bytes(v for x in range(256) for v in quadrant[(y // 96) * 2 + x // 128]) for y in range(192)]
    write("quadrants-stored.png.gz", gzip.compress(png_bytes(256, 192, 8, 2, rows_q, level=0), 9, mtime=0))

    # 20x20 animated GIF: disposal modes 1, 2, 3; an interlaced frame; delays 10, 20, 0, 1, 7 cs; loop count 3.
    block = []
    for y in range(10):
        for x in range(10):
            block.append(TRANSPARENT if (x < 2 and y < 2) else (3 if y < 5 else 4))
    frames = [
        dict(left=0, top=0, w=20, h=20, pixels=solid(20, 20, 1), delay_cs=10, disposal=1, transparent=False, interlaced=False),
        dict(left=5, top=5, w=10, h=10, pixels=block, delay_cs=20, disposal=2, transparent=True, interlaced=True),
        dict(left=0, top=0, w=4, h=4, pixels=solid(4, 4, 2), delay_cs=0, disposal=3, transparent=False, interlaced=False),
        dict(left=16, top=16, w=4, h=4, pixels=solid(4, 4, 4), delay_cs=1, disposal=1, transparent=False, interlaced=False),
        dict(left=0, top=18, w=20, h=2, pixels=solid(20, 2, 3), delay_cs=7, disposal=0, transparent=False, interlaced=False),
    ]
    write("animated.gif", gif_bytes(20, 20, frames, loop_count=3))
    write("still.gif", gif_bytes(8, 8, [dict(left=0, top=0, w=8, h=8, pixels=[5] * 32 + [6] * 32, delay_cs=0,
                                             disposal=0, transparent=False, interlaced=False)]))

    blocks.save(path("lossy.webp"), quality=90)
    ll = Image.new("RGBA", (16, 16))
    lpx = ll.load()
    for y in range(16):
        for x in range(16):
            lpx[x, y] = (x * 16, y * 16, (x + y) * 8, 255 if x < 12 else x * 20 - 220)  # alpha 0..80 on the right
    ll.save(path("lossless.webp"), lossless=True, exact=True)
    # Big enough that libwebp's incremental decoder hands out rows (16 at a time) before the data is complete,
    # for the progressive tests; the right half is translucent, so partial rows are un-premultiplied.
    lg = Image.new("RGBA", (256, 192))
    gpx = lg.load()
    for y in range(192):
        for x in range(256):
            gpx[x, y] = (x, y, (x * y) % 256, 255 if x < 128 else 2 * (x - 128) + 1)
    lg.save(path("lossless-gradient.webp"), lossless=True, exact=True)

    anim = [Image.new("RGBA", (24, 16), (255, 0, 0, 255)), Image.new("RGBA", (24, 16), (0, 255, 0, 255)),
            Image.new("RGBA", (24, 16), (0, 0, 0, 0))]
    anim[2].paste((0, 0, 255, 255), (0, 0, 12, 16))  # left half blue, right half transparent
    anim[0].save(path("animated.webp"), save_all=True, append_images=anim[1:], duration=[100, 250, 10], loop=2,
                 lossless=True)

    # 5250x3450 (the size of the original's TestImageLarge.jpg): four solid quadrants, compresses to a few KB.
    large = Image.new("RGB", (5250, 3450), (255, 0, 0))
    large.paste((0, 255, 0), (2625, 0, 5250, 1725))
    large.paste((0, 0, 255), (0, 1725, 2625, 3450))
    large.paste((255, 255, 255), (2625, 1725, 5250, 3450))
    large.save(path("large.png"), optimize=True)

    photo = Image.new("RGB", (20, 10), (255, 128, 0))
    photo.paste((0, 128, 255), (10, 0, 20, 10))
    photo.save(path("photo@2x.png"))

    # Broken and misleading files.
    with open(path("baseline.jpg"), "rb") as f:
        jpeg = f.read()
    write("truncated.jpg", jpeg[: len(jpeg) * 55 // 100])
    write("truncated.png", gradient[: len(gradient) // 2])
    write("corrupt.jpg", b"\xFF\xD8\xFF\xE0" + bytes(rng.randrange(256) for _ in range(2000)))
    write("empty.png", b"")
    with open(path("rgba.png"), "rb") as f:
        write("png-named.jpg", f.read())

    # Headers that claim enormous images (with a few bytes of data behind them).
    write("huge-dimensions.png", b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", struct.pack(">IIBBBBB", 100000, 100000, 8, 6, 0, 0, 0))
          + png_chunk(b"IDAT", zlib.compress(b"\x00" * 64)) + png_chunk(b"IEND", b""))
    small = Image.new("RGB", (8, 8), (10, 20, 30))
    small.save(path("huge-dimensions.jpg"), quality=90)
    with open(path("huge-dimensions.jpg"), "rb") as f:
        j = bytearray(f.read())
    sof = j.index(b"\xFF\xC0")  # baseline SOF0: FF C0, length(2), precision(1), height(2), width(2)
    j[sof + 5:sof + 9] = struct.pack(">HH", 65000, 65000)
    write("huge-dimensions.jpg", bytes(j))
    write("huge-dimensions.gif", gif_bytes(65535, 65535, [dict(left=0, top=0, w=2, h=2, pixels=[1, 1, 1, 1], delay_cs=0,
                                                               disposal=0, transparent=False, interlaced=False)]))

    orientation_fixtures()
    hostile_fixtures()


if __name__ == "__main__":
    if sys.argv[1:] == ["--hostile"]:
        hostile_fixtures()
    else:
        main()
