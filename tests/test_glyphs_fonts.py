"""Which TrueType fonts generated tables are drawn with (vision.glyphs.font_signature): a seed
picks a font by its place among those installed, so a machine missing one draws other tables."""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from cli_helpers import run

from vision import glyphs, synth, train_gate, train_pips
from vision.recognise import MODELS
from vision.train import SHIPPED, Settings, build, cache_key, train

GATE = Settings("cards-gate", scenes=1200, epochs=4)


def test_the_signature_names_the_font_files_wherever_they_are_installed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(glyphs, "truetype_fonts", lambda: ())
    assert glyphs.font_signature() == "no TrueType fonts (Hershey only)"
    here = ("/a/DejaVuSans.ttf", "/a/LiberationSerif-Bold.ttf")
    monkeypatch.setattr(glyphs, "truetype_fonts", lambda: here)
    both = glyphs.font_signature()
    assert both.startswith("2 TrueType fonts (")
    monkeypatch.setattr(
        glyphs, "truetype_fonts", lambda: tuple(p.replace("/a/", "/b/") for p in here)
    )
    assert glyphs.font_signature() == both
    monkeypatch.setattr(glyphs, "truetype_fonts", lambda: here[:1])
    assert glyphs.font_signature().startswith("1 TrueType fonts (")


def test_without_a_font_the_same_seeds_draw_other_tables(monkeypatch: pytest.MonkeyPatch) -> None:
    """Why the signature is printed: without the Liberation fonts 400 standard-deck tables
    from seed 18 000 000 held 2569 indices instead of 2580; a few tables show it."""
    installed = glyphs.truetype_fonts()
    if not any("Liberation" in p for p in installed):
        # CI installs them (.ci/apt-packages.txt) and must run this.
        assert os.environ.get("CI") != "true", "fonts-liberation is not installed"
        pytest.skip("the Liberation fonts are not installed (.ci/apt-packages.txt)")

    def labels() -> list[list[str]]:
        glyphs.text_mask.cache_clear()
        return [
            sorted(t.label for t in synth.card_scene(np.random.default_rng(s), "cards").truths)
            for s in range(18_000_000, 18_000_020)
        ]

    full = labels()
    fewer = tuple(p for p in installed if "Liberation" not in p)
    monkeypatch.setattr(glyphs, "truetype_fonts", lambda: fewer)
    try:
        assert labels() != full
    finally:
        glyphs.text_mask.cache_clear()


def test_training_crops_rendered_with_other_fonts_are_not_taken_from_the_cache(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    here = ("/a/DejaVuSans.ttf", "/a/LiberationSerif-Bold.ttf")
    unpinned = replace(SHIPPED["cards"], fonts=())
    monkeypatch.setattr(glyphs, "installed_fonts", lambda: here)
    both = cache_key(unpinned)
    pinned = cache_key(SHIPPED["cards"])
    monkeypatch.setattr(glyphs, "installed_fonts", lambda: here[:1])
    assert cache_key(unpinned) != both
    # The shipped recipe draws with DejaVu only: fonts it does not draw with change nothing.
    assert cache_key(SHIPPED["cards"]) == pinned
    monkeypatch.setattr(glyphs, "installed_fonts", lambda: ())
    assert cache_key(unpinned).endswith("-fnone")
    assert cache_key(SHIPPED["cards"]).endswith("-fnone")
    # The proposals' gate keeps its own crops, under its teacher's id.
    teacher = MODELS / "cards.onnx"
    assert train_gate.cache_key(GATE, teacher).endswith("-fnone")
    monkeypatch.setattr(glyphs, "installed_fonts", lambda: here)
    assert train_gate.cache_key(GATE, teacher).endswith(f"-f{glyphs.font_digest()}")
    assert train_gate.cache_key(SHIPPED["cards-gate"], teacher).endswith(
        f"-f{glyphs.font_digest(('DejaVu',))}"
    )


def _liberation_installed() -> tuple[str, ...]:
    installed = glyphs.installed_fonts()
    if not any("Liberation" in p for p in installed):
        # CI installs them (.ci/apt-packages.txt) and must run these.
        assert os.environ.get("CI") != "true", "fonts-liberation is not installed"
        pytest.skip("the Liberation fonts are not installed (.ci/apt-packages.txt)")
    return installed


def _only_dejavu(monkeypatch: pytest.MonkeyPatch, installed: tuple[str, ...]) -> None:
    """This process as a machine with the DejaVu fonts only (the shipped cards' renders)."""
    dejavu = tuple(p for p in installed if "DejaVu" in p)
    monkeypatch.setattr(glyphs, "installed_fonts", lambda: dejavu)
    glyphs.text_mask.cache_clear()


def test_a_recipe_pinned_to_its_fonts_draws_its_scenes_where_more_are_installed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    installed = _liberation_installed()

    def images() -> list[np.ndarray]:
        return [synth.card_scene(np.random.default_rng(s), "allin").image for s in range(3)]

    every = images()
    try:
        glyphs.draw_with(("DejaVu",))
        assert glyphs.font_signature() == glyphs.font_signature(("DejaVu",))
        pinned = images()
    finally:
        glyphs.draw_with()
    _only_dejavu(monkeypatch, installed)
    try:
        fewer = images()
    finally:
        glyphs.text_mask.cache_clear()
    assert all(np.array_equal(a, b) for a, b in zip(pinned, fewer, strict=True))
    assert not all(np.array_equal(a, b) for a, b in zip(pinned, every, strict=True))


def _cards(fonts: tuple[str, ...]) -> tuple[np.ndarray, np.ndarray]:
    recipe = Settings("cards", scenes=2, real=False, jitters=1, workers=1, fonts=fonts)
    x, y, _ = build(recipe)
    return x, y


def _pips(fonts: tuple[str, ...]) -> tuple[np.ndarray, np.ndarray]:
    x, y, _ = train_pips.build(0, 2, 1, real=False, fonts=fonts)
    return x, y


def _gate(fonts: tuple[str, ...]) -> tuple[np.ndarray, np.ndarray]:
    x, _ = train_gate.gather(replace(GATE, scenes=2, real=False, workers=1, fonts=fonts), MODELS)
    return x, np.zeros(0)


@pytest.mark.parametrize("crops", [_cards, _pips, _gate], ids=["cards", "pips", "gate"])
def test_training_workers_render_with_the_recipes_fonts(
    monkeypatch: pytest.MonkeyPatch, crops: Callable[[tuple[str, ...]], tuple[np.ndarray, ...]]
) -> None:
    """The crops ``tableref train`` renders with a pinned recipe are those of a machine with
    only the pinned fonts installed, whatever else this one has."""
    installed = _liberation_installed()
    pinned, labels = crops(("DejaVu",))
    every, _ = crops(())
    _only_dejavu(monkeypatch, installed)  # the forked worker inherits it
    try:
        fewer, fewer_labels = crops(())
    finally:
        glyphs.text_mask.cache_clear()
    assert np.array_equal(pinned, fewer) and np.array_equal(labels, fewer_labels)
    assert pinned.shape != every.shape or not np.array_equal(pinned, every)


def test_a_recipe_whose_fonts_are_missing_is_refused_before_it_renders(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(glyphs, "installed_fonts", lambda: ("/a/LiberationSans-Regular.ttf",))
    with pytest.raises(FileNotFoundError, match=r"no TrueType font DejaVu\* to draw with"):
        train(replace(SHIPPED["cards"], scenes=1, epochs=1), out=tmp_path, cache=False)
    with pytest.raises(FileNotFoundError, match=r"DejaVu\*"):
        train_gate.train(SHIPPED["cards-gate"], out=tmp_path, cache=False)
    assert not list(tmp_path.iterdir())


def test_the_train_command_names_the_fonts_a_recipe_lacks(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Pips and the tiles' gate draw with DejaVu and Liberation: one family is not enough.
    monkeypatch.setattr(glyphs, "installed_fonts", lambda: ("/a/DejaVuSans.ttf",))
    for kind in ("pips", "tiles-gate"):
        code, _, err = run(capsys, "train", kind, "--epochs", "1", "--out", str(tmp_path))
        assert code == 2 and "no TrueType font Liberation* to draw with" in err
    monkeypatch.setattr(glyphs, "installed_fonts", lambda: ())
    for kind in ("cards", "cards-gate"):
        code, _, err = run(capsys, "train", kind, "--epochs", "1", "--out", str(tmp_path))
        assert code == 2 and "no TrueType font DejaVu* to draw with" in err
    code, _, err = run(capsys, "train", "pips", "--out", str(tmp_path))
    assert "no TrueType font DejaVu*, Liberation* to draw with" in err
    assert not list(tmp_path.iterdir())


def test_the_shipped_recipes_draw_with_the_fonts_their_models_were_rendered_with() -> None:
    """models/MODEL_CARD.md: the card recogniser and its gate were rendered with these 20 files
    of fonts-dejavu-core, the pips recogniser and the tiles' gate with those and the 16 of
    fonts-liberation. Should Debian's packages change them, the recipes no longer draw the
    shipped scenes, and this says so."""
    _liberation_installed()
    for kind in ("cards", "cards-gate"):
        assert glyphs.font_signature(SHIPPED[kind].fonts) == "20 TrueType fonts (e3fbc4ab50c4)"
    for kind in ("pips", "tiles-gate"):
        assert glyphs.font_signature(SHIPPED[kind].fonts) == "36 TrueType fonts (f8daebbfc0ce)"


def test_training_results_name_the_fonts_the_recipe_drew_with(tmp_path: Path) -> None:
    """``render_fonts`` says which fonts the crops were drawn with: the recipe's pinned ones,
    not every font this machine has."""
    _liberation_installed()
    pinned = Settings(
        "cards",
        scenes=1,
        epochs=1,
        batch=64,
        real=False,
        workers=1,
        calibration_photos=2,
        fonts=("DejaVu",),
    )
    result = train(pinned, out=tmp_path, cache=False)
    assert result["render_fonts"] == "20 TrueType fonts (e3fbc4ab50c4)"
    assert result["render_fonts"] != glyphs.font_signature()
