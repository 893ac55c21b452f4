"""Scoring Four Color and Cactus reads against generated tables: shared by the benchmark and
the accuracy tests.

A card *must* be read when what names it shows: a Four Color card whose top or bottom
character is at least 60% uncovered (as in a fanned hand), a Cactus card whose name band is at
least 80% uncovered, in both cases inside the photo (a character half out of frame shows no
more than one half under a card). Cards showing less (in the middle of a fanned hand, under
the top of a discard pile) *may* be read: a right read of one counts for nothing, a wrong one
is spurious. A read matches the card whose quad it overlaps most (intersection over union at
least 0.3, a card of the read's label first); each card takes one read, surest first. A read
matching no card is spurious.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from vision import synth_cactus, synth_fourcolor
from vision.evaluate import Score
from vision.overlaps import quad_iou
from vision.reader import Found

MUST = {"fourcolor": 0.6, "cactus": 0.8}  # share of the naming part uncovered to count
MATCH_IOU = 0.3


@dataclass(frozen=True)
class TruthCard:
    label: str
    quad: np.ndarray
    must: bool


def fourcolor_truth(scene: synth_fourcolor.FourColorScene) -> list[TruthCard]:
    shown = [0.0] * len(scene.objects)
    for ch in scene.characters(in_photo=True):
        shown[ch.card] = max(shown[ch.card], ch.visible)
    return [
        TruthCard(o.label, o.quad, v >= MUST["fourcolor"])
        for o, v in zip(scene.objects, shown, strict=True)
    ]


def cactus_truth(scene: synth_cactus.CactusScene) -> list[TruthCard]:
    return [
        TruthCard(o.label, o.quad, v >= MUST["cactus"])
        for o, (_, v) in zip(scene.objects, scene.bands(in_photo=True), strict=True)
    ]


def score(reads: Sequence[Found], truths: list[TruthCard]) -> Score:
    s = Score(objects=sum(t.must for t in truths), reads=len(reads))
    taken: set[int] = set()
    for r in sorted(reads, key=lambda r: -r.confidence):
        ious = [quad_iou(np.asarray(r.quad, np.float32), t.quad.astype(np.float32)) for t in truths]
        options = [i for i in range(len(truths)) if i not in taken and ious[i] >= MATCH_IOU]
        if not options:
            s.spurious += 1
            continue
        same = [i for i in options if truths[i].label == r.label]
        best = max(same or options, key=lambda i: ious[i])
        taken.add(best)
        t = truths[best]
        if t.label != r.label:
            s.spurious += not t.must  # a wrong read of a card that need not be read
        if t.must:
            s.found += 1
            s.confusions[(t.label, r.label)] += 1
            s.right += t.label == r.label
    for i, t in enumerate(truths):
        if t.must and i not in taken:
            s.confusions[(t.label, "missed")] += 1
    return s


def melds_right(read: Sequence[Sequence[str]], truth: Sequence[Sequence[str]]) -> int:
    """How many of the true melds (those a reader reports: two cards or more, or a lone
    general) were read whole, each in either direction."""
    left = [list(m) for m in read]
    n = 0
    for m in truth:
        if len(m) < 2 and not m[0].endswith("G"):
            continue
        for cand in (list(m), list(m)[::-1]):
            if cand in left:
                left.remove(cand)
                n += 1
                break
    return n


def reportable_melds(truth: Sequence[Sequence[str]]) -> int:
    return sum(len(m) > 1 or m[0].endswith("G") for m in truth)
