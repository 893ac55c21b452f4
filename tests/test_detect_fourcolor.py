"""Four Color proposals on generated tables: the characters of laid-out melds are found."""

from __future__ import annotations

import cv2
import numpy as np

from vision import cjk_fonts
from vision import synth_fourcolor as fourcolor
from vision.detect_fourcolor import candidates, faces, without_edges


def _found(det: np.ndarray, truth: np.ndarray) -> bool:
    size = float(np.linalg.norm(truth[1] - truth[0]))
    near = float(np.linalg.norm(det.mean(axis=0) - truth.mean(axis=0))) < 0.3 * size
    return near and 0.55 < float(np.linalg.norm(det[1] - det[0])) / size < 1.5


def test_meld_characters_are_proposed() -> None:
    found = total = 0
    fanned_found = fanned = 0
    for seed in range(6):
        scene = fourcolor.render_scene(np.random.default_rng(300 + seed), size=(800, 600))
        quads = candidates(scene.image)
        assert len(quads) < 250  # proposals, not a carpet
        for o in scene.objects:
            hit = any(_found(q, o.index_quad) for q in quads)
            if o.group.startswith("meld"):
                total += 1
                found += hit
            elif o.visible > 0.6:
                fanned += 1
                fanned_found += hit
    # Regression floors, not the goal: when written, 34 of 35 meld characters and 12 of 19
    # fanned ones (fans are the known weak spot).
    assert found / total >= 0.9, (found, total)
    assert fanned_found / max(fanned, 1) >= 0.5, (fanned_found, fanned)


def test_an_empty_table_proposes_little() -> None:
    scene = fourcolor.render_scene(np.random.default_rng(0), size=(800, 600))
    bare = np.full_like(scene.image, 0)
    bare[:] = scene.image[:40, :40].mean(axis=(0, 1)).astype(np.uint8)
    assert len(candidates(bare)) <= 2


def test_cards_on_the_darker_side_of_an_unevenly_lit_pale_table_are_paper() -> None:
    # A pale table lit from the left (250 -> 190 across) and a card at each side, its paper
    # a little brighter than the table around it: one global level (the image's 60th
    # percentile, 226 here) lost the card on the darker side.
    h, w = 480, 640
    table = np.tile(np.linspace(250, 190, w), (h, 1))
    image = np.repeat(table[..., None], 3, axis=2).astype(np.uint8)
    for x, paper in ((60, 252), (520, 212)):
        image[150:350, x : x + 60] = paper
    mask = faces(image, local_light=True)
    assert mask[250, 90] > 0 and mask[250, 550] > 0


def test_a_badge_paled_by_glare_is_proposed() -> None:
    # A dark disc printed on a card, lit so brightly that it is no longer dark outright
    # (160, not below 100), is still much darker than the paper around it.
    image = np.full((480, 640, 3), 60, np.uint8)
    image[100:380, 250:350] = 240
    cv2.circle(image, (300, 160), 22, (160, 160, 160), -1)
    hits = [q for q in candidates(image) if np.linalg.norm(q.mean(axis=0) - (300, 160)) < 6]
    assert any(38 <= float(np.linalg.norm(q[1] - q[0])) <= 56 for q in hits)


def test_a_character_touching_its_cards_edges_is_proposed_at_reading() -> None:
    # A meld of large white characters outlined in ink (seed 960 006, training fonts):
    # 仕's strokes touch its card's outline, so its ink was one component with the card's
    # edges, too large for a character, and the fixed-size density squares framed it too
    # large or too small. With the long straight runs taken out it is proposed; training's
    # proposals (read_time=False) stay as the shipped model learnt them.
    scene = fourcolor.render_scene(np.random.default_rng(960006), fonts=cjk_fonts.TRAIN_FONTS)
    (advisor,) = [c for c in scene.characters() if c.label == "wA" and not c.bottom]
    assert any(_found(q, advisor.quad) for q in candidates(scene.image))
    assert not any(_found(q, advisor.quad) for q in candidates(scene.image, read_time=False))


def test_edges_are_taken_out_and_strokes_kept() -> None:
    mask = np.zeros((200, 200), np.uint8)
    cv2.line(mask, (20, 10), (40, 190), 255, 2)  # a card's long edge, slanted
    cv2.rectangle(mask, (100, 100), (120, 125), 255, 2)  # a character's strokes
    out = without_edges(mask)
    assert out[100, 30] == 0 and out[180, 39] == 0  # the edge is gone along its length
    assert (out[95:130, 95:125] == mask[95:130, 95:125]).all()
