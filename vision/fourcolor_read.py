"""Reading Four Color cards from one image, around any recogniser.

Proposals (:mod:`vision.detect_fourcolor`) are squares around characters whose up direction is
unknown, so each is looked at in its four turns and the recogniser's best non-``none`` read
wins. Each find is then re-read square to its strokes (a proposal may be square to the image
instead of the card), and the places a card width to either side of it (a meld's or a fan's
neighbours) are read too, which finds characters the proposers missed. A card prints its
character at both ends, the far one upside down: two reads with the same label, facing
opposite ways, about a card's length apart, are one card. Each card's whole quad is drawn
along its character's axis, its length from the distance between its two ends, else from
the character's size checked against where the paper ends. Fragments and cards read twice are
dropped, and what lies in rows is grouped into exposed melds (:mod:`vision.melds`).

The recogniser is a function ``classify(image, quads) -> [(label, confidence[, alternatives])]``
("none" for nothing), so this runs with the ONNX model (:mod:`vision.read_fcc`), an enrolled
deck profile, or a test oracle.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cached_property
from itertools import pairwise
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.detect_fourcolor import WORK_SIDE, candidates
from vision.detect_fourcolor import faces as face_mask
from vision.melds import group_melds

NONE = "none"
Quad = NDArray[np.float64]
# A recogniser: one (label, confidence) per quad, "none" for nothing; it may add a third item,
# its top alternatives [(label, confidence), ...].
Classify = Callable[[NDArray[np.uint8], Sequence[Quad]], Sequence[tuple[Any, ...]]]
CARD_LENGTH = (1.0, 3.6)  # centre to centre of a card's two characters, in character sizes
PAIR_ANGLE_DEG = 18.0  # a card's far character lies this near its axis (angle at the top one)


@dataclass(frozen=True)
class CharRead:
    label: str
    confidence: float
    quad: Quad  # TL TR BR BL with the character upright
    alternatives: tuple[tuple[str, float], ...] = ()  # the recogniser's top 3, best first

    # Cached: the geometry below asks each read's centre and size tens of thousands of times.
    @cached_property
    def centre(self) -> NDArray[np.float64]:
        return np.asarray(self.quad.mean(axis=0), np.float64)

    @cached_property
    def size(self) -> float:
        return _dist(self.quad[1], self.quad[0])

    @cached_property
    def down(self) -> NDArray[np.float64]:
        d = (self.quad[3] - self.quad[0]) + (self.quad[2] - self.quad[1])
        return np.asarray(d / max(float(np.linalg.norm(d)), 1e-9), np.float64)


def _dist(a: NDArray[np.float64], b: NDArray[np.float64]) -> float:
    """Distance between two points (math.hypot: np.linalg.norm costs ~10x more per call, and
    the geometry here asks tens of thousands of times per image)."""
    return math.hypot(float(a[0] - b[0]), float(a[1] - b[1]))


def turns(quad: Quad) -> list[Quad]:
    """The quad with each of its four sides taken as the top."""
    return [np.roll(quad, -k, axis=0) for k in range(4)]


def best_turns(
    image: NDArray[np.uint8], quads: Sequence[Quad], classify: Classify
) -> list[CharRead]:
    """For each proposal, the turn the recogniser is surest is an upright character."""
    turned = [t for q in quads for t in turns(np.asarray(q, np.float64))]
    reads = classify(image, turned)
    out = []
    for i in range(len(quads)):
        options = [(reads[4 * i + k], turned[4 * i + k]) for k in range(4)]
        options = [(r, q) for r, q in options if r[0] != NONE]
        if options:
            r, quad = max(options, key=lambda o: float(o[0][1]))
            out.append(CharRead(str(r[0]), float(r[1]), quad, _alternatives(r)))
    return out


def _alternatives(r: tuple[Any, ...]) -> tuple[tuple[str, float], ...]:
    return tuple((str(a), float(c)) for a, c in r[2]) if len(r) > 2 else ()


def _one_place(r: CharRead, k: CharRead) -> bool:
    """Whether :func:`suppress` takes ``r`` and ``k`` for one character."""
    return _dist(r.centre, k.centre) <= 0.5 * max(r.size, k.size)


# A larger read of the same label stands for a smaller one only where their centres lie at
# least this share of the smaller's size apart: the smaller is then a fragment of the
# character. A square centred on a character and half as large again takes in the
# neighbours' strokes; three 兵 side by side read 0.94 framed alone and 0.89 framed with
# both neighbours (seed 17 400 090), and the card drawn from the larger missed its card.
# Fresh tables (200 each), right / spurious, 0 -> 0.1: training fonts 17 400 000+ 2214 / 20
# -> 2216 / 19 and 17 600 000+ 2276 / 22 -> 2277 / 21, held-out fonts 17 700 000+
# 2164 / 13 -> 2165 / 13; at 0.2 and 0.3 the first set read 2214, at 0.05 as at 0.1.
WHOLE_OFF_CENTRE = 0.1


def suppress(reads: list[CharRead]) -> list[CharRead]:
    """One read per character: the surest among proposals whose centres nearly coincide (or
    that lie inside a surer read: a fragment of its character)."""
    kept: list[CharRead] = []
    for r in sorted(reads, key=lambda r: -r.confidence):
        clash = [i for i, k in enumerate(kept) if _one_place(r, k)]
        if not clash:
            kept.append(r)
            continue
        # The same character seen whole and in part: the whole one stands, nearly as sure.
        i = clash[0]
        k = kept[i]
        whole = (
            r.size > 1.3 * k.size
            and r.confidence >= 0.9 * k.confidence
            and _dist(r.centre, k.centre) >= WHOLE_OFF_CENTRE * k.size
        )
        if len(clash) == 1 and r.label == k.label and whole:
            kept[i] = r
    return kept


def pair_ends(reads: list[CharRead]) -> list[CharRead]:
    """Merge a card's two characters (same label, facing opposite ways, a card's length
    apart along their down direction) into one read; either end names the card, so the surer
    one is kept."""
    return [card for card, _ in paired(reads)]


def paired(reads: list[CharRead]) -> list[tuple[CharRead, CharRead | None]]:
    """:func:`pair_ends`, each kept read with the other end of its card when that was seen."""
    used: set[int] = set()
    out: list[tuple[CharRead, CharRead | None]] = []
    order = sorted(range(len(reads)), key=lambda i: -reads[i].confidence)
    for i in order:
        if i in used:
            continue
        a = reads[i]
        used.add(i)
        # The partner that fits best: in a fan, two cards of one label lie side by side and
        # their far ends crowd together.
        fits = [
            (fit, j)
            for j in order
            if j not in used
            and reads[j].label == a.label
            and float(a.down @ reads[j].down) <= -0.8
            and (fit := _pair_fit(a, reads[j])) is not None
        ]
        partner: CharRead | None = None
        if fits:
            j = min(fits, key=lambda f: f[0])[1]
            used.add(j)
            partner = reads[j]
        # The line between a card's two characters is the card's own axis: truer than either
        # proposal's turn, which may be square to the image rather than to the card.
        out.append(
            (a, None) if partner is None else (_facing(a, partner.centre - a.centre), partner)
        )
    return out


def _ends_of_one_card(a: CharRead, b: CharRead) -> float | None:
    """How far (in character sizes) ``b`` lies off ``a``'s axis, when it lies where the far end
    of ``a``'s card prints its character; None when it does not."""
    offset = b.centre - a.centre
    size = min(a.size, b.size)  # proposals can be loose; the tighter one is the guide
    along = float(offset @ a.down) / size
    across = abs(float(offset @ np.array([-a.down[1], a.down[0]]))) / size
    # Far off in character sizes (a tight proposal's size) may still be near in angle: two
    # ends of a long card whose reads are both square to the image, 14° off the card.
    near = across < 0.6 or math.degrees(math.atan2(across, along)) < PAIR_ANGLE_DEG
    return across if CARD_LENGTH[0] <= along <= CARD_LENGTH[1] and near else None


def _pair_fit(a: CharRead, b: CharRead) -> float | None:
    """:func:`_ends_of_one_card` asked from both ends, the better fit: either read's axis may
    be the one that is off (the far end of a fanned card lies among the other cards' ends,
    where strokes mislead)."""
    fits = [f for f in (_ends_of_one_card(a, b), _ends_of_one_card(b, a)) if f is not None]
    return min(fits) if fits else None


def stroke_angle(image: NDArray[np.uint8], quad: Quad) -> float | None:
    """The slant (degrees, modulo 90) of a character's strokes inside ``quad``: Chinese
    characters are drawn in horizontal and vertical strokes, square to their card. None when
    the region shows no clear direction."""
    x0, y0 = np.floor(quad.min(axis=0)).astype(int)
    x1, y1 = np.ceil(quad.max(axis=0)).astype(int)
    h, w = image.shape[:2]
    x0, y0, x1, y1 = max(0, x0), max(0, y0), min(w, x1), min(h, y1)
    if x1 - x0 < 6 or y1 - y0 < 6:
        return None
    grey = cv2.cvtColor(image[y0:y1, x0:x1], cv2.COLOR_BGR2GRAY).astype(np.float32)
    gx = cv2.Sobel(grey, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(grey, cv2.CV_32F, 0, 1, ksize=3)
    mag = np.hypot(gx, gy)
    z = np.sum(mag * np.exp(4j * np.arctan2(gy, gx)))
    if abs(z) < 0.15 * float(mag.sum()):
        return None
    return float(np.degrees(np.angle(z)) / 4) % 90.0


STROKE_REGION = 1.6  # the region square_to_strokes looks at, in character squares


def square_to_strokes(image: NDArray[np.uint8], read: CharRead) -> Quad | None:
    """The read's square turned square to its character's strokes (a proposal's own turn may be
    square to the image instead, up to 45° off the card); None when the strokes say nothing."""
    # A region a little larger than the character takes in the card's own edges too, which
    # are straighter than a character's strokes (兵 and 炮 lean).
    c = read.centre
    angle = stroke_angle(image, c + (read.quad - c) * STROKE_REGION)
    if angle is None:
        return None
    r = np.radians(angle)
    return _facing(read, np.array([np.cos(r), np.sin(r)])).quad


def settle(image: NDArray[np.uint8], reads: list[CharRead], classify: Classify) -> list[CharRead]:
    """Each read looked at again square to its strokes, in the four turns there: the surest
    upright read wins, so the card's axis (and which end is up) is the character's own."""
    squares = [square_to_strokes(image, r) for r in reads]
    quads = [q for q in squares if q is not None]
    again = iter(best_turns_all(image, quads, classify))
    out = []
    for r, q in zip(reads, squares, strict=True):
        if q is None:
            out.append(r)
            continue
        better = next(again)
        out.append(better if better is not None and better.confidence >= 0.5 * r.confidence else r)
    return out


CONFIRM_TILTS = (-24.0, -12.0, 12.0, 24.0)  # degrees a weak read is also looked at turned
# ...and at CONFIRM_SMALLER of its size, turned these degrees: a fanned character's first
# square often takes in its neighbour's strokes (61 px around a 46 px character read 0.58,
# seed 3 900 123). Fresh tables, right / spurious, without -> with: 3 900 100+200 (training
# fonts) 2147 / 14 -> 2149 / 14, 3 900 000+200 (held-out) 2215 / 11 -> 2216 / 11; then
# 3 700 150+300 and 3 800 000+300, training fonts 3378 / 26 -> 3379 / 26 and 3412 / 22 ->
# 3416 / 24, held-out 3381 / 21 -> 3381 / 22 and 3425 / 23 -> 3429 / 23. At 0.8 alone,
# untilted: +2 / +1 on the first two; at 0.75 and 0.85 untilted: +2 / 0.
CONFIRM_SMALLER = 0.8
CONFIRM_SMALLER_TILTS = (-12.0, 0.0, 12.0)
CONFIRM_LOOKS = tuple((t, 1.0) for t in CONFIRM_TILTS) + tuple(
    (t, CONFIRM_SMALLER) for t in CONFIRM_SMALLER_TILTS
)


def _tilted(read: CharRead, degrees: float, scale: float = 1.0) -> Quad:
    """``read``'s square turned ``degrees`` about its centre and scaled by ``scale``."""
    t = np.radians(degrees)
    rot = np.array([[np.cos(t), -np.sin(t)], [np.sin(t), np.cos(t)]])
    quad = _facing(read, rot @ read.down).quad
    return np.asarray(read.centre + (quad - read.centre) * scale, np.float64)


def confirmed(
    image: NDArray[np.uint8],
    reads: list[CharRead],
    classify: Classify,
    confirm: float,
    bar: float | None = None,
) -> list[CharRead]:
    """The reads sure enough to count. A read short of ``confirm`` is a lead, not a find: a
    fanned card's character lies turned against its proposal (which is square to the image,
    or to a neighbour's strokes) and its crop half shows the card beside it. Such a read is
    looked at again square to its strokes, turned a little either way and a little smaller
    (:data:`CONFIRM_LOOKS`); it counts when
    one of those views reads it at least ``bar`` (by default ``confirm``): the best of
    several looks is surer by chance than one look, so a lead may have to clear more."""
    bar = confirm if bar is None else bar
    weak = [i for i, r in enumerate(reads) if r.confidence < confirm]
    if not weak:
        return reads
    out: list[CharRead | None] = list(reads)
    settled = settle(image, [reads[i] for i in weak], classify)
    views = [_tilted(settled[k], t, f) for k in range(len(weak)) for t, f in CONFIRM_LOOKS]
    again = classify(image, views)
    n = len(CONFIRM_LOOKS)
    for k, i in enumerate(weak):
        best = settled[k]
        for r, q in zip(again[n * k : n * (k + 1)], views[n * k : n * (k + 1)], strict=True):
            if r[0] != NONE and float(r[1]) > best.confidence:
                best = CharRead(str(r[0]), float(r[1]), q, _alternatives(r))
        out[i] = best if best.confidence >= bar else None
    return [r for r in out if r is not None]


def best_turns_all(
    image: NDArray[np.uint8], quads: Sequence[Quad], classify: Classify
) -> list[CharRead | None]:
    """:func:`best_turns`, one entry per quad (None where every turn is ``none``)."""
    turned = [t for q in quads for t in turns(np.asarray(q, np.float64))]
    reads = classify(image, turned) if turned else []
    out: list[CharRead | None] = []
    for i in range(len(quads)):
        options = [(reads[4 * i + k], turned[4 * i + k]) for k in range(4)]
        options = [(r, q) for r, q in options if r[0] != NONE]
        if not options:
            out.append(None)
            continue
        r, quad = max(options, key=lambda o: float(o[0][1]))
        out.append(CharRead(str(r[0]), float(r[1]), quad, _alternatives(r)))
    return out


NEIGHBOUR_STEPS = (0.7, 0.9, 1.1, 1.3)  # centre to centre, in card widths
NEIGHBOUR_TILT = 13.0  # a fanned neighbour is turned about this much further
NEIGHBOUR_ROUNDS = 6
SETTLE_NEIGHBOURS = True  # neighbours' reads settled square to their strokes


def _square_at(centre: NDArray[np.float64], size: float, down: NDArray[np.float64]) -> Quad:
    return _facing(CharRead("", 0.0, _facing_square(centre, size)), down).quad


def _facing_square(centre: NDArray[np.float64], size: float) -> Quad:
    corners = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]], np.float64) * (size / 2)
    return np.asarray(centre + corners, np.float64)


def beside_squares(
    reads: Sequence[CharRead], known: Sequence[CharRead] | None = None
) -> list[Quad]:
    """Where the neighbours of the characters ``reads`` may be: cards lie side by side in a
    meld and a little turned against each other in a fan, so a neighbour's character is about
    a card width to either side, facing the same way (or turned a little). Places near a
    character already read (``known``, by default ``reads``) are skipped."""
    known = reads if known is None else known
    quads: list[Quad] = []
    for r in reads:
        width = r.size / CHAR_TO_WIDTH
        d = r.down
        right = np.array([d[1], -d[0]])
        for side in (-1.0, 1.0):
            for step in NEIGHBOUR_STEPS:
                c = r.centre + side * right * step * width
                if any(_dist(c, o.centre) < 0.5 * max(o.size, r.size) for o in known):
                    continue
                for tilt in (0.0, side * NEIGHBOUR_TILT):
                    t = np.radians(tilt)
                    rot = np.array([[np.cos(t), -np.sin(t)], [np.sin(t), np.cos(t)]])
                    quads.append(_square_at(c, r.size, rot @ d))
    return quads


def beside(
    image: NDArray[np.uint8],
    reads: list[CharRead],
    classify: Classify,
    known: Sequence[CharRead] | None = None,
) -> list[CharRead]:
    """The characters read at :func:`beside_squares`: this finds what the proposers missed
    (pale yellow ink, characters touching in a fan); where no character is, reads ``none``."""
    return read_at(image, beside_squares(reads, known), classify)


def read_each(
    image: NDArray[np.uint8], quads: Sequence[Quad], classify: Classify
) -> list[CharRead | None]:
    """The character read at each of ``quads`` in the turn given, None where ``none``."""
    if not quads:
        return []
    return [
        None
        if label == NONE
        else CharRead(
            str(label), float(conf), np.asarray(q, np.float64), _alternatives((label, conf, *rest))
        )
        for (label, conf, *rest), q in zip(classify(image, quads), quads, strict=True)
    ]


def read_at(image: NDArray[np.uint8], quads: Sequence[Quad], classify: Classify) -> list[CharRead]:
    """The characters read at ``quads``, each in the turn given (``none`` reads dropped)."""
    return [r for r in read_each(image, quads, classify) if r is not None]


def _on_card(
    point: NDArray[np.float64], card: Quad, margin: float = 0.25, across_share: float = 0.3
) -> bool:
    """Whether ``point`` lies on the centre line of ``card`` (within a margin of its ends,
    and ``across_share`` of its width to either side)."""
    along = card[3] - card[0]
    length = float(np.linalg.norm(along))
    width = _dist(card[1], card[0])
    u = along / max(length, 1e-9)
    rel = point - card[0] - (card[1] - card[0]) / 2
    t = float(rel @ u)
    across = float(np.linalg.norm(rel - t * u))
    return -margin * length <= t <= (1 + margin) * length and across < across_share * width


# Two reads of one label this near (in card widths) to the other's card's centre line are one
# card: two copies of a card side by side in a meld lie a card width apart.
ONE_CARD = 0.45
OVERSIZE = 2.0  # a read this many times the table's usual character size is no character


# A read this far (in character sizes) from both ends of a card whose two characters were
# both seen is not that card's: a card prints two characters.
ENDS_TAKEN = 0.75


def _other_card(r: CharRead, k: CharRead, k_partner: CharRead | None) -> bool:
    """Whether ``r`` is surely not ``k``'s card: ``k``'s card was seen at both ends (``k`` and
    ``k_partner``) and ``r`` lies at neither. Two copies of one card side by side in a fanned
    hand: near the pivot the lower end of the one lies on the other's centre line."""
    if k_partner is None:
        return False
    reach = ENDS_TAKEN * r.size
    return _dist(r.centre, k.centre) > reach and _dist(r.centre, k_partner.centre) > reach


def _one_per_card(
    cards: list[tuple[CharRead, Quad]], partners: Sequence[CharRead | None] | None = None
) -> list[tuple[CharRead, Quad]]:
    """One read per card. A read much smaller than the others is a fragment of a character
    (one deck, one scale per table); two reads with the same label, each on the other's card's
    centre line, are one card read twice (its far end unpaired, or a neighbour square landing
    on it): the surer stays, unless one's card was seen at both ends (``partners``: each
    read's far end, where seen) and the other lies at neither (:func:`_other_card`)."""
    ends = dict(zip((id(r) for r, _ in cards), partners or [None] * len(cards), strict=True))
    if len(cards) >= 3:
        typical = float(np.median([r.size for r, _ in cards]))
        cards = [c for c in cards if c[0].size >= FRAGMENT * typical]
    if len(cards) >= 2:
        # A square more than twice the usual character is around several characters (two
        # cards alone on a table: the smaller read is the usual size, a fragment reads none).
        sizes = [r.size for r, _ in cards]
        usual = float(np.median(sizes)) if len(cards) >= 3 else min(sizes)
        cards = [c for c in cards if c[0].size <= OVERSIZE * usual]
    kept: list[tuple[CharRead, Quad]] = []
    for r, q in sorted(cards, key=lambda c: -c[0].confidence):
        if not any(
            k.label == r.label
            and (
                _on_card(r.centre, kq, across_share=ONE_CARD)
                or _on_card(k.centre, q, across_share=ONE_CARD)
            )
            and not _other_card(r, k, ends[id(k)])
            and not _other_card(k, r, ends[id(r)])
            for k, kq in kept
        ):
            kept.append((r, q))
    return kept


OVERSQUARE = 1.3  # a read this many times the usual size framed more than its character
# ...and a look from this share of the usual size up may replace it: in a tight fan the
# character's own square is often framed small by its neighbours' strokes. Fresh tables (150
# each), right / spurious, training then held-out fonts, 0.85 -> 0.7: 15 100 000+ 1742 / 14
# -> 1742 / 12 and 1662 / 6 -> 1668 / 4; 15 300 000+ 1824 / 19 -> 1826 / 21 and 1741 / 11
# either way; 15 500 000+ 1773 / 11 -> 1772 / 13 and 1817 / 8 -> 1818 / 8; 15 700 000+
# 1742 / 14 -> 1742 / 17 and 1779 / 10 -> 1780 / 10. At 0.6 the first set read the same.
USUAL_LEAST = 0.7


def _usual_size(reads: list[CharRead]) -> float:
    return float(np.median([r.size for r in reads]))


def framed_alone(
    image: NDArray[np.uint8],
    reads: list[CharRead],
    looks: Sequence[CharRead],
    classify: Classify,
) -> list[CharRead]:
    """A read much larger than is usual on this table (a square around its character and the
    card's edges, which :func:`suppress` let stand for the whole character) swapped for the
    surest of ``looks`` (the first reads of every proposal) naming the same label at about
    the usual size in its place, settled square to its strokes: the large square's centre and
    turn are the surroundings', and the card drawn from it misses the card."""
    if len(reads) < 3:
        return reads
    typical = _usual_size(reads)
    usual = [u for u in looks if USUAL_LEAST * typical <= u.size <= OVERSQUARE * typical]
    swap: dict[int, CharRead] = {}
    for i, r in enumerate(reads):
        if r.size > OVERSQUARE * typical:
            inside = [
                u for u in usual if u.label == r.label and _dist(u.centre, r.centre) <= 0.5 * r.size
            ]
            if inside:
                swap[i] = max(inside, key=lambda u: u.confidence)
    if not swap:
        return reads
    settled = settle(image, list(swap.values()), classify)
    out = list(reads)
    for i, s in zip(swap, settled, strict=True):
        out[i] = s
    return out


def _typical_size(reads: list[CharRead]) -> list[CharRead]:
    """Reads a little smaller than is usual on this table (a square around the glyph inside a
    badge, a character's strokes only) grown to the usual size: every card of one deck lies at
    about one scale, and the card's length and its neighbours' places follow from the size."""
    if len(reads) < 3:
        return reads
    typical = _usual_size(reads)
    out = []
    for r in reads:
        if 0.55 * typical <= r.size < 0.85 * typical:
            c = r.centre
            grown = c + (r.quad - c) * (typical / r.size)
            r = CharRead(r.label, r.confidence, grown, r.alternatives)
        out.append(r)
    return out


def read_cards(
    image: NDArray[np.uint8],
    classify: Classify,
    proposals: Sequence[Quad] | None = None,
    confirm: float = 0.0,
    lead_bar: float | None = None,
) -> list[tuple[CharRead, Quad]]:
    """Each card seen: its surer character read and its whole quad, sorted top to bottom.
    With ``confirm``, ``classify`` may name characters less surely than that: such reads are
    leads, kept only when a closer look reads them at least ``lead_bar`` (:func:`confirmed`)."""
    quads = candidates(image) if proposals is None else proposals
    first = best_turns(image, quads, classify)
    settled = suppress(settle(image, suppress(first), classify))
    found = suppress(confirmed(image, settled, classify, confirm, lead_bar))
    found = _typical_size(framed_alone(image, found, first, classify))
    anchors = found
    for _ in range(NEIGHBOUR_ROUNDS):  # a neighbour found is an anchor for the next round
        leads = suppress(beside(image, anchors, classify, found))
        if SETTLE_NEIGHBOURS:
            # A neighbour's square takes its anchor's turn: settled square to its own strokes
            # its axis is its card's, and a fan's pivot found from such reads (three sharing
            # one copied axis) no longer aims the hand's cards sideways. Fresh tables,
            # training fonts 720 000+150 and 730 000+120: 1695 -> 1700 and 1348 either way
            # right, spurious 25 -> 23 and 31 -> 27; held-out fonts 810 000+80, 820 000+150,
            # 830 000+120: 876, 1762 -> 1761, 1360 right, spurious 20 -> 18, 20, 23 -> 24.
            leads = suppress(settle(image, leads, classify))
        more = suppress(confirmed(image, leads, classify, confirm, lead_bar))
        if not more:
            break
        found = suppress(found + more)
        anchors = [m for m in more if any(m is f for f in found)]
    anchors = found
    for _ in range(FAN_ROUNDS):  # the same along a fan's circle, once its pivot is known
        fan = find_fan(found)
        if fan is None:
            break
        leads = suppress(read_at(image, fan_squares(anchors, fan, found), classify))
        more = suppress(confirmed(image, leads, classify, confirm, lead_bar))
        # A look along the circle that lands between two characters already read (it
        # clashes with both) is a view of them, not a new card; let into
        # :func:`suppress`, a sure one put out both. Fresh tables (150 each), training fonts
        # 15 100 000+, 15 300 000+, 15 500 000+: 1742 -> 1742, 1823 -> 1824, 1771 -> 1773
        # right, spurious 14, 19, 12 -> 11; held-out fonts (seeds 500 000 on): 1660 -> 1662, 1741,
        # 1815 -> 1817, spurious 7 -> 6, 11, 9 -> 8.
        more = [m for m in more if sum(_one_place(m, f) for f in found) < 2]
        if not more:
            break
        found = suppress(found + more)
        anchors = [m for m in more if any(m is f for f in found)]
    fan = find_fan(found)
    if fan is not None:
        found = found + fan_gaps(image, found, fan, classify, lead_bar or confirm)
    found = merge_doubles(image, found, classify)
    found = grown_small(image, found, classify, confirm)
    pairs = paired(found)
    # Characters on dark discs give their reads no axis (a disc is square every way), so a
    # fan of them read from one end shows no pivot among its loose reads alone; the cards
    # read at both ends beside them still point at it. Fresh tables 15 100 000+150 and
    # 15 300 000+150, training fonts: 1737 -> 1742 of 1762 and 1822 -> 1823 of 1840 right,
    # spurious 19 -> 14 and 20 -> 19; held-out fonts 15 600 000+150 and 15 800 000+150 the same.
    fan = loose_fan(pairs) or find_fan(found)
    cards = aim_rows(aim_fans(turned_to_fan(image, pairs, fan, classify), fan), fan, image)
    out = _one_per_card(
        [(a, card_quad(a, n)) for a, n in measured(image, cards, fan)], [b for _, b in cards]
    )
    out.sort(key=lambda c: (float(c[1][:, 1].mean()), float(c[1][:, 0].mean())))
    return out


FAN_AIM_DEG = 8.0  # a fanned card's axis passes this close (in angle) to the fan's pivot
FAN_REACH = (1.5, 8.0)  # character to pivot, in character sizes
FAN_REAIM_DEG = 50.0  # the most a read's own axis is corrected towards the pivot
FAN_STEP_DEG = 4.0  # fanned cards' axes differ by more than this (rows' cards by less)
FAN_RING = 0.25  # fanned characters' distances from the pivot differ by at most this share


def _angle(u: NDArray[np.float64], v: NDArray[np.float64]) -> float:
    cos = float(u @ v) / max(math.hypot(u[0], u[1]) * math.hypot(v[0], v[1]), 1e-9)
    return float(np.degrees(np.arccos(np.clip(cos, -1.0, 1.0))))


def _pivot(reads: Sequence[CharRead]) -> NDArray[np.float64]:
    """The point nearest (least squares) to every read's axis line."""
    a = np.zeros((2, 2))
    b = np.zeros(2)
    for r in reads:
        n = np.array([-r.down[1], r.down[0]])
        a += np.outer(n, n)
        b += np.outer(n, n) @ r.centre
    return np.asarray(np.linalg.lstsq(a, b, rcond=None)[0], np.float64)


@dataclass(frozen=True)
class Fan:
    pivot: NDArray[np.float64]
    reach: tuple[float, float]  # the fanned characters' distances from the pivot, with room

    def holds(self, read: CharRead, degrees: float = FAN_REAIM_DEG) -> bool:
        """Whether ``read`` may be a card of this fan: at its distance, pointing roughly at
        its pivot."""
        dist = _dist(self.pivot, read.centre)
        near, far = self.reach
        return near <= dist <= far and _aims_at(read, self.pivot, degrees)


def find_fan(reads: Sequence[CharRead]) -> Fan | None:
    """The fan ``reads`` show, if any. A hand is fanned about a point near the cards' lower
    ends, so every fanned card's axis runs through it: the pivot is the point most reads' axes
    pass within :data:`FAN_AIM_DEG` of (at least three, a few character sizes below them)."""
    best: list[int] = []
    for i in range(len(reads)):
        for j in range(i + 1, len(reads)):
            a, b = reads[i], reads[j]
            m = np.column_stack([a.down, -b.down])
            if abs(float(np.linalg.det(m))) < np.sin(np.radians(3.0)):
                continue  # parallel: cards side by side in a row, not a fan
            s, t = np.linalg.solve(m, b.centre - a.centre)
            lo, hi = FAN_REACH
            if not (lo * a.size <= s <= hi * a.size and lo * b.size <= t <= hi * b.size):
                continue
            p = a.centre + s * a.down
            # The fanned characters lie on one circle about the pivot: a meld's cards above
            # a fan also point at its pivot, but from further away.
            radius = (s + t) / 2
            inliers = [
                k
                for k, r in enumerate(reads)
                if _aims_at(r, p, FAN_AIM_DEG)
                and abs(_dist(p, r.centre) - radius) <= FAN_RING * radius
            ]
            if len(inliers) > len(best):
                best = inliers
    if len(best) < 3 or not _fanned([reads[k] for k in best]):
        return None
    pivot = _pivot([reads[k] for k in best])
    reach = [_dist(pivot, reads[k].centre) for k in best]
    fan = Fan(pivot, (0.8 * min(reach), 1.2 * max(reach)))
    # The fanned characters lie on a circle about the pivot: their places say where it is
    # more surely than their axes (each a few degrees off, and few when the fan is narrow).
    members = [r for r in reads if fan.holds(r)]
    centre = _circle_centre([r.centre for r in members]) if len(members) >= 4 else None
    if centre is not None and _dist(centre, pivot) < 0.3 * float(np.mean(reach)):
        dist = [_dist(centre, r.centre) for r in members]
        if float(np.std(dist)) < 0.1 * float(np.mean(dist)):
            fan = Fan(centre, (0.8 * min(dist), 1.2 * max(dist)))
    return fan


def _fanned(reads: Sequence[CharRead]) -> bool:
    """Whether the reads' axes point at least three ways, each :data:`FAN_STEP_DEG` from the
    next."""
    angles = sorted(math.degrees(math.atan2(r.down[1], r.down[0])) % 360.0 for r in reads)
    gaps = np.diff([*angles, angles[0] + 360.0])
    return int(np.count_nonzero(gaps >= FAN_STEP_DEG)) >= 3


def _circle_centre(points: Sequence[NDArray[np.float64]]) -> NDArray[np.float64] | None:
    """The centre of the circle through ``points`` (least squares), None if they lie on a
    line."""
    p = np.asarray(points, np.float64)
    a = np.column_stack([2 * p, np.ones(len(p))])
    b = (p**2).sum(axis=1)
    sol, _, rank, _ = np.linalg.lstsq(a, b, rcond=None)
    return None if rank < 3 else np.asarray(sol[:2], np.float64)


def loose_fan(cards: list[tuple[CharRead, CharRead | None]]) -> Fan | None:
    """The fan the cards read from one end only show (:func:`find_fan`), if any."""
    loose = [a for a, b in cards if b is None]
    return find_fan(loose) if len(loose) >= 3 else None


def aim_fans(
    cards: list[tuple[CharRead, CharRead | None]],
    fan: Fan | None = None,
) -> list[tuple[CharRead, CharRead | None]]:
    """Cards read from one end only, their axes turned to the pivot of the fan they lie in.

    A character read from one end gets its axis from its proposal or its strokes; in a fan
    those are often 10-45° off (the neighbours' strokes touch it), and the card drawn from it
    misses the card. Each loose read at the fan's distance from its pivot (:func:`find_fan`),
    pointing roughly at it, is aimed at it exactly.
    """
    loose = [i for i, (_, b) in enumerate(cards) if b is None]
    fan = fan or loose_fan(cards)
    if fan is None:
        return cards
    out = list(cards)
    for i in loose:
        r = cards[i][0]
        if fan.holds(r):
            out[i] = (_facing(r, fan.pivot - r.centre), None)
    return out


def turned_to_fan(
    image: NDArray[np.uint8],
    cards: list[tuple[CharRead, CharRead | None]],
    fan: Fan | None,
    classify: Classify,
) -> list[tuple[CharRead, CharRead | None]]:
    """Loose reads of ``fan``'s cards read a quarter or half turn off: looked at again facing
    the pivot, kept so where that names a card about as surely.

    A character on a dark disc shows no card edge to square it by, and some characters (士,
    卒) read as a card turned a quarter or upside down; in a fan the pivot says which way the
    card runs."""
    if fan is None:
        return cards
    at: list[int] = []
    for i, (a, b) in enumerate(cards):
        if b is not None or fan.holds(a):
            continue
        turned = [np.array([-a.down[1], a.down[0]]) * k for k in (1, -1)] + [-a.down]
        if any(fan.holds(_facing(a, d)) for d in turned):
            at.append(i)
    if not at:
        return cards
    faced = [_facing(cards[i][0], fan.pivot - cards[i][0].centre) for i in at]
    out = list(cards)
    for i, f, r in zip(at, faced, classify(image, [f.quad for f in faced]), strict=True):
        label, conf = str(r[0]), float(r[1])
        if label != NONE and conf >= TURN_TO_FAN_SHARE * cards[i][0].confidence:
            alts = _alternatives(r)
            out[i] = (CharRead(label, conf, f.quad, alts), None)
    return out


TURN_TO_FAN_SHARE = 0.8  # of the first read's confidence, as sure as the pivot-facing look must be


DOUBLE_REACH = 0.8  # two reads of one label this close (in character sizes) may be one
DOUBLE_SAME = 0.6  # ... and this close are one (fan neighbours lie >= 0.69 apart: 11° steps)
# ...unless they lie in a fan whose cards either side of them stand this many steps apart.
# Fresh tables 3 900 100+200 (training fonts) and 3 900 000+200 (held-out fonts), where 8 of
# 42 misses were a copy of its fanned neighbour: 2145 -> 2147 and 2213 -> 2215 right,
# spurious the same; 3 700 150+300 and 3 800 000+300, either font set: +1 right on one.
FAN_ROOM = 2.75
# At a fan's end no card beyond the pair says how much room it fills: there two reads of
# one label stay two where they lie this many of the fan's steps apart about its pivot
# (two copies of 包 at the end of a tight fan, 0.5 of a character apart, a step as its other
# cards). Fresh tables (200 each), right, spurious the same: training fonts 17 400 000+
# 2217 -> 2218, 17 600 000+ 2278 either way, 17 800 000+ 2372 -> 2375; held-out fonts
# 17 700 000+ 2165 -> 2167. 0.65 read as 0.8; at 1.0, 2217 and 2373.
FAN_END_ROOM = 0.8
# Fan reads :data:`DOUBLE_SAME` apart or more, with room for two cards between their
# neighbours, stay two even where the view between them reads their label as surely as
# either: a view between two copies of a symmetric character (車, seed 17 400 091) reads it
# whole. Fresh tables (200 each), right, spurious the same: training fonts 17 400 000+
# 2216 -> 2217, 17 600 000+ 2277 -> 2278, 17 800 000+ 2371 -> 2372; held-out fonts
# 17 700 000+ 2165 either way.
ROOM_BEFORE_VIEW = True


def fan_has_room(fan: Fan, held: Sequence[CharRead], a: CharRead, b: CharRead) -> bool:
    """Whether the cards of ``fan`` (``held``: its reads) on either side of ``a`` and ``b``, two
    reads of one label, leave room for two cards between them: they stand :data:`FAN_ROOM`
    fan steps apart about the pivot or more; at the fan's end, with no card beyond the pair,
    the two reads themselves lie :data:`FAN_END_ROOM` steps apart or more. Two copies of a
    card side by side in a hand (players sort their hands) lie closer than a character's
    width, as one character read twice off centre does, but fill two of the fan's steps. The
    step is the median gap between the fan's other angular neighbours that name different
    cards: the gaps beside the two reads say how far off centre they were read, the gap
    across them is what is asked."""
    mid = (a.centre + b.centre) / 2 - fan.pivot
    base = math.atan2(mid[1], mid[0])

    def about(r: CharRead) -> float:
        d = r.centre - fan.pivot
        turn = math.atan2(d[1], d[0]) - base
        return math.degrees(math.atan2(math.sin(turn), math.cos(turn)))

    lo, hi = sorted((about(a), about(b)))
    around = sorted((about(r), r.label) for r in held if r.label != a.label)
    left = [t for t, _ in around if t < lo]
    right = [t for t, _ in around if t > hi]
    gaps = [
        y[0] - x[0] for x, y in pairwise(around) if x[1] != y[1] and not (x[0] < lo and y[0] > hi)
    ]
    if not ((left or right) and gaps):
        return False
    step = float(np.median(gaps))
    if left and right:
        return min(right) - max(left) >= FAN_ROOM * step
    return hi - lo >= FAN_END_ROOM * step


def merge_doubles(
    image: NDArray[np.uint8], reads: list[CharRead], classify: Classify
) -> list[CharRead]:
    """One read per character where a character was read twice, off centre to either side
    (a proposal and a neighbour's square, or two fan steps, each a little off). Two reads of
    one label, facing about the same way, closer than a fanned neighbour usually lies, are
    looked at once more between them: when that view reads the label at least as surely as
    either, they were one character, and the view between them replaces both. Two cards of
    one label side by side in a fan are left alone: between them the view shows halves of
    two characters, which reads less surely than either. Whether a fan has room for two
    cards between the pair's neighbours (:func:`fan_has_room`) settles the rest: reads at
    least :data:`DOUBLE_SAME` apart in such a fan stay two whatever the view reads
    (:data:`ROOM_BEFORE_VIEW`); reads closer than that are one whatever it reads, unless
    they lie in such a fan."""
    pairs = [
        (i, j)
        for i, a in enumerate(reads)
        for j in range(i + 1, len(reads))
        if (b := reads[j]).label == a.label
        and _dist(a.centre, b.centre) < DOUBLE_REACH * max(a.size, b.size)
        and _angle(a.down, b.down) < 20.0
    ]
    if not pairs:
        return reads
    fanned: list[tuple[Fan | None, list[CharRead]]] = []  # found when first asked

    def in_fan_with_room(a: CharRead, b: CharRead) -> bool:
        if not fanned:
            fan = find_fan(reads)
            fanned.append((fan, [r for r in reads if fan is not None and fan.holds(r)]))
        fan, held = fanned[0]
        return (
            fan is not None
            and any(a is h for h in held)
            and any(b is h for h in held)
            and fan_has_room(fan, held, a, b)
        )

    views = []
    for i, j in pairs:
        a, b = reads[i], reads[j]
        views.append(_square_at((a.centre + b.centre) / 2, (a.size + b.size) / 2, a.down + b.down))
    out: list[CharRead | None] = list(reads)
    for (i, j), q, r in zip(pairs, views, classify(image, views), strict=True):
        first, second = out[i], out[j]
        if first is None or second is None:
            continue
        same = _dist(first.centre, second.centre) < DOUBLE_SAME * max(first.size, second.size)
        view_says_one = r[0] == first.label and float(r[1]) >= max(
            first.confidence, second.confidence
        )
        if view_says_one and (same or not ROOM_BEFORE_VIEW or not in_fan_with_room(first, second)):
            out[i] = CharRead(str(r[0]), float(r[1]), np.asarray(q, np.float64), _alternatives(r))
            out[j] = None
        elif same and not in_fan_with_room(first, second):
            # Closer than fanned neighbours' characters lie (unless each was read off its
            # centre, in a tight fan with room for both): one character whichever way the
            # view between reads; the surer read stays.
            out[j if first.confidence >= second.confidence else i] = None
    return [r for r in out if r is not None]


FAN_STEPS = (8.0, 10.0, 12.0, 14.0, 16.0, 18.0)  # degrees between fanned neighbours
FAN_END_RADIAL = (0.0, -0.35, 0.35)  # beyond a fan's end: nearer / further, in character sizes


def fan_squares(reads: Sequence[CharRead], fan: Fan, known: Sequence[CharRead]) -> list[Quad]:
    """Where the fan neighbours of ``reads`` may be: a fanned card is its neighbour turned a
    step about the pivot, so its character lies on the same circle, facing the pivot. This
    frames a character half hidden under its neighbour as the recogniser learned characters,
    which the squares beside a card (:func:`beside_squares`) and the proposals do not.
    Places near a character already read are skipped. Beyond the fan's outermost cards read
    so far, the places a little nearer the pivot and further from it are looked at too
    (:data:`FAN_END_RADIAL`): a hand is not held at one radius, and an end card's character,
    turned furthest from any proposal's frame, is seldom proposed."""
    # The fan so far: its characters read, and those asked about (they may not be known).
    members = [o for o in (*known, *reads) if fan.holds(o)]
    if not members:
        return []  # no read of ``reads`` lies in the fan: nothing to look beside
    bearing = _bearing(fan, members)
    spread = [bearing(o.centre) for o in members]
    margin = FAN_STEPS[0] / 2
    lo, hi = min(spread) - margin, max(spread) + margin
    quads: list[Quad] = []
    for r in reads:
        if not fan.holds(r):
            continue
        for sign in (-1.0, 1.0):
            for step in FAN_STEPS:
                t = np.radians(sign * step)
                rot = np.array([[np.cos(t), -np.sin(t)], [np.sin(t), np.cos(t)]])
                turned = rot @ (r.centre - fan.pivot)
                outside = not lo <= bearing(fan.pivot + turned) <= hi
                radius = float(np.linalg.norm(turned))
                for shift in FAN_END_RADIAL if outside else (0.0,):
                    c = fan.pivot + turned * (1 + shift * r.size / radius)
                    if any(_dist(c, o.centre) < 0.4 * max(o.size, r.size) for o in known):
                        continue
                    quads.append(_square_at(c, r.size, fan.pivot - c))
    return quads


FAN_ROUNDS = 4


def _bearing(fan: Fan, members: Sequence[CharRead]) -> Callable[[NDArray[np.float64]], float]:
    """A point's angle about the fan's pivot, in degrees from the middle of ``members``."""
    mid = np.mean([o.centre - fan.pivot for o in members], axis=0)

    def bearing(p: NDArray[np.float64]) -> float:
        v = p - fan.pivot
        return math.degrees(math.atan2(mid[0] * v[1] - mid[1] * v[0], float(mid @ v)))

    return bearing


# A hand's cards lie about one step apart around its pivot. Two neighbours read this many
# median steps apart have lost the card between them: its character, half hidden, lies
# between theirs, and their reads (each square to its own visible part, so pulled towards
# the gap) leave its read too little room to stand against them in :func:`suppress`.
FAN_GAP = (1.3, 2.6)
FAN_GAP_SURE = 0.9  # a gap's read surer than this counts; a less sure one is a lead
FAN_GAP_ROOM = 0.35  # ...and stands this far (in its size) from every read, or not at all


def fan_gaps(
    image: NDArray[np.uint8],
    found: Sequence[CharRead],
    fan: Fan,
    classify: Classify,
    bar: float,
) -> list[CharRead]:
    """The characters read midway between fanned neighbours a gap apart (:data:`FAN_GAP`),
    each naming neither neighbour's label (a read between two copies of one card is a view
    of either). Fresh tables, 150 a set, right / spurious, training then held-out fonts:
    14 000 000+ 1580 / 5 -> 1581 / 5, 1743 / 11 -> 1744 / 11; 4 400 000+ 1647 / 7 -> 1648 /
    7, 1824 / 14 -> 1825 / 14; 14 100 000+ 1711 / 12 -> 1712 / 12, 1782 / 14 -> 1783 / 14."""
    members = [r for r in found if fan.holds(r, 2 * FAN_AIM_DEG)]
    if len(members) < 3:
        return []
    bearing = _bearing(fan, members)
    members.sort(key=lambda r: bearing(r.centre))
    angles = [bearing(r.centre) for r in members]
    steps = np.diff(angles)
    step = float(np.median(steps))
    lo, hi = FAN_GAP
    gaps = [k for k, g in enumerate(steps) if lo * step <= g <= hi * step]
    squares = []
    for k in gaps:
        a, b = members[k], members[k + 1]
        ra, rb = _dist(a.centre, fan.pivot), _dist(b.centre, fan.pivot)
        # Midway in angle (the two directions' bisector), midway in distance from the pivot.
        v = (a.centre - fan.pivot) / ra + (b.centre - fan.pivot) / rb
        c = fan.pivot + v * ((ra + rb) / 2 / max(float(np.linalg.norm(v)), 1e-9))
        squares.append(_square_at(c, (a.size + b.size) / 2, fan.pivot - c))
    out = []
    for k, r in zip(gaps, read_each(image, squares, classify), strict=True):
        sure = confirmed(image, [r], classify, FAN_GAP_SURE, bar) if r is not None else []
        if not sure or sure[0].label in (members[k].label, members[k + 1].label):
            continue
        g = sure[0]
        if all(_dist(g.centre, o.centre) >= FAN_GAP_ROOM * g.size for o in found):
            out.append(g)
    return out


def _aims_at(read: CharRead, point: NDArray[np.float64], degrees: float) -> bool:
    """Whether ``point`` lies ahead of ``read`` along its axis (within ``degrees``), at a fan's
    distance: cards side by side in a row point within a few degrees of any far point."""
    to = point - read.centre
    dist = math.hypot(to[0], to[1]) / read.size
    return FAN_REACH[0] <= dist <= FAN_REACH[1] and _angle(read.down, to) < degrees


def _facing(read: CharRead, down: NDArray[np.float64]) -> CharRead:
    """The read with its quad turned so that its down direction is ``down``."""
    d = down / max(float(np.linalg.norm(down)), 1e-9)
    right = np.array([d[1], -d[0]])  # screen y points down: right is down turned -90°
    half = read.size / 2
    c = read.centre
    quad = np.array(
        [
            c - half * right - half * d,
            c + half * right - half * d,
            c + half * right + half * d,
            c - half * right + half * d,
        ]
    )
    return CharRead(read.label, read.confidence, quad, read.alternatives)


# Where a card's characters sit, as fractions of the card (the synthetic decks' layout, which
# real decks share closely: a character filling the width at each end).
CHAR_CENTRE = 0.175  # from the card's end to a character's centre, in card lengths
CARD_ASPECT = 0.31  # width / length
CHAR_TO_WIDTH = 0.9  # a proposal's side / the card's width
SIZE_SPREAD = (0.8, 1.25)  # a read's size taken for its card's length, of the table's median


# Fresh generated tables (seeds apart from the bench's), shipped model: held-out fonts
# 810 000+80 871 -> 876 of 886 right and 820 000+150 1758 -> 1762 of 1776, training fonts
# 710 000+80 917 of 926 either way and 720 000+150 1693 -> 1695 of 1721; spurious the same
# on all four. Of the held-out misses, 5 of 11 were right reads framed by their strokes
# alone in a fanned hand, dropped as fragments. One view at the usual size alone read 872.
FRAGMENT = 0.55  # of the table's usual read size: smaller reads are fragments of characters
SMALL_LOOK = 0.3  # ...but reads from this size up are looked at again, larger:
SMALL_GROWN = (0.6, 0.8, 1.0)  # ...at these shares of the usual size (the last: 1)
# ...each as first read and half-turned (quarter turns of the quad's corners): a white
# character on a dark badge framed tight was read upside down at 0.79, and its larger squares
# that way up read nothing (seed 3 700 237). Fresh tables 3 700 150+300: held-out fonts
# 3373 -> 3374 of 3408 right, training fonts 3367 either way, spurious 37 either way.
LOOK_TURNS = (0, 2)
# Reads over OVERSIZE x the usual size are looked at again at these shares of it (both
# turns): a white character's badge framed with paper around it (seed 3 700 299). Fresh
# tables, the 40-pixel recogniser: 3 700 150+300 held-out fonts 3379 -> 3380 of 3408; the
# training fonts there and both font sets of 3 800 000+300 the same; spurious the same.
LARGE_SHRUNK = (1.0, 1.3, 1.6)


def grown_small(
    image: NDArray[np.uint8], reads: list[CharRead], classify: Classify, bar: float
) -> list[CharRead]:
    """Reads too small for this table's characters (under :data:`FRAGMENT` of the usual
    size, which :func:`_one_per_card` drops as fragments) looked at again in squares of
    :data:`SMALL_GROWN` times the usual size about the same centre, each also half-turned
    (:data:`LOOK_TURNS`); the surest view naming the read's label at least ``bar``
    replaces it. A fanned hand's character framed tight by its
    strokes (a neighbour's edge cuts the square) keeps its label there; a fragment of a
    character shows the whole character there, and reads as that character (a second read
    of one card, which :func:`_one_per_card` settles) or as none. Reads too large for the
    table (over :data:`OVERSIZE` times the usual size, which :func:`_one_per_card` drops as
    squares around several characters) are looked at again the same way, in squares of
    :data:`LARGE_SHRUNK` times the usual size: a white character's dark badge framed with
    paper around it."""
    if len(reads) < 3:
        return reads
    typical = _usual_size(reads)
    small = [i for i, r in enumerate(reads) if SMALL_LOOK * typical <= r.size < FRAGMENT * typical]
    large = [i for i, r in enumerate(reads) if r.size > OVERSIZE * typical]
    out = _looked_again(image, reads, small, SMALL_GROWN, typical, classify, bar)
    return _looked_again(image, out, large, LARGE_SHRUNK, typical, classify, bar)


def _looked_again(
    image: NDArray[np.uint8],
    reads: list[CharRead],
    which: list[int],
    shares: tuple[float, ...],
    typical: float,
    classify: Classify,
    bar: float,
) -> list[CharRead]:
    """``reads`` with each of ``which`` replaced by the surest of its views in squares of
    ``shares`` times the ``typical`` size about its centre, in each of :data:`LOOK_TURNS`,
    that names its label at least ``bar``; kept at the typical size whichever view read
    surest, as :func:`_typical_size` grows reads: the card drawn from the read is as long as
    its size says."""
    if not which:
        return reads
    views = [
        np.roll(
            reads[i].centre + (reads[i].quad - reads[i].centre) * (share * typical / reads[i].size),
            -turn,
            axis=0,
        )
        for i in which
        for turn in LOOK_TURNS
        for share in shares
    ]
    again = classify(image, views)
    n = len(shares)
    out = list(reads)
    for k, i in enumerate(which):
        best: CharRead | None = None
        best_turn = 0
        for t, turn in enumerate(LOOK_TURNS):
            at = (k * len(LOOK_TURNS) + t) * n
            for r, q in zip(again[at : at + n], views[at : at + n], strict=True):
                if r[0] == reads[i].label and float(r[1]) >= (best.confidence if best else bar):
                    best, best_turn = CharRead(str(r[0]), float(r[1]), q, _alternatives(r)), turn
        if best is not None:
            a = reads[i]
            usual = np.roll(a.centre + (a.quad - a.centre) * (typical / a.size), -best_turn, axis=0)
            out[i] = CharRead(best.label, best.confidence, usual, best.alternatives)
    return out


def card_quad(read: CharRead, length: float) -> Quad:
    """The whole card (TL TR BR BL, upright as ``read`` reads) of a card ``length`` long whose
    character ``read`` is the one at its top end."""
    d = read.down
    right = np.array([-d[1], d[0]]) * -1.0
    width = length * CARD_ASPECT
    top = read.centre - d * CHAR_CENTRE * length
    return np.array(
        [
            top - right * width / 2,
            top + right * width / 2,
            top + right * width / 2 + d * length,
            top - right * width / 2 + d * length,
        ]
    )


def card_lengths(cards: list[tuple[CharRead, CharRead | None]]) -> list[float]:
    """Each card's length: from the distance between its two characters where both were seen,
    else from its character's size scaled by the cards whose both ends were seen (one deck per
    table), else by the usual layout."""
    span = 1 - 2 * CHAR_CENTRE
    ratios = [_dist(b.centre, a.centre) / span / a.size for a, b in cards if b is not None]
    per_size = float(np.median(ratios)) if ratios else 1 / (CHAR_TO_WIDTH * CARD_ASPECT)
    # A read framed tight (a fanned character cut by its neighbour's edge) is smaller than its
    # character: one deck, one scale per table.
    usual = float(np.median([a.size for a, _ in cards])) if cards else 0.0
    lo, hi = SIZE_SPREAD
    return [
        _dist(b.centre, a.centre) / span
        if b is not None
        else float(np.clip(a.size, lo * usual, hi * usual)) * per_size
        for a, b in cards
    ]


def paper_run(
    faces: NDArray[np.uint8],
    start: NDArray[np.float64],
    step: NDArray[np.float64],
    steps: int,
    beyond: bool = False,
) -> int:
    """How many ``step``s from ``start`` stay on card faces (``faces``: 255 on paper) before
    two in a row leave them; a step beyond the photo's edge counts as paper when ``beyond``."""
    h, w = faces.shape[:2]
    off = 0
    for k in range(1, steps + 1):
        x, y = (round(float(v)) for v in start + step * k)
        inside = 0 <= x < w and 0 <= y < h
        on = faces[y, x] > 0 if inside else beyond
        off = 0 if on else off + 1
        if off >= 2:
            return k - 2
    return steps


# A dark badge's edge from its character's centre, in eighths of the character: a white
# character printed on a dark disc has no paper around it, every run from its centre stopped
# within the disc, and a badge read upside down was drawn over the table (seed 2 400 088).
# With the half turn: fresh tables, 100 a set, held-out fonts 2 400 000+, 2 500 000+,
# 2 700 000+ and training fonts 2 600 000+: 1102 / 13, 1032 / 8, 1128 / 15, 1112 / 10 ->
# 1103 / 12, 1032 / 8, 1129 / 14, 1112 / 10 (right / spurious); the half turn alone read the
# first two sets as before.
BADGE_STEPS = 6


ROW_REACH = 3.0  # row neighbours' characters lie this near, in card widths, beside their card
ROW_BESIDE_DEG = 60.0  # ...at least this far off the neighbour's own axis
ROW_AGREE_DEG = 5.0  # two row neighbours whose axes agree this closely give the row's axis
ROW_OFF_DEG = (10.0, 40.0)  # a read whose axis is off the row's by this much is aimed along it
# Fresh tables, 100 a set (right / spurious, before -> after): held-out fonts 2 400 000+
# 1103 / 12 -> 1104 / 11, 2 500 000+ 1032 / 8 either way, 2 700 000+ 1129 / 14 -> 1129 / 13,
# training fonts 2 600 000+ 1112 / 10 -> 1113 / 9 (chosen on these); then held-out fonts
# 2 800 000+ 1161 / 13 and 2 900 000+ 1157 / 9 either way. The bench's training-font tables
# then read one card fewer (seed 700 051, the end of a small fan): since then a read is aimed
# along its row only where its paper runs that way, which reads those tables as before and
# the six sets above as given.


def _axis_angle(u: NDArray[np.float64], v: NDArray[np.float64]) -> float:
    """The angle between two axes, up to a half turn (0-90 degrees)."""
    angle = _angle(u, v)
    return min(angle, 180.0 - angle)


def row_axis(
    cards: Sequence[tuple[CharRead, CharRead | None]], k: int
) -> NDArray[np.float64] | None:
    """The axis card ``k``'s row gives it: that of its two nearest neighbours (characters
    within :data:`ROW_REACH` card widths, beside their cards) where they agree on one."""
    a = cards[k][0]
    reach = ROW_REACH * a.size / CHAR_TO_WIDTH
    near = sorted(
        (_dist(o.centre, a.centre), j)
        for j, (o, _) in enumerate(cards)
        if j != k
        and _dist(o.centre, a.centre) <= reach
        and _axis_angle(o.down, a.centre - o.centre) >= ROW_BESIDE_DEG
    )[:2]
    if len(near) < 2:
        return None
    u, v = cards[near[0][1]][0].down, cards[near[1][1]][0].down
    return None if _axis_angle(u, v) > ROW_AGREE_DEG else u


def aim_rows(
    cards: list[tuple[CharRead, CharRead | None]],
    fan: Fan | None = None,
    image: NDArray[np.uint8] | None = None,
) -> list[tuple[CharRead, CharRead | None]]:
    """Cards read from one end, each aimed along its row where its two nearest neighbours
    (characters within :data:`ROW_REACH` card widths) agree on an axis its own is well off:
    cards laid side by side in a meld are parallel, and a character read askew (a 馬 read
    26 degrees off its card, seed 2 400 014) drew its card across the row, too short as the
    paper ran off it. Fanned cards (aimed at ``fan``'s pivot) are left as they are; their
    neighbours differ by more than the agreement asked. Given the ``image``, a read is aimed
    along its row only where the paper runs on along the row's axis at least as far as along
    its own: at the end of a small fan not found as one, two fanned neighbours read alike
    aimed the end card across its paper (seed 700 051)."""
    out = list(cards)
    faces: NDArray[np.uint8] | None = None
    f = 1.0
    for k, (a, b) in enumerate(cards):
        if b is not None or (fan is not None and fan.holds(a, FAN_AIM_DEG)):
            continue
        u = row_axis(cards, k)
        if u is None:
            continue
        off = _axis_angle(a.down, u)
        if not ROW_OFF_DEG[0] <= off <= ROW_OFF_DEG[1]:
            continue
        aimed = _facing(a, u if float(u @ a.down) > 0 else -u)
        if image is not None:
            if faces is None:
                small, f = _work_size(image)
                faces = face_mask(small)
            unit = a.size * f / 8  # steps of an eighth of the character, two characters on
            if paper_run(faces, aimed.centre * f, aimed.down * unit, 16) < paper_run(
                faces, a.centre * f, a.down * unit, 16
            ):
                continue
        out[k] = (aimed, None)
    return out


# A card read from one end is not turned off its row's axis (row_axis) when it lies within
# this of it: a white card's pale paper, no paler than some tables, ends at once along the
# card while its neighbours' paper runs on across the row (seed 950 030 drew 兵 sideways).
ROW_TURN_KEEP_DEG = ROW_OFF_DEG[0]


def _along_row(cards: Sequence[tuple[CharRead, CharRead | None]], k: int, deg: float) -> bool:
    """Whether card ``k`` lies within ``deg`` of the axis its row gives it (:func:`row_axis`)."""
    u = row_axis(cards, k)
    return u is not None and _axis_angle(cards[k][0].down, u) <= deg


def _quarter_turned(d: NDArray[np.float64], quarters: int) -> NDArray[np.float64]:
    t = np.radians(90.0 * quarters)
    return np.asarray(np.array([[np.cos(t), -np.sin(t)], [np.sin(t), np.cos(t)]]) @ d, np.float64)


def _work_size(image: NDArray[np.uint8]) -> tuple[NDArray[np.uint8], float]:
    """The image at the working size the paper is measured at, and its scale."""
    f = min(1.0, WORK_SIDE / max(image.shape[:2]))
    if f >= 1:
        return image, f
    small = cv2.resize(image, None, fx=f, fy=f, interpolation=cv2.INTER_AREA)
    return np.asarray(small, np.uint8), f


def measured(
    image: NDArray[np.uint8],
    cards: list[tuple[CharRead, CharRead | None]],
    fan: Fan | None = None,
) -> list[tuple[CharRead, float]]:
    """Each card's read and length, the length measured on the paper where it can be: a card
    read from one end is followed from its character along its axis to where the face ends
    (no shorter than three quarters of the length its character's size gives). A read whose
    axis runs off the face at once while a quarter or half turn runs on is turned so (a
    character read on its side, or upside down). Around a character on a dark badge the
    runs start at the badge's edge (:data:`BADGE_STEPS`).

    A read aimed at ``fan``'s pivot is neither turned nor measured: at the fan's edge, with
    the pivot a little off, its axis may leave the fan soon while across it runs over the
    other fanned cards' paper (the leftmost card of a fan was drawn a quarter turn off), and
    along it the run stops at the first edge of a card lying over it (fanned cards were
    drawn at three quarters of their length). Nor is a read turned a quarter where its row's
    neighbours agree with its axis (:data:`ROW_TURN_KEEP_DEG`); they cannot say which way
    along that axis it runs, so a half turn still may (a 車 read upside down in a meld, seed
    19 100 093, was drawn over the table above its card). The read's own way does not end
    at the photo's edge: the far end of a card cut by the frame, read right, was turned half
    way onto the table (seed 19 000 159). Paper running on past 1.3 times the length is no
    measure either: a pale table taken for paper (its cards were drawn half as long again,
    and as wide, over their neighbours)."""
    lengths = card_lengths(cards)
    small, f = _work_size(image)
    faces = face_mask(small)
    out = []
    for k, ((a, b), length) in enumerate(zip(cards, lengths, strict=True)):
        if b is not None or (fan is not None and fan.holds(a, FAN_AIM_DEG)):
            out.append((a, length))
            continue
        unit = a.size * f / 8
        start = a.centre * f
        reach = int(2 * length * f / unit)
        d = a.down
        steps = [_quarter_turned(d, k) * unit for k in range(4)]
        # Beyond the photo's edge the read's own way is taken to run on; the turns' ways not.
        runs = [paper_run(faces, start, step, reach, j == 0) for j, step in enumerate(steps)]
        if max(runs) < BADGE_STEPS:
            # No paper around the character: a character on a dark badge. The runs
            # start at the badge's edge instead.
            runs = [
                BADGE_STEPS + paper_run(faces, start + step * BADGE_STEPS, step, reach, j == 0)
                for j, step in enumerate(steps)
            ]
        if runs[0] * unit < 1.2 * a.size * f:  # its own way leaves the paper at once
            turns = (2,) if _along_row(cards, k, ROW_TURN_KEEP_DEG) else (1, 3, 2)
            turn = max(turns, key=lambda j: runs[j])
            if runs[turn] * unit > 2.5 * a.size * f:
                a = _facing(a, _quarter_turned(d, turn))
                runs[0] = runs[turn]
        seen = runs[0] * unit / f / (1 - CHAR_CENTRE)
        out.append((a, float(max(seen, 0.75 * length)) if seen <= 1.3 * length else length))
    return out


MELD_PARALLEL_DEG = 12.0  # card quads drawn from characters are true to a few degrees
MELD_LEVEL = 0.35


def meld_groups(quads: Sequence[Quad], labels: Sequence[str]) -> list[list[int]]:
    """Whole-card quads grouped into the melds laid on the table (rows of parallel cards side
    by side; a fanned hand is no meld), each in the camera's left-to-right order. A lone card
    is a meld only when it is a general (a general may be laid alone)."""
    # A card is read from either printed end, so two cards of one meld may face opposite
    # ways: compare them all as if read from the end nearer the top of the image.
    upright = []
    for q in quads:
        q = np.asarray(q, np.float64)
        down = (q[3] - q[0]) + (q[2] - q[1])
        upright.append((np.roll(q, 2, axis=0) if down[1] < 0 else q).tolist())
    melds, _ = group_melds(upright, parallel_deg=MELD_PARALLEL_DEG, level=MELD_LEVEL)
    out = []
    for m in melds:
        # A card's quad may come from either printed end, so "along the row" can point either
        # way: melds are given in the camera's left-to-right order.
        xs = [float(np.asarray(quads[i])[:, 0].mean()) for i in m]
        if xs[0] > xs[-1]:
            m.reverse()
        if len(m) > 1 or labels[m[0]].endswith("G"):
            out.append(m)
    return out


def read(image: NDArray[np.uint8], classify: Classify) -> dict[str, Any]:
    """``{"objects": [{"label", "confidence", "quad"}], "melds": [[token, ...], ...]}``; each
    object's quad is the whole card, each meld's cards from left to right as the camera sees
    them."""
    cards = read_cards(image, classify)
    melds = meld_groups([q for _, q in cards], [r.label for r, _ in cards])
    return {
        "objects": [
            {
                "label": r.label,
                "confidence": round(r.confidence, 4),
                "quad": [[round(float(x), 1), round(float(y), 1)] for x, y in q],
            }
            for r, q in cards
        ],
        "melds": [[cards[i][0].label for i in m] for m in melds],
    }
