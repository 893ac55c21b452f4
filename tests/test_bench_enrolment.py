"""The benchmark's one-print enrolment rows (`bench.vision_extra.enrolment_one_print`)."""

from __future__ import annotations

import pytest

from bench import vision_extra


def test_a_one_print_row_times_the_reads_before_and_after_enrolment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(vision_extra, "ENROL_GAMES", ("cards",))
    monkeypatch.setattr(vision_extra, "ENROL_PRINTS", (11,))
    monkeypatch.setattr(vision_extra, "ENROL_PRINT_SCENES", 2)
    (row,) = vision_extra.enrolment_one_print()
    assert row["game"] == "cards" and [p["print_seed"] for p in row["prints"]] == [11]
    assert row["after"]["objects"] > 0 and row["after"]["right"] > row["before"]["right"]
    times = row["read_median_ms"]
    assert set(times) == {"before", "after"}
    # A read takes milliseconds to a second here, not microseconds (nothing timed) or longer.
    assert all(1.0 < ms < 5000.0 for ms in times.values())
