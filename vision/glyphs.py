"""Text and suit glyphs as grey masks, for the synthetic renders.

TrueType fonts (DejaVu, Liberation: Debian packages in ``.ci/apt-packages.txt``) are drawn with
Pillow when it is importable (the ``train`` extra); OpenCV's Hershey fonts always work, so a
render never fails for want of a font. It does depend on which are installed: a seed picks a
font by its place among them all, so a machine missing one draws other tables from the same
seeds (without the Liberation fonts, 400 standard-deck development tables held 2569 indices
instead of 2580). :func:`font_signature` names the set, and the bench and the sweeps print it.
A training recipe pins the font families it draws with (:func:`draw_with`), so a machine with
more fonts installed still draws its scenes.
"""

from __future__ import annotations

import functools
import glob
import hashlib
import math
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

Mask = npt.NDArray[Any]

HERSHEY = (
    cv2.FONT_HERSHEY_SIMPLEX,
    cv2.FONT_HERSHEY_DUPLEX,
    cv2.FONT_HERSHEY_COMPLEX,
    cv2.FONT_HERSHEY_TRIPLEX,
    cv2.FONT_HERSHEY_PLAIN,
    cv2.FONT_HERSHEY_COMPLEX_SMALL,
)

_FONT_GLOBS = (
    "/usr/share/fonts/truetype/dejavu/DejaVuSans*.ttf",
    "/usr/share/fonts/truetype/dejavu/DejaVuSerif*.ttf",
    "/usr/share/fonts/truetype/liberation*/Liberation*.ttf",
    "/usr/share/fonts/truetype/freefont/Free*.ttf",
)


@functools.cache
def installed_fonts() -> tuple[str, ...]:
    """TrueType files usable for digits (ExtraLight and symbol fonts left out)."""
    try:
        import PIL.ImageFont  # noqa: F401
    except ImportError:
        return ()
    found: list[str] = []
    for pattern in _FONT_GLOBS:
        found.extend(p for p in sorted(glob.glob(pattern)) if "ExtraLight" not in p)
    return tuple(p for p in found if "Math" not in p)


# File-name prefixes of the families this process draws with (every installed font when empty).
_drawn_with: tuple[str, ...] = ()


def draw_with(families: tuple[str, ...] = ()) -> None:
    """Draw only with the installed fonts whose file names start with one of ``families``
    ("DejaVu"), or with every one when empty. Training workers call it first."""
    global _drawn_with
    _drawn_with = tuple(families)
    text_mask.cache_clear()


def fonts_of(families: tuple[str, ...]) -> tuple[str, ...]:
    """The installed TrueType files of ``families`` (every one when empty)."""
    fonts = installed_fonts()
    return tuple(p for p in fonts if Path(p).name.startswith(families)) if families else fonts


def require(families: tuple[str, ...]) -> None:
    """Fail where a pinned family has no font to draw with: the scenes would be drawn with the
    other fonts alone, silently unlike the recipe's."""
    missing = [f for f in families if not fonts_of((f,))]
    if missing:
        names = ", ".join(f"{f}*" for f in missing)
        raise FileNotFoundError(
            f"no TrueType font {names} to draw with: install the Debian packages in "
            ".ci/apt-packages.txt and the train extra (Pillow)"
        )


def truetype_fonts() -> tuple[str, ...]:
    """The TrueType files this process draws with (:func:`draw_with`)."""
    return fonts_of(_drawn_with)


def font_count() -> int:
    return len(HERSHEY) * 2 + len(truetype_fonts())


def _named(families: tuple[str, ...]) -> tuple[str, ...]:
    return fonts_of(families) if families else truetype_fonts()


def font_digest(families: tuple[str, ...] = ()) -> str:
    """A short digest of the TrueType font files' names ("none" without any), for keys: those of
    ``families``, else those this process draws with."""
    names = [Path(p).name for p in _named(families)]
    return hashlib.sha1("\n".join(names).encode()).hexdigest()[:12] if names else "none"


def font_signature(families: tuple[str, ...] = ()) -> str:
    """Which TrueType fonts generated tables are drawn with (those of ``families``, else this
    process's): two machines draw the same tables from a seed only where this is the same."""
    n = len(_named(families))
    return (
        f"{n} TrueType fonts ({font_digest(families)})" if n else "no TrueType fonts (Hershey only)"
    )


@functools.lru_cache(maxsize=4096)
def text_mask(text: str, font: int, height: int, bold: int = 0) -> Mask:
    """A tight mask (255 = ink) of ``text`` whose cap height is about ``height`` pixels."""
    height = max(6, height)
    n_hershey = len(HERSHEY) * 2
    if font >= n_hershey and truetype_fonts():
        path = truetype_fonts()[(font - n_hershey) % len(truetype_fonts())]
        mask = _truetype_mask(text, path, height)
        if bold:
            mask = cv2.dilate(mask, np.ones((bold + 1, bold + 1), np.uint8))
        return mask
    face = HERSHEY[font % len(HERSHEY)]
    italic = cv2.FONT_ITALIC if (font // len(HERSHEY)) % 2 else 0
    scale = cv2.getFontScaleFromHeight(face | italic, height * 4)
    thickness = max(1, round(height * 4 / 11)) + bold * 4
    (w, h), base = cv2.getTextSize(text, face | italic, scale, thickness)
    canvas = np.zeros((h + base + thickness * 4, w + thickness * 4), np.uint8)
    cv2.putText(
        canvas,
        text,
        (thickness * 2, h + thickness * 2),
        face | italic,
        scale,
        255,
        thickness,
        cv2.LINE_AA,
    )
    small = cv2.resize(
        canvas,
        (max(1, canvas.shape[1] // 4), max(1, canvas.shape[0] // 4)),
        interpolation=cv2.INTER_AREA,
    )
    return _tight(small)


def _truetype_mask(text: str, path: str, height: int) -> Mask:
    from PIL import Image, ImageDraw, ImageFont

    size = int(height * 1.45)
    font = ImageFont.truetype(path, size)
    left, top, right, bottom = font.getbbox(text)
    img = Image.new("L", (int(right - left) + 8, int(bottom - top) + 8), 0)
    ImageDraw.Draw(img).text((4 - left, 4 - top), text, fill=255, font=font)
    return _tight(np.asarray(img, dtype=np.uint8).copy())


def _tight(mask: Mask) -> Mask:
    ys, xs = np.nonzero(mask > 40)
    if len(xs) == 0:
        return mask
    return np.ascontiguousarray(mask[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1])


# -- suit and icon shapes, drawn in a unit box then scaled --------------------------------
def _poly(points: list[tuple[float, float]], size: int) -> npt.NDArray[np.int32]:
    return (np.array(points) * size * 8).astype(np.int32)


@functools.lru_cache(maxsize=1024)
def suit_mask(suit: str, size: int, variant: int = 0) -> Mask:
    """A mask of a suit symbol about ``size`` pixels tall.

    Standard suits S H D C and All In suits c (clock), m (mask), b (beetle), t (tree); the
    All In icons are simple drawings of their names, since the deck's art is not ours to copy.
    """
    size = max(6, size)
    big = size * 8
    m = np.zeros((big, big), np.uint8)
    lt = cv2.LINE_AA
    sh = 3  # fixed-point shift for smooth curves
    s = big

    def circle(cx: float, cy: float, r: float, thick: int = -1) -> None:
        cv2.circle(m, (int(cx * s * 8), int(cy * s * 8)), int(r * s * 8), 255, thick, lt, sh)

    def fill(points: list[tuple[float, float]]) -> None:
        cv2.fillPoly(m, [(np.array(points) * s * 8).astype(np.int32)], 255, lt, sh)

    if suit == "H":
        circle(0.3, 0.33, 0.22)
        circle(0.7, 0.33, 0.22)
        fill([(0.1, 0.42), (0.9, 0.42), (0.5, 0.95)])
    elif suit == "D":
        fill([(0.5, 0.02), (0.88, 0.5), (0.5, 0.98), (0.12, 0.5)])
    elif suit == "S":
        circle(0.3, 0.58, 0.2)
        circle(0.7, 0.58, 0.2)
        fill([(0.12, 0.52), (0.88, 0.52), (0.5, 0.02)])
        fill([(0.5, 0.6), (0.68, 0.98), (0.32, 0.98)])
    elif suit == "C":
        circle(0.5, 0.27, 0.2)
        circle(0.27, 0.58, 0.2)
        circle(0.73, 0.58, 0.2)
        fill([(0.5, 0.5), (0.68, 0.98), (0.32, 0.98)])
    elif suit == "c":  # clock: a ring with two hands
        t = max(1, s // 10)
        cv2.circle(m, (s // 2, s // 2), int(s * 0.42), 255, t, lt)
        cv2.line(m, (s // 2, s // 2), (s // 2, int(s * 0.18)), 255, t, lt)
        cv2.line(m, (s // 2, s // 2), (int(s * 0.74), int(s * 0.62)), 255, t, lt)
        for k in range(12 if variant % 2 else 4):
            a = k * 2 * math.pi / (12 if variant % 2 else 4)
            p = (int(s / 2 + math.cos(a) * s * 0.34), int(s / 2 + math.sin(a) * s * 0.34))
            cv2.circle(m, p, max(1, s // 28), 255, -1, lt)
    elif suit == "m":  # mask: a face shape with two eye holes and a mouth slit
        cv2.ellipse(m, (s // 2, int(s * 0.48)), (int(s * 0.4), int(s * 0.46)), 0, 0, 360, 255, -1)
        cv2.ellipse(
            m, (int(s * 0.32), int(s * 0.4)), (int(s * 0.11), int(s * 0.07)), 0, 0, 360, 0, -1
        )
        cv2.ellipse(
            m, (int(s * 0.68), int(s * 0.4)), (int(s * 0.11), int(s * 0.07)), 0, 0, 360, 0, -1
        )
        cv2.ellipse(m, (s // 2, int(s * 0.7)), (int(s * 0.14), int(s * 0.04)), 0, 0, 360, 0, -1)
    elif suit == "b":  # beetle: oval body, head, six legs
        t = max(1, s // 14)
        cv2.ellipse(m, (s // 2, int(s * 0.58)), (int(s * 0.24), int(s * 0.32)), 0, 0, 360, 255, -1)
        cv2.circle(m, (s // 2, int(s * 0.2)), int(s * 0.12), 255, -1, lt)
        cv2.line(m, (s // 2, int(s * 0.3)), (s // 2, int(s * 0.9)), 0, max(1, s // 30), lt)
        for y in (0.42, 0.58, 0.74):
            cv2.line(m, (int(s * 0.3), int(s * y)), (int(s * 0.08), int(s * (y - 0.08))), 255, t)
            cv2.line(m, (int(s * 0.7), int(s * y)), (int(s * 0.92), int(s * (y - 0.08))), 255, t)
    elif suit == "t":  # tree: layered crown on a trunk
        fill([(0.5, 0.02), (0.85, 0.42), (0.15, 0.42)])
        fill([(0.5, 0.22), (0.95, 0.72), (0.05, 0.72)])
        fill([(0.42, 0.7), (0.58, 0.7), (0.58, 0.98), (0.42, 0.98)])
    elif suit == "R":  # rune: an angular runic sign
        t = max(2, s // 9)
        cv2.line(m, (int(s * 0.3), int(s * 0.05)), (int(s * 0.3), int(s * 0.95)), 255, t, lt)
        cv2.line(m, (int(s * 0.3), int(s * 0.05)), (int(s * 0.72), int(s * 0.28)), 255, t, lt)
        cv2.line(m, (int(s * 0.72), int(s * 0.28)), (int(s * 0.3), int(s * 0.5)), 255, t, lt)
        cv2.line(m, (int(s * 0.3), int(s * 0.5)), (int(s * 0.75), int(s * 0.95)), 255, t, lt)
    elif suit == "X":  # joker: a star
        pts = []
        for k in range(10):
            a = -math.pi / 2 + k * math.pi / 5
            r = 0.48 if k % 2 == 0 else 0.2
            pts.append((0.5 + r * math.cos(a), 0.52 + r * math.sin(a)))
        fill(pts)
    else:
        raise ValueError(f"no glyph for suit {suit!r}")
    small = cv2.resize(m, (size, size), interpolation=cv2.INTER_AREA)
    return _tight(small)


def face_mask(kind: str, size: int) -> Mask:
    """The joker faces of Rummikub: ``J`` smiley, ``DJ`` two faces, ``CJ`` face in a split
    ring (colour change), ``MJ`` face mirrored about a vertical line (mirror)."""
    s = max(12, size) * 4
    m = np.zeros((s, s), np.uint8)
    t = max(1, s // 22)
    lt = cv2.LINE_AA

    def face(cx: int, cy: int, r: int) -> None:
        cv2.circle(m, (cx, cy), r, 255, t, lt)
        cv2.circle(m, (cx - r // 3, cy - r // 4), max(1, r // 8), 255, -1, lt)
        cv2.circle(m, (cx + r // 3, cy - r // 4), max(1, r // 8), 255, -1, lt)
        cv2.ellipse(m, (cx, cy + r // 6), (r // 2, r // 3), 0, 20, 160, 255, t, lt)
        cv2.ellipse(m, (cx, cy - r // 8), (r // 6, r // 4), 0, 60, 120, 255, t, lt)

    c = s // 2
    if kind == "J":
        face(c, c, int(s * 0.44))
    elif kind == "DJ":
        face(int(s * 0.27), int(s * 0.35), int(s * 0.24))
        face(int(s * 0.73), int(s * 0.65), int(s * 0.24))
    elif kind == "CJ":
        face(c, c, int(s * 0.3))
        for k in range(4):
            cv2.ellipse(
                m,
                (c, c),
                (int(s * 0.45), int(s * 0.45)),
                0,
                k * 90 + 8,
                k * 90 + 82,
                255,
                t * 2,
                lt,
            )
    elif kind == "MJ":
        face(c, c, int(s * 0.4))
        # A bold mirror line: at the recogniser's 24 x 32 crop a hairline vanished and the
        # mirror joker read as the classic one.
        cv2.line(m, (c, int(s * 0.02)), (c, int(s * 0.98)), 255, t * 3, lt)
        cv2.line(m, (int(s * 0.08), int(s * 0.5)), (int(s * 0.92), int(s * 0.5)), 0, t * 2, lt)
    else:
        raise ValueError(f"no face for {kind!r}")
    return cv2.resize(m, (size, size), interpolation=cv2.INTER_AREA)
