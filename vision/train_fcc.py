"""Training crops for the Four Color and Cactus recognisers, from generated tables.

As for tiles and cards (:mod:`vision.train`), the recogniser learns from what reading will
show it: the proposers run over every generated table and each proposal, in each turn the
reader will try, is labelled by the truth it covers. A Four Color proposal is a square around
a character (four turns are read), a Cactus one a name band (two turns); only the turn with the
character or the name upright carries its label, the others are ``none``, so the recogniser also
says which way is up. Jittered views of every visible character or band add positives the
proposers happened to miss (characters turned up to 40°, as in a fanned hand).

Only the training fonts (:data:`vision.cjk_fonts.TRAIN_FONTS`) and, for Cactus, the training
accent hues reach these crops; the held-out ones are for evaluation only.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt

from vision import detect_cactus, detect_fourcolor, synth_cactus, synth_fourcolor
from vision.crops import crop
from vision.fork_pool import forked_pool
from vision.fourcolor_read import CharRead, beside_squares
from vision.labels import NONE, LabelSpec, spec_for
from vision.overlaps import quad_iou

Crops = npt.NDArray[Any]
Quad = npt.NDArray[np.float64]
SEED_STRIDE = 1_000_003  # scene seeds are seed * SEED_STRIDE + i: never the benchmark's
# A character (most of a fanned card's shows) or a name band this uncovered is readable.
VISIBLE = {"fourcolor": 0.6, "cactus": 0.8}
HIDDEN = 0.35  # one less uncovered than this is not


def _down(q: Quad) -> npt.NDArray[np.float64]:
    d = (q[3] - q[0]) + (q[2] - q[1])
    return np.asarray(d / max(float(np.linalg.norm(d)), 1e-9), np.float64)


def _size(q: Quad) -> float:
    return float(np.linalg.norm(q[1] - q[0]) + np.linalg.norm(q[3] - q[0])) / 2


def _turn(q: Quad, k: int) -> Quad:
    return np.roll(q, -k, axis=0)


def _jitter(q: Quad, rng: np.random.Generator, max_deg: float, shift: float) -> Quad:
    c = q.mean(0)
    ang = np.radians(rng.uniform(-max_deg, max_deg))
    rot = np.array([[np.cos(ang), -np.sin(ang)], [np.sin(ang), np.cos(ang)]])
    scale = float(np.exp(rng.normal(0, 0.1)))
    off = rng.normal(0, shift * _size(q), 2)
    return np.asarray(((q - c) @ rot.T) * scale + c + off, np.float64)


def _sample(items: list[Crops], keep: int, rng: np.random.Generator) -> list[Crops]:
    if len(items) <= keep:
        return items
    return [items[int(i)] for i in rng.choice(len(items), keep, replace=False)]


def fourcolor_crops(
    spec: LabelSpec,
    scene: synth_fourcolor.FourColorScene,
    rng: np.random.Generator,
    jitters: int,
) -> tuple[list[Crops], list[int]]:
    """Labelled character crops from one generated Four Color table."""
    image = scene.image
    chars = scene.characters()
    none = spec.index(NONE)
    out: list[Crops] = []
    ys: list[int] = []
    negatives: list[Crops] = []
    for q in detect_fourcolor.candidates(image, read_time=False):
        c, size = q.mean(0), _size(q)
        near = [
            ch
            for ch in chars
            if float(np.linalg.norm(ch.quad.mean(0) - c)) < 0.6 * max(size, _size(ch.quad))
        ]
        hit = [
            ch
            for ch in near
            if float(np.linalg.norm(ch.quad.mean(0) - c)) < 0.3 * _size(ch.quad)
            and 0.6 < size / _size(ch.quad) < 1.7
        ]
        ratios = [size / _size(ch.quad) for ch in near]
        if not near or all(r < 0.5 or r > 1.9 for r in ratios):
            # Nothing, a fragment of a character (half of 俥 is 車) or several characters.
            k = int(rng.integers(4))
            negatives.append(crop(image, _turn(q, k).astype(np.float32), spec.crop))
            continue
        if len(hit) != 1 or hit[0].visible < VISIBLE["fourcolor"]:
            continue  # too close to a character to be a clean negative, or half hidden
        ch = hit[0]
        dots = [float(_down(_turn(q, k)) @ _down(ch.quad)) for k in range(4)]
        best = int(np.argmax(dots))
        if dots[best] < 0.75:
            continue  # about 45° off: neither turn is clearly upright
        for k in range(4):
            out.append(crop(image, _turn(q, k).astype(np.float32), spec.crop))
            ys.append(spec.index(ch.label) if k == best else none)
    # The reader also looks beside every character it read (fourcolor_read.beside_squares):
    # learn what those squares show, a neighbour's character or nothing.
    readable = [c for c in chars if c.visible >= VISIBLE["fourcolor"]]
    anchors = [CharRead(c.label, 1.0, _jitter(c.quad, rng, 3.0, 0.03)) for c in readable]
    beside: list[tuple[Crops, int]] = []
    for q in beside_squares(anchors):
        c, size = q.mean(0), _size(q)
        dist = [float(np.linalg.norm(ch.quad.mean(0) - c)) / _size(ch.quad) for ch in chars]
        k = int(np.argmin(dist)) if dist else -1
        if k >= 0 and dist[k] < 0.6:
            ch = chars[k]
            upright = float(_down(q) @ _down(ch.quad)) > 0.9
            if dist[k] < 0.25 and upright and ch.visible >= VISIBLE["fourcolor"]:
                beside.append((crop(image, q.astype(np.float32), spec.crop), spec.index(ch.label)))
            continue  # partly on a character: neither clearly it nor clearly nothing
        beside.append((crop(image, q.astype(np.float32), spec.crop), none))
    for i in rng.permutation(len(beside))[: max(8, len(readable))]:
        out.append(beside[int(i)][0])
        ys.append(beside[int(i)][1])
    negatives = _sample(negatives, max(12, 2 * len(chars)), rng)
    out += negatives
    ys += [none] * len(negatives)
    for ch in chars:
        if ch.visible < VISIBLE["fourcolor"]:
            continue
        for _ in range(jitters):
            jq = _jitter(ch.quad, rng, 40.0, 0.06).astype(np.float32)
            out.append(crop(image, jq, spec.crop))
            ys.append(spec.index(ch.label))
        k = int(rng.integers(1, 4))
        turned = _turn(_jitter(ch.quad, rng, 30.0, 0.06), k).astype(np.float32)
        out.append(crop(image, turned, spec.crop))
        ys.append(none)
    return out, ys


def cactus_crops(
    spec: LabelSpec,
    scene: synth_cactus.CactusScene,
    rng: np.random.Generator,
    jitters: int,
) -> tuple[list[Crops], list[int]]:
    """Labelled name-band crops from one generated Cactus table."""
    image = scene.image
    bands = scene.bands()
    none = spec.index(NONE)
    out: list[Crops] = []
    ys: list[int] = []
    negatives: list[Crops] = []
    for band, _cards in detect_cactus.band_hypotheses(image):
        ious = [quad_iou(band.astype(np.float32), b.astype(np.float32)) for b, _ in bands]
        best = int(np.argmax(ious)) if ious else -1
        if best < 0 or ious[best] < 0.25:
            negatives.append(crop(image, band.astype(np.float32), spec.crop))
            continue
        truth, visible = bands[best]
        upright = float(_down(band) @ _down(truth)) > 0.7
        if ious[best] > 0.5 and upright and visible >= VISIBLE["cactus"]:
            out.append(crop(image, band.astype(np.float32), spec.crop))
            ys.append(spec.index(scene.objects[best].label))
        elif (not upright and visible >= VISIBLE["cactus"]) or visible < HIDDEN:
            negatives.append(crop(image, band.astype(np.float32), spec.crop))
    negatives = _sample(negatives, max(16, 4 * len(bands)), rng)
    out += negatives
    ys += [none] * len(negatives)
    for (band, visible), obj in zip(bands, scene.objects, strict=True):
        if visible < VISIBLE["cactus"]:
            continue
        for _ in range(jitters):
            out.append(crop(image, _jitter(band, rng, 4.0, 0.04).astype(np.float32), spec.crop))
            ys.append(spec.index(obj.label))
        flipped = _turn(_jitter(band, rng, 4.0, 0.04), 2)
        out.append(crop(image, flipped.astype(np.float32), spec.crop))
        ys.append(none)
    return out, ys


def scene_job(args: tuple[str, int, int]) -> tuple[list[Crops], list[int]]:
    """Crops from the generated table number ``seed`` (training fonts and styles only)."""
    kind, seed, jitters = args
    rng = np.random.default_rng(seed)
    spec = spec_for(kind)
    if kind == "fourcolor":
        return fourcolor_crops(spec, synth_fourcolor.render_scene(rng), rng, jitters)
    return cactus_crops(spec, synth_cactus.render_scene(rng), rng, jitters)


def build(
    kind: str,
    seed: int,
    scenes: int,
    jitters: int,
    workers: int,
    progress: Callable[[str, int, int], None] | None = None,
) -> tuple[Crops, npt.NDArray[np.int64], dict[str, int]]:
    """All training crops and labels, in a deterministic order."""
    jobs = [(kind, seed * SEED_STRIDE + i, jitters) for i in range(scenes)]
    xs: list[Crops] = []
    ys: list[int] = []
    with forked_pool(workers) as pool:
        futures = [pool.submit(scene_job, job) for job in jobs]
        for i, fut in enumerate(futures):
            cx, cy = fut.result()
            xs += cx
            ys += cy
            if progress:
                progress("render", i + 1, len(futures))
    return np.stack(xs), np.array(ys, np.int64), {"scenes": scenes, "photos": 0}
