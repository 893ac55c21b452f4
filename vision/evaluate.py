"""Scoring reads against ground truth: shared by the benchmark and the accuracy tests.

An object counts as *right* when a read matches it (:func:`vision.matching.same_object`) and
names it correctly; a read that matches no object (and no ignored region such as a card's
back) is *spurious*. Each read matches at most one object, best confidence first. A read that
names a partly covered object (``partial``: not demanded, see :class:`vision.synth.Scene`)
correctly is counted apart, as ``partial``; named wrongly it is spurious.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

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
    confusions: Counter[tuple[str, str]] = field(default_factory=Counter)  # (truth, read)

    def add(self, other: Score) -> None:
        self.objects += other.objects
        self.right += other.right
        self.found += other.found
        self.reads += other.reads
        self.spurious += other.spurious
        self.partial += other.partial
        self.confusions.update(other.confusions)

    @property
    def accuracy(self) -> float:
        return self.right / self.objects if self.objects else 1.0

    @property
    def spurious_rate(self) -> float:
        return self.spurious / self.reads if self.reads else 0.0

    def to_json(self) -> dict[str, float | int]:
        return {
            "objects": self.objects,
            "right": self.right,
            "found": self.found,
            "accuracy": round(self.accuracy, 4),
            "reads": self.reads,
            "spurious": self.spurious,
            "spurious_rate": round(self.spurious_rate, 4),
            "partly_covered_read": self.partial,
        }


def score(
    reads: list[Found],
    truths: list[Truth],
    ignore: list[Quad] | None = None,
    partial: list[Truth] | None = None,
) -> Score:
    s = Score(objects=len(truths), reads=len(reads))
    taken: set[int] = set()
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
            elif not any(same_object(r.quad, q) for q in ignore or []):
                s.spurious += 1
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
