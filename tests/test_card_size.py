"""A card index read in a frame far larger or narrower than the indices around it is read
again at their size (:mod:`vision.card_size`)."""

from __future__ import annotations

import numpy as np
import pytest

from vision import card_size, synth
from vision.evaluate import score
from vision.matching import same_object
from vision.reader import TableReader

W, H = 30.0, 48.0


def _index(x: float, y: float, w: float = W, h: float = H, angle: float = 20.0) -> np.ndarray:
    return synth._rect_quad(x, y, w, h, angle)


def _fan(n: int) -> list[np.ndarray]:
    return [_index(200.0 + k * 1.5 * W, 300.0) for k in range(n)]


def _sides(q: np.ndarray) -> tuple[float, float]:
    return float(np.linalg.norm(q[1] - q[0])), float(np.linalg.norm(q[3] - q[0]))


def test_a_loose_frame_is_looked_at_in_nine_frames_of_its_neighbours_size_over_it() -> None:
    loose = _index(200.0 + 2 * 1.5 * W, 420.0, 1.8 * W, 1.8 * H)
    ((k, frames),) = card_size.looks([*_fan(5), loose])
    assert k == 5 and len(frames) == 9
    assert all(np.allclose(_sides(f), (W, H), atol=1e-3) for f in frames)
    centres = np.array([f.mean(axis=0) for f in frames])
    assert np.allclose(centres.mean(axis=0), loose.mean(axis=0), atol=1e-3)
    # Corner to corner: each look lies inside the loose frame and the outer ones touch its
    # sides, so wherever the index lies in it, one look frames it.
    lo, hi = loose.min(axis=0), loose.max(axis=0)
    assert all(
        (f.min(axis=0) >= lo - 1e-3).all() and (f.max(axis=0) <= hi + 1e-3).all() for f in frames
    )
    assert np.allclose(np.stack([f for f in frames]).reshape(-1, 2).min(axis=0), lo, atol=1e-3)
    # On the loose frame's own axes (20 degrees), not the axes of the image.
    edge = frames[4][1] - frames[4][0]
    assert np.isclose(np.degrees(np.arctan2(edge[1], edge[0])), 20.0, atol=1e-3)


def test_a_sliver_as_tall_as_its_neighbours_is_looked_at_in_three_frames_across_it() -> None:
    sliver = _index(200.0 + 2 * 1.5 * W, 420.0, 0.4 * W, H)
    ((k, frames),) = card_size.looks([*_fan(5), sliver])
    assert k == 5 and len(frames) == 3
    assert all(np.allclose(_sides(f), (W, H), atol=1e-3) for f in frames)


def test_frames_left_as_they_are() -> None:
    assert card_size.looks(_fan(8)) == []
    # A little loose or narrow is the detector's usual spread; a short sliver is something else.
    for odd in (_index(500, 300, 1.5 * W, 1.5 * H), _index(500, 300, 0.7 * W, H)):
        assert card_size.looks([*_fan(5), odd]) == []
    assert card_size.looks([*_fan(5), _index(500, 300, 0.4 * W, 0.5 * H)]) == []
    # Too few indices say no size; a point has none to scale from.
    assert card_size.looks([*_fan(3), _index(500, 300, 2 * W, 2 * H)]) == []
    point = np.repeat(np.array([[500.0, 300.0]], np.float32), 4, axis=0)
    assert card_size.looks([*_fan(5), point]) == []
    # A perspective photo's far cards are small among small ones; the near ones are large.
    far = [_index(200.0 + k * 0.8 * W, 100.0, 0.5 * W, 0.5 * H) for k in range(6)]
    near = [_index(200.0 + k * 2.0 * W, 700.0, 1.5 * W, 1.5 * H) for k in range(6)]
    assert card_size.looks(far + near) == []


def test_the_surest_look_naming_the_same_card_over_the_floor_is_chosen() -> None:
    a, b, c = (_index(x, 100.0) for x in (10.0, 50.0, 90.0))
    jobs = [(0, [a, b, c]), (2, [c])]
    reads = [("4D", 0.7), ("4D", 0.9), ("4H", 0.99), ("7S", 0.5)]
    out = card_size.chosen(["4D", "QS", "7S"], jobs, reads, floor=0.6)
    assert list(out) == [0] and out[0] is b  # 7S at 0.5 is under the floor: index 2 keeps its own
    with pytest.raises(ValueError, match="3 reads for 4 frames"):
        card_size.chosen(["4D", "QS", "7S"], jobs, reads[:3], floor=0.6)


@pytest.fixture(scope="module")
def reader() -> TableReader:
    return TableReader("cards")


@pytest.mark.parametrize(
    ("seed", "label"),
    # Development tables where the card was read right in a frame about 1.8 times the
    # index's size (4D), or in a sliver under half its width (QD, both corners).
    [(18_000_329, "4D"), (18_000_385, "QD")],
)
def test_an_index_read_in_a_frame_off_its_size_is_framed_as_an_index(
    reader: TableReader, seed: int, label: str
) -> None:
    scene = synth.card_scene(np.random.default_rng(seed), "cards")
    truths = [t for t in scene.truths if t.label == label]
    before = TableReader("cards", card_sizes=False).read(scene.image).objects
    after = reader.read(scene.image).objects
    framed = [any(o.label == label and same_object(o.quad, t.quad) for o in after) for t in truths]
    assert all(framed)
    assert not all(
        any(o.label == label and same_object(o.quad, t.quad) for o in before) for t in truths
    )
    # Names are never changed, only frames: the same cards are read, no more, no fewer.
    assert sorted(o.label for o in after) == sorted(o.label for o in before)
    s_before = score(before, scene.truths, partial=scene.partial)
    s_after = score(after, scene.truths, partial=scene.partial)
    assert s_after.right > s_before.right and s_after.spurious < s_before.spurious
