"""Reading Four Color and Cactus tables: accuracy floors on generated tables training never saw
(held-in and held-out fonts), meld grouping on crafted layouts, the ``tableref read`` JSON for
both games, and a few training steps exporting a loadable model for each."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from host.rules.notation import tokens
from tests.cli_helpers import tableref
from vision import cjk_fonts, detect_cactus, evaluate_fcc, synth_cactus, synth_fourcolor
from vision.evaluate import Score
from vision.labels import LabelSpec
from vision.overlaps import quad_iou
from vision.read_fcc import exposed_melds
from vision.reader import Found, Reading, TableReader
from vision.recognise import Recogniser
from vision.synth_compose import card_quad
from vision.train import Settings, train

# Seeds training never renders (it uses seed * 1_000_003 + i for i < scenes), and not the
# benchmark's (700_000+ and 800_000+).
SEEDS = (900_000, 900_001, 900_002)
HELD_OUT_SEED = 910_000


@pytest.fixture(scope="module")
def fourcolor_reader() -> TableReader:
    return TableReader("fourcolor")


@pytest.fixture(scope="module")
def cactus_reader() -> TableReader:
    return TableReader("cactus")


def _fourcolor(seed: int, fonts: tuple[str, ...]) -> synth_fourcolor.FourColorScene:
    return synth_fourcolor.render_scene(np.random.default_rng(seed), fonts=fonts)


def _cactus(seed: int, held_out: bool) -> synth_cactus.CactusScene:
    rng = np.random.default_rng(seed)
    fonts = cjk_fonts.HELDOUT_FONTS if held_out else cjk_fonts.TRAIN_FONTS
    style = synth_cactus.random_style(rng, fonts, heldout_hues=held_out)
    return synth_cactus.render_scene(rng, style=style)


def test_fourcolor_reads_generated_tables(fourcolor_reader: TableReader) -> None:
    total = Score()
    melds = melds_right = 0
    for seed in SEEDS:
        scene = _fourcolor(seed, cjk_fonts.TRAIN_FONTS)
        reading = fourcolor_reader.read(scene.image)
        total.add(evaluate_fcc.score(reading.objects, evaluate_fcc.fourcolor_truth(scene)))
        truth = [[scene.objects[i].label for i in m] for m in scene.melds]
        melds += evaluate_fcc.reportable_melds(truth)
        melds_right += evaluate_fcc.melds_right(reading.sets or [], truth)
    # Measured on these tables: 31/32 right, 1 spurious, 9/9 melds whole.
    assert total.objects >= 20
    assert total.accuracy >= 0.9, total.to_json()
    assert total.spurious_rate <= 0.07, total.to_json()
    assert melds_right >= 0.75 * melds, (melds_right, melds)


def test_fourcolor_reads_a_font_it_never_trained_on(fourcolor_reader: TableReader) -> None:
    scene = _fourcolor(HELD_OUT_SEED, cjk_fonts.HELDOUT_FONTS)
    assert scene.style.font not in cjk_fonts.TRAIN_FONTS
    # Measured: 14/14 right.
    s = evaluate_fcc.score(
        fourcolor_reader.read(scene.image).objects, evaluate_fcc.fourcolor_truth(scene)
    )
    assert s.accuracy >= 0.9, s.to_json()


def test_cactus_reads_generated_tables(cactus_reader: TableReader) -> None:
    total = Score()
    for seed in range(SEEDS[0], SEEDS[0] + 6):  # Cactus tables hold few cards: read more
        scene = _cactus(seed, held_out=False)
        reading = cactus_reader.read(scene.image)
        total.add(evaluate_fcc.score(reading.objects, evaluate_fcc.cactus_truth(scene)))
        top = scene.objects[scene.pile[-1]]
        assert top.label in [o.label for o in reading.objects]  # the discard pile's top card
    # Measured: 23/23 right, none spurious.
    assert total.accuracy >= 0.85, total.to_json()
    assert total.spurious_rate <= 0.1, total.to_json()


def test_cactus_reads_a_deck_style_it_never_trained_on(cactus_reader: TableReader) -> None:
    scene = _cactus(HELD_OUT_SEED, held_out=True)
    assert scene.style.font in cjk_fonts.HELDOUT_FONTS
    s = evaluate_fcc.score(
        cactus_reader.read(scene.image).objects, evaluate_fcc.cactus_truth(scene)
    )
    assert s.objects >= 3 and s.accuracy >= 0.75, s.to_json()  # measured: 4/4


@pytest.mark.parametrize(
    ("seed", "card", "label"),
    # Fresh tables (not training's, not the benchmark's): a band the colour of the table
    # (930 030), a band whose corner touches the outline of the card lying over it (930 082).
    [(930_030, 3, "walter"), (930_082, 0, "wild")],
)
def test_cactus_reads_a_name_under_the_top_of_the_pile(
    cactus_reader: TableReader, seed: int, card: int, label: str
) -> None:
    scene = _cactus(seed, held_out=False)
    band, visible = scene.bands(in_photo=True)[card]
    assert scene.objects[card].label == label and visible >= evaluate_fcc.MUST["cactus"]
    truth = scene.objects[card].quad.astype(np.float32)
    # The training proposals (the shipped model's recipe) miss this band ...
    bars = detect_cactus.band_candidates(scene.image)
    assert all(quad_iou(b.astype(np.float32), band.astype(np.float32)) < 0.5 for b in bars)
    # ... and the reader's covered-band proposals find it, so the name is read.
    reads = cactus_reader.read(scene.image).objects
    assert any(
        o.label == label and quad_iou(o.quad, truth) >= evaluate_fcc.MATCH_IOU for o in reads
    )


def _card(label: str, x: float, y: float, angle: float, w: float = 40.0) -> Found:
    quad = card_quad(x, y, w, w / synth_fourcolor.ASPECT, angle).astype(np.float32)
    return Found(label, 0.99, quad, [])


def test_melds_are_rows_of_cards_and_a_fan_is_none() -> None:
    cards = [
        # A meld of three, another of two after a wider gap, both turned 10°.
        *(_card(t, 100 + 44 * k, 100 + 7.8 * k, 10) for k, t in enumerate(["rR", "rH", "rC"])),
        *(_card(t, 290 + 44 * k, 133 + 7.8 * k, 10) for k, t in enumerate(["gS", "gS"])),
        # A lone general is a meld; a lone soldier is not.
        _card("yG", 500, 100, 0),
        _card("wS", 700, 100, 0),
    ]
    # A fanned hand: each card turned 13° further about a pivot below, overlapping the last.
    for k, t in enumerate(["rA", "gE", "yR", "wC", "rS"]):
        theta = np.deg2rad(-26 + 13 * k)
        cx, cy = 400 + 110 * np.sin(theta), 560 - 110 * np.cos(theta)
        cards.append(_card(t, cx, cy, float(np.degrees(theta))))
    melds = exposed_melds(cards)
    assert sorted(melds) == sorted([["rR", "rH", "rC"], ["gS", "gS"], ["yG"]])


def test_melds_read_left_to_right_whichever_end_is_read() -> None:
    # Cards read from their far (upside-down) end: their quads face the other way.
    cards = [_card(t, 100 + 44 * k, 100, 180) for k, t in enumerate(["yG", "yA", "yE"])]
    assert exposed_melds(cards) == [["yG", "yA", "yE"]]


def test_reading_json_carries_melds_for_fourcolor_and_sets_for_rummikub() -> None:
    found = [_card("rG", 10, 10, 0)]
    assert Reading(found, [["rG"]], game="fourcolor").to_json("x")["melds"] == [["rG"]]
    assert "sets" not in Reading(found, [["rG"]], game="fourcolor").to_json("x")
    assert Reading(found, [["r1", "r2"]]).to_json("x")["sets"] == ["r1 r2"]
    assert set(Reading(found, None, game="cactus").to_json("x")) == {"image", "objects"}


@pytest.mark.parametrize("game", ["fourcolor", "cactus"])
def test_read_json_contract(
    game: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    scene = (
        _fourcolor(SEEDS[0], cjk_fonts.TRAIN_FONTS)
        if game == "fourcolor"
        else _cactus(SEEDS[0], held_out=False)
    )
    path = tmp_path / "table.png"
    cv2.imwrite(str(path), scene.image)
    out = tmp_path / "annotated.png"
    result = tableref(
        capsys, monkeypatch, "read", str(path), "--game", game, "--json", "--annotate", str(out)
    )
    assert result.code == 0, result.err
    data = json.loads(result.out)
    assert data["image"] == str(path)
    assert set(data) == (
        {"image", "objects", "melds"} if game == "fourcolor" else {"image", "objects"}
    )
    valid = set(tokens(game))
    assert data["objects"]
    for o in data["objects"]:
        assert set(o) == {"label", "confidence", "quad", "alternatives"}
        assert o["label"] in valid and 0.0 <= o["confidence"] <= 1.0
        assert len(o["quad"]) == 4 and all(len(p) == 2 for p in o["quad"])
        if o["confidence"] < 0.9:
            assert len(o["alternatives"]) == 3
    if game == "fourcolor":
        read = [o["label"] for o in data["objects"]]
        for meld in data["melds"]:
            assert meld and all(t in read for t in meld)
        text = tableref(capsys, monkeypatch, "read", str(path), "--game", game)
        melds = [line.split(":", 1)[1].split() for line in text.out.splitlines() if "meld:" in line]
        assert melds == data["melds"]
    assert cv2.imread(str(out)) is not None


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["fourcolor", "cactus"])
def test_train_smoke_exports_a_loadable_model(kind: str, tmp_path: Path) -> None:
    settings = Settings(kind, seed=5, scenes=2, epochs=1, batch=64, real=False, workers=1)
    result = train(settings, out=tmp_path, cache=False)
    model = tmp_path / f"{kind}.onnx"
    assert model.is_file() and result["bytes"] < 5 * 1024 * 1024
    spec = LabelSpec.load(tmp_path / f"{kind}.labels.json")
    assert set(spec.decks[kind]) == set(tokens(kind))
    rec = Recogniser(model, spec)
    w, h = spec.crop
    logits, emb = rec.run(np.zeros((3, h, w, 3), np.uint8))
    assert logits.shape == (3, len(spec.labels)) and emb.shape[0] == 3 and emb.shape[1] >= 32
    assert len(rec.classify(np.zeros((2, h, w, 3), np.uint8), kind)) == 2


def test_a_pale_card_in_a_meld_is_drawn_along_its_row(fourcolor_reader: TableReader) -> None:
    # A fresh table (not training's, not the benchmark's): the white 兵 (wS) in a meld, on
    # pale paper no paler than the table, is read from its bottom end alone. Its paper ends at
    # once along the card while the neighbours' paper runs on across the row, which turned
    # the card a quarter, across its row; its row's neighbours keep it along the row.
    scene = _fourcolor(950_030, cjk_fonts.TRAIN_FONTS)
    card = scene.objects[2]
    assert card.label == "wS" and 2 in [i for m in scene.melds for i in m]
    truth = card.quad.astype(np.float32)
    reads = [o for o in fourcolor_reader.read(scene.image).objects if o.label == "wS"]
    assert any(quad_iou(o.quad, truth) >= evaluate_fcc.MATCH_IOU for o in reads), [
        o.quad.tolist() for o in reads
    ]


@pytest.mark.parametrize(("seed", "cards"), [(950_047, (13, 14)), (900_020, (5, 7))])
def test_two_copies_side_by_side_in_a_fan_are_two_cards(
    fourcolor_reader: TableReader, seed: int, cards: tuple[int, int]
) -> None:
    # Fresh tables (training fonts): two copies of one card next to each other in a fanned
    # hand. Near the pivot the one's lower end lies on the other's centre line, which read
    # them as one card read twice; that card was seen at both ends, and the other read lies
    # at neither.
    scene = _fourcolor(seed, cjk_fonts.TRAIN_FONTS)
    label = scene.objects[cards[0]].label
    assert scene.objects[cards[1]].label == label
    reads = [o for o in fourcolor_reader.read(scene.image).objects if o.label == label]
    for card in cards:
        truth = scene.objects[card].quad.astype(np.float32)
        assert any(quad_iou(o.quad, truth) >= evaluate_fcc.MATCH_IOU for o in reads), card
