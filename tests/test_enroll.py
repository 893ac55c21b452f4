"""Deck enrolment mechanics: reading order of a laid-out grid, completeness checks, nearest-
neighbour reads from a profile, and profiles stored per game and deck."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from vision import enroll
from vision.synth_compose import card_quad


def test_reading_order_follows_rows_then_columns() -> None:
    rng = np.random.default_rng(0)
    quads, truth = [], []
    for r in range(4):
        for c in range(7):
            x = 60 + c * 70 + rng.normal(0, 4)
            y = 80 + r * 120 + rng.normal(0, 8)
            quads.append(card_quad(x, y, 40, 100, float(rng.normal(0, 4))))
            truth.append(r * 7 + c)
    perm = rng.permutation(len(quads))
    shuffled = [quads[i] for i in perm]
    order = enroll.reading_order(shuffled)
    assert [int(perm[i]) for i in order] == truth


def test_layout_check_names_what_is_wrong() -> None:
    order = ["rG", "rA", "rE", "rR"]
    assert enroll.check_layout(order, [2, 2]).complete
    short = enroll.check_layout(order, [3])
    assert not short.complete and "stops before 'rR' (card 4)" in short.problems[0]
    extra = enroll.check_layout(order, [5])
    assert "remove the extra 1" in extra.problems[0]
    swapped = enroll.check_layout(order, [4], predicted=["rG", "rE", "rA", ""])
    assert [p.split(":")[0] for p in swapped.problems] == [
        "card 2 should be rA but reads as rE",
        "card 3 should be rE but reads as rA",
    ]


def _faces(n: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return rng.integers(0, 255, (n, 16, 12, 3), dtype=np.uint8)


def test_profile_reads_by_nearest_enrolled_card() -> None:
    order = [f"c{i}" for i in range(10)]
    faces = _faces(10, 1)
    profile, report = enroll.enrol(
        "cactus", "mine", "m1", order, [faces[:6], faces[6:]], enroll.pixel_embed
    )
    assert report.complete and profile.passes == 1
    noisy = np.clip(
        faces.astype(int) + np.random.default_rng(2).normal(0, 12, faces.shape), 0, 255
    ).astype(np.uint8)
    reads = profile.classify(enroll.pixel_embed(noisy[::-1]))
    assert [r[0] for r in reads] == order[::-1]
    assert all(r[1] > 0.9 and r[2][0][0] == r[0] and len(r[2]) == 3 for r in reads)


def test_clutter_examples_decide_object_or_nothing() -> None:
    """With clutter from the enrolment photo, a crop is an object when it is clearly nearer an
    enrolled card than any clutter, even where the model calls it nothing (it never saw the
    deck), and nothing when it is nearer the clutter, even where the model calls it an object;
    the name then comes from the cards alone."""
    e = np.eye(4, dtype=np.float32)
    prof = enroll.DeckProfile("cards", "d", "m", ["AS", "KH", "none"], e[:3])
    crops = np.stack([e[0] + 0.2 * e[3], e[2] + 0.3 * e[0], 0.9 * e[0] + e[2]])
    margin, card = prof.object_margin(crops, np.array([0.99, 0.01, 0.5]))  # type: ignore[misc]
    assert margin[0] > 0 and margin[1] < 0 and margin[2] < 0
    assert card[0] > 0.9
    assert [r[0] for r in prof.classify(crops, cards_only=True)] == ["AS", "AS", "AS"]
    assert prof.classify(crops)[1][0] == "none"
    plain = enroll.DeckProfile("cards", "d", "m", ["AS", "KH"], e[:2])
    assert plain.object_margin(crops, np.zeros(3)) is None


def test_incomplete_layout_is_refused() -> None:
    with pytest.raises(enroll.EnrolError, match="found 9 cards but the deck has 10"):
        enroll.enrol(
            "cactus", "mine", "m1", [f"c{i}" for i in range(10)], [_faces(9, 0)], enroll.pixel_embed
        )


def test_profiles_are_stored_per_game_and_deck(tmp_path: Path) -> None:
    order = ["a", "b", "c"]
    p1, _ = enroll.enrol("fourcolor", "grandma", "m1", order, [_faces(3, 0)], enroll.pixel_embed)
    p2, _ = enroll.enrol("fourcolor", "grandma", "m1", order, [_faces(3, 1)], enroll.pixel_embed)
    both = p1.extended(p2)
    assert both.passes == 2 and len(both.labels) == 6
    path = both.save(tmp_path)
    assert path == tmp_path / "decks" / "fourcolor" / "grandma.json"
    back = enroll.DeckProfile.load("fourcolor", "grandma", tmp_path)
    assert back.labels == both.labels and np.allclose(back.embeddings, both.embeddings)
    assert enroll.list_decks("fourcolor", tmp_path) == ["grandma"]
    assert enroll.list_decks("cactus", tmp_path) == []
    with pytest.raises(enroll.EnrolError, match="no enrolled deck 'other' for fourcolor"):
        enroll.DeckProfile.load("fourcolor", "other", tmp_path)
    other_model, _ = enroll.enrol("fourcolor", "x", "m2", order, [_faces(3, 2)], enroll.pixel_embed)
    with pytest.raises(enroll.EnrolError, match="different games or models"):
        p1.extended(other_model)
    path.with_suffix(".npy").write_bytes(b"garbage")
    with pytest.raises(enroll.EnrolError, match="unreadable"):
        enroll.DeckProfile.load("fourcolor", "grandma", tmp_path)


def test_a_profile_from_before_the_ink_measure_changed_asks_to_enrol_again(
    tmp_path: Path,
) -> None:
    """Version 1 profiles hold ink colours measured another way (enroll.ink_colour): read
    beside this version's, they would name colours wrong, so loading one says what to do."""
    prof, _ = enroll.enrol("rummikub", "old", "m1", ["a", "b"], [_faces(2, 0)], enroll.pixel_embed)
    path = prof.save(tmp_path)
    meta = json.loads(path.read_text(encoding="utf-8"))
    assert meta["version"] == enroll.FORMAT_VERSION == 2
    path.write_text(json.dumps({**meta, "version": 1}), encoding="utf-8")
    with pytest.raises(enroll.EnrolError, match=r"version 1.*tableref enroll --game rummikub"):
        enroll.DeckProfile.load("rummikub", "old", tmp_path)


def test_grid_cells_keep_the_place_of_a_missing_card() -> None:
    from vision.enrol_layout import grid_cells

    rng = np.random.default_rng(3)
    turn = np.deg2rad(8.0)
    rot = np.array([[np.cos(turn), -np.sin(turn)], [np.sin(turn), np.cos(turn)]])
    quads, cells = [], []
    for k in range(15):
        if k == 7:
            continue  # row 2, column 3 left empty
        r, c = divmod(k, 5)
        centre = rot @ np.array([100 + c * 90.0, 100 + r * 130.0]) + rng.normal(0, 3, 2)
        q = card_quad(centre[0], centre[1], 60, 84, 8.0 + float(rng.normal(0, 2)))
        quads.append(q.astype(np.float32))
        cells.append((r, c))
    placed = grid_cells(quads).placed
    assert [(p.row, p.col) for p in placed] == cells


def test_model_weight_grows_with_how_well_the_model_reads_the_deck() -> None:
    assert enroll.model_weight(0.21) == 0.0  # a deck the model cannot read: the profile alone
    assert enroll.model_weight(0.5) == 0.0  # a coin toss: its guesses mislead
    assert 0.9 < enroll.model_weight(0.675) < 1.1
    assert enroll.model_weight(0.9) == 2.0


def test_the_models_word_counts_for_every_card_it_gives_that_word() -> None:
    """The model reads this deck's star joker as k4: on a crop it calls k4, its word is
    evidence for the joker and for the 4 alike (the profile then tells them apart), not for
    the 4 alone; a card without a record keeps the model's own label."""
    reads = enroll.model_reads(
        ["J", "J", "k4", "k5"],
        np.array([[0.8, 0.2, 0.0], [0.6, 0.0, 0.4], [1.0, 0.0, 0.0], [0.0, 0.0, 1.0]]),
        ["k4", "k5", "MJ"],
    )
    assert reads == {"J": {"k4": 0.7, "k5": 0.1, "MJ": 0.2}, "k4": {"k4": 1.0}, "k5": {"MJ": 1.0}}
    e = np.eye(3, dtype=np.float32)
    prof = enroll.DeckProfile("rummikub", "d", "m", ["J", "k4", "k5"], e, model_reads=reads)
    names = ["J", "k4", "k5", "r1"]
    model = ["k4", "k5", "MJ", "r1", "none"]
    prior = prof.model_prior(np.array([[0.97, 0.01, 0.0, 0.01, 0.01]]), model, names)[0]
    assert prior[0] > np.log(0.6) and prior[1] > np.log(0.9)  # J and k4 both supported
    assert prior[2] < np.log(0.05)  # k5 was enrolled reading as MJ, which this crop is not
    assert np.isclose(prior[3], np.log(0.01 + 1e-6))  # no record: the model's own r1
    plain = enroll.DeckProfile("rummikub", "d", "m", ["J", "k4", "k5"], e)
    assert not plain.model_reads


def test_model_reads_are_stored_with_the_profile(tmp_path: Path) -> None:
    e = np.eye(2, dtype=np.float32)
    reads = {"AS": {"AS": 0.9, "AC": 0.1}, "KH": {"KH": 1.0}}
    enroll.DeckProfile("cards", "d", "m", ["AS", "KH"], e, model_reads=reads).save(tmp_path)
    assert enroll.DeckProfile.load("cards", "d", tmp_path).model_reads == reads


def _glyph(ink: tuple[int, int, int], paper: tuple[int, int, int] = (215, 236, 246)) -> np.ndarray:
    crop = np.zeros((40, 24, 3), np.uint8)
    crop[:] = paper
    crop[8:32, 9:15] = ink  # a stroke of ink in the crop's middle
    return crop


def test_ink_colour_tells_inks_apart_whatever_the_paper_and_light() -> None:
    blue, green, black = (170, 80, 10), (40, 120, 20), (25, 25, 25)
    inks = enroll.ink_colour(np.stack([_glyph(blue), _glyph(green), _glyph(black)]))
    assert np.linalg.norm(inks[0] - inks[1]) > 0.5
    assert min(np.linalg.norm(inks[2] - inks[0]), np.linalg.norm(inks[2] - inks[1])) > 0.5
    # Warm lamp light: paper and ink shift together.
    warm = (np.stack([_glyph(blue), _glyph(black)]) * np.array([0.8, 0.95, 1.1])).clip(0, 255)
    shifted = enroll.ink_colour(warm.astype(np.uint8))
    for got, want in ((shifted[0], 0), (shifted[1], 2)):  # still nearest its own ink
        assert int(np.argmin(np.linalg.norm(inks - got, axis=1))) == want
    assert enroll.ink_colour(np.zeros((0, 40, 24, 3), np.uint8)).shape == (0, 2)


def test_the_ink_names_a_card_the_shape_cannot() -> None:
    """A blue 2 and a green 2 look alike to a recogniser that standardises each crop; the
    profile's ink colours tell them apart, and are stored with it."""
    e = np.eye(3, dtype=np.float32)
    emb = np.stack([e[0], e[0] + 0.01 * e[1]])  # the same shape
    inks = enroll.ink_colour(np.stack([_glyph((170, 80, 10)), _glyph((40, 120, 20))]))
    prof = enroll.DeckProfile("cards", "d", "m", ["2D", "2C"], emb, inks=inks)
    query = np.stack([e[0] + 0.01 * e[1], e[0]])  # each nearer the other card by shape
    assert [r[0] for r in prof.classify(query, inks=inks)] == ["2D", "2C"]
    assert [r[0] for r in prof.classify(query)] == ["2C", "2D"]  # by shape alone


def test_naming_leaves_the_object_gates_similarities_as_they_were() -> None:
    """A read asks the profile twice about the same crops: object or nothing (the embedding
    alone), then which card (with shape features and inks). The second works on its own
    arrays in place; the first answer, kept for reuse, must not change under it."""
    rng = np.random.default_rng(3)
    labels = ["2D", "2C", "none", "2D", "none"]
    prof = enroll.DeckProfile(
        "cards",
        "d",
        "m",
        labels,
        rng.normal(size=(5, 8)).astype(np.float32),
        inks=rng.normal(size=(5, 2)).astype(np.float32),
        shapes=rng.normal(size=(5, 6)).astype(np.float32),
    )
    emb = rng.normal(size=(4, 8)).astype(np.float32)
    inks = rng.normal(size=(4, 2)).astype(np.float32)
    shapes = rng.normal(size=(4, 6)).astype(np.float32)
    names, gate = prof.similarities(emb)
    _, by_ink = prof.similarities(emb, inks)
    _, named = prof.similarities(emb, inks, shapes)
    _, again = prof.similarities(emb)
    assert np.array_equal(gate, again)
    assert not np.allclose(gate, by_ink) and not np.allclose(gate, named)
    # Each label's similarity is its nearest example's cosine, the shapes weighed in and the
    # ink distance taken off, as documented.
    unit = enroll._normalise
    assert prof.shapes is not None and prof.inks is not None
    cosine = unit(emb) @ unit(prof.embeddings).T
    blend = (cosine + enroll.SHAPE_WEIGHT * (unit(shapes) @ unit(prof.shapes).T)) / (
        1 + enroll.SHAPE_WEIGHT
    )
    apart = np.linalg.norm(inks[:, None] - prof.inks[None], axis=2)
    lab = np.array(labels)

    def nearest(sims: np.ndarray) -> np.ndarray:
        return np.stack([sims[:, lab == n].max(axis=1) for n in names], axis=1)

    assert np.allclose(by_ink, nearest(cosine - enroll.INK_WEIGHT * apart), atol=1e-5)
    assert np.allclose(named, nearest(blend - enroll.INK_WEIGHT * apart), atol=1e-5)


def test_inks_are_stored_with_the_profile(tmp_path: Path) -> None:
    inks = np.array([[0.5, -1.0], [0.0, 0.0]], np.float32)
    prof = enroll.DeckProfile("cards", "d", "m", ["2D", "2S"], np.eye(2, dtype=np.float32))
    prof.inks = inks
    prof.save(tmp_path)
    back = enroll.DeckProfile.load("cards", "d", tmp_path)
    assert back.inks is not None and np.allclose(back.inks, inks)
    assert np.allclose(back.embeddings, prof.embeddings)
    with pytest.raises(enroll.EnrolError, match="one ink colour per embedding"):
        enroll.DeckProfile("cards", "d", "m", ["2D"], np.eye(2, dtype=np.float32)[:1], inks=inks)


def test_shape_features_name_a_glyph_the_embedding_squashes() -> None:
    """Two cards whose embeddings nearly coincide (a glyph the model never learnt, squashed
    toward one it knows) are told apart by their shape features; object or nothing stays
    the embedding's alone, so the shape features cannot let clutter through."""
    e = np.eye(4, dtype=np.float32)
    emb = np.stack([e[0], e[0] + 0.02 * e[1], e[2]])  # J and k4 alike; clutter apart
    shapes = np.stack([e[0], e[1], e[2]])  # where the strokes lie: unlike
    prof = enroll.DeckProfile("rummikub", "d", "m", ["J", "k4", "none"], emb, shapes=shapes)
    query, query_shapes = np.stack([e[0] + 0.02 * e[1]]), np.stack([e[0] + 0.1 * e[1]])
    assert prof.classify(query, cards_only=True)[0][0] == "k4"  # by the embedding alone
    assert prof.classify(query, cards_only=True, shapes=query_shapes)[0][0] == "J"
    clutter_like = np.stack([e[2] + 0.1 * e[0]])
    margin, _ = prof.object_margin(clutter_like, np.zeros(1))  # type: ignore[misc]
    assert margin[0] < 0
    with pytest.raises(enroll.EnrolError, match="shape features per embedding"):
        enroll.DeckProfile("rummikub", "d", "m", ["J"], emb[:1], shapes=shapes)


def test_shapes_and_inks_are_stored_and_kept_by_a_second_pass(tmp_path: Path) -> None:
    """Both stored beside the embeddings (inks, then shape features) and read back; a profile
    stored before shape features existed still loads; another pass over the deck keeps both
    (before, a second pass dropped the ink colours)."""
    rng = np.random.default_rng(0)
    emb = rng.normal(size=(2, 6)).astype(np.float32)
    inks = np.array([[0.5, -1.0], [0.0, 0.0]], np.float32)
    shapes = rng.normal(size=(2, 5)).astype(np.float32)
    prof = enroll.DeckProfile("cards", "d", "m", ["2D", "2S"], emb, inks=inks, shapes=shapes)
    prof.save(tmp_path)
    back = enroll.DeckProfile.load("cards", "d", tmp_path)
    assert back.inks is not None and np.allclose(back.inks, inks)
    assert back.shapes is not None and np.allclose(back.shapes, prof.shapes)  # type: ignore[arg-type]
    assert np.allclose(back.embeddings, prof.embeddings)
    enroll.DeckProfile("cards", "old", "m", ["2D", "2S"], emb, inks=inks).save(tmp_path)
    old = enroll.DeckProfile.load("cards", "old", tmp_path)
    assert old.shapes is None and old.inks is not None and np.allclose(old.inks, inks)
    both = prof.extended(back)
    assert both.inks is not None and both.inks.shape == (4, 2)
    assert both.shapes is not None and both.shapes.shape == (4, 5)
    assert prof.extended(old).shapes is None  # one pass without them: naming by embedding
    # Column counts that do not fit the stored array: named, not read as empty embeddings.
    meta_path = tmp_path / "decks" / "cards" / "d.json"
    meta = json.loads(meta_path.read_text())
    meta_path.write_text(json.dumps({**meta, "shape_columns": 20}))
    with pytest.raises(enroll.EnrolError, match="damaged: 2 ink and 20 shape columns"):
        enroll.DeckProfile.load("cards", "d", tmp_path)


def test_doubtful_cards_are_stored_and_kept_when_passes_merge(tmp_path: Path) -> None:
    e = np.eye(3, dtype=np.float32)
    labels = ["CJ", "k4", "none"]
    first = enroll.DeckProfile("rummikub", "d", "m", labels, e, doubtful=["CJ"], agreeable=["CJ"])
    first.save(tmp_path)
    back = enroll.DeckProfile.load("rummikub", "d", tmp_path)
    assert back.doubtful == ["CJ"] and back.agreeable == ["CJ"]
    second = enroll.DeckProfile(
        "rummikub", "d", "m", ["MJ", "CJ", "k4"], e, doubtful=["MJ", "CJ"], agreeable=["MJ"]
    )
    both = first.extended(second)
    # Doubtful in either pass; agreeable only where no pass that doubted it found it a
    # clutter magnet (the second found CJ one).
    assert both.doubtful == ["CJ", "MJ"] and both.agreeable == ["MJ"]
    assert second.extended(first).agreeable == ["MJ"]
    assert first.extended(first).agreeable == ["CJ"]


def test_a_tile_decks_bar_is_stored_and_kept_when_passes_merge(tmp_path: Path) -> None:
    e = np.eye(3, dtype=np.float32)
    labels = ["b6", "b9", "none"]
    marked = enroll.DeckProfile("rummikub", "d", "m", labels, e, mark=(1.6, 0.9))
    marked.save(tmp_path)
    assert enroll.DeckProfile.load("rummikub", "d", tmp_path).mark == (1.6, 0.9)
    plain = enroll.DeckProfile("rummikub", "d", "m", labels, e)
    assert plain.extended(marked).mark == (1.6, 0.9)
    assert marked.extended(plain).mark == (1.6, 0.9)
    plain.save(tmp_path)
    assert enroll.DeckProfile.load("rummikub", "d", tmp_path).mark is None
    meta_path = tmp_path / "decks" / "rummikub" / "d.json"
    meta_path.write_text(json.dumps({**json.loads(meta_path.read_text()), "mark": [1.6]}))
    with pytest.raises(enroll.EnrolError, match=r"damaged: its mark \[1.6\] is not two numbers"):
        enroll.DeckProfile.load("rummikub", "d", tmp_path)


def test_a_tile_decks_face_thumbnails_are_stored_and_merged(tmp_path: Path) -> None:
    e = np.eye(3, dtype=np.float32)
    labels = ["CJ", "k4", "none"]
    faces = np.eye(4, 6, dtype=np.float32)
    first = enroll.DeckProfile(
        "rummikub", "d", "m", labels, e, faces=faces, face_labels=["CJ", "CJ", "k4", "k4"]
    )
    first.save(tmp_path)
    back = enroll.DeckProfile.load("rummikub", "d", tmp_path)
    assert back.faces is not None and np.array_equal(back.faces, faces)
    assert back.face_labels == ["CJ", "CJ", "k4", "k4"]
    plain = enroll.DeckProfile("rummikub", "d", "m", labels, e)
    assert plain.extended(first).face_labels == ["CJ", "CJ", "k4", "k4"]
    both = first.extended(first)
    assert both.faces is not None and len(both.faces) == len(both.face_labels) == 8
    with pytest.raises(enroll.EnrolError, match="one label per face thumbnail"):
        enroll.DeckProfile("rummikub", "d", "m", labels, e, faces=faces, face_labels=["CJ"])
    # Stored again without faces: the old thumbnails do not linger beside it.
    plain.save(tmp_path)
    assert enroll.DeckProfile.load("rummikub", "d", tmp_path).faces is None
    assert not (tmp_path / "decks" / "rummikub" / "d.faces.npy").exists()
    first.save(tmp_path)
    meta_path = tmp_path / "decks" / "rummikub" / "d.json"
    meta = json.loads(meta_path.read_text())
    meta_path.write_text(json.dumps({**meta, "face_labels": ["CJ"]}))
    with pytest.raises(enroll.EnrolError, match="damaged: 1 face labels"):
        enroll.DeckProfile.load("rummikub", "d", tmp_path)
    enroll.remove_deck("rummikub", "d", tmp_path)
    assert list((tmp_path / "decks" / "rummikub").iterdir()) == []


def test_clutter_magnets_are_the_cards_the_clutter_lies_nearest() -> None:
    rng = np.random.default_rng(0)
    cards = np.eye(4, 8, dtype=np.float32)  # four cards, one example each
    # 20 clutter crops: 12 nearest card 0, 6 nearest card 1, 2 nearest card 2.
    owner = [0] * 12 + [1] * 6 + [2] * 2
    clutter = cards[owner] + rng.normal(0, 0.05, (20, 8)).astype(np.float32)
    emb = np.concatenate([cards, clutter])
    labels = ["MJ", "CJ", "k4", "k5"] + ["none"] * 20
    assert enroll.clutter_magnets(emb, labels, 0.25) == ["MJ", "CJ"]
    assert enroll.clutter_magnets(emb, labels, 0.5) == ["MJ"]
    assert enroll.clutter_magnets(emb[:4], labels[:4]) == []  # no clutter examples


def test_colour_blind_keeps_a_tiles_number_and_drops_its_colour() -> None:
    names = ["k10", "r10", "b10", "o10", "k4", "r4", "b4", "o4", "DJ", "none"]
    probs = np.array([[0.9, 0.02, 0.0, 0.0, 0.0, 0.05, 0.0, 0.0, 0.02, 0.01]], np.float32)
    blind = enroll.colour_blind(probs, names)
    assert np.allclose(blind[0, :4], 0.92 / 4)  # the 10's share, every colour alike
    assert np.allclose(blind[0, 4:8], 0.05 / 4)
    assert np.allclose(blind[0, 8:], [0.02, 0.01])  # a joker and none keep their own
    assert np.isclose(blind.sum(), probs.sum())
