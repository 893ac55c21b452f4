"""Train a recogniser (torch, CPU) on synthetic scenes + the real photos' training split, and
export it to ONNX with its label file. ``tableref train tiles|cards`` runs :func:`train`.

Training sees crops exactly as reading does: the detector runs over every scene and photo,
and each candidate is labelled by the ground truth it covers (``none`` when it covers
nothing), so the recogniser learns the detector's habits, including its misfires. Jittered
crops around every true object add positives the detector happened to miss. Every random
choice comes from ``seed``: the same command gives the same model.
"""

from __future__ import annotations

import time
import warnings
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path
from typing import Any, NamedTuple

import cv2
import numpy as np
import numpy.typing as npt

from vision import (
    datasets,
    detect_cards,
    detect_tiles,
    glyphs,
    label_review,
    quantise,
    synth,
    synth_print,
)
from vision.card_turns import Turn
from vision.crops import crop, reframed
from vision.evaluate import other_corner
from vision.fork_pool import forked_pool
from vision.labels import NONE, LabelSpec, spec_for
from vision.matching import aligned, same_object
from vision.overlaps import quad_iou
from vision.reader import CARD_REFRAMES
from vision.recognise import MODELS

Crops = npt.NDArray[Any]
MAX_MODEL_BYTES = 5 * 1024 * 1024


@dataclass(frozen=True)
class Settings:
    kind: str
    seed: int = 0
    scenes: int = 600
    epochs: int = 12
    batch: int = 256
    lr: float = 3e-3
    real: bool = True
    jitters: int = 3
    workers: int = 2
    # Recipe comparisons: leave the training split's dev fold out (datasets.in_dev_fold).
    dev_out: bool = False
    # Each epoch sees every real-photo crop this many times (they are few, and the target).
    real_repeat: int = 1
    # Anisotropic stretch of the crops (log-scale spread): the shared photos were resized to
    # 640×640 from other aspect ratios, so their indices are squashed one way or the other.
    stretch: float = 0.0
    # Cards: also learn from every proposal in the reader's other frames (CARD_REFRAMES).
    reframe: bool = False
    # Real photos: "none" crops sampled per labelled object (clutter, card art).
    real_negatives: int = 2
    # Real card photos: "none" crops kept per card labelled at both corners from the
    # proposals on its face, away from its indices (pips, court and ace artwork).
    face_negatives: int = 0
    # Generated card scenes: the same, per card with both indices in the scene (the random
    # sample of a scene's negatives holds few pips; All In's bug pips were read as a king of
    # clocks). Tried at 6 on 2026-12-05 and not shipped: over five draws it cut the development
    # tables' spurious reads by about a quarter, but a dev-out draw read the real dev fold no
    # better (400 / 18 against 402 / 14; models/LIMITS.md).
    scene_face_negatives: int = 0
    # Tiles: the share of generated tiles whose numbers are drawn with thinned strokes (the
    # recipe's fonts are bold, as real tiles print; an unseen deck's thin AR PL UMing numbers
    # read worst after enrolment). Shipped at 0.2 on 2026-12-06: three draws read the
    # one-print development decks 2675 / 6, 2673 / 15 and 2658 / 13 of 2772 against 2660 / 25
    # and 2635 / 25 for plain draws of seeds 1 and 2; 0.4 read 2677 / 114, its extra reads
    # frames over tiles (models/LIMITS.md). Cards: the share of generated cards whose rank is
    # drawn so (not shipped: it failed the two-draw rule on the unseen one-print decks'
    # spurious reads, models/LIMITS.md, 2026-12-07).
    thin_digits: float = 0.0
    # Generated card scenes: the share turned to grey, as Roboflow's export turned about a
    # fifth of the shared card photos (their red indices then differ from black ones by
    # shape alone). Measured at 0.2 on 2026-12-06, not shipped: two dev-out draws read the
    # dev fold's grey photos no better, but fewer spurious indices on the unseen one-print
    # decks (41 against 68) and the dev fold (29 against 37) (models/LIMITS.md).
    grey: float = 0.0
    # Real card photos: each index's turn in its box read by a quick model of the generated
    # crops (vision.card_turns), not guessed from the box's shape.
    orient_real: bool = False
    # The share of training crops whose contrast is cut to 0.25-0.7 of itself about their own
    # mean grey, each epoch (dim and washed-out photos, whose indices the recogniser cannot
    # name even from the hand-drawn box). Measured at 0.3 on two dev-out draws on 2026-12-06,
    # not shipped: fewer spurious reads everywhere and 16 more right on 800 generated tables,
    # but 3 fewer right on the real dev fold; in two full draws with their gates the real
    # training photos read 6 and 7 more spurious reads than the shipped model, mostly jokers
    # read on badges and card art, as unfaded draws with the added labels do too
    # (models/LIMITS.md, 2026-12-06 night).
    faded: float = 0.0
    # Generated card scenes: the share with printed words on the table under the cards (brand
    # badges, boxes: vision.synth_print), drawn only when asked. Measured at 0.5 with faded 0.3
    # on 2026-12-07, not shipped: the false jokers on the real photos' badges went, and the
    # draw without the ranks' letters read the one-print decks and the development tables
    # better than the shipped draw, but the real training photos with 7 more spurious reads
    # where the shipping rule allows 5. Alone at 0.5, two full draws read one-print decks
    # with 11 and 34 spurious reads against the shipped 24, and a dev-out draw the real dev
    # fold no better than other recipes (models/LIMITS.md, 2026-12-07).
    lettering: float = 0.0
    # Real card photos learnt at their cameras' own aspect (vision.natural_aspect), as a
    # camera over a table takes them, instead of as the dataset stretched them to 640×640.
    # Measured on 2026-12-07 with one dev-out draw, not shipped: the dev fold read 411 / 10
    # as published (411 / 12 for the shipped recipe's draw of the seed) but 409 / 7 at its
    # cameras' aspect, against 414 / 9 (models/LIMITS.md).
    natural_real: bool = False
    # Tiles and cards ship as int8 (vision.quantise), calibrated on this many training photos.
    calibration_photos: int = quantise.CALIBRATION_PHOTOS
    # The network's channel widths (vision.net.Recogniser): first block, middle, last two.
    # Wider last blocks for cards (16, 32, 96) were tried and not kept (models/LIMITS.md).
    widths: tuple[int, int, int] = (16, 32, 64)
    # The TrueType font families the scenes are drawn with (file-name prefixes; every
    # installed font when empty). A seed picks a font by its place among them, so pinning
    # them lets a machine with more fonts installed draw the shipped recipe's scenes.
    fonts: tuple[str, ...] = ()


def drawing_pool(workers: int, fonts: tuple[str, ...]) -> ProcessPoolExecutor:
    """Worker processes that render with the TrueType ``fonts`` (:func:`glyphs.draw_with`)."""
    return forked_pool(workers, glyphs.draw_with, (fonts,))


# The card recogniser and its gate were rendered with the 20 DejaVu fonts (fonts-dejavu-core),
# before fonts-liberation was installed on the machine that trained them; the pips recogniser
# and the tiles' gate with those and the 16 Liberation ones (their crop counts say so).
# Drawing the cards with Liberation too, alone and with thinned ranks, was measured on
# 2026-12-06 and not shipped: both full retrains read more spurious indices on the standard
# deck's tables and the real training photos than the shipped models, though so does the
# shipped recipe drawn with another seed (models/LIMITS.md).
DRAWN_WITH_DEJAVU = ("DejaVu",)
DRAWN_WITH_DEJAVU_LIBERATION = ("DejaVu", "Liberation")

# The settings the shipped models were trained with (``tableref train KIND`` uses them).
SHIPPED = {
    "tiles": Settings("tiles", scenes=300, epochs=14, thin_digits=0.2),
    "cards": Settings(
        "cards",
        scenes=1000,
        epochs=16,
        real_repeat=3,
        stretch=0.25,
        reframe=True,
        real_negatives=4,
        face_negatives=6,
        orient_real=True,
        fonts=DRAWN_WITH_DEJAVU,
    ),
    "fourcolor": Settings("fourcolor", scenes=300, epochs=10, real=False),
    "cactus": Settings("cactus", scenes=500, epochs=8, real=False, jitters=6),
    # The pips beside a standard card's index (vision.train_pips): few real ones, so each
    # epoch sees them five times.
    "pips": Settings(
        "pips", scenes=1500, epochs=12, real_repeat=5, fonts=DRAWN_WITH_DEJAVU_LIBERATION
    ),
    # The proposals' gates (vision.train_gate): taught by their recogniser, on the crops the
    # reader gives it; strided widths for a network an eighth as costly a crop.
    "cards-gate": Settings(
        "cards-gate", scenes=1200, epochs=4, widths=(8, 16, 32), fonts=DRAWN_WITH_DEJAVU
    ),
    "tiles-gate": Settings(
        "tiles-gate", scenes=600, epochs=4, widths=(8, 16, 32), fonts=DRAWN_WITH_DEJAVU_LIBERATION
    ),
}
# Kinds read in their true turn only: a half-turned crop is "none", so no half-turn augmentation.
UPRIGHT_ONLY = ("fourcolor", "cactus")


def _jitter_quad(q: synth.Quad, rng: np.random.Generator, amount: float) -> synth.Quad:
    c = q.mean(0)
    size = float(np.linalg.norm(q[0] - q[2]))
    ang = np.radians(rng.normal(0, 5 * amount))
    rot = np.array([[np.cos(ang), -np.sin(ang)], [np.sin(ang), np.cos(ang)]], np.float32)
    scale = float(np.exp(rng.normal(0, 0.08 * amount)))
    shift = rng.normal(0, 0.05 * amount * size, 2).astype(np.float32)
    out: synth.Quad = (((q - c) @ rot.T) * scale + c + shift).astype(np.float32)
    return out


def _card_fit(q: synth.Quad, truth: synth.Quad, real: bool) -> str:
    """How a proposal that covers a true corner index frames it.

    ``index``: upright or half-turned, the crop the recogniser should name; ``sideways``:
    quarter-turned, to be read as ``none``; ``unsure``: neither (left out of training).
    Labelling every covering proposal with the card (as before) made a third of the real
    positives sideways or rank-only crops, which taught the recogniser to name noise.
    """
    if not real:  # synthetic truths are oriented like the detector's quads
        if aligned(q, truth, 25.0):
            return "index" if quad_iou(q, truth) >= 0.35 else "unsure"
        return "sideways" if aligned(q, truth[[1, 2, 3, 0]], 25.0) else "unsure"
    return _turned_fit(q, box_turn(truth))


def box_turn(box: synth.Quad) -> Turn | None:
    """A real label box's index turn by its shape: a portrait box stands upright (or upside
    down), a landscape box lies on its side; a squarish one's turn is not known."""
    w, h = box[2] - box[0]
    return "upright" if h > 1.25 * w else ("sideways" if w > 1.25 * h else None)


def _turned_fit(q: synth.Quad, turn: Turn | None) -> str:
    """:func:`_card_fit` for a real index whose turn in its box is known (or ``None``)."""
    if turn is None:
        return "unsure"
    v = (q[3] + q[2]) / 2 - (q[0] + q[1]) / 2
    v = v / max(float(np.linalg.norm(v)), 1e-6)
    upright = abs(float(v[1])) > 0.87  # within 30 degrees of the image's vertical
    across = abs(float(v[0])) > 0.87
    if turn == "upright":
        return "index" if upright else ("sideways" if across else "unsure")
    return "index" if across else ("sideways" if upright else "unsure")


def _jitter_turn(box: synth.Quad) -> Turn | None:
    """A real index's turn for its jittered positives, by its box's shape (without turns
    read): a landscape box lies on its side, a squarish one holds a slanted index whose turn
    is unknown, any other stands upright."""
    w, h = box[2] - box[0]
    if w >= 1.25 * h:
        return "sideways"
    return None if h < w * 1.1 else "upright"


# Cards: the proposals the shipped model was trained on, grouped glyphs not also paired
# apart, no faint light print, no small suits beside squat ranks, no second look at a
# washed-out photo, no glyphs inside other ink's holes, no texture left out first, no
# faint print on clipped paper, and at most 500 (read time pairs them too and keeps up to
# detect_cards.CARD_CAP, 2026-11-25, looks for the next three, 2026-11-26, the two after,
# 2026-11-27, and the last, 2026-11-29). A dev-out model trained on the read-time proposals
# of 2026-11-25 read the dev fold worse: 390 of 432 right with 30 spurious, against 396 with
# 13 (fresh generated scenes: 371 and 370 of 386 against 373 and 367).
CARD_PROPOSALS: dict[str, Any] = {
    "max_candidates": 500,
    "apart": False,
    "faint_light": False,
    "squat_suits": False,
    "washed": False,
    "inside": False,
    "texture": False,
    "clipped": False,
    "bare": False,
}


def _candidates(kind: str, image: synth.Image) -> list[synth.Quad]:
    # Tiles: the number-framed proposals only, as enrolment captures take them. A model
    # trained on the face proposals too (2026-11-24) read no better than the 2026-11-22
    # model with the reader that also proposes faces (110 fresh tables: 2925 of 2961 right,
    # 7 spurious, either way; held-out real tiles 450 with 2 spurious against 449 with none;
    # bench synthetic 1047 against 1053) and gained nothing from enrolment (unseen deck
    # 85.9% -> 85.8% against 85.3% -> 87.5%).
    # Nor the joker rings: trained on those frames too (2026-11-25) it read 2934 of 2961 tiles
    # on the fresh tables against 2935, bench synthetic 1050 against 1052, spurious 5 -> 10.
    if kind == "tiles":
        return detect_tiles.tile_candidates(image, faces_too=False, read_time=False)
    return detect_cards.card_candidates(image, **CARD_PROPOSALS)


def crops_from(
    kind: str,
    spec: LabelSpec,
    image: synth.Image,
    truths: list[synth.Truth],
    rng: np.random.Generator,
    jitters: int,
    ignore: list[synth.Quad] | None = None,
    real: bool = False,
    reframes: tuple[tuple[float, float, float], ...] = (),
    negatives_per_truth: int = 2,
    face_negatives: int = 0,
    turns: list[Turn | None] | None = None,
) -> tuple[list[Crops], list[int]]:
    """Labelled crops from one scene or photo: detector candidates plus jittered truths.

    ``reframes``: each candidate is also taken in these frames (:func:`vision.crops.reframed`),
    as the reader reframes doubtful card reads, so the model learns those frames too.
    ``face_negatives``: card photos and scenes, up to this many ``none`` crops per card
    labelled at both corners, from the candidates on that card's face (:func:`card_faces`),
    kept apart from the random sample of negatives: pips and court artwork are the clutter
    most like an index, and the random sample seldom holds them.
    ``turns``: real card photos, each truth's turn in its box (:mod:`vision.card_turns`);
    without them the box's shape says it.
    """
    out: list[Crops] = []
    ys: list[int] = []
    none = spec.index(NONE)
    tq = [t.quad for t in truths]
    negatives: list[synth.Quad] = []
    sideways: list[Crops] = []  # hard negatives, all kept
    # Real card photos often label a card at one corner only.
    once = [t.quad for t in truths if sum(u.label == t.label for u in truths) == 1]
    found = _candidates(kind, image)
    found += [reframed(q, *f) for q in found for f in reframes]
    faces = card_faces(truths) if kind == "cards" and face_negatives else []
    on_face: list[list[synth.Quad]] = [[] for _ in faces]
    for q in found:
        hit = next((k for k, t in enumerate(truths) if same_object(q, t.quad)), None)
        if hit is not None:
            truth = truths[hit]
            # Real card boxes are axis-aligned and say nothing of the index's slant.
            if kind == "tiles" and not aligned(q, truth.quad):
                # A tile seen a quarter turn off is no tile: learning that lets the reader
                # propose several slants per number and keep the upright one.
                if not aligned(q, truth.quad, 60.0):
                    sideways.append(crop(image, q, spec.crop))
                continue
            if kind == "cards":
                if real and turns is not None:
                    fit_ = _turned_fit(q, turns[hit])
                else:
                    fit_ = _card_fit(q, truth.quad, real)
                if fit_ == "sideways":
                    # A crop across an index (rank and suit side by side) is not a read.
                    negatives.append(q)
                if fit_ != "index":
                    continue
            out.append(crop(image, q, spec.crop))
            ys.append(spec.index(truth.label))
        elif max((quad_iou(q, t) for t in tq + (ignore or [])), default=0.0) < 0.25:
            if real and kind == "cards" and any(other_corner(q, t) for t in once):
                continue  # maybe the unlabelled other index of a card labelled once: no "none"
            face = next((k for k, f in enumerate(faces) if _on_face(q, f)), None)
            if face is None:
                negatives.append(q)
            else:
                on_face[face].append(q)
    keep = max(8, negatives_per_truth * len(truths))
    if len(negatives) > keep:
        pick = rng.choice(len(negatives), keep, replace=False)
        negatives = [negatives[int(i)] for i in pick]
    for face_quads in on_face:
        if len(face_quads) > face_negatives:
            pick = rng.choice(len(face_quads), face_negatives, replace=False)
            face_quads = [face_quads[int(i)] for i in pick]
        negatives += face_quads
    out += [crop(image, q, spec.crop) for q in negatives] + sideways
    ys += [none] * (len(negatives) + len(sideways))
    for k, t in enumerate(truths):
        q = t.quad
        if real and kind == "cards":
            turn = turns[k] if turns is not None else _jitter_turn(q)
            if turn is None:
                continue
            if turn == "sideways":
                # Turned back a quarter, the index stands upright or upside down: both the card.
                q = np.roll(q, 1, axis=0)
            q = (q.mean(0) + (q - q.mean(0)) * 1.15).astype(np.float32)
        for _ in range(jitters):
            out.append(crop(image, _jitter_quad(q, rng, 1.0), spec.crop))
            ys.append(spec.index(t.label))
    return out, ys


FACE_RADIUS = 0.3  # of the distance between a card's two indices, about the card's centre


def card_faces(truths: list[synth.Truth]) -> list[tuple[npt.NDArray[np.float32], float]]:
    """The faces of the cards labelled at both corners: (centre, radius). A card's two
    indices sit at diagonally opposite corners, so its centre is halfway between them and a
    circle of ``FACE_RADIUS`` times their distance stays inside a card of the usual shape
    (half its width is about 0.29 of its diagonal) and off both indices."""
    out = []
    for label in sorted({t.label for t in truths}):
        pair = [t.quad for t in truths if t.label == label]
        if len(pair) != 2:
            continue
        a, b = pair[0].mean(0), pair[1].mean(0)
        out.append(((a + b) / 2, FACE_RADIUS * float(np.linalg.norm(a - b))))
    return out


def _on_face(q: synth.Quad, face: tuple[npt.NDArray[np.float32], float]) -> bool:
    centre, radius = face
    return float(np.linalg.norm(q.mean(0) - centre)) <= radius


LETTERING_STREAM = 7  # Settings.lettering's words draw from (scene seed, this)


class SceneJob(NamedTuple):
    """One generated scene to render and cut into crops, with the recipe's drawing shares
    (``Settings.thin_digits``, ``grey``, ``lettering``; the last two for card scenes only)."""

    kind: str
    seed: int
    jitters: int
    extra: dict[str, Any]
    thin: float = 0.0
    grey: float = 0.0
    lettering: float = 0.0


def scene_jobs(settings: Settings, extra: dict[str, Any]) -> list[SceneJob]:
    """The recipe's generated scenes, in order."""
    return [
        SceneJob(
            settings.kind,
            settings.seed * 1_000_003 + i,
            settings.jitters,
            extra,
            thin=settings.thin_digits,
            grey=settings.grey,
            lettering=settings.lettering,
        )
        for i in range(settings.scenes)
    ]


def _scene_job(job: SceneJob) -> tuple[list[Crops], list[int]]:
    kind, seed, jitters, extra, thin, grey, lettering = job
    rng = np.random.default_rng(seed)
    spec = spec_for(kind)
    if kind == "tiles":
        scene = synth.tile_scene(rng, face=partial(synth.render_tile, thin=thin))
    else:
        face = partial(synth.render_card, thin=thin) if thin else None
        # Its own generator, so a scene without words is the one its seed always drew.
        words = np.random.default_rng((seed, LETTERING_STREAM))
        table_print = (
            partial(synth_print.print_words, rng=words)
            if lettering and words.random() < lettering
            else None
        )
        scene = synth.card_scene(
            rng, "allin" if seed % 2 else "cards", face=face, table_print=table_print
        )
        if rng.random() < 0.3:
            scene.image[:] = speckle(scene.image, rng)
        # Drawn only when asked, so a recipe without it renders the crops it always did.
        if grey and rng.random() < grey:
            scene.image[:] = cv2.cvtColor(
                cv2.cvtColor(scene.image, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR
            )
    return crops_from(kind, spec, scene.image, scene.truths, rng, jitters, **extra)


def speckle(image: synth.Image, rng: np.random.Generator) -> synth.Image:
    """Salt-and-pepper dots like those baked into many shared card photos (an export-time
    augmentation of the dataset's host): the reader must learn to look through them."""
    out = image.copy()
    h, w = image.shape[:2]
    n = int(h * w * rng.uniform(0.002, 0.02))
    ys, xs = rng.integers(0, h, n), rng.integers(0, w, n)
    out[ys, xs] = np.where(rng.random(n) < 0.5, 0, 255)[:, None].astype(np.uint8)
    return out


def read_photo(photo: datasets.Photo) -> synth.Image:
    image = cv2.imread(str(photo.path), cv2.IMREAD_COLOR)
    if image is None:
        raise FileNotFoundError(f"cannot read {photo.path}")
    return np.asarray(image, np.uint8)


NATURAL = Path(__file__).resolve().parent.parent / "build" / "natural"


def photo_view(photo: datasets.Photo, natural: bool) -> datasets.Photo:
    """``photo`` as training sees it: as published, or (``natural``) turned back to its
    camera's aspect, its labels alike (:mod:`vision.natural_aspect`), kept as a file in
    ``build/natural`` (ignored by git) so every step reads the same pixels."""
    if not natural:
        return photo
    from vision import natural_aspect

    out = NATURAL / f"{photo.path.stem}.png"
    image, truths, ignore = natural_aspect.restored(photo, read_photo(photo))
    if not out.is_file():
        out.parent.mkdir(parents=True, exist_ok=True)
        cv2.imwrite(str(out), image)
    return datasets.Photo(out, truths, ignore)


def _photo_job(
    args: tuple[str, datasets.Photo, int, int, dict[str, Any]],
) -> tuple[list[Crops], list[int]]:
    kind, photo, seed, jitters, extra = args
    rng = np.random.default_rng(seed)
    spec = spec_for(kind)
    image = read_photo(photo)
    return crops_from(
        kind, spec, image, photo.truths, rng, jitters, photo.ignore, real=True, **extra
    )


ORIENT_EPOCHS = 4  # the quick model that reads real indices' turns (Settings.orient_real)


def real_turns(
    settings: Settings,
    x: Crops,
    y: npt.NDArray[np.int64],
    photos: list[datasets.Photo],
    progress: Callable[[str, int, int], None] | None = None,
) -> dict[str, list[Turn | None]]:
    """Each real photo's indices' turns in their boxes (:mod:`vision.card_turns`), read by
    a model trained :data:`ORIENT_EPOCHS` epochs on the generated crops ``x``, ``y`` alone."""
    import tempfile

    from vision.card_turns import photo_turns
    from vision.recognise import Recogniser

    spec = spec_for(settings.kind)
    # The turn model only orients the real boxes: the default widths do, and keep the crops
    # (and the cache key) independent of the recipe's widths.
    quick = replace(settings, epochs=ORIENT_EPOCHS, real_repeat=1, widths=Settings.widths)
    quick_progress = None
    if progress:
        report = progress

        def quick_progress(_stage: str, done: int, total: int) -> None:
            report("turn model", done, total)

    model, _ = fit(spec, x, y, quick, quick_progress)
    with tempfile.TemporaryDirectory() as tmp:
        recogniser = Recogniser(export(model, spec, Path(tmp)), spec)
        out: dict[str, list[Turn | None]] = {}
        for i, p in enumerate(photos):
            out[p.path.name] = photo_turns(recogniser, read_photo(p), p.truths)
            if progress:
                progress("turns", i + 1, len(photos))
    return out


def training_photos(kind: str, real: bool = True, dev_out: bool = False) -> list[datasets.Photo]:
    """The real photos of ``kind`` training learns from (none without ``real``): the training
    split, less its dev fold with ``dev_out``."""
    photos = [
        p
        for p in (datasets.load(kind) if real else [])  # type: ignore[arg-type]
        if p.split == "train" and not (dev_out and datasets.in_dev_fold(p.path.name))
    ]
    # Labels found wrong by eye are learnt as the photo shows them (vision/label_review.json).
    return label_review.for_training(photos, kind)  # type: ignore[arg-type]


class Gathered:
    """The crops and labels of render jobs, taken in submission order (so a build is the same
    however the pool schedules it), with the render stage's progress reported."""

    def __init__(self, total: int, progress: Callable[[str, int, int], None] | None) -> None:
        self.xs: list[Crops] = []
        self.ys: list[int] = []
        self.total = total
        self.done = 0
        self.progress = progress

    def take(self, jobs: list[Future[tuple[list[Crops], list[int]]]]) -> None:
        for job in jobs:
            cx, cy = job.result()
            self.xs.extend(cx)
            self.ys.extend(cy)
            self.done += 1
            if self.progress:
                self.progress("render", self.done, self.total)


def build(
    settings: Settings, progress: Callable[[str, int, int], None] | None = None
) -> tuple[Crops, npt.NDArray[np.int64], dict[str, int]]:
    """All training crops and labels for ``settings``, in a deterministic order: the
    generated scenes', then the real photos'."""
    kind = settings.kind
    reframes = {"reframes": CARD_REFRAMES} if settings.reframe and kind == "cards" else {}
    # Scenes and photos each keep their own negatives.
    scene_extra: dict[str, Any] = {"face_negatives": settings.scene_face_negatives, **reframes}
    photo_extra: dict[str, Any] = {
        "negatives_per_truth": settings.real_negatives,
        "face_negatives": settings.face_negatives,
        **reframes,
    }
    photos = training_photos(kind, settings.real, settings.dev_out)
    photos = [photo_view(p, settings.natural_real) for p in photos]
    gathered = Gathered(settings.scenes + len(photos), progress)
    xs, ys = gathered.xs, gathered.ys

    def run(pool: ProcessPoolExecutor, fn: Callable[[Any], Any], args: list[Any]) -> None:
        gathered.take([pool.submit(fn, arg) for arg in args])

    with drawing_pool(settings.workers, settings.fonts) as pool:
        run(pool, _scene_job, scene_jobs(settings, scene_extra))
        first_real = len(ys)
        turns: dict[str, list[Turn | None]] = {}
        if photos and kind == "cards" and settings.orient_real:
            turns = real_turns(settings, np.stack(xs), np.array(ys, np.int64), photos, progress)
        # Real photos are few and precious: more jittered views of each.
        real = [
            (
                kind,
                p,
                settings.seed * 7 + i,
                settings.jitters * 3,
                {**photo_extra, "turns": turns[p.path.name]} if turns else photo_extra,
            )
            for i, p in enumerate(photos)
        ]
        run(pool, _photo_job, real)
    sources = {"scenes": settings.scenes, "photos": len(photos), "first_real_crop": first_real}
    return np.stack(xs), np.array(ys, np.int64), sources


def _stretch(x: Any, amount: float, gen: Any) -> Any:
    """Squash each crop along x and stretch it along y (or the reverse), area kept."""
    import torch
    import torch.nn.functional as nnf

    n = x.shape[0]
    s = torch.exp(amount * (2 * torch.rand(n, generator=gen) - 1))
    theta = torch.zeros(n, 2, 3)
    theta[:, 0, 0] = s
    theta[:, 1, 1] = 1 / s
    grid = nnf.affine_grid(theta, list(x.shape), align_corners=False)
    return nnf.grid_sample(x, grid, padding_mode="border", align_corners=False)


def _fade(x: Any, share: float, gen: Any) -> Any:
    """``share`` of the crops with their contrast cut to 0.25-0.7 of itself about each crop's
    own mean (:attr:`Settings.faded`)."""
    import torch

    n = x.shape[0]
    cut = 0.25 + 0.45 * torch.rand(n, 1, 1, 1, generator=gen)
    cut = torch.where(torch.rand(n, 1, 1, 1, generator=gen) < share, cut, torch.ones_like(cut))
    mean = x.mean(dim=(1, 2, 3), keepdim=True)
    return mean + (x - mean) * cut


def _augment(x: Any, kind: str, gen: Any, stretch: float = 0.0, faded: float = 0.0) -> Any:
    import torch

    n = x.shape[0]
    if stretch > 0:
        x = _stretch(x, stretch, gen)
    if faded > 0:  # drawn only when asked, so other recipes' random draws stay as they were
        x = _fade(x, faded, gen)
    if kind not in UPRIGHT_ONLY:
        flip = torch.rand(n, generator=gen) < 0.5
        x = torch.where(flip[:, None, None, None], x.flip(2, 3), x)
    gain = 0.6 + 0.8 * torch.rand(n, 1, 1, 1, generator=gen)
    chan = 1.0 + 0.08 * (torch.rand(n, 3, 1, 1, generator=gen) - 0.5) * 2
    x = x * gain * chan + 40 * (torch.rand(n, 1, 1, 1, generator=gen) - 0.5)
    if kind in ("cards", "pips"):  # many real card photos are grey
        grey = torch.rand(n, generator=gen) < 0.3
        g = x.mean(1, keepdim=True).expand_as(x)
        x = torch.where(grey[:, None, None, None], g, x)
    x = x + torch.randn(x.shape, generator=gen) * 8 * torch.rand(n, 1, 1, 1, generator=gen)
    return x.clamp(0, 255)


def fit(
    spec: LabelSpec,
    x: Crops,
    y: npt.NDArray[np.int64],
    settings: Settings,
    progress: Callable[[str, int, int], None] | None = None,
    first_real: int | None = None,
) -> tuple[Any, dict[str, float]]:
    import torch

    from vision.net import Recogniser

    torch.set_num_threads(2)
    torch.manual_seed(settings.seed)
    gen = torch.Generator().manual_seed(settings.seed)
    order = np.random.default_rng(settings.seed).permutation(len(y))
    n_val = max(1, len(y) // 20)
    val, tr = order[:n_val], order[n_val:]
    if first_real is not None and settings.real_repeat > 1:
        real_tr = tr[tr >= first_real]
        tr = np.concatenate([tr, *[real_tr] * (settings.real_repeat - 1)])
    xt = torch.from_numpy(x).permute(0, 3, 1, 2).contiguous()
    yt = torch.from_numpy(y)
    # Channels-last tensors: oneDNN's convolutions take a fifth less time a step that way
    # (cards, batch 256, 2 threads, median of 30 interleaved steps: 376 -> 308 ms). The
    # same sums in another order: a model equal to rounding, not byte for byte.
    # (Module.to takes memory_format at run time; torch's stubs leave it out.)
    model = Recogniser(spec, settings.widths)
    model = model.to(memory_format=torch.channels_last)  # type: ignore[call-overload]
    opt = torch.optim.AdamW(model.parameters(), lr=settings.lr, weight_decay=1e-4)
    steps = settings.epochs * max(1, len(tr) // settings.batch)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, settings.lr, total_steps=max(1, steps))
    loss_fn = torch.nn.CrossEntropyLoss(label_smoothing=0.05)
    step = 0
    for _ in range(settings.epochs):
        model.train()
        perm = torch.from_numpy(tr)[torch.randperm(len(tr), generator=gen)]
        for b in range(max(1, len(tr) // settings.batch)):
            idx = perm[b * settings.batch : (b + 1) * settings.batch]
            xb = _augment(xt[idx].float(), spec.name, gen, settings.stretch, settings.faded)
            xb = xb.contiguous(memory_format=torch.channels_last)
            logits, _ = model(xb)
            loss = loss_fn(logits, yt[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            if step < steps:
                sched.step()
            step += 1
            if progress:
                progress("train", step, steps)
    model = model.to(memory_format=torch.contiguous_format).eval()
    with torch.no_grad():
        vi = torch.from_numpy(val)
        pred = torch.cat(
            [model(xt[vi[i : i + 512]].float())[0].argmax(1) for i in range(0, len(vi), 512)]
        )
        acc = float((pred == yt[vi]).float().mean())
    return model, {"val_accuracy": round(acc, 4), "train_crops": len(tr), "val_crops": n_val}


def export(model: Any, spec: LabelSpec, out: Path) -> Path:
    """Write ``<out>/<name>.onnx`` and ``<name>.labels.json``; return the model path."""
    out.mkdir(parents=True, exist_ok=True)
    path = out / f"{spec.name}.onnx"
    to_onnx(model, spec.crop, path, ["logits", "embedding"])
    from vision.model_outputs import add_shape_output

    add_shape_output(path)
    spec.save(out / f"{spec.name}.labels.json")
    within_budget(path)
    return path


def to_onnx(model: Any, crop: tuple[int, int], path: Path, outputs: list[str]) -> None:
    """``model`` in evaluation mode written to ``path`` as ONNX (opset 17): input ``crops``,
    N × 3 × h × w for a ``crop`` of (w, h), and the named ``outputs``, N of each."""
    import torch

    w, h = crop
    model.eval()
    with warnings.catch_warnings():
        # The TorchScript exporter is the one that needs no extra packages (onnxscript).
        warnings.simplefilter("ignore", DeprecationWarning)
        torch.onnx.export(
            model,
            (torch.zeros(2, 3, h, w),),
            str(path),
            input_names=["crops"],
            output_names=outputs,
            dynamic_axes={name: {0: "n"} for name in ["crops", *outputs]},
            opset_version=17,
            dynamo=False,
        )


def within_budget(path: Path) -> None:
    """Refuse a model file over :data:`MAX_MODEL_BYTES` (a RuntimeError naming it)."""
    if path.stat().st_size > MAX_MODEL_BYTES:
        raise RuntimeError(f"{path} is {path.stat().st_size} bytes, over the 5 MB budget")


CACHE = Path(__file__).resolve().parent.parent / "build" / "train-cache"
# Bump a kind's version when synth, detect or crops change what its crops look like or say
# (cards 11 and 12, tiles 10: training labels corrected, before the key named the corrections
# itself: label_review.training_digest).
_CACHE_VERSION = {"tiles": 10, "cards": 12, "fourcolor": 2, "cactus": 1, "pips": 1}


def _build_any(
    settings: Settings, progress: Callable[[str, int, int], None] | None
) -> tuple[Crops, npt.NDArray[np.int64], dict[str, int]]:
    if settings.kind in UPRIGHT_ONLY:
        from vision import train_fcc

        s = settings
        return train_fcc.build(s.kind, s.seed, s.scenes, s.jitters, s.workers, progress)
    if settings.kind == "pips":
        from vision import train_pips

        s = settings
        return train_pips.build(s.seed, s.scenes, s.workers, s.real, s.dev_out, progress, s.fonts)
    return build(settings, progress)


def cache_key(settings: Settings) -> str:
    """The crop cache's name for ``settings``: everything that shapes the crops, the fonts
    drawn with among them (a seed picks a font by its place among them, vision.glyphs)."""
    spec = spec_for(settings.kind)
    real_photos = settings.real and settings.kind in datasets.FOLDERS
    return (
        f"{settings.kind}-s{settings.seed}-n{settings.scenes}-r{int(settings.real)}"
        f"-j{settings.jitters}-c{spec.crop[0]}x{spec.crop[1]}-v{_CACHE_VERSION[settings.kind]}"
        + ("-dev" if settings.dev_out else "")
        + ("-rf" if settings.reframe else "")
        + (f"-neg{settings.real_negatives}" if settings.real_negatives != 2 else "")
        + (f"-face{settings.face_negatives}" if settings.face_negatives else "")
        + (f"-sface{settings.scene_face_negatives}" if settings.scene_face_negatives else "")
        + (f"-thin{settings.thin_digits:g}" if settings.thin_digits else "")
        + (f"-grey{settings.grey:g}" if settings.grey and settings.kind == "cards" else "")
        + (f"-words{settings.lettering:g}" if settings.lettering else "")
        + ("-natural" if settings.natural_real and real_photos else "")
        + ("-turns" if settings.orient_real and settings.real else "")
        # The real photos' labels as corrected by eye (vision/label_review.json).
        + (f"-l{label_review.training_digest(settings.kind)}" if real_photos else "")
        + f"-f{glyphs.font_digest(settings.fonts)}"
    )


def _cached_build(
    settings: Settings, progress: Callable[[str, int, int], None] | None
) -> tuple[Crops, npt.NDArray[np.int64], dict[str, int]]:
    """:func:`build`, kept in ``build/train-cache`` (ignored by git) so a re-fit skips rendering."""
    path = CACHE / f"{cache_key(settings)}.npz"
    if path.is_file():
        data = np.load(path)
        sources = {k: int(data[k]) for k in ("scenes", "photos", "first_real_crop") if k in data}
        return data["x"], data["y"], sources
    x, y, sources = _build_any(settings, progress)
    CACHE.mkdir(parents=True, exist_ok=True)
    np.savez(path, x=x, y=y, **sources)  # type: ignore[arg-type]
    return x, y, sources


def train(
    settings: Settings,
    out: Path = MODELS,
    progress: Callable[[str, int, int], None] | None = None,
    cache: bool = True,
) -> dict[str, Any]:
    started = time.perf_counter()
    spec = spec_for(settings.kind)
    glyphs.require(settings.fonts)
    if settings.kind in quantise.QUANTISED:
        # The int8 step after the fit needs training photos: without them, fail now, not
        # after the minutes of rendering and fitting.
        quantise.calibration_photos(settings.kind, settings.calibration_photos)
    x, y, sources = _cached_build(settings, progress) if cache else _build_any(settings, progress)
    built = time.perf_counter()
    model, metrics = fit(spec, x, y, settings, progress, sources.get("first_real_crop"))
    path = export(model, spec, out)
    if settings.kind in quantise.QUANTISED:
        quantise.quantise_shipped(path, settings.kind, spec, settings.calibration_photos)
    return {
        "model": str(path),
        "bytes": path.stat().st_size,
        "int8": settings.kind in quantise.QUANTISED,
        "crops": len(y),
        "none_share": round(float((y == spec.index(NONE)).mean()), 3),
        **sources,
        **metrics,
        "render_seconds": round(built - started, 1),
        "train_seconds": round(time.perf_counter() - built, 1),
        "render_fonts": glyphs.font_signature(settings.fonts),
        "settings": settings.__dict__,
    }
