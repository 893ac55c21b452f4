"""Card proposals: where could a card's corner index be? (:func:`card_candidates`)

A corner index is a rank glyph (group) with a suit glyph beside it; every such pair gives an
oriented quad along the rank->suit axis (:func:`vision.detect.pair_quad`). The finest dark
print is also looked for at a lower level (print washed out by bright light; on a photo washed
out as a whole, at a fixed low level too), and light print (dark-faced decks) at a floor that
follows the image's own contrast (dim light).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from vision.detect import (
    Glyph,
    Image,
    Quad,
    corners,
    glyphs,
    group_glyphs,
    merged,
)
from vision.matching import lengths, near_pairs, same_objects, within_along_x
from vision.overlaps import distinct

# Light print (dark-faced decks) must stand 40 above its surroundings, or twice Otsu's level
# where that is lower, but at least this much: a fixed 40 lost the indices of a dark-faced
# card in dim light (strokes 30-60 above the face, Otsu's level 15); a fixed 28 added light
# clutter on bright real photos.
BRIGHT_FLOOR = 28


# Faint light print: a dark-faced deck on a bright table, where the card's edge against the
# table sets Otsu's level and grey print on the black face falls under it. The finest strokes
# are looked at once more at FAINT_LIGHT of that level (at least FAINT_LIGHT_FLOOR), and only
# where the ground under them is darker than FAINT_LIGHT_GROUND: a dark card face, not a pale
# table's texture. Measured with the dev-out card model of the shipped recipe: dev fold 392 ->
# 393 of 432 right, spurious 29 -> 29; fresh generated scenes (100 each), standard deck 591 ->
# 598 of 640 (seeds 70 000+), 593 -> 594 of 620 (72 000+), 597 -> 604 of 619 (74 000+), All In
# 609 -> 611 of 634 (71 000+), 636 -> 638 of 667 (73 000+), spurious unchanged in each. On the
# training split 29 -> 22 of 1603 labelled indices have no proposal (those of the gold-on-black
# deck 10 -> 5 of 211); median proposals a photo 202 -> 219. A floor of 16 read 4 more of the
# generated indices (dev fold the same) with twice the proposals added: held-out photos, two
# passes interleaved, median 77.8 ms a photo without the faint mask, 85.4 with a floor of 24,
# 94.1 with 16.
FAINT_LIGHT = 0.55
FAINT_LIGHT_FLOOR = 24
FAINT_LIGHT_GROUND = 60


def bright_masks(
    image: Image, strokes: tuple[int, ...], faint: bool = False
) -> list[npt.NDArray[Any]]:
    """255 where print is lighter than its surroundings (dark-faced decks), one mask per
    stroke size; ``faint``: and faint light print on a dark ground at the first stroke size
    (see :data:`FAINT_LIGHT`)."""
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    masks = []
    for stroke in strokes:
        k = cv2.getStructuringElement(cv2.MORPH_RECT, (stroke, stroke))
        light = cv2.morphologyEx(grey, cv2.MORPH_TOPHAT, k)
        level, mask = cv2.threshold(light, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
        floor = min(max(2 * level, BRIGHT_FLOOR), 40)
        mask[light < floor] = 0
        masks.append(mask)
        low = max(level * FAINT_LIGHT, FAINT_LIGHT_FLOOR)
        if faint and stroke == strokes[0] and low < floor:
            _, weak = cv2.threshold(light, low, 255, cv2.THRESH_BINARY)
            # The opening (grey less its top-hat) is the ground the print lies on.
            weak[cv2.subtract(grey, light) > FAINT_LIGHT_GROUND] = 0
            masks.append(weak)
    return masks


# A photo washed out by bright light or glare (its darkest hundredth of pixels still above
# WASHED_GREY: no deep shadow or dark print anywhere) is looked at once more at a fixed, lower
# ink level (WASHED_INK, against the floor of 28): a pale table under glare leaves print
# 26-34 above the card, which Otsu's level and the floor split. Fresh generated tables, 300
# a set, right / spurious before -> after: standard deck 1855 / 19 -> 1856 / 18 (seeds
# 5 100 000+, chosen on), 1778 / 23 -> 1782 / 23 (5 300 000+), 1826 / 19 -> 1827 / 18
# (5 500 000+); All In 1817 / 8 -> 1821 / 8 (5 200 000+, chosen on), 1842 / 11 -> 1845 / 11
# (5 400 000+), 1902 / 12 -> 1904 / 12 (5 600 000+). The real training photos the same
# (1497 / 78). An ink level of 14, or a grey of 100, read no more.
WASHED_GREY = 120.0
WASHED_INK = 18.0
# Paper the light has clipped to white (the paper around a stroke, a grey closing, at
# CLIPPED_PAPER or more): bright light and glare wash the print on it out as on a washed photo
# (an ink score of 17-23 inside pale indices of generated tables, under the floor of 28), but
# clipped paper has no texture left to make false ink of, so the finest strokes there are also
# taken from WASHED_INK, even when a dark card or table elsewhere keeps the photo as a whole
# from counting as washed. Fresh generated tables, 100 a set, right / spurious before -> after:
# All In 622 / 6 -> 623 / 7 (seeds 12 700 000+, chosen on), 597 / 1 -> 602 / 1
# (12 900 000+), 627 / 6 -> 630 / 6 (13 200 000+); standard deck 607 / 6 -> 610 / 7
# (12 600 000+, chosen on), 639 / 9 and 666 / 8 either way (12 800 000+, 13 300 000+); the real
# training split (shipped model) 1505 / 67 either way. 12 of the 98 held-out photos have
# clipped paper with such faint ink; the median card photo's detection time is the same.
CLIPPED_PAPER = 250


def uncovered(extra: Sequence[Quad], base: Sequence[Quad]) -> list[Quad]:
    """The ``extra`` quads no ``base`` quad frames as the same object
    (:func:`vision.matching.same_object`)."""
    if not base or not extra:
        return list(extra)
    frames = np.asarray(base, np.float32).reshape(-1, 4, 2)
    # A look with one more mask proposes most of the first look's quads again, bit for bit:
    # those are the same object without the polygon tests (unless too small to have an area,
    # which same_object refuses even against itself).
    seen = {f.tobytes() for f in frames}
    quads = np.asarray(extra, np.float32).reshape(-1, 4, 2)
    again = np.array([q.tobytes() in seen and cv2.contourArea(q) >= 1.0 for q in quads], bool)
    ask = np.flatnonzero(~again)
    # The other extra quads and the base frames near enough to be one object, then those
    # pairs tested all at once (matching.same_objects answers as same_object does): asked
    # one quad at a time against every frame, this was most of what the faint look adds to
    # an enrolled deck's detection.
    rows, cols = near_pairs(quads[ask], frames)
    covered = again.copy()
    covered[ask[rows[same_objects(quads[ask][rows], frames[cols])]]] = True
    return [q for q, hit in zip(extra, covered.tolist(), strict=True) if not hit]


# Cards read with a deck profile (and the deck's enrolment): the finest strokes also at this
# ink score, against the floor of 28, where no other proposal frames the same object. A deck
# the models never saw may print its indices in thin, pale ink (a pastel AR PL UMing print):
# unproposed, no profile can name them. One-print development decks, standard and All In
# (`python -m vision.enrol_misses cards allin --prints ...`; 7633 indices over five sets of
# six prints), right / spurious: without 7197 / 135, with 7256 / 127; ranked with every other
# proposal under one cap instead, the first three sets read 4416 / 85 against 4356 / 83, 8
# more spurious on the third alone (models/LIMITS.md, 2026-12-07).
ENROLLED_INK_FLOOR = 20.0
FAINT_AT = 1  # where card_ink_masks puts the ink_floor mask: right after the finest stroke's


def card_ink_masks(
    image: Image,
    strokes: tuple[int, ...] = (9, 23),
    faint: float = 0.0,
    washed: bool = False,
    clipped: bool = False,
    ink_floor: float | None = None,
) -> list[npt.NDArray[Any]]:
    """:func:`vision.detect.ink_mask` at several stroke sizes, the same masks, with the grey and
    saturation images computed once (OpenCV instead of NumPy reductions over the colour axis: the
    per-pixel max/min of three channels was most of the card detector's time). ``washed``:
    and, if the image is washed out as a whole (:data:`WASHED_GREY`), the finest strokes at
    :data:`WASHED_INK` as well; else ``clipped``: the finest strokes at that level on paper
    clipped to white (:data:`CLIPPED_PAPER`), with the rest of the finest mask.
    ``ink_floor``: the finest strokes at that ink level as well, wherever they lie (a deck
    read with its profile, :data:`ENROLLED_INK_FLOOR`), as the second mask (:data:`FAINT_AT`),
    the others as they are without it."""
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    washed = washed and float(np.percentile(grey[::4, ::4], 1)) > WASHED_GREY
    b, g, r = cv2.split(image)
    sat = cv2.subtract(cv2.max(cv2.max(b, g), r), cv2.min(cv2.min(b, g), r))
    masks = []
    for stroke in strokes:
        k = cv2.getStructuringElement(cv2.MORPH_RECT, (stroke, stroke))
        dark = cv2.morphologyEx(grey, cv2.MORPH_BLACKHAT, k)
        colourful = cv2.morphologyEx(sat, cv2.MORPH_TOPHAT, k)
        score = cv2.max(dark, colourful)
        level, mask = cv2.threshold(score, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
        mask[score < 28] = 0
        masks.append(mask)
        if ink_floor is not None and stroke == strokes[0]:
            _, low = cv2.threshold(score, ink_floor, 255, cv2.THRESH_BINARY)
            masks.append(low)
        if faint and stroke == strokes[0] and level * faint > 28:
            # Print washed out by bright light or glare is fainter than the card's edges and
            # pips, which set Otsu's level: the finest strokes once more at a lower level.
            _, low = cv2.threshold(score, level * faint, 255, cv2.THRESH_BINARY)
            masks.append(low)
        if washed and stroke == strokes[0]:  # see WASHED_GREY
            _, low = cv2.threshold(score, WASHED_INK, 255, cv2.THRESH_BINARY)
            masks.append(low)
        elif clipped and stroke == strokes[0]:
            pale = _on_clipped_paper(grey, score, mask, k)
            if pale is not None:
                masks.append(pale)
    return masks


def clipped_pixels(grey: npt.NDArray[Any]) -> int:
    """How many pixels of ``grey`` are paper clipped to white (:data:`CLIPPED_PAPER` or more)."""
    _, clip = cv2.threshold(grey, CLIPPED_PAPER - 1, 255, cv2.THRESH_BINARY)
    return int(cv2.countNonZero(clip))


def _on_clipped_paper(
    grey: npt.NDArray[Any], score: npt.NDArray[Any], mask: npt.NDArray[Any], k: npt.NDArray[Any]
) -> npt.NDArray[Any] | None:
    """``mask`` with the ink at :data:`WASHED_INK` or more on paper clipped to white
    (:data:`CLIPPED_PAPER`) added, or None where that adds nothing (most photos: no pixel is
    clipped, and the closing is not computed)."""
    if clipped_pixels(grey) == 0:
        return None
    paper = cv2.morphologyEx(grey, cv2.MORPH_CLOSE, k)
    _, low = cv2.threshold(score, WASHED_INK, 255, cv2.THRESH_BINARY)
    low[paper < CLIPPED_PAPER] = 0
    low[mask > 0] = 0
    if cv2.countNonZero(low) == 0:
        return None
    # With the strong ink: a pale rank pairs with a suit printed darker beside it.
    return cv2.bitwise_or(low, mask)


def _card_quads(
    units: list[Glyph], squat_suits: bool = True
) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float64]]:
    """The corner-index quads of one mask's glyph units (N × 4 × 2) and their plausibility.

    Per unit ``a`` in order: its own quad when it is a lone tall glyph, then one quad per
    partner ``b`` at a suit's distance and size (rank ``a`` over suit ``b``). ``squat_suits``:
    a suit seen small also pairs with a squat rank (see below).

    Only the pairs that can pass are measured: a partner, and a neighbour counted in a
    unit's crowd, lies within twice the unit's height, so only units that near along x (a
    pixel spare, sorted along x) are looked at, not all N × N (a textured cloth's mask holds
    up to 1500 units). The tests and the arithmetic are those of every pair, element by
    element, so the quads and scores are the same.
    """
    n = len(units)
    if n == 0:
        return np.zeros((0, 4, 2), np.float32), np.zeros(0)
    c = np.array([u.centre for u in units], np.float32).reshape(-1, 2)
    hgt = np.array([u.height for u in units], np.float32)
    wid = np.array([u.width for u in units], np.float32)
    ang = np.radians(np.array([u.angle for u in units], np.float32))
    lone = (hgt > 1.7 * np.maximum(wid, 1.0)) & (hgt > 9)
    a, b = within_along_x(c, c, 2.0 * hgt.astype(np.float64))  # unit a, neighbour b
    diff = c[b] - c[a]  # centre b - centre a
    dist = lengths(diff)
    ha, hb = hgt[a], hgt[b]
    ok = (dist > 0.6 * ha) & (dist < 2.0 * ha) & (hb <= 1.6 * ha) & (hb >= 0.4 * ha)
    # A suit seen smaller than that (a club's lobes, a small suit glyph in glare): only right
    # below a rank that stands along the rank→suit axis, or beside a squat rank, which shows
    # no axis (a blurred K's blob, as wide as tall, over a 7 px suit: 0.38 of its height).
    # Fresh generated scenes (100 each; right / spurious): standard deck 602 / 4 either way
    # (seeds 70 000+) and 590 / 2 -> 591 / 2 (72 000+), All In 613 / 2 (71 000+) and 640 / 6
    # (73 000+) either way; the dev fold 396 / 16 either way (dev-out model); +1.5% proposals.
    unit = diff / np.maximum(dist, 1e-6)[:, None]
    stands = np.abs(np.cos(ang)[a] * unit[:, 0] + np.sin(ang)[a] * unit[:, 1])
    squat_rank = (ha < 1.25 * np.maximum(wid, 1.0)[a]) & squat_suits
    small_suit = (
        (dist > 0.7 * ha)
        & (dist < 1.3 * ha)
        & (hb >= 0.3 * ha)
        & (hb < 0.4 * ha)
        & (((stands > 0.9) & (ha > 1.4 * wid[a])) | squat_rank)
    )
    ok |= small_suit
    # (b, a) is the same quad half-turned, and the recogniser reads both ways: keep one of
    # the two only where both pass. The tests are not symmetric (distance and size are
    # measured against the rank), so a small suit seen as "rank" often fails them, and
    # dropping its rank-over-suit twin lost the index altogether.
    ok &= ~((b < a) & np.isin(b * n + a, a[ok] * n + b[ok]))
    keep = np.nonzero(ok)[0]  # in any order: the quads are ordered by unit below
    pi, pj = a[keep], b[keep]
    # Lone glyph: a 0.72h × 1.2h box along its long side.
    lc, lh, la = c[lone], hgt[lone], ang[lone]
    l_down = np.stack([np.cos(la), np.sin(la)], 1)
    l_quads = _rects(lc, 0.72 * lh, 1.2 * lh, l_down)
    # Pair: as pair_quad, height 2.3 × the rank–suit distance, width 0.62 × height.
    d = dist[keep]
    p_down = diff[keep] / np.maximum(d, 1e-6)[:, None]
    ph = 2.3 * d
    p_quads = _rects((c[pi] + c[pj]) / 2, 0.62 * ph, ph, p_down)
    allq = np.concatenate([l_quads, p_quads])
    # Plausibility, to keep the likeliest when a busy texture gives too many: a rank stands
    # along the rank→suit axis (its long side points at the suit); a squat rank (Q, K, A, a
    # 10 read as one blob) says nothing either way.
    along = np.abs(np.cos(ang[pi]) * p_down[:, 0] + np.sin(ang[pi]) * p_down[:, 1])
    squat = hgt[pi] < 1.25 * np.maximum(wid[pi], 1.0)
    # An index stands alone on a plain card face, texture glyphs come in crowds (the unit
    # itself counted, at distance 0).
    near = np.bincount(a[dist < 2.0 * ha], minlength=n)
    crowd = np.maximum(near - 3, 0).astype(np.float64)
    score = np.concatenate(
        [
            1.0 / (1.0 + 0.3 * crowd[lone]),
            np.where(squat, 0.7, along)
            # After the usual pairs: where both frame the same index, theirs is kept.
            * np.where(small_suit[keep], 0.3, 1.0)
            / (1.0 + 0.3 * np.maximum(crowd[pi], crowd[pj])),
        ]
    )
    # Per unit: its lone quad first, then its pairs in partner order.
    idx = np.arange(n)
    keys = np.concatenate([idx[lone] * (n + 1), pi * (n + 1) + 1 + pj])
    order = np.argsort(keys, kind="stable")
    return allq[order], score[order]


def _card_units(found: list[Glyph], apart: bool = True) -> list[Glyph]:
    """Cards: glyph groups merged (a 10's two digits), and (``apart``) each grouped glyph
    alone too: a rank wider than tall over its suit lies "side by side" across their long
    sides, so grouping merged the two and the rank-over-suit pair was never proposed (large
    indices in close-ups). Dev fold, 20-epoch dev-out model: 381 -> 387 of 432 right, spurious
    10 -> 11; 60 fresh generated scenes per deck: standard 372 -> 371 of 386, All In
    366 -> 367, spurious 6 -> 7 and 4 -> 5."""
    out = []
    for group in group_glyphs(found):
        out.append(merged(group))
        if apart and len(group) > 1:
            out += group
    return out


def _rects(
    centre: npt.NDArray[Any],
    width: npt.NDArray[Any],
    height: npt.NDArray[Any],
    down: npt.NDArray[Any],
) -> npt.NDArray[np.float32]:
    """:func:`vision.detect.rect_quad` for many rectangles at once (N × 4 × 2)."""
    right = np.stack([down[:, 1], -down[:, 0]], 1)
    hw, hh = (width / 2)[:, None], (height / 2)[:, None]
    return np.stack(corners(centre, hw, hh, right, down), 1).astype(np.float32)


FAINT = 0.55  # cards: the extra fine-ink mask's level, as a share of Otsu's
CARD_WORK_SIDE = 640  # card detection's working size (indices are small: see card_candidates)
# Cards: at most this many proposals a photo. The cap binds on busy tables (knitted blankets,
# carpet), where texture glyph pairs pushed real indices out: 500 left 16 of the dev fold's
# 432 indices unproposed and bound on 34 of its 106 photos, 1200 leaves 5 and binds on 5
# (20-epoch dev-out model: 387 -> 396 right, spurious 11 -> 13). 2000 since 2026-12-06: the
# gate (vision/proposal_gate.py) turns most texture frames away before the recogniser reads
# them, and 1200 still cut good frames of indices between a knitted blanket's loops, behind
# thousands of texture pairs. Right / spurious, 1200 -> 2000: the real training split
# 1545 / 29 -> 1553 / 30 of 1624 (shipped models), the dev fold 407 / 11 -> 410 / 14 and
# 409 / 11 -> 413 / 13 of 438 (two dev-out draws); 3000 read one more in each for the
# slowest photo's 550 ms instead of 395 (320 at 1200; the 36 of 502 photos where the cap
# binds: median 157 -> 181 ms). The median photo (~220 proposals) is not slowed.
CARD_CAP = 2000
# Where the cap binds, half of it goes to proposals on bare ground. A busy cloth's texture
# gives thousands of glyph pairs that the plausibility score (which counts neighbouring blobs
# within twice a glyph's height) ranks as high as an index, or higher: a fan's indices stand
# close to their neighbours' and to the pips, and lost their places under the cap to small
# texture pairs (seed 16 950 201, a teal speckled cloth: 14 415 proposals, the four clear
# indices of a fan ranked 201-1 566 and never read). An index lies on a card face, plain on at
# least one side; texture is ink all round. So each proposal's four neighbouring boxes (its
# own box's size, left, right, above and below) are measured in the mask it came from, and
# the barest one's ink share over BARE_FREE divides its score (BARE_WEIGHT); the cap is then
# filled from both rankings in turn, so a proposal the score alone kept in the top half still
# comes. Fresh generated tables, 300 a set, right / spurious before -> after: All In
# 1921 / 3 -> 1928 / 3 (seeds 16 950 000+, chosen on), 1863 / 8 -> 1866 / 9 (17 150 000+)
# and 1850 / 11 -> 1852 / 10 (17 350 000+); standard deck 1858 / 21 -> 1863 / 21
# (16 900 000+, chosen on), 1848 / 10 -> 1850 / 10 (17 100 000+) and 1920 / 22 -> 1921 / 21
# (17 300 000+); the real training split 1505 / 67 -> 1507 / 66 of 1603; unseen
# decks enrolled from one photo (development prints 201-208, 10 scenes each), standard deck
# 481 / 22 -> 483 / 23 of 534, All In 474 / 19 -> 482 / 18 of 540. The measure alone,
# without the old ranking's half, lost 2 and 5 indices on two knitted-blanket photos whose
# indices sit between pips and the knit. The four sides' mean instead of the barest gained
# as many in all (19), spread otherwise; a weight of 10 read as 3.
BARE_WEIGHT = 3.0
BARE_FREE = 0.05


def bare_sides(mask: npt.NDArray[Any], quads: npt.NDArray[np.float32]) -> npt.NDArray[np.float64]:
    """Per quad (N × 4 × 2, in ``mask``'s pixels), the factor :data:`BARE_WEIGHT` puts on its
    score for the ink around it: 1 where one of the four boxes beside its bounding box (each
    that box's size) holds under :data:`BARE_FREE` of ink, less the more the barest holds."""
    if len(quads) == 0:
        return np.zeros(0)
    ink = cv2.integral(mask // 255).astype(np.float64)
    h, w = mask.shape[:2]
    lo, hi = quads.min(axis=1), quads.max(axis=1)
    centre, size = (lo + hi) / 2, hi - lo
    zero = np.zeros(len(quads))

    def share(dx: npt.NDArray[Any], dy: npt.NDArray[Any]) -> npt.NDArray[np.float64]:
        c = centre + np.stack([dx, dy], 1)
        x0, y0 = (np.clip(np.round(c - size / 2), 0, [w, h]).astype(int)).T
        x1, y1 = (np.clip(np.round(c + size / 2), 0, [w, h]).astype(int)).T
        area = (x1 - x0) * (y1 - y0)
        total = ink[y1, x1] - ink[y0, x1] - ink[y1, x0] + ink[y0, x0]
        # A box wholly off the image shows nothing bare.
        return np.where(area > 0, total / np.maximum(area, 1), 1.0)

    sides = [(-size[:, 0], zero), (size[:, 0], zero), (zero, -size[:, 1]), (zero, size[:, 1])]
    barest = np.min([share(dx, dy) for dx, dy in sides], axis=0)
    factor = 1.0 / (1.0 + BARE_WEIGHT * np.maximum(barest - BARE_FREE, 0.0) / BARE_FREE)
    return np.asarray(factor, np.float64)


def card_candidates(
    image: Image,
    max_candidates: int | None = None,
    work_side: int | None = None,
    apart: bool = True,
    faint_light: bool = True,
    squat_suits: bool = True,
    washed: bool = True,
    inside: bool = True,
    texture: bool = True,
    clipped: bool = True,
    bare: bool = True,
    finest_only: bool = False,
    ink_floor: float | None = None,
) -> list[Quad]:
    """Oriented quads where a corner index (rank over suit) may be, at most
    ``max_candidates`` (None: :data:`CARD_CAP` as it is at the call).

    Pairs of glyphs (rank, suit) give one quad along their axis; a lone tall glyph (rank and
    suit printed touching) gives one along its own long side. Dark print and light print
    (dark-faced decks) are looked at apart, so the two never merge into one blob.
    ``apart``: grouped glyphs are also paired one by one (:func:`_card_units`).
    ``faint_light``: faint light print on dark faces too (:data:`FAINT_LIGHT`).
    ``squat_suits``: a suit seen small beside a squat rank (:func:`_card_quads`).
    ``washed``: a photo washed out as a whole looked at once more (:data:`WASHED_GREY`).
    ``inside``: glyphs inside a hole of other ink too. A fine check or dotted cloth joins
    into one net of ink around the cards, and a card's print lies in its hole: only the
    net's outline was found, and a fan of clear indices had no proposal at all.
    ``texture``: a busy mask leaves texture out first (:data:`vision.detect.TEXTURE_FROM`,
    :data:`vision.detect.TEXTURE_MOST`).
    ``clipped``: faint print on paper clipped to white too (:data:`CLIPPED_PAPER`).
    ``bare``: where the cap binds, half of it for proposals on bare ground
    (:data:`BARE_WEIGHT`).
    Training leaves these eight out, as the shipped models learnt without them. (The reader
    may look for small indices once more: :func:`fine_card_quads`.)
    ``finest_only``: only the finest stroke's dark and coloured print, as
    :mod:`vision.glare_look` looks at a photo again (the rest was looked at already).
    ``ink_floor``: faint print at that ink level too (:func:`card_ink_masks`), looked for
    once more with every mask: its proposals are added after the rest, only where none of
    theirs frames the same object (:func:`uncovered`), so it adds indices that had no
    proposal without reframing the ones that had.
    """
    if max_candidates is None:
        max_candidates = CARD_CAP
    side = work_side or CARD_WORK_SIDE
    f = min(1.0, side / max(image.shape[:2]))
    small = image
    if f < 1.0:
        size = (round(image.shape[1] * f), round(image.shape[0] * f))
        small = cv2.resize(image, size, interpolation=cv2.INTER_AREA)
    back = 1.0 / f
    z = max(1.0, max(small.shape[:2]) / 640)  # the sizes below are for a 640-pixel image

    def odd(k: int) -> int:
        return int(round(k * z)) | 1  # noqa: RUF046

    # Speckle (sensor noise, felt and carpet texture, the salt-and-pepper noise baked into
    # many shared photos) would otherwise become thousands of tiny "glyphs" and pairs; a 3×3
    # median removes it and keeps strokes two pixels wide or more.
    small = cv2.medianBlur(small, 3)
    # Dark and colourful print at three stroke sizes (a close-up's filled suit is wider than
    # 23 px and left only its outline), light print (dark-faced decks) at two.
    if finest_only:
        masks = card_ink_masks(small, (odd(9),), FAINT, washed, clipped, ink_floor)
    else:
        masks = card_ink_masks(small, (odd(9), odd(23), odd(45)), FAINT, washed, clipped, ink_floor)
        masks += bright_masks(small, (odd(9), odd(23)), faint_light)
    found = [
        _card_quads(
            _card_units(glyphs(mask, 4 * z, 110 * z, nested=inside, texture=texture), apart),
            squat_suits,
        )
        for mask in masks
    ]
    bares: dict[int, npt.NDArray[Any]] = {}  # each mask's bare-ground scores, when the cap binds

    def on_bare(k: int) -> npt.NDArray[Any]:
        if k not in bares:
            bares[k] = found[k][1] * bare_sides(masks[k], found[k][0])
        return bares[k]

    def ranked(keep: list[int]) -> list[Quad]:
        quads = np.concatenate([found[k][0] for k in keep]) * np.float32(back)
        score = np.concatenate([found[k][1] for k in keep])
        # A busy texture (knitting, carpet) can give thousands: keep the likeliest, and among
        # repeats the likeliest one.
        order = np.argsort(-np.round(score, 1), kind="stable")
        if bare and len(order) > max_candidates:
            ground = np.concatenate([on_bare(k) for k in keep])
            both = np.stack([order, np.argsort(-np.round(ground, 1), kind="stable")], 1).ravel()
            _, first = np.unique(both, return_index=True)
            order = both[np.sort(first)]
        order = order[: max_candidates * 2]
        return distinct([quads[i] for i in order])[:max_candidates]

    return _faint_too(ranked, len(masks), ink_floor)


def _faint_too(
    ranked: Callable[[list[int]], list[Quad]], masks: int, ink_floor: float | None
) -> list[Quad]:
    """Proposals of ``masks`` masks, each look's found once (``ranked``: those of the masks
    at the given positions, ranked under the look's cap): of every mask, or with ``ink_floor``
    (its mask at :data:`FAINT_AT`) those of the others first, then those of every mask that
    none of these frames (:func:`uncovered`)."""
    every = list(range(masks))
    if ink_floor is None:
        return ranked(every)
    usual = ranked([k for k in every if k != FAINT_AT])
    return usual + uncovered(ranked(every), usual)


# Cards: small indices once more at a finer scale. At the 640-pixel working size an index
# under ~32 px tall has strokes a pixel or two wide, which the 3x3 median (there for speckle)
# and the area averaging wipe out or break up: on fresh generated tables (100 a deck, seeds
# 3 500 000+ and 3 600 000+) indices under 25 px were missed 11-60% of the time, those of
# 35 px or more 0-5%, and 18 of 22 All In misses read right (0.9 on most) when framed where
# they lie: they were never proposed, or only in frames that cut them. The finest strokes
# are looked at again on the image at 1.5 times the working size, and the index-sized pairs
# found there are proposed after the rest, with their own cap (ranked with the rest under one
# cap, the real dev fold read 3 indices fewer).
FINE_SCALE = 1.5  # times the working size (CARD_WORK_SIDE, or the image's own when smaller)
FINE_INDEX = 32.0  # px at the working size: taller pairs were proposed already
FINE_CAP = 600  # the finer look's own proposals at most (a table's first ones: CARD_CAP)
# A mask with more blobs than this at the finer scale is a cloth's texture, and is skipped:
# pairing 1500 of them took 0.6 s a table (generated tables, seeds 3 700 000+).
FINE_GLYPHS = 600


def fine_card_quads(
    image: Image,
    faint_light: bool = True,
    squat_suits: bool = True,
    clipped: bool = True,
    ink_floor: float | None = None,
) -> list[Quad]:
    """Corner-index quads of small indices (under :data:`FINE_INDEX`), found on the image at
    :data:`FINE_SCALE` times the working size (left as it is within a tenth of that) with the
    finest stroke of :func:`card_candidates`, likeliest first."""
    f = FINE_SCALE * min(1.0, CARD_WORK_SIDE / max(image.shape[:2]))
    fine = image
    if abs(f - 1.0) >= 0.1:
        size = (round(image.shape[1] * f), round(image.shape[0] * f))
        fine = cv2.resize(image, size, interpolation=cv2.INTER_LINEAR)
    else:
        f = 1.0
    fine = cv2.medianBlur(fine, 3)
    masks = card_ink_masks(fine, (9,), FAINT, clipped=clipped, ink_floor=ink_floor)
    masks += bright_masks(fine, (9,), faint_light)
    none = (np.zeros((0, 4, 2), np.float32), np.zeros(0))
    found = []
    for mask in masks:
        units = glyphs(mask, 4, 110, limit=FINE_GLYPHS + 1)
        found.append(
            _card_quads(_card_units(units), squat_suits) if len(units) <= FINE_GLYPHS else none
        )

    def ranked(keep: list[int]) -> list[Quad]:
        quads = np.concatenate([none[0], *(found[k][0] for k in keep)])
        score = np.concatenate([none[1], *(found[k][1] for k in keep)])
        small = np.linalg.norm(quads[:, 3] - quads[:, 0], axis=1) < FINE_INDEX * FINE_SCALE
        quads, score = quads[small] / np.float32(f), score[small]
        order = np.argsort(-np.round(score, 1), kind="stable")[: FINE_CAP * 2]
        return [quads[i] for i in order]

    return _faint_too(ranked, len(masks), ink_floor)
