"""The CJK fonts card renders use: Debian's packages (listed in .ci/apt-packages.txt), split
into fonts for training, fonts held out for testing, and fonts kept back for the "never seen"
deck of the enrolment benchmark. Each face is picked out of its collection by family name."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np
from numpy.typing import NDArray
from PIL import Image, ImageDraw, ImageFont

NOTO = Path("/usr/share/fonts/opentype/noto")


@dataclass(frozen=True, slots=True)
class CJKFont:
    name: str
    path: Path
    family: str  # family name inside a .ttc collection; "" for a single-face file
    package: str  # the Debian package that ships it


FONTS: tuple[CJKFont, ...] = (
    CJKFont("noto-sans", NOTO / "NotoSansCJK-Regular.ttc", "Noto Sans CJK TC", "fonts-noto-cjk"),
    CJKFont("noto-sans-bold", NOTO / "NotoSansCJK-Bold.ttc", "Noto Sans CJK TC", "fonts-noto-cjk"),
    CJKFont("noto-serif", NOTO / "NotoSerifCJK-Regular.ttc", "Noto Serif CJK TC", "fonts-noto-cjk"),
    CJKFont(
        "noto-serif-bold", NOTO / "NotoSerifCJK-Bold.ttc", "Noto Serif CJK TC", "fonts-noto-cjk"
    ),
    CJKFont(
        "ukai",
        Path("/usr/share/fonts/truetype/arphic/ukai.ttc"),
        "AR PL UKai TW",
        "fonts-arphic-ukai",
    ),
    CJKFont(
        "wqy-zenhei",
        Path("/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc"),
        "WenQuanYi Zen Hei",
        "fonts-wqy-zenhei",
    ),
    CJKFont(
        "lxgw-wenkai",
        Path("/usr/share/fonts/truetype/lxgw-wenkai/LXGWWenKai-Regular.ttf"),
        "",
        "fonts-lxgw-wenkai",
    ),
    CJKFont(
        "lxgw-wenkai-bold",
        Path("/usr/share/fonts/truetype/lxgw-wenkai/LXGWWenKai-Bold.ttf"),
        "",
        "fonts-lxgw-wenkai",
    ),
    CJKFont(
        "uming",
        Path("/usr/share/fonts/truetype/arphic/uming.ttc"),
        "AR PL UMing TW",
        "fonts-arphic-uming",
    ),
)
BY_NAME = {f.name: f for f in FONTS}

# The split is by family, so a held-out font shares no outlines with any training font.
TRAIN_FONTS: tuple[str, ...] = (
    "noto-sans",
    "noto-sans-bold",
    "noto-serif",
    "noto-serif-bold",
    "ukai",
    "wqy-zenhei",
)
HELDOUT_FONTS: tuple[str, ...] = ("lxgw-wenkai", "lxgw-wenkai-bold")
UNSEEN_DECK_FONTS: tuple[str, ...] = ("uming",)  # only the enrolment benchmark's new deck


class FontMissing(RuntimeError):
    """A font file is not installed; the message names the Debian package to install."""


@lru_cache(maxsize=16)
def _face_index(path: Path, family: str) -> int:
    if not family:
        return 0
    for index in range(32):
        try:
            face = ImageFont.truetype(str(path), 16, index=index)
        except OSError:
            break
        if face.getname()[0] == family:
            return index
    raise FontMissing(f"{path} has no face named {family!r}")


@lru_cache(maxsize=256)
def load(name: str, size: int) -> ImageFont.FreeTypeFont:
    """The font ``name`` at ``size`` pixels."""
    font = BY_NAME[name]
    if not font.path.is_file():
        raise FontMissing(f"font {name} is missing ({font.path}): apt-get install {font.package}")
    return ImageFont.truetype(str(font.path), size, index=_face_index(font.path, font.family))


def available(names: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(n for n in names if BY_NAME[n].path.is_file())


def _ink(font: ImageFont.FreeTypeFont, text: str) -> NDArray[np.uint8]:
    size = int(font.size)
    img = Image.new("L", (size * (len(text) + 1), size * 2), 0)
    ImageDraw.Draw(img).text((size // 2, size // 2), text, font=font, fill=255)
    return np.asarray(img)


def missing_glyphs(name: str, chars: str) -> list[str]:
    """Characters the font draws as its "no glyph" box (or as nothing)."""
    font = load(name, 48)
    notdef = _ink(font, "\U000f0000")  # a private-use code point no CJK font fills
    out = []
    for ch in chars:
        ink = _ink(font, ch)
        if ink.max() == 0 or np.array_equal(ink, notdef):
            out.append(ch)
    return out
