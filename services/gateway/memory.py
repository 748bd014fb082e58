"""Giving memory back to the system after drawing large pictures.

glibc keeps freed memory in per-thread arenas for reuse, so a gateway that once drew
many big overlays in its thread pool stays big. Blocks of a megabyte and more (picture
buffers) are given their own mappings instead, which return to the system when freed,
and the arenas are trimmed after each large drawing. Elsewhere than glibc both do
nothing.
"""

from __future__ import annotations

import ctypes
import ctypes.util
from functools import lru_cache

M_MMAP_THRESHOLD = -3  # mallopt's parameter number (malloc.h)
LARGE_BLOCK_BYTES = 1 << 20


@lru_cache
def _libc():
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        libc.mallopt, libc.malloc_trim  # noqa: B018 - glibc only
    except (OSError, AttributeError):
        return None
    return libc


def map_large_blocks() -> bool:
    """Serve blocks of LARGE_BLOCK_BYTES and more from their own mappings (a fixed
    threshold: glibc's own one grows with each large free, up to 32 MB)."""
    libc = _libc()
    return bool(libc and libc.mallopt(M_MMAP_THRESHOLD, LARGE_BLOCK_BYTES))


def give_back_memory() -> None:
    libc = _libc()
    if libc is not None:
        libc.malloc_trim(0)
