"""Reading Four Color tables around a recogniser: four turns per proposal, a card's two ends
merged, melds grouped. The recogniser here is an oracle that knows the generated truth, so the
test measures everything but the network."""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

from vision import fourcolor_read as fr
from vision import synth_fourcolor as fourcolor


def _characters(scene: fourcolor.FourColorScene) -> list[tuple[str, np.ndarray]]:
    """Every printed character, upright quad and label: the top one of each card and, where
    the deck prints it, the bottom one (upside down, so its quad is turned half way)."""
    out = []
    for o in scene.objects:
        out.append((o.label, o.index_quad))
        if scene.style.bottom_char:
            x0, y0, x1, y1 = fourcolor.INDEX_RECT
            rel = np.array([[x0, 1 - y1], [x1, 1 - y1], [x1, 1 - y0], [x0, 1 - y0]], np.float32)
            src = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], np.float32)
            m = cv2.getPerspectiveTransform(src, o.quad.astype(np.float32))
            bottom = cv2.perspectiveTransform(rel.reshape(-1, 1, 2), m).reshape(4, 2)
            out.append((o.label, np.roll(bottom, 2, axis=0).astype(np.float64)))
    return out


def _oracle(scene: fourcolor.FourColorScene) -> fr.Classify:
    chars = _characters(scene)

    def classify(image: np.ndarray, quads: Sequence[np.ndarray]) -> list[tuple[str, float]]:
        out = []
        for q in quads:
            read = fr.CharRead("x", 0.0, np.asarray(q, np.float64))
            best = ("none", 0.9)
            for label, truth in chars:
                t = fr.CharRead(label, 1.0, truth)
                near = np.linalg.norm(read.centre - t.centre) < 0.3 * t.size
                # As trained: the whole character in the square, not a fragment of it.
                whole = 0.5 < read.size / t.size < 1.9
                if near and whole and float(read.down @ t.down) > 0.7:
                    best = (label, 0.95)
            out.append(best)
        return out

    return classify


def test_reads_melds_of_generated_tables() -> None:
    right = total = wrong = melds_right = melds = 0
    for seed in range(5):
        scene = fourcolor.render_scene(np.random.default_rng(800 + seed), size=(800, 600))
        result = fr.read(scene.image, _oracle(scene))
        truth_melds = [[scene.objects[i].label for i in m] for m in scene.melds]
        for obj in result["objects"]:
            c = np.mean(obj["quad"], axis=0)
            near = [
                o
                for o in scene.objects
                if cv2.pointPolygonTest(
                    o.quad.astype(np.float32), (float(c[0]), float(c[1])), False
                )
                >= 0
            ]
            wrong += not any(o.label == obj["label"] for o in near)
        for m in scene.melds:
            for i in m:
                total += 1
                o = scene.objects[i]
                right += any(
                    r["label"] == o.label
                    and cv2.pointPolygonTest(
                        o.quad.astype(np.float32),
                        tuple(map(float, np.mean(r["quad"], axis=0))),
                        False,
                    )
                    >= 0
                    for r in result["objects"]
                )
        melds += len(truth_melds)
        melds_right += sum(m in result["melds"] for m in truth_melds)
    assert wrong == 0  # a read is never a card that is not there
    assert right / total >= 0.9, (right, total)
    # Regression floor: 7 of 11 melds whole when written. Meld grouping over character
    # proposals is the weak step (their turn is only roughly the card's).
    assert melds_right / melds >= 0.55, (melds_right, melds)


def test_one_card_is_one_object_though_it_prints_two_characters() -> None:
    rng = np.random.default_rng(3)
    style = fourcolor.random_style(rng)
    style = fourcolor.FourColorStyle(
        **{**style.__dict__, "bottom_char": True, "white_mode": "outline"}
    )
    scene = fourcolor.render_scene(rng, size=(800, 600), style=style, hand=False)
    result = fr.read(scene.image, _oracle(scene))
    assert sorted(o["label"] for o in result["objects"]) == sorted(o.label for o in scene.objects)
