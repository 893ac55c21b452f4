"""Vision benchmark (bench/results/vision.json + PNG plots in bench/results/).

* Real photos: the held-out split of ``../shared/datasets/`` (never trained on): Rummikub
  tiles and card corner indices found and read right, and spurious reads; the card photos
  also at their cameras' own aspect (``natural_aspect``: the dataset stretched them to
  640 × 640, :mod:`vision.natural_aspect`), as a camera over a table takes them.
* Synthetic scenes: a fixed set of seeded scenes per game (Rummikub with the Twist jokers,
  the standard deck, the All In deck), scored overall and by surface, rotation and lighting;
  seeds kept apart from those any reader change is tuned on (:data:`SYNTH_SEED`).
* Speed: per ~1000×750 photo, end to end without decoding (decode reported apart), with the
  median of every stage: ``speed_ms`` from the scoring pass (one read a photo), and
  ``speed_best_ms`` from each photo's fastest read of that one and :data:`TIMING_PASSES`
  more passes over the same photos (the shared 2-core machine's speed swings with its
  neighbours' load; a photo's fastest read is nearer what the code costs when nothing else
  takes the cores).
"""

from __future__ import annotations

import statistics
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision import datasets, glyphs, label_review, natural_aspect, quantise, synth
from vision.card_misses import BUCKETS, miss_buckets
from vision.evaluate import Score, score
from vision.matching import same_object
from vision.reader import Found, TableReader, load_image
from vision.recognise import Recogniser, float_path

RESULTS = Path(__file__).parent / "results"
# Synthetic scenes per game, from seeds no reader change has been chosen on. Until
# 2026-11-26 the bench read 40 scenes a game from seed 20 000; its misses had been studied
# while tuning the reader for days, and on 150 fresh scenes the All In deck read 95.4%
# where those 40 read 99.2% (standard deck 96.4% against 95.2%, Rummikub 99.48% against
# 99.5%). Look for misses on other seeds (the readers' comments use 50 000-95 000), never
# on these. 150 scenes: about 970 indices a card deck, 3800 tiles.
SYNTH_SCENES = 150  # per game
SYNTH_SEED = 2_000_000


def _other_corner(reads: list[Found], photo: datasets.Photo) -> int:
    """Reads on no labelled object that name a card labelled elsewhere in the same photo.

    A loose count, kept beside the strict rule (:func:`vision.evaluate.other_corner`): it
    asks only that the label occur in the photo, not that the read sit where the card's other
    corner must be.
    """
    labels = {t.label for t in photo.truths}
    return sum(
        r.label in labels
        and not any(same_object(r.quad, q) for q in [t.quad for t in photo.truths] + photo.ignore)
        for r in reads
    )


TIMING_PASSES = 3  # more passes over the timed photos for speed_best_ms


def _counts_for_speed(game: str, image: np.ndarray) -> bool:
    """Whether a photo counts for speed: the ~1000×750 Rummikub photos, every card photo."""
    return max(image.shape[:2]) >= 900 or game != "rummikub"


def _total(timings: dict[str, float]) -> float:
    return sum(v for k, v in timings.items() if k != "candidates")


Timed = list[tuple[np.ndarray, dict[str, float]]]  # a decoded photo, its first read's timings


def _real(
    game: str,
    kind: str,
    reader: TableReader,
    misses: Counter[str] | None = None,
    reviewed: Score | None = None,
    fixes: list[label_review.Correction] | None = None,
) -> tuple[Score, dict[str, list[float]], Timed]:
    """The held-out photos' score, the scoring pass's timings per stage, and the timed
    photos with their timings in that pass, for :func:`_best_of`. ``reviewed`` adds up the
    same reads scored against the labels with the corrections ``fixes``
    (:mod:`vision.label_review`)."""
    total = Score()
    stages: dict[str, list[float]] = defaultdict(list)
    timed: Timed = []
    photos = datasets.load(kind)  # type: ignore[arg-type]
    fixed = label_review.review_all(photos, fixes or [])
    for photo, checked in zip(photos, fixed, strict=True):
        if photo.split != "test":
            continue
        t0 = time.perf_counter()
        image = load_image(photo.path)
        decode = (time.perf_counter() - t0) * 1000
        reading = reader.read(image)
        cards = kind == "cards"
        total.add(score(reading.objects, photo.truths, photo.ignore, other_corners=cards))
        if reviewed is not None:
            reviewed.add(
                score(reading.objects, checked.truths, checked.ignore, other_corners=cards)
            )
        if cards:
            stages["other_corner"].append(_other_corner(reading.objects, photo))
        if misses is not None:
            misses.update(miss_buckets(reader, image, photo.truths, photo.ignore, reading))
        stages["decode"].append(decode)
        if _counts_for_speed(game, image):
            timed.append((image, reading.timings))
            for k, v in reading.timings.items():
                stages[k].append(v)
            stages["total"].append(_total(reading.timings))
    return total, stages, timed


def _real_natural(reader: TableReader) -> tuple[Score, int]:
    """The held-out card photos read again at their cameras' own aspect
    (:mod:`vision.natural_aspect`; the dataset's are stretched to 640 × 640), with how many
    photos were turned back."""
    total = Score()
    turned = 0
    for photo in datasets.load("cards"):
        if photo.split != "test":
            continue
        published = load_image(photo.path)
        image, truths, ignore = natural_aspect.restored(photo, published)
        turned += image.shape != published.shape
        total.add(score(reader.read(image).objects, truths, ignore, other_corners=True))
    return total, turned


def _best_of(reader: TableReader, timed: Timed, passes: int) -> dict[str, float]:
    """Stage medians over the photos, each photo's stages taken from its fastest read: the
    one timed already, or one of ``passes`` more (whole passes over the photos, so a slow
    spell of the machine falls on one read of many photos, not on every read of one)."""
    best = [{**t, "total": _total(t)} for _, t in timed]
    for _ in range(passes):
        for k, (image, _) in enumerate(timed):
            timings = reader.read(image).timings
            if _total(timings) < best[k]["total"]:
                best[k] = {**timings, "total": _total(timings)}
    stages: dict[str, list[float]] = defaultdict(list)
    for b in best:
        for stage, v in b.items():
            stages[stage].append(v)
    return _speed(stages)


def _int8_against_float(game: str, timed: Timed, passes: int) -> dict[str, float]:
    """Median over the photos of each one's fastest read (of ``passes``) with the shipped
    int8 recogniser and with the float model it was made from (:mod:`vision.quantise`),
    reading each photo with both in turn: the machine's speed swings by a fifth between runs
    minutes apart, so the two are compared within one spell."""
    int8 = TableReader(game)  # type: ignore[arg-type]
    floats = TableReader(game)  # type: ignore[arg-type]
    spec = int8.recogniser.spec
    # Named explicitly: where int8 saturates, the reader's default is the float model.
    path = int8.recogniser.path
    shipped = path.with_name(path.name.replace(".float.onnx", ".onnx"))
    int8.recogniser = Recogniser(shipped, spec)
    floats.recogniser = Recogniser(float_path(shipped), spec)
    best = {"int8": [float("inf")] * len(timed), "float": [float("inf")] * len(timed)}
    for _ in range(passes):
        for k, (image, _) in enumerate(timed):
            for name, reader in (("int8", int8), ("float", floats)):
                best[name][k] = min(best[name][k], _total(reader.read(image).timings))
    return {name: round(statistics.median(v), 2) for name, v in best.items()}


def _synthetic(game: str, reader: TableReader) -> tuple[Score, dict[str, dict[str, Score]]]:
    total = Score()
    by: dict[str, dict[str, Score]] = defaultdict(lambda: defaultdict(Score))
    for i in range(SYNTH_SCENES):
        rng = np.random.default_rng(SYNTH_SEED + i)
        scene = (
            synth.tile_scene(rng) if game == "rummikub" else synth.card_scene(rng, game)  # type: ignore[arg-type]
        )
        s = score(reader.read(scene.image).objects, scene.truths, partial=scene.partial)
        total.add(s)
        for cond in ("surface", "rotation", "lighting", "layout"):
            by[cond][scene.conditions[cond]].add(s)
    return total, by


def _speed(stages: dict[str, list[float]]) -> dict[str, float]:
    return {k: round(statistics.median(v), 2) for k, v in stages.items() if v}


def run() -> dict[str, Any]:
    RESULTS.mkdir(parents=True, exist_ok=True)
    result: dict[str, Any] = {"real": {}, "synthetic": {}, "speed_ms": {}}
    # The generated tables depend on the fonts installed (vision.glyphs); name them.
    result["render_fonts"] = glyphs.font_signature()
    result["speed_best_ms"] = {"passes": TIMING_PASSES}
    confusion: dict[str, Score] = {}
    conditions: dict[str, dict[str, dict[str, Score]]] = {}
    for game, kind in (("rummikub", "tiles"), ("cards", "cards")):
        reader = TableReader(game)  # type: ignore[arg-type]
        # Which file read the photos: int8 on a Pi and on x86 with VNNI, float where int8
        # saturates (recognise.int8_saturates); the two differ by a few reads in a thousand.
        result.setdefault("read_with", {})[kind] = reader.recogniser.path.name
        misses: Counter[str] | None = Counter() if kind == "cards" else None
        reviewed = Score()
        fixes = label_review.corrections(kind)  # type: ignore[arg-type]
        real, stages, timed = _real(game, kind, reader, misses, reviewed, fixes)
        result["real"][game] = real.to_json()
        # The same reads against the labels as reviewed by eye where reader and label
        # disagreed (vision/label_review.json): the published labels stay the measure.
        result["real"][game]["labels_reviewed"] = {**reviewed.to_json(), "corrections": len(fixes)}
        if "other_corner" in stages:
            result["real"][game]["spurious_other_corner"] = int(sum(stages.pop("other_corner")))
        if misses is not None:
            # Why each missed index was missed (vision.card_misses), so the gap stays measured.
            result["real"][game]["missed_by_cause"] = {b: misses[b] for b in BUCKETS}
        if kind == "cards":
            # As a camera over a table takes them: the target stays the photos as published.
            natural, turned = _real_natural(reader)
            result["real"][game]["natural_aspect"] = {**natural.to_json(), "photos_turned": turned}
        result["speed_ms"][game] = _speed(stages)
        result["speed_best_ms"][game] = _best_of(reader, timed, TIMING_PASSES)
        if kind in quantise.QUANTISED:
            result.setdefault("speed_int8_against_float_ms", {"passes": TIMING_PASSES + 1})
            result["speed_int8_against_float_ms"][game] = _int8_against_float(
                game, timed, TIMING_PASSES + 1
            )
        confusion[game] = real
        print(f"  real {game}: {real.to_json()}", flush=True)
    for game in ("rummikub", "cards", "allin"):
        reader = TableReader(game)  # type: ignore[arg-type]
        syn, by = _synthetic(game, reader)
        result["synthetic"][game] = {
            **syn.to_json(),
            "by": {
                c: {k: round(v.accuracy, 4) for k, v in sorted(d.items())} for c, d in by.items()
            },
        }
        conditions[game] = by
        print(f"  synthetic {game}: {syn.to_json()}", flush=True)
    all_syn = Score()
    for game in ("rummikub", "cards", "allin"):
        s = result["synthetic"][game]
        all_syn.right += s["right"]
        all_syn.objects += s["objects"]
    result["synthetic"]["all_accuracy"] = round(all_syn.accuracy, 4)
    _plot_conditions(conditions, RESULTS / "vision_conditions.png")
    for game, s in confusion.items():
        _plot_confusion(s, RESULTS / f"vision_confusion_{game}.png", game)
    result["model_bytes"] = {
        p.name: p.stat().st_size
        for p in sorted((Path(__file__).parent.parent / "models").glob("*.onnx"))
    }
    return result


# -- plots with OpenCV (no plotting library needed) ---------------------------------------
def _plot_conditions(conditions: dict[str, dict[str, dict[str, Score]]], path: Path) -> None:
    panels = []
    for game, by in conditions.items():
        for cond in ("surface", "rotation", "lighting"):
            items = sorted(by[cond].items())
            w, h = max(420, 60 + 70 * len(items)), 300
            img = np.full((h, w, 3), 255, np.uint8)
            cv2.putText(
                img,
                f"{game}: accuracy by {cond}",
                (10, 22),
                cv2.FONT_HERSHEY_SIMPLEX,
                0.55,
                (0, 0, 0),
                1,
                cv2.LINE_AA,
            )
            base, top = 250, 50
            cv2.line(img, (40, base), (w - 10, base), (0, 0, 0), 1)
            for k, (name, s) in enumerate(items):
                x = 50 + 70 * k
                y = int(base - (base - top) * s.accuracy)
                colour = (60, 170, 60) if s.accuracy >= 0.99 else (40, 140, 230)
                cv2.rectangle(img, (x, y), (x + 50, base), colour, -1)
                cv2.putText(
                    img,
                    f"{s.accuracy:.3f}",
                    (x, y - 5),
                    cv2.FONT_HERSHEY_SIMPLEX,
                    0.4,
                    (0, 0, 0),
                    1,
                    cv2.LINE_AA,
                )
                cv2.putText(
                    img,
                    name[:9],
                    (x, base + 18),
                    cv2.FONT_HERSHEY_SIMPLEX,
                    0.38,
                    (0, 0, 0),
                    1,
                    cv2.LINE_AA,
                )
                cv2.putText(
                    img,
                    f"n={s.objects}",
                    (x, base + 34),
                    cv2.FONT_HERSHEY_SIMPLEX,
                    0.35,
                    (90, 90, 90),
                    1,
                    cv2.LINE_AA,
                )
            panels.append(img)
    width = max(p.shape[1] for p in panels)
    padded = [
        cv2.copyMakeBorder(
            p, 0, 0, 0, width - p.shape[1], cv2.BORDER_CONSTANT, value=(255, 255, 255)
        )
        for p in panels
    ]
    cv2.imwrite(str(path), np.vstack(padded))


def _plot_confusion(s: Score, path: Path, game: str) -> None:
    truths = sorted({t for t, _ in s.confusions})
    reads = sorted({r for _, r in s.confusions} | set(truths), key=lambda x: (x == "missed", x))
    cell = 14
    left, top = 60, 70
    img = np.full((top + cell * len(truths) + 10, left + cell * len(reads) + 10, 3), 255, np.uint8)
    cv2.putText(
        img,
        f"{game}: held-out confusion (rows truth, columns read)",
        (5, 18),
        cv2.FONT_HERSHEY_SIMPLEX,
        0.5,
        (0, 0, 0),
        1,
        cv2.LINE_AA,
    )
    for i, t in enumerate(truths):
        row_total = sum(v for (tt, _), v in s.confusions.items() if tt == t) or 1
        cv2.putText(
            img,
            t,
            (4, top + cell * i + 11),
            cv2.FONT_HERSHEY_SIMPLEX,
            0.32,
            (0, 0, 0),
            1,
            cv2.LINE_AA,
        )
        for j, r in enumerate(reads):
            v = s.confusions.get((t, r), 0) / row_total
            if v <= 0:
                continue
            shade = int(255 * (1 - v))
            colour = (shade, shade, 255) if t != r else (shade, 255, shade)
            x, y = left + cell * j, top + cell * i
            cv2.rectangle(img, (x, y), (x + cell - 1, y + cell - 1), colour, -1)
    for j, r in enumerate(reads):
        x = left + cell * j + 10
        label = np.full((cell, 60, 3), 255, np.uint8)
        cv2.putText(label, r, (1, 10), cv2.FONT_HERSHEY_SIMPLEX, 0.32, (0, 0, 0), 1, cv2.LINE_AA)
        rot = cv2.rotate(label, cv2.ROTATE_90_COUNTERCLOCKWISE)
        y0 = top - rot.shape[0] - 2
        if y0 >= 0:
            img[y0 : y0 + rot.shape[0], x - cell + 1 : x + 1] = np.minimum(
                img[y0 : y0 + rot.shape[0], x - cell + 1 : x + 1], rot
            )
    cv2.imwrite(str(path), img)
