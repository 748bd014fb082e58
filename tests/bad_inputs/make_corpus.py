"""Writes the bad-input corpus in this folder (deterministic; run again to rebuild).

    python tests/bad_inputs/make_corpus.py
"""

from __future__ import annotations

import io
import random
import struct
import zlib
from pathlib import Path

from PIL import Image, ImageDraw

HERE = Path(__file__).resolve().parent


def encoded(image: Image.Image, fmt: str, **options) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, fmt, **options)
    return buffer.getvalue()


def png_chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(
        ">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def bomb_png(width: int, height: int) -> bytes:
    """A valid PNG header claiming width x height, with a few rows of real data."""
    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)  # 8-bit greyscale
    rows = zlib.compress(b"\0" * (width + 1) * 4, 9)
    return (b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", header) + png_chunk(b"IDAT", rows)
            + png_chunk(b"IEND", b""))


def cluttered_photo_without_grid() -> bytes:
    rng = random.Random(7)
    image = Image.new("RGB", (800, 600), (200, 190, 170))
    draw = ImageDraw.Draw(image)
    for _ in range(60):  # text-like strokes and blobs, no lattice
        x, y = rng.randrange(800), rng.randrange(600)
        draw.line((x, y, x + rng.randrange(20, 200), y + rng.randrange(-5, 5)),
                  fill=(rng.randrange(80), rng.randrange(80), rng.randrange(80)), width=3)
        draw.ellipse((x, y, x + 30, y + 30), outline=(30, 30, 30), width=2)
    return encoded(image, "JPEG", quality=80)


def animated_gif() -> bytes:
    frames = [Image.new("P", (120, 120), colour) for colour in (0, 80, 160)]
    buffer = io.BytesIO()
    frames[0].save(buffer, "GIF", save_all=True, append_images=frames[1:], duration=100)
    return buffer.getvalue()


def corpus() -> dict[str, bytes]:
    photo = encoded(Image.new("RGB", (640, 480), "white"), "JPEG")
    shot = encoded(Image.new("RGB", (640, 480), "white"), "PNG")
    return {
        "not_an_image.bin": b"GIF? no. just some bytes pretending to be a photo\n" * 20,
        "empty.png": b"",
        "truncated.jpg": photo[: len(photo) // 3],
        "truncated.png": shot[: len(shot) // 2],
        "bomb_50000x50000.png": bomb_png(50_000, 50_000),
        "drawing.svg": b'<svg xmlns="http://www.w3.org/2000/svg" width="90" height="90">'
                       b'<rect width="90" height="90" fill="white"/></svg>',
        "animated.gif": animated_gif(),
        "no_grid.jpg": cluttered_photo_without_grid(),
        "all_black.png": encoded(Image.new("RGB", (600, 600), "black"), "PNG"),
        "one_pixel.png": encoded(Image.new("RGB", (1, 1), "white"), "PNG"),
    }


if __name__ == "__main__":
    for name, data in corpus().items():
        (HERE / name).write_bytes(data)
        print(f"{name}: {len(data)} bytes")
