"""Teaching a proposals' gate (``tableref train cards-gate|tiles-gate``;
:mod:`vision.proposal_gate`).

A gate learns from the recogniser it will stand in front of, not from labels: every crop the
reader asks that recogniser to read, on generated tables (cards: both decks in turn) and on
the real training photos, is read by it both ways up, and counts as an object where its
``none`` (over every label) is under :data:`OBJECT_BELOW` in either view. Those are the only
crops a read can come from: a crop read as ``none`` is not kept, vouched for, paired or
reframed. The threshold is the score under which :data:`MISS_SHARE` of the held-back crops'
objects fall; it is kept in ``<kind>.gate.json`` with the teacher's files, named by content.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from vision import datasets, glyphs, synth
from vision.labels import NONE
from vision.proposal_gate import gate_name
from vision.reader import Image, TableReader
from vision.recognise import MODELS, Read, Recogniser, float_path, model_id
from vision.train import (
    CACHE,
    Settings,
    _augment,
    drawing_pool,
    read_photo,
    to_onnx,
    training_photos,
    within_budget,
)

Crops = npt.NDArray[np.uint8]
SCENE_SEED = 6_000_000  # generated tables' seeds: seed * 1_000_003 + SCENE_SEED + i
OBJECT_BELOW = 0.5
MISS_SHARE = 0.01
VALIDATION_SHARE = 0.05
_CACHE_VERSION = 1


class _Recording(TableReader):
    """A plain reader that keeps every batch of crops it reads (its gate off)."""

    def __init__(self, game: str, models: Path) -> None:
        super().__init__(game, models, gate=False)  # type: ignore[arg-type]
        self.seen: list[Crops] = []

    def _recognise(self, batch: Image, name_all: bool = False) -> list[Read]:
        self.seen.append(np.asarray(batch, np.uint8))
        return super()._recognise(batch, name_all)


_readers: dict[str, _Recording] = {}


def _seen(game: str, models: Path, image: Image) -> Crops:
    """Every crop the reader of ``game`` asks its recogniser to read in ``image``."""
    if game not in _readers:
        _readers[game] = _Recording(game, models)
    reader = _readers[game]
    reader.seen = []
    reader.read(image)
    w, h = reader.recogniser.spec.crop
    return np.concatenate(reader.seen) if reader.seen else np.zeros((0, h, w, 3), np.uint8)


def _scene_job(args: tuple[int, str, Path]) -> Crops:
    seed, game, models = args
    rng = np.random.default_rng(seed)
    if game == "rummikub":
        return _seen(game, models, synth.tile_scene(rng).image)
    return _seen(game, models, synth.card_scene(rng, game).image)  # type: ignore[arg-type]


def _photo_job(args: tuple[datasets.Photo, str, Path]) -> Crops:
    photo, game, models = args
    return _seen(game, models, read_photo(photo))


def recogniser_kind(settings: Settings) -> str:
    """The recogniser a gate's settings teach it for: ``cards`` for ``cards-gate``."""
    return settings.kind.removesuffix("-gate")


def gather(
    settings: Settings, models: Path, progress: Callable[[str, int, int], None] | None = None
) -> tuple[Crops, int]:
    """The crops, generated tables' first (cards: standard deck and All In in turn), then the
    real training photos'; and where the real ones start."""
    kind = recogniser_kind(settings)
    seeds = [settings.seed * 1_000_003 + SCENE_SEED + i for i in range(settings.scenes)]
    games = ["cards", "allin"] if kind == "cards" else ["rummikub"]
    scenes = [(s, games[i % len(games)], models) for i, s in enumerate(seeds)]
    real = training_photos(kind, settings.real, settings.dev_out)
    photos = [(p, games[0], models) for p in real]
    parts: list[Crops] = []
    with drawing_pool(settings.workers, settings.fonts) as pool:
        jobs = [pool.submit(_scene_job, a) for a in scenes]
        jobs += [pool.submit(_photo_job, a) for a in photos]
        first_real = 0
        for n, job in enumerate(jobs):
            parts.append(job.result())
            if n == len(scenes) - 1:
                first_real = sum(len(p) for p in parts)
            if progress:
                progress("render", n + 1, len(jobs))
    if not parts or not sum(len(p) for p in parts):
        raise ValueError("no crops to learn from: render some tables or add the real photos")
    return np.concatenate(parts), first_real if scenes else 0


def objects(teacher: Recogniser, x: Crops) -> npt.NDArray[np.bool_]:
    """Whether ``teacher`` finds an object in each crop (:data:`OBJECT_BELOW`), either way up."""
    none = teacher.spec.labels.index(NONE)
    out = np.zeros(len(x), bool)
    for start in range(0, len(x), 4096):
        part = x[start : start + 4096]
        for view in (part, np.ascontiguousarray(part[:, ::-1, ::-1])):
            logits, _ = teacher.run(view)
            z = np.exp(logits - logits.max(axis=1, keepdims=True))
            out[start : start + len(part)] |= z[:, none] / z.sum(axis=1) < OBJECT_BELOW
    return out


def cache_key(settings: Settings, teacher: Path) -> str:
    """The crop cache's name: the teacher's content id, the settings that shape the crops and
    the fonts the scenes are drawn with (vision.glyphs)."""
    return (
        f"{settings.kind}-s{settings.seed}-n{settings.scenes}-r{int(settings.real)}"
        f"-{model_id(teacher).replace(':', '-')}-v{_CACHE_VERSION}"
        + ("-dev" if settings.dev_out else "")
        + f"-f{glyphs.font_digest(settings.fonts)}"
    )


def _cached(
    settings: Settings, teacher: Recogniser, progress: Callable[[str, int, int], None] | None
) -> tuple[Crops, npt.NDArray[np.bool_], int]:
    """:func:`gather` and :func:`objects`, kept in ``build/train-cache`` (ignored by git)."""
    path = CACHE / f"{cache_key(settings, teacher.path)}.npz"
    if path.is_file():
        data = np.load(path)
        return data["x"], data["y"], int(data["first_real"])
    x, first_real = gather(settings, teacher.path.parent, progress)
    y = objects(teacher, x)
    CACHE.mkdir(parents=True, exist_ok=True)
    np.savez(path, x=x, y=y, first_real=first_real)
    return x, y, first_real


def fit(
    x: Crops,
    y: npt.NDArray[np.bool_],
    settings: Settings,
    progress: Callable[[str, int, int], None] | None = None,
) -> tuple[Any, float, dict[str, Any]]:
    """The gate fitted on all but :data:`VALIDATION_SHARE` of the crops, its threshold set on
    those, and what it turns away there."""
    import torch

    from vision.net import Gate

    torch.set_num_threads(2)
    torch.manual_seed(settings.seed)
    gen = torch.Generator().manual_seed(settings.seed)
    order = np.random.default_rng(settings.seed).permutation(len(y))
    n_val = max(1, int(len(y) * VALIDATION_SHARE))
    val, tr = order[:n_val], order[n_val:]
    xt = torch.from_numpy(x).permute(0, 3, 1, 2)
    yt = torch.from_numpy(y.astype(np.float32))
    model = Gate((x.shape[2], x.shape[1]), settings.widths)
    opt = torch.optim.AdamW(model.parameters(), lr=settings.lr, weight_decay=1e-4)
    per_epoch = max(1, len(tr) // settings.batch)
    steps = settings.epochs * per_epoch
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, settings.lr, total_steps=steps)
    # Objects are about one crop in nine, and a missed one costs a read: weighed more.
    loss_fn = torch.nn.BCEWithLogitsLoss(pos_weight=torch.tensor(4.0))
    step = 0
    for _ in range(settings.epochs):
        model.train()
        perm = torch.from_numpy(tr)[torch.randperm(len(tr), generator=gen)]
        for b in range(per_epoch):
            idx = perm[b * settings.batch : (b + 1) * settings.batch]
            xb = _augment(xt[idx].float(), recogniser_kind(settings), gen)
            loss = loss_fn(model(xb), yt[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            step += 1
            if progress:
                progress("train", step, steps)
    model.eval()
    with torch.no_grad():
        vi = torch.from_numpy(val)
        score = torch.cat(
            [model(xt[vi[i : i + 2048]].float()) for i in range(0, len(vi), 2048)]
        ).numpy()
    held = y[val]
    if not held.any():
        raise ValueError("no objects among the held-back crops: render more tables")
    threshold = float(np.quantile(score[held], MISS_SHARE))
    turned = score < threshold
    metrics = {
        "train_crops": len(tr),
        "val_crops": n_val,
        "val_objects": int(held.sum()),
        "val_objects_turned_away": int((turned & held).sum()),
        "val_turned_away_share": round(float(turned.mean()), 4),
    }
    return model, threshold, metrics


def export(model: Any, kind: str, crop: tuple[int, int], out: Path) -> Path:
    """Write ``<out>/<kind>.gate.onnx``; return its path."""
    out.mkdir(parents=True, exist_ok=True)
    path = out / f"{gate_name(kind)}.onnx"
    to_onnx(model, crop, path, ["object"])
    within_budget(path)
    return path


def teachers(kind: str, models: Path) -> list[str]:
    """The recogniser files in ``models`` a gate taught there stands in front of: the shipped
    model and the float model it was quantised from (read where int8 saturates)."""
    shipped = models / f"{kind}.onnx"
    return [model_id(p) for p in (shipped, float_path(shipped)) if p.is_file()]


def train(
    settings: Settings,
    out: Path = MODELS,
    models: Path = MODELS,
    progress: Callable[[str, int, int], None] | None = None,
    cache: bool = True,
) -> dict[str, Any]:
    """Teach a gate with the recogniser in ``models`` (the one this machine reads with) and
    write it to ``out``: ``<kind>.gate.onnx`` and ``<kind>.gate.json``."""
    started = time.perf_counter()
    kind = recogniser_kind(settings)
    glyphs.require(settings.fonts)
    teacher = Recogniser.named(kind, models)
    if cache:
        x, y, first_real = _cached(settings, teacher, progress)
    else:
        x, first_real = gather(settings, models, progress)
        y = objects(teacher, x)
    built = time.perf_counter()
    model, threshold, metrics = fit(x, y, settings, progress)
    path = export(model, kind, teacher.spec.crop, out)
    record = {
        "threshold": round(threshold, 4),
        "teachers": teachers(kind, models),
        "object_below": OBJECT_BELOW,
        "miss_share": MISS_SHARE,
        **metrics,
    }
    (out / f"{gate_name(kind)}.json").write_text(json.dumps(record, indent=1) + "\n")
    return {
        "model": str(path),
        "bytes": path.stat().st_size,
        "crops": len(y),
        "object_share": round(float(y.mean()), 3),
        "first_real_crop": first_real,
        **record,
        "render_seconds": round(built - started, 1),
        "train_seconds": round(time.perf_counter() - built, 1),
        "render_fonts": glyphs.font_signature(settings.fonts),
        "settings": settings.__dict__,
    }
