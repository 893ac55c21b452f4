"""Scoring reads against ground truth: shared by the benchmark and the accuracy tests.

An object counts as *right* when a read matches it (:func:`vision.matching.same_object`) and
names it correctly; a read that matches no object (and no ignored region such as a card's
back) is *spurious*. Each read matches at most one object, best confidence first. A read that
names a partly covered object (``partial``: not demanded, see :class:`vision.synth.Scene`)
correctly is counted apart, as ``partial``; named wrongly it is spurious.

Card photos often label a card at one corner index only. With ``other_corners``, a read on no
labelled object that names such a card *at the place where that card's other index must be*
(:func:`other_corner`) is a real object read right: counted as ``unlabelled_corner_right``,
not spurious. ``spurious_raw`` keeps the count without that rule.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

import numpy as np

from vision.matching import same_object
from vision.reader import Found
from vision.synth import Quad, Truth


@dataclass
class Score:
    objects: int = 0
    right: int = 0
    found: int = 0  # matched by a read, whatever its label
    reads: int = 0
    spurious: int = 0
    partial: int = 0  # right reads of partly covered objects: neither demanded nor spurious
    # Card photos: right reads of a labelled card's unlabelled other corner (other_corner).
    unlabelled_corner: int = 0
    corners_checked: bool = False  # whether the rule was applied (it adds two JSON keys)
    confusions: Counter[tuple[str, str]] = field(default_factory=Counter)  # (truth, read)
    # The spurious reads themselves, for a developer's list of them (`bench._sweep --list`).
    strays: list[Found] = field(default_factory=list, compare=False, repr=False)

    def add(self, other: Score) -> None:
        self.objects += other.objects
        self.right += other.right
        self.found += other.found
        self.reads += other.reads
        self.spurious += other.spurious
        self.partial += other.partial
        self.unlabelled_corner += other.unlabelled_corner
        self.corners_checked |= other.corners_checked
        self.confusions.update(other.confusions)
        self.strays += other.strays

    @property
    def accuracy(self) -> float:
        return self.right / self.objects if self.objects else 1.0

    @property
    def spurious_rate(self) -> float:
        return self.spurious / self.reads if self.reads else 0.0

    def to_json(self) -> dict[str, float | int]:
        out: dict[str, float | int] = {
            "objects": self.objects,
            "right": self.right,
            "found": self.found,
            "accuracy": round(self.accuracy, 4),
            "reads": self.reads,
            "spurious": self.spurious,
            "spurious_rate": round(self.spurious_rate, 4),
            "partly_covered_read": self.partial,
        }
        if self.corners_checked:
            out["unlabelled_corner_right"] = self.unlabelled_corner
            out["spurious_raw"] = self.spurious + self.unlabelled_corner
        return out


# Where a card's other corner index lies, from the one read (calibrated on the training
# photos: 1154 right reads of a card whose other corner is labelled too, 96-99% inside each
# bound). Offsets are in the read index's frame, in units of its height; sizes compare the
# labelled box with the read's axis-aligned box (a half turn leaves that box's size alone).
CORNER_ACROSS = (1.1, 4.2)  # |offset| across the index (card width side)
CORNER_ALONG = (1.2, 4.6)  # |offset| along the index (rank to suit)
CORNER_SIZE = (0.33, 1.6)  # labelled box width, height / the read's box width, height


def other_corner(read: Quad, labelled: Quad) -> bool:
    """Whether ``read`` (TL TR BR BL, oriented as read) lies where the other corner index of
    the card labelled at ``labelled`` must be: the two indices of a card sit at diagonally
    opposite corners, half-turned to each other, so seen from one the other lies both across
    and along it, on the same diagonal side (offsets of the same sign either way up), at a
    card's distance, and its box has the same size."""
    down = (read[3] + read[2]) / 2 - (read[0] + read[1]) / 2
    h = float(np.linalg.norm(down))
    if h < 1e-6:
        return False
    down = down / h
    right = np.array([down[1], -down[0]], np.float32)
    d = labelled.mean(0) - read.mean(0)
    across, along = float(d @ right) / h, float(d @ down) / h
    if across * along <= 0:  # the mirror corner: no index there
        return False
    w, hh = labelled.max(0) - labelled.min(0)
    # A tall labelled box holds an upright (or upside-down) index, a wide one an index on its
    # side: the other index stands the same way (within 30 degrees).
    if (hh > 1.25 * w and abs(float(down[1])) < 0.87) or (
        w > 1.25 * hh and abs(float(down[0])) < 0.87
    ):
        return False
    if not CORNER_ACROSS[0] <= abs(across) <= CORNER_ACROSS[1]:
        return False
    if not CORNER_ALONG[0] <= abs(along) <= CORNER_ALONG[1]:
        return False
    box = np.maximum(read.max(0) - read.min(0), 1e-6)
    size = (labelled.max(0) - labelled.min(0)) / box
    return bool(np.all((size >= CORNER_SIZE[0]) & (size <= CORNER_SIZE[1])))


def score(
    reads: list[Found],
    truths: list[Truth],
    ignore: list[Quad] | None = None,
    partial: list[Truth] | None = None,
    other_corners: bool = False,
) -> Score:
    s = Score(objects=len(truths), reads=len(reads), corners_checked=other_corners)
    taken: set[int] = set()
    vouched: set[int] = set()  # labelled indices whose other corner was read already
    for r in sorted(reads, key=lambda r: -r.confidence):
        best = None
        for i, t in enumerate(truths):
            if i in taken or not same_object(r.quad, t.quad):
                continue
            if best is None or t.label == r.label:
                best = i
                if t.label == r.label:
                    break
        if best is None:
            if any(p.label == r.label and same_object(r.quad, p.quad) for p in partial or []):
                s.partial += 1
            elif any(same_object(r.quad, q) for q in ignore or []):
                pass
            elif other_corners and (k := _vouching(r, truths, vouched)) is not None:
                vouched.add(k)
                s.unlabelled_corner += 1
            else:
                s.spurious += 1
                s.strays.append(r)
            continue
        taken.add(best)
        s.found += 1
        s.confusions[(truths[best].label, r.label)] += 1
        if truths[best].label == r.label:
            s.right += 1
    for i, t in enumerate(truths):
        if i not in taken:
            s.confusions[(t.label, "missed")] += 1
    return s


def _vouching(read: Found, truths: list[Truth], vouched: set[int]) -> int | None:
    """The labelled index whose card's other corner ``read`` is, if any: the card must be
    labelled exactly once in the photo (twice, both its corners are labelled already)."""
    same = [i for i, t in enumerate(truths) if t.label == read.label]
    if len(same) != 1 or same[0] in vouched:
        return None
    return same[0] if other_corner(read.quad, truths[same[0]].quad) else None
