"""Why a labelled card index was not read right: the breakdown the benchmark writes.

Each labelled index that :func:`vision.evaluate.score` does not count right falls in one
bucket, decided in this order:

* ``framed_apart``: a kept read names the right card at the index's place (each centre
  inside the other), in a frame more than three times larger or smaller than the labelled
  box (the hand-drawn boxes are loose around some photos' corners, and a sliver of a tightly
  fanned index is boxed narrower than an index's frame): read right, scored as missed, and
  that read is counted spurious as well;
* ``no_proposal``: no proposal (the detector's, its finer look's where the reader takes one,
  or the reader's reframing of one) covers it
  (:func:`vision.matching.same_object`);
* ``wrong_label``: a kept read covers it but names another card;
* ``lost_to_overlap``: a proposal over it was read right above the confidence floor, but
  :func:`vision.overlaps.suppress` / ``drop_repeats`` kept an overlapping read instead, or the
  reader's verification in other framings (``CARD_VERIFY``) took the read back;
* ``right_below_floor``: a proposal over it was read as the right card, under the floor;
* ``turned_away``: the gate (:mod:`vision.proposal_gate`) turned away a proposal over it
  that the recogniser, asked, names as the right card;
* ``none_right_runner_up``: the model said ``none`` over it, with the right card its likeliest
  object;
* ``nothing``: every proposal over it was read ``none`` or another card under the floor.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from vision.crops import crops
from vision.evaluate import score
from vision.labels import NONE
from vision.matching import same_object, same_place
from vision.reader import Reading, TableReader, first_proposals
from vision.recognise import Read
from vision.synth import Quad, Truth

BUCKETS = (
    "framed_apart",
    "no_proposal",
    "wrong_label",
    "lost_to_overlap",
    "right_below_floor",
    "turned_away",
    "none_right_runner_up",
    "nothing",
)


def _asked(reader: TableReader, image: Any, quads: list[Quad]) -> list[Read]:
    """The reads of ``quads`` had the gate let them through."""
    return reader._classify(crops(image, quads, reader.recogniser.spec.crop))


def miss_buckets(
    reader: TableReader,
    image: Any,
    truths: list[Truth],
    ignore: list[Quad] | None = None,
    reading: Reading | None = None,
) -> Counter[str]:
    """The missed indices of one photo, counted per bucket (see the module's docstring)."""
    return Counter(bucket for _, bucket in missed(reader, image, truths, ignore, reading))


def missed(
    reader: TableReader,
    image: Any,
    truths: list[Truth],
    ignore: list[Quad] | None = None,
    reading: Reading | None = None,
) -> list[tuple[Truth, str]]:
    """Each missed index of one photo with its bucket, in the order of ``truths``."""
    reading = reading or reader.read(image)
    image, quads = first_proposals("cards", image)  # as the reader saw it
    reads = reader._recognise(crops(image, quads, reader.recogniser.spec.crop))
    quads, reads = reader._look_finer(image, quads, reads, {})
    if reader.reframes:
        quads, reads = reader._reframe(image, quads, reads)
    out: list[tuple[Truth, str]] = []
    for t in truths:
        if score(reading.objects, [t], ignore).right:
            continue
        out.append((t, _bucket(reader, image, t, quads, reads, reading)))
    return out


def _bucket(
    reader: TableReader,
    image: Any,
    t: Truth,
    quads: list[Quad],
    reads: list[Read],
    reading: Reading,
) -> str:
    """The bucket of one missed index ``t``, tried in the module docstring's order."""
    kept = [o for o in reading.objects if same_object(o.quad, t.quad)]
    over = [r for q, r in zip(quads, reads, strict=True) if same_object(q, t.quad)]
    pairs = zip(quads, reads, strict=True)
    away = [q for q, r in pairs if r.looks == 0 and same_object(q, t.quad)]
    if any(o.label == t.label and same_place(o.quad, t.quad) for o in reading.objects):
        return "framed_apart"
    if not over:
        return "no_proposal"
    if any(o.label != t.label for o in kept):
        return "wrong_label"
    if any(r.label == t.label and r.confidence >= reader.read_floor for r in over):
        return "lost_to_overlap"
    if any(r.label == t.label for r in over):
        return "right_below_floor"
    if away and any(r.label == t.label for r in _asked(reader, image, away)):
        return "turned_away"
    if any(r.label == NONE and r.alternatives and r.alternatives[0][0] == t.label for r in over):
        return "none_right_runner_up"
    return "nothing"
