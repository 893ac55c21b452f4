"""One enrolment pass: the plan of what to lay out where, and each capture checked against it.

:class:`Enrolment` holds a :class:`vision.reader.TableReader` (its recogniser gives the
embeddings and the ``none`` score) and the deck's cards in notation order. :meth:`plan` says
which cards go in which view, row by row; :meth:`capture` takes the photo of one view, finds
the laid-out objects (:mod:`vision.enrol_layout`), puts each at its grid cell, names every
missing, doubled, stray or unreadable position, and embeds the crops; :meth:`profile` builds
the deck profile once every view is complete (or, when asked, from what there is).
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from vision import enrol_layout, joker_faces, turn_marks
from vision.crops import crop
from vision.enroll import (
    GATE_POINT,
    TILE_GATE_POINT,
    DeckProfile,
    EnrolError,
    _normalise,
    clutter_magnets,
    doubtful_cards,
    gate_threshold,
    ink_colour,
    model_reads,
    model_weight,
)
from vision.labels import NONE
from vision.reader import TableReader, model_vouches
from vision.recognise import Recogniser, model_id

CONFIDENT = 0.97  # the model's own read, where this sure, may flag a card out of order
# Cards: a capture less sharp than this (enrol_layout.sharpness) gets a warning. Measured on
# development seeds (the same 30 scenes, 194 cards) after enrolling from layout photos of
# sharpness 38 / 40 / 109 / about 1,000: 52% / 57% / 69% / 82% read right; the crops a read
# compares with are then blurred where the table's are not.
SHARP_CARDS = 200.0


@dataclass
class ViewResult:
    view: int  # 1-based
    expected: list[str]
    placed: dict[str, int] = field(default_factory=dict)  # token -> crops enrolled
    problems: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def complete(self) -> bool:
        return not self.problems and len(self.placed) == len(self.expected)

    def to_json(self) -> dict[str, Any]:
        return {
            "view": self.view,
            "expected": len(self.expected),
            "enrolled": len(self.placed),
            "complete": self.complete,
            "problems": self.problems,
            "warnings": self.warnings,
            "seconds": round(self.seconds, 3),
        }


def _where(view: int, row: int, col: int, views: int) -> str:
    prefix = f"view {view}, " if views > 1 else ""
    return f"{prefix}row {row + 1}, column {col + 1}"


# Tiles: a clutter crop whose embedding lies this near (cosine) to an enrolled tile crop is
# left out of the profile. A tile's clutter is cut from tiles (one star of a double joker, a
# number framed sideways, a maker's bar), and some of it is a near copy of another tile's
# crop, which then sat as near to clutter as to its own card and was gated as nothing.
# Development seeds apart from the bench's (30 scenes, layouts 7 / 8 / 9; right / spurious,
# all clutter -> without near copies): 796 / 53 -> 809 / 40 of 894, 687 / 26 -> 692 / 18 and
# 680 / 13 -> 686 / 10 of 763; at 0.97 801 / 36, 692 / 19, 686 / 11; at 0.93 809 / 42,
# 691 / 15, 682 / 17. Card decks read the same or worse (standard deck, layouts 8 and 9:
# 166 / 12 -> 166 / 12 and 163 / 9 -> 163 / 12; All In 165 / 8 -> 165 / 9, 166 / 10 ->
# 165 / 11): an index's clutter (pips, a picture's parts) seldom copies another index.
TILE_CLUTTER_NEAR = 0.95


def _near_copies(emb: npt.NDArray[np.float32], cards: int, near: float) -> list[int]:
    """Positions (among the clutter rows after the first ``cards`` rows of ``emb``) of the
    clutter crops whose cosine similarity to some card crop is ``near`` or more."""
    unit = _normalise(emb)
    nearest = (unit[cards:] @ unit[:cards].T).max(axis=1, initial=-1.0)
    return [int(k) for k in np.nonzero(nearest >= near)[0]]


# Crops per forward pass at enrolment. One pass over a card deck's 9,000 crops took 3.8 s on
# the development machine, the same crops in passes of 256 or 1,024 0.74 s (same embeddings):
# the huge batch's activations no longer fit the caches.
EMBED_CHUNK = 512


def embed_in_chunks(
    recogniser: Recogniser, crops: npt.NDArray[np.uint8], chunk: int = EMBED_CHUNK
) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32], npt.NDArray[np.float32] | None]:
    """(logits, embeddings, shape features or ``None``) of ``crops`` from
    ``recogniser.describe``, ``chunk`` crops a pass."""
    parts = [recogniser.describe(crops[i : i + chunk]) for i in range(0, len(crops), chunk)]
    if not parts:
        return recogniser.describe(crops)
    shapes = [p[2] for p in parts if p[2] is not None]
    return (
        np.concatenate([p[0] for p in parts]),
        np.concatenate([p[1] for p in parts]),
        np.concatenate(shapes) if len(shapes) == len(parts) else None,
    )


def _mark(marks: Sequence[turn_marks.Mark | None]) -> turn_marks.Mark | None:
    """The deck's bar from its views': their median where most views found one."""
    found = [m for m in marks if m is not None]
    if not found or len(found) < len(marks) / 2:
        return None
    along, length = (float(v) for v in np.median(np.array(found), axis=0))
    return along, length


class Enrolment:
    """Enrol one deck for ``reader``'s game: ``order`` is every card once, in notation order;
    ``cols`` x ``rows`` is the grid per view (``cols=rows=1``: one card per capture)."""

    def __init__(
        self, reader: TableReader, deck: str, order: Sequence[str], cols: int, rows: int
    ) -> None:
        if cols < 1 or rows < 1:
            raise EnrolError(f"a grid needs at least 1 x 1, got {cols} x {rows}")
        known = set(reader.recogniser.spec.decks[reader.deck])
        unknown = [t for t in order if t not in known]
        if unknown:
            raise EnrolError(f"the {reader.game} recogniser has no label for {', '.join(unknown)}")
        self.reader = reader
        self.deck = deck
        self.order = list(order)
        self.cols, self.rows = cols, rows
        per = cols * rows
        self.views = [self.order[i : i + per] for i in range(0, len(self.order), per)]
        self.labels: list[str] = []
        self.crops: list[npt.NDArray[np.uint8]] = []
        # Which card and size each crop (and clutter crop) was cut at: near copies, left out
        # of each other's comparison when the object-or-nothing gate is calibrated.
        self.groups: list[tuple[str, int]] = []
        self.clutter_groups: dict[int, list[tuple[str, int]]] = {}
        self.results: dict[int, ViewResult] = {}
        self.clutter: dict[int, list[npt.NDArray[np.uint8]]] = {}
        self.negatives = True
        self.inks = True  # the profile also names by ink colour
        self.calibrate = True  # the object-or-nothing gate is calibrated on this deck
        # After profile(): the cards its calibrated gate takes for clutter on most of their own
        # enrolled crops (vision.enroll.doubtful_cards), which a read will likely miss.
        self.doubtful: list[str] = []
        # Tiles: per view, where the deck prints its bar under the number (turn_marks).
        self.marks: dict[int, turn_marks.Mark | None] = {}
        # Tiles: each enrolled tile's whole face as thumbnails (joker_faces), label by label.
        self.faces: dict[str, npt.NDArray[np.float32]] = {}

    def plan(self) -> list[list[list[str]]]:
        """Per view, its rows of tokens: what the player lays out, top row first."""
        return [
            [v[r * self.cols : (r + 1) * self.cols] for r in range(math.ceil(len(v) / self.cols))]
            for v in self.views
        ]

    def _none_score(self, batch: npt.NDArray[np.uint8]) -> npt.NDArray[np.float32]:
        logits, _ = self.reader.recogniser.run(batch)
        probs, _ = self.reader.recogniser.probabilities(logits, self.reader.deck)
        return probs[:, -1]

    def capture(self, view: int, image: npt.NDArray[Any]) -> ViewResult:
        """Check and embed the photo of view ``view`` (1-based). A view can be captured again;
        the later capture replaces the earlier."""
        if not 1 <= view <= len(self.views):
            raise EnrolError(f"there is no view {view}: this enrolment has {len(self.views)}")
        started = time.perf_counter()
        expected = self.views[view - 1]
        result = ViewResult(view, list(expected))
        n_views = len(self.views)
        one = self.cols == 1 and self.rows == 1
        quads = enrol_layout.outlines(image, hue_edges=self.reader.kind == "cards")
        cells = enrol_layout.grid_cells(quads).placed
        by_cell: dict[tuple[int, int], list[enrol_layout.Placed]] = {}
        for p in cells:
            by_cell.setdefault((p.row, p.col), []).append(p)
        if one:
            by_cell = {(0, 0): cells} if cells else {}
        size = self.reader.recogniser.spec.crop
        view_labels: list[str] = []
        view_crops: list[npt.NDArray[np.uint8]] = []
        clutter: list[npt.NDArray[np.uint8]] = []
        view_groups: list[tuple[str, int]] = []
        clutter_groups: list[tuple[str, int]] = []
        placed: dict[tuple[int, int], list[enrol_layout.Placed]] = {}
        for k, token in enumerate(expected):
            row, col = divmod(k, self.cols)
            where = "the capture" if one else _where(view, row, col, n_views)
            here = by_cell.pop((row, col), [])
            placed[(row, col)] = here
            if not here:
                result.problems.append(f"{where}: nothing found; lay out {token} there")
                continue
            if len(here) > 1:
                result.problems.append(
                    f"{where}: {len(here)} objects where {token} alone should be; "
                    "one card per place"
                )
                continue
            quad = here[0].quad
            sizes: tuple[list[int], list[int]] = ([], [])
            had = len(clutter)
            if self.reader.kind in ("tiles", "cards"):
                layout_crops = (
                    enrol_layout.tile_crops
                    if self.reader.kind == "tiles"
                    else enrol_layout.card_index_crops
                )
                found = layout_crops(
                    image,
                    quad,
                    size,
                    self._none_score,
                    clutter if self.negatives else None,
                    groups=sizes,
                )
            else:
                found = self._read_crops(image, quad)
            clutter_groups += [(token, g) for g in sizes[1]]
            clutter_groups += [(token, -1)] * (len(clutter) - had - len(sizes[1]))
            if not found:
                result.problems.append(
                    f"{where}: {token} is there but its index cannot be read (covered, blurred, "
                    "or not face up?)"
                )
                continue
            self._check_read(found[0], token, where, result)
            crops = enrol_layout.with_half_turns(found)
            known = sizes[0] + [-1] * (len(found) - len(sizes[0]))
            view_groups += [(token, g) for g in known for _ in range(2)]
            view_labels += [token] * len(crops)
            view_crops += crops
            result.placed[token] = len(crops)
        if self.reader.kind == "cards" and cells:
            sharp = enrol_layout.sharpness(image, [p.quad for p in cells])
            if sharp < SHARP_CARDS:
                result.warnings.append(
                    f"the capture is blurred (sharpness {sharp:.0f}, want {SHARP_CARDS:.0f} or "
                    "more): a blurred enrolment reads a sharp table worse; hold the camera "
                    "still, focus, and capture again"
                )
        for (row, col), extra in sorted(by_cell.items()):
            k = row * self.cols + col
            inside = 0 <= row < self.rows and 0 <= col < self.cols
            what = "an extra object" if inside and k >= len(expected) else "a stray object"
            result.problems.append(
                f"{_where(view, row, col, n_views)}: {what} ({len(extra)}) outside the plan; "
                "remove it"
            )
        if self.reader.kind == "tiles":
            numbered = [
                here[0].quad
                for (row, col), here in placed.items()
                if len(here) == 1 and expected[row * self.cols + col][1:].isdigit()
            ]
            self.marks[view] = turn_marks.deck_mark(image, numbered)
            for token in expected:
                self.faces.pop(token, None)
            for (row, col), here in placed.items():
                token = expected[row * self.cols + col]
                if len(here) == 1 and token in result.placed:
                    self.faces[token] = joker_faces.thumbnails(image, here[0].quad)
        # Replace any earlier capture of this view.
        keep = [i for i, lab in enumerate(self.labels) if lab not in set(expected)]
        self.labels = [self.labels[i] for i in keep] + view_labels
        self.crops = [self.crops[i] for i in keep] + view_crops
        self.groups = [self.groups[i] for i in keep] + view_groups
        self.clutter[view] = clutter
        self.clutter_groups[view] = clutter_groups
        result.seconds = time.perf_counter() - started
        self.results[view] = result
        return result

    def _read_crops(self, image: npt.NDArray[Any], quad: enrol_layout.Quad) -> list[Any]:
        """Any other reader (a deck whose framing this module does not know): the objects the
        reader itself finds on the card, looked at upright, most confident first."""
        size = self.reader.recogniser.spec.crop
        out = []
        for height in enrol_layout.CARD_PATCH_HEIGHTS:
            patch = enrol_layout.upright_patch(image, quad, height)
            objects = sorted(self.reader.read(patch).objects, key=lambda o: -o.confidence)
            out += [crop(patch, o.quad, size) for o in objects[: enrol_layout.PER_CORNER]]
        return out

    def _check_read(
        self, crop: npt.NDArray[np.uint8], token: str, where: str, result: ViewResult
    ) -> None:
        """The model's own confident read, when it names another card, is worth a warning:
        the layout may be out of order. Not an error: on a new deck the model may be wrong."""
        read = self.reader.recogniser.classify(crop[None], self.reader.deck)[0]
        if read.label not in (token, NONE) and read.confidence >= CONFIDENT:
            result.warnings.append(
                f"{where}: expected {token}, the model reads {read.label} "
                f"({read.confidence:.2f}); check the order"
            )

    @property
    def missing(self) -> list[str]:
        done = {t for r in self.results.values() for t in r.placed}
        return [t for t in self.order if t not in done]

    def profile(self, partial: bool = False) -> DeckProfile:
        """The deck profile; refuses an incomplete deck unless ``partial``."""
        missing = self.missing
        if missing and not partial:
            raise EnrolError(
                f"the deck is incomplete: {len(missing)} of {len(self.order)} cards not enrolled "
                f"({', '.join(missing[:12])}{' ...' if len(missing) > 12 else ''}); nothing stored"
            )
        if not self.crops:
            raise EnrolError("nothing was enrolled: no card was found in any capture")
        clutter = [c for crops in self.clutter.values() for c in crops]
        clutter_groups = [g for v in self.clutter for g in self.clutter_groups.get(v, [])]
        logits, emb, shapes = embed_in_chunks(
            self.reader.recogniser, np.stack(self.crops + clutter)
        )
        if self.reader.kind == "tiles" and clutter:
            drop = set(_near_copies(emb, len(self.crops), TILE_CLUTTER_NEAR))
            rows = [
                *range(len(self.crops)),
                *(len(self.crops) + k for k in range(len(clutter)) if k not in drop),
            ]
            logits, emb = logits[rows], emb[rows]
            shapes = None if shapes is None else shapes[rows]
            clutter = [c for k, c in enumerate(clutter) if k not in drop]
            clutter_groups = [g for k, g in enumerate(clutter_groups) if k not in drop]
        every, names = self.reader.recogniser.probabilities(logits, self.reader.deck)
        probs = every[: len(self.crops)]
        labels = [*self.labels, *[NONE] * len(clutter)]
        groups: list[Any] = [*self.groups, *[("none", *g) for g in clutter_groups]]
        if len(groups) != len(labels):  # crops added by hand, without their groups
            groups = list(range(len(labels)))
        read = [names[int(i)] for i in probs[:, :-1].argmax(axis=1)]
        accuracy = float(np.mean([a == b for a, b in zip(read, self.labels, strict=True)]))
        threshold = (
            gate_threshold(
                emb,
                labels,
                groups,
                every[:, -1],
                point=TILE_GATE_POINT if self.reader.kind == "tiles" else GATE_POINT,
            )
            if self.calibrate
            else None
        )
        weight = model_weight(accuracy)
        # As a read does: the model's own sure read passes the gate.
        vouched = model_vouches(every, weight, names)
        self.doubtful = doubtful_cards(emb, labels, groups, every[:, -1], threshold, vouched)
        return DeckProfile(
            self.reader.game,
            self.deck,
            model_id(self.reader.recogniser.path),
            labels,
            emb,
            model_weight=weight,
            model_reads=model_reads(self.labels, probs[:, :-1], names[:-1]),
            inks=ink_colour(np.stack(self.crops + clutter)) if self.inks else None,
            object_threshold=threshold,
            shapes=shapes,
            doubtful=list(self.doubtful),
            agreeable=[c for c in self.doubtful if c not in clutter_magnets(emb, labels)],
            mark=_mark([m for _, m in sorted(self.marks.items())]),
            faces=np.concatenate(list(self.faces.values())) if self.faces else None,
            face_labels=[t for t, f in self.faces.items() for _ in range(len(f))],
        )
