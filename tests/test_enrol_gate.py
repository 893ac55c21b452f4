"""The object-or-nothing gate calibrated per deck at enrolment, and the enrolment's near
misses (parts of an index) as examples of nothing."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from vision import enrol_layout, enroll
from vision.reader import TableReader
from vision.recognise import model_id


def _deck(rng: np.random.Generator, spread: float) -> tuple[np.ndarray, list[str], list[int]]:
    """Ten cards and ten kinds of clutter, five noisy copies of each (one group, as one card
    cut at one size and jittered): ``spread`` is how far copies of one thing lie apart."""
    centres = rng.normal(size=(20, 64))
    rows, labels, groups = [], [], []
    for k, c in enumerate(centres):
        for _ in range(5):
            rows.append(c + spread * rng.normal(size=64))
            labels.append(f"c{k}" if k < 10 else "none")
            groups.append(k)
    return np.asarray(rows, np.float32), labels, groups


def test_the_gate_lies_between_the_decks_own_cards_and_clutter() -> None:
    """Measured on the deck itself (each crop compared with the rest, its own copies left
    out), the threshold passes new copies of the cards and rejects new copies of the
    clutter, also for an embedding whose similarities all crowd together (as another model's
    may), where the fixed margin fitted to one model rejects the cards too."""
    rng = np.random.default_rng(0)
    emb, labels, groups = _deck(rng, 0.6)
    shared = 6.0 * rng.normal(size=emb.shape[1]).astype(np.float32)
    p_none = np.full(len(labels), 0.2, np.float32)
    fresh = emb + 0.6 * rng.normal(size=emb.shape).astype(np.float32)  # other noise
    clutter = np.array(labels) == "none"
    for crowd in (0.0, 1.0):
        deck, seen = emb + crowd * shared, fresh + crowd * shared
        threshold = enroll.gate_threshold(deck, labels, groups, p_none)
        prof = enroll.DeckProfile("cards", "d", "m", labels, deck, object_threshold=threshold)
        margin, _ = prof.object_margin(seen, p_none)  # type: ignore[misc]
        assert (margin[~clutter] > 0).mean() > 0.9, crowd
        assert (margin[clutter] > 0).mean() < 0.1, crowd
    fixed = enroll.DeckProfile("cards", "d", "m", labels, deck)
    margin, _ = fixed.object_margin(seen, p_none)  # type: ignore[misc]
    assert (margin[~clutter] > 0).mean() < 0.5


def test_the_gate_follows_the_models_none() -> None:
    """A retrained model that says none more (or less) readily on this deck moves the deck's
    threshold with it, so the same crop gets the same decision; a constant would not."""
    emb, labels, groups = _deck(np.random.default_rng(1), 0.3)
    low = np.full(len(labels), 0.1, np.float32)
    t_low = enroll.gate_threshold(emb, labels, groups, low)
    t_high = enroll.gate_threshold(emb, labels, groups, low + 0.5)
    assert t_low is not None and t_high is not None
    assert abs((t_low - t_high) - 0.5 * enroll.NONE_WEIGHT) < 1e-4
    # The same crop, the same decision, whichever way the model leans.
    query = emb[:1] + 0.05
    for shift, threshold in ((0.0, t_low), (0.5, t_high)):
        prof = enroll.DeckProfile("cards", "d", "m", labels, emb, object_threshold=threshold)
        margin, _ = prof.object_margin(query, np.array([0.3 + shift]))  # type: ignore[misc]
        assert margin[0] > 0


def test_a_card_that_looks_like_clutter_is_named_at_enrolment() -> None:
    """A card whose enrolled crops lie among the clutter (a deck's star joker, which the
    model calls nothing) fails the deck's own gate on most of them: enrolment names it, and
    only it, as a card reads will likely miss."""
    rng = np.random.default_rng(3)
    emb, labels, groups = _deck(rng, 0.3)
    # Each card cut at two sizes, as enrolment does: a crop is compared with its card's other
    # size, its own size's copies left out.
    groups = [2 * g + i % 2 for i, g in enumerate(groups)]
    lab = np.array(labels)
    emb[lab == "c4"] = emb[lab == "none"][:5] + 0.3 * rng.normal(size=(5, emb.shape[1]))
    p_none = np.full(len(labels), 0.1, np.float32)
    threshold = enroll.gate_threshold(emb, labels, groups, p_none)
    assert enroll.doubtful_cards(emb, labels, groups, p_none, threshold) == ["c4"]
    # Where the model alone is sure its crops are an object, a read lets them pass: not named.
    sure = lab == "c4"
    assert enroll.doubtful_cards(emb, labels, groups, p_none, threshold, sure) == []
    # Without a calibrated gate there is nothing to judge by.
    assert enroll.doubtful_cards(emb, labels, groups, p_none, None) == []


def test_a_crops_own_copies_do_not_calibrate_it() -> None:
    """Without leaving a crop's own group out, each card matches its own near copies (an
    index's jitters lie closer together than a pip's on different cards) and the threshold
    would sit far above what a card on the table reaches."""
    emb, labels, groups = _deck(np.random.default_rng(2), 0.3)
    clutter = np.array(labels) == "none"
    emb[clutter] += np.random.default_rng(5).normal(size=(int(clutter.sum()), emb.shape[1]))
    p_none = np.zeros(len(labels), np.float32)
    fair = enroll.gate_threshold(emb, labels, groups, p_none)
    alone = enroll.gate_threshold(emb, labels, list(range(len(labels))), p_none)
    assert fair is not None and alone is not None and alone > fair + 0.1


def test_no_calibration_without_clutter_and_the_threshold_is_stored(tmp_path: Path) -> None:
    emb, labels, _ = _deck(np.random.default_rng(3), 0.3)
    cards = [i for i, lab in enumerate(labels) if lab != "none"]
    assert (
        enroll.gate_threshold(emb[cards], [labels[i] for i in cards], cards, np.zeros(len(cards)))
        is None
    )
    prof = enroll.DeckProfile("cards", "d", "m", labels, emb, object_threshold=0.0421)
    prof.save(tmp_path)
    assert enroll.DeckProfile.load("cards", "d", tmp_path).object_threshold == 0.0421
    older = enroll.DeckProfile("cards", "e", "m", labels, emb)
    older.save(tmp_path)
    assert enroll.DeckProfile.load("cards", "e", tmp_path).object_threshold is None


def test_a_part_of_an_index_is_a_near_miss_the_index_itself_is_not() -> None:
    index = np.array([[10, 10], [30, 10], [30, 50], [10, 50]], np.float32)
    rank = np.array([[11, 11], [29, 11], [29, 28], [11, 28]], np.float32)  # the rank alone
    shifted = index + np.array([1.0, 2.0], np.float32)  # the index, framed a little off
    far = index + np.array([100.0, 0.0], np.float32)
    assert enrol_layout._part_of(rank, [index])
    assert not enrol_layout._part_of(shifted, [index])
    assert not enrol_layout._part_of(far, [index])


def test_the_gate_point_places_the_threshold_between_the_medians() -> None:
    """``point`` 0 is the clutter's median, 1 the cards'; tiles use a point nearer their
    tiles than cards do (their wrongly framed tiles score near the tiles)."""
    rng = np.random.default_rng(3)
    emb, labels, groups = _deck(rng, 0.4)
    clutter = np.array(labels) == "none"
    emb[clutter] += 1.5 * rng.normal(size=emb.shape[1]).astype(np.float32)  # alike, as clutter
    p_none = np.full(len(labels), 0.2, np.float32)
    low, mid, high = (
        enroll.gate_threshold(emb, labels, groups, p_none, point=p) for p in (0.0, 0.5, 1.0)
    )
    assert low is not None and mid is not None and high is not None and low < mid < high
    assert abs(mid - (low + high) / 2) < 1e-5
    assert enroll.gate_threshold(emb, labels, groups, p_none) == mid  # the default: midway
    tiles = enroll.gate_threshold(emb, labels, groups, p_none, point=enroll.TILE_GATE_POINT)
    assert tiles is not None and tiles > mid


def test_enrolment_embeds_in_chunks_with_the_same_embeddings() -> None:
    """The profile's forward passes take EMBED_CHUNK crops at a time (one pass over a card
    deck's 9,000 crops was five times slower), giving what one pass gives."""
    from vision.enrol_session import embed_in_chunks
    from vision.recognise import Recogniser

    recogniser = Recogniser.named("cards")
    sizes: list[int] = []
    real = recogniser.describe

    def describe(batch: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
        sizes.append(len(batch))
        return real(batch)

    recogniser.describe = describe  # type: ignore[method-assign]
    w, h = recogniser.spec.crop
    crops = np.random.default_rng(0).integers(0, 255, (21, h, w, 3), dtype=np.uint8)
    logits, emb, shapes = embed_in_chunks(recogniser, crops, chunk=8)
    assert sizes == [8, 8, 5]
    whole_logits, whole, whole_shapes = real(crops)
    assert np.allclose(emb, whole, atol=1e-4) and np.allclose(logits, whole_logits, atol=1e-4)
    assert shapes is not None and whole_shapes is not None
    assert np.allclose(shapes, whole_shapes, atol=1e-4)
    assert embed_in_chunks(recogniser, crops[:0], chunk=8)[1].shape[0] == 0


def _vouching_reader(
    weight: float, model_label: str, reads: dict[str, dict[str, float]] | None = None
) -> tuple[TableReader, np.ndarray]:
    """A tile reader with a two-card profile (r7, r8 and clutter) whose gate turns away both
    crops of a batch (each lies nearer the clutter than any card, a little nearer r7); the
    model reads the first crop as ``model_label`` at 0.95 with none 0.01 and is unsure of
    the second. ``reads``: the profile's record of how the model reads each card."""
    reader = TableReader("rummikub")
    names = list(reader.recogniser.spec.labels)
    unit = np.eye(8, dtype=np.float32)
    profile = enroll.DeckProfile(
        "rummikub",
        "d",
        model_id(reader.recogniser.path),
        ["r7", "r8", "none", "none"],
        np.stack([unit[0], unit[1], unit[2], unit[3]]),
        model_weight=weight,
        model_reads=reads or {},
        object_threshold=0.0,
    )
    reader.use_deck(profile)
    crop = np.stack([unit[0] * 0.3 + unit[2], unit[0] * 0.3 + unit[3]])
    logits = np.full((2, len(names)), -8.0, np.float32)
    logits[0, names.index(model_label)] = 8.0
    logits[0, names.index("none")] = 3.4  # none about 0.01
    logits[1, names.index(model_label)] = 0.0  # unsure: spread over every label
    logits[1, names.index("none")] = 0.0
    reader.recogniser.describe = lambda batch: (logits[: len(batch)], crop[: len(batch)], None)  # type: ignore[method-assign]
    return reader, np.zeros((2, 32, 24, 3), np.uint8)


def test_the_models_sure_read_outweighs_a_doubting_gate() -> None:
    """A tile the model reads surely (0.95, none 0.01) and the profile names the same is an
    object even where the deck's gate doubts it: on some enrolment captures the gate sat
    high and turned away such tiles. Not where the model cannot read this deck (weight 0),
    not where the model and the profile name different tiles, and not a crop the model is
    unsure of."""
    reader, batch = _vouching_reader(2.0, "r7")
    first, second = reader._recognise(batch)
    assert (first.label, second.label) == ("r7", "none")
    assert first.overlap_rank == 0.0  # under every read the gate passed
    reader, batch = _vouching_reader(0.0, "r7")
    assert [r.label for r in reader._recognise(batch)] == ["none", "none"]  # type: ignore[attr-defined]
    # The model's word is no help between r7 and r8 on this deck (it read the enrolled crops
    # of each as either): the profile names r7 by its embedding, the model says r8.
    either = {"r7": 0.5, "r8": 0.5}
    reader, batch = _vouching_reader(2.0, "r8", {"r7": either, "r8": either})
    assert [r.label for r in reader._recognise(batch)] == ["none", "none"]  # type: ignore[attr-defined]


def test_the_shape_output_is_added_without_changing_the_model(tmp_path: Path) -> None:
    """``vision.model_outputs`` gives an exported model the ``shape`` output (its last
    convolution's features averaged along each row: channels x rows) and leaves its logits
    and embedding exactly as they were; the shipped tile and card models have it."""
    import shutil

    from vision.model_outputs import add_shape_output
    from vision.recognise import MODELS, Recogniser, load_spec

    for name in ("tiles", "cards"):
        # The int8 file by name: named() reads the float one where int8 saturates.
        shipped = Recogniser(MODELS / f"{name}.onnx", load_spec(name))
        assert shipped.has_shape, name
        w, h = shipped.spec.crop
        crops = np.random.default_rng(0).integers(0, 255, (3, h, w, 3), dtype=np.uint8)
        logits, emb, shape = shipped.describe(crops)
        assert shape is not None and shape.shape == (3, 64 * (h // 8))
        # The output removed again (the model as exported before it existed), then added.
        import onnx

        model = onnx.load(str(MODELS / f"{name}.onnx"))
        for field, drop in (("output", lambda o: o.name == "shape"), ("node", _makes_shape)):
            keep = [x for x in getattr(model.graph, field) if not drop(x)]
            del getattr(model.graph, field)[:]
            getattr(model.graph, field).extend(keep)
        bare = tmp_path / f"{name}.onnx"
        onnx.save(model, str(bare))
        shutil.copy(MODELS / f"{name}.labels.json", tmp_path)
        assert not Recogniser.named(name, tmp_path).has_shape
        assert Recogniser.named(name, tmp_path).describe(crops)[2] is None
        assert add_shape_output(bare) and not add_shape_output(bare)
        again = Recogniser.named(name, tmp_path).describe(crops)
        for got, want in zip(again, (logits, emb, shape), strict=True):
            assert got is not None and np.array_equal(got, want)


def _makes_shape(node: object) -> bool:
    return any(str(o).startswith("shape") for o in node.output)  # type: ignore[attr-defined]


def test_a_model_the_shape_output_does_not_fit_is_refused_by_name(tmp_path: Path) -> None:
    """A graph without the one Flatten the embedding reads, or of an opset whose ReduceMean
    takes its axes otherwise, gets an error naming the file and the problem."""
    import onnx
    from onnx import TensorProto, helper

    from vision.model_outputs import add_shape_output

    x = helper.make_tensor_value_info("crops", TensorProto.FLOAT, ["n", 3, 8, 8])
    y = helper.make_tensor_value_info("embedding", TensorProto.FLOAT, ["n", None])
    for name, nodes, opset in (
        ("relu", [helper.make_node("Relu", ["crops"], ["embedding"])], 17),
        ("new", [helper.make_node("Flatten", ["crops"], ["embedding"])], 18),
    ):
        graph = helper.make_graph(nodes, name, [x], [y])
        path = tmp_path / f"{name}.onnx"
        onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)]), path)
        with pytest.raises(
            ValueError,
            match=f"{name}.onnx: " + ("expected one Flatten" if opset == 17 else "opset 18"),
        ):
            add_shape_output(path)
