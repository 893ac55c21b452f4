"""Reading card indices: both views of each crop (half_turn) for the card decks."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from vision import synth
from vision.crops import crops, reframed
from vision.detect import rect_quad
from vision.labels import NONE
from vision.recognise import Recogniser


def test_half_turn_reads_a_crop_and_its_upside_down_view_alike() -> None:
    recogniser = Recogniser.named("cards")
    scene = synth.card_scene(np.random.default_rng(5), "cards", layout="apart")
    batch = crops(scene.image, [t.quad for t in scene.truths], recogniser.spec.crop)
    upright = recogniser.classify(batch, "cards", half_turn=True)
    turned = recogniser.classify(
        np.ascontiguousarray(batch[:, ::-1, ::-1]), "cards", half_turn=True
    )
    assert [r.label for r in upright] == [r.label for r in turned]
    assert np.allclose([r.confidence for r in upright], [r.confidence for r in turned], atol=1e-4)
    plain = recogniser.classify(batch, "cards")
    assert any(abs(a.confidence - b.confidence) > 1e-4 for a, b in zip(plain, upright, strict=True))


def test_half_turn_of_nothing_is_nothing() -> None:
    recogniser = Recogniser.named("cards")
    w, h = recogniser.spec.crop
    assert recogniser.classify(np.zeros((0, h, w, 3), np.uint8), "allin", half_turn=True) == []


def test_other_framings_are_averaged_into_the_read() -> None:
    recogniser = Recogniser.named("cards")
    scene = synth.card_scene(np.random.default_rng(5), "cards", layout="apart")
    batch = crops(scene.image, [t.quad for t in scene.truths], recogniser.spec.crop)
    plain = recogniser.classify(batch, "cards", sure_none=2.0)
    # The same view again changes nothing; a blank view pulls every read towards it.
    same = recogniser.classify(batch, "cards", sure_none=2.0, views=lambda i: [batch[i]])
    assert np.allclose([r.confidence for r in plain], [r.confidence for r in same], atol=1e-4)
    blank = recogniser.classify(
        batch, "cards", sure_none=2.0, views=lambda i: [np.zeros_like(batch[i])] * 3
    )
    assert sum(r.label == NONE for r in blank) > sum(r.label == NONE for r in plain)


def test_reframed_quads_keep_their_axis() -> None:
    q = rect_quad(np.array([50, 80], np.float32), 20, 40, 90.0)  # upright, 20 wide, 40 tall
    narrow = reframed(q, 0.5, 1.0, 0.0)
    assert np.allclose(narrow.mean(0), q.mean(0))
    assert np.isclose(np.linalg.norm(narrow[1] - narrow[0]), 10)
    taller = reframed(q, 1.0, 2.0, 0.5)  # a rank framed alone: the suit lies below it
    assert np.allclose(taller[:2], q[:2])  # same top edge
    assert np.isclose(np.linalg.norm(taller[3] - taller[0]), 80)
    assert np.allclose(reframed(q, 1.0, 2.0, -0.5)[2:], q[2:])  # or above: same bottom edge


def test_verification_reuses_the_first_views_logits_and_spares_sure_reads() -> None:
    from dataclasses import replace

    from vision import reader as reader_module
    from vision.reader import TableReader

    reader = TableReader("cards")
    scene = synth.card_scene(np.random.default_rng(5), "cards", layout="apart")
    quads = [t.quad for t in scene.truths]
    reads = reader._recognise(crops(scene.image, quads, reader.recogniser.spec.crop))
    assert all(r.looks == 2 and r.logits is not None for r in reads if r.p_none < 0.5)
    idx = [i for i, r in enumerate(reads) if r.p_none < 0.5]
    assert idx
    sure, unsure = reader_module.VERIFY_SURE, reader_module.VERIFY_SURE_NONE
    try:
        reader_module.VERIFY_SURE, reader_module.VERIFY_SURE_NONE = 2.0, 0.0  # verify all
        kept = reader._verify(scene.image, quads, reads, idx)
        # Without the logits the first view is looked at again (both ways up): same reads.
        bare = [replace(r, logits=None) for r in reads]
        again = reader._verify(scene.image, quads, bare, idx)
        assert [kept[i].label for i in idx] == [again[i].label for i in idx]
        assert np.allclose(
            [kept[i].confidence for i in idx], [again[i].confidence for i in idx], atol=1e-4
        )
        assert all(kept[i].looks == 2 + 2 * len(reader.verify) for i in idx)
        # A read at least VERIFY_SURE with none at most VERIFY_SURE_NONE is kept as it is.
        reader_module.VERIFY_SURE, reader_module.VERIFY_SURE_NONE = 0.0, 1.0
        assert reader._verify(scene.image, quads, reads, idx) == reads
    finally:
        reader_module.VERIFY_SURE, reader_module.VERIFY_SURE_NONE = sure, unsure


def test_a_read_verification_takes_back_no_longer_hides_its_neighbour(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from dataclasses import replace

    from vision import reader as reader_module
    from vision.reader import TableReader
    from vision.recognise import Read

    reader = TableReader("cards")
    image = np.zeros((200, 200, 3), np.uint8)
    centre = np.array([100, 100], np.float32)
    quads = [rect_quad(centre, 20, 30, 90.0), rect_quad(centre + 4, 20, 30, 90.0)]
    reads = [Read("KC", 0.9, [("KC", 0.9)], 0.05), Read("QH", 0.8, [("QH", 0.8)], 0.05)]
    verified: list[list[int]] = []

    def verify(image: object, quads: object, reads: list[Read], idx: list[int]) -> list[Read]:
        verified.append(list(idx))
        # Court artwork read as K♣ in one frame reads as nothing in the others.
        return [replace(r, label=NONE) if r.label == "KC" else r for r in reads]

    monkeypatch.setattr(reader, "_verify", verify)
    chosen, after = reader._resolve_cards(image, quads, reads, [0, 1], [0.9, 0.8], 0.6)
    assert [after[i].label for i in chosen] == ["QH"]  # the hidden neighbour, verified too
    assert verified == [[0], [1]]
    monkeypatch.setattr(reader_module, "VERIFY_ROUNDS", 1)  # the reader before: both lost
    chosen, _ = reader._resolve_cards(image, quads, reads, [0, 1], [0.9, 0.8], 0.6)
    assert chosen == []


def test_resolution_runs_again_on_the_verified_reads(monkeypatch: pytest.MonkeyPatch) -> None:
    """A read that won its place on its first look and verification leaves much less sure
    (a frame around more than the index), though still above the floor, no longer hides the
    neighbour it suppressed: resolution runs again on the verified ranks, the neighbour is
    verified and kept in its place."""
    from dataclasses import replace

    from vision.reader import TableReader
    from vision.recognise import Read

    reader = TableReader("cards")
    image = np.zeros((200, 200, 3), np.uint8)
    centre = np.array([100, 100], np.float32)
    quads = [rect_quad(centre, 26, 40, 90.0), rect_quad(centre + 3, 20, 30, 90.0)]
    reads = [Read("AC", 0.95, [("AC", 0.95)], 0.0), Read("AC", 0.87, [("AC", 0.87)], 0.0)]
    after = {0: 0.64, 1: 0.83}
    verified: list[list[int]] = []

    def verify(image: object, quads: object, reads: list[Read], idx: list[int]) -> list[Read]:
        verified.append(list(idx))
        return [replace(r, confidence=after[i]) if i in idx else r for i, r in enumerate(reads)]

    monkeypatch.setattr(reader, "_verify", verify)
    chosen, out = reader._resolve_cards(image, quads, reads, [0, 1], [0.95, 0.87], 0.6)
    assert chosen == [1] and out[1].confidence == 0.83
    assert verified == [[0], [1]]


def test_verification_keeps_a_sure_index_whose_suit_is_in_doubt(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Verification leaves 4C under the floor but every framing says it is an index of 4C
    (VERIFY_KEEP_NONE): kept, with its alternatives. A read that gains a none score, or whose
    label changes, is still taken back."""
    from dataclasses import replace

    from vision.reader import VERIFY_KEEP_CONFIDENCE, VERIFY_KEEP_NONE, TableReader
    from vision.recognise import Read

    reader = TableReader("cards")
    image = np.zeros((200, 200, 3), np.uint8)
    quads = [
        rect_quad(np.array([60, 100], np.float32), 20, 30, 90.0),
        rect_quad(np.array([140, 100], np.float32), 20, 30, 90.0),
    ]
    first = [Read("4C", 0.7, [("4C", 0.7)], 0.001), Read("QH", 0.7, [("QH", 0.7)], 0.001)]
    doubt = [("4C", 0.46), ("4S", 0.27), ("4D", 0.14)]
    after = {
        "sure index": [
            Read("4C", 0.46, doubt, VERIFY_KEEP_NONE / 2),
            Read("QH", 0.5, [("QH", 0.5)], 0.001),
        ],
        "none rises": [
            Read("4C", 0.46, doubt, 0.2),
            Read("QH", VERIFY_KEEP_CONFIDENCE - 0.05, [("QH", 0.4)], 0.001),
        ],
        "label changes": [
            Read("4S", 0.5, [("4S", 0.5)], 0.001),
            Read("QD", 0.55, [("QD", 0.55)], 0.001),
        ],
    }
    for case, want in (("sure index", ["4C", "QH"]), ("none rises", []), ("label changes", [])):
        monkeypatch.setattr(
            reader, "_verify", lambda image, quads, reads, idx, c=case: list(after[c])
        )
        chosen, out = reader._resolve_cards(image, quads, list(first), [0, 1], [0.7, 0.7], 0.6)
        assert sorted(out[i].label for i in chosen) == sorted(want), case
    # Above the floor, a verified read stays whatever its none score.
    sure = [replace(r, confidence=0.8, p_none=0.3) for r in after["none rises"]]
    monkeypatch.setattr(reader, "_verify", lambda image, quads, reads, idx: list(sure))
    chosen, out = reader._resolve_cards(image, quads, list(first), [0, 1], [0.7, 0.7], 0.6)
    assert len(chosen) == 2


def _kept_labels(monkeypatch: pytest.MonkeyPatch) -> Callable[..., list[str]]:
    """The labels overlap resolution keeps of reads at quads (verification left out)."""
    from vision.reader import TableReader

    reader = TableReader("cards")
    monkeypatch.setattr(reader, "_verify", lambda image, quads, reads, idx: reads)
    image = np.zeros((200, 200, 3), np.uint8)

    def kept(quads: list[Any], reads: list[Any]) -> list[str]:
        ranks = [r.confidence for r in reads]
        keep = list(range(len(quads)))
        chosen, after = reader._resolve_cards(image, quads, reads, keep, ranks, 0.6)
        return sorted(after[i].label for i in chosen)

    return kept


def test_card_reads_whose_frames_overlap_clash(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Indices never overlap, even fanned; a frame across two of them does (CARD_CLASH_IOU)."""
    from vision import overlaps
    from vision.reader import CARD_CLASH_IOU
    from vision.recognise import Read

    kept = _kept_labels(monkeypatch)
    # Two 20 × 30 frames, one 21 px below the other: too far apart for their centres to
    # clash, overlapping by 0.18 (under 0.2, which let such pairs through until 2026-11-26).
    quads = [
        rect_quad(np.array([100, 100], np.float32), 20, 30, 90.0),
        rect_quad(np.array([100, 121], np.float32), 20, 30, 90.0),
    ]
    overlap = overlaps.quad_iou(quads[0], quads[1])
    assert CARD_CLASH_IOU < overlap < 0.2
    reads = [Read("KC", 0.9, [("KC", 0.9)], 0.05), Read("QH", 0.8, [("QH", 0.8)], 0.05)]
    assert kept(quads, reads) == ["KC"]
    # Apart by a little more, both stay.
    quads[1] = rect_quad(np.array([100, 124], np.float32), 20, 30, 90.0)
    assert overlaps.quad_iou(quads[0], quads[1]) < CARD_CLASH_IOU
    assert kept(quads, reads) == ["KC", "QH"]


def test_slim_indices_one_width_apart_in_a_tight_fan_both_stay(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A held-out photo's row of spades (WIN_20240627_17_01_00): an 8S read 0.97 in a 17 × 56
    frame, its 9S neighbour's centre 17 px across, was dropped for sharing a centre measured
    on its area's side (31 px); measured in its own width, the two are apart."""
    from vision import overlaps
    from vision.recognise import Read

    kept = _kept_labels(monkeypatch)
    quads = [
        rect_quad(np.array([100, 100], np.float32), 17, 56, 90.0),
        rect_quad(np.array([117, 100], np.float32), 17, 56, 90.0),
    ]
    assert overlaps.suppress(quads, [0.98, 0.97], iou=0.15) == [0]  # the square measure
    reads = [Read("9S", 0.98, [("9S", 0.98)], 0.01), Read("8S", 0.97, [("8S", 0.97)], 0.01)]
    assert kept(quads, reads) == ["8S", "9S"]
    # The same frames a third of a width apart are one index framed twice.
    quads[1] = rect_quad(np.array([105, 100], np.float32), 17, 56, 90.0)
    assert kept(quads, reads) == ["9S"]
    # Along its length, half a height apart still shares the centre (a rank framed alone).
    quads[1] = rect_quad(np.array([100, 125], np.float32), 17, 56, 90.0)
    assert kept(quads, reads) == ["9S"]


def test_small_indices_are_read_after_a_finer_look(monkeypatch: pytest.MonkeyPatch) -> None:
    # A generated All In table on a checked cloth (seed 3 500 020, not the bench's), its six
    # indices about 29 and 22 px tall at the working size: three read without the finer
    # look (five since glyphs inside the cloth's net of ink are proposed too, six since half
    # the proposal cap goes to proposals on bare ground, and six under the cap of 2000 of
    # 2026-12-06: both are off here), all six with it, nothing spurious either way.
    from vision import detect_cards
    from vision.evaluate import score
    from vision.reader import TableReader

    monkeypatch.setattr(detect_cards, "BARE_WEIGHT", 0.0)
    monkeypatch.setattr(detect_cards, "CARD_CAP", 1200)
    scene = synth.card_scene(np.random.default_rng(3_500_020), "allin")
    plain = score(
        TableReader("allin", fine=False).read(scene.image).objects,
        scene.truths,
        partial=scene.partial,
    )
    finer = score(
        TableReader("allin").read(scene.image).objects, scene.truths, partial=scene.partial
    )
    assert plain.objects == finer.objects == 6
    assert plain.right <= 5
    assert finer.right == 6 and finer.spurious == 0


def test_only_a_table_of_small_indices_or_none_read_is_looked_at_finer(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from vision import detect_cards
    from vision.reader import TableReader

    looked: list[int] = []
    real = detect_cards.fine_card_quads

    def counted(image: np.ndarray, **kwargs: Any) -> list[np.ndarray]:
        looked.append(1)
        return real(image, **kwargs)

    monkeypatch.setattr(detect_cards, "fine_card_quads", counted)
    reader = TableReader("cards")
    rng = np.random.default_rng(6)
    face, _ = synth.render_card("QS", "cards", rng, 420)
    table = np.full((750, 1000, 3), 120, np.uint8)
    table[150 : 150 + face.shape[0], 300 : 300 + face.shape[1]] = face
    reading = reader.read(table)
    assert [o.label for o in reading.objects] == ["QS", "QS"]
    assert looked == []  # large indices: read already, no second look
    reader.read(np.full((750, 1000, 3), 120, np.uint8))
    assert looked == [1]  # nothing read: the indices may all be small


@pytest.mark.parametrize(
    ("game", "seed", "ten"), [("allin", 5_200_241, "10c"), ("cards", 5_300_018, "10C")]
)
def test_a_ten_framed_narrower_is_not_read_as_another_rank(game: str, seed: int, ten: str) -> None:
    # Generated tables (not the bench's seeds) whose 10s were read 7 at both corners: the
    # first frame read the 10 unsurely, the narrower reframe cut its 0 and read the 1 over
    # the suit as a 7 at 0.93-0.96, which won the overlap.
    from vision.evaluate import score
    from vision.reader import TableReader

    scene = synth.card_scene(np.random.default_rng(seed), game)  # type: ignore[arg-type]
    tens = [t for t in scene.truths if t.label == ten]
    assert len(tens) == 2
    reading = TableReader(game).read(scene.image)
    assert score(reading.objects, tens).right == 2
    assert not any(o.label.startswith("7") for o in reading.objects if _over_any(o.quad, tens))


def _over_any(quad: np.ndarray, truths: list[synth.Truth]) -> bool:
    from vision.matching import same_object

    return any(same_object(quad, t.quad) for t in truths)


def test_a_photo_taken_in_dim_light_is_brightened_before_reading() -> None:
    from vision.reader import EXPOSE_BELOW, exposed

    bright = np.full((60, 80, 3), 200, np.uint8)
    assert exposed(bright) is bright  # a well-lit photo is read as it is
    dim = np.full((60, 80, 3), 50, np.uint8)
    assert float(np.percentile(exposed(dim), 99)) >= EXPOSE_BELOW
    assert int(exposed(np.full((60, 80, 3), 10, np.uint8)).max()) == 40  # at most 4 times


@pytest.mark.parametrize("seed", [6_000_011, 6_000_030])
def test_cards_in_dim_light_read_as_in_good_light(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Generated tables (not the bench's seeds) darkened to 0.3 of their light, as in the real
    # photos taken in a dim room: red print on the grey faces stands under the ink masks'
    # floor, and a quarter of one table's indices and half of the other's went unproposed.
    # (Seed 6 000 003 was the half-lost table until the int8 recogniser kept its joker's X
    # in a frame 29 px off the index; over dim tables 6 000 000+60 the int8 and float models
    # read 381 and 382 of 389, that X the only difference.)
    import cv2

    from vision import reader as reader_module
    from vision.evaluate import score

    scene = synth.card_scene(np.random.default_rng(seed), "cards", layout="apart", lighting="even")
    dim = cv2.convertScaleAbs(scene.image, alpha=0.3)
    reader = reader_module.TableReader("cards")
    lit = score(reader.read(dim).objects, scene.truths, partial=scene.partial)
    assert lit.right == lit.objects and lit.spurious == 0
    monkeypatch.setattr(reader_module, "EXPOSE_BELOW", 0.0)
    unlit = score(reader.read(dim).objects, scene.truths, partial=scene.partial)
    assert unlit.right <= lit.objects - 2
