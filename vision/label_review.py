"""Corrections to the shared photos' hand-made labels, each checked by eye.

The datasets' README warns that their labels contain mistakes. Where the card reader and a
held-out photo's label disagreed (a spurious read, a wrong card), the photo was looked at
zoomed in, and where it showed the label wrong or an index left unlabelled beyond doubt,
the correction went into ``label_review.json`` beside this module, with what the photo
shows. Doubtful cases were left as labelled. The benchmark reports the held-out photos'
score both on the labels as published (the target's measure) and as reviewed.

The held-out split's corrections (key ``cards``) count only in the benchmark's reviewed
figure. Labels in the training split found wrong by eye while studying its misses are
corrected too (keys ``cards_training`` and ``tiles_training``); training reads those, and so
do development sweeps over the training photos (``bench._sweep --photos``); the benchmark
never does.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Literal

import numpy as np

from vision.datasets import Kind, Photo
from vision.labels import NONE, spec_for
from vision.synth import Truth

REVIEW_FILE = Path(__file__).with_name("label_review.json")


class ReviewError(ValueError):
    """A correction that does not fit the photos it names (a dataset changed under it)."""


@dataclass(frozen=True)
class Correction:
    photo: str  # the image's file name
    change: Literal["add", "relabel"]
    label: str  # the token the photo shows
    box: tuple[float, float, float, float] | None  # add: x0, y0, x1, y1 in pixels
    at: tuple[float, float] | None  # relabel: a point inside the labelled box
    was: str | None  # relabel: the token as labelled
    why: str


def _correction(entry: dict[str, Any]) -> Correction:
    change = entry.get("change")
    if change == "add":
        box = entry.get("box")
        if not (
            isinstance(box, list) and len(box) == 4 and all(type(v) in (int, float) for v in box)
        ):
            raise ReviewError(
                f"{entry.get('photo')}: an added {entry.get('label')} needs a box of four numbers"
                f" x0, y0, x1, y1 (got {box!r})"
            )
        x0, y0, x1, y1 = box
        if not (0 <= x0 < x1 and 0 <= y0 < y1):
            raise ReviewError(
                f"{entry.get('photo')}: an added {entry.get('label')}'s box {box} is not "
                "x0, y0, x1, y1 with x0 < x1 and y0 < y1, inside the photo"
            )
        return Correction(
            entry["photo"], "add", entry["label"], tuple(box), None, None, entry["why"]
        )
    if change == "relabel":
        at = entry.get("at")
        if not (isinstance(at, list) and len(at) == 2) or not entry.get("was"):
            raise ReviewError(
                f"{entry.get('photo')}: relabelling to {entry.get('label')} needs 'at' and 'was'"
            )
        return Correction(
            entry["photo"],
            "relabel",
            entry["label"],
            None,
            tuple(at),
            entry["was"],
            entry["why"],
        )
    raise ReviewError(f"{entry.get('photo')}: unknown change {change!r} (add or relabel)")


def corrections(
    kind: Kind, path: Path = REVIEW_FILE, part: Literal["held_out", "training"] = "held_out"
) -> list[Correction]:
    """The corrections for one dataset's held-out or training photos; a token the recogniser
    cannot name is an error."""
    known = set(spec_for(kind).labels) - {NONE}
    key = kind if part == "held_out" else f"{kind}_training"
    fixes = [_correction(e) for e in json.loads(path.read_text()).get(key, [])]
    for fix in fixes:
        for token in (fix.label, fix.was):
            if token is not None and token not in known:
                raise ReviewError(f"{fix.photo}: unknown {kind} token {token!r} in the review")
    return fixes


def _box_quad(box: tuple[float, float, float, float]) -> np.ndarray:
    x0, y0, x1, y1 = box
    return np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float32)


def _holds(quad: np.ndarray, point: tuple[float, float]) -> bool:
    (x0, y0), (x1, y1) = quad.min(0), quad.max(0)
    return bool(x0 <= point[0] <= x1 and y0 <= point[1] <= y1)


def reviewed(photo: Photo, fixes: list[Correction]) -> Photo:
    """``photo`` with the corrections that name it applied. A relabelling must find exactly
    one box labelled as it says around its point, or the review no longer fits the data."""
    truths = list(photo.truths)
    for fix in fixes:
        if fix.photo != photo.path.name:
            continue
        if fix.change == "add":
            assert fix.box is not None
            truths.append(Truth(fix.label, _box_quad(fix.box)))
            continue
        assert fix.at is not None
        at = fix.at
        hits = [i for i, t in enumerate(truths) if t.label == fix.was and _holds(t.quad, at)]
        if len(hits) != 1:
            raise ReviewError(
                f"{photo.path.name}: {len(hits)} boxes labelled {fix.was} around "
                f"{at[0]:.0f},{at[1]:.0f} to relabel {fix.label} (want exactly one)"
            )
        truths[hits[0]] = Truth(fix.label, truths[hits[0]].quad)
    return replace(photo, truths=truths)


def training_digest(kind: str, path: Path | None = None) -> str:
    """A short id of ``kind``'s training corrections as they stand: crops rendered from the
    photos' labels before a correction was added are stale once it is (vision.train's cache)."""
    entries = json.loads((path or REVIEW_FILE).read_text()).get(f"{kind}_training", [])
    return hashlib.sha1(json.dumps(entries, sort_keys=True).encode()).hexdigest()[:8]


def review_all(photos: list[Photo], fixes: list[Correction]) -> list[Photo]:
    """Every photo reviewed; a correction naming no photo here is an error."""
    names = {p.path.name for p in photos}
    stray = sorted({f.photo for f in fixes} - names)
    if stray:
        raise ReviewError(f"label review names photos not in the dataset: {', '.join(stray)}")
    return [reviewed(p, fixes) for p in photos]


def for_training(photos: list[Photo], kind: Kind, path: Path = REVIEW_FILE) -> list[Photo]:
    """Training photos with the training split's corrections applied. A correction may name
    a photo not among them (a recipe comparison leaves the dev fold out)."""
    fixes = corrections(kind, path, "training")
    return [reviewed(p, fixes) for p in photos]
