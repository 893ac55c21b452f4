"""Accuracy floors of the shipped models (a little below the benchmark's targets).

The real photos here are a fixed part of the *held-out* split: the models never trained on
them. The full measurement is ``make bench`` (bench/vision.py).
"""

from __future__ import annotations

from functools import cache

import cv2
import numpy as np
import pytest

from vision import datasets, synth
from vision.evaluate import Score, score
from vision.reader import Game, TableReader

# Floors: the measured values minus a margin, so the suite stays stable. They sit well below
# the targets (99% tiles, 98% card indices, 99.5% synthetic), which the shipped
# models do not reach yet: see models/MODEL_CARD.md for the measured numbers.
REAL_FLOOR = {"rummikub": 0.97, "cards": 0.95}  # measured on this subset: 1.0, 0.961
# measured: 0.0, 0.038 (cards: a right read of a once-labelled card's other corner is not
# spurious, vision.evaluate.other_corner; 2 such reads here)
REAL_SPURIOUS_CEILING = {"rummikub": 0.02, "cards": 0.1}
# measured 0.977, 1.0, 0.964 (All In with every CI font installed: DejaVu, Liberation)
SYNTH_FLOOR = {"rummikub": 0.94, "cards": 0.9, "allin": 0.85}
TWIST_FLOOR = 0.75  # measured: 7 of 8
ROTATION_FLOOR = 0.92  # measured: 0.947 to 1.00 over the six angles
LIGHTING_FLOOR = 0.9  # measured: 1.00 under each lighting


@cache
def reader(game: Game) -> TableReader:
    return TableReader(game)


@pytest.mark.parametrize(
    ("game", "kind", "count"), [("rummikub", "tiles", 12), ("cards", "cards", 24)]
)
def test_real_held_out_photos(shared: object, game: Game, kind: str, count: int) -> None:
    photos = [p for p in datasets.load(kind) if p.split == "test"][:count]  # type: ignore[arg-type]
    total = Score()
    for p in photos:
        image = cv2.imread(str(p.path))
        reads = reader(game).read(image).objects
        total.add(score(reads, p.truths, p.ignore, other_corners=kind == "cards"))
    assert total.objects > 40
    assert total.accuracy >= REAL_FLOOR[game], total.to_json()
    assert total.spurious_rate <= REAL_SPURIOUS_CEILING[game], total.to_json()


@pytest.mark.parametrize("game", ["rummikub", "cards", "allin"])
def test_synthetic_scenes(game: Game) -> None:
    total = Score()
    for i in range(5):
        rng = np.random.default_rng(90_000 + i)
        scene = synth.tile_scene(rng) if game == "rummikub" else synth.card_scene(rng, game)
        total.add(score(reader(game).read(scene.image).objects, scene.truths))
    assert total.accuracy >= SYNTH_FLOOR[game], total.to_json()


def test_twist_jokers_are_read() -> None:
    labels = ["J", "DJ", "CJ", "MJ", "r5", "b13", "o1", "k10"]
    scene = synth.tile_scene(
        np.random.default_rng(7), labels=labels, layout="scatter", surface="white", lighting="even"
    )
    reads = reader("rummikub").read(scene.image).objects
    s = score(reads, scene.truths)
    assert s.accuracy >= TWIST_FLOOR, (s.to_json(), sorted(r.label for r in reads))


@pytest.mark.parametrize("angle", [0.0, 90.0, 180.0, 270.0, 33.0, 147.0])
def test_rotation(angle: float) -> None:
    scene = synth.tile_scene(
        np.random.default_rng(21), layout="rows", surface="wood", lighting="even", angle=angle
    )
    s = score(reader("rummikub").read(scene.image).objects, scene.truths)
    assert s.accuracy >= ROTATION_FLOOR, s.to_json()


@pytest.mark.parametrize("lighting", ["dim", "glare", "warm", "gradient"])
def test_lighting(lighting: str) -> None:
    scene = synth.card_scene(
        np.random.default_rng(31), "cards", layout="apart", surface="white", lighting=lighting
    )
    s = score(reader("cards").read(scene.image).objects, scene.truths)
    assert s.accuracy >= LIGHTING_FLOOR, s.to_json()
