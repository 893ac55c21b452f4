"""Deck styles the recognisers never saw, for the enrolment benchmark and tests.

A real deck differs from every render the models trained on; these styles stand for such a
deck. What changes against ``vision.synth``'s trained styles:

* **Cards** (standard deck): a four-colour deck (spades black, hearts red, diamonds blue,
  clubs green), ranks in fonts absent from training (the Latin letters of AR PL UMing, LXGW
  WenKai and Noto Serif CJK), redrawn suit icons (hollow heart, concave diamond, leaf spade,
  ring club), an ivory paper, and the index set lower and further in, with the suit smaller.
* **All In**: new icons for the clock (a dial with a cut-out face), mask (a domino mask),
  beetle (a spotted ladybird) and tree (a round crown), a different rune, new inks.
* **Tiles**: a bluish-white face without the hollow circle, numbers in the same unseen fonts, a
  thin colour bar low on the tile, gold instead of orange, teal-blue, crimson and
  charcoal inks, and star jokers in place of the smiling faces.

Whole scenes reuse ``vision.synth``'s composition (surfaces, layouts, lighting, camera), with
these faces in place of the trained ones. :func:`layout_scene` renders what ``tableref
enroll`` asks the player for: the deck in notation order, in a grid, on a plain surface.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from vision import cjk_fonts, synth
from vision.synth import CARD_ASPECT, TILE_ASPECT, Quad, Scene, Truth

Image = npt.NDArray[Any]
Mask = npt.NDArray[Any]
BGR = tuple[int, int, int]

FONTS = ("uming", "lxgw-wenkai-bold", "noto-serif-bold")
STYLE_NAMES = {
    "cards": "four-colour serif deck, redrawn suits",
    "allin": "redrawn All In icons and rune, new inks and fonts",
    "rummikub": "bluish-white tiles, gold/teal/crimson/charcoal, serif numbers, star jokers",
}
_CARD_INK: dict[str, BGR] = {"S": (25, 25, 25), "H": (35, 25, 190), "D": (170, 80, 10)}
_CARD_INK["C"] = (40, 120, 20)
_ALLIN_INK: dict[str, BGR] = {"c": (20, 140, 190), "m": (120, 40, 110)}
_ALLIN_INK.update({"b": (30, 30, 140), "t": (110, 110, 0)})
_TILE_INK: dict[str, BGR] = {"k": (55, 50, 50), "r": (60, 15, 175)}
_TILE_INK.update({"b": (150, 100, 0), "o": (10, 150, 205)})


@dataclass(frozen=True)
class DeckPrint:
    """How one physical deck is printed: one font and one index geometry for every card, as
    a real deck has. Without one (``deck=None`` below) each card drawn picks its own font and
    index geometry: every copy of a card looks different, which no physical deck does (a
    harder test than reading the deck that was enrolled)."""

    font: str
    rank: float  # cards: rank height / card height
    suit: float  # suit icon height / rank height
    margin: float  # index centre's inset / card width (before centring on the glyphs)
    top: float  # index top / card height
    gap: float  # rank-suit gap / rank height
    digit: float  # tiles: number height / tile height
    digit_y: float  # tiles: number centre / tile height


def deck_print(seed: int) -> DeckPrint:
    """A deck's print, drawn from the same ranges as the per-card draws."""
    rng = np.random.default_rng(seed)
    return DeckPrint(
        font=str(rng.choice(fonts())),
        rank=float(rng.uniform(0.085, 0.11)),
        suit=float(rng.uniform(0.75, 0.9)),
        margin=float(rng.uniform(0.1, 0.13)),
        top=float(rng.uniform(0.06, 0.08)),
        gap=float(rng.uniform(0.15, 0.3)),
        digit=float(rng.uniform(0.28, 0.33)),
        digit_y=float(rng.uniform(0.36, 0.4)),
    )


def fonts() -> tuple[str, ...]:
    """The unseen fonts installed here (Debian packages in .ci/apt-packages.txt)."""
    found = cjk_fonts.available(FONTS)
    if not found:
        raise cjk_fonts.FontMissing(
            "no unseen-deck font is installed: apt-get install fonts-arphic-uming"
        )
    return found


def _text(text: str, font: str, height: int) -> Mask:
    """A tight mask of ``text`` about ``height`` pixels tall (cap height)."""
    from PIL import Image as PILImage
    from PIL import ImageDraw

    face = cjk_fonts.load(font, max(8, int(height * 1.4)))
    left, top, right, bottom = face.getbbox(text)
    img = PILImage.new("L", (int(right - left) + 8, int(bottom - top) + 8), 0)
    ImageDraw.Draw(img).text((4 - left, 4 - top), text, fill=255, font=face)
    mask = np.asarray(img, np.uint8)
    ys, xs = np.nonzero(mask > 40)
    if len(xs) == 0:
        return mask
    tight = mask[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]
    scale = height / max(1, tight.shape[0])
    return cv2.resize(tight, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)


# -- icons: drawn 8x large on a square, then shrunk ----------------------------------------
def icon(name: str, size: int) -> Mask:
    """A mask of an unseen-style suit or joker icon about ``size`` pixels tall."""
    size = max(6, size)
    s = size * 8
    m = np.zeros((s, s), np.uint8)
    lt = cv2.LINE_AA

    def pt(x: float, y: float) -> tuple[int, int]:
        return int(x * s), int(y * s)

    def poly(points: list[tuple[float, float]], colour: int = 255) -> None:
        cv2.fillPoly(m, [np.array([pt(x, y) for x, y in points], np.int32)], colour, lt)

    t = max(2, s // 9)
    if name == "H":  # a hollow heart
        heart = [
            (0.5 + 0.42 * math.sin(a) ** 3, 0.45 - 0.34 * math.cos(a) + 0.12 * math.cos(2 * a))
            for a in np.linspace(0, 2 * math.pi, 60)
        ]
        poly(heart)
        inner = [(0.5 + (x - 0.5) * 0.55, 0.45 + (y - 0.45) * 0.55) for x, y in heart]
        poly(inner, 0)
    elif name == "D":  # a diamond with concave sides
        pts = []
        for k in range(4):
            a = k * math.pi / 2 - math.pi / 2
            pts.append((0.5 + 0.48 * math.cos(a), 0.5 + 0.48 * math.sin(a)))
            b = a + math.pi / 4
            pts.append((0.5 + 0.16 * math.cos(b), 0.5 + 0.16 * math.sin(b)))
        poly(pts)
    elif name == "S":  # a leaf-shaped spade on a long stem
        cv2.ellipse(m, pt(0.5, 0.4), (int(0.3 * s), int(0.36 * s)), 0, 0, 360, 255, -1, lt)
        poly([(0.5, 0.0), (0.3, 0.2), (0.7, 0.2)])
        cv2.line(m, pt(0.5, 0.6), pt(0.5, 0.98), 255, t, lt)
    elif name == "C":  # three rings and a stem
        for cx, cy in ((0.5, 0.24), (0.26, 0.55), (0.74, 0.55)):
            cv2.circle(m, pt(cx, cy), int(0.18 * s), 255, t, lt)
        cv2.line(m, pt(0.5, 0.5), pt(0.5, 0.98), 255, t, lt)
    elif name == "c":  # clock: a solid dial with hands cut out
        cv2.circle(m, pt(0.5, 0.5), int(0.46 * s), 255, -1, lt)
        cv2.line(m, pt(0.5, 0.5), pt(0.5, 0.16), 0, t, lt)
        cv2.line(m, pt(0.5, 0.5), pt(0.76, 0.5), 0, t, lt)
    elif name == "m":  # a domino mask
        cv2.ellipse(m, pt(0.5, 0.5), (int(0.48 * s), int(0.26 * s)), 0, 0, 360, 255, -1, lt)
        for x in (0.3, 0.7):
            cv2.circle(m, pt(x, 0.48), int(0.1 * s), 0, -1, lt)
        poly([(0.42, 0.76), (0.58, 0.76), (0.5, 0.62)], 0)
    elif name == "b":  # a ladybird: round body, spots, a head
        cv2.circle(m, pt(0.5, 0.58), int(0.38 * s), 255, -1, lt)
        cv2.circle(m, pt(0.5, 0.14), int(0.13 * s), 255, -1, lt)
        cv2.line(m, pt(0.5, 0.22), pt(0.5, 0.96), 0, max(1, s // 30), lt)
        for x, y in ((0.35, 0.45), (0.65, 0.45), (0.32, 0.7), (0.68, 0.7)):
            cv2.circle(m, pt(x, y), int(0.07 * s), 0, -1, lt)
    elif name == "t":  # a round-crowned tree
        cv2.circle(m, pt(0.5, 0.36), int(0.34 * s), 255, -1, lt)
        poly([(0.42, 0.6), (0.58, 0.6), (0.62, 0.98), (0.38, 0.98)])
    elif name == "R":  # the rune algiz
        cv2.line(m, pt(0.5, 0.05), pt(0.5, 0.95), 255, t, lt)
        cv2.line(m, pt(0.5, 0.5), pt(0.12, 0.08), 255, t, lt)
        cv2.line(m, pt(0.5, 0.5), pt(0.88, 0.08), 255, t, lt)
    elif name in ("X", "star"):  # a six-pointed star
        pts = []
        for k in range(12):
            a = -math.pi / 2 + k * math.pi / 6
            r = 0.48 if k % 2 == 0 else 0.24
            pts.append((0.5 + r * math.cos(a), 0.5 + r * math.sin(a)))
        poly(pts)
    else:
        raise ValueError(f"no unseen-style icon {name!r}")
    small = cv2.resize(m, (size, size), interpolation=cv2.INTER_AREA)
    ys, xs = np.nonzero(small > 40)
    return np.ascontiguousarray(small[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1])


# -- card faces ---------------------------------------------------------------------------
def render_card(
    label: str,
    game: synth.Game,
    rng: np.random.Generator,
    height: int = 280,
    deck: DeckPrint | None = None,
) -> tuple[Image, list[Quad]]:
    """An upright unseen-style card face and its two corner indices' quads (as
    ``synth.render_card``); ``deck``: printed as that deck (else font and index geometry are
    drawn per card)."""
    h = height
    w = round(h * CARD_ASPECT)
    card = np.zeros((h, w, 3), np.uint8)
    card[:] = synth._jitter((215, 236, 246), rng, 8)  # ivory
    if label in ("X", "R"):
        rank, suit, ink = ("JOKER" if label == "X" else "RUNE"), label, (40, 40, 150)
    else:
        rank, suit = label[:-1], label[-1]
        ink = _ALLIN_INK[suit] if game == "allin" else _CARD_INK[suit]
    ink = synth._jitter(ink, rng, 12)
    font = deck.font if deck else str(rng.choice(fonts()))
    rank_h = int(h * (deck.rank if deck else rng.uniform(0.085, 0.11)))
    word = len(rank) > 2  # JOKER / RUNE, spelt downwards
    if word:
        rank_mask = synth._stack([_text(c, font, int(rank_h * 0.5)) for c in rank])
    else:
        rank_mask = _text(rank, font, rank_h)
    suit_mask = icon(suit, int(rank_h * (deck.suit if deck else rng.uniform(0.75, 0.9))))
    margin_x = w * (deck.margin if deck else rng.uniform(0.1, 0.13))
    top = h * (deck.top if deck else rng.uniform(0.06, 0.08))
    gap = rank_h * (deck.gap if deck else rng.uniform(0.15, 0.3))
    cx = margin_x + max(rank_mask.shape[1], suit_mask.shape[1]) / 2
    ry = top + rank_mask.shape[0] / 2
    sy = top + rank_mask.shape[0] + gap + suit_mask.shape[0] / 2
    quads: list[Quad] = []
    for flip in (False, True):
        x = w - cx if flip else cx
        yr, ys = (h - ry, h - sy) if flip else (ry, sy)
        angle = 180.0 if flip else 0.0
        synth._paste(card, rank_mask, ink, x, yr, angle)
        synth._paste(card, suit_mask, ink, x, ys, angle)
        quads.append(synth._index_quad((x, yr), (x, ys), rank_mask.shape, suit_mask.shape, word))
    # A thin frame round the middle, pips or a striped court panel inside it.
    x0, x1, y0, y1 = int(w * 0.3), int(w * 0.7), int(h * 0.2), int(h * 0.8)
    cv2.rectangle(card, (x0, y0), (x1, y1), ink, 1, cv2.LINE_AA)
    if rank in ("J", "Q", "K", "JOKER", "RUNE"):
        for y in range(y0 + 6, y1, 10):
            cv2.line(card, (x0 + 3, y), (x1 - 3, y), synth._jitter(ink, rng, 60), 2)
        synth._paste(card, icon(suit, int(h * 0.16)), ink, w / 2, h / 2)
    else:
        count = 1 if rank == "A" else int(rank)
        pip = icon(suit, int(h * (0.22 if rank == "A" else 0.09)))
        cols = 1 if count <= 3 else 2
        rows = math.ceil(count / cols)
        for k in range(count):
            r, c = divmod(k, cols)
            px = x0 + (x1 - x0) * (c + 0.5) / cols
            py = y0 + (y1 - y0) * (r + 0.5) / rows
            synth._paste(card, pip, ink, px, py, 180.0 if py > h / 2 else 0.0)
    return card, quads


# -- tile faces ---------------------------------------------------------------------------
def render_tile(
    label: str, rng: np.random.Generator, height: int = 96, deck: DeckPrint | None = None
) -> Image:
    """An upright unseen-style tile face ``height`` pixels tall; ``deck``: printed as that
    deck (else the number's font, size and height are drawn per tile)."""
    w, h = round(height * TILE_ASPECT), height
    base = synth._jitter((242, 236, 228), rng, 8)  # bluish white
    face = np.zeros((h, w, 3), np.uint8)
    face[:] = base
    # A faint grey-blue edge (a dark one would hide the tile's outline from the detector).
    edge = tuple(int(v * 0.9) for v in base)
    cv2.rectangle(face, (0, 0), (w - 1, h - 1), edge, max(2, h // 30))
    cx, cy = w / 2, h * (deck.digit_y if deck else rng.uniform(0.36, 0.4))
    if label in synth.TILE_JOKERS:
        star = icon("star", int(h * 0.34))
        colours = {"J": ["k"], "DJ": ["r", "b"], "CJ": ["r", "b", "o", "k"], "MJ": ["k", "k"]}
        inks = colours[label]
        if label == "DJ":
            small = icon("star", int(h * 0.22))
            synth._paste(face, small, _TILE_INK["r"], cx - w * 0.16, cy - h * 0.08)
            synth._paste(face, small, _TILE_INK["b"], cx + w * 0.16, cy + h * 0.1)
        elif label == "CJ":
            synth._paste(face, star, _TILE_INK["k"], cx, cy)
            for k, col in enumerate(inks):
                a = math.radians(45 + 90 * k)
                dot = np.full((max(3, h // 14), max(3, h // 14)), 255, np.uint8)
                synth._paste(
                    face,
                    dot,
                    _TILE_INK[col],
                    cx + math.cos(a) * w * 0.34,
                    cy + math.sin(a) * w * 0.34,
                )
        elif label == "MJ":
            synth._paste(face, star, _TILE_INK["k"], cx, cy)
            cv2.line(face, (int(cx), int(cy - h * 0.22)), (int(cx), int(cy + h * 0.22)), base, 3)
        else:
            synth._paste(face, star, _TILE_INK["k"], cx, cy)
        return face
    colour, number = label[0], label[1:]
    ink = synth._jitter(_TILE_INK[colour], rng, 12)
    font = deck.font if deck else str(rng.choice(fonts()))
    mask = _text(number, font, int(h * (deck.digit if deck else rng.uniform(0.28, 0.33))))
    if mask.shape[1] > w * 0.8:
        scale = w * 0.8 / mask.shape[1]
        mask = cv2.resize(mask, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    synth._paste(face, mask, ink, cx, cy)
    # A thin coloured bar low on the tile (this set's maker mark), well apart from the number.
    bar_w, bar_h = int(w * 0.36), max(1, h // 40)
    y = int(h * 0.84)
    cv2.rectangle(face, (int(cx - bar_w / 2), y), (int(cx + bar_w / 2), y + bar_h), ink, -1)
    return face


# -- whole scenes ---------------------------------------------------------------------------
def scene(
    game: str,
    rng: np.random.Generator,
    size: tuple[int, int] = (1000, 750),
    layout: str | None = None,
    deck: DeckPrint | None = None,
) -> Scene:
    """A table scene of the unseen deck: ``synth``'s layouts, surfaces and lighting;
    ``deck``: one deck's print (else each card drawn is printed its own way)."""
    if game == "rummikub":
        return synth.tile_scene(rng, size, layout=layout, face=partial(render_tile, deck=deck))
    face = partial(render_card, deck=deck)
    return synth.card_scene(rng, game, size, layout=layout, face=face)  # type: ignore[arg-type]


@dataclass
class Layout:
    """One enrolment capture: the image, and the cards (or tiles) laid out in it."""

    image: Image
    labels: list[str]  # in reading order ("" for an empty place)
    quads: list[Quad]  # each object's whole face, TL TR BR BL
    truths: list[Truth]  # what a reader should find (tiles, or cards' corner indices)


def layout_scene(
    game: str,
    labels: Sequence[str],
    cols: int,
    rng: np.random.Generator,
    unseen: bool = True,
    surface: str = "dark",
    size: tuple[int, int] | None = None,
    tilt: float = 3.0,
    deck: DeckPrint | None = None,
) -> Layout:
    """The layout ``tableref enroll`` asks for: ``labels`` row by row, ``cols`` to a row, laid
    upright and apart on a plain surface, photographed a little askew. An empty label leaves
    its place empty."""
    n = len(labels)
    rows = max(1, math.ceil(n / cols))
    tile = game == "rummikub"
    obj_h = 96.0 if tile else 150.0
    obj_w = obj_h * (TILE_ASPECT if tile else CARD_ASPECT)
    pitch_x, pitch_y = obj_w * 1.22, obj_h * 1.18
    if size is None:
        size = (int(cols * pitch_x + 2 * obj_w), int(rows * pitch_y + 1.6 * obj_h))
    w, h = size
    img = synth.render_surface(surface, w, h, rng)
    x_start = (w - (cols - 1) * pitch_x) / 2
    y_start = (h - (rows - 1) * pitch_y) / 2
    quads: list[Quad] = []
    truths: list[Truth] = []
    for k, label in enumerate(labels):
        if not label:
            continue  # a place left empty (a card missing from the layout)
        r, c = divmod(k, cols)
        cx = x_start + c * pitch_x + rng.normal(0, obj_w * 0.03)
        cy = y_start + r * pitch_y + rng.normal(0, obj_h * 0.03)
        q = synth._rect_quad(cx, cy, obj_w, obj_h, float(rng.normal(0, tilt)))
        if tile:
            if unseen:
                face = render_tile(label, rng, int(obj_h * 1.3), deck)
            else:
                face = synth.render_tile(label, rng, int(obj_h * 1.3))
            synth._place(img, face, q, 0.3)
            truths.append(Truth(label, q))
        else:
            render = partial(render_card, deck=deck) if unseen else synth.render_card
            face, iquads = render(label, game, rng, int(obj_h * 1.2))  # type: ignore[arg-type]
            fh, fw = face.shape[:2]
            src = np.array([[0, 0], [fw, 0], [fw, fh], [0, fh]], np.float32)
            m = cv2.getPerspectiveTransform(src, q)
            for iq in iquads:
                pts = cv2.perspectiveTransform(iq[None].astype(np.float32), m)[0]
                truths.append(Truth(label, pts.astype(np.float32)))
            synth._place(img, face, q, 0.3)
        quads.append(q)
    synth._finish(img, rng, "even")
    return Layout(img, list(labels), quads, truths)
