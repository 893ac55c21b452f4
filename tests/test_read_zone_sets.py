"""``tableref read --zone``: the Rummikub sets and Four Color melds in the JSON are those of the
zone's objects alone, like the objects (issue 7, zones): a set never names a tile outside."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import cv2
import numpy as np
import pytest

from tests.cli_helpers import tableref
from vision import calibrate as cal
from vision import synth
from vision.read_fcc import exposed_melds
from vision.reader import Found, Reading
from vision.synth_compose import card_quad

Capsys = pytest.CaptureFixture[str]


def _found(label: str, quad: object) -> Found:
    return Found(label, 0.99, np.asarray(quad, np.float32), [])


def test_sets_are_grouped_from_the_kept_tiles_alone() -> None:
    # One row of six touching tiles; keeping the left three keeps their part of the set only.
    tiles = [
        _found(f"r{k + 1}", [[100 + 42 * k, 100], [140 + 42 * k, 100], [140 + 42 * k, 155],
                             [100 + 42 * k, 155]])
        for k in range(6)
    ]  # fmt: skip
    reading = Reading(tiles, [["r1", "r2", "r3", "r4", "r5", "r6"]], game="rummikub")
    part = reading.only([0, 1, 2])
    assert [o.label for o in part.objects] == ["r1", "r2", "r3"]
    assert part.sets == [["r1", "r2", "r3"]]
    assert part.to_json("x")["sets"] == ["r1 r2 r3"]
    assert reading.only([]).to_json("x")["sets"] == []


def test_melds_are_grouped_from_the_kept_cards_alone() -> None:
    quads = [card_quad(100 + 30 * k, 100, 25, 80, 0.0) for k in range(3)]
    quads += [card_quad(300 + 30 * k, 100, 25, 80, 0.0) for k in range(3)]  # another meld
    labels = ["r1", "r2", "r3", "g7", "g7", "g7"]
    cards = [_found(label, q) for label, q in zip(labels, quads, strict=True)]
    reading = Reading(cards, exposed_melds(cards), game="fourcolor")
    assert sorted(reading.sets or []) == [["g7", "g7", "g7"], ["r1", "r2", "r3"]]
    part = reading.only([0, 1, 3, 4, 5])
    assert sorted(part.to_json("x")["melds"]) == [["g7", "g7", "g7"], ["r1", "r2"]]
    assert reading.only([3]).to_json("x")["melds"] == []  # a lone card is no meld
    # Cactus reads carry no groups: none appear from a filter either.
    assert "sets" not in Reading(cards, None, game="cactus").only([0]).to_json("x")


def test_read_zone_restricts_sets_to_the_zone(
    tmp_path: Path, capsys: Capsys, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A generated table whose longest set crosses the middle, seen square: 1 mm a pixel.
    scene = synth.tile_scene(np.random.default_rng(1), layout="rows", angle=0.0)
    photo = tmp_path / "tiles.png"
    cv2.imwrite(str(photo), scene.image)
    corners = [(0, 0), (1000, 0), (1000, 750), (0, 750)]
    c = cal.from_corners("home", corners, 1000, 750, image_size=(1000, 750))
    cal.save(c.with_zone(cal.Zone.rect("left", 0.0, 0.0, 0.5, 1.0)), tmp_path)
    args = ("read", str(photo), "--game", "rummikub", "--table", "home", "--json")
    dd = ("--data-dir", str(tmp_path))
    whole = tableref(capsys, monkeypatch, *args, *dd).json()
    x = {id(o): o["table"]["centre_mm"][0] for o in whole["objects"]}
    assert any(v < 500 for v in x.values()) and any(v > 500 for v in x.values())
    # Without the zone a set spans both halves: the filter has something to cut.
    left_labels = Counter(o["label"] for o in whole["objects"] if x[id(o)] < 500)
    assert any(Counter(s.split()) - left_labels for s in whole["sets"])
    r = tableref(capsys, monkeypatch, *args, *dd, "--zone", "left")
    assert r.code == 0, r.err
    kept = r.json()["objects"]
    assert kept and all(o["table"]["zone"] == "left" for o in kept)
    assert Counter(o["label"] for o in kept) == left_labels
    # Every tile of every set is a kept object, and every kept tile is in one set.
    in_sets = Counter(t for s in r.json()["sets"] for t in s.split())
    assert in_sets == left_labels
