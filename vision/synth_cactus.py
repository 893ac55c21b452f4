"""Procedural Cactus Game (萬物皆掌) cards: white cards naming a character or an action in
Chinese (and often English) with an icon; and table scenes with the cards face up on a discard
pile (each card dropped a little askew on the last) and character sets laid out in a row.

Icons are drawn from simple shapes, one distinct picture per card kind, so a reader can learn
the name and the picture together; deck styles vary the font, the accent colours, where the
name sits, whether icons are filled, and the English subtitle.
"""

from __future__ import annotations

import colorsys
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray
from PIL import Image, ImageDraw

from host.rules.notation import CACTUS_CHARACTERS, tokens
from vision import cjk_fonts
from vision.synth_compose import (
    Canvas,
    Quad,
    SceneObject,
    camera,
    card_quad,
    face_quad,
    pil_to_bgr,
    rectify,
    uncovered,
)

NAMES_ZH: dict[str, str] = {
    "charlie": "查理",
    "ace": "愛刺",
    "walter": "沃特",
    "wild": "萬用",
    "free_point": "免費分數",
    "swap_hands": "交換手牌",
    "peek_steal": "看了再偷",
    "draw_three": "抽3啦",
    "steal_point": "偷分啦",
    "gimme": "拿來啦",
    "steal_card": "偷牌啦",
    "nope": "阻慢",
}
ASPECT = 63 / 88
INDEX_RECT = (0.0, 0.0, 1.0, 1.0)  # a face-up Cactus card is read whole: name and icon
LABELS: tuple[str, ...] = tuple(tokens("cactus"))
RGB = tuple[int, int, int]


@dataclass(frozen=True)
class CactusStyle:
    font: str
    character_accent: RGB
    action_accent: RGB
    name_at_top: bool
    filled_icons: bool
    english: bool
    paper: RGB


# Accent hues (0-1 around the colour wheel) held out from training: teal and cyan decks are
# for evaluation only, so the benchmark shows how a deck in unseen colours reads.
HELDOUT_HUES = (0.42, 0.58)


def _hue(u: float, heldout: bool) -> float:
    lo, hi = HELDOUT_HUES
    if heldout:
        return lo + u * (hi - lo)
    h = u * (1 - (hi - lo))
    return h + (hi - lo) if h >= lo else h


def random_style(
    rng: np.random.Generator,
    fonts: tuple[str, ...] = cjk_fonts.TRAIN_FONTS,
    heldout_hues: bool = False,
) -> CactusStyle:
    """A deck style; ``heldout_hues`` picks accents from the hues training never sees."""

    def colour() -> RGB:
        hue = _hue(float(rng.uniform(0, 1)), heldout_hues)
        r, g, b = colorsys.hsv_to_rgb(hue, rng.uniform(0.5, 0.9), rng.uniform(0.45, 0.8))
        return (int(r * 255), int(g * 255), int(b * 255))

    return CactusStyle(
        font=str(rng.choice(fonts)),
        character_accent=colour(),
        action_accent=colour(),
        name_at_top=bool(rng.random() < 0.6),
        filled_icons=bool(rng.random() < 0.5),
        english=bool(rng.random() < 0.5),
        paper=tuple(int(v) for v in rng.integers(238, 256, 3)),  # type: ignore[arg-type]
    )


def render_card(token: str, style: CactusStyle, height: int = 240) -> NDArray[np.uint8]:
    """One card face, upright, BGR, ``height`` pixels tall."""
    if token not in LABELS:
        raise ValueError(f"unknown Cactus card {token!r}")
    width = max(10, round(height * ASPECT))
    img = Image.new("RGB", (width, height), style.paper)
    draw = ImageDraw.Draw(img)
    accent = style.character_accent if token in CACTUS_CHARACTERS else style.action_accent
    lw = max(1, width // 40)
    draw.rounded_rectangle(
        (lw, lw, width - 1 - lw, height - 1 - lw), radius=width // 12, outline=accent, width=lw * 2
    )
    band_h = round(height * 0.22)
    band_y = round(height * 0.05) if style.name_at_top else height - band_h - round(height * 0.05)
    draw.rectangle((lw * 3, band_y, width - lw * 3, band_y + band_h), fill=accent)
    name = NAMES_ZH[token]
    size = min(round(band_h * 0.62), round((width - 8 * lw) / max(len(name), 2)))
    font = cjk_fonts.load(style.font, max(6, size))
    text_y = band_y + band_h * (0.38 if style.english else 0.5)
    draw.text((width / 2, text_y), name, font=font, fill=(255, 255, 255), anchor="mm")
    if style.english:
        small = cjk_fonts.load(style.font, max(5, round(band_h * 0.22)))
        draw.text(
            (width / 2, band_y + band_h * 0.82),
            token.replace("_", " ").upper(),
            font=small,
            fill=(255, 255, 255),
            anchor="mm",
        )
    icon_top = band_y + band_h + round(height * 0.05) if style.name_at_top else round(height * 0.08)
    icon_bottom = (
        height - round(height * 0.08) if style.name_at_top else band_y - round(height * 0.04)
    )
    _icon(
        draw,
        token,
        (width * 0.15, icon_top, width * 0.85, icon_bottom),
        accent,
        style.filled_icons,
        lw * 2,
    )
    return pil_to_bgr(img)


def _icon(
    draw: ImageDraw.ImageDraw,
    token: str,
    box: tuple[float, float, float, float],
    colour: RGB,
    filled: bool,
    lw: int,
) -> None:
    x0, y0, x1, y1 = box
    s = min(x1 - x0, y1 - y0)
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    fill = colour if filled else None

    def ell(x: float, y: float, rx: float, ry: float) -> None:
        draw.ellipse((x - rx, y - ry, x + rx, y + ry), outline=colour, fill=fill, width=lw)

    def rect(xa: float, ya: float, xb: float, yb: float) -> None:
        draw.rounded_rectangle(
            (xa, ya, xb, yb), radius=s * 0.05, outline=colour, fill=fill, width=lw
        )

    def arrow(xa: float, ya: float, xb: float, yb: float) -> None:
        draw.line((xa, ya, xb, yb), fill=colour, width=lw * 2)
        ang = np.arctan2(yb - ya, xb - xa)
        for da in (2.6, -2.6):
            draw.line(
                (xb, yb, xb + s * 0.15 * np.cos(ang + da), yb + s * 0.15 * np.sin(ang + da)),
                fill=colour,
                width=lw * 2,
            )

    if token == "charlie":  # a round cactus with a face
        ell(cx, cy, s * 0.3, s * 0.38)
        draw.ellipse((cx - s * 0.12, cy - s * 0.1, cx - s * 0.05, cy - s * 0.03), fill=(0, 0, 0))
        draw.ellipse((cx + s * 0.05, cy - s * 0.1, cx + s * 0.12, cy - s * 0.03), fill=(0, 0, 0))
    elif token == "ace":  # a spiky star cactus
        pts = []
        for k in range(16):
            r = s * (0.45 if k % 2 == 0 else 0.22)
            a = np.pi * k / 8
            pts.append((cx + r * np.cos(a), cy + r * np.sin(a)))
        draw.polygon(pts, outline=colour, fill=fill, width=lw)
    elif token == "walter":  # a tall saguaro with two arms
        rect(cx - s * 0.1, cy - s * 0.45, cx + s * 0.1, cy + s * 0.45)
        rect(cx - s * 0.35, cy - s * 0.2, cx - s * 0.2, cy + s * 0.1)
        rect(cx + s * 0.2, cy - s * 0.3, cx + s * 0.35, cy)
    elif token == "wild":  # a question mark in a ring (never filled: the mark must show)
        draw.ellipse(
            (cx - s * 0.42, cy - s * 0.42, cx + s * 0.42, cy + s * 0.42), outline=colour, width=lw
        )
        draw.arc(
            (cx - s * 0.18, cy - s * 0.3, cx + s * 0.18, cy + s * 0.05),
            180,
            90,
            fill=colour,
            width=lw * 2,
        )
        draw.line((cx, cy + s * 0.05, cx, cy + s * 0.15), fill=colour, width=lw * 2)
        draw.ellipse((cx - lw * 2, cy + s * 0.24, cx + lw * 2, cy + s * 0.24 + lw * 4), fill=colour)
    elif token == "free_point":  # a five-pointed star
        pts = [
            (
                cx + s * (0.45 if k % 2 == 0 else 0.18) * np.sin(np.pi * k / 5),
                cy - s * (0.45 if k % 2 == 0 else 0.18) * np.cos(np.pi * k / 5),
            )
            for k in range(10)
        ]
        draw.polygon(pts, outline=colour, fill=fill, width=lw)
    elif token == "swap_hands":  # two opposite arrows
        arrow(cx - s * 0.4, cy - s * 0.15, cx + s * 0.4, cy - s * 0.15)
        arrow(cx + s * 0.4, cy + s * 0.15, cx - s * 0.4, cy + s * 0.15)
    elif token == "peek_steal":  # an eye
        draw.chord(
            (cx - s * 0.45, cy - s * 0.3, cx + s * 0.45, cy + s * 0.3),
            0,
            360,
            outline=colour,
            width=lw,
        )
        ell(cx, cy, s * 0.13, s * 0.13)
        draw.ellipse((cx - s * 0.05, cy - s * 0.05, cx + s * 0.05, cy + s * 0.05), fill=colour)
    elif token == "draw_three":  # three stacked cards
        for k in range(3):
            d = s * 0.1 * k
            rect(cx - s * 0.3 + d, cy - s * 0.35 + d, cx + s * 0.05 + d, cy + s * 0.15 + d)
    elif token == "steal_point":  # a coin and an arrow taking it
        ell(cx - s * 0.1, cy, s * 0.25, s * 0.25)
        arrow(cx - s * 0.1, cy, cx + s * 0.45, cy - s * 0.35)
    elif token == "gimme":  # an open palm: four bars and a thumb
        for k in range(4):
            rect(cx - s * 0.3 + k * s * 0.15, cy - s * 0.45, cx - s * 0.2 + k * s * 0.15, cy)
        rect(cx - s * 0.3, cy - s * 0.05, cx + s * 0.25, cy + s * 0.4)
    elif token == "steal_card":  # a card with an arrow pulling it away
        rect(cx - s * 0.35, cy - s * 0.3, cx + s * 0.05, cy + s * 0.3)
        arrow(cx - s * 0.1, cy, cx + s * 0.45, cy)
    elif token == "nope":  # a barred circle
        ell(cx, cy, s * 0.42, s * 0.42)
        draw.line(
            (cx - s * 0.3, cy - s * 0.3, cx + s * 0.3, cy + s * 0.3), fill=colour, width=lw * 3
        )


def band_rect(style: CactusStyle) -> tuple[float, float, float, float]:
    """Where the name band lies on an upright face (x0, y0, x1, y1, relative)."""
    return (0.075, 0.05, 0.925, 0.27) if style.name_at_top else (0.075, 0.73, 0.925, 0.95)


@dataclass
class CactusScene:
    image: NDArray[np.uint8]
    objects: list[SceneObject]
    pile: list[int]  # object indices on the discard pile, bottom to top
    style: CactusStyle

    def bands(self, in_photo: bool = False) -> list[tuple[Quad, float]]:
        """Each object's name band (upright quad) and the share of it not covered by cards
        laid later (and, ``in_photo``, inside the photo): what a reader can see of the card's
        name."""
        out = []
        frame = (self.image.shape[1], self.image.shape[0]) if in_photo else None
        for i, o in enumerate(self.objects):
            band = face_quad(o.quad, band_rect(self.style))
            later = [x.quad for x in self.objects[i + 1 :]]
            out.append((band, uncovered(band, later, frame)))
        return out

    @property
    def top_of_pile(self) -> str | None:
        return self.objects[self.pile[-1]].label if self.pile else None

    def truth(self) -> dict[str, Any]:
        return {
            "objects": [o.to_json() for o in self.objects],
            "top": self.top_of_pile,
            "font": self.style.font,
        }


def render_scene(
    rng: np.random.Generator,
    *,
    fonts: tuple[str, ...] = cjk_fonts.TRAIN_FONTS,
    size: tuple[int, int] = (1000, 750),
    style: CactusStyle | None = None,
) -> CactusScene:
    """A discard pile of 1-8 cards (each dropped askew on the last, neatly or messily) and,
    often, a character set of three laid in a row in front of a player."""
    style = style or random_style(rng, fonts)
    w, h = size
    canvas = Canvas.table(rng, size)
    card_h = float(rng.uniform(0.22, 0.34) * h)
    card_w = card_h * ASPECT
    centre = np.array([w * rng.uniform(0.3, 0.7), h * rng.uniform(0.3, 0.38)])
    pile = []
    # A neat pile hides all but the top card; a messy one lets names below peek out.
    spread = 0.08 if rng.random() < 0.5 else 0.28
    for token in rng.choice(LABELS, size=int(rng.integers(1, 9))):
        c = centre + rng.normal(0, spread, 2) * [card_w, card_h]
        quad = card_quad(float(c[0]), float(c[1]), card_w, card_h, float(rng.uniform(-30, 30)))
        face = render_card(str(token), style, height=max(48, round(card_h * 1.4)))
        canvas.paste(face, quad, str(token), INDEX_RECT, group="pile")
        pile.append(len(canvas.objects) - 1)
    if rng.random() < 0.6:
        character = str(rng.choice(CACTUS_CHARACTERS))
        row = [character, character, str(rng.choice([character, "wild"]))]
        angle = float(rng.uniform(-15, 15))
        a = np.deg2rad(angle)
        along = np.array([np.cos(a), np.sin(a)])
        step = card_w * rng.uniform(1.05, 1.3)
        start = np.array([w / 2, h * 0.82]) - along * step
        for k, token in enumerate(row):
            c = start + along * step * k
            quad = card_quad(float(c[0]), float(c[1]), card_w * 0.8, card_h * 0.8, angle)
            face = render_card(token, style, height=max(48, round(card_h * 1.2)))
            canvas.paste(face, quad, token, INDEX_RECT, group="set")
    canvas.settle_visibility()  # on the flat table, before the camera moves the quads
    image = camera(rng, canvas)
    return CactusScene(image, canvas.objects, pile, style)


def crop_samples(
    rng: np.random.Generator,
    n: int,
    *,
    fonts: tuple[str, ...] = cjk_fonts.TRAIN_FONTS,
    size: tuple[int, int] = (48, 64),
) -> tuple[NDArray[np.uint8], list[str]]:
    """``n`` whole-card crops (w x h = ``size``), photographed and cut out by a slightly noisy
    quad, labels cycling through every token."""
    w, h = size
    crops = np.zeros((n, h, w, 3), np.uint8)
    labels: list[str] = []
    for i in range(n):
        token = LABELS[i % len(LABELS)]
        face = render_card(token, random_style(rng, fonts), int(rng.integers(64, 280)))
        fh, fw = face.shape[:2]
        canvas = Canvas.table(rng, (fw * 2, fh * 2))
        obj = canvas.paste(
            face, card_quad(fw, fh, fw, fh, float(rng.uniform(-6, 6))), token, INDEX_RECT
        )
        img = camera(rng, canvas, strength=0.6)
        crops[i] = rectify(img, obj.quad + rng.normal(0, 0.03 * fw, (4, 2)), (w, h))
        labels.append(token)
    return crops, labels
