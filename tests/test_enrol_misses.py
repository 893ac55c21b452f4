"""Why an enrolled deck's objects were missed (`python -m vision.enrol_misses`)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from vision import detect_cards, enrol_misses, synth_unseen
from vision.enrol_misses import BUCKETS, causes, measure
from vision.reader import TableReader

PRINT = 201  # a development print (AR PL UMing), not one the benchmark reads
SCENE_SEED = 61_000


@pytest.fixture(scope="module")
def one_print() -> dict[str, Any]:
    return measure("cards", 7, SCENE_SEED, 2, print_seed=PRINT)


def test_a_one_print_deck_is_enrolled_and_read_in_that_print(one_print: dict[str, Any]) -> None:
    deck = synth_unseen.deck_print(PRINT)
    scenes = [
        synth_unseen.scene("cards", np.random.default_rng(SCENE_SEED + i), deck=deck)
        for i in range(2)
    ]
    assert one_print["print_seed"] == PRINT and one_print["font"] == deck.font
    assert one_print["objects"] == sum(len(s.truths) for s in scenes)
    assert one_print["enrolled"] == 53  # the whole standard deck, jokers among them


def test_the_layout_and_every_scene_are_drawn_in_the_one_print(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Without the print passed on, each card would be printed its own way: a deck no player
    # owns, enrolled from a layout unlike the table's cards.
    drawn: list[Any] = []
    for name in ("scene", "layout_scene"):
        real = getattr(synth_unseen, name)

        def spy(*args: Any, _real: Any = real, **kwargs: Any) -> Any:
            drawn.append(kwargs.get("deck"))
            return _real(*args, **kwargs)

        monkeypatch.setattr(synth_unseen, name, spy)
    measure("cards", 7, SCENE_SEED, 1, print_seed=PRINT)
    assert drawn == [synth_unseen.deck_print(PRINT)] * 2


def test_every_object_not_read_right_falls_in_one_bucket(one_print: dict[str, Any]) -> None:
    misses = one_print["misses"]
    assert list(misses) == list(BUCKETS)
    assert sum(misses.values()) == one_print["objects"] - one_print["right"]
    assert sum(one_print["spurious_by_place"].values()) == one_print["spurious"]
    # Enrolment is what reads this thin-stroked print: most of it is read right.
    assert one_print["right"] > 0.8 * one_print["objects"]


def test_an_object_no_first_proposal_covers_is_not_proposed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    scene = synth_unseen.scene(
        "cards", np.random.default_rng(SCENE_SEED), deck=synth_unseen.deck_print(PRINT)
    )
    reader = TableReader("cards")
    monkeypatch.setattr(detect_cards, "card_candidates", lambda image, **_: [])
    miss, _, s = causes(reader, scene)
    assert s.objects - s.right == miss["not_proposed"] > 0
    assert set(miss) == {"not_proposed"}


def test_the_command_reads_with_the_models_it_is_given(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[tuple[Any, ...]] = []

    def fake(*args: Any) -> dict[str, Any]:
        seen.append(args)
        return {"game": args[0], "print_seed": args[5]}

    monkeypatch.setattr(enrol_misses, "measure", fake)
    enrol_misses.main(
        ["allin", "--prints", "201", "202", "--layout", "7", "--scenes", "3", "--models", "m"]
    )
    assert [a[5] for a in seen] == [201, 202]
    assert all(a[1:4] == (7, 60_000, 3) and a[6] == Path("m") for a in seen)
    assert all(a[7] is None for a in seen)  # the folder's own gate, where it has one
    lines = capsys.readouterr().out.splitlines()
    assert [json.loads(line)["print_seed"] for line in lines] == [201, 202]
    enrol_misses.main(["allin", "--prints", "201", "--models", "m", "--gate-from", "g"])
    assert seen[-1][6:] == (Path("m"), Path("g"))


def test_an_unknown_game_is_refused_by_name(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        enrol_misses.main(["poker"])
    assert "invalid choice: 'poker'" in capsys.readouterr().err


def test_a_models_folder_without_the_games_model_is_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stop:
        enrol_misses.main(["cards", "--prints", "201", "--models", str(tmp_path)])
    assert stop.value.code == 2
    assert f"{tmp_path}/cards.labels.json is missing" in capsys.readouterr().err
