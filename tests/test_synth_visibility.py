"""What the scoring of generated tables says shows: a character or name band half outside the
photo is no more readable than one half under another card."""

from __future__ import annotations

import numpy as np

from vision import synth_cactus, synth_fourcolor
from vision.synth_compose import uncovered


def test_the_photo_frame_hides_like_a_card_does() -> None:
    square = np.array([[-10.0, 0.0], [10.0, 0.0], [10.0, 20.0], [-10.0, 20.0]])
    assert uncovered(square, []) == 1.0
    assert 0.4 < uncovered(square, [], frame=(100, 100)) < 0.6
    assert uncovered(square + np.array([50.0, 10.0]), [], frame=(100, 100)) == 1.0


def test_scene_truth_counts_only_what_lies_inside_the_photo() -> None:
    for seed in range(40):
        scene = synth_fourcolor.render_scene(np.random.default_rng(910_000 + seed))
        h, w = scene.image.shape[:2]
        for ch in scene.characters(in_photo=True):
            inside = np.mean(
                (ch.quad[:, 0] >= 0)
                & (ch.quad[:, 0] < w)
                & (ch.quad[:, 1] >= 0)
                & (ch.quad[:, 1] < h)
            )
            if inside <= 0.25:  # three corners out: most of it cannot show
                assert ch.visible < 0.6, (seed, ch)
                return
    raise AssertionError("no generated table with a character leaving the photo")


def test_cactus_bands_outside_the_photo_do_not_show() -> None:
    scene = synth_cactus.render_scene(np.random.default_rng(5))
    band, visible = scene.bands(in_photo=True)[0]
    moved = synth_cactus.CactusScene(
        scene.image[:, : int(band[:, 0].mean())], scene.objects, scene.pile, scene.style
    )
    assert moved.bands(in_photo=True)[0][1] < min(visible, 0.7)
    assert moved.bands()[0][1] == scene.bands()[0][1]  # the training crops' notion: unchanged


def _inside(quad: np.ndarray, w: int, h: int) -> float:
    return float(
        np.mean((quad[:, 0] >= 0) & (quad[:, 0] < w) & (quad[:, 1] >= 0) & (quad[:, 1] < h))
    )


def test_scoring_does_not_require_a_card_whose_name_is_out_of_the_photo() -> None:
    from vision import evaluate_fcc

    for seed in range(40):
        scene = synth_fourcolor.render_scene(np.random.default_rng(910_000 + seed))
        h, w = scene.image.shape[:2]
        truth = evaluate_fcc.fourcolor_truth(scene)
        for i, t in enumerate(truth):
            mine = [c for c in scene.characters() if c.card == i]
            covered_only = max(c.visible for c in mine)
            if covered_only >= 0.6 and all(_inside(c.quad, w, h) <= 0.25 for c in mine):
                assert not t.must, (seed, t.label)  # no card covers it, the frame does
                return
    raise AssertionError("no generated table with a card out of the photo")
