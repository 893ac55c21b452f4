"""Stable reads over generated frame sequences with a hand passing over the table."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from vision.stability import FrameGate, StabilityConfig, StableReader, skin_mask
from vision.synth_sequence import SKIN_TONES_BGR, hand_sequence


def _run(seed: int, surface: str, tone: tuple[int, int, int]) -> list[tuple[Any, ...]]:
    frames = hand_sequence(np.random.default_rng(seed), surface=surface, tone=tone)
    reader = StableReader()
    log = []
    for i, fr in enumerate(frames):
        u = reader.update(fr.image, fr.reads)
        log.append((i, u.verdict, fr, {o["label"] for o in u.objects}))
    return log


CASES = [
    (0, "felt", SKIN_TONES_BGR[0]),
    (1, "wood", SKIN_TONES_BGR[3]),
    (2, "plain", SKIN_TONES_BGR[2]),
    (3, "wood", SKIN_TONES_BGR[1]),
]


@pytest.fixture(scope="module", params=CASES, ids=[f"{c[1]}-tone{i}" for i, c in enumerate(CASES)])
def run(request: pytest.FixtureRequest) -> list[tuple[Any, ...]]:
    seed, surface, tone = request.param
    return _run(seed, surface, tone)


def test_frames_with_a_hand_over_the_table_are_skipped(run: list[tuple[Any, ...]]) -> None:
    for i, verdict, fr, _ in run:
        if fr.hand_over_table:
            assert not verdict.usable, f"frame {i} has a hand over the table"
    # The hand pauses over the table to lay a card: frames without motion, skipped as a hand
    # (the frame where the card drops under it is skipped for the motion).
    paused = [v.reason for _, v, fr, _ in run if fr.hand_still and fr.hand_over_table]
    assert paused.count("hand") >= 4 and set(paused) <= {"hand", "motion"}


def test_no_read_counts_that_was_never_on_the_table(run: list[tuple[Any, ...]]) -> None:
    ever = {label for _, _, fr, _ in run for label in fr.truth}
    for i, _, fr, stable in run:
        assert stable <= ever, f"frame {i}: spurious {stable - ever}"
        # Nothing that is not on the table now, except a card recently taken (kept a while).
        assert stable - set(fr.truth) <= {"AS"}, f"frame {i}: {stable}"


def test_a_laid_card_counts_after_the_hand_has_gone(run: list[tuple[Any, ...]]) -> None:
    appears = next(i for i, _, _, s in run if "QC" in s)
    hand_leaves = max(i for i, _, fr, _ in run[:50] if fr.hand_over_table)
    assert hand_leaves < appears <= hand_leaves + 12
    assert all("QC" in s for _, _, _, s in run[appears:])


def test_a_taken_card_is_kept_a_while_then_forgotten(run: list[tuple[Any, ...]]) -> None:
    # AS is lifted at frame 58; it stays through the hand's pass and a few usable frames.
    assert all("AS" in s for _, _, _, s in run[58:68])
    gone = next(i for i, _, _, s in run if i > 58 and "AS" not in s)
    assert gone <= 90
    assert all("AS" not in s for _, _, _, s in run[gone:])
    assert {"KH", "7D", "QC"} <= run[-1][3]


def test_single_frame_misreads_and_dropouts_never_flip_a_label() -> None:
    reader = StableReader(StabilityConfig(agree_frames=3, forget_frames=4))
    frame = np.full((120, 160, 3), 90, np.uint8)
    quad = [[10, 10], [40, 10], [40, 50], [10, 50]]

    def feed(label: str | None) -> list[str]:
        reads = [] if label is None else [{"label": label, "confidence": 0.9, "quad": quad}]
        return [o["label"] for o in reader.update(frame, reads).objects]

    assert reader.update(frame, []).verdict.reason == "first_frame"
    seen = [feed(x) for x in ["r7", "r7", "r7", "r1", "r7", None, "r7", "r1", "r1", "r7"]]
    assert seen[1] == [] and seen[2] == ["r7"]
    assert all(s == ["r7"] for s in seen[2:])
    # A label that really changed (a card replaced in place) takes over once it agrees.
    assert [feed("b2") for _ in range(3)] == [["r7"], ["r7"], ["b2"]]
    # Missing from 4 usable frames: forgotten, not before.
    assert [feed(None) for _ in range(4)] == [["b2"], ["b2"], ["b2"], []]


def test_motion_is_skipped_and_a_still_skin_coloured_table_is_accepted() -> None:
    gate = FrameGate(StabilityConfig(settle_frames=5))
    rng = np.random.default_rng(0)
    wood = np.zeros((240, 320, 3), np.uint8)
    wood[:] = (60, 110, 160)  # BGR of a wooden top: its chroma is skin-like
    assert skin_mask(wood).mean() > 200
    verdicts = [gate.check(wood) for _ in range(7)]
    assert verdicts[0].reason == "first_frame"
    assert [v.reason for v in verdicts[1:5]] == ["hand"] * 4
    assert verdicts[5].usable and verdicts[6].usable
    moved = wood.copy()
    moved[50:150, 50:150] = rng.integers(0, 255, (100, 100, 3), dtype=np.uint8)
    assert gate.check(moved).reason == "motion"


def test_motion_and_hands_outside_the_table_do_not_stop_reading() -> None:
    frames = hand_sequence(np.random.default_rng(9), surface="felt", tone=SKIN_TONES_BGR[1])
    h, w = frames[0].image.shape[:2]
    # The table is the upper half; the hand comes in from the bottom and reaches the lower
    # card, below the table: with the table outline given, those frames stay usable.
    top_half = [(0, 0), (w, 0), (w, h * 0.5), (0, h * 0.5)]
    whole = FrameGate()
    table = FrameGate(roi=top_half)
    used_whole = used_table = 0
    for fr in frames[12:20]:  # the hand comes in, up to the lower card (y = 0.68 h)
        used_whole += whole.check(fr.image).usable
        used_table += table.check(fr.image).usable
    assert used_whole <= 1
    assert used_table >= 6


def test_a_change_of_frame_shape_starts_over() -> None:
    gate = FrameGate()
    four_three = np.full((480, 640, 3), 90, np.uint8)
    assert [gate.check(four_three).usable for _ in range(3)] == [False, True, True]
    # Frames are compared at a fixed width: half the resolution is the same picture...
    assert gate.check(four_three[::2, ::2]).usable
    # ...but another aspect ratio is another view: nothing to compare with yet.
    wide = np.full((360, 640, 3), 90, np.uint8)
    assert gate.check(wide).reason == "first_frame"
    assert gate.check(wide).usable
