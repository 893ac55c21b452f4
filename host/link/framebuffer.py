"""A 128x64 one-bit framebuffer with framebuf's drawing methods, for the simulator.

It implements ``firmware.screen.Canvas`` with the same 8x8 font the OLED uses, and turns the
picture into ASCII art (for a terminal) or a PNG (via OpenCV, scaled up so it is legible).
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt

from firmware.screen import HEIGHT, WIDTH, Canvas
from host.link.font8x8 import FIRST, GLYPHS, LAST


class FrameBuffer(Canvas):
    def __init__(self, width: int = WIDTH, height: int = HEIGHT) -> None:
        self.width = width
        self.height = height
        self.pixels: npt.NDArray[np.uint8] = np.zeros((height, width), dtype=np.uint8)

    def fill(self, c: int) -> None:
        self.pixels[:, :] = 1 if c else 0

    def fill_rect(self, x: int, y: int, w: int, h: int, c: int) -> None:
        x0, y0 = max(0, x), max(0, y)
        x1, y1 = min(self.width, x + w), min(self.height, y + h)
        if x1 > x0 and y1 > y0:
            self.pixels[y0:y1, x0:x1] = 1 if c else 0

    def pixel(self, x: int, y: int, c: int) -> None:
        if 0 <= x < self.width and 0 <= y < self.height:
            self.pixels[y, x] = 1 if c else 0

    def text(self, s: str, x: int, y: int, c: int = 1) -> None:
        for ch in s:
            code = ord(ch)
            if FIRST <= code <= LAST:
                glyph = GLYPHS[(code - FIRST) * 8 : (code - FIRST) * 8 + 8]
                for row, bits in enumerate(glyph):
                    for col in range(8):
                        if bits & (0x80 >> col):
                            self.pixel(x + col, y + row, c)
            x += 8

    def to_ascii(self, on: str = "#", off: str = " ") -> str:
        """One character per pixel, framed, so a terminal shows the screen as it is."""
        border = "+" + "-" * self.width + "+"
        rows = ["|" + "".join(on if v else off for v in row) + "|" for row in self.pixels]
        return "\n".join([border, *rows, border])

    def to_png(self, scale: int = 4) -> bytes:
        """The picture as a PNG: lit pixels pale blue on black, like an SSD1306."""
        big = np.kron(self.pixels, np.ones((scale, scale), dtype=np.uint8))
        img = np.zeros((*big.shape, 3), dtype=np.uint8)
        img[big == 1] = (255, 230, 160)  # BGR
        ok, buf = cv2.imencode(".png", img)
        if not ok:
            raise RuntimeError("PNG encoding failed")
        return bytes(buf.tobytes())

    def save_png(self, path: Path, scale: int = 4) -> None:
        path.write_bytes(self.to_png(scale))
