"""Why a labelled card index was missed (`vision.card_misses`, the bench's `missed_by_cause`)."""

from __future__ import annotations

from functools import cache

import numpy as np

from vision.card_misses import BUCKETS, miss_buckets
from vision.detect import rect_quad
from vision.reader import Found, Reading, TableReader
from vision.synth import Truth


@cache
def reader() -> TableReader:
    return TableReader("cards")


def _buckets(objects: list[Found], truth: Truth) -> dict[str, int]:
    blank = np.full((300, 300, 3), 90, np.uint8)  # nothing proposed on it
    out = miss_buckets(reader(), blank, [truth], reading=Reading(objects))
    assert sum(out.values()) == 1 and set(out) <= set(BUCKETS)
    return dict(out)


def test_a_right_read_in_a_frame_far_from_the_boxes_size_is_framed_apart() -> None:
    truth = Truth("7H", rect_quad(np.array([150.0, 150.0], np.float32), 60, 90, 90.0))
    # The index read right in a frame a third of the box's size each way (a loose box).
    tight = rect_quad(np.array([152.0, 148.0], np.float32), 22, 33, 90.0)
    assert _buckets([Found("7H", 0.9, tight, [])], truth) == {"framed_apart": 1}
    # The same frame naming another card is no right read.
    assert _buckets([Found("7D", 0.9, tight, [])], truth) == {"no_proposal": 1}
    # A right read that lies elsewhere says nothing about this index.
    away = rect_quad(np.array([40.0, 40.0], np.float32), 22, 33, 90.0)
    assert _buckets([Found("7H", 0.9, away, [])], truth) == {"no_proposal": 1}


def test_a_dim_photos_misses_are_sorted_by_the_proposals_the_reader_saw() -> None:
    # A generated table darkened to 0.3 of its light: the reader brightens it before
    # proposing, so an index it then misses was proposed, not "no_proposal" (half of this
    # table's indices were, on the photo as taken).
    import cv2

    from vision import synth

    scene = synth.card_scene(
        np.random.default_rng(6_000_003), "cards", layout="apart", lighting="even"
    )
    dim = cv2.convertScaleAbs(scene.image, alpha=0.3)
    out = miss_buckets(reader(), dim, scene.truths, reading=Reading([]))
    assert sum(out.values()) == len(scene.truths) == 4
    assert out["no_proposal"] == 0
