"""Printed words on generated card tables (vision.synth_print, Settings.lettering)."""

from __future__ import annotations

from dataclasses import replace
from functools import partial

import numpy as np
import pytest

from vision import synth, synth_print


def test_words_are_brand_like_and_never_a_cards_own() -> None:
    rng = np.random.default_rng(0)
    words = [synth_print.word(rng) for _ in range(3000)]
    assert all(3 <= len(w) <= 9 and w.isalpha() for w in words)
    assert not {w.upper() for w in words} & {"JOKER", "JOKERS"}
    assert not set("".join(words).upper()) & set("AJKQR")  # no rank's (or the rune's) letter
    cases = {"upper": 0, "lower": 0, "title": 0}
    for w in words:
        cases["upper" if w.isupper() else "lower" if w.islower() else "title"] += 1
    assert min(cases.values()) > 800  # every case prints, about as often


def test_words_are_printed_on_the_table_and_drawn_alike_from_one_seed() -> None:
    table = np.full((300, 400, 3), 128, np.uint8)
    first, second = table.copy(), table.copy()
    synth_print.print_words(first, np.random.default_rng(5))
    synth_print.print_words(second, np.random.default_rng(5))
    assert (first != table).any(axis=2).mean() > 0.002  # ink (or a badge) went down
    assert np.array_equal(first, second)


def test_a_scene_with_words_lays_the_same_cards_as_its_seed_always_did() -> None:
    words = partial(synth_print.print_words, rng=np.random.default_rng((11, 7)))
    lettered = synth.card_scene(np.random.default_rng(11), "cards", table_print=words)
    plain = synth.card_scene(np.random.default_rng(11), "cards")
    assert [t.label for t in lettered.truths] == [t.label for t in plain.truths]
    for a, b in zip(lettered.truths, plain.truths, strict=True):
        assert np.array_equal(a.quad, b.quad)
    assert lettered.conditions == plain.conditions
    assert not np.array_equal(lettered.image, plain.image)


def test_the_training_scenes_get_words_at_the_recipes_share(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from vision import train as training

    printed: list[bool] = []

    def cards(
        rng: np.random.Generator, game: str, face: object = None, table_print: object = None
    ) -> synth.Scene:
        printed.append(table_print is not None)
        return synth.Scene(np.zeros((60, 80, 3), np.uint8), [])

    monkeypatch.setattr(synth, "card_scene", cards)
    for seed in range(200):
        training._scene_job(training.SceneJob("cards", seed, 1, {}, lettering=0.5))
    assert 70 < sum(printed) < 130
    printed.clear()
    for seed in range(50):
        training._scene_job(training.SceneJob("cards", seed, 1, {}))
    assert not any(printed)  # the shipped recipe's scenes, as always
    shipped = training.SHIPPED["cards"]
    assert shipped.lettering == 0.0
    assert training.cache_key(replace(shipped, lettering=0.5)) != training.cache_key(shipped)


def test_every_training_scene_carries_the_recipes_drawing_shares() -> None:
    from vision import train as training

    settings = training.Settings(
        "cards", seed=2, scenes=3, thin_digits=0.2, grey=0.1, lettering=0.5
    )
    jobs = training.scene_jobs(settings, {"face_negatives": 0})
    assert [j.seed for j in jobs] == [2_000_006, 2_000_007, 2_000_008]
    assert {(j.thin, j.grey, j.lettering) for j in jobs} == {(0.2, 0.1, 0.5)}
    assert all(j.kind == "cards" and j.extra == {"face_negatives": 0} for j in jobs)
