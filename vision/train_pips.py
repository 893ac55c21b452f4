"""Training crops for the pip recogniser (``tableref train pips``): the pips a card's index
looks at (:func:`vision.card_pips.pip_frames`), each labelled with its suit, or ``none``.

The reader asks the pips beside a doubtful index which suit its card is. It used to ask the
card recogniser, which learnt card faces' pips as ``none`` and read a lone pip's suit poorly
(about 3 in 10 of the blobs the pip search finds lie off the card). A model of its
own learns pips, both ways up as cards print them, and learns the table's texture, another
card's letters and a cut blob as ``none``.

* Generated standard-deck tables (:func:`vision.synth.card_scene`) know every card's outline
  and the order they were laid in: a blob's label is the suit of the card lying on top at its
  centre, ``none`` off every card. Blobs on court cards (their art) and on an index's own
  glyphs are left out: whether they are a pip is not known.
* Real training photos label corner indices only: a card labelled at both corners (no court
  card) gives the pips found well between its two indices, labelled with its suit.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from vision import card_pips, datasets, synth
from vision.crops import crop
from vision.labels import NONE, spec_for
from vision.matching import inside
from vision.train import Gathered, box_turn, drawing_pool, read_photo, training_photos

Crops = npt.NDArray[Any]
Quad = npt.NDArray[np.float32]
COURTS = ("J", "Q", "K")
# A real pip counts only this far inside the span between its card's two indices (a share
# of the span each way): the span's edges hold the indices' own columns and the card's rim.
REAL_INSIDE = 0.1
SCENE_SEED = 5_000_000  # generated tables' seeds: seed * 1_000_003 + SCENE_SEED + i


def _looks(
    image: synth.Image, index: Quad, others: Sequence[Quad]
) -> list[tuple[Quad, npt.NDArray[np.float64]]]:
    """The pips' frames beside ``index`` as the reader crops them, each with its centre."""
    squares = card_pips.pip_squares(card_pips.pip_frames(image, index, others))
    return [(q, q.astype(np.float64).mean(0)) for q in squares]


def scene_crops(scene: synth.Scene) -> tuple[list[Crops], list[int]]:
    """Labelled pip crops from one generated standard-deck table."""
    spec = spec_for("pips")
    xs: list[Crops] = []
    ys: list[int] = []
    indices = [t.quad for t in scene.truths + scene.partial]
    for k, t in enumerate(scene.truths):
        others = [u.quad for j, u in enumerate(scene.truths) if j != k and u.label != t.label]
        for quad, centre in _looks(scene.image, t.quad, others):
            if any(inside(centre, i) for i in indices):
                continue  # an index's own rank or suit
            owner = next((c.label for c in reversed(scene.cards) if inside(centre, c.quad)), None)
            if owner is None:
                label = NONE
            elif owner[:-1] in COURTS or owner[-1] not in spec.decks["cards"]:
                continue
            else:
                label = owner[-1]
            xs.append(crop(scene.image, quad, spec.crop))
            ys.append(spec.index(label))
    return xs, ys


def _frame(box: Quad) -> Quad | None:
    """A real label box as an index frame, by its shape (:func:`vision.train.box_turn`): a
    box lying on its side is turned back a quarter; a squarish one's turn is not known."""
    turn = box_turn(box)
    if turn is None:
        return None
    return box if turn == "upright" else np.roll(box, 1, axis=0)


def photo_crops(image: synth.Image, truths: list[synth.Truth]) -> tuple[list[Crops], list[int]]:
    """Labelled pip crops from one real photo: pips of cards labelled at both corners."""
    spec = spec_for("pips")
    frames = [_frame(t.quad) for t in truths]
    xs: list[Crops] = []
    ys: list[int] = []
    for k, t in enumerate(truths):
        mates = [j for j, u in enumerate(truths) if j != k and u.label == t.label]
        index = frames[k]
        if index is None or len(mates) != 1 or t.label[:-1] in COURTS:
            continue
        if t.label[-1] not in spec.decks["cards"]:
            continue
        a, b = t.quad.mean(0), truths[mates[0]].quad.mean(0)
        lo, hi = np.minimum(a, b), np.maximum(a, b)
        margin = REAL_INSIDE * (hi - lo)
        others = [f for j, f in enumerate(frames) if f is not None and truths[j].label != t.label]
        for quad, centre in _looks(image, index, others):
            if any(inside(centre, u.quad) for u in truths):
                continue
            if np.all(centre > lo + margin) and np.all(centre < hi - margin):
                xs.append(crop(image, quad, spec.crop))
                ys.append(spec.index(t.label[-1]))
    return xs, ys


def _scene_job(seed: int) -> tuple[list[Crops], list[int]]:
    return scene_crops(synth.card_scene(np.random.default_rng(seed), "cards"))


def _photo_job(photo: datasets.Photo) -> tuple[list[Crops], list[int]]:
    return photo_crops(read_photo(photo), photo.truths)


def build(
    seed: int,
    scenes: int,
    workers: int,
    real: bool = True,
    dev_out: bool = False,
    progress: Callable[[str, int, int], None] | None = None,
    fonts: tuple[str, ...] = (),
) -> tuple[Crops, npt.NDArray[np.int64], dict[str, int]]:
    """Every pip crop and label, generated tables' first, then the real photos'; the tables
    drawn with the TrueType ``fonts`` (every installed one when empty)."""
    photos = training_photos("cards", real, dev_out)
    gathered = Gathered(scenes + len(photos), progress)
    with drawing_pool(workers, fonts) as pool:
        seeds = [seed * 1_000_003 + SCENE_SEED + i for i in range(scenes)]
        scene_jobs = [pool.submit(_scene_job, s) for s in seeds]
        photo_jobs = [pool.submit(_photo_job, p) for p in photos]
        gathered.take(scene_jobs)
        first_real = len(gathered.ys)
        gathered.take(photo_jobs)
    xs, ys = gathered.xs, gathered.ys
    if not xs:
        raise ValueError("no pip crops: render some tables or add the real photos")
    sources = {"scenes": scenes, "photos": len(photos), "first_real_crop": first_real}
    return np.stack(xs), np.array(ys, np.int64), sources
