"""A read framed far wider than the photo's indices is no index (vision.reader.CARD_OVERSIZE),
however sure the model is of it, and it takes no real index's place."""

from __future__ import annotations

import numpy as np
import pytest

from vision import detect, reader, synth
from vision.evaluate import score
from vision.reader import TableReader

# Five cards, both indices of each in sight: a proposal round a whole 9 of diamonds read as a
# joker at 0.85, its frame eight indices wide, won the overlap with the 9's own index; the
# word was dropped later as a frame round other reads (detect.word_parts), the 9 with it.
WHOLE_CARD_JOKER = 20_300_002


def _box(x: float, y: float, w: float, h: float) -> np.ndarray:
    return np.array([[x, y], [x + w, y], [x + w, y + h], [x, y + h]], np.float32)


def test_a_frame_over_three_times_the_photos_index_width_is_dropped() -> None:
    quads = [_box(10 * k, 0, 20, 32) for k in range(5)] + [_box(0, 100, 61, 200)]
    assert detect.short_side(quads[-1]) == pytest.approx(61)
    assert reader._index_sized(quads, list(range(6))) == [0, 1, 2, 3, 4]
    # Up to three times as wide stays: a joker's word, a loose frame of a near card.
    quads[-1] = _box(0, 100, 59, 200)
    assert reader._index_sized(quads, list(range(6))) == list(range(6))


def test_with_few_reads_no_width_is_typical() -> None:
    quads = [_box(10 * k, 0, 20, 32) for k in range(3)] + [_box(0, 100, 200, 200)]
    assert reader._index_sized(quads, list(range(4))) == [0, 1, 2, 3]


def test_a_whole_card_read_as_a_joker_does_not_take_an_index_s_place(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    scene = synth.card_scene(np.random.default_rng(WHOLE_CARD_JOKER), "cards")
    assert "X" not in [t.label for t in scene.truths] and len(scene.truths) == 10

    def read() -> tuple[int, int, list[str]]:
        objects = TableReader("cards").read(scene.image).objects
        s = score(objects, scene.truths, partial=scene.partial)
        return s.right, s.spurious, sorted(o.label for o in objects)

    monkeypatch.setattr(reader, "CARD_OVERSIZE", None)
    right, spurious, labels = read()
    assert (right, spurious) == (9, 0) and labels.count("9D") == 1
    monkeypatch.undo()
    assert read() == (10, 0, sorted(t.label for t in scene.truths))
