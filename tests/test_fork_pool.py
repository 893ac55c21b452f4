"""Forked training workers leave the parent's objects to the parent (vision.fork_pool)."""

from __future__ import annotations

import gc
import multiprocessing
import sys

import pytest

from vision.fork_pool import forked_pool


class _Cycle:
    """Garbage that only the cycle collector frees, as a reader holding a session can be."""

    freed = 0

    def __init__(self) -> None:
        self.me = self

    def __del__(self) -> None:
        type(self).freed += 1


def _frozen() -> int:
    return gc.get_freeze_count()


def _twice(x: int) -> int:
    return 2 * x


def test_the_parents_garbage_is_collected_before_the_pool_forks() -> None:
    gc.disable()  # so only the pool's own collection can free it
    try:
        _Cycle.freed = 0
        _Cycle()
        with forked_pool(1) as pool:
            assert _Cycle.freed == 1
            assert pool.submit(_twice, 21).result() == 42
    finally:
        gc.enable()


def test_a_worker_freezes_what_it_inherited_before_its_initializer_runs() -> None:
    seen: list[int] = []
    with forked_pool(1, seen.append, (7,)) as pool:
        assert pool.submit(_frozen).result() > 0  # the parent's objects, out of its reach
    assert seen == []  # the initializer ran in the worker, not here
    assert gc.get_freeze_count() == 0


_SET_AFTER_IMPORT: list[str] = []


def _inherited() -> list[str]:
    return _SET_AFTER_IMPORT


def test_workers_are_forked_and_see_what_the_parent_set(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A spawned or forkserver worker would import this module afresh and see an empty list;
    # here the platform's default start method is made "spawn".
    named = multiprocessing.get_context
    monkeypatch.setattr(multiprocessing, "get_context", lambda m=None: named(m or "spawn"))
    monkeypatch.setattr(sys.modules[__name__], "_SET_AFTER_IMPORT", ["parent"])
    with forked_pool(1) as pool:
        assert pool.submit(_inherited).result() == ["parent"]
