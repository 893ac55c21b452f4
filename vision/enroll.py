"""Deck enrolment: adapt reading to one physical deck without retraining.

The player lays the deck out once, one card of each kind, in the notation's order (a grid read
row by row, over one or several photos, or one card per photo). Each card's crop goes through
the recogniser's embedding (its penultimate layer); the per-card embeddings are the deck
profile, stored in the user's data directory. Reading with a profile labels each object by its
nearest enrolled embedding (cosine similarity), so a deck whose fonts, colours or layout the
model never saw is read by comparison with itself. Enrolling is one forward pass per card:
seconds on a Raspberry Pi.

This module knows nothing of the network: it takes an ``embed`` function (crops -> vectors).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from vision.labels import NONE
from vision.userdata import check_name, data_dir

Embed = Callable[[NDArray[np.uint8]], NDArray[np.float32]]
_Optional = NDArray[Any] | None
FORMAT_VERSION = 2  # 2: inks measured by :func:`ink_colour` against the paper's level
TEMPERATURE = 0.05  # softmax temperature over cosine similarities: sharp, as NN should be
# Object or nothing, for a profile with clutter examples (``none`` rows): how much nearer the
# nearest enrolled card must be than the nearest clutter, less a little for each point of the
# model's own ``none`` probability above a coin toss. Chosen on generated scenes of the unseen
# style with seeds apart from the benchmark's (bench/vision_extra.py measures on others).
OBJECT_MARGIN = 0.08
NONE_WEIGHT = 0.1
# A profile calibrated at enrolment (:func:`gate_threshold`): where between the deck's own
# typical clutter (0) and typical card (1) the object-or-nothing threshold lies. Midway; on
# development seeds (30 scenes, two layouts each) 0.6 cut the card decks' spurious reads
# further (cards 8.7-11.9% -> 5.8-6.8%) but cost 1.7-5.1 points of accuracy.
GATE_POINT = 0.5
# Tiles: further toward the cards. Midway, a tile deck's extra reads were tiles framed wrongly
# (a frame slid a third of a tile down, read as a 1; a quarter frame on one star of a double
# joker). Dev seeds (rummikub, layouts 11 and 12, 30 scenes): 0.5 read 85.3/86.5% with 5.3/10.8%
# spurious, 0.55 84.8/85.8% with 3.1/7.0%, 0.6 83.4/84.3% with 1.7/4.5%, 0.7 78.6/80.3% with
# 0.9/1.9%; the old fixed margin 84.8/83.3% with 2.9/3.3%. Near-miss clutter for tiles (those
# frames cut at enrolment, as for card indices) did not help: near misses look most like
# each other, so they pulled the deck's clutter median and its gate down (spurious 13.1-17.8%).
# Measured again on 2026-12-03 on decks printed one way throughout, enrolled once from layout
# 7, with everything read since (right / spurious, 0.6 -> 0.55): dev prints 21-26 (scenes
# 62 000+10) 1446 / 7 -> 1452 / 8 of 1530, 27-32 (62 100+10) 1855 / 15 -> 1868 / 14 of 1962,
# 201-205 (9 700 000+15) 1730 / 27 -> 1739 / 33 of 1850, 33-38 (62 200+10) 1284 / 6 -> 1287 /
# 7 of 1416, 206-211 (9 800 000+10) 1617 / 8 -> 1619 / 7 of 1704; 0.5 read more on the first
# three (1454, 1874, 1746) with more spurious (7, 19, 33). The benchmark's one-print decks
# read 2979 / 70 -> 2976 / 78 of 3150 at 0.55: the gain did not carry over, so 0.6 stays.
TILE_GATE_POINT = 0.6
# Naming: how much a difference in ink colour (see :func:`ink_colour`) counts against a card,
# in cosine similarity per unit of colour distance. The recognisers standardise each crop, so
# their embeddings hardly tell a blue 2 from a green one; in a four-colour deck, or tiles in
# four inks, that is the suit or colour.
INK_WEIGHT = 0.3
# Naming: how much the crops' ``shape`` features (the last convolution's, averaged along each
# row: :mod:`vision.model_outputs`) count beside the embedding, in cosine similarity: the
# similarity is (embedding's + SHAPE_WEIGHT x shape's) / (1 + SHAPE_WEIGHT). The embedding
# squashes glyphs the model never learnt (star jokers sit nearly as near a 4 as their own
# crops), the convolution's features still say where the strokes lie. Object or nothing is
# still the embedding's alone: with the shape features there too, clutter passed (69 to 314
# spurious reads on 40 development scenes). Development seeds apart from the bench's (20
# scenes, two layouts each; right / spurious, the embedding alone -> with shapes): Rummikub
# 979 / 22 -> 990 / 22 of 1106, 804 / 5 -> 810 / 4 of 940, 838 / 6 -> 848 / 5 of 996 (star
# jokers 40 -> 61 of 238); standard deck 203 / 14 -> 200 / 12 of 228, 172 / 79 -> 178 / 45 of
# 244; All In 195 / 16 -> 192 / 16, 166 / 30 -> 169 / 20. Weight 1 read about the same
# (Rummikub 988, 809); the whole convolution output, not averaged along rows, read the same
# at three times the size; averaged over the whole crop, 982 (the strokes' places lost).
SHAPE_WEIGHT = 2.25
# Tiles: a crop whose ink is at least this coloured (:func:`ink_colour`, a* and b* over 40)
# takes the model's word for its number only; its colour is the profile's, by shape and ink.
# On a deck it never saw the model names crimson, teal and gold numbers charcoal at up to
# 0.99, which outweighed an ink colour measured right (r10's ink 0.38 from the paper, as the
# enrolled r10's 0.35, read k10). Charcoal ink measures under 0.06, and coloured ink blurred
# or dimmed to grey may too: there the model still says the colour. Chosen on one-print dev
# decks (prints 21-24, scenes 61 000+), right / spurious of 992, not at all -> 0.08 / 0.12 /
# 0.14 / 0.2: 923 / 11 -> 936 / 15, 935 / 15, 937 / 15, 934 / 15; the model's colour opinion
# halved for every crop instead read 930, none at all 919 (gold ink measured grey, then read
# charcoal).
INK_CHROMA = 0.12
# Ink colour (:func:`ink_colour`): each crop scaled so its paper's grey is PAPER_LEVEL, and its
# ink the darkest INK_SHARE of its middle. Under a dim blue light a crimson 1's ink measured 0.05,
# charcoal's range (its darkest quarter half paper: a 1 is thin), and r1, r3 and o4 on one such
# table read k1, k3 and k4 (dev scene 62 003). Development seeds apart from the benchmark's, right
# / spurious, before -> after. One-print decks enrolled once (layout 7): Rummikub prints 21-26,
# scenes 62 000+10, 1436 / 7 -> 1446 / 7 of 1530; prints 27-32, 62 100+10, 1852 / 15 -> 1855 / 15
# of 1962; prints 201-205, 9 700 000+15, 1712 / 27 -> 1730 / 27 of 1850 (the pixels picked by
# partitions, not sorts, and the paper's once for its grey and its colour: 1449, 1853 and 1731).
# Each tile printed its own way (layouts 11 and 14, 12 scenes each): 303 -> 301 of 312 and 318 ->
# 319 of 335, spurious the same. The darkest tenth read the one-print decks a little better (1446,
# 1858, 1728) and these worse (298, 317: blue inks drawn apart from the enrolled ones read
# charcoal); scaled with the darkest quarter 1440, 1847, 1723; the darkest tenth unscaled 1426,
# 1856, 1707; each channel scaled to the paper's own (white balance) read blue as charcoal (1824
# on prints 27-32). Card decks (prints 21-30, scenes 61 000+20, of 1211 and 1215): the standard
# deck 1163 / 29 either way, All In 1142 / 19 -> 1140 / 19 (a Kc washed out by glare read Ac twice
# more).
PAPER_LEVEL = 230.0
INK_SHARE = 0.15


class EnrolError(ValueError):
    """The layout does not match the deck, or a stored profile is unusable."""


def _normalise(x: NDArray[np.float32]) -> NDArray[np.float32]:
    x = np.asarray(x, np.float32)
    return np.asarray(x / np.maximum(np.linalg.norm(x, axis=1, keepdims=True), 1e-9), np.float32)


def reading_order(quads: Sequence[Sequence[Sequence[float]]]) -> list[int]:
    """Indices of ``quads`` in reading order of a grid: rows top to bottom, each row left to
    right. A new row starts where a card's centre lies below the current row's band (more than
    half a card height under the row's first card)."""
    if not quads:
        return []
    q = np.asarray(quads, np.float64).reshape(len(quads), 4, 2)
    centres = q.mean(axis=1)
    heights = np.linalg.norm(q[:, 3] - q[:, 0], axis=1)
    order = list(np.argsort(centres[:, 1]))
    rows: list[list[int]] = []
    for i in order:
        if rows and abs(centres[i, 1] - centres[rows[-1][0], 1]) < 0.5 * heights[rows[-1][0]]:
            rows[-1].append(int(i))
        else:
            rows.append([int(i)])
    return [i for row in rows for i in sorted(row, key=lambda k: centres[k, 0])]


@dataclass
class DeckProfile:
    game: str
    deck: str
    model: str  # the recogniser the embeddings came from: another model cannot use them
    labels: list[str]  # one per embedding row (a card may have several: corners, turns)
    embeddings: NDArray[np.float32]  # N x d, unit length
    passes: int = 1  # how many times the deck was laid out and captured
    # How much the model's own opinion weighs beside the profile's (log-probabilities added
    # to similarities / TEMPERATURE): measured at enrolment by how well the model reads this
    # deck; 0 for a deck it cannot read.
    model_weight: float = 0.0
    # How the model reads each enrolled card: {card: {model label: mean probability}} over
    # the card's enrolled crops. The model's opinion then counts for a card through what it
    # says on that card, so a deck whose star joker the model reads as a 4 gives "4" as
    # evidence for the joker and for the 4 alike (the profile tells them apart), instead of
    # for the 4 alone. Empty: the model's label is taken at its word.
    model_reads: dict[str, dict[str, float]] = field(default_factory=dict)
    # Each example's ink colour (N x 2, :func:`ink_colour`); ``None``: names by shape alone.
    inks: NDArray[np.float32] | None = None
    # Object or nothing, calibrated on this deck at enrolment (:func:`gate_threshold`): a
    # crop is an object when its nearest card is this much nearer than its nearest clutter,
    # with NONE_WEIGHT per unit of the model's none against it. ``None`` (an older profile):
    # the fixed OBJECT_MARGIN around a none of 0.5.
    object_threshold: float | None = None
    # Each example's ``shape`` features (N x d, :mod:`vision.model_outputs`), for naming;
    # ``None``: a model without that output, or a profile made before it.
    shapes: NDArray[np.float32] | None = None
    # The cards this profile's own gate takes for clutter on most of their enrolled crops
    # (:func:`doubtful_cards`), named to the player after enrolling.
    doubtful: list[str] = field(default_factory=list)
    # Of those, the ones a read takes where several framings of one object agree on it
    # (:mod:`vision.doubtful_reads`): not a card the deck's own clutter lies nearest to
    # often (:func:`clutter_magnets`), where the table's clutter would too.
    agreeable: list[str] = field(default_factory=list)
    # Tiles: where the deck prints the bar under its numbers ((distance below the number's
    # centre, length), in number heights; :func:`vision.turn_marks.deck_mark`), which tells a
    # read 6 from a 9; ``None``: not measured, or no bar.
    mark: tuple[float, float] | None = None
    # Tiles: every enrolled tile's whole face as thumbnails (:func:`pixel_embed`, unit
    # length, one label each in ``face_labels``), which find jokers the recogniser's frames
    # miss (:mod:`vision.joker_faces`); ``None``: not enrolled so.
    faces: NDArray[np.float32] | None = None
    face_labels: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.embeddings = _normalise(self.embeddings)
        if len(self.labels) != len(self.embeddings):
            raise EnrolError("a profile needs one label per embedding")
        if self.inks is not None and self.inks.shape != (len(self.labels), 2):
            raise EnrolError("a profile needs one ink colour per embedding")
        if self.shapes is not None:
            if len(self.shapes) != len(self.labels):
                raise EnrolError("a profile needs one set of shape features per embedding")
            self.shapes = _normalise(self.shapes)
        if self.faces is not None and len(self.faces) != len(self.face_labels):
            raise EnrolError("a profile needs one label per face thumbnail")

    @property
    def cards(self) -> list[str]:
        """The enrolled cards, each once, in the order they were enrolled."""
        return list(dict.fromkeys(self.labels))

    def _grouped(
        self,
    ) -> tuple[list[str], NDArray[Any], NDArray[np.float32], _Optional, _Optional]:
        """Label names, where each label's examples start, and the embeddings (and inks, and
        shape features) grouped by label: worked out once, as a profile holds thousands of
        examples and a read compares every crop with all of them."""
        key = (
            id(self.labels),
            len(self.labels),
            id(self.embeddings),
            id(self.inks),
            id(self.shapes),
        )
        cached = getattr(self, "_groups", None)
        if cached is None or cached[0] != key:
            names = sorted(set(self.labels))
            col = {n: i for i, n in enumerate(names)}
            owner = np.array([col[label] for label in self.labels])
            order = np.argsort(owner, kind="stable")
            starts = np.searchsorted(owner[order], np.arange(len(names)))
            inks = None if self.inks is None else np.ascontiguousarray(self.inks[order])
            shapes = None if self.shapes is None else np.ascontiguousarray(self.shapes[order])
            emb = np.ascontiguousarray(self.embeddings[order])
            cached = (key, names, starts, emb, inks, shapes)
            self._groups = cached
        return list(cached[1]), cached[2], cached[3], cached[4], cached[5]

    def similarities(
        self,
        embeddings: NDArray[np.float32],
        inks: NDArray[np.float32] | None = None,
        shapes: NDArray[np.float32] | None = None,
    ) -> tuple[list[str], NDArray[Any]]:
        """(label names, N x labels): each embedding's cosine similarity to the nearest
        enrolled example of each label; given the crops' ``shapes`` (and a profile with
        them), that similarity and the shape features' weighed together
        (:data:`SHAPE_WEIGHT`); given the crops' ``inks`` (and a profile with them), less
        :data:`INK_WEIGHT` per unit of ink colour distance to that example."""
        names, starts, grouped, grouped_inks, grouped_shapes = self._grouped()
        if len(embeddings) == 0:
            return names, np.zeros((0, len(names)), np.float32)
        # A read asks twice for the same crops (object or nothing, then which card): the
        # product with thousands of examples is kept for the second time.
        last = getattr(self, "_last_product", None)
        if last is not None and last[0] is embeddings:
            sims = last[1]
        else:
            sims = _normalise(embeddings) @ grouped.T  # N x M, examples grouped by label
            self._last_product = (embeddings, sims)
        # N x M arrays are a few megabytes each: worked on in place where this call owns them
        # (never the kept product), in the same operations and order, so the same numbers.
        own = False
        if shapes is not None and grouped_shapes is not None:
            blend = _normalise(shapes) @ grouped_shapes.T
            blend *= SHAPE_WEIGHT
            blend += sims
            blend /= 1.0 + SHAPE_WEIGHT
            sims, own = blend, True
        if inks is not None and grouped_inks is not None:
            q = np.asarray(inks, np.float32)
            # |q - e| with the square expanded: matrix products, no N x M x 2 difference.
            sq = (q**2).sum(axis=1)[:, None] + (grouped_inks**2).sum(axis=1)[None, :]
            sq -= 2 * q @ grouped_inks.T
            apart = np.sqrt(np.maximum(sq, 0.0, out=sq), out=sq)
            apart *= INK_WEIGHT
            if own:
                sims -= apart
            else:
                sims = sims - apart
        per_label = np.maximum.reduceat(sims, starts, axis=1)
        return names, np.asarray(per_label, np.float32)

    def object_margin(
        self, embeddings: NDArray[np.float32], p_none: NDArray[Any]
    ) -> tuple[NDArray[Any], NDArray[Any]] | None:
        """(margin, nearest card's similarity) per embedding: a crop is an object when its
        margin is above 0. ``None`` for a profile without clutter examples (nothing to
        compare with). The model's ``none`` (``p_none``) counts a little: on a deck it never
        saw it calls whole suits nothing, which the profile's similarities overrule."""
        names, per_label = self.similarities(embeddings)
        if NONE not in names or len(names) < 2:
            return None
        k = names.index(NONE)
        card = np.delete(per_label, k, axis=1).max(axis=1)
        if self.object_threshold is not None:
            margin = card - per_label[:, k] - NONE_WEIGHT * np.asarray(p_none)
            return margin - self.object_threshold, card
        margin = card - per_label[:, k] - NONE_WEIGHT * (np.asarray(p_none) - 0.5)
        return margin - OBJECT_MARGIN, card

    def classify(
        self,
        embeddings: NDArray[np.float32],
        top: int = 3,
        prior: Callable[[list[str]], NDArray[Any]] | None = None,
        cards_only: bool = False,
        inks: NDArray[np.float32] | None = None,
        shapes: NDArray[np.float32] | None = None,
    ) -> list[tuple[str, float, list[tuple[str, float]]]]:
        """(label, confidence, alternatives) per embedding, by nearest enrolled card.
        ``prior``, given the label names, returns N x labels log-probabilities to add (the
        model's own opinion, weighed in). ``cards_only``: leave the clutter examples out
        (whether the crop is an object was decided already). ``inks``, ``shapes``: the
        crops' ink colours and shape features, where the profile has them."""
        if len(embeddings) == 0:
            return []
        names, per_label = self.similarities(embeddings, inks, shapes)
        if cards_only and NONE in names and len(names) > 1:
            k = names.index(NONE)
            names = names[:k] + names[k + 1 :]
            per_label = np.delete(per_label, k, axis=1)
        z = per_label / TEMPERATURE
        if prior is not None:
            z = z + prior(names)
        z -= z.max(axis=1, keepdims=True)
        p = np.exp(z)
        p /= p.sum(axis=1, keepdims=True)
        order = np.argsort(-p, axis=1)[:, :top]
        chosen = np.take_along_axis(p, order, 1)
        out = []
        for cols, probs in zip(order.tolist(), chosen.tolist(), strict=True):
            alts = [(names[i], pr) for i, pr in zip(cols, probs, strict=True)]
            out.append((alts[0][0], alts[0][1], alts))
        return out

    def extended(self, other: DeckProfile) -> DeckProfile:
        """This profile plus another pass over the same deck (ink colours and shape
        features kept where both passes have them)."""
        if (other.game, other.model) != (self.game, self.model):
            raise EnrolError("cannot merge profiles of different games or models")

        def both(a: NDArray[np.float32] | None, b: NDArray[np.float32] | None) -> Any:
            return None if a is None or b is None else np.concatenate([a, b])

        passes = (self, other)

        return DeckProfile(
            self.game,
            self.deck,
            self.model,
            [*self.labels, *other.labels],
            np.concatenate([self.embeddings, other.embeddings]),
            self.passes + other.passes,
            min(self.model_weight, other.model_weight),
            {**other.model_reads, **self.model_reads}
            if self.model_reads and other.model_reads
            else {},
            both(self.inks, other.inks),
            object_threshold=self.object_threshold,
            shapes=both(self.shapes, other.shapes),
            # Doubtful in either pass (the merged profile keeps the first pass's gate), and
            # agreeable unless a pass that doubted it found it a clutter magnet.
            doubtful=list(dict.fromkeys([*self.doubtful, *other.doubtful])),
            agreeable=[
                c
                for c in dict.fromkeys([*self.doubtful, *other.doubtful])
                if all(c in p.agreeable or c not in p.doubtful for p in (self, other))
            ],
            mark=self.mark if self.mark is not None else other.mark,
            # Face thumbnails from whichever passes took them.
            faces=np.concatenate(thumbs)
            if (thumbs := [p.faces for p in passes if p.faces is not None])
            else None,
            face_labels=[x for p in passes if p.faces is not None for x in p.face_labels],
        )

    def model_prior(
        self, probs: NDArray[Any], model_names: Sequence[str], names: Sequence[str]
    ) -> NDArray[Any]:
        """N x ``names`` log-evidence from the model's probabilities ``probs`` (N x
        ``model_names``): for each card, how much of the model's belief falls where it put
        its belief on that card's enrolled crops (a card without such a record: the model's
        own label; ``none``: the model's none)."""
        col = {n: i for i, n in enumerate(model_names)}
        reads = np.zeros((len(model_names), len(names)), np.float32)
        for k, name in enumerate(names):
            seen = self.model_reads.get(name)
            if seen:
                for m, p in seen.items():
                    if m in col:
                        reads[col[m], k] = p
                reads[:, k] /= max(float(reads[:, k].sum()), 1e-9)
            elif name in col:
                reads[col[name], k] = 1.0
            else:
                reads[-1, k] = 1.0  # a label the model lacks counts as its "none"
        return np.asarray(np.log(np.asarray(probs, np.float32) @ reads + 1e-6), np.float32)

    # -- storage: JSON metadata beside an .npy of the embeddings -----------------------------
    def save(self, root: str | Path | None = None) -> Path:
        path = profile_path(self.game, self.deck, root)
        path.parent.mkdir(parents=True, exist_ok=True)
        stored = np.hstack(
            [self.embeddings, *(x for x in (self.inks, self.shapes) if x is not None)]
        )
        np.save(path.with_suffix(".npy"), stored)
        faces = path.with_suffix(".faces.npy")
        if self.faces is not None:
            np.save(faces, self.faces)
        else:
            faces.unlink(missing_ok=True)
        meta = {
            "version": FORMAT_VERSION,
            "game": self.game,
            "deck": self.deck,
            "model": self.model,
            "labels": self.labels,
            "passes": self.passes,
            "model_weight": self.model_weight,
            "model_reads": self.model_reads,
            # Columns of the .npy after the embeddings: ink colours, then shape features.
            "ink_columns": 0 if self.inks is None else 2,
            "shape_columns": 0 if self.shapes is None else int(self.shapes.shape[1]),
            "object_threshold": self.object_threshold,
            "doubtful": self.doubtful,
            "agreeable": self.agreeable,
            "mark": None if self.mark is None else list(self.mark),
            "face_labels": self.face_labels if self.faces is not None else None,
        }
        tmp = path.with_suffix(".json.tmp")
        tmp.write_text(json.dumps(meta, indent=1) + "\n", encoding="utf-8")
        tmp.replace(path)
        return path

    @classmethod
    def load(cls, game: str, deck: str, root: str | Path | None = None) -> DeckProfile:
        path = profile_path(game, deck, root)
        if not path.is_file():
            raise EnrolError(
                f"no enrolled deck {deck!r} for {game} (looked in {path}); run "
                f"`tableref enroll --game {game} --deck {deck}`"
            )
        try:
            meta = json.loads(path.read_text(encoding="utf-8"))
            emb = np.load(path.with_suffix(".npy"))
            if meta.get("version") != FORMAT_VERSION:
                raise EnrolError(
                    f"deck profile {path} is version {meta.get('version')}, this tableref "
                    f"reads version {FORMAT_VERSION} (it measures ink colours another way); "
                    f"run `tableref enroll --game {game} --deck {deck}` again"
                )
            ink_columns = int(meta.get("ink_columns", 0))
            shape_columns = int(meta.get("shape_columns", 0))
            if emb.ndim != 2 or not 0 <= ink_columns + shape_columns < emb.shape[1]:
                raise EnrolError(
                    f"deck profile {path} is damaged: {ink_columns} ink and {shape_columns} "
                    f"shape columns do not fit its {emb.shape} array; enrol the deck again"
                )
            shapes = emb[:, emb.shape[1] - shape_columns :] if shape_columns else None
            emb = emb[:, : emb.shape[1] - shape_columns]
            inks = emb[:, -ink_columns:] if ink_columns else None
            emb = emb[:, : emb.shape[1] - ink_columns]
            threshold = meta.get("object_threshold")
            face_labels = meta.get("face_labels")
            faces = None
            if face_labels is not None:
                faces = np.load(path.with_suffix(".faces.npy"))
                if faces.ndim != 2 or len(faces) != len(face_labels):
                    raise EnrolError(
                        f"deck profile {path} is damaged: {len(face_labels)} face labels for "
                        f"face thumbnails of shape {faces.shape}; enrol the deck again"
                    )
            mark = meta.get("mark")
            if mark is not None and (not isinstance(mark, list) or len(mark) != 2):
                raise EnrolError(
                    f"deck profile {path} is damaged: its mark {mark!r} is not two numbers"
                )
            return cls(
                str(meta["game"]),
                str(meta["deck"]),
                str(meta["model"]),
                [str(x) for x in meta["labels"]],
                emb,
                int(meta.get("passes", 1)),
                float(meta.get("model_weight", 0.0)),
                {
                    str(k): {str(m): float(p) for m, p in v.items()}
                    for k, v in meta.get("model_reads", {}).items()
                },
                inks,
                None if threshold is None else float(threshold),
                shapes,
                [str(x) for x in meta.get("doubtful", [])],
                [str(x) for x in meta.get("agreeable", [])],
                None if mark is None else (float(mark[0]), float(mark[1])),
                faces,
                [str(x) for x in face_labels or []],
            )
        except (OSError, KeyError, ValueError, TypeError) as exc:
            if isinstance(exc, EnrolError):
                raise
            raise EnrolError(f"deck profile {path} is unreadable: {exc}") from exc


def gate_threshold(
    embeddings: NDArray[np.float32],
    labels: Sequence[str],
    groups: Sequence[Any],
    p_none: NDArray[Any],
    queries: int = 1000,
    seed: int = 0,
    point: float = GATE_POINT,
) -> float | None:
    """The object-or-nothing threshold for one deck, from its own enrolment: each enrolled
    crop, card or clutter (``labels`` ``none``: pips, court art, a tile's bar, parts of an
    index), is compared with the rest of the profile as :meth:`DeckProfile.object_margin`
    compares a crop on the table (nearest card less nearest clutter, less NONE_WEIGHT per
    unit of the model's none, ``p_none``), leaving out the crops of its own group
    (``groups``: the same card cut at the same size, whose copies would match it trivially).
    The threshold lies ``point`` (:data:`GATE_POINT`; tiles :data:`TILE_GATE_POINT`) of the
    way from the clutter's median to the cards' median: so the
    gate follows this deck, and this model's embedding and none score, not a constant fitted
    to one model. ``None`` without both kinds of example. At most ``queries`` crops of each
    kind are compared (a tenth of a second)."""
    lab = np.asarray(labels)
    clutter = lab == NONE
    if clutter.sum() < 2 or (~clutter).sum() < 1:
        return None
    rng = np.random.default_rng(seed)

    def scores(kind: NDArray[Any]) -> NDArray[Any]:
        q = rng.choice(np.nonzero(kind)[0], min(queries, int(kind.sum())), replace=False)
        out = _own_margins(embeddings, clutter, groups, p_none, q)
        return np.asarray(out[np.isfinite(out)])

    objects, clutters = scores(~clutter), scores(clutter)
    if len(objects) < 1 or len(clutters) < 1:
        return None
    # Between the deck's typical clutter and its typical card: medians, as a tail
    # quantile of the clutter moved with a few clutter crops that look like a card (one star
    # of a double joker beside a star joker): on development seeds the 99th percentile set
    # one tile deck's gate at 0.07, another's at 0.004, and the first read 70% right.
    low, high = float(np.median(clutters)), float(np.median(objects))
    return low + point * (high - low)


def _own_margins(
    embeddings: NDArray[np.float32],
    clutter: NDArray[np.bool_],
    groups: Sequence[Any],
    p_none: NDArray[Any],
    q: NDArray[Any],
) -> NDArray[Any]:
    """The object-or-nothing margin (before the threshold) of the enrolled crops ``q``, each
    compared with the rest of the profile as a crop on the table is, its own group left out
    (see :func:`gate_threshold`); -inf where nothing is left to compare with."""
    emb = _normalise(embeddings)
    codes = {g: i for i, g in enumerate(dict.fromkeys(groups))}
    group = np.array([codes[g] for g in groups])
    sims = emb[q] @ emb.T
    sims[group[q][:, None] == group[None, :]] = -np.inf
    return np.asarray(
        sims[:, ~clutter].max(axis=1)
        - sims[:, clutter].max(axis=1)
        - NONE_WEIGHT * np.asarray(p_none, np.float32)[q]
    )


# Enrolment warns of a card when under this share of its own enrolled crops pass the gate it
# calibrated (each compared with the rest of the profile, its own group left out) or are
# ones the model alone is sure of (which a read lets pass too): on the table such a card
# often goes unread. The bench's unseen tile deck enrolled from layouts 7, 8 and 9, then its
# 40 tables read: the star jokers named were read 1 of 152 times; the two numbers named (b5,
# o5, layout 7) 38 of 43; the tiles not named 3053 of 3323. Without the model's sure reads,
# more numbers were named (o2, o7, r2 on layout 8), and those read 70-92% right. The unseen
# card decks have no card named.
DOUBTFUL_SHARE = 0.25
MARGIN_SLICE = 1000  # enrolled crops compared with the profile at a time


def doubtful_cards(
    embeddings: NDArray[np.float32],
    labels: Sequence[str],
    groups: Sequence[Any],
    p_none: NDArray[Any],
    threshold: float | None,
    vouched: NDArray[np.bool_] | None = None,
) -> list[str]:
    """The enrolled cards that the profile's own object-or-nothing gate (``threshold``, from
    :func:`gate_threshold`) takes for clutter on most of their enrolled crops
    (:data:`DOUBTFUL_SHARE`), in enrolment order: what a read of the table will likely
    miss. ``vouched``: per example, whether the model alone is sure it is an object, which a
    read lets pass whatever the gate says. Empty without a threshold or clutter examples."""
    lab = np.asarray(labels)
    clutter = lab == NONE
    if threshold is None or clutter.sum() < 1:
        return []
    q = np.nonzero(~clutter)[0]
    # In slices: a card deck's profile holds ~9000 examples; comparing all its card crops with
    # all of them at once raised enrolment's peak memory by 20 MB (730 -> 750 MB).
    passed = np.concatenate(
        [
            _own_margins(embeddings, clutter, groups, p_none, q[k : k + MARGIN_SLICE]) > threshold
            for k in range(0, len(q), MARGIN_SLICE)
        ]
    )
    if vouched is not None:
        passed |= np.asarray(vouched, bool)[q]
    out = []
    for card in dict.fromkeys(lab[q].tolist()):
        mine = lab[q] == card
        if float(passed[mine].mean()) < DOUBTFUL_SHARE:
            out.append(str(card))
    return out


# A card the deck's clutter lies nearest to this often (share of the clutter examples) draws
# the table's clutter too: agreeing framings of it are not evidence of the card. Measured on
# the unseen tile deck's layouts 7-9 and 11-15: the doubtful CJ drew 1-8% of the clutter, DJ
# under 2%, MJ 12% or more on layout 8, where agreeing framings read it from the cloth
# (layout 8, 30 development scenes: 773 / 13 right / spurious with MJ, 772 / 7 without).
MAGNET_SHARE = 0.1


def clutter_magnets(
    embeddings: NDArray[np.float32], labels: Sequence[str], share: float = MAGNET_SHARE
) -> list[str]:
    """The cards that at least ``share`` of the profile's clutter examples (``none``) lie
    nearest to (cosine, nearest example), most drawn first."""
    lab = np.asarray(labels)
    clutter = lab == NONE
    if not clutter.any() or clutter.all():
        return []
    emb = _normalise(embeddings)
    nearest = np.concatenate(
        [
            (emb[np.nonzero(clutter)[0][k : k + MARGIN_SLICE]] @ emb[~clutter].T).argmax(axis=1)
            for k in range(0, int(clutter.sum()), MARGIN_SLICE)
        ]
    )
    cards, counts = np.unique(lab[~clutter][nearest], return_counts=True)
    drawn = counts / clutter.sum()
    return [str(cards[i]) for i in np.argsort(-drawn) if drawn[i] >= share]


def colour_blind(probs: NDArray[Any], names: Sequence[str]) -> NDArray[Any]:
    """Tiles: the model's probabilities (N x ``names``) with each number's share spread
    evenly over its colours, so they say which number and nothing of its colour (a joker or
    ``none`` keeps its own)."""
    from vision.labels import tile_number

    out = np.array(probs, np.float32, copy=True)
    groups: dict[str, list[int]] = {}
    for i, name in enumerate(names):
        number = tile_number(name)
        if number is not None:
            groups.setdefault(number, []).append(i)
    for cols in groups.values():
        out[:, cols] = out[:, cols].sum(axis=1, keepdims=True) / len(cols)
    return out


def model_weight(model_accuracy: float) -> float:
    """The model's weight beside the profile, from how many of the enrolled crops the model
    reads right by itself: none up to a coin toss (on such a deck its guesses mislead),
    rising to 2 where it reads 85% or more (then it still knows what a number looks like
    better than one photo of each tile shows). Starting at 35% instead helped the previous
    cards model (+2.2 points) but cost the retrained one 11 points (81.3% -> 70.4%)."""
    return float(np.clip((model_accuracy - 0.5) / 0.35 * 2.0, 0.0, 2.0))


def model_reads(
    labels: Sequence[str], probs: NDArray[Any], model_names: Sequence[str], floor: float = 0.01
) -> dict[str, dict[str, float]]:
    """{card: {model label: mean probability}} over each card's crops (``probs``: one row
    per label in ``labels``, over ``model_names`` without ``none``), small shares left out."""
    out: dict[str, dict[str, float]] = {}
    lab = np.asarray(labels)
    for card in dict.fromkeys(labels):
        mean = np.asarray(probs, np.float64)[lab == card].mean(axis=0)
        mean = mean / max(float(mean.sum()), 1e-9)
        out[card] = {
            model_names[int(j)]: round(float(mean[j]), 4) for j in np.nonzero(mean >= floor)[0]
        }
    return out


def remove_deck(game: str, deck: str, root: str | Path | None = None) -> Path:
    """Delete a stored profile; :class:`EnrolError` when there is none."""
    path = profile_path(game, deck, root)
    if not path.is_file():
        raise EnrolError(f"no enrolled deck {deck!r} for {game} (looked in {path})")
    path.with_suffix(".npy").unlink(missing_ok=True)
    path.with_suffix(".faces.npy").unlink(missing_ok=True)
    path.unlink()
    return path


def profile_path(game: str, deck: str, root: str | Path | None = None) -> Path:
    return data_dir(root) / "decks" / check_name("game", game) / f"{check_name('deck', deck)}.json"


def list_decks(game: str, root: str | Path | None = None) -> list[str]:
    folder = data_dir(root) / "decks" / check_name("game", game)
    return sorted(p.stem for p in folder.glob("*.json")) if folder.is_dir() else []


@dataclass(frozen=True)
class EnrolReport:
    expected: int
    found: int
    problems: list[str]

    @property
    def complete(self) -> bool:
        return not self.problems

    def to_json(self) -> dict[str, Any]:
        return {
            "expected": self.expected,
            "found": self.found,
            "complete": self.complete,
            "problems": self.problems,
        }


def check_layout(
    order: Sequence[str], found_per_view: Sequence[int], predicted: Sequence[str] | None = None
) -> EnrolReport:
    """Is what was photographed the whole deck, once, in order? ``predicted`` (the model's own
    reads, where confident) catches a swapped or missing card that a count cannot."""
    total = sum(found_per_view)
    problems = []
    if total < len(order):
        nxt = order[total] if total < len(order) else ""
        problems.append(
            f"found {total} cards but the deck has {len(order)}: the layout stops before "
            f"{nxt!r} (card {total + 1}); lay out the rest and capture again"
        )
    elif total > len(order):
        problems.append(
            f"found {total} cards but the deck has {len(order)}: remove the extra "
            f"{total - len(order)} (or clear anything card-like off the table)"
        )
    if predicted is not None and total == len(order):
        for pos, (want, got) in enumerate(zip(order, predicted, strict=True)):
            if got and got != want:
                problems.append(
                    f"card {pos + 1} should be {want} but reads as {got}: is the layout in "
                    "notation order?"
                )
    return EnrolReport(len(order), total, problems)


def enrol(
    game: str,
    deck: str,
    model: str,
    order: Sequence[str],
    crops_per_view: Sequence[NDArray[np.uint8]],
    embed: Embed,
) -> tuple[DeckProfile, EnrolReport]:
    """Build a profile from crops already in reading order (``crops_per_view``: one batch
    N x h x w x 3 per photo). Refuses an incomplete layout: a profile missing a card would
    read that card as its nearest neighbour, silently."""
    report = check_layout(order, [len(c) for c in crops_per_view])
    if not report.complete:
        raise EnrolError("; ".join(report.problems))
    crops = np.concatenate([c for c in crops_per_view if len(c)], axis=0)
    emb = np.asarray(embed(crops), np.float32)
    return DeckProfile(game, deck, model, list(order), emb), report


def ink_colour(crops: NDArray[np.uint8]) -> NDArray[np.float32]:
    """N x 2: the colour of each crop's ink against its paper, (a*, b*) in CIELAB over 40:
    the median of the darkest :data:`INK_SHARE` of the crop's middle less the median of its
    lightest two fifths, with the crop first scaled so its paper's grey is
    :data:`PAPER_LEVEL`. A colour cast of the light moves paper and ink alike, so it mostly
    cancels (black ink reads as the paper's own colour turned round, the same on every card
    of a deck); dim light shrinks them both toward grey, which the scaling undoes."""
    import cv2

    n, h, w = crops.shape[:3]
    if n == 0:
        return np.zeros((0, 2), np.float32)
    middle = crops[:, h // 10 : h - h // 10, w // 6 : w - w // 6]
    rows, cols = middle.shape[1:3]
    m = rows * cols
    lightest, darkest = max(1, 2 * m // 5), max(1, int(m * INK_SHARE))
    flat = np.ascontiguousarray(middle).reshape(n, m, 3)
    # Partitions, not sorts: only which pixels are among the lightest or darkest matters. The
    # paper's pixels, picked once, give both its grey and (scaled) its colour; the ink's are
    # picked by lightness, as a red stroke is darker to the eye than its channels' sum says.
    # Keys in float32 as ever (ties fall alike); medians of each channel laid out in a row
    # (a median is the middle of its values however they are found, and halves of sums of
    # bytes are exact in any float).
    planes = np.ascontiguousarray(flat.transpose(0, 2, 1))
    key = planes.sum(axis=1, dtype=np.float32)
    light = np.argpartition(key, m - lightest, axis=1)[:, m - lightest :]
    paper_grey = _median_at(planes, light).mean(1)
    scaled = flat * (PAPER_LEVEL / np.maximum(paper_grey, 8.0))[:, None, None]
    bgr = np.clip(scaled, 0, 255).astype(np.uint8).reshape(n * rows, cols, 3)
    lab = cv2.cvtColor(bgr, cv2.COLOR_BGR2LAB).reshape(n, m, 3)
    dark = np.argpartition(lab[:, :, 0].astype(np.float32), darkest - 1, axis=1)[:, :darkest]
    ab = np.ascontiguousarray(lab[:, :, 1:].transpose(0, 2, 1))
    ink, paper = _median_at(ab, dark), _median_at(ab, light)
    return np.asarray((ink - paper) / 40.0, np.float32)


def _median_at(planes: NDArray[np.uint8], at: NDArray[Any]) -> NDArray[np.float32]:
    """N x C: each plane's median over the pixels ``at`` (N x k) of ``planes`` (N x C x m)."""
    picked = np.take_along_axis(planes, at[:, None, :], axis=2)
    return np.asarray(np.median(picked, axis=2), np.float32)


def pixel_embed(crops: NDArray[np.uint8], size: tuple[int, int] = (12, 16)) -> NDArray[np.float32]:
    """A model-free embedding: the crop shrunk to ``size`` in Lab, each crop standardised.
    The baseline a recogniser's embedding must beat, and a stand-in for tests."""
    import cv2

    out = []
    for c in crops:
        small = cv2.resize(c, size, interpolation=cv2.INTER_AREA)
        lab = cv2.cvtColor(small, cv2.COLOR_BGR2LAB).astype(np.float32)
        lab -= lab.mean(axis=(0, 1), keepdims=True)
        lab /= lab.std() + 1.0
        out.append(lab.ravel())
    return np.asarray(out, np.float32)
