"""The proposals' gate in front of an enrolled deck's reads (`reader.PROFILE_GATED`)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from enrol_helpers import one_print_deck

from vision import detect_cards, enrol_misses, synth
from vision import reader as reader_module
from vision.crops import crops
from vision.evaluate import score
from vision.reader import PROFILE_GATED, TURNED_AWAY, TableReader

PRINT = 201  # a development print (AR PL UMing, thin pastel strokes), not the benchmark's
SCENES = range(61_000, 61_002)


@pytest.fixture(scope="module")
def enrolled_cards() -> tuple[TableReader, list[synth.Scene]]:
    reader = TableReader("cards")
    return reader, one_print_deck(reader, PRINT, SCENES)


def _described(reader: TableReader, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The sizes of the batches the recogniser is asked to describe from now on."""
    sizes: list[int] = []
    describe = reader.recogniser.describe

    def spy(batch: Any) -> Any:
        sizes.append(len(batch))
        return describe(batch)

    monkeypatch.setattr(reader.recogniser, "describe", spy)
    return sizes


def test_an_enrolled_card_deck_is_read_only_where_the_gate_passes_a_crop(
    enrolled_cards: tuple[TableReader, list[synth.Scene]], monkeypatch: pytest.MonkeyPatch
) -> None:
    reader, scenes = enrolled_cards
    assert "cards" in PROFILE_GATED and reader.gated
    scene = scenes[0]
    described = _described(reader, monkeypatch)
    gated = reader.read(scene.image)
    asked = sum(described)
    # Most proposals are texture and print no index: the gate turns them away unread.
    assert 0 < asked < 0.5 * gated.timings["candidates"]
    # ...and what it turns away is nothing the profile would have kept: read whole, the
    # same objects.
    monkeypatch.setattr(reader, "gate", None)
    described.clear()
    whole = reader.read(scene.image)
    assert sum(described) >= gated.timings["candidates"]
    assert [(o.label, o.quad.tolist()) for o in gated.objects] == [
        (o.label, o.quad.tolist()) for o in whole.objects
    ]
    assert score(gated.objects, scene.truths).right >= 0.8 * len(scene.truths)


def test_a_crop_the_gate_turns_away_reads_as_nothing_looked_at_in_no_view(
    enrolled_cards: tuple[TableReader, list[synth.Scene]], monkeypatch: pytest.MonkeyPatch
) -> None:
    reader, scenes = enrolled_cards
    image = scenes[0].image
    truth = scenes[0].truths[0]
    batch = crops(image, [truth.quad, truth.quad], reader.recogniser.spec.crop)
    assert reader.gate is not None
    monkeypatch.setattr(reader.gate, "worth_reading", lambda b: np.array([1]))
    first, second = reader._recognise(batch)
    assert first is TURNED_AWAY
    assert second.label == truth.label  # the crop passed is read through the profile


def test_an_enrolled_tile_deck_reads_every_crop(monkeypatch: pytest.MonkeyPatch) -> None:
    # With the tiles' gate, 12 fewer of 3108 tiles of one-print decks were read right
    # (prints 21-26, models/LIMITS.md 2026-12-07): tiles are read whole.
    reader = TableReader("rummikub")
    scene = one_print_deck(reader, PRINT, range(61_000, 61_001))[0]
    assert reader.gate is not None and not reader.gated

    def refuse(batch: Any) -> Any:
        raise AssertionError("the tiles' gate was asked about an enrolled deck's crops")

    monkeypatch.setattr(reader.gate, "worth_reading", refuse)
    described = _described(reader, monkeypatch)
    reading = reader.read(scene.image)
    assert sum(described) >= reading.timings["candidates"]
    assert score(reading.objects, scene.truths).right >= 0.8 * len(scene.truths)


def test_an_index_whose_proposals_the_gate_turned_away_is_booked_to_it(
    enrolled_cards: tuple[TableReader, list[synth.Scene]], monkeypatch: pytest.MonkeyPatch
) -> None:
    reader, scenes = enrolled_cards
    assert reader.gate is not None
    monkeypatch.setattr(reader.gate, "worth_reading", lambda b: np.zeros(0, np.int64))
    miss, _, s = enrol_misses.causes(reader, scenes[0])
    assert s.right == 0
    # Every index was proposed; the profile, asked, names most of them right.
    assert miss["turned_away"] >= 0.8 * s.objects
    assert sum(miss.values()) == s.objects


def test_an_enrolled_card_deck_names_only_the_crops_that_may_be_objects(
    enrolled_cards: tuple[TableReader, list[synth.Scene]], monkeypatch: pytest.MonkeyPatch
) -> None:
    reader, scenes = enrolled_cards
    assert reader.profile is not None
    image = scenes[0].image
    quads = detect_cards.card_candidates(image, ink_floor=reader.ink_floor)
    batch = crops(image, quads, reader.recogniser.spec.crop)
    named: list[int] = []
    classify = reader.profile.classify

    def spy(embeddings: Any, *args: Any, **kwargs: Any) -> Any:
        named.append(len(embeddings))
        return classify(embeddings, *args, **kwargs)

    monkeypatch.setattr(reader.profile, "classify", spy)
    some = reader._read_every(batch)
    every = reader._read_every(batch, name_all=True)
    assert named[1] == len(batch) and 0 < named[0] < 0.5 * len(batch)
    # The same objects, named alike; a nothing keeps its names only when they are asked for.
    assert [(r.label, r.overlap_rank) for r in some] == [(r.label, r.overlap_rank) for r in every]
    nothing = [k for k, r in enumerate(some) if r.label == "none"]
    assert nothing and all(some[k].alternatives == [] for k in nothing)
    assert any(every[k].alternatives for k in nothing)
    monkeypatch.setattr(reader_module, "NAMED_ONLY", ())
    named.clear()
    reader._read_every(batch)
    assert named == [len(batch)]
