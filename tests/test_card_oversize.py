"""A read framed far wider than the photo's indices is no index (vision.reader.CARD_OVERSIZE),
however sure the model is of it, and it takes no real index's place."""

from __future__ import annotations

import numpy as np
import pytest

from vision import detect, reader, synth
from vision.evaluate import score
from vision.reader import TableReader

# A dark-faced king of diamonds beside a ten of diamonds: a proposal round the whole ten read
# as a joker at 0.98, its frame nine indices wide, over the king's lower index.
WHOLE_CARD_JOKER = 20_300_026


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


def test_a_whole_card_read_as_a_joker_does_not_hide_the_index_under_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    scene = synth.card_scene(np.random.default_rng(WHOLE_CARD_JOKER), "cards")
    assert "X" not in [t.label for t in scene.truths]

    def read() -> tuple[list[str], int, int]:
        objects = TableReader("cards").read(scene.image).objects
        s = score(objects, scene.truths, partial=scene.partial)
        wide = [o.label for o in objects if detect.short_side(o.quad) > 150]
        return wide, s.right, s.spurious

    monkeypatch.setattr(reader, "CARD_OVERSIZE", None)
    wide, right, spurious = read()
    assert wide == ["X"] and spurious == 1
    monkeypatch.undo()
    wide_now, right_now, spurious_now = read()
    assert wide_now == [] and spurious_now == 0
    assert right_now == right + 1  # the king's lower index, under the joker's frame before
