"""A card deck read with its profile is also looked for in faint ink
(detect_cards.ENROLLED_INK_FLOOR).

An unseen deck printed in thin, pale ink (the one-print development decks in AR PL UMing) had
indices no proposal covered, which no profile can then name.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from vision import detect_cards, enrol_layout, synth_unseen
from vision.enroll import DeckProfile
from vision.matching import same_object
from vision.reader import TableReader
from vision.recognise import model_id

# Development print 202 (AR PL UMing) on scene 61 000 + 7: its nine of clubs, pale on white,
# has no proposal at the floor of 28 alone.
PRINT, SCENE, LABEL = 202, 61_007, "9C"


@pytest.fixture(scope="module")
def pale_index() -> tuple[Any, Any]:
    scene = synth_unseen.scene(
        "cards", np.random.default_rng(SCENE), deck=synth_unseen.deck_print(PRINT)
    )
    plain = detect_cards.card_candidates(scene.image)
    (truth,) = [
        t
        for t in scene.truths
        if t.label == LABEL and not any(same_object(q, t.quad) for q in plain)
    ]
    return scene.image, truth.quad


def test_faint_ink_is_proposed_only_when_asked(pale_index: tuple[Any, Any]) -> None:
    image, quad = pale_index
    plain = detect_cards.card_candidates(image)
    faint = detect_cards.card_candidates(image, ink_floor=detect_cards.ENROLLED_INK_FLOOR)
    assert not any(same_object(q, quad) for q in plain)
    assert any(same_object(q, quad) for q in faint)
    # The usual proposals first, as they were; the faint ones only where none of them frames
    # the same object (ranked among them, they reframed indices already proposed).
    n = len(plain)
    assert all(np.array_equal(a, b) for a, b in zip(faint[:n], plain, strict=True))
    assert len(faint) > n
    assert not any(same_object(q, p) for q in faint[n:] for p in plain)


def test_uncovered_keeps_only_what_no_base_quad_frames() -> None:
    square = np.array([[0, 0], [10, 0], [10, 10], [0, 10]], np.float32)
    shifted = square + np.float32(2)  # the same object, framed a little apart
    apart = square + np.float32(50)
    huge = (square - 5) * np.float32(4)  # around it, 16 times its area: not the same object
    flat = np.array([[0, 0], [10, 0], [10, 0], [0, 0]], np.float32)  # no area: never the same
    got = detect_cards.uncovered([square.copy(), shifted, apart, huge, flat], [square, flat])
    assert [q.tolist() for q in got] == [apart.tolist(), huge.tolist(), flat.tolist()]
    assert [q.tolist() for q in detect_cards.uncovered([apart], [])] == [apart.tolist()]


def test_uncovered_keeps_what_testing_each_quad_against_every_frame_would() -> None:
    # Many extra quads scattered over and around the base: the same quads kept as by testing
    # each against every base quad.
    rng = np.random.default_rng(5)

    def quads(n: int) -> list[Any]:
        centre = rng.uniform(0, 400, (n, 1, 2))
        half = rng.uniform(4, 30, (n, 1, 2)) * np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]])
        return list((centre + half).astype(np.float32))

    base = quads(300)
    extra = [*quads(519), base[3].copy(), base[200] + np.float32(1)]
    got = detect_cards.uncovered(extra, base)
    want = [q for q in extra if not any(same_object(q, b) for b in base)]
    assert 0 < len(want) < len(extra)
    assert [q.tolist() for q in got] == [q.tolist() for q in want]


def test_the_faint_mask_takes_ink_between_the_floors() -> None:
    # White paper with a stroke 24 grey levels darker: under the floor of 28, over 20.
    image = np.full((120, 120, 3), 245, np.uint8)
    image[40:80, 58:62] = 221
    plain = detect_cards.card_ink_masks(image, (9,))
    faint = detect_cards.card_ink_masks(image, (9,), ink_floor=detect_cards.ENROLLED_INK_FLOOR)
    assert len(faint) == len(plain) + 1
    assert not any(m[60, 60] for m in plain)
    assert faint[-1][60, 60] == 255 and faint[-1][10, 10] == 0


def _profile(reader: TableReader, game: str) -> DeckProfile:
    """A two-card profile of the reader's model (what it names does not matter here)."""
    _, emb = reader.recogniser.run(np.zeros((2, *reader.recogniser.spec.crop[::-1], 3), np.uint8))
    emb = np.eye(2, emb.shape[1], dtype=np.float32)
    return DeckProfile(game, "d", model_id(reader.recogniser.path), ["2H", "3H"], emb)


def test_only_a_card_deck_read_with_its_profile_looks_for_faint_ink(
    pale_index: tuple[Any, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    cards, tiles = TableReader("cards"), TableReader("rummikub")
    assert cards.ink_floor is None and tiles.ink_floor is None
    tiles.use_deck(_profile(tiles, "rummikub"))
    assert tiles.ink_floor is None

    asked: list[tuple[bool, Any]] = []  # (the glare look's call, the ink floor asked for)
    real = detect_cards.card_candidates

    def spy(*args: Any, **kwargs: Any) -> Any:
        asked.append((kwargs.get("finest_only", False), kwargs.get("ink_floor")))
        return real(*args, **kwargs)

    monkeypatch.setattr(detect_cards, "card_candidates", spy)
    image, _ = pale_index
    cards.read(image)
    assert asked and {floor for _, floor in asked} == {None}
    cards.use_deck(_profile(cards, "cards"))
    assert cards.ink_floor == detect_cards.ENROLLED_INK_FLOOR
    asked.clear()
    cards.read(image)
    # The first look asks for faint ink; the glare look at the photo's own size (this photo
    # has clipped paper) never does: there it multiplied the proposals ninefold and read the
    # development sets alike without them.
    assert (False, detect_cards.ENROLLED_INK_FLOOR) in asked
    assert (True, None) in asked
    assert {floor for glare, floor in asked if glare} == {None}


def test_enrolment_looks_for_the_decks_indices_in_faint_ink_too(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    asked: list[Any] = []

    def spy(image: Any, **kwargs: Any) -> list[Any]:
        asked.append(kwargs.get("ink_floor"))
        return []

    monkeypatch.setattr(detect_cards, "card_candidates", spy)
    assert enrol_layout._enrolled_deck(np.zeros((60, 40, 3), np.uint8)) == []
    assert asked == [detect_cards.ENROLLED_INK_FLOOR]
