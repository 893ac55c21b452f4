"""The shared card photos turned back to their cameras' aspect (vision/natural_aspect.py)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision import datasets, natural_aspect
from vision.datasets import Photo
from vision.reader import Found
from vision.synth import Truth


def test_scale_for_by_camera() -> None:
    assert natural_aspect.scale_for("IMG_20220921_193915_jpg.jpg", 640, 640) == pytest.approx(
        (1.0, 4 / 3)
    )
    assert natural_aspect.scale_for("WIN_20240627_12_52_49_Pro.jpg", 640, 640) == pytest.approx(
        (16 / 9, 1.0)
    )
    # A frame at its camera's aspect already is left as it is.
    assert natural_aspect.scale_for("IMG_7702_JPG.jpg", 480, 640) == pytest.approx((1.0, 1.0))
    assert natural_aspect.scale_for("card-0001.jpg", 640, 640) is None


def _photo(name: str, quad: list[list[float]]) -> tuple[Photo, np.ndarray]:
    image = np.zeros((640, 640, 3), np.uint8)
    q = np.array(quad, np.float32)
    cv2.fillPoly(image, [q.astype(np.int32)], (255, 255, 255))
    return Photo(Path(name), [Truth("7H", q)], [q + 300]), image


def test_restored_moves_labels_with_the_pixels() -> None:
    photo, image = _photo("WIN_x.jpg", [[100, 200], [160, 200], [160, 300], [100, 300]])
    out, truths, ignore = natural_aspect.restored(photo, image)
    assert out.shape == (640, 1138, 3)
    ys, xs = np.nonzero(out[:, :, 0] > 127)
    q = truths[0].quad
    assert truths[0].label == "7H"
    assert xs.min() == pytest.approx(q[:, 0].min(), abs=2)
    assert xs.max() == pytest.approx(q[:, 0].max(), abs=2)
    assert ys.min() == pytest.approx(q[:, 1].min(), abs=2)
    assert ys.max() == pytest.approx(q[:, 1].max(), abs=2)
    assert np.allclose(ignore[0], (photo.truths[0].quad + 300) * [1138 / 640, 1.0])


def test_restored_leaves_unknown_cameras_alone() -> None:
    photo, image = _photo("scan.jpg", [[10, 20], [60, 20], [60, 90], [10, 90]])
    out, truths, ignore = natural_aspect.restored(photo, image)
    assert out is image
    assert truths is photo.truths
    assert ignore is photo.ignore


def test_phone_series_cards_regain_a_cards_shape(shared: Path) -> None:
    """The evidence for the 3:4 phone frames: the IMG_20220921 series' square-lying card
    outlines are far too wide as the dataset has them, and a card's shape restored."""
    series = [p for p in datasets.load("cards") if p.path.name.startswith("IMG_20220921")]
    assert len(series) > 200
    before: list[float] = []
    after: list[float] = []
    for photo in series:
        image = cv2.imread(str(photo.path), cv2.IMREAD_COLOR)
        assert image is not None
        before += natural_aspect.outline_widening(image)
        after += natural_aspect.outline_widening(natural_aspect.restored(photo, image)[0])
    assert len(before) >= 40 and len(after) >= 40
    assert float(np.median(before)) > 1.2
    assert abs(float(np.median(after)) - 1.0) < 0.06


@dataclass
class _Reading:
    objects: list[Found]


class _WhiteBlobReader:
    """Reads the one white blob of a photo as a 7H, framed where its pixels are."""

    def read(self, image: np.ndarray) -> _Reading:
        ys, xs = np.nonzero(image[:, :, 0] > 127)
        x0, x1, y0, y1 = xs.min(), xs.max() + 1, ys.min(), ys.max() + 1
        quad = np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float32)
        return _Reading([Found("7H", 0.99, quad, [])])


def test_bench_reads_held_out_photos_at_their_cameras_aspect(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The benchmark's natural-aspect row: held-out photos only (IMG_5 and scan_0 are held
    out, WIN_0 is not), each turned back with its labels, so a read framed where the index
    lies in the turned photo scores right; a slim index that would not overlap its label if
    the labels stayed put."""
    from bench import vision as bench_vision

    photos = []
    for name in ("IMG_5.jpg", "WIN_0.jpg", "scan_0.jpg"):
        photo, image = _photo(name, [[300, 100], [330, 100], [330, 160], [300, 160]])
        cv2.imwrite(str(tmp_path / name), image)
        photos.append(Photo(tmp_path / name, photo.truths, []))
    monkeypatch.setattr(datasets, "load", lambda kind: photos)
    total, turned = bench_vision._real_natural(_WhiteBlobReader())  # type: ignore[arg-type]
    assert (total.objects, total.right, total.spurious) == (2, 2, 0)
    assert turned == 1
