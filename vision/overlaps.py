"""Which of overlapping proposals and reads stand.

Detection over-proposes on purpose (:mod:`vision.detect`): the recogniser has a ``none``
class, and overlapping candidates are resolved after recognition (:func:`suppress`), with
the rules for cards and tiles that follow it: a read kept out by a neighbour re-seated
(:func:`reseat`), one card's repeats dropped (:func:`drop_repeats`), the whole or the typical
frame preferred (:func:`prefer_whole`, :func:`prefer_typical`), a joker's word joined from
its parts (:func:`join_words`). :func:`distinct` drops repeated proposals before any read.
"""

from __future__ import annotations

import math
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from vision.detect import Quad
from vision.union_find import linked_groups


def distinct(quads: list[Quad], tolerance: float = 0.12, start: int = 0) -> list[Quad]:
    """Drop proposals that repeat an earlier one (same place, size and slant, either way up):
    they would be recognised twice for nothing. ``start``: the first ``start`` quads are
    distinct already (kept as they are, only compared with).

    Textured tables give thousands of proposals: the pairs near enough to repeat each other
    are found at once over the quads sorted by x (a pair's centres lie closer than the later
    quad's reach, so their x do too), and only the pairs that do repeat are walked in order,
    each quad dropped when it repeats one kept before it."""
    if len(quads) - start < 1 or len(quads) < 2:
        return quads
    q = np.stack(quads)
    # In float32 as the quads are, compared in float64 (the exact test the pairwise
    # definition makes).
    centre = q.mean(axis=1).astype(np.float64)
    size = np.linalg.norm(q[:, 2] - q[:, 0], axis=1).astype(np.float64)
    edge = q[:, 1] - q[:, 0]
    angle = (np.degrees(np.arctan2(edge[:, 1], edge[:, 0])) % 180.0).astype(np.float64)
    reach = tolerance * size  # a repeat is nearer than this, and this close in size
    order = np.argsort(centre[:, 0], kind="stable")
    xs = centre[order, 0]
    lo = np.searchsorted(xs, xs - reach[order], side="right")
    hi = np.searchsorted(xs, xs + reach[order], side="left")
    counts = hi - lo
    later = np.repeat(order, counts)
    first = np.repeat(lo - np.cumsum(counts) + counts, counts) + np.arange(int(counts.sum()))
    earlier = order[first]
    pairs = earlier < later
    earlier, later = earlier[pairs], later[pairs]
    turn = np.abs(angle[earlier] - angle[later])
    repeats = (
        (np.hypot(*(centre[earlier] - centre[later]).T) < reach[later])
        & (np.abs(size[earlier] - size[later]) < reach[later])
        & (np.minimum(turn, 180.0 - turn) < 8.0)
        & (later >= start)
    )
    earlier, later = earlier[repeats], later[repeats]
    walk = np.lexsort((earlier, later))
    kept = np.ones(len(quads), bool)
    for k, i in zip(earlier[walk].tolist(), later[walk].tolist(), strict=True):
        if kept[k]:  # every quad before i is settled: the pairs are walked in i's order
            kept[i] = False
    return [quads[i] for i in np.flatnonzero(kept).tolist()]


def quad_iou(a: Quad, b: Quad) -> float:
    """Intersection over union of two convex quads."""
    inter, _ = cv2.intersectConvexConvex(a.astype(np.float32), b.astype(np.float32))
    if inter <= 0:
        return 0.0
    union = cv2.contourArea(a.astype(np.float32)) + cv2.contourArea(b.astype(np.float32)) - inter
    return float(inter / union) if union > 0 else 0.0


def suppress(
    quads: list[Quad],
    scores: list[float],
    iou: float = 0.3,
    centre_frac: float = 0.35,
    nested: bool = False,
    shaped: bool = False,
) -> list[int]:
    """Greedy non-maximum suppression; two quads clash when they overlap or share a centre,
    and with ``nested`` also when the smaller one's centre lies inside the other (tiles lie
    side by side, never one on another: a small read within a tile is a part of its face,
    such as the corner of a large digit read as another number). With ``shaped``, sharing a
    centre is measured in the smaller quad's width and height rather than its area's side
    (:class:`Frames`)."""
    frames = Frames(quads, iou, centre_frac, nested, shaped)
    order = sorted(range(len(quads)), key=lambda i: -scores[i])
    kept: list[int] = []
    for i in order:
        if not any(frames.clash(i, j) for j in kept):
            kept.append(i)
    return kept


class Frames:
    """Quads with their centres and sizes measured once, and whether two claim one object
    (:func:`suppress`'s test): resolution asks it of thousands of pairs a textured photo."""

    def __init__(
        self,
        quads: list[Quad],
        iou: float = 0.3,
        centre_frac: float = 0.35,
        nested: bool = False,
        shaped: bool = False,
    ) -> None:
        self.quads, self.iou, self.centre_frac, self.nested = quads, iou, centre_frac, nested
        self.centres = [(float(c[0]), float(c[1])) for c in (q.mean(0) for q in quads)]
        self.sizes = [math.sqrt(max(cv2.contourArea(q), 1.0)) for q in quads]
        # Each quad's across and down axes, each divided by its side's length: an offset
        # dotted with them is measured in widths and heights of that quad.
        self.axes = _axes_per_side(quads) if shaped and quads else None

    def clash(self, i: int, j: int) -> bool:
        (xi, yi), (xj, yj) = self.centres[i], self.centres[j]
        si, sj = self.sizes[i], self.sizes[j]
        apart = math.hypot(xj - xi, yj - yi)
        if self.axes is None:
            if apart < self.centre_frac * min(si, sj) * 1.6:
                return True
        else:
            # In the smaller quad's own shape: a slim card index in a tight fan has its
            # neighbour's centre one width away, inside a square of its area's side, and
            # the two are different cards. (Tiles are near square; on generated tables,
            # 5 600 000+150, they gained one read by it and three spurious ones.)
            ax, ay, bx, by = self.axes[i] if si <= sj else self.axes[j]
            dx, dy = xj - xi, yj - yi
            if math.hypot(dx * ax + dy * ay, dx * bx + dy * by) < self.centre_frac * 1.6:
                return True
        # Every point of a quad no slimmer than 1:9 lies within 1.5 times the square root of
        # its area of its centre: farther apart than that, they cannot overlap, and neither
        # centre is in the other (a distance is cheap, a polygon test is not).
        if apart >= 1.5 * (si + sj):
            return False
        qi, qj = self.quads[i], self.quads[j]
        if quad_iou(qi, qj) > self.iou:
            return True
        return (
            self.nested
            and apart < 1.5 * max(si, sj)
            and (centre_within(qi, qj) if si < sj else centre_within(qj, qi))
        )


# Fresh generated tables (seeds 90 000+250 and 95 000+250): 6408 -> 6410 of 6444 and 6248 ->
# 6251 of 6290 right, spurious 5 and 9 either way; the bench's 40 tables 1058 -> 1059; the real
# photos the same (training split 1498 of 1522, held out 450 of 451). 1.4 ms on the median
# real photo, 15 ms on the slowest, with the clash test's sizes measured once (Frames).
RESEAT_MIN = 0.8  # tiles: a read kept out by a neighbour's frame is re-seated from this rank
RESEAT_SIZE = 0.2  # ...when its height is within this share of the photo's typical tile height
RESEAT_CLOSE = 0.1  # ...and the neighbour has a frame of its label at most this much less sure


def reseat(quads: list[Quad], labels: list[str], scores: list[float], kept: list[int]) -> list[int]:
    """:func:`suppress`'s choice for tiles (``kept``), with reads it dropped for clashing with
    a neighbour's frame of another label put back where that neighbour's label has another
    frame, about as sure, that leaves them room. The recogniser reads a tile nearly as surely
    in a frame a fifth too large and shifted half a tile along its row; when that frame wins,
    it covers the next tile, whose own right read is dropped."""
    if not kept or len(quads) < 3:
        return kept
    heights = np.array([long_side(q) for q in quads])
    typical = float(np.median(heights))
    frames = Frames(quads, nested=True)
    out = list(kept)
    taken = set(out)
    by_label: dict[str, list[int]] = {}
    for i, label in enumerate(labels):
        by_label.setdefault(label, []).append(i)
    for b in sorted(range(len(quads)), key=lambda i: -scores[i]):
        if b in taken or scores[b] < RESEAT_MIN:
            continue
        if abs(math.log(max(heights[b], 1.0) / typical)) > RESEAT_SIZE:
            continue
        blockers = [k for k in out if frames.clash(b, k)]
        if not blockers or any(labels[k] == labels[b] for k in blockers):
            continue
        swaps: dict[int, int] = {}
        for k in blockers:
            others = [o for o in out if o != k] + list(swaps.values())
            options = [
                a
                for a in by_label[labels[k]]
                if a not in taken
                and a != b
                and scores[a] >= scores[k] - RESEAT_CLOSE
                and centre_within(quads[a], quads[k])
                and not frames.clash(a, b)
                and not any(frames.clash(a, o) for o in others)
            ]
            if not options:
                break
            swaps[k] = max(options, key=lambda a: scores[a])
        else:
            for k, a in swaps.items():
                out[out.index(k)] = a
                taken.add(a)
            out.append(b)
            taken.add(b)
    return out


def _axes_per_side(quads: list[Quad]) -> list[tuple[float, float, float, float]]:
    """Each quad's mean across and down sides, each as its direction divided by its length
    (all quads at once: resolution builds these for hundreds of reads a photo)."""
    q = np.asarray(quads, np.float64).reshape(-1, 4, 2)
    across = (q[:, 1] - q[:, 0] + q[:, 2] - q[:, 3]) / 2.0
    down = (q[:, 3] - q[:, 0] + q[:, 2] - q[:, 1]) / 2.0
    a = np.maximum((across**2).sum(1, keepdims=True), 1e-6)
    d = np.maximum((down**2).sum(1, keepdims=True), 1e-6)
    return [tuple(row) for row in np.hstack([across / a, down / d]).tolist()]


def centre_within(inner: Quad, outer: Quad) -> bool:
    """Whether the centre of ``inner`` lies in ``outer`` (or on its edge)."""
    c = inner.astype(np.float32).mean(0)
    return (
        cv2.pointPolygonTest(
            outer.astype(np.float32).reshape(-1, 1, 2), (float(c[0]), float(c[1])), False
        )
        >= 0
    )


def _rank_of(label: str) -> str:
    """A card token's rank (``10S`` -> ``10``, ``Qm`` -> ``Q``); a one-letter word index
    (``X``, ``R``) is its own."""
    return label[:-1] if len(label) > 1 else label


def drop_repeats(quads: list[Quad], labels: list[str], scores: list[float]) -> list[int]:
    """Indices of the reads to keep when one object was read twice under the same rank:
    a read whose centre lies inside a surer read of that rank, or that holds the surer
    one's centre, is that object framed again (an index framed too large, off-centre, a
    rank alone, or slanted across the index), which :func:`suppress` lets through when the
    frames differ in size or slant. Corner indices with the same rank lie a card apart,
    far outside each other, so the card stays read where it lies, in the surer frame.

    Until 2026-11-26 (late) the label had to be the same. The same rank (an index read again with
    its suit confused within a colour, QC 0.96 and QS 0.59 over one index): fresh generated
    tables, 300 a set, standard deck (seeds 5 700 000+) 1820 of 1875 right either way,
    spurious 22 -> 21; All In (5 800 000+) 1908 of 1966 and 9 spurious either way; the real
    training split 1497 of 1603 right either way, spurious 78 -> 76.

    Until 2026-11-26 both centres had to lie inside the other. Either one (measured with
    the reader of that day): on the real training photos' dev fold, a model trained without
    it, 393 of 432 right either way, spurious 29 -> 23; the whole training split with the
    shipped model 1504 -> 1499 right, spurious 119 -> 95; 400 fresh generated scenes
    2441 -> 2440 right, spurious 25 -> 22. Each right read lost there has its repeat of
    the same label kept over the same index, in a frame the photo's loose or tight
    hand-drawn box does not match."""
    order = sorted(range(len(quads)), key=lambda i: -scores[i])
    kept: list[int] = []
    rank = [_rank_of(label) for label in labels]
    for i in order:
        if not any(
            rank[j] == rank[i]
            and (centre_within(quads[i], quads[j]) or centre_within(quads[j], quads[i]))
            for j in kept
        ):
            kept.append(i)
    return sorted(kept)


def prefer_whole(
    quads: list[Quad], labels: list[str], scores: list[float], below: float = 0.3
) -> list[float]:
    """Scores for :func:`suppress` where a read that lies inside a much larger read of the
    same label ranks below it: a frame around the printed number alone (a joker's face, a
    number framed at a digit's size) is the recogniser's near miss of the tile around it,
    and it often reads surer than the whole tile while failing to match the tile's outline.
    (Measured on fresh generated scenes: a fifth of the Rummikub misses were such a read
    winning over the whole tile.)"""
    out = list(scores)
    if len(quads) < 2:
        return out
    areas = [float(cv2.contourArea(q.astype(np.float32))) for q in quads]
    for same in _by_label(labels):
        for i in same:
            for j in same:
                if areas[i] < below * areas[j] and centre_within(quads[i], quads[j]):
                    out[i] = min(out[i], scores[j] * 0.999)
    return out


TYPICAL_WEIGHT = 1.0  # rank lost per unit of |log(height / typical height)|
# Reads of one label this close in rank are re-ordered: the model's confidence for tiles and
# for card indices read without a profile; with a deck profile, a card read's rank is its
# nearest enrolled card's similarity (TableReader._rank), where 0.03-0.2 read alike.
TYPICAL_CLOSE = 0.06


def prefer_typical(
    quads: list[Quad], labels: list[str], scores: list[float], either: bool = False
) -> list[float]:
    """Scores for :func:`suppress` where, of two overlapping reads of the same label that are
    about as sure, the one framed at the photo's typical tile size ranks first. The recogniser
    reads a tile nearly as surely in a frame shifted a third of a tile or shrunk by a tenth,
    and such a frame can win by a hundredth; its centre then lies off the tile's and a row of
    touching tiles falls apart into two sets. Tiles in one photo are about one size (the
    median height of the reads), so the frame nearest that size is the tile's own. The card
    reader ranks a card index's frames so too (``TableReader._resolve_cards``).

    Two reads overlap when the worse fitting one's centre lies in the other's frame, or with
    ``either``, the other way round too: a card index framed twice its height and shifted
    half of it (the reader's taller reframe) holds the index's own frame's centre, while its
    own centre lies outside that frame."""
    out = list(scores)
    if len(quads) < 2:
        return out
    heights = np.array([long_side(q) for q in quads])
    typical = float(np.median(heights))
    off = TYPICAL_WEIGHT * np.abs(np.log(np.maximum(heights, 1.0) / typical))
    fit = [s - float(o) for s, o in zip(scores, off, strict=True)]
    for same in _by_label(labels):
        pairs = [
            (i, j)
            for i in same
            for j in same
            if fit[i] < fit[j]
            and scores[j] >= scores[i] - TYPICAL_CLOSE
            and (
                centre_within(quads[i], quads[j]) or (either and centre_within(quads[j], quads[i]))
            )
        ]
        # Each read goes below the rank a better fitting one ends with, not the one it began
        # with: of three frames of one tile, each nearer the tile's size than the last, the
        # worst was put under the middle one's first rank, above where the middle one itself
        # went, and won (an o11 framed 1.8 times too large). Repeated until nothing moves.
        # Fresh generated tables (seeds 90 000+250): 6406 -> 6408 of 6444, spurious 7 -> 5;
        # seeds 80 000+80, 81 000+100 and the real training photos the same.
        for _ in range(len(same)):
            changed = False
            for i, j in pairs:
                below = out[j] * 0.999
                if out[i] > below:
                    out[i] = below
                    changed = True
            if not changed:
                break
    return out


def _by_label(labels: list[str]) -> list[list[int]]:
    """Indices grouped by label, groups of two or more only: the pairwise passes compare
    reads of one label, and a photo holds hundreds of reads but few of each label."""
    groups: dict[str, list[int]] = {}
    for i, label in enumerate(labels):
        groups.setdefault(label, []).append(i)
    return [g for g in groups.values() if len(g) > 1]


def _sides(quad: Quad) -> tuple[float, float]:
    """A quad's width and height, each the mean of its two opposite sides."""
    q = quad.astype(np.float32)
    return (
        float(np.linalg.norm(q[1] - q[0]) + np.linalg.norm(q[2] - q[3])) / 2,
        float(np.linalg.norm(q[3] - q[0]) + np.linalg.norm(q[2] - q[1])) / 2,
    )


def long_side(quad: Quad) -> float:
    """A quad's longer side, its two opposite sides averaged."""
    return max(_sides(quad))


def short_side(quad: Quad) -> float:
    """A quad's shorter side, its two opposite sides averaged."""
    return min(_sides(quad))


WORD_LABELS = frozenset({"X"})  # cards whose corner index is a printed word, such as "Joker"


def word_parts(
    quads: list[Quad], labels: list[str], scores: list[float], words: frozenset[str] = WORD_LABELS
) -> list[int]:
    """Indices of the reads to keep once word indices are joined (:func:`join_words`): a
    word read whose frame holds the centres of two or more other reads framed a stretch of
    table or a card with its indices, not a word (generated scenes: a card-sized "Joker"
    frame over a seven's two corners); an index read whose centre lies in a surer word read
    is a letter of that word (a red "Joker" read as a jack or queen of hearts, its J or its
    round letters). Measured 2026-11-26 on the real training photos (dev fold, a model
    trained without it: 393 of 432 right either way, spurious 23 -> 20; the whole training
    split with the shipped model 1499 right either way, 95 -> 93) and 500 fresh generated
    scenes (3044 right either way, spurious 26 -> 25)."""
    drop: set[int] = set()
    for w, word in enumerate(labels):
        if word not in words:
            continue
        inside = [
            i
            for i, label in enumerate(labels)
            if label not in words and centre_within(quads[i], quads[w])
        ]
        if len(inside) >= 2:
            drop.add(w)
        elif inside and scores[inside[0]] < scores[w]:
            drop.add(inside[0])
    return [i for i in range(len(quads)) if i not in drop]


def join_words(
    quads: list[Quad], labels: list[str], scores: list[float], words: frozenset[str] = WORD_LABELS
) -> tuple[list[int], dict[int, Quad]]:
    """Which reads to keep when reads of a word index overlap, and the new frames: a joker's
    index is a word ("Joker" across the corner, or down it), longer than any frame an index
    gets, so several frames each read a part of it, overlapping one another yet none holding
    the other's centre (:func:`drop_repeats`). Reads of one such label whose frames overlap,
    directly or through others, are one word: the surest stays, framed around them.
    Returns the kept indices, and the new frame of each kept read that was joined."""
    at = [i for i, label in enumerate(labels) if label in words]
    links = (
        (a, b)
        for a, i in enumerate(at)
        for b, j in enumerate(at[a + 1 :], a + 1)
        if labels[i] == labels[j] and quad_iou(quads[i], quads[j]) > 0
    )
    groups = [[at[k] for k in g] for g in linked_groups(len(at), links)]
    dropped: set[int] = set()
    frames: dict[int, Quad] = {}
    for members in groups:
        if len(members) < 2:
            continue
        best = max(members, key=lambda i: scores[i])
        dropped.update(m for m in members if m != best)
        # A frame of another size is a near miss of the word (a card-sized frame around it),
        # not a part of it: the word's frame comes from parts about the surest's size.
        size = cv2.contourArea(quads[best].astype(np.float32))
        parts = [
            quads[m]
            for m in members
            if 0.5 <= cv2.contourArea(quads[m].astype(np.float32)) / max(size, 1.0) <= 2.0
        ]
        frames[best] = _frame_around(parts, quads[best])
    return [i for i in range(len(quads)) if i not in dropped], frames


def _frame_around(quads: list[Quad], like: Quad) -> Quad:
    """The smallest rotated rectangle around ``quads``, its corners in the order that keeps
    ``like``'s way up (TL TR BR BL as read)."""
    box = np.asarray(
        cv2.boxPoints(cv2.minAreaRect(np.concatenate(quads).astype(np.float32))), np.float32
    )
    like = like.astype(np.float32)

    def down(q: npt.NDArray[Any]) -> npt.NDArray[Any]:
        return np.asarray((q[3] + q[2]) / 2 - (q[0] + q[1]) / 2)

    def winding(q: npt.NDArray[Any]) -> float:
        return float(cv2.contourArea(q, oriented=True))

    if winding(box) * winding(like) < 0:
        box = box[::-1]
    shifts = [np.roll(box, -k, axis=0) for k in range(4)]
    return max(shifts, key=lambda q: float(down(q) @ down(like))).astype(np.float32)
