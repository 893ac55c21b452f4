"""Procedural renders of Rummikub tiles, playing cards and whole table scenes, with ground truth.

Everything is drawn from a seeded ``numpy.random.Generator``: the same seed gives the same
scene, pixel for pixel. A scene's ground truth is one :class:`Truth` per readable object: a
whole tile, or one corner index (rank over suit) of a card. Quads are in image coordinates,
ordered top-left, top-right, bottom-right, bottom-left *in the object's own upright frame*, so
the first edge is the object's top edge however the object is rotated.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

import cv2
import numpy as np
import numpy.typing as npt

from vision.glyphs import face_mask, font_count, suit_mask, text_mask

Image = npt.NDArray[Any]
Quad = npt.NDArray[np.float32]
Game = Literal["rummikub", "cards", "allin"]

TILE_COLOURS = ("k", "r", "b", "o")
TILE_JOKERS = ("J", "DJ", "CJ", "MJ")
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
STANDARD_SUITS = ("S", "H", "D", "C")
ALLIN_SUITS = ("c", "m", "b", "t")

# Ink colours (BGR) with some spread per render.
_TILE_INK = {
    "k": (35, 35, 40),
    "r": (45, 35, 200),
    "b": (190, 100, 20),
    "o": (30, 135, 240),
}
TILE_ASPECT = 0.72  # width / height of a Rummikub tile face
CARD_ASPECT = 0.714  # poker size 63 × 88 mm


@dataclass(frozen=True)
class Truth:
    label: str
    quad: Quad  # 4 × 2, TL TR BR BL in the object's upright frame


@dataclass
class Scene:
    image: Image
    truths: list[Truth]
    conditions: dict[str, str] = field(default_factory=dict)
    # Corner indices partly under a later card but with their middle in sight: a person could
    # still read them, so scoring neither demands them nor counts a right read of one as
    # spurious (a wrong read of one still is). Training does not use them.
    partial: list[Truth] = field(default_factory=list)
    # Card scenes: every card's label and outline, in the order laid (a later card lies on
    # top), so whatever lies at a point can be told (vision.train_pips).
    cards: list[Truth] = field(default_factory=list)


def tile_labels() -> list[str]:
    return [f"{c}{n}" for c in TILE_COLOURS for n in range(1, 14)] + list(TILE_JOKERS)


def card_labels(game: Game) -> list[str]:
    if game == "allin":
        return [f"{r}{s}" for s in ALLIN_SUITS for r in RANKS] + ["R"]
    return [f"{r}{s}" for s in STANDARD_SUITS for r in RANKS] + ["X"]


# -- drawing helpers ----------------------------------------------------------------------
def _paste(
    canvas: Image,
    mask: npt.NDArray[Any],
    colour: tuple[int, ...],
    cx: float,
    cy: float,
    angle: float = 0.0,
) -> None:
    """Alpha-blend a solid ``colour`` through ``mask`` centred at (cx, cy), rotated."""
    if angle:
        h, w = mask.shape
        diag = int(math.hypot(w, h)) + 2
        m = cv2.getRotationMatrix2D((w / 2, h / 2), angle, 1.0)
        m[0, 2] += (diag - w) / 2
        m[1, 2] += (diag - h) / 2
        mask = cv2.warpAffine(mask, m, (diag, diag))
    h, w = mask.shape
    x0, y0 = round(cx - w / 2), round(cy - h / 2)
    x1, y1 = x0 + w, y0 + h
    cx0, cy0 = max(0, x0), max(0, y0)
    cx1, cy1 = min(canvas.shape[1], x1), min(canvas.shape[0], y1)
    if cx0 >= cx1 or cy0 >= cy1:
        return
    a = mask[cy0 - y0 : cy1 - y0, cx0 - x0 : cx1 - x0].astype(np.float32)[..., None] / 255.0
    region = canvas[cy0:cy1, cx0:cx1].astype(np.float32)
    canvas[cy0:cy1, cx0:cx1] = (region * (1 - a) + np.array(colour, np.float32) * a).astype(
        np.uint8
    )


def _colour(values: npt.NDArray[Any]) -> tuple[int, int, int]:
    return int(values[0]), int(values[1]), int(values[2])


def _jitter(
    colour: tuple[int, int, int], rng: np.random.Generator, amount: int = 25
) -> tuple[int, int, int]:
    c = np.clip(np.array(colour) + rng.integers(-amount, amount + 1, 3), 0, 255)
    return int(c[0]), int(c[1]), int(c[2])


def _thinned(mask: npt.NDArray[Any], rng: np.random.Generator) -> npt.NDArray[Any]:
    """``mask`` with its strokes thinned by a pixel or two: decks print thin strokes too (a
    Ming serif), where the recipe's fonts are mostly bold. Left whole where nothing would
    remain."""
    k = int(rng.integers(2, 4))
    thinned = cv2.erode(mask, np.ones((k, k), np.uint8))
    return thinned if int(thinned.max()) > 0 else mask


# -- tile faces ---------------------------------------------------------------------------
def render_tile(label: str, rng: np.random.Generator, height: int = 96, thin: float = 0.0) -> Image:
    """An upright tile face ``height`` pixels tall (no background); ``thin``: the share of
    numbers drawn with their strokes thinned (the tiles recipe's ``thin_digits``)."""
    w, h = round(height * TILE_ASPECT), height
    base = _jitter((205, 228, 238), rng, 12)  # cream, BGR
    face = np.zeros((h, w, 3), np.uint8)
    face[:] = base
    # Bevel: darker rim, lighter centre.
    rim = max(2, h // 24)
    shade = tuple(int(v * 0.86) for v in base)
    cv2.rectangle(face, (0, 0), (w - 1, h - 1), shade, rim)
    cx, cy = w / 2, h * rng.uniform(0.36, 0.42)
    # The number sits in a slightly lighter, slightly hollow circle.
    circle = tuple(min(255, int(v * 1.04) + 4) for v in base)
    cv2.circle(face, (int(cx), int(cy)), int(w * rng.uniform(0.36, 0.42)), circle, -1, cv2.LINE_AA)
    font = int(rng.integers(0, font_count()))
    if label in TILE_JOKERS:
        size = int(h * rng.uniform(0.42, 0.5))
        mask = face_mask(label, size)
        # The classic joker's face is printed red in some sets, black in others.
        ink = "r" if label == "J" and rng.random() < 0.5 else "k"
        _paste(face, mask, _jitter(_TILE_INK[ink], rng, 15), cx, cy)
        if label == "CJ":  # the colour-change joker's ring carries all four colours
            for k, col in enumerate(("r", "b", "o", "k")):
                quarter = np.zeros_like(mask)
                yy, xx = np.mgrid[: mask.shape[0], : mask.shape[1]]
                ang = (np.degrees(np.arctan2(yy - size / 2, xx - size / 2)) + 360) % 360
                sel = (
                    (ang >= k * 90)
                    & (ang < (k + 1) * 90)
                    & (np.hypot(yy - size / 2, xx - size / 2) > size * 0.38)
                )
                quarter[sel] = mask[sel]
                _paste(face, quarter, _TILE_INK[col], cx, cy)
    else:
        colour, number = label[0], label[1:]
        # Real tiles print big, heavy digits: most renders are bold, some up to 0.38 of the
        # tile's height.
        digit_h = int(h * rng.uniform(0.26, 0.38))
        mask = text_mask(number, font, digit_h, int(rng.choice(3, p=[0.3, 0.4, 0.3])))
        if thin and rng.random() < thin:
            mask = _thinned(mask, rng)
        if mask.shape[1] > w * 0.78:
            scale = w * 0.78 / mask.shape[1]
            mask = cv2.resize(mask, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
        _paste(face, mask, _jitter(_TILE_INK[colour], rng, 20), cx, cy)
        if number in ("6", "9") and rng.random() < 0.5:  # some sets underline 6 and 9
            bar = np.full((max(1, h // 40), max(2, mask.shape[1] // 2)), 255, np.uint8)
            _paste(face, bar, _TILE_INK[colour], cx, cy + mask.shape[0] / 2 + h // 30)
    if rng.random() < 0.8:  # the brand line under the number, low contrast
        logo = text_mask("Rummikub", font, int(h * 0.07))
        scale = min(1.0, w * 0.7 / max(1, logo.shape[1]))
        logo = cv2.resize(logo, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
        _paste(
            face, (logo * 0.5).astype(np.uint8), tuple(int(v * 0.72) for v in base), w / 2, h * 0.8
        )
    return face


# -- card faces ---------------------------------------------------------------------------
_CARD_INK = {"S": (30, 30, 30), "C": (30, 30, 30), "H": (40, 30, 200), "D": (40, 30, 200)}
_ALLIN_INK = {"c": (150, 90, 20), "m": (60, 40, 170), "b": (40, 110, 40), "t": (30, 60, 90)}


def _card_parts(label: str, game: Game) -> tuple[str, str, tuple[int, int, int]]:
    """(rank text, suit glyph, ink colour) for a card label."""
    if label in ("X", "R"):
        return ("JOKER" if label == "X" else "R"), label, (30, 30, 30)
    rank, suit = label[:-1], label[-1]
    ink = _ALLIN_INK[suit] if game == "allin" else _CARD_INK[suit]
    return rank, suit, ink


def render_card(
    label: str, game: Game, rng: np.random.Generator, height: int = 280, thin: float = 0.0
) -> tuple[Image, list[Quad]]:
    """An upright card face and the quads of its two corner indices (card coordinates);
    ``thin``: the share of ranks drawn with their strokes thinned (the cards recipe's
    ``thin_digits``)."""
    h = height
    w = round(h * CARD_ASPECT)
    paper = _jitter((240, 242, 244), rng, 14)
    card = np.zeros((h, w, 3), np.uint8)
    card[:] = paper
    rank, suit, ink = _card_parts(label, game)
    if game == "allin" and rng.random() < 0.3:
        ink = _jitter(ink, rng, 40)
    if rng.random() < 0.15:  # dark-faced decks exist (black card, gold print)
        card[:] = _jitter((35, 30, 30), rng, 15)
        ink = _jitter((90, 170, 200), rng, 30)
    font = int(rng.integers(0, font_count()))
    rank_h = int(h * rng.uniform(0.075, 0.1))
    if rank == "JOKER":
        letters = [text_mask(c, font, int(rank_h * 0.55)) for c in rank]
        rank_mask = _stack(letters)
    else:
        rank_mask = text_mask(rank, font, rank_h, int(rng.integers(0, 2)))
        if rank == "10" and rng.random() < 0.3:
            rank_mask = cv2.resize(rank_mask, None, fx=0.75, fy=1.0)
        if thin and rng.random() < thin:
            rank_mask = _thinned(rank_mask, rng)
    suit_h = int(rank_h * rng.uniform(0.7, 1.0))
    smask = suit_mask(suit, suit_h, int(rng.integers(0, 2)))
    margin_x = w * rng.uniform(0.06, 0.1)
    top = h * rng.uniform(0.035, 0.06)
    gap = rank_h * rng.uniform(0.12, 0.4)
    col_w = max(rank_mask.shape[1], smask.shape[1])
    cx = margin_x + col_w / 2
    ry = top + rank_mask.shape[0] / 2
    sy = top + rank_mask.shape[0] + gap + smask.shape[0] / 2
    quads: list[Quad] = []
    for flip in (False, True):
        x = w - cx if flip else cx
        yr, ys = (h - ry, h - sy) if flip else (ry, sy)
        angle = 180.0 if flip else 0.0
        _paste(card, rank_mask, ink, x, yr, angle)
        _paste(card, smask, ink, x, ys, angle)
        quads.append(
            _index_quad((x, yr), (x, ys), rank_mask.shape, smask.shape, word=rank == "JOKER")
        )
    # The face: pips or a framed picture, which the readers must learn to ignore.
    _draw_middle(card, rank, suit, ink, rng)
    return card, quads


def _stack(masks: list[npt.NDArray[Any]]) -> npt.NDArray[Any]:
    w = max(m.shape[1] for m in masks)
    rows = []
    for m in masks:
        pad = np.zeros((m.shape[0] + 2, w), np.uint8)
        x = (w - m.shape[1]) // 2
        pad[1 : 1 + m.shape[0], x : x + m.shape[1]] = m
        rows.append(pad)
    return np.vstack(rows)


WORD_MARGIN = 0.075  # a word index's frame: this much of its length spare on every side


def _index_quad(
    rank_c: tuple[float, float],
    suit_c: tuple[float, float],
    rank_shape: tuple[int, ...],
    suit_shape: tuple[int, ...],
    word: bool = False,
) -> Quad:
    """The corner index's quad from its rank and suit centres: the same geometry the
    detector uses (``vision.detect.pair_quad``), so truths and detections are comparable.

    A word index (``word``: a joker's "JOKER" spelt downwards, its suit glyph under it) is
    framed around what is printed, as a person would draw its box: the index geometry, which
    takes the width from the rank-to-suit distance, framed a five-letter word about three
    times too wide and half again too tall, so the reader's right reads of it, framed on the
    word, did not count (scored as a miss and a spurious read)."""
    from vision.detect import pair_quad, rect_quad

    rank, suit = np.array(rank_c, np.float32), np.array(suit_c, np.float32)
    if not word:
        return pair_quad(rank, suit)
    axis = suit - rank
    down = axis / max(float(np.linalg.norm(axis)), 1e-6)
    top = rank - down * rank_shape[0] / 2
    bottom = suit + down * suit_shape[0] / 2
    length = float(np.linalg.norm(bottom - top))
    spare = 2 * WORD_MARGIN * length
    angle = math.degrees(math.atan2(float(down[1]), float(down[0])))
    centre = ((top + bottom) / 2).astype(np.float32)
    return rect_quad(centre, max(rank_shape[1], suit_shape[1]) + spare, length + spare, angle)


def _draw_middle(
    card: Image, rank: str, suit: str, ink: tuple[int, int, int], rng: np.random.Generator
) -> None:
    h, w = card.shape[:2]
    x0, x1, y0, y1 = w * 0.26, w * 0.74, h * 0.18, h * 0.82
    if rank in ("J", "Q", "K", "JOKER", "R"):
        cv2.rectangle(card, (int(x0), int(y0)), (int(x1), int(y1)), ink, 2)
        for _ in range(10):
            c = tuple(int(v) for v in rng.integers(0, 255, 3))
            p = (int(rng.uniform(x0, x1)), int(rng.uniform(y0, y1)))
            cv2.circle(card, p, int(rng.uniform(4, w * 0.12)), c, -1, cv2.LINE_AA)
        big = suit_mask(suit, int(h * 0.14))
        _paste(card, big, ink, w / 2, h / 2)
        return
    count = 1 if rank == "A" else min(10, int(rank))
    size = int(h * (0.28 if rank == "A" else 0.11))
    pip = suit_mask(suit, size)
    cols = 1 if count <= 3 else 2
    if count >= 9:
        cols = 3 if rng.random() < 0.5 else 2
    rows = math.ceil(count / cols)
    k = 0
    for r in range(rows):
        for col in range(cols):
            if k >= count:
                break
            x = x0 + (x1 - x0) * ((col + 0.5) / cols)
            y = y0 + (y1 - y0) * ((r + 0.5) / rows)
            _paste(card, pip, ink, x, y, 180.0 if y > h / 2 else 0.0)
            k += 1


# -- surfaces -----------------------------------------------------------------------------
SURFACES = ("wood", "white", "marble", "pattern", "dark", "cloth")


def render_surface(kind: str, w: int, h: int, rng: np.random.Generator) -> Image:
    img: npt.NDArray[Any]
    veins: npt.NDArray[Any]
    fine: npt.NDArray[Any]
    if kind == "wood":
        base = np.array(_jitter((50, 90, 140), rng, 30), np.float32)
        x = np.linspace(0, 1, w, dtype=np.float32)[None, :]
        y = np.linspace(0, 1, h, dtype=np.float32)[:, None]
        noise = cv2.resize(rng.random((8, 64)).astype(np.float32), (w, h))
        grain = np.sin((y * rng.uniform(20, 60) + noise * 6 + x * rng.uniform(-2, 2)) * 6.28)
        shade = (
            0.78 + 0.16 * grain + 0.08 * cv2.resize(rng.random((6, 6)).astype(np.float32), (w, h))
        )
        img = base[None, None, :] * shade[..., None]
        if rng.random() < 0.5:
            img = cv2.rotate(cv2.resize(img, (h, w)), cv2.ROTATE_90_CLOCKWISE)
    elif kind == "white":
        img = np.full((h, w, 3), _jitter((225, 228, 230), rng, 20), np.float32)
        img += cv2.resize(rng.normal(0, 6, (8, 8)).astype(np.float32), (w, h))[..., None]
    elif kind == "marble":
        img = np.full((h, w, 3), _jitter((228, 230, 232), rng, 12), np.float32)
        veins = np.zeros((h, w), np.float32)
        for _ in range(int(rng.integers(2, 6))):
            p = np.array([rng.uniform(0, w), rng.uniform(0, h)])
            a = rng.uniform(0, 2 * math.pi)
            pts = []
            for _ in range(60):
                a += rng.normal(0, 0.3)
                p = p + 25 * np.array([math.cos(a), math.sin(a)])
                pts.append(p.copy())
            cv2.polylines(
                veins, [np.array(pts, np.int32)], False, 1.0, int(rng.integers(1, 4)), cv2.LINE_AA
            )
        veins = cv2.GaussianBlur(veins, (0, 0), rng.uniform(0.8, 2.5))
        img -= veins[..., None] * rng.uniform(60, 140)
    elif kind == "pattern":
        first = _jitter(_colour(rng.integers(40, 220, 3)), rng)
        second = _jitter(_colour(rng.integers(40, 220, 3)), rng)
        period = int(rng.integers(6, 40))
        yy, xx = np.mgrid[:h, :w]
        if rng.random() < 0.5:
            sel = ((xx // period + yy // period) % 2).astype(bool)
        else:
            sel = ((xx + yy * rng.uniform(-1, 1)) // period % 2).astype(bool)
        img = np.where(sel[..., None], np.array(first, np.float32), np.array(second, np.float32))
        img = img.astype(np.float32)
    elif kind == "dark":
        img = np.full((h, w, 3), _jitter((35, 35, 38), rng, 15), np.float32)
        img += rng.normal(0, 4, (h, w, 1)).astype(np.float32)
    else:  # cloth: woven, greyish or coloured, strong fine texture
        colour = np.array(_jitter((150, 150, 150), rng, 70), np.float32)
        fine = rng.random((h // 3 + 1, w // 3 + 1)).astype(np.float32)
        fine = cv2.resize(fine, (w, h), interpolation=cv2.INTER_NEAREST)
        img = colour[None, None, :] * (0.75 + 0.35 * fine[..., None])
    return np.clip(img, 0, 255).astype(np.uint8)


# -- placing faces into a scene -----------------------------------------------------------
def _place(scene: Image, face: Image, quad: Quad, shadow: float) -> None:
    """Warp ``face`` onto ``quad`` (TL TR BR BL) in ``scene`` with a soft drop shadow."""
    fh, fw = face.shape[:2]
    src = np.array([[0, 0], [fw, 0], [fw, fh], [0, fh]], np.float32)
    m = cv2.getPerspectiveTransform(src, quad.astype(np.float32))
    h, w = scene.shape[:2]
    x0, y0 = np.floor(quad.min(0)).astype(int) - 12
    x1, y1 = np.ceil(quad.max(0)).astype(int) + 12
    x0, y0, x1, y1 = max(0, x0), max(0, y0), min(w, x1), min(h, y1)
    if x0 >= x1 or y0 >= y1:
        return
    shift = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1]], np.float64)
    mm = shift @ m
    size = (x1 - x0, y1 - y0)
    warped = cv2.warpPerspective(face, mm, size, flags=cv2.INTER_LINEAR)
    alpha = cv2.warpPerspective(np.full((fh, fw), 255, np.uint8), mm, size)
    region = scene[y0:y1, x0:x1].astype(np.float32)
    if shadow > 0:
        sh = cv2.GaussianBlur(alpha, (0, 0), 3).astype(np.float32) / 255.0
        sh = np.roll(sh, (3, 3), (0, 1))
        region *= 1 - shadow * sh[..., None]
    a = alpha.astype(np.float32)[..., None] / 255.0
    scene[y0:y1, x0:x1] = (region * (1 - a) + warped.astype(np.float32) * a).astype(np.uint8)


def _rect_quad(cx: float, cy: float, w: float, h: float, angle: float) -> Quad:
    """TL TR BR BL of a w × h rectangle centred at (cx, cy), rotated by ``angle`` degrees."""
    a = math.radians(angle)
    ux, uy = math.cos(a), math.sin(a)  # the object's "right"
    vx, vy = -math.sin(a), math.cos(a)  # the object's "down"
    pts = []
    for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1)):
        pts.append((cx + sx * w / 2 * ux + sy * h / 2 * vx, cy + sx * w / 2 * uy + sy * h / 2 * vy))
    return np.array(pts, np.float32)


def _perspective(quad: Quad, rng: np.random.Generator, amount: float) -> Quad:
    size = float(np.linalg.norm(quad[0] - quad[2]))
    return (quad + rng.normal(0, amount * size, quad.shape)).astype(np.float32)


def _overlap(quad: Quad, others: list[Quad], pad: float = 1.0) -> bool:
    c = quad.mean(0)
    r = float(np.linalg.norm(quad[0] - quad[2])) / 2 * pad
    for o in others:
        if float(np.linalg.norm(o.mean(0) - c)) < r + float(np.linalg.norm(o[0] - o[2])) / 2 * pad:
            return True
    return False


# -- whole scenes -------------------------------------------------------------------------
def tile_scene(
    rng: np.random.Generator,
    size: tuple[int, int] = (1000, 750),
    labels: list[str] | None = None,
    layout: str | None = None,
    surface: str | None = None,
    angle: float | None = None,
    lighting: str | None = None,
    face: Any = None,
) -> Scene:
    """A table with Rummikub tiles: rows of touching tiles (sets), tiles lying apart, or a rack.
    ``face``: another tile renderer in place of :func:`render_tile` (an unseen deck style)."""
    w, h = size
    layout = layout or str(rng.choice(["rows", "scatter", "rack", "rows"]))
    surface = surface or str(rng.choice((*SURFACES[:4], "cloth")))
    img = render_surface(surface, w, h, rng)
    pool = labels if labels is not None else tile_labels()
    tile_h = rng.uniform(70, 130)
    tile_w = tile_h * TILE_ASPECT
    truths: list[Truth] = []
    taken: list[Quad] = []
    base_angle = float(rng.uniform(0, 360)) if angle is None else angle
    if layout == "rack":
        base_angle = float(rng.uniform(-12, 12)) if angle is None else angle
        rack_h = tile_h * 2.5
        rack = _rect_quad(w / 2, h / 2, w * 0.9, rack_h, base_angle)
        rack_face = render_surface("dark", 64, 32, rng)
        _place(img, rack_face, rack, 0.4)
    for attempt in range(80):
        if len(truths) >= (len(pool) if labels is not None else 40):
            break
        n = 1 if layout == "scatter" else int(rng.integers(3, 7))
        if layout == "rack":
            row = attempt % 2
            n = int(rng.integers(2, 8))
            a = math.radians(base_angle)
            off = (row - 0.5) * tile_h * 1.15
            start = rng.uniform(-w * 0.4, w * 0.4 - n * tile_w)
            cx0 = w / 2 + start * math.cos(a) - off * math.sin(a)
            cy0 = h / 2 + start * math.sin(a) + off * math.cos(a)
            ang = base_angle
        else:
            cx0, cy0 = rng.uniform(0.08 * w, 0.92 * w), rng.uniform(0.08 * h, 0.92 * h)
            ang = base_angle + (rng.uniform(-20, 20) if layout == "rows" else rng.uniform(0, 360))
        gap = rng.uniform(0.0, 0.06) * tile_w
        quads = []
        for k in range(n):
            a = math.radians(ang)
            d = k * (tile_w + gap)
            q = _rect_quad(
                cx0 + d * math.cos(a),
                cy0 + d * math.sin(a),
                tile_w,
                tile_h,
                ang + rng.normal(0, 1.5),
            )
            quads.append(q)
        if any(q.min() < 4 or q[:, 0].max() > w - 4 or q[:, 1].max() > h - 4 for q in quads):
            continue
        # Rack tiles too: a tile hidden under another is no object the camera can read.
        if any(_overlap(q, taken, 0.75) for q in quads):
            continue
        for q in quads:
            label = pool[len(truths) % len(pool)] if labels is not None else str(rng.choice(pool))
            qq = _perspective(q, rng, 0.01)
            tile = (face or render_tile)(label, rng, int(tile_h * 1.3))
            _place(img, tile, qq, rng.uniform(0.1, 0.5))
            truths.append(Truth(label, qq))
            taken.append(q)
        if labels is not None and len(truths) >= len(pool):
            break
    lighting = _finish(img, rng, lighting)
    return Scene(
        img,
        truths,
        {
            "surface": surface,
            "layout": layout,
            "lighting": lighting,
            "rotation": _rotation_bin(base_angle),
        },
    )


def card_scene(
    rng: np.random.Generator,
    game: Game = "cards",
    size: tuple[int, int] = (1000, 750),
    layout: str | None = None,
    surface: str | None = None,
    angle: float | None = None,
    lighting: str | None = None,
    face: Any = None,
    table_print: Callable[[Image], None] | None = None,
) -> Scene:
    """A table with cards lying apart, overlapping, or fanned so only an index corner shows.
    ``face``: another card renderer in place of :func:`render_card` (an unseen deck style).
    ``table_print``: draws on the bare table before the cards are laid (printed words for
    training, :mod:`vision.synth_print`); it draws from its own generator, so the scene is
    otherwise the one its seed always drew."""
    w, h = size
    layout = layout or str(rng.choice(["apart", "overlap", "fan"]))
    surface = surface or str(rng.choice(SURFACES))
    img = render_surface(surface, w, h, rng)
    if table_print is not None:
        table_print(img)
    card_h = rng.uniform(170, 300)
    card_w = card_h * CARD_ASPECT
    labels = card_labels(game)
    chosen = [str(x) for x in rng.choice(labels, size=12, replace=False)]
    base_angle = float(rng.uniform(0, 360)) if angle is None else angle
    placed: list[tuple[Quad, list[Truth]]] = []
    if layout == "fan":
        n = int(rng.integers(4, 9))
        cx, cy = w / 2 + rng.uniform(-80, 80), h / 2 + rng.uniform(-60, 60)
        spread = rng.uniform(8, 16)
        cards = []
        for k in range(n):
            a = base_angle + (k - n / 2) * spread
            cards.append((cx, cy, a))
        shift_mode = True
    else:
        n = int(rng.integers(2, 6 if layout == "apart" else 8))
        cards = []
        for _ in range(40):
            if len(cards) >= n:
                break
            cx, cy = rng.uniform(0.15 * w, 0.85 * w), rng.uniform(0.15 * h, 0.85 * h)
            a = base_angle + rng.uniform(-25, 25)
            q = _rect_quad(cx, cy, card_w, card_h, a)
            if layout == "apart" and _overlap(
                q, [_rect_quad(*c[:2], card_w, card_h, c[2]) for c in cards], 0.8
            ):
                continue
            cards.append((cx, cy, a))
        shift_mode = False
    for k, (cx, cy, a) in enumerate(cards):
        card, iquads = (face or render_card)(chosen[k], game, rng, int(card_h * 1.2))
        if shift_mode:  # fan: cards pivot about a point below their centres
            r = card_h * 0.45
            ra = math.radians(a)
            cx, cy = cx + r * math.sin(ra), cy - r * math.cos(ra)
        q = _perspective(_rect_quad(cx, cy, card_w, card_h, a), rng, 0.008)
        fh, fw = card.shape[:2]
        src = np.array([[0, 0], [fw, 0], [fw, fh], [0, fh]], np.float32)
        m = cv2.getPerspectiveTransform(src, q)
        truths = []
        for iq in iquads:
            pts = cv2.perspectiveTransform(iq[None].astype(np.float32), m)[0]
            truths.append(Truth(chosen[k], pts.astype(np.float32)))
        _place(img, card, q, rng.uniform(0.15, 0.45))
        placed.append((q, truths))
    visible: list[Truth] = []
    partial: list[Truth] = []
    for i, (_, truths) in enumerate(placed):
        for t in truths:
            inside = t.quad.min() >= 2 and t.quad[:, 0].max() < w - 2 and t.quad[:, 1].max() < h - 2
            covered = any(_covered(t.quad, later) for later, _ in placed[i + 1 :])
            if inside and not covered:
                visible.append(t)
            elif (inside or _middle_in(t.quad, w, h)) and not any(
                _covers_middle(t.quad, later) for later, _ in placed[i + 1 :]
            ):
                # Under another card's edge or cut by the photo's edge, its middle in sight:
                # a reader may name it right, so a right read is not scored as spurious.
                partial.append(t)
    lighting = _finish(img, rng, lighting)
    return Scene(
        img,
        visible,
        {
            "surface": surface,
            "layout": layout,
            "lighting": lighting,
            "rotation": _rotation_bin(base_angle),
        },
        partial,
        [Truth(chosen[k], q) for k, (q, _) in enumerate(placed)],
    )


def _middle_in(quad: Quad, w: int, h: int) -> bool:
    """Whether the index's middle lies inside the ``w``×``h`` image."""
    c = quad.mean(0)
    return bool(0 <= c[0] < w and 0 <= c[1] < h)


def _covers_middle(quad: Quad, by: Quad) -> bool:
    c = quad.mean(0)
    poly = by.astype(np.float32).reshape(-1, 1, 2)
    return cv2.pointPolygonTest(poly, (float(c[0]), float(c[1])), False) >= 0


def _covered(quad: Quad, by: Quad) -> bool:
    """Whether any part of ``quad`` (a corner index) lies under the card ``by``."""
    poly = by.astype(np.float32).reshape(-1, 1, 2)
    c = quad.mean(0)
    pts = [c] + [(c + q) / 2 for q in quad]  # the index's middle must be in sight
    return any(cv2.pointPolygonTest(poly, (float(p[0]), float(p[1])), False) >= 0 for p in pts)


def _rotation_bin(angle: float) -> str:
    a = angle % 360
    return f"{int(a // 45) * 45}-{int(a // 45) * 45 + 45}"


LIGHTINGS = ("even", "warm", "dim", "bright", "gradient", "glare")


def _finish(img: Image, rng: np.random.Generator, lighting: str | None) -> str:
    """Lighting, glare, blur, sensor noise and JPEG compression, in place."""
    h, w = img.shape[:2]
    lighting = lighting or str(rng.choice(LIGHTINGS))
    f: npt.NDArray[Any] = img.astype(np.float32)
    if lighting == "warm":
        f *= np.array([0.78, 0.95, 1.1], np.float32)
    elif lighting == "dim":
        f *= rng.uniform(0.45, 0.65)
    elif lighting == "bright":
        f = f * rng.uniform(1.1, 1.3) + 10
    elif lighting == "gradient":
        yy, xx = np.mgrid[:h, :w].astype(np.float32)
        a = rng.uniform(0, 2 * math.pi)
        g = (xx * math.cos(a) + yy * math.sin(a)) / max(w, h)
        f *= (0.6 + 0.5 * (g - g.min()) / (np.ptp(g) + 1e-6))[..., None]
    elif lighting == "glare":
        yy, xx = np.mgrid[:h, :w].astype(np.float32)
        gx, gy = rng.uniform(0, w), rng.uniform(0, h)
        r = rng.uniform(60, 200)
        f += (110 * np.exp(-((xx - gx) ** 2 + (yy - gy) ** 2) / (2 * r * r)))[..., None]
    blur = rng.choice([0.0, 0.0, 0.6, 1.0, 1.5])
    if blur:
        f = cv2.GaussianBlur(f, (0, 0), float(blur))
    f += rng.normal(0, rng.uniform(1, 6), f.shape).astype(np.float32)
    out = np.clip(f, 0, 255).astype(np.uint8)
    quality = int(rng.integers(45, 95))
    ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, quality])
    decoded = cv2.imdecode(buf, cv2.IMREAD_COLOR) if ok else None
    if decoded is not None:
        out = decoded
    img[:] = out
    return lighting
