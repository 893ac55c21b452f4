"""Which crops a real card photo's boxes give the cards recogniser (vision.train.crops_from)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest
import torch
from cli_helpers import run

from vision import datasets, train
from vision.card_turns import Turn
from vision.detect import rect_quad
from vision.labels import NONE, cards_spec
from vision.synth import Scene, Truth
from vision.train import crops_from


def _photo_with(box: tuple[int, int, int, int]) -> np.ndarray:
    """A plain table with one axis-aligned box whose top half is dark, bottom half light."""
    x0, y0, x1, y1 = box
    image = np.full((240, 320, 3), 128, np.uint8)
    image[y0 : (y0 + y1) // 2, x0:x1] = 20
    image[(y0 + y1) // 2 : y1, x0:x1] = 235
    return image


def _quad(box: tuple[int, int, int, int]) -> np.ndarray:
    x0, y0, x1, y1 = box
    return np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float32)


def _positives(
    box: tuple[int, int, int, int], turns: list[Turn | None] | None = None
) -> list[np.ndarray]:
    spec = cards_spec()
    image = _photo_with(box)
    truths = [Truth("7H", _quad(box))]
    xs, ys = crops_from(
        "cards", spec, image, truths, np.random.default_rng(0), jitters=4, real=True, turns=turns
    )
    return [x for x, y in zip(xs, ys, strict=True) if y == spec.index("7H")]


def _stands(x: np.ndarray) -> bool:
    """Whether the box's dark half lies at the crop's top or bottom (not at a side)."""
    h, w = x.shape[:2]
    left, right = float(x[:, : w // 3].mean()), float(x[:, -w // 3 :].mean())
    top, bottom = float(x[: h // 3].mean()), float(x[-h // 3 :].mean())
    return abs(top - bottom) > 100 > abs(left - right)


def test_a_landscape_box_gives_quarter_turned_positives() -> None:
    # A card lying on its side: the index box is wide. Its crops are turned a quarter so the
    # index stands (upright or upside down, both the card): the box's dark top half ends up
    # on one side of the crop, not at its top.
    found = _positives((100, 100, 180, 140))
    assert len(found) == 4
    w, h = cards_spec().crop
    for x in found:
        assert x.shape == (h, w, 3)
        left, right = float(x[:, : w // 3].mean()), float(x[:, -w // 3 :].mean())
        top, bottom = float(x[: h // 3].mean()), float(x[-h // 3 :].mean())
        assert abs(left - right) > 100 > abs(top - bottom)


def test_a_portrait_box_gives_upright_positives_and_a_square_one_none() -> None:
    h = cards_spec().crop[1]
    found = _positives((120, 80, 150, 130))
    assert len(found) == 4
    for x in found:
        top, bottom = float(x[: h // 3].mean()), float(x[-h // 3 :].mean())
        assert bottom - top > 100
    # A squarish box holds a slanted index whose turn is unknown: no jittered positives.
    assert _positives((120, 80, 160, 120)) == []


def test_a_known_turn_overrides_the_boxs_shape() -> None:
    # vision.card_turns says how the index stands, whatever its box's shape: a square box
    # read upright gives upright crops, a tall box read sideways gives quarter-turned ones,
    # and an index of unknown turn gives none.
    square, tall = (120, 80, 160, 120), (120, 80, 150, 130)
    upright = _positives(square, ["upright"])
    assert len(upright) == 4 and all(_stands(x) for x in upright)
    sideways = _positives(tall, ["sideways"])
    assert len(sideways) == 4 and not any(_stands(x) for x in sideways)
    assert all(_stands(x) for x in _positives(tall))  # by its shape: upright
    assert _positives(tall, [None]) == []


def test_a_proposal_over_an_index_of_known_turn_is_an_index_along_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The same square box and two proposals over it, standing and lying: with the index
    # read upright, the standing one is the card and the lying one is "none"; read
    # sideways, the reverse; by the box's shape alone, neither is used.
    spec = cards_spec()
    box = (120, 80, 160, 120)
    image = _photo_with(box)
    centre = _quad(box).mean(0)
    standing = rect_quad(centre, 26, 40, 90.0)
    lying = rect_quad(centre, 26, 40, 0.0)
    monkeypatch.setattr(train, "_candidates", lambda kind, image: [standing, lying])

    def taught(turns: list[Turn | None] | None) -> list[tuple[str, bool]]:
        """Each crop's label and whether the box's dark half stands at its top or bottom."""
        xs, ys = crops_from(
            "cards",
            spec,
            image,
            [Truth("7H", _quad(box))],
            np.random.default_rng(0),
            0,
            real=True,
            turns=turns,
        )
        return sorted((spec.labels[y], _stands(x)) for x, y in zip(xs, ys, strict=True))

    assert taught(["upright"]) == [("7H", True), (NONE, False)]
    assert taught(["sideways"]) == [("7H", False), (NONE, True)]
    assert taught(None) == taught([None]) == []


def test_the_other_corner_of_a_card_labelled_once_is_no_none_crop(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Real photos often label one corner per card: a proposal where that card's other index
    # must be (vision.evaluate.other_corner) may hold a real index, so it must not be taught
    # as "none"; a proposal elsewhere on the table is.
    spec = cards_spec()
    image = np.full((480, 640, 3), 128, np.uint8)
    labelled = _quad((100, 100, 130, 150))
    other = rect_quad(labelled.mean(0) + np.float32([150, 168]), 37, 60, -90.0)
    far = rect_quad(np.float32([560, 80]), 37, 60, 90.0)
    monkeypatch.setattr(train, "_candidates", lambda kind, image: [other, far])
    _, ys = train.crops_from(
        "cards", spec, image, [Truth("7H", labelled)], np.random.default_rng(0), 0, real=True
    )
    assert ys.count(spec.index(NONE)) == 1
    # A card labelled twice has no unlabelled index left: both proposals are none.
    twice = [Truth("7H", labelled), Truth("7H", _quad((400, 300, 430, 350)))]
    _, ys = train.crops_from("cards", spec, image, twice, np.random.default_rng(0), 0, real=True)
    assert ys.count(spec.index(NONE)) == 2


def test_proposals_on_a_card_face_are_kept_as_none_beyond_the_random_sample(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A card labelled at both corners: its face lies halfway between them. Proposals there
    # (pips, court artwork) are kept as "none", up to face_negatives per card, whatever the
    # random sample of other negatives (at least 8 per photo) would draw.
    spec = cards_spec()
    image = np.full((480, 640, 3), 128, np.uint8)
    twice = [Truth("KC", _quad((100, 100, 130, 150))), Truth("KC", _quad((300, 350, 330, 400)))]
    (face,) = train.card_faces(twice)
    assert np.allclose(face[0], [215, 250]) and 90 < face[1] < 100
    art = [rect_quad(np.float32([215 + dx, 250]), 30, 50, 90.0) for dx in (-40, 0, 40)]
    table = [rect_quad(np.float32([560, 40 * k + 40]), 30, 50, 90.0) for k in range(10)]
    monkeypatch.setattr(train, "_candidates", lambda kind, image: art + table)

    def nones(face_negatives: int) -> list[np.ndarray]:
        xs, ys = train.crops_from(
            "cards",
            spec,
            image,
            twice,
            np.random.default_rng(0),
            0,
            real=True,
            face_negatives=face_negatives,
        )
        return [x for x, y in zip(xs, ys, strict=True) if y == spec.index(NONE)]

    assert len(nones(0)) == 8  # the random sample only, art or table alike
    assert len(nones(2)) == 8 + 2
    assert len(nones(5)) == 8 + 3  # every face proposal there is
    assert train.card_faces(twice[:1]) == []  # one corner labelled: the face is unknown


def test_generated_scenes_keep_their_own_count_of_card_face_proposals_as_none(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A generated scene's random sample of negatives seldom holds pips (All In's bug pips
    # were read as a king of clocks), so scenes keep face proposals too: as many as
    # scene_face_negatives says, not the real photos' face_negatives.
    image = np.full((480, 640, 3), 128, np.uint8)
    twice = [Truth("9b", _quad((100, 100, 130, 150))), Truth("9b", _quad((300, 350, 330, 400)))]
    art = [rect_quad(np.float32([215 + dx, 250]), 30, 50, 90.0) for dx in (-40, 0, 40)]
    table = [rect_quad(np.float32([560, 40 * k + 40]), 30, 50, 90.0) for k in range(10)]
    monkeypatch.setattr(train, "_candidates", lambda kind, image: art + table)
    monkeypatch.setattr(
        train.synth,
        "card_scene",
        lambda rng, deck, face=None, table_print=None: Scene(image.copy(), twice),
    )
    none = cards_spec().index(NONE)

    def nones(scene_faces: int) -> int:
        # The photos' own settings (none here) must not reach the scene: 12 nones with 6 a
        # truth, one more with their face count.
        settings = train.Settings(
            "cards",
            scenes=1,
            real=False,
            workers=1,
            real_negatives=6,
            face_negatives=1,
            scene_face_negatives=scene_faces,
        )
        _, ys, _ = train.build(settings)
        return int((ys == none).sum())

    assert nones(0) == 8  # the random sample only; the photos' settings stay theirs
    assert nones(2) == 8 + 2
    assert nones(6) == 8 + 3  # every face proposal there is
    shipped = train.SHIPPED["cards"]
    assert train.cache_key(shipped) != train.cache_key(replace(shipped, scene_face_negatives=6))


@pytest.mark.slow
def test_the_shipped_card_recipe_options_train_and_export(tmp_path: Path) -> None:
    # Reframed proposals, stretched crops and repeated real crops (none here: no photos).
    settings = replace(
        train.SHIPPED["cards"],
        seed=3,
        scenes=1,
        epochs=1,
        batch=64,
        real=False,
        workers=1,
        calibration_photos=2,
    )
    assert settings.reframe and settings.stretch > 0 and settings.real_repeat > 1
    result = train.train(settings, out=tmp_path, cache=False)
    assert result["crops"] > 0 and (tmp_path / "cards.onnx").is_file()
    w, h = cards_spec().crop
    x = train._augment(torch.full((4, 3, h, w), 128.0), "cards", torch.Generator(), 0.3)
    assert x.shape == (4, 3, h, w)


@pytest.mark.slow
def test_the_card_recipe_makes_the_same_files_byte_for_byte_when_run_again(
    tmp_path: Path,
) -> None:
    """What lets `tableref train cards` remake the shipped files (models/MODEL_CARD.md): every
    random choice seeded, the scenes' order kept across the rendering processes, the export
    and the int8 calibration deterministic."""
    settings = replace(
        train.SHIPPED["cards"], scenes=2, epochs=1, batch=64, real=False, calibration_photos=2
    )
    first, again = tmp_path / "first", tmp_path / "again"
    for out in (first, again):
        out.mkdir()
        train.train(settings, out=out, cache=False)
    for name in ("cards.float.onnx", "cards.onnx", "cards.labels.json"):
        assert (first / name).read_bytes() == (again / name).read_bytes(), name


@pytest.mark.slow
def test_real_indices_turns_are_read_by_a_quick_model_of_the_generated_crops(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The shipped recipe reads each real index's turn (Settings.orient_real) with a model
    # fitted on the generated crops before the photos' crops are cut: two photos here.
    photos = [p for p in datasets.load("cards") if p.split == "train"][:2]
    monkeypatch.setattr(datasets, "load", lambda kind: photos)
    seen: dict[str, list[Turn | None]] = {}
    real_turns = train.real_turns

    def spy(*args: Any, **kwargs: Any) -> dict[str, list[Turn | None]]:
        seen.update(real_turns(*args, **kwargs))
        return seen

    monkeypatch.setattr(train, "real_turns", spy)
    settings = replace(train.SHIPPED["cards"], scenes=2, epochs=1, batch=64, workers=1)
    assert settings.orient_real
    result = train.train(settings, out=tmp_path, cache=False)
    assert result["photos"] == 2 and (tmp_path / "cards.onnx").is_file()
    assert sorted(seen) == sorted(p.path.name for p in photos)
    assert [len(seen[p.path.name]) for p in photos] == [len(p.truths) for p in photos]


def test_a_training_photo_that_cannot_be_read_is_named(tmp_path: Path) -> None:
    # Both the turn reading and the crop cutting read the photos; a broken file stops
    # training with its name, not with an error deep in OpenCV or NumPy.
    broken = tmp_path / "IMG_broken.jpg"
    broken.write_bytes(b"not a jpeg")
    photo = datasets.Photo(broken, [Truth("7H", _quad((10, 10, 30, 40)))], [])
    with pytest.raises(FileNotFoundError, match=r"cannot read .*IMG_broken\.jpg"):
        train._photo_job(("cards", photo, 0, 1, {}))


@pytest.mark.slow
def test_a_training_label_found_wrong_is_learnt_as_the_photo_shows_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # IMG_7794 is a seven of spades whose two indices are labelled 6S
    # (vision/label_review.json, cards_training): its crops are learnt as 7S.
    photo = next(p for p in datasets.load("cards") if p.path.name == "IMG_7794_JPG.jpg")
    assert sorted(t.label for t in photo.truths) == ["6S", "6S"]
    monkeypatch.setattr(datasets, "load", lambda kind: [photo])
    settings = replace(
        train.SHIPPED["cards"], scenes=1, workers=1, orient_real=False, reframe=False
    )
    _, y, sources = train.build(settings)
    real = y[sources["first_real_crop"] :]
    spec = cards_spec()
    assert (real == spec.index("7S")).sum() >= 2 and not (real == spec.index("6S")).any()


def test_faded_crops_keep_their_mean_and_lose_contrast() -> None:
    w, h = cards_spec().crop
    x = torch.zeros((64, 3, h, w))
    x[:, :, : h // 2] = 200.0  # half paper, half ink: a crop with contrast
    x[:, :, h // 2 :] = 40.0
    faded = train._fade(x, 1.0, torch.Generator().manual_seed(5))
    assert torch.allclose(faded.mean(dim=(1, 2, 3)), x.mean(dim=(1, 2, 3)))
    ratio = faded.std(dim=(1, 2, 3)) / x.std(dim=(1, 2, 3))
    assert float(ratio.min()) >= 0.25 and float(ratio.max()) <= 0.7
    assert float(ratio.max() - ratio.min()) > 0.2  # each crop cut by its own draw
    some = train._fade(x, 0.3, torch.Generator().manual_seed(5))
    kept = (some == x).flatten(1).all(dim=1)
    assert 0 < int(kept.sum()) < 64  # about 0.7 of them left as they were


def test_crops_are_faded_only_when_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    # Off, no random number is drawn for it: the shipped recipe is remade byte for byte.
    w, h = cards_spec().crop
    x = torch.rand((8, 3, h, w)) * 255
    calls: list[float] = []

    def fade(x: torch.Tensor, share: float, gen: torch.Generator) -> torch.Tensor:
        calls.append(share)
        return x

    monkeypatch.setattr(train, "_fade", fade)
    train._augment(x.clone(), "cards", torch.Generator(), 0.3)
    train._augment(x.clone(), "cards", torch.Generator(), 0.3, 0.0)
    assert calls == []
    train._augment(x.clone(), "cards", torch.Generator(), 0.3, 0.5)
    assert calls == [0.5]


def test_a_development_model_is_trained_with_the_dev_fold_left_out_only_when_asked(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # `bench._sweep --photos dev` measures a model on the dev fold: one trained on it would
    # read photos it learnt. The shipped recipe trains on the whole training split.
    asked: list[train.Settings] = []

    def fake(settings: train.Settings, out: Path, progress: Any) -> dict[str, Any]:
        asked.append(settings)
        return {}

    monkeypatch.setattr(train, "train", fake)
    for flags in (["--dev-out"], []):
        code, _, err = run(capsys, "train", "cards", "--seed", "2", *flags, "--out", str(tmp_path))
        assert code == 0, err
    assert [(s.dev_out, s.seed) for s in asked] == [(True, 2), (False, 2)]
    assert asked[1] == replace(train.SHIPPED["cards"], seed=2)


def test_leaving_the_dev_fold_out_of_a_training_without_real_photos_is_refused(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(train, "train", lambda *a: pytest.fail("trained"))
    for args, why in (
        (["cards", "--no-real"], "--no-real was given"),
        (["fourcolor"], "fourcolor learns from none"),
    ):
        code, _, err = run(capsys, "train", *args, "--dev-out", "--out", str(tmp_path))
        assert code == 2 and f"--dev-out leaves real photos out, but {why}" in err


def test_real_photos_are_learnt_at_their_cameras_aspect_only_when_asked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Settings.natural_real: a phone's 3:4 photo, stretched square by the dataset, is learnt
    # 640 x 853 with its labels moved alike, from a lossless copy every step reads alike.
    monkeypatch.setattr(train, "NATURAL", tmp_path / "natural")
    image = np.zeros((640, 640, 3), np.uint8)
    image[100:160, 300:330] = 255
    path = tmp_path / "IMG_0001.jpg"
    cv2.imwrite(str(path), image)
    photo = datasets.Photo(path, [Truth("7H", _quad((300, 100, 330, 160)))], [])
    assert train.photo_view(photo, natural=False) is photo
    seen = train.photo_view(photo, natural=True)
    assert seen.path == tmp_path / "natural" / "IMG_0001.png"
    restored = cv2.imread(str(seen.path))
    assert restored is not None and restored.shape == (853, 640, 3)
    ys, _ = np.nonzero(restored[:, :, 0] > 127)
    q = seen.truths[0].quad
    assert (ys.min(), ys.max()) == (
        pytest.approx(q[:, 1].min(), abs=2),
        pytest.approx(q[:, 1].max(), abs=2),
    )
    assert train.photo_view(photo, natural=True).path == seen.path  # written once, read again
    shipped = train.SHIPPED["cards"]
    assert "-natural" in train.cache_key(replace(shipped, natural_real=True))
    assert "-natural" not in train.cache_key(shipped)


def test_training_takes_its_real_photos_as_the_recipe_asks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # build() hands every real photo to photo_view with the recipe's natural_real, before
    # any scene is drawn.
    photo = datasets.Photo(tmp_path / "IMG_0002.jpg", [], [])
    monkeypatch.setattr(train, "training_photos", lambda *a: [photo])
    asked: list[tuple[Path, bool]] = []

    class Asked(Exception):
        pass

    def view(p: datasets.Photo, natural: bool) -> datasets.Photo:
        asked.append((p.path, natural))
        raise Asked

    monkeypatch.setattr(train, "photo_view", view)
    for natural in (True, False):
        with pytest.raises(Asked):
            train.build(replace(train.SHIPPED["cards"], scenes=1, natural_real=natural))
    assert asked == [(photo.path, True), (photo.path, False)]
