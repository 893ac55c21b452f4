"""Group Four Color cards lying on the table into exposed melds.

An exposed meld is laid as a row: parallel cards side by side, each about one card width from
the next, with a wider gap before the next meld. A fanned hand is different: each card is
turned a little further than its neighbour and covers most of it. So two cards belong to one
meld when they are parallel, level, and a card width apart; cards that overlap a non-parallel
card belong to a fan and to no meld. Works on whole-card quads or on index quads alike, since
every test is relative to the quad's own size.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.union_find import linked_groups

PARALLEL_DEG = 6.0  # cards of one meld lie parallel to within this
STEP_RANGE = (0.6, 1.6)  # centre-to-centre along the row, in card widths
LEVEL = 0.3  # sideways offset allowed across the row, in card heights
FAN_OVERLAP = 0.15  # a card covering this much of a non-parallel card is in a fan
STACKED = 0.4  # a card covering this much of any card is in a fan


@dataclass(frozen=True)
class _Card:
    centre: NDArray[np.float64]
    along: NDArray[np.float64]  # unit vector from the card's left edge to its right edge
    width: float
    height: float
    angle: float  # degrees
    poly: NDArray[np.float32]


def _card(quad: Sequence[Sequence[float]]) -> _Card:
    q = np.asarray(quad, dtype=np.float64).reshape(4, 2)
    top, bottom = q[1] - q[0], q[2] - q[3]
    along = top + bottom
    along /= max(float(np.linalg.norm(along)), 1e-9)
    width = (float(np.linalg.norm(top)) + float(np.linalg.norm(bottom))) / 2
    height = (float(np.linalg.norm(q[3] - q[0])) + float(np.linalg.norm(q[2] - q[1]))) / 2
    angle = float(np.degrees(np.arctan2(along[1], along[0])))
    return _Card(q.mean(axis=0), along, width, height, angle, q.astype(np.float32))


def _angle_diff(a: float, b: float) -> float:
    d = abs(a - b) % 360.0
    return min(d, 360.0 - d)


def _overlap(a: _Card, b: _Card) -> float:
    """Area of the intersection as a fraction of the smaller card."""
    inter, _ = cv2.intersectConvexConvex(a.poly, b.poly)
    smaller = min(cv2.contourArea(a.poly), cv2.contourArea(b.poly))
    return float(inter) / smaller if smaller > 0 else 0.0


def group_melds(
    quads: Sequence[Sequence[Sequence[float]]],
    parallel_deg: float = PARALLEL_DEG,
    level: float = LEVEL,
) -> tuple[list[list[int]], list[int]]:
    """(melds, fanned): each meld is a list of indices into ``quads`` ordered along the row
    (left to right as the cards read); ``fanned`` lists the cards that lie in a fan. Looser
    ``parallel_deg`` and ``level`` suit quads whose turn is only roughly known (proposals
    around characters rather than card outlines)."""
    cards = [_card(q) for q in quads]
    n = len(cards)
    fanned: set[int] = set()
    for i in range(n):
        for j in range(i + 1, n):
            overlap = _overlap(cards[i], cards[j])
            turned = _angle_diff(cards[i].angle, cards[j].angle) > parallel_deg
            # Cards of a meld lie apart; ones turned against each other, or lying over each
            # other, are held in a fan.
            if (turned and overlap > FAN_OVERLAP) or overlap > STACKED:
                fanned.update((i, j))

    def in_a_row() -> Iterator[tuple[int, int]]:
        for i in range(n):
            for j in range(i + 1, n):
                if i in fanned or j in fanned:
                    continue
                a, b = cards[i], cards[j]
                if _angle_diff(a.angle, b.angle) > parallel_deg:
                    continue
                d = b.centre - a.centre
                w = (a.width + b.width) / 2
                h = (a.height + b.height) / 2
                step = abs(float(d @ a.along)) / w
                across = abs(float(d[0] * -a.along[1] + d[1] * a.along[0])) / h
                if STEP_RANGE[0] <= step <= STEP_RANGE[1] and across <= level:
                    yield i, j

    # A fanned card has no links, so it is a group of its own: left out.
    groups = [g for g in linked_groups(n, in_a_row()) if g[0] not in fanned]
    melds = []
    for members in groups:
        axis = np.mean([cards[i].along for i in members], axis=0)
        members.sort(key=lambda i: float(cards[i].centre @ axis))
        melds.append(members)
    # Melds in reading order: top to bottom, then left to right.
    melds.sort(key=lambda m: (round(float(cards[m[0]].centre[1]) / 50), cards[m[0]].centre[0]))
    return melds, sorted(fanned)
