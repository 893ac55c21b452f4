"""Vision beyond tiles and playing cards (bench/results/vision_extra.json): table calibration
error in millimetres on generated tables, stable reads over generated frame sequences with a
hand passing over the table, and the cost of each."""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from vision import calibrate
from vision.stability import StableReader
from vision.synth_sequence import SKIN_TONES_BGR, hand_sequence
from vision.synth_table import render_calibration_scene

TABLES = 30
SEQUENCES = 12


def calibration() -> dict[str, Any]:
    """Markers found on generated tables (900 x 600 mm, 1280 x 960 px, random tilt, markers
    taped a little askew): error of the table plane over a 10 x 7 grid of table points."""
    errors: list[float] = []
    worst_per_table: list[float] = []
    seconds: list[float] = []
    failures = 0
    for seed in range(TABLES):
        scene = render_calibration_scene(np.random.default_rng(1000 + seed))
        started = time.perf_counter()
        try:
            cal = calibrate.from_markers("bench", scene.image, scene.width_mm, scene.height_mm)
        except calibrate.CalibrationError:
            failures += 1
            continue
        seconds.append(time.perf_counter() - started)
        gx, gy = np.meshgrid(np.linspace(0, scene.width_mm, 10), np.linspace(0, scene.height_mm, 7))
        truth = np.stack([gx.ravel(), gy.ravel()], axis=1)
        err = np.linalg.norm(cal.to_table(scene.true_to_image(truth)) - truth, axis=1)
        errors.extend(err.tolist())
        worst_per_table.append(float(err.max()))
    e = np.asarray(errors)
    return {
        "tables": TABLES,
        "failed": failures,
        "error_mm": {
            "mean": round(float(e.mean()), 3),
            "p95": round(float(np.percentile(e, 95)), 3),
            "max": round(float(e.max()), 3),
        },
        "worst_table_max_mm": round(max(worst_per_table), 3),
        "median_ms": round(1000 * float(np.median(seconds)), 1),
    }


def stability() -> dict[str, Any]:
    """Sequences of 96 frames (640 x 480) on felt, wood and plain tops with four skin tones: a
    hand lays a card and later takes one. Counts frames with a hand over the table that were
    used anyway, stable labels that were never on the table, how many frames after the hand
    left a laid card counted, and the gate's cost per frame."""
    hand_frames = used_with_hand = spurious = 0
    delays: list[int] = []
    forget: list[int] = []
    per_frame: list[float] = []
    surfaces = ("felt", "wood", "plain")
    for seed in range(SEQUENCES):
        frames = hand_sequence(
            np.random.default_rng(2000 + seed),
            surface=surfaces[seed % 3],
            tone=SKIN_TONES_BGR[seed % len(SKIN_TONES_BGR)],
        )
        reader = StableReader()
        ever = {label for fr in frames for label in fr.truth}
        laid_at = removed_at = None
        for i, fr in enumerate(frames):
            started = time.perf_counter()
            update = reader.update(fr.image, fr.reads)
            per_frame.append(time.perf_counter() - started)
            labels = {o["label"] for o in update.objects}
            hand_frames += fr.hand_over_table
            used_with_hand += fr.hand_over_table and update.verdict.usable
            spurious += len(labels - ever)
            if laid_at is None and "QC" in labels:
                laid_at = i
            if i > 58 and removed_at is None and "AS" not in labels:
                removed_at = i
        last_hand = max(i for i, fr in enumerate(frames[:50]) if fr.hand_over_table)
        delays.append((laid_at if laid_at is not None else len(frames)) - last_hand)
        forget.append((removed_at if removed_at is not None else len(frames)) - 58)
    return {
        "sequences": SEQUENCES,
        "frames_with_hand": hand_frames,
        "frames_with_hand_used": used_with_hand,
        "spurious_stable_reads": spurious,
        "laid_card_counts_after_frames": {"median": float(np.median(delays)), "max": max(delays)},
        "taken_card_forgotten_after_frames": {
            "median": float(np.median(forget)),
            "max": max(forget),
        },
        "ms_per_frame": round(1000 * float(np.median(per_frame)), 2),
    }


def run() -> dict[str, Any]:
    return {"calibration": calibration(), "stability": stability()}
