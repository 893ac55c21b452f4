"""Corrections to the shared photos' labels (vision/label_review.json): they fit the data,
change only what they name, and a correction that no longer fits is a clear error."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision import datasets, label_review
from vision.datasets import Photo
from vision.evaluate import score
from vision.label_review import Correction, ReviewError
from vision.reader import TableReader
from vision.synth import Truth


def _box(x0: float, y0: float, x1: float, y1: float) -> np.ndarray:
    return np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float32)


def _photo() -> Photo:
    return Photo(
        Path("p.jpg"), [Truth("4S", _box(10, 10, 30, 60)), Truth("4S", _box(200, 10, 220, 60))], []
    )


def test_every_correction_fits_a_held_out_photo(shared: Path) -> None:
    photos = datasets.load("cards")
    fixes = label_review.corrections("cards")
    assert fixes, "the card review holds corrections"
    reviewed = label_review.review_all(photos, fixes)
    held_out = {p.path.name for p in photos if p.split == "test"}
    assert {f.photo for f in fixes} <= held_out  # the training split's are listed apart
    before = sum(len(p.truths) for p in photos)
    after = sum(len(p.truths) for p in reviewed)
    assert after - before == sum(f.change == "add" for f in fixes)
    relabelled = sum(
        a.label != b.label
        for p, q in zip(photos, reviewed, strict=True)
        for a, b in zip(p.truths, q.truths, strict=False)
    )
    assert relabelled == sum(f.change == "relabel" for f in fixes)
    assert all(f.why for f in fixes)


def test_a_relabelling_changes_the_one_box_around_its_point() -> None:
    fix = Correction("p.jpg", "relabel", "3S", None, (20, 30), "4S", "a 3 over a spade")
    out = label_review.reviewed(_photo(), [fix])
    assert [t.label for t in out.truths] == ["3S", "4S"]
    assert [t.label for t in _photo().truths] == ["4S", "4S"]  # the photo itself is kept
    added = Correction("p.jpg", "add", "AC", (50, 50, 70, 90), None, None, "unlabelled")
    out = label_review.reviewed(_photo(), [added])
    assert [t.label for t in out.truths] == ["4S", "4S", "AC"]
    assert np.allclose(out.truths[2].quad, _box(50, 50, 70, 90))
    other = Correction("q.jpg", "add", "AC", (50, 50, 70, 90), None, None, "another photo")
    assert [t.label for t in label_review.reviewed(_photo(), [other]).truths] == ["4S", "4S"]


def test_a_correction_that_no_longer_fits_names_the_photo_and_label(tmp_path: Path) -> None:
    nowhere = Correction("p.jpg", "relabel", "3S", None, (100, 100), "4S", "")
    with pytest.raises(ReviewError, match=r"p\.jpg: 0 boxes labelled 4S around 100,100"):
        label_review.reviewed(_photo(), [nowhere])
    wrong_was = Correction("p.jpg", "relabel", "3S", None, (20, 30), "5S", "")
    with pytest.raises(ReviewError, match="labelled 5S"):
        label_review.reviewed(_photo(), [wrong_was])
    stray = Correction("gone.jpg", "add", "AC", (0, 0, 1, 1), None, None, "")
    with pytest.raises(ReviewError, match=r"not in the dataset: gone\.jpg"):
        label_review.review_all([_photo()], [stray])
    for entry, message in (
        ({"photo": "p.jpg", "change": "add", "label": "1S", "box": [0, 0, 1, 1]}, "'1S'"),
        ({"photo": "p.jpg", "change": "add", "label": "AS"}, "needs a box"),
        ({"photo": "p.jpg", "change": "add", "label": "AS", "box": [0, 0, "4", 5]}, "four numbers"),
        ({"photo": "p.jpg", "change": "add", "label": "AS", "box": [9, 0, 1, 5]}, "x0 < x1"),
        ({"photo": "p.jpg", "change": "add", "label": "AS", "box": [0, -3, 4, 5]}, "inside"),
        ({"photo": "p.jpg", "change": "relabel", "label": "AS", "at": [1, 1]}, "needs 'at'"),
        ({"photo": "p.jpg", "change": "move", "label": "AS"}, "unknown change 'move'"),
    ):
        path = tmp_path / "review.json"
        path.write_text(json.dumps({"cards": [{"why": "", **entry}]}))
        with pytest.raises(ReviewError, match=message):
            label_review.corrections("cards", path)


def test_reads_the_labels_got_wrong_count_right_as_reviewed(shared: Path) -> None:
    # A row of spades labelled 10S, 4S, 2S over a K, a 3 and an A: the reader's KS, 3S, AS
    # were "wrong cards" against the published labels.
    name = "WIN_20240627_17_01_00_Pro_jpg.jpg"
    photo = next(p for p in datasets.load("cards") if p.path.name == name)
    checked = label_review.reviewed(photo, label_review.corrections("cards"))
    reads = TableReader("cards").read(cv2.imread(str(photo.path))).objects
    raw = score(reads, photo.truths, photo.ignore, other_corners=True)
    fixed = score(reads, checked.truths, checked.ignore, other_corners=True)
    assert raw.confusions[("4S", "3S")] == 1 and raw.confusions[("2S", "AS")] == 1
    assert fixed.right == raw.right + 3


@pytest.mark.parametrize("kind", ["cards", "tiles"])
def test_every_training_correction_fits_one_training_photo_and_training_reads_it(
    shared: Path, kind: datasets.Kind
) -> None:
    photos = datasets.load(kind)
    fixes = label_review.corrections(kind, part="training")
    assert fixes and all(f.why and f.change in ("relabel", "add") for f in fixes)
    training = [p for p in photos if p.split == "train"]
    assert {f.photo for f in fixes} <= {p.path.name for p in training}
    assert not {f.photo for f in fixes} & {f.photo for f in label_review.corrections(kind)}
    fixed = label_review.for_training(training, kind)
    relabels = [f for f in fixes if f.change == "relabel"]
    changed = [
        (a.label, b.label)
        for p, q in zip(training, fixed, strict=True)
        for a, b in zip(p.truths, q.truths[: len(p.truths)], strict=True)
        if a.label != b.label
    ]
    assert sorted(changed) == sorted((f.was, f.label) for f in relabels)
    # An unlabelled index added is learnt as its card, in its photo, inside the photo.
    added = Counter(
        (p.path.name, t.label)
        for p, q in zip(training, fixed, strict=True)
        for t in q.truths[len(p.truths) :]
    )
    assert added == Counter((f.photo, f.label) for f in fixes if f.change == "add")
    assert all(0 <= v <= 640 for f in fixes if f.box is not None for v in f.box), (
        "added boxes lie inside the 640 x 640 photos"
    )
    # A recipe comparison leaves photos out (the dev fold): corrections naming them are unused.
    named = {f.photo for f in fixes}
    untouched = next(p for p in training if p.path.name not in named)
    (alone,) = label_review.for_training([untouched], kind)
    assert all(a is b for a, b in zip(alone.truths, untouched.truths, strict=True))


def test_the_training_crop_cache_is_named_after_the_corrections_it_learnt(tmp_path: Path) -> None:
    # A correction added after a training run must not be trained past by its cached crops.
    from dataclasses import replace

    from vision import train

    review = json.loads(label_review.REVIEW_FILE.read_text())
    before = label_review.training_digest("cards")
    assert f"-l{before}-" in train.cache_key(train.SHIPPED["cards"])
    assert "-l" not in train.cache_key(replace(train.SHIPPED["cards"], real=False)).split("-f")[0]
    review["cards_training"].append(
        {"photo": "x.jpg", "change": "add", "label": "AS", "box": [0, 0, 9, 9], "why": "test"}
    )
    changed = tmp_path / "review.json"
    changed.write_text(json.dumps(review))
    assert label_review.training_digest("cards", changed) != before
    # Only the kind's own training corrections name its crops.
    assert label_review.training_digest("tiles", changed) == label_review.training_digest("tiles")
