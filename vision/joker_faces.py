"""Jokers found by their whole face, where the recogniser's frames miss them.

On a tile deck the models never saw, the star jokers are the tiles read worst: their crops
lie as near the deck's clutter as their own enrolled ones, so the profile's gate takes them
for nothing, or one star is read as a 4 (layout 11, development seeds: 28 of 87 misses).
Whole, a joker's face looks like no numbered tile: no number, no bar, a star in the middle.
Enrolment keeps every tile's whole face as small colour thumbnails
(:func:`vision.enroll.pixel_embed`: the tile's outline and its jitters, both ways up), and a
read looks at each pale tile face the detector finds (:func:`vision.detect_tiles.tile_faces`),
and at each place a row of read tiles leaves for one more, where nothing was read: a frame
whose thumbnail lies nearer an enrolled joker's than any numbered tile's, by
:data:`JOKER_MARGIN` (cosine), is read as that joker, in place of any smaller read on it (a
star read as a number). Only faces about a read tile's size are looked at
(:func:`tile_sized`): a pale table is a pale rectangle too.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from vision import detect_tiles, overlaps, tile_rows
from vision.crops import crop
from vision.enrol_layout import jittered
from vision.enroll import TEMPERATURE, pixel_embed
from vision.matching import inside, near_pairs, same_object, same_objects
from vision.synth import TILE_JOKERS

Quad = npt.NDArray[np.float32]
FACE_CROP = (48, 64)  # a tile's face, cut out before the thumbnail shrinks it
# Development layouts 8, 9 and 11-15 (30 scenes each): at 0.2 no face of a numbered tile or
# of the table lay nearer a joker by as much; at 0.1 two sets read 2 spurious more.
JOKER_MARGIN = 0.2
# A face counts as read only by a read frame at least this long (of the face's long side):
# since a face of a tile's shape is also proposed as two touching tiles
# (:data:`vision.detect_tiles.FACE_PAIR`), half a double joker's face, one star, was read as a 4 in
# a frame that covers the face, and the joker's face was no longer looked at (development
# layout 14, seeds 8 600 072+12: jokers right 21 -> 19 with the halves, 20 with this).
# One-print dev decks with the halves, right / spurious, prints 21-30: 2381 / 21 -> 2378 /
# 17 of 2550; prints 201-205: 1367 / 23 -> 1372 / 22 of 1480.
READ_AS_LONG = 0.85
ROW_SHIFTS = (-0.2, 0.0, 0.2)  # a row place shifted along the tile, in half tile heights
# A face is looked at only if its long side is within these multiples of the read tiles'
# median long side (given FACE_SIZE_READS reads or more). A pale table is one pale
# rectangle about as long for its width as a tile: on a white table (development print 201,
# scene 9 700 017) the whole photo was taken for a double joker's face, and the 26 tiles read
# on it were dropped as parts of that joker.
FACE_SIZES = (0.5, 2.0)
FACE_SIZE_READS = 3


def is_joker(label: str) -> bool:
    return label in TILE_JOKERS


def thumbnails(image: npt.NDArray[Any], quad: Quad) -> npt.NDArray[np.float32]:
    """A laid-out tile's face (TL TR BR BL, upright) as unit-length thumbnails: the outline
    and its jitters, each both ways up (a face on the table lies either way)."""
    faces = [crop(image, quad, FACE_CROP), *jittered(image, quad, FACE_CROP)]
    faces += [np.ascontiguousarray(f[::-1, ::-1]) for f in faces]
    return _unit(pixel_embed(np.stack(faces)))


def _unit(x: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    return np.asarray(x / np.maximum(np.linalg.norm(x, axis=1, keepdims=True), 1e-9), np.float32)


def jokers(
    image: npt.NDArray[Any],
    read: Sequence[Quad],
    faces: npt.NDArray[np.float32],
    labels: Sequence[str],
    on_table: Sequence[Quad] | None = None,
) -> list[tuple[str, float, list[tuple[str, float]], Quad]]:
    """(joker, confidence, alternatives, frame) for each tile face on the table, and each
    place a row of ``read`` frames leaves for one more tile, where no ``read`` frame lies,
    whose thumbnail is nearer an enrolled joker's (``faces``, one label each in ``labels``)
    than any numbered tile's by :data:`JOKER_MARGIN`. Confidence and alternatives: a softmax
    over each label's nearest thumbnail (the profile's temperature). ``on_table``: the
    photo's :func:`vision.detect_tiles.tile_faces` where the caller found them already."""
    names = sorted(set(labels))
    joker = np.array([is_joker(n) for n in names])
    if not joker.any() or joker.all():
        return []
    # Each face upright and sideways: its frame does not say which of its sides is the top.
    faces_seen = tile_sized(detect_tiles.tile_faces(image) if on_table is None else on_table, read)
    frames = [
        turn
        for q, at in zip(faces_seen, _read_at_each(faces_seen, read), strict=True)
        if not at
        for turn in (q, np.roll(q, 1, 0))
    ]
    frames += _row_places(image, read)
    if not frames:
        return []
    sims = _unit(pixel_embed(np.stack([crop(image, q, FACE_CROP) for q in frames]))) @ faces.T
    owner = np.array([names.index(x) for x in labels])
    per = np.full((len(frames), len(names)), -np.inf, np.float32)
    for k in range(len(names)):
        per[:, k] = sims[:, owner == k].max(axis=1)
    margin = per[:, joker].max(axis=1) - per[:, ~joker].max(axis=1)
    out: list[tuple[str, float, list[tuple[str, float]], Quad]] = []
    for f in np.argsort(-margin, kind="stable").tolist():
        if margin[f] <= JOKER_MARGIN:
            break
        if any(same_object(frames[f], q) for *_, q in out):
            continue  # the same face framed sideways
        z = np.exp((per[f] - per[f].max()) / TEMPERATURE)
        p = z / z.sum()
        top = np.argsort(-p, kind="stable")[:3].tolist()
        best = int(np.argmax(np.where(joker, per[f], -np.inf)))
        alts = [(names[k], float(p[k])) for k in top]
        out.append((names[best], float(p[best]), alts, frames[f]))
    return out


def tile_sized(faces: Sequence[Quad], read: Sequence[Quad]) -> list[Quad]:
    """The ``faces`` about as large as the tiles ``read`` (:data:`FACE_SIZES`); all of them
    where fewer than :data:`FACE_SIZE_READS` tiles were read (nothing to measure by)."""
    if len(read) < FACE_SIZE_READS or not faces:
        return list(faces)
    typical = float(np.median([overlaps.long_side(q) for q in read]))
    lo, hi = FACE_SIZES
    return [f for f in faces if lo * typical <= overlaps.long_side(f) <= hi * typical]


def _row_places(image: npt.NDArray[Any], read: Sequence[Quad]) -> list[Quad]:
    """Where a row of read tiles leaves room for one more, between two of them or beyond its
    end (:mod:`vision.tile_rows`): a joker in a row of touching tiles has no face of its own
    to find. Reads are framed on their numbers, a little off the tile's middle, so each place
    is also looked at shifted along the tile (:data:`ROW_SHIFTS`)."""
    h, w = image.shape[:2]
    places = tile_rows.row_gaps(read) + tile_rows.row_ends(read)
    out = []
    for q, at in zip(places, _read_at_each(places, read), strict=True):
        c = q.mean(axis=0)
        if not (0 <= c[0] < w and 0 <= c[1] < h) or at:
            continue
        half = (q[3] + q[2] - q[0] - q[1]) / 4  # half the tile's height, along it
        out += [(q + f * half).astype(np.float32) for f in ROW_SHIFTS]
    return out


def _read_at(face: Quad, read: Sequence[Quad]) -> bool:
    """Whether any ``read`` frame is framed as the same object as ``face``
    (:func:`vision.matching.same_object`) and is about as long (:data:`READ_AS_LONG`)."""
    return _read_at_each([face], read)[0]


def _read_at_each(faces: Sequence[Quad], read: Sequence[Quad]) -> list[bool]:
    """:func:`_read_at` for each of ``faces``, asked all at once: a table's faces and row
    places are a thousand or more a read. Only frames within reach of a face are tested
    (:func:`vision.matching.reach`)."""
    if not read or not len(faces):
        return [False] * len(faces)
    frames = np.asarray(read, np.float32).reshape(-1, 4, 2)
    quads = np.asarray(faces, np.float32).reshape(-1, 4, 2)  # as the detector frames them
    rows, cols = near_pairs(quads, frames)
    sizes = np.array([overlaps.long_side(f) for f in frames])
    least = READ_AS_LONG * np.array([overlaps.long_side(f) for f in quads])
    hit = same_objects(quads[rows], frames[cols]) & (sizes[cols] >= least[rows])
    out = np.zeros(len(quads), bool)
    out[rows[hit]] = True
    return [bool(x) for x in out]


def within(quad: Quad, face: Quad) -> bool:
    """Whether ``quad``'s centre lies on ``face``: a read of part of a joker (one star of the
    double joker read as a 4), which the joker read from its face replaces."""
    return inside(np.asarray(quad, np.float32).mean(axis=0), face)
