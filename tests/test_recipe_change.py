"""`tableref train --recipe NAME=VALUE`: a recipe change as one command (vision.recipe_change)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from cli_helpers import run

from vision import train
from vision.recipe_change import RecipeError, changed


def _asked(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    *args: str,
) -> tuple[int, str, list[train.Settings]]:
    asked: list[train.Settings] = []

    def fake(settings: train.Settings, out: Path, progress: Any) -> dict[str, Any]:
        asked.append(settings)
        return {}

    monkeypatch.setattr(train, "train", fake)
    code, _, err = run(capsys, "train", *args, "--out", str(tmp_path))
    return code, err, asked


def test_a_recipe_change_trains_the_shipped_recipe_with_those_settings_changed(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    code, err, asked = _asked(
        capsys,
        monkeypatch,
        tmp_path,
        *("cards", "--seed", "1", "--dev-out"),
        *("--recipe", "thin_digits=0.2", "--recipe", "fonts=DejaVu, Liberation"),
        *("--recipe", "orient_real=false", "--recipe", "widths=16,32,96"),
    )
    assert code == 0, err
    assert asked == [
        replace(
            train.SHIPPED["cards"],
            seed=1,
            dev_out=True,
            thin_digits=0.2,
            fonts=("DejaVu", "Liberation"),
            orient_real=False,
            widths=(16, 32, 96),
        )
    ]


@pytest.mark.parametrize(
    ("pair", "why"),
    [
        ("thin=0.2", "--recipe thin: no such setting (one of: batch, lr,"),
        ("seed=3", "--recipe seed: give it as --seed"),
        ("dev_out=true", "--recipe dev_out: give it as --dev-out"),
        ("thin_digits", "--recipe 'thin_digits' is not of the form NAME=VALUE"),
        ("thin_digits=lots", "--recipe thin_digits=lots: thin_digits is a float"),
        ("real_repeat=2.5", "--recipe real_repeat=2.5: real_repeat is an int"),
        ("reframe=maybe", "--recipe reframe=maybe: reframe is true or false"),
        ("widths=16,x,64", "--recipe widths=16,x,64: widths is int values, comma-separated"),
    ],
)
def test_a_recipe_change_that_names_no_setting_or_a_wrong_value_is_refused_before_training(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    pair: str,
    why: str,
) -> None:
    code, err, asked = _asked(capsys, monkeypatch, tmp_path, "cards", "--recipe", pair)
    assert code == 2 and why in err
    assert asked == []


def test_a_setting_changed_twice_is_refused_rather_than_one_silently_winning() -> None:
    with pytest.raises(RecipeError, match="--recipe grey is given twice"):
        changed(train.SHIPPED["cards"], ["grey=0.2", "grey=0.3"])


def test_no_recipe_change_leaves_the_shipped_recipe_as_it_is() -> None:
    assert changed(train.SHIPPED["tiles"], []) == train.SHIPPED["tiles"]
