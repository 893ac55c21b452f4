from __future__ import annotations

import numpy as np
import pytest

from vision import synth
from vision.card_pips import PIP_VOTES, pip_frames, pip_suit, redivided, suit_shares
from vision.labels import NONE


def test_suit_shares_sum_each_suit_over_its_ranks_without_nothing_or_the_joker() -> None:
    names = ["5S", "5C", "9C", "X", NONE]
    shares = suit_shares(np.array([0.2, 0.3, 0.1, 0.2, 0.2], np.float32), names)
    assert shares == pytest.approx({"S": 0.2 / 0.6, "C": 0.4 / 0.6})


def _pip(**shares: float) -> dict[str, float]:
    return {"S": 0.0, "H": 0.0, "D": 0.0, "C": 0.0, **shares}


def test_pips_that_agree_clearly_name_the_other_suit_of_the_index_colour() -> None:
    clubs = [_pip(C=0.9, S=0.05)] * 4
    assert pip_suit("5S", clubs) == "C"
    assert pip_suit("5C", clubs) is None  # the index read it so already
    assert pip_suit("QH", [_pip(D=0.95)] * 3) == "D"


@pytest.mark.parametrize(
    ("pips", "why"),
    [
        ([_pip(C=0.9)] * (PIP_VOTES - 1), "too few pips"),
        ([_pip(C=0.9), _pip(C=0.9), _pip(S=0.9), _pip(C=0.9)], "a pip disagrees"),
        ([_pip(C=0.9)] * 3 + [_pip(H=0.9)] * 2, "pips of a red card beside it: not all its own"),
        ([_pip(C=0.55, S=0.45)] * 4, "each pip in doubt"),
        ([_pip(D=0.9)] * 4, "a suit of the other colour"),
    ],
)
def test_pips_do_not_decide_when(pips: list[dict[str, float]], why: str) -> None:
    assert pip_suit("5S", pips) is None, why


def test_the_pips_divide_the_index_probability_of_its_two_cards() -> None:
    pips = [_pip(C=0.9, S=0.1)] * 3
    conf = redivided(0.7, 0.2, pips, "S", "C")
    assert 0.45 < conf < 0.9  # the pair's 0.9, most of it now on the pips' suit
    assert redivided(0.7, 0.2, [], "S", "C") == pytest.approx(0.2)


def _card_on_table(label: str) -> tuple[np.ndarray, list[np.ndarray]]:
    face, quads = synth.render_card(label, "cards", np.random.default_rng(5), 360)
    table = np.full((800, 1000, 3), 90, np.uint8)
    y, x = 200, 300
    table[y : y + face.shape[0], x : x + face.shape[1]] = face
    shift = np.array([x, y], np.float32)
    return table, [(q + shift).astype(np.float32) for q in quads]


def test_pips_beside_an_index_are_framed_as_an_index_suit() -> None:
    table, (top, bottom) = _card_on_table("5C")
    frames = pip_frames(table, top)
    assert len(frames) >= PIP_VOTES
    h = float(np.linalg.norm(top[3] - top[0]))
    for f in frames:
        # Index-sized, in the card's body, as far down it as the pips lie.
        assert float(np.linalg.norm(f[3] - f[0])) == pytest.approx(h, rel=0.01)
        assert top[:, 0].max() < f.mean(0)[0] < bottom[:, 0].min()
    # Read either way up, the index finds the same body.
    turned = pip_frames(table, np.roll(top, 2, axis=0))
    assert len(turned) == len(frames)


def test_no_pips_are_taken_from_a_side_where_another_index_lies() -> None:
    table, (top, _) = _card_on_table("5C")
    h = float(np.linalg.norm(top[3] - top[0]))
    beside = (top + np.array([1.5 * h, 0.5 * h], np.float32)).astype(np.float32)
    assert pip_frames(table, top, [beside]) == []


def test_a_generated_clubs_index_read_as_a_spade_takes_its_pips_suit() -> None:
    # A generated table (not the bench's seeds): an 8C whose indices stand 42 pixels tall,
    # both read 8S (0.87, 0.88) alone; with its pips, 8C (0.94, 0.96). (The 5C of 6 700 159
    # that showed this before is read 5S with its pips as without by the cards model
    # retrained on 2026-11-28; 6 700 637 is the first table after it where the pips count.)
    from vision.evaluate import score
    from vision.reader import TableReader

    scene = synth.card_scene(np.random.default_rng(6_700_637), "cards")
    eights = [t for t in scene.truths if t.label == "8C"]
    alone = TableReader("cards", pips=False).read(scene.image)
    assert score(alone.objects, eights).right < len(eights)
    read = TableReader("cards").read(scene.image)
    assert score(read.objects, eights).right == len(eights)
    assert score(read.objects, scene.truths, partial=scene.partial).right == len(scene.truths)
