#!/usr/bin/env python3
"""Makes every image in Fixtures/ (see Fixtures/README.md for what each one is).

Run:  python3 -m venv /tmp/fxvenv && /tmp/fxvenv/bin/pip install Pillow
      /tmp/fxvenv/bin/python scripts/make-fixtures.py

JPEG and WebP come from Pillow (libjpeg and libwebp underneath). PNGs that Pillow cannot write (16-bit RGB,
Adam7 interlaced, a header with huge dimensions) and the GIFs (precise disposal modes, an interlaced frame,
a NETSCAPE2.0 loop count) are written byte by byte below, so their content is known exactly.
The output is deterministic: the same script makes the same bytes (random bytes come from a fixed seed).
"""
import gzip
import os
import random
import struct
import zlib

from PIL import Image

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


if __name__ == "__main__":
    main()
