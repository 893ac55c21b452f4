"""A joker's word index is framed around what is printed, so right reads of it count."""

from __future__ import annotations

from collections.abc import Callable

import cv2
import numpy as np
import pytest

from vision import synth, synth_unseen
from vision.evaluate import score
from vision.reader import TableReader

Render = Callable[[np.random.Generator], tuple[np.ndarray, list[np.ndarray]]]


def _ink_outside(card: np.ndarray, quad: np.ndarray) -> int:
    """Ink pixels of the glyphs around ``quad`` (any blob with its centre within 1.3 times
    the quad) that lie outside the quad: a tight frame still holds every letter whole."""
    grey = cv2.cvtColor(card, cv2.COLOR_BGR2GRAY)
    ink = (grey < 110).astype(np.uint8)
    n, blobs, _, centres = cv2.connectedComponentsWithStats(ink)
    c = quad.mean(0)
    near = cv2.convexHull((c + (quad - c) * 1.3).astype(np.float32))
    inside = np.zeros_like(ink)
    cv2.fillConvexPoly(inside, (c + (quad - c) * 1.02).astype(np.int32), 1)
    outside = 0
    for k in range(1, n):
        if cv2.pointPolygonTest(near, (float(centres[k][0]), float(centres[k][1])), False) >= 0:
            outside += int(((blobs == k) & (inside == 0)).sum())
    return outside


def _light_joker(render: Render, seed: int) -> tuple[np.ndarray, list[np.ndarray]]:
    for s in range(seed, seed + 50):
        card, quads = render(np.random.default_rng(s))
        if card[3, 3].mean() > 150:  # a light face: its print is the dark ink looked for
            return card, quads
    raise AssertionError("no light-faced joker drawn")


@pytest.mark.parametrize(
    "render",
    [
        lambda rng: synth.render_card("X", "cards", rng),
        lambda rng: synth_unseen.render_card("X", "cards", rng),
        lambda rng: synth_unseen.render_card("R", "allin", rng),  # "RUNE" spelt downwards
    ],
    ids=["deck", "unseen-deck", "unseen-rune"],
)
def test_a_joker_index_is_framed_around_its_word_and_star(render: Render) -> None:
    for seed in (1, 100, 200):
        card, quads = _light_joker(render, seed)
        for quad in quads:
            width = float(np.linalg.norm(quad[1] - quad[0]))
            height = float(np.linalg.norm(quad[3] - quad[0]))
            # The index geometry framed the word 0.62 times as wide as tall, three times its
            # printed width; the five letters and the star stand in a column.
            assert width < 0.45 * height
            assert _ink_outside(card, quad) == 0


def test_a_number_index_keeps_the_detectors_geometry() -> None:
    _, quads = synth.render_card("7S", "cards", np.random.default_rng(3))
    for quad in quads:
        width = float(np.linalg.norm(quad[1] - quad[0]))
        height = float(np.linalg.norm(quad[3] - quad[0]))
        assert width == pytest.approx(0.62 * height, rel=1e-3)


def test_a_joker_index_in_sight_is_demanded_and_read() -> None:
    # Seed 16 100 081: a joker's index lies in sight, read X on its word. The index
    # geometry's frame, three times too wide, reached under the next card, so the index was
    # set apart as partly covered and its right read demanded of nobody.
    scene = synth.card_scene(np.random.default_rng(16_100_081), "cards")
    jokers = [t for t in scene.truths if t.label == "X"]
    assert len(jokers) == 1
    assert score(TableReader("cards").read(scene.image).objects, jokers).right == 1
