"""The vision benchmark's steadier speed figure: each photo's fastest of several reads."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from bench import vision as bench_vision


@dataclass
class _Reading:
    timings: dict[str, float]


class _SlowSpells:
    """A reader whose n-th read of a photo takes the n-th of that photo's given times."""

    def __init__(self, times: list[list[float]]) -> None:
        self.times = times
        self.reads = [0] * len(times)

    def read(self, image: Any) -> _Reading:
        k = int(image[0, 0, 0])
        ms = self.times[k][self.reads[k]]
        self.reads[k] += 1
        return _Reading({"detect": ms / 2, "recognise": ms / 2, "candidates": 200.0})


def test_best_of_takes_each_photos_fastest_read_and_the_median_over_photos() -> None:
    times = [[30.0, 90.0, 31.0], [80.0, 20.0, 85.0], [50.0, 52.0, 40.0]]
    first = [70.0, 60.0, 25.0]  # the scoring pass's reads count too
    timed = [
        (np.full((2, 2, 3), k, np.uint8), {"detect": ms / 2, "recognise": ms / 2})
        for k, ms in enumerate(first)
    ]
    reader = _SlowSpells(times)
    best = bench_vision._best_of(reader, timed, 3)  # type: ignore[arg-type]
    assert reader.reads == [3, 3, 3]
    assert best["total"] == 25.0  # fastest reads 30, 20, 25: their median
    assert best["detect"] == 12.5 and best["recognise"] == 12.5
    # A count, not a time: never summed into the total (the first reads' timings lack it).
    assert best["candidates"] == 200.0
