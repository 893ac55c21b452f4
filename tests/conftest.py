"""Shared fixtures: paths to the repository and to ../shared."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
SHARED = REPO.parent / "shared"


@pytest.fixture(scope="session")
def repo() -> Path:
    return REPO


@pytest.fixture(scope="session")
def shared() -> Path:
    if not SHARED.is_dir():
        pytest.fail(f"../shared is missing beside the repository ({SHARED})")
    return SHARED


@pytest.fixture(scope="session", autouse=True)
def _float_recognisers() -> Iterator[None]:
    """Read the float tile and card models on every x86 CPU, as on the machines (without
    VNNI) the scenario tests were pinned on. With VNNI the reader takes the int8 files
    (:func:`vision.recognise.int8_saturates`), whose reads differ a little, so a table chosen
    because one rule mends it there may read right without the rule (three did on an AMD
    EPYC with VNNI, 2026-12-05). The CPU's VNNI flags are hidden from the reader;
    ``tests/test_vision_quantise.py`` sets the flags it tests itself."""
    from vision import recognise

    flags = recognise.cpu_flags() - {"avx512_vnni", "avx_vnni"}
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(recognise, "cpu_flags", lambda: flags)
        yield
