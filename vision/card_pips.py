"""A standard card's suit read from its pips where its corner index leaves it in doubt.

An index's suit can be a few pixels (a small index far from the camera): a club and a spade,
a heart and a diamond, then look alike. The card's pips beside the index are the same suit,
drawn larger. Each pip is found as an index-sized frame with the pip in its lower part
(:func:`pip_frames`), cut out square (:func:`pip_squares`) and read by the pip recogniser
(``models/pips.onnx``, :mod:`vision.train_pips`), which names its suit or says it is no pip.
The card recogniser read these frames before: its suit factor had learnt card faces' pips
as nothing, and about 3 in 10 of the blobs found lie off the card, so its votes were noisy.

Pips are trusted only where they must be the card's own: in the card's body beside the index
(one diagonal side or the other, as the index may be read either way up), where no other
card's index lies (a fan or an overlap puts another card there), and only to choose between
the two suits of the index's own colour (spades or clubs, hearts or diamonds).
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np
import numpy.typing as npt

from vision.card_mates import Frames
from vision.crops import Image, crop
from vision.labels import NONE

Quad = npt.NDArray[np.float32]

# The card body beside an index, in its frame, in index heights: across and along.
PIP_ACROSS = (0.6, 4.0)
PIP_ALONG = (-0.6, 4.0)
PIP_SIDE = (0.25, 0.9)  # a pip's box sides, in index heights
PIP_FILL = 0.3  # a pip fills at least this share of its box (a stroke of a letter fills less)
PIP_NEAREST = 4  # pips read, nearest the index first
_PX = 12.0  # pixels per index height the body is looked at in
PAIRS = (("S", "C"), ("H", "D"))


def suit_shares(probs: npt.NDArray[np.float32], names: Sequence[str]) -> dict[str, float]:
    """The probability of each suit, summed over ranks (``none`` and the joker left out)."""
    out: dict[str, float] = {}
    for p, name in zip(probs.tolist(), names, strict=True):
        if len(name) >= 2 and name != NONE:
            out[name[-1]] = out.get(name[-1], 0.0) + float(p)
    total = sum(out.values()) or 1.0
    return {s: v / total for s, v in out.items()}


def pip_frames(image: Image, index: Quad, others: Sequence[Quad] = ()) -> list[Quad]:
    """Index-sized frames around the pips beside ``index`` (nearest first, at most
    PIP_NEAREST): ink blobs of a pip's size in the card body on either diagonal side, leaving
    out a side where the centre of any of ``others`` (other cards' indices) lies."""
    frame = Frames([index])
    c, a, d = frame.centre[0], frame.across[0], frame.down[0]
    w, h = float(frame.width[0]), max(float(frame.height[0]), 1e-9)
    found: list[tuple[float, Quad]] = []
    for sign in (1.0, -1.0):
        rel = [(np.asarray(o, np.float64).mean(0) - c) * sign for o in others]
        if any(
            PIP_ACROSS[0] <= float(v @ a) / h <= PIP_ACROSS[1]
            and PIP_ALONG[0] <= float(v @ d) / h <= PIP_ALONG[1]
            for v in rel
        ):
            continue

        def at(u: float, v: float, sign: float = sign) -> npt.NDArray[np.float64]:
            return np.asarray(c + sign * (u * h * a + v * h * d), np.float64)

        (a0, a1), (l0, l1) = PIP_ACROSS, PIP_ALONG
        region = np.array([at(a0, l0), at(a1, l0), at(a1, l1), at(a0, l1)], np.float32)
        size = (int((a1 - a0) * _PX), int((l1 - l0) * _PX))
        grey = cv2.cvtColor(crop(image, region, size), cv2.COLOR_BGR2GRAY)
        ink = cv2.adaptiveThreshold(
            grey, 255, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY_INV, 2 * int(_PX) + 1, 12
        )
        n, _, stats, centres = cv2.connectedComponentsWithStats(ink)
        for k in range(1, n):
            x, y, bw, bh, area = (int(v) for v in stats[k])
            if not all(PIP_SIDE[0] * _PX <= s <= PIP_SIDE[1] * _PX for s in (bw, bh)):
                continue
            if x == 0 or y == 0 or x + bw >= size[0] or y + bh >= size[1]:
                continue  # cut by the region's edge: a card's edge, a larger shape
            if area < PIP_FILL * bw * bh:
                continue
            u, v = a0 + centres[k][0] / _PX, l0 + centres[k][1] / _PX
            # The pip sits where an index's suit does: in the frame's lower part.
            mid = at(u, v) - sign * 0.25 * h * d
            half_a, half_d = sign * 0.5 * w * a, sign * 0.5 * h * d
            pip = np.array(
                [
                    mid - half_a - half_d,
                    mid + half_a - half_d,
                    mid + half_a + half_d,
                    mid - half_a + half_d,
                ],
                np.float32,
            )
            found.append((float(np.hypot(u, v)), pip))
    found.sort(key=lambda f: f[0])
    return [f for _, f in found[:PIP_NEAREST]]


PIP_LOOK_BELOW = 0.85  # an index's suit share under which its pips are looked at


def redivided(
    old: float, new: float, pips: Sequence[dict[str, float]], old_suit: str, new_suit: str
) -> float:
    """The index's probability for the card in the pips' suit once the pips have spoken: the
    index's probability for the two cards of that rank and colour (``old`` + ``new``),
    divided between them as the index and every pip together have it."""
    on_new, on_old = new, old
    for shares in pips:
        on_new *= shares.get(new_suit, 0.0)
        on_old *= shares.get(old_suit, 0.0)
    return (old + new) * on_new / max(on_new + on_old, 1e-12)


# The pips decide with the index: the suit of the index's colour it did not name is taken
# where, with every pip read (:func:`redivided`), it holds at least PIP_POSTERIOR of the two
# cards' probability, at least PIP_LEAST pips were read, and the index itself gives that card
# at least PIP_INDEX_LEAST. Pips the pip recogniser finds surer nothing than PIP_NOT_PIP are
# left out. On 1200 development tables (seeds 18 000 000, 18 100 000, 18 300 000, 400 each;
# a pip model trained without the real dev fold) this read 2525 / 23 -> 2531 / 23, 2467 / 19
# -> 2472 / 19 and 2541 / 16 -> 2543 / 16 (right / spurious) against the votes the card
# recogniser's reads of the pips cast before, and the real dev fold 404 / 23 either way
# (models/LIMITS.md, 2026-12-04 evening).
PIP_POSTERIOR = 0.85
PIP_LEAST = 2
PIP_INDEX_LEAST = 0.02
PIP_NOT_PIP = 0.5


def pip_shares(probs: npt.NDArray[np.float32], names: Sequence[str]) -> list[dict[str, float]]:
    """Each pip's suit shares from the pip recogniser's probabilities (rows over ``names``,
    the four suits then ``none``), the rows it finds no pip (``none`` at PIP_NOT_PIP or more)
    left out."""
    suits = [n for n in names if n != NONE]
    at = [names.index(s) for s in suits]
    none = names.index(NONE)
    out = []
    for row in probs:
        if float(row[none]) >= PIP_NOT_PIP:
            continue
        total = max(float(row[at].sum()), 1e-12)
        out.append({s: float(row[i]) / total for s, i in zip(suits, at, strict=True)})
    return out


def other_suit(label: str) -> str | None:
    """The other suit of ``label``'s colour (S and C, H and D); None for no standard suit."""
    pair = next((p for p in PAIRS if label[-1:] in p), None)
    if pair is None or len(label) < 2:
        return None
    return pair[1] if label[-1] == pair[0] else pair[0]


def pip_suit(
    label: str, p_old: float, p_new: float, pips: Sequence[dict[str, float]]
) -> str | None:
    """The other suit of ``label``'s colour where its pips (each pip's suit shares) outweigh
    the index: ``p_old`` and ``p_new`` are the index's probabilities for the card read and for
    the same rank in that other suit. None where the read stands."""
    suit = other_suit(label)
    if suit is None or len(pips) < PIP_LEAST or p_new < PIP_INDEX_LEAST:
        return None
    pair = p_old + p_new
    if redivided(p_old, p_new, pips, label[-1], suit) < PIP_POSTERIOR * pair:
        return None
    return suit


def pip_squares(frames: Sequence[Quad]) -> list[Quad]:
    """The pip itself in each of :func:`pip_frames`' frames (its lower half holds the pip): a
    square of PIP_SQUARE index heights about it, turned as the frame is, for the pip
    recogniser."""
    if not frames:
        return []
    f = Frames(list(frames))
    out = []
    for k in range(len(frames)):
        centre = f.centre[k] + 0.25 * f.height[k] * f.down[k]
        half = PIP_SQUARE * f.height[k] / 2
        a, d = f.across[k] * half, f.down[k] * half
        out.append(
            np.array([centre - a - d, centre + a - d, centre + a + d, centre - a + d], np.float32)
        )
    return out


PIP_SQUARE = 0.8  # a pip's crop side, in index heights (pips are 0.25-0.9 of one: PIP_SIDE)
