"""Reading card indices: both views of each crop (half_turn) for the card decks."""

from __future__ import annotations

import numpy as np

from vision import synth
from vision.crops import crops
from vision.recognise import Recogniser


def test_half_turn_reads_a_crop_and_its_upside_down_view_alike() -> None:
    recogniser = Recogniser.named("cards")
    scene = synth.card_scene(np.random.default_rng(5), "cards", layout="apart")
    batch = crops(scene.image, [t.quad for t in scene.truths], recogniser.spec.crop)
    upright = recogniser.classify(batch, "cards", half_turn=True)
    turned = recogniser.classify(
        np.ascontiguousarray(batch[:, ::-1, ::-1]), "cards", half_turn=True
    )
    assert [r.label for r in upright] == [r.label for r in turned]
    assert np.allclose([r.confidence for r in upright], [r.confidence for r in turned], atol=1e-4)
    plain = recogniser.classify(batch, "cards")
    assert any(abs(a.confidence - b.confidence) > 1e-4 for a, b in zip(plain, upright, strict=True))


def test_half_turn_of_nothing_is_nothing() -> None:
    recogniser = Recogniser.named("cards")
    w, h = recogniser.spec.crop
    assert recogniser.classify(np.zeros((0, h, w, 3), np.uint8), "allin", half_turn=True) == []
