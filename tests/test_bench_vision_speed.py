"""The vision benchmark's steadier speed figure: each photo's fastest of several reads."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from bench import vision as bench_vision
from vision.recognise import MODELS


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


def test_int8_and_float_recognisers_are_timed_photo_by_photo_in_turn(
    monkeypatch: Any,
) -> None:
    # The machine's speed swings between runs minutes apart, so the two models are compared
    # by reading each photo with one and then the other, not in two separate passes.
    log: list[tuple[str, int]] = []

    class Model:
        def __init__(self, path: Any, spec: Any = None) -> None:
            self.path, self.spec = path, spec

    class Reader:
        def __init__(self, game: str) -> None:
            self.recogniser = Model(MODELS / "cards.onnx")

        def read(self, image: Any) -> _Reading:
            name = "float" if self.recogniser.path.name.endswith(".float.onnx") else "int8"
            k = int(image[0, 0, 0])
            slower = 5.0 * log.count((name, k))  # each photo's first read with a model fastest
            log.append((name, k))
            ms = {"int8": [40.0, 30.0], "float": [50.0, 46.0]}[name][k] + slower
            return _Reading({"detect": ms, "candidates": 9.0})

    monkeypatch.setattr(bench_vision, "TableReader", Reader)
    monkeypatch.setattr(bench_vision, "Recogniser", Model)
    timed = [(np.full((2, 2, 3), k, np.uint8), {}) for k in range(2)]
    result = bench_vision._int8_against_float("cards", timed, 2)
    assert log == [("int8", 0), ("float", 0), ("int8", 1), ("float", 1)] * 2
    assert result == {"int8": 35.0, "float": 48.0}  # medians of 40, 30 and of 50, 46
