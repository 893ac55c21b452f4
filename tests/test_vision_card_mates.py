from __future__ import annotations

import numpy as np
import numpy.typing as npt
import pytest

from vision import synth
from vision.card_mates import PAIR_LEAST, mates, pair_up, vouch
from vision.labels import NONE
from vision.recognise import Read

DECK = ["2S", "3S", "4S", "QC", "QD"]


def _card_indices(angle: float, at: tuple[float, float] = (500, 400)) -> list[np.ndarray]:
    """The two corner index quads of a generated card, turned by ``angle`` and placed."""
    rng = np.random.default_rng(3)
    face, quads = synth.render_card("QC", "cards", rng, 280)
    h, w = face.shape[:2]
    t = np.deg2rad(angle)
    rot = np.array([[np.cos(t), -np.sin(t)], [np.sin(t), np.cos(t)]])
    return [((q - [w / 2, h / 2]) @ rot.T + at).astype(np.float32) for q in quads]


def _moved(quad: np.ndarray, dx: float, dy: float) -> np.ndarray:
    return (quad + np.array([dx, dy], np.float32)).astype(np.float32)


@pytest.mark.parametrize("angle", [0.0, 37.0, 90.0, 200.0])
def test_the_two_corner_indices_of_one_card_are_mates(angle: float) -> None:
    top, bottom = _card_indices(angle)
    assert mates(top, bottom) and mates(bottom, top)
    # A read keeps its proposal's frame whichever way up it read: either frame may be turned.
    assert mates(top, np.roll(bottom, 2, axis=0)) and mates(np.roll(top, 2, axis=0), bottom)


def test_indices_beside_each_other_or_at_the_mirror_corner_are_not_mates() -> None:
    top, bottom = _card_indices(0.0)
    w = float(top[1, 0] - top[0, 0])
    assert not mates(top, _moved(top, 2.5 * w, 0))  # the next card's index in a fan
    mirror = bottom.copy()
    mirror[:, 0] = 2 * top.mean(0)[0] - bottom[:, 0]  # top-right corner: no index there
    assert not mates(top, mirror)
    assert not mates(top, (bottom - bottom.mean(0)) * 1.6 + bottom.mean(0))  # another size


def _read(label: str, probs: dict[str, float]) -> Read:
    """A read whose logits give these probabilities (the rest of the deck and none share
    what is left)."""
    names = [*DECK, NONE]
    rest = (1.0 - sum(probs.values())) / (len(names) - len(probs))
    p = np.array([probs.get(n, rest) for n in names], np.float64)
    best = max(probs, key=lambda n: probs[n])
    return Read(
        label if label == NONE else best,
        probs[best] if label != NONE else probs.get(NONE, rest),
        sorted(((n, probs.get(n, rest)) for n in DECK), key=lambda a: -a[1])[:3],
        probs.get(NONE, rest),
        logits=np.log(p).astype(np.float32),
    )


def _probs(logits: npt.NDArray[np.float32]) -> tuple[npt.NDArray[np.float32], list[str]]:
    z = np.exp(logits - logits.max(axis=1, keepdims=True))
    return (z / z.sum(axis=1, keepdims=True)).astype(np.float32), [*DECK, NONE]


def _never(k: int, kept: int) -> bool:
    return False


def test_a_sure_index_vouches_for_its_cards_doubtful_other_index() -> None:
    top, bottom = _card_indices(20.0)
    aside = _moved(top, 400, 0)
    quads = [top, bottom, aside]
    reads = [
        _read("QC", {"QC": 0.95}),
        _read("QC", {"QC": 0.4, "QD": 0.3, NONE: 0.2}),  # under the floor: not kept
        _read("QC", {"QC": 0.4, NONE: 0.3}),  # the same card elsewhere: no mate of the first
    ]
    kept, out = vouch(quads, reads, [0], _probs, _never)
    assert kept == [0, 1]
    assert out[1].label == "QC"
    # Both reads together: far surer than the doubtful one alone.
    assert out[1].confidence > 0.95 and out[0] is reads[0]


@pytest.mark.parametrize(
    ("other", "why"),
    [
        (_read("QD", {"QD": 0.45, "QC": 0.35}), "names another card first"),
        (_read(NONE, {NONE: 0.6, "QC": 0.3}), "is more likely nothing"),
        (_read("QC", {"QC": 0.08, NONE: 0.05}), "gives the card too little"),
    ],
)
def test_a_proposal_is_not_vouched_for_when_it(other: Read, why: str) -> None:
    top, bottom = _card_indices(20.0)
    # A sure QD elsewhere on the table: a proposal naming it is still no QC's other index.
    far = _moved(top, 600, 0)
    quads = [top, bottom, far]
    reads = [_read("QC", {"QC": 0.95}), other, _read("QD", {"QD": 0.95})]
    kept, out = vouch(quads, reads, [0, 2], _probs, _never)
    assert kept == [0, 2], why
    assert out[1] is other


def test_no_vouching_from_a_doubtful_read_a_card_read_twice_or_a_taken_corner() -> None:
    top, bottom = _card_indices(20.0)
    doubtful = _read("QC", {"QC": 0.4, "QD": 0.3})
    assert vouch([top, bottom], [_read("QC", {"QC": 0.7}), doubtful], [0], _probs, _never)[0] == [0]
    elsewhere = _moved(top, 400, 0)
    twice = [top, bottom, elsewhere]
    reads = [_read("QC", {"QC": 0.95}), doubtful, _read("QC", {"QC": 0.95})]
    assert vouch(twice, reads, [0, 2], _probs, _never)[0] == [0, 2]
    # Its other corner holds a kept read already (of another card, say a card over it).
    taken = [top, bottom, _moved(bottom, 1, 1)]
    reads = [_read("QC", {"QC": 0.95}), doubtful, _read("2S", {"2S": 0.9})]
    assert vouch(taken, reads, [0, 2], _probs, _never)[0] == [0, 2]
    # A proposal that clashes with a kept read is not taken.
    assert vouch(
        [top, bottom], [_read("QC", {"QC": 0.95}), doubtful], [0], _probs, lambda k, m: True
    )[0] == [0]


def test_a_jokers_word_vouches_for_nothing() -> None:
    top, bottom = _card_indices(20.0)
    reads = [_read("QC", {"QC": 0.95}), _read("QC", {"QC": 0.4, "QD": 0.3})]
    assert vouch([top, bottom], reads, [0], _probs, _never, frozenset({"QC"}))[0] == [0]


def test_two_doubtful_indices_of_one_card_are_kept_together() -> None:
    top, bottom = _card_indices(20.0)
    aside = _moved(top, 400, 0)
    quads = [top, bottom, aside]
    reads = [
        _read("QC", {"QC": 0.55, "QD": 0.2}),
        _read("QC", {"QC": 0.5, "QD": 0.25}),
        _read("2S", {"2S": 0.95}),
    ]
    kept, out = pair_up(quads, reads, [2], _probs, _never, floor=0.6)
    assert sorted(kept) == [0, 1, 2] and kept[0] == 2
    assert out[0].label == out[1].label == "QC"
    # Together far surer than either alone, and each keeps its own logits for later steps.
    assert out[0].confidence > 0.8 and out[0].confidence == out[1].confidence
    assert out[0].logits is reads[0].logits and out[2] is reads[2]


def _doubtful_pair() -> tuple[list[np.ndarray], list[Read]]:
    top, bottom = _card_indices(20.0)
    return [top, bottom], [
        _read("QC", {"QC": 0.55, "QD": 0.2}),
        _read("QC", {"QC": 0.5, "QD": 0.25}),
    ]


def test_no_pair_where_the_indices_are_not_one_cards_corners() -> None:
    (top, _), reads = _doubtful_pair()
    beside = _moved(top, 2.5 * float(top[1, 0] - top[0, 0]), 0)  # the next card in a fan
    assert pair_up([top, beside], reads, [], _probs, _never, floor=0.6)[0] == []


@pytest.mark.parametrize(
    ("second", "why"),
    [
        (_read("QD", {"QD": 0.5, "QC": 0.3}), "names another card first"),
        (_read("QC", {"QC": PAIR_LEAST - 0.05, NONE: 0.2}), "names its card too weakly"),
        (_read("QC", {"QC": 0.34, "QD": 0.33}), "together they stay under the floor"),
    ],
)
def test_no_pair_where_the_second_read(second: Read, why: str) -> None:
    quads, reads = _doubtful_pair()
    kept, out = pair_up(quads, [reads[0], second], [], _probs, _never, floor=0.75)
    assert kept == [], why
    assert out[1] is second


def test_no_pair_for_a_card_read_elsewhere_a_clash_or_a_word() -> None:
    quads, reads = _doubtful_pair()
    elsewhere = [*quads, _moved(quads[0], 500, 0)]
    assert pair_up(elsewhere, [*reads, _read("QC", {"QC": 0.95})], [2], _probs, _never, 0.6)[0] == [
        2
    ]
    over = [*quads, _moved(quads[1], 1, 1)]
    clash = lambda k, m: k == 1 and m == 2  # noqa: E731
    assert pair_up(over, [*reads, _read("2S", {"2S": 0.9})], [2], _probs, clash, 0.6)[0] == [2]
    assert pair_up(quads, reads, [], _probs, _never, 0.6, frozenset({"QC"}))[0] == []
    assert pair_up(quads, reads, [], _probs, _never, 0.6, among={0})[0] == []


def test_of_two_pairs_naming_one_card_only_the_surer_is_kept() -> None:
    quads, reads = _doubtful_pair()
    far = [_moved(q, 600, 0) for q in quads]
    surer = [_read("QC", {"QC": 0.7, "QD": 0.1}), _read("QC", {"QC": 0.65, "QD": 0.1})]
    kept, out = pair_up([*quads, *far], [*reads, *surer], [], _probs, _never, floor=0.6)
    assert sorted(kept) == [2, 3]
    assert out[0] is reads[0]


@pytest.mark.parametrize(("seed", "label"), [(6_500_023, "KS"), (6_500_656, "9S")])
def test_a_generated_cards_second_index_is_read_with_its_first(seed: int, label: str) -> None:
    # Generated tables (not the bench's seeds): one KS index read 0.43 under the floor; one
    # 9S index (white cloth, dim light) not read at all alone, its card's other index read
    # 0.91. (With the cards model retrained on 2026-11-28 the 7D of 6 500 132 stopped making
    # the difference, and 6 500 316's 3H took its place; with the model trained from 1000
    # scenes on 2026-12-05 that 3H is read twice alone, and 6 500 656 is the first table
    # after it where the mates make the difference.)
    from vision.evaluate import score
    from vision.reader import TableReader

    scene = synth.card_scene(np.random.default_rng(seed), "cards")
    both = [t for t in scene.truths if t.label == label]
    assert len(both) == 2
    alone = TableReader("cards", mates=False).read(scene.image)
    assert score(alone.objects, both).right == 1
    read = TableReader("cards").read(scene.image)
    assert score(read.objects, both).right == 2
    assert (
        score(read.objects, scene.truths, partial=scene.partial).spurious
        == score(alone.objects, scene.truths, partial=scene.partial).spurious
    )


def _right_off_and_on(
    monkeypatch: pytest.MonkeyPatch, seed: int, label: str, name: str, off: object, on: object
) -> tuple[int, int]:
    """A generated table's two indices of ``label`` read right with the reader's constant
    ``name`` set to ``off`` and to ``on``; asserts the table's spurious reads are the same."""
    from vision import reader
    from vision.evaluate import score

    scene = synth.card_scene(np.random.default_rng(seed), "cards")
    both = [t for t in scene.truths if t.label == label]
    assert len(both) == 2
    monkeypatch.setattr(reader, name, off)
    alone = reader.TableReader("cards").read(scene.image)
    monkeypatch.setattr(reader, name, on)
    read = reader.TableReader("cards").read(scene.image)
    assert (
        score(read.objects, scene.truths, partial=scene.partial).spurious
        == score(alone.objects, scene.truths, partial=scene.partial).spurious
    )
    return score(alone.objects, both).right, score(read.objects, both).right


def test_a_generated_cards_two_doubtful_indices_are_read_together(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A generated table (a development seed, not the bench's): a 7C on wood under a light
    # falling off across the table, neither index read alone. (With the model before the
    # one trained from 1000 scenes it was the 5S of 18 000 135, now read alone.)
    assert _right_off_and_on(monkeypatch, 18_000_352, "7C", "PAIRS", False, True) == (0, 2)


def _word_frame(centre: tuple[float, float], length: float, angle: float) -> np.ndarray:
    """A word frame (TL TR BR BL) spelt down its long side, turned by ``angle`` degrees."""
    w, h = length * 0.3, length
    box = np.array([[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]])
    t = np.deg2rad(angle)
    rot = np.array([[np.cos(t), -np.sin(t)], [np.sin(t), np.cos(t)]])
    return np.asarray(box @ rot.T + centre, np.float32)


def test_a_jokers_two_corner_words_are_word_mates() -> None:
    from vision.card_mates import word_mates

    word = _word_frame((300, 300), 60, 30)
    t = np.deg2rad(30)
    # The other corner: about two word lengths away along the card, half-turned (parallel).
    other = _word_frame((300 + 60 * np.cos(t), 300 + 110 * np.sin(t) + 60), 60, 210)
    assert word_mates(word, other) and word_mates(other, word)
    assert not word_mates(word, _word_frame((300 + 30, 300), 60, 30)), "too near: one word"
    assert not word_mates(word, _word_frame((600, 300), 60, 30)), "too far: another card"
    assert not word_mates(word, _word_frame((300, 420), 100, 30)), "another size"
    assert not word_mates(word, _word_frame((300, 420), 60, 100)), "not parallel"


def test_a_doubtful_joker_word_is_kept_beside_its_cards_other_word(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A generated table (a development seed, not the bench's): a joker whose two corner words
    # read 0.77 and 0.65, both under the word floor.
    assert _right_off_and_on(monkeypatch, 18_000_131, "X", "WORD_PAIR_LEAST", None, 0.6) == (0, 2)
