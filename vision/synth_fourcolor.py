"""Procedural Four Color Cards (四色牌): narrow cards with a Chinese-chess character printed in
red, green, yellow or white, rendered with Debian's CJK fonts; and table scenes with exposed
melds laid in rows and hands fanned out, with exact ground truth.

Deck styles vary what real decks vary: the font, which of the two character forms a colour
prints (將/帥, 士/仕, 象/相, 車/俥, 馬/傌, 包/炮, 卒/兵 — both occur, the piece is what counts),
the inks, the paper, a border, a pattern between the characters, and how white is printed
(white ink needs an outline or a dark badge to show on white paper). The character at the top
end identifies the card: it is the part that stays visible when cards overlap or fan.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray
from PIL import Image, ImageDraw

from host.rules.notation import FOURCOLOR_COLOURS, FOURCOLOR_PIECES, tokens
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

CHARACTERS: dict[str, tuple[str, str]] = {
    "G": ("將", "帥"),
    "A": ("士", "仕"),
    "E": ("象", "相"),
    "R": ("車", "俥"),
    "H": ("馬", "傌"),
    "C": ("包", "炮"),
    "S": ("卒", "兵"),
}
ASPECT = 0.31  # width / height of a Four Color card (about 22 x 71 mm)
INDEX_RECT = (0.0, 0.0, 1.0, 0.36)  # the top character's region, relative to the face
LABELS: tuple[str, ...] = tuple(tokens("fourcolor"))

RGB = tuple[int, int, int]


@dataclass(frozen=True)
class FourColorStyle:
    font: str
    forms: dict[str, int]  # colour -> 0 (將士象車馬包卒) or 1 (帥仕相俥傌炮兵)
    inks: dict[str, RGB]  # colour -> ink (for "w", the outline or badge colour)
    white_mode: str  # "outline" (white glyph, dark outline) or "badge" (white on dark disc)
    paper: RGB
    border: RGB | None
    pattern: str  # "none", "lines", "dots"
    char_scale: float  # glyph size / card width
    bottom_char: bool  # the character repeated upside down at the bottom end

    def character(self, token: str) -> str:
        return CHARACTERS[token[1]][self.forms[token[0]]]


def random_style(
    rng: np.random.Generator, fonts: tuple[str, ...] = cjk_fonts.TRAIN_FONTS
) -> FourColorStyle:
    def jitter(c: RGB, amount: int = 25) -> RGB:
        return tuple(int(np.clip(v + rng.integers(-amount, amount + 1), 0, 255)) for v in c)  # type: ignore[return-value]

    inks: dict[str, RGB] = {
        "r": jitter((200, 30, 35)),
        "g": jitter((25, 125, 60)),
        "y": jitter((225, 160, 10)),
        "w": jitter((40, 40, 60), 30),
    }
    return FourColorStyle(
        font=str(rng.choice(fonts)),
        forms={c: int(rng.integers(2)) for c in FOURCOLOR_COLOURS},
        inks=inks,
        white_mode=str(rng.choice(["outline", "badge"])),
        paper=jitter((245, 240, 225), 12),
        border=jitter((90, 60, 40), 40) if rng.random() < 0.5 else None,
        pattern=str(rng.choice(["none", "lines", "dots"])),
        char_scale=float(rng.uniform(0.72, 0.9)),
        bottom_char=bool(rng.random() < 0.7),
    )


def render_card(token: str, style: FourColorStyle, height: int = 220) -> NDArray[np.uint8]:
    """The face of one card, upright, as a BGR image ``height`` pixels tall."""
    if token not in LABELS:
        raise ValueError(f"unknown Four Color card {token!r}")
    width = max(8, round(height * ASPECT))
    img = Image.new("RGB", (width, height), style.paper)
    draw = ImageDraw.Draw(img)
    if style.border is not None:
        draw.rectangle(
            (1, 1, width - 2, height - 2), outline=style.border, width=max(1, width // 30)
        )
    mid0, mid1 = int(height * 0.38), int(height * 0.62)
    if style.pattern == "lines":
        for y in range(mid0, mid1, max(3, height // 40)):
            draw.line((width * 0.2, y, width * 0.8, y), fill=style.inks[token[0]], width=1)
    elif style.pattern == "dots":
        r = max(1, width // 14)
        for y in range(mid0 + r, mid1 - r, 4 * r):
            draw.ellipse((width / 2 - r, y - r, width / 2 + r, y + r), fill=style.inks[token[0]])
    glyph = _glyph(token, style, width)
    top = round(height * 0.02)
    img.paste(glyph, ((width - glyph.width) // 2, top), glyph)
    if style.bottom_char:
        flipped = glyph.rotate(180)
        img.paste(flipped, ((width - glyph.width) // 2, height - top - glyph.height), flipped)
    return pil_to_bgr(img)


def _glyph(token: str, style: FourColorStyle, width: int) -> Image.Image:
    """The character as an RGBA tile of side ``width``, centred, in the colour's print."""
    size = max(6, round(width * style.char_scale))
    font = cjk_fonts.load(style.font, size)
    tile = Image.new("RGBA", (width, width), (0, 0, 0, 0))
    draw = ImageDraw.Draw(tile)
    ch = style.character(token)
    colour = token[0]
    centre = (width / 2, width / 2)
    if colour == "w":
        dark = style.inks["w"]
        if style.white_mode == "badge":
            r = width * 0.48
            draw.ellipse((centre[0] - r, centre[1] - r, centre[0] + r, centre[1] + r), fill=dark)
            draw.text(centre, ch, font=font, fill=(250, 250, 250), anchor="mm")
        else:
            draw.text(
                centre,
                ch,
                font=font,
                fill=(252, 252, 252),
                anchor="mm",
                stroke_width=max(1, size // 18),
                stroke_fill=dark,
            )
    else:
        draw.text(centre, ch, font=font, fill=style.inks[colour], anchor="mm")
    return tile


def index_crop(card: NDArray[np.uint8]) -> NDArray[np.uint8]:
    """The identifying top square of an upright card face."""
    h, w = card.shape[:2]
    return card[: round(h * INDEX_RECT[3]), :w]


# -- scenes -------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Character:
    card: int  # index of the card in the scene's objects
    label: str
    quad: Quad  # TL TR BR BL with the character upright
    visible: float
    bottom: bool  # the upside-down copy at the card's far end


@dataclass
class FourColorScene:
    image: NDArray[np.uint8]
    objects: list[SceneObject]
    melds: list[list[int]]  # object indices of each exposed meld, left to right
    style: FourColorStyle

    def characters(self, in_photo: bool = False) -> list[Character]:
        """Every printed character: the top one of each card and, where the deck prints it,
        the bottom one (upside down, so its quad is turned half way), with how much of it no
        later card covers (and, ``in_photo``, that lies inside the photo: what a reader can
        see; the shipped recogniser's training crops were made without it)."""
        out = []
        half = 0.55 * self.style.char_scale
        cy = 0.02 + ASPECT / 2
        top_rect = (0.5 - half, cy - half * ASPECT, 0.5 + half, cy + half * ASPECT)
        bottom_rect = (top_rect[0], 1 - top_rect[3], top_rect[2], 1 - top_rect[1])
        frame = (self.image.shape[1], self.image.shape[0]) if in_photo else None
        for i, o in enumerate(self.objects):
            later = [x.quad for x in self.objects[i + 1 :]]
            top = face_quad(o.quad, top_rect)
            out.append(Character(i, o.label, top, uncovered(top, later, frame), False))
            if self.style.bottom_char:
                bottom = np.roll(face_quad(o.quad, bottom_rect), 2, axis=0)
                out.append(Character(i, o.label, bottom, uncovered(bottom, later, frame), True))
        return out

    def truth(self) -> dict[str, Any]:
        return {
            "objects": [o.to_json() for o in self.objects],
            "melds": [[self.objects[i].label for i in m] for m in self.melds],
            "font": self.style.font,
        }


def _meld(rng: np.random.Generator) -> list[str]:
    """A plausible exposed combination (the referee checks legality; the renderer just needs
    the shapes real tables show)."""
    c = str(rng.choice(FOURCOLOR_COLOURS))
    kind = rng.integers(6)
    if kind == 0:
        return [f"{c}R", f"{c}H", f"{c}C"]
    if kind == 1:
        return [f"{c}G", f"{c}A", f"{c}E"]
    if kind == 2:
        p = str(rng.choice([x for x in FOURCOLOR_PIECES if x != "G"]))
        return [f"{c}{p}"] * int(rng.integers(2, 5))
    if kind == 3:
        cols = list(rng.permutation(FOURCOLOR_COLOURS))[: int(rng.integers(3, 5))]
        return [f"{x}S" for x in cols]
    if kind == 4:
        return [f"{c}G"]
    return [str(t) for t in rng.choice(LABELS, size=int(rng.integers(2, 4)))]


def render_scene(
    rng: np.random.Generator,
    *,
    fonts: tuple[str, ...] = cjk_fonts.TRAIN_FONTS,
    size: tuple[int, int] = (1000, 750),
    style: FourColorStyle | None = None,
    hand: bool | None = None,
) -> FourColorScene:
    """A table: one to four exposed melds in a row (cards side by side, a wider gap between
    melds), and often a fanned hand, at a random scale and turn, photographed."""
    style = style or random_style(rng, fonts)
    w, h = size
    canvas = Canvas.table(rng, size)
    card_h = float(rng.uniform(0.16, 0.3) * h)  # many sizes
    card_w = card_h * ASPECT
    melds = [_meld(rng) for _ in range(int(rng.integers(1, 5)))]
    angle = float(rng.uniform(-20, 20))
    a = np.deg2rad(angle)
    along = np.array([np.cos(a), np.sin(a)])
    gap_in = float(rng.uniform(0.03, 0.2)) * card_w
    gap_between = float(rng.uniform(0.9, 1.6)) * card_w
    total = sum(len(m) * (card_w + gap_in) for m in melds) + gap_between * (len(melds) - 1)
    start = np.array([w / 2, h * rng.uniform(0.25, 0.4)]) - along * total / 2
    meld_ids: list[list[int]] = []
    pos = start + along * card_w / 2
    for mi, meld in enumerate(melds):
        ids = []
        for token in meld:
            face = render_card(token, style, height=max(40, round(card_h * 1.5)))
            quad = card_quad(float(pos[0]), float(pos[1]), card_w, card_h, angle)
            canvas.paste(face, quad, token, INDEX_RECT, group=f"meld{mi}")
            ids.append(len(canvas.objects) - 1)
            pos = pos + along * (card_w + gap_in)
        meld_ids.append(ids)
        pos = pos + along * (gap_between - gap_in)
    if hand if hand is not None else rng.random() < 0.7:
        _fan(rng, canvas, style, card_w, card_h)
    canvas.settle_visibility()  # on the flat table, before the camera moves the quads
    image = camera(rng, canvas)
    return FourColorScene(image, canvas.objects, meld_ids, style)


def _fan(
    rng: np.random.Generator, canvas: Canvas, style: FourColorStyle, card_w: float, card_h: float
) -> None:
    """A hand fanned about a pivot below the cards, each one turned a little further, so the
    top characters stay readable."""
    h, w = canvas.owner.shape
    n = int(rng.integers(4, 11))
    step = float(rng.uniform(11, 16))
    radius = card_h * 0.9
    pivot = np.array([w * rng.uniform(0.35, 0.65), h * rng.uniform(0.9, 0.97)])
    base = float(rng.uniform(-15, 15))
    for i, token in enumerate(rng.choice(LABELS, size=n)):
        theta = base + (i - (n - 1) / 2) * step
        t = np.deg2rad(theta)
        centre = pivot + radius * np.array([np.sin(t), -np.cos(t)]) * 0.75
        face = render_card(str(token), style, height=max(40, round(card_h * 1.5)))
        quad = card_quad(float(centre[0]), float(centre[1]), card_w, card_h, theta)
        canvas.paste(face, quad, str(token), INDEX_RECT, group="hand")


def crop_samples(
    rng: np.random.Generator,
    n: int,
    *,
    fonts: tuple[str, ...] = cjk_fonts.TRAIN_FONTS,
    size: int = 48,
) -> tuple[NDArray[np.uint8], list[str]]:
    """``n`` index crops (size x size, BGR) as a recogniser sees them after localisation:
    a card in a random style at a random scale, photographed, cut out by a slightly noisy
    quad and rectified. Labels cycle through every token, so classes stay balanced."""
    crops = np.zeros((n, size, size, 3), np.uint8)
    labels: list[str] = []
    for i in range(n):
        token = LABELS[i % len(LABELS)]
        style = random_style(rng, fonts)
        crops[i] = photographed_index(
            rng, render_card(token, style, int(rng.integers(60, 260))), size
        )
        labels.append(token)
    return crops, labels


def photographed_index(
    rng: np.random.Generator, face: NDArray[np.uint8], size: int
) -> NDArray[np.uint8]:
    """Put one card face on a small table, photograph it, and cut the index out by a quad
    that is a little off, as a real localiser's would be."""
    fh, fw = face.shape[:2]
    canvas = Canvas.table(rng, (fw * 2, fh + fw))
    quad = card_quad(fw, (fh + fw) / 2, fw, fh, 0.0)
    obj = canvas.paste(face, quad, "", INDEX_RECT)
    img = camera(rng, canvas, strength=0.6)
    iq = obj.index_quad + rng.normal(0, 0.04 * fw, (4, 2))
    return rectify(img, iq, (size, size))
