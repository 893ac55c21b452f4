"""Process pools whose forked workers leave the parent's objects alone.

Training renders in forked worker processes. A forked child inherits the parent's garbage
too: objects in reference cycles that the parent's collector has not reached yet. When the
child's collector frees one that holds an onnxruntime session (a reader left by earlier
work in the same process), the session's destructor waits for its thread pool, whose
threads live only in the parent, and the child hangs for good (seen once in the test
suite, 2026-12-06: `train_gate.gather` after other tests had read with the recognisers).
So the parent collects its garbage before the pool forks, and each worker moves what it
inherited out of its own collector's reach (:func:`gc.freeze`) before anything else.

The pool forks by name, whatever the platform's default start method: the renderers rely on
what a worker inherits (the fonts a test pins for it, vision.glyphs).
"""

from __future__ import annotations

import gc
import multiprocessing
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from typing import Any


def _start(initializer: Callable[..., Any] | None, initargs: tuple[Any, ...]) -> None:
    gc.freeze()
    if initializer is not None:
        initializer(*initargs)


def forked_pool(
    workers: int,
    initializer: Callable[..., Any] | None = None,
    initargs: tuple[Any, ...] = (),
) -> ProcessPoolExecutor:
    """A pool of ``workers`` processes that run ``initializer(*initargs)`` first."""
    gc.collect()
    return ProcessPoolExecutor(
        max_workers=workers,
        mp_context=multiprocessing.get_context("fork"),
        initializer=_start,
        initargs=(initializer, initargs),
    )
