"""One image in, the objects on the table out: detect → crop → recognise → resolve overlaps.

:class:`TableReader` is what the CLI, the benchmark and later the live referee use. It keeps
its ONNX sessions warm (one inference at start-up) and times each stage of every read.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

import cv2
import numpy as np
import numpy.typing as npt

from vision import (
    art_words,
    card_mates,
    card_pips,
    card_size,
    detect_cards,
    detect_tiles,
    doubtful_reads,
    glare_look,
    ink_frames,
    joker_faces,
    overlaps,
    proposal_gate,
    tile_rows,
    tile_size,
    turn_marks,
    word_frames,
)
from vision.crops import crops, reframed, scaled
from vision.grouping import group_sets
from vision.labels import NONE
from vision.recognise import LOW_CONFIDENCE, MODELS, ModelError, Read, Recogniser, model_id

if TYPE_CHECKING:
    from vision.enroll import DeckProfile

Game = Literal["rummikub", "cards", "allin", "fourcolor", "cactus"]
GAMES: tuple[Game, ...] = ("rummikub", "cards", "allin", "fourcolor", "cactus")
# Games whose recogniser is named after the game and whose reading lives in vision.read_fcc.
_OWN_READER = ("fourcolor", "cactus")
Image = npt.NDArray[Any]
PROFILE_NONE_GATE = 0.5  # with a deck profile: a crop is an object when the model's none < this
# With a deck profile whose gate doubts a crop: the model's own read still makes it an object
# when the model reads this deck at all (weight above 0), names the crop at least MODEL_SURE
# with none at most MODEL_SURE_NONE, and the profile names the same card. On some enrolment
# captures the calibrated gate sat high and turned away tiles the model read at 0.9 with none
# 0.00. Development seeds apart from the bench's (20 scenes, two layouts each; right / spurious):
# Rummikub layouts 11-12 968 / 14 -> 979 / 22 of 1106, 13-14 770 / 5 -> 804 / 4 of 940, 15-16
# 820 / 10 -> 838 / 6 of 996; standard deck 203 / 14 -> 205 / 17 and 172 / 79 -> 173 / 49, All In
# 195 / 16 -> 195 / 18 and 166 / 30 -> 167 / 19. 0.9 / 0.02 gained a third as much; 0.7 / 0.1
# read one more with 11 more spurious. Such a read ranks under every read the gate passed.
MODEL_SURE = 0.8
MODEL_SURE_NONE = 0.05
# A word index (a joker's "Joker", overlaps.WORD_LABELS) looks like no rank and suit in any
# deck, so the model's sure read of one vouches even on a deck it does not read (weight 0):
# there the gate turned away jokers the model read X at 0.97-1.0 with none 0.00-0.02 (dev
# print 27, scene 61 017), their crops a little nearer clutter cut from the word than the
# enrolled word. One-print dev decks enrolled once, standard deck, right / spurious without
# -> with: prints 21-30 (scenes 61 000+20) 1175 / 35 -> 1177 / 35 of 1211, prints 31-40
# (61 200+20) 1283 / 32 -> 1286 / 34 of 1355 (X missed 5 -> 0 there). Vouching for any card
# the model read right on its enrolled crops (mean 0.8 or more) changed nothing; at 0.6, 4
# more spurious reads.
WORDS_VOUCHED = True


def model_vouches(
    probs: npt.NDArray[Any], weight: float, names: Sequence[str] = ()
) -> npt.NDArray[np.bool_]:
    """Per crop (``probs``: the model's probabilities over ``names``, ``none`` last), whether
    the model alone is sure it is an object (:data:`MODEL_SURE`, :data:`MODEL_SURE_NONE`),
    for a deck it reads at all (``weight``, the profile's model weight, above 0), or, given
    ``names``, naming a word index (:data:`WORDS_VOUCHED`)."""
    sure = (probs[:, :-1].max(axis=1) >= MODEL_SURE) & (probs[:, -1] <= MODEL_SURE_NONE)
    reads = np.full(len(probs), weight > 0)
    if names and WORDS_VOUCHED:
        word = np.array([n in overlaps.WORD_LABELS for n in names[:-1]], bool)
        reads |= word[probs[:, :-1].argmax(axis=1)]
    return np.asarray(sure & reads, bool)


# A proposal the gate turned away (proposal_gate): read as nothing, looked at in no view.
TURNED_AWAY = Read(NONE, 1.0, [], 1.0, looks=0)
# Kinds whose proposals pass the gate before a deck profile reads them too. The gate was kept
# off profile reads lest an unseen deck's index look like nothing to it, but it passes them:
# one-print development card decks (standard and All In; `python -m vision.enrol_misses cards
# allin --prints ...`, five sets, 7633 indices) read 7256 / 127 right / spurious with and
# without it, every print's misses alike, with a fifth of the crops read (20 scenes of print
# 204 read twice, median ms: the read 180.6 -> 124.7, its recognise stage 131.9 -> 57.3).
# Rummikub prints 21-26 read 2992 / 38 without it and 2980 / 37 with the tiles' gate, so
# tiles are read whole (models/LIMITS.md, 2026-12-07).
PROFILE_GATED = ("cards",)
# Kinds whose profile names only the crops that may be objects (the object margin above 0, the
# model vouching, or a card left out of the enrolment): no read of a card deck uses what a
# nothing's alternatives say, and naming (ink colour, shape features) was a fifth of an
# enrolled card read. Tiles name every crop: agreeing framings read the nothings' names.
NAMED_ONLY = ("cards",)
HALF_TURN_BELOW = 0.7  # cards: crops with a none score below this are also read upside down
REFRAME_NONE_BELOW = 0.15  # cards: a doubtful read (under REFRAME_BELOW) with a none score
# below this is reframed
# Cards: every read about to be kept is read again in these frames (scale about its centre).
CARD_VERIFY = (1.3, 0.8)
# With a profile, of overlapping reads the one most like an enrolled card (its similarity to
# the nearest) is kept, plus this much of how surely the profile names it: a frame shifted
# onto a neighbour or a card's edge can lie a hundredth nearer some enrolled card while it
# names none surely (dev print 28, scene 61 008: 5D at 0.38, similarity 0.974, beat 5C at
# 0.97, 0.969). One-print dev decks enrolled once from layout 7, right / spurious, 0 -> 0.15:
# standard deck prints 21-30 (scenes 61 000+20) 1177 / 36 -> 1180 / 38 of 1211, prints 31-40
# (61 200+20) 1286 / 35 -> 1296 / 27 of 1355; All In prints 21-30 1159 / 18 -> 1162 / 15 of
# 1215; Rummikub prints 21-26 (62 000+10) 1443 / 5 either way (tiles rank by it too). On
# prints 21-30, 0.05 read 1177 / 39, 0.3 1180 / 40 and 0.6 1181 / 39. The bench's one-print
# decks on one machine, 0 -> 0.15: standard deck 773 / 39 -> 773 / 38, All In 761 / 27 ->
# 764 / 27, Rummikub 2974 / 66 -> 2977 / 67.
RANK_NAMED = 0.15
# Cards: overlap resolution and verification alternate at most this often (a read that
# verification takes back frees the reads it suppressed; see TableReader._resolve_cards).
# Resolution also runs again on the verified ranks until every read it keeps is verified: a
# read that won its place on its first look (0.95, a frame around more than the index) and
# that verification leaves at 0.64 no longer hides a neighbour that verifies at 0.83 (before,
# it did whenever no read was taken back). Dev fold (dev-out model of the shipped recipe,
# 2026-11-25 night): 389 -> 393 of 432 right, spurious 33 -> 29; fresh generated scenes (100
# each), standard deck 590 / 13 -> 591 / 11 (seeds 70 000+) and 608 / 13 -> 607 / 12 (71 000+),
# All In 612 / 3 either way (71 000+) and 606 / 5 -> 607 / 4 (70 000+). 5 rounds read as 3.
VERIFY_ROUNDS = 3
# Cards, read-time costs (the model costs the same per crop, so fewer crops is faster). Measured
# on the dev fold of the training photos with a model of the shipped recipe trained without it,
# against the reader before (373 of 432 right, 40 spurious, 388 crops per photo): a crop is
# also read upside down when its none score is under FIRST_SURE_NONE (0.7 before), a reframed
# one under REFRAME_SURE_NONE (0.7 before); a proposal is reframed when its read is under
# REFRAME_BELOW (0.9 before); a kept read at least VERIFY_SURE with none at most
# VERIFY_SURE_NONE is not verified (all were before). Together: 373 right, 28 spurious, 332
# crops per photo (lower still lost right reads: FIRST_SURE_NONE 0.3 one, REFRAME_SURE_NONE 0
# nine, REFRAME_BELOW 0.7 one).
# On 60 fresh generated scenes per deck: the same right reads, spurious 19 -> 13 and 6 -> 3.
FIRST_SURE_NONE = 0.4
# Tiles read a little under the floor, looked at again (Reader._look_again). Fresh generated
# tables (seeds 90 000+250, 95 000+250, 80 000+80): 6410 -> 6412 (spurious 5 -> 4), 6251 ->
# 6252 (9 -> 9), 2055 either way (1); the bench's 40 tables 1059 -> 1060 of 1065; the real
# photos the same (1498 of 1522 with 3 spurious, 450 of 451 with none). From 0.2 read the same.
TILE_LOOKS = (0.92, 1.08)  # frames (of the first frame's size) a read is looked at again in
TILE_LOOK_FROM = 0.3  # ...from this confidence up to the floor
REFRAME_SURE_NONE = 0.2
REFRAME_BELOW = 0.75
VERIFY_SURE = 0.95
VERIFY_SURE_NONE = 0.02
# Cards: a read that verification leaves under the floor is still kept when every framing
# says it is surely an index (none at most VERIFY_KEEP_NONE) of the same card at least
# VERIFY_KEEP_CONFIDENCE: the rank is clear and the suit is in doubt (4C 0.46, 4S 0.27, 4D 0.14),
# which the read's alternatives say. Court art and pips read as an index, which verification
# is for, gain a none score in the other framings. Dev fold (20-epoch dev-out model): 396 -> 398
# of 432 right, spurious 13 -> 13; fresh generated scenes (seeds 70 000+ and 71 000+, 100 each):
# standard deck 586 -> 590 and 605 -> 608 of 640 and 629 right, spurious 12 -> 13 and 11 -> 12;
# All In 606 of 640 either way, spurious 4 -> 5. None at most 0.02 added spurious reads.
VERIFY_KEEP_NONE = 0.01
VERIFY_KEEP_CONFIDENCE = 0.45
# Cards: small indices are looked for once more (detect_cards.fine_card_quads) when the first reads
# say the indices on this table are small: their median frame is under FINE_BELOW px tall at
# the detector's working size, or nothing was read. Fresh generated tables, 100 a set, right
# without -> with: All In 613 -> 621 of 635 (seeds 3 500 000+, chosen on), 641 -> 651 of 683
# (3 800 000+), 582 -> 583 of 601 (4 000 000+); standard deck 603 -> 608 of 637 (3 600 000+,
# chosen on), 640 -> 640 of 667 (3 900 000+), 654 -> 662 of 682 (4 100 000+); spurious 12 -> 14
# in all. Always looking finer read 2 more on the first two sets, and 4 more of the real dev
# fold's 432 (upscaled: those photos are 640 px), for ~30 ms a photo; with the trigger the dev
# fold reads the same 396, looks finer at 5 of its 106 photos, and the held-out photos' median
# time moves by 1.5 ms (paired), 40 generated All In tables' by 11.5 ms.
FINE_BELOW = 36.0
# Cards: the confidence floor. Measured on the dev fold of the training photos (a cards model
# of an earlier recipe, dev fold left out): floor 0.5 read 381 of 432 with 65 spurious, 0.6
# 375 with 36, 0.7 362 with 24. Checked again with the 20-epoch recipe (2026-11-25): 0.55 read
# 383 with 16, 0.6 381 with 10, 0.65 378 with 10, 0.7 372 with 9.
CARD_MIN_CONFIDENCE = 0.6
# Cards: two reads clash when their frames overlap by more than this (intersection over union;
# overlaps.suppress, 0.3 for tiles). Indices never overlap one another, even fanned, while a
# frame across two of them, or around an index and the pip beside it, does. Dev fold (6-epoch
# dev-out model): 0.3 read 365 of 432 right with 30 spurious, 0.2 365 with 27, 0.15 365 with
# 25, 0.1 365 with 26; on 60 fresh generated scenes per deck 0.2 took the standard deck's
# spurious reads from 13 to 7, All In's stayed 6, with the same right reads. With the 20-epoch
# dev-out model: 0.3 381 with 19, 0.2 381 with 10, 0.15 381 with 9. With the reader of
# 2026-11-26 (either-centre repeats, word parts), 0.2 -> 0.15: dev fold 393 / 20 -> 392 / 19,
# the training split (shipped model) 1499 / 93 -> 1499 / 80, 500 fresh generated scenes
# (standard deck seeds 70 000+, 72 000+, 74 000+; All In 71 000+, 73 000+) 3044 / 25 -> 3044 / 18.
CARD_CLASH_IOU = 0.15
# Cards: the floor for a word index (overlaps.WORD_LABELS, the joker's "Joker"), which any
# printed word on the table resembles (a logo, a keyboard's print, a box). On the dev fold
# (dev-out model) all 8 jokers read right were at 0.996 or more, while 5 of the 10 other joker
# reads were under 0.9. Generated jokers read less surely: on 60 fresh scenes of the standard
# deck (seeds 50 000+) the floor lost one right read (0.84) and dropped one spurious one (0.82).
WORD_MIN_CONFIDENCE = 0.9
# A word read under that floor is kept where the same word is read, with at least this, where a
# joker's other corner word lies (card_mates.word_mates): a logo seldom prints twice so. On 400
# development tables (standard deck, seeds 18 000 000+) 2522 / 23 -> 2525 / 23 of 2580 at 0.6
# (2523 / 23 at 0.7); seeds 18 100 000+ (400, of 2528) 2467 / 19, the real dev fold 404 / 23
# and the training split 1512 / 68 the same. None: off.
WORD_PAIR_LEAST: float | None = 0.6
# Cards with a deck profile: the cards whose index an enrolled deck may print as a word spelt
# down the corner, as it may its joker's (the rune card's "RUNE"), besides overlaps.WORD_LABELS.
# Their reads' frames are carried along the word (vision.word_frames) and joined as the joker's
# are. Without a profile nothing is carried, and the rune is no word (the trained All In deck
# prints it as an R): carrying the trained decks' joker reads too read 300 fresh generated
# standard-deck tables (seeds 22 000 000+) 1795 / 16 -> 1783 / 28 (right / spurious) and the
# real training photos 1507 / 64 -> 1503 / 68.
ENROLLED_WORDS = frozenset({"R"})
# Cards without a profile: a joker's word read in the middle of a card whose two corner
# indices read surely as one card is dropped as that card's art (vision.art_words). Right /
# spurious, off -> on (2026-12-07): the real dev fold read by two development draws that never
# trained on it 413 / 13 -> 413 / 9 and 414 / 12 -> 414 / 9 (each of the 7 dropped a joker read
# on a king's or queen's robe); the real training photos with the shipped models 1556 / 27
# either way, with two other full draws 1556 / 32 -> 1556 / 31 and 1559 / 23 either way;
# 1200 development tables (standard deck 18 000 000+, 18 100 000+, 18 300 000+) the same.
ART_WORDS = True
# Cards: a read whose frame is over CARD_OVERSIZE times as wide (its shorter side) as the
# median of the photo's reads above the floor frames no index, however sure the model is of
# it: a whole card read as a joker at 0.85 (seed 20 300 002, its frame eight indices wide)
# won the overlap with a real index. Against the median of a photo's other kept reads (600
# generated tables drawn without the Liberation fonts, and the real training split), right
# reads were at most 2.52 times as wide and the six over 2.7 times were all spurious. Only
# where at least CARD_OVERSIZE_AMONG reads give the median. None: off. With a profile too (its
# reads are the ones its gate took for objects): an unseen deck's crop a third of the photo
# wide, over two cards, passed the gate and was read KC at 0.3. One-print dev decks (prints
# 21-42, scenes 61 000+20), standard deck 2515 / 108 -> 2515 / 103 of 2649.
CARD_OVERSIZE: float | None = 3.0
CARD_OVERSIZE_AMONG = 5
# A proposal vouched for by its card's other index (card_mates) is kept unless it overlaps a
# kept read by more than CARD_CLASH_IOU, or a joker's word frame (a long frame that reaches
# over its neighbours' indices in a fan) by more than this.
MATE_CLASH_IOU = 0.3
# The ranks a joker's word's letters are read as (its J; o and k as a queen and a king): such
# a read inside a kept, surer word read is a letter, not an index for card_mates to add back.
WORD_LETTER_RANKS = ("J", "Q", "K")
# Two doubtful reads at one card's two corners that together name it are kept
# (card_mates.pair_up) once read again in the verify framings. Unverified, it was +8 right
# and +4 spurious on 400 standard-deck development tables (seeds 18 000 000+) and +2
# spurious on the real dev fold; verified: 2518 / 23 -> 2522 / 23 of 2580 and 404 / 23 the
# same of 432; All In (seeds 18 000 000+ and 18 100 000+) 2573 / 13 the same and 2481 / 12 ->
# 2483 / 12. Tried twice before without verifying (models/LIMITS.md, 2026-11-28): a court
# card's artwork is printed twice, half-turned, so a false index in it lies where its mate
# would.
PAIRS = True
# (width, height, shift along the height): narrower (an index squashed by a photo's resizing),
# and twice as tall shifted down or up (a rank or a suit framed alone).
CARD_REFRAMES: tuple[tuple[float, float, float], ...] = (
    (0.55, 1.0, 0.0),
    (1.0, 2.0, 0.5),
    (1.0, 2.0, -0.5),
)


class ImageError(ValueError):
    """A file that is missing or is not a readable image."""


@dataclass(frozen=True)
class Found:
    label: str
    confidence: float
    quad: npt.NDArray[np.float32]
    alternatives: list[tuple[str, float]]

    def to_json(self) -> dict[str, Any]:
        alts = self.alternatives if self.confidence < LOW_CONFIDENCE else []
        return {
            "label": self.label,
            "confidence": round(self.confidence, 4),
            "quad": [[round(float(x), 1), round(float(y), 1)] for x, y in self.quad],
            "alternatives": [{"label": a, "confidence": round(c, 4)} for a, c in alts],
        }


@dataclass
class Reading:
    objects: list[Found]
    sets: list[list[str]] | None = None  # Rummikub sets; Four Color exposed melds
    timings: dict[str, float] = field(default_factory=dict)  # milliseconds per stage
    game: str = ""

    def to_json(self, image: str) -> dict[str, Any]:
        out: dict[str, Any] = {"image": image, "objects": [o.to_json() for o in self.objects]}
        if self.game == "fourcolor":
            out["melds"] = [list(s) for s in self.sets or []]
        elif self.sets is not None:
            out["sets"] = [" ".join(s) for s in self.sets]
        return out

    def only(self, keep: Sequence[int]) -> Reading:
        """The reading of some of its objects (indices into ``objects``): sets and melds are
        grouped again from those objects alone, so none names an object left out (``tableref
        read --zone``: a set straddling the zone's edge shows its part inside)."""
        objects = [self.objects[i] for i in keep]
        sets = self.sets
        if self.game == "fourcolor":
            from vision.read_fcc import exposed_melds

            sets = exposed_melds(objects)
        elif self.sets is not None:
            sets = group_sets(objects)
        return Reading(objects, sets, dict(self.timings), self.game)


def _taken_back(first: Read, verified: Read, floor: float) -> bool:
    """Whether verification takes a card read back (see VERIFY_KEEP_NONE)."""
    if verified.label == NONE:
        return True
    if verified.confidence >= floor:
        return False
    return not (
        verified.label == first.label
        and verified.p_none <= VERIFY_KEEP_NONE
        and verified.confidence >= VERIFY_KEEP_CONFIDENCE
    )


# Cards: a photo taken in dim light (its 99th percentile of grey under EXPOSE_BELOW: the card
# faces themselves are dim) is brightened so that level reaches EXPOSE_TO, at most EXPOSE_MOST
# times. Red print on a card face of grey 60 stood 21-25 above it, under the ink masks' fixed
# floor of 28, and gave no proposal. Gated on the 99th percentile, not the 90th: on a dark
# table the 90th is the table's, and brightening to it clipped the white cards (the 90th
# gated at 120 lost 30 of 1908 generated indices). Right / spurious before -> after: real
# training photos (shipped model) 1494 / 80 -> 1497 / 78 of 1603; fresh generated tables, 300
# a set, standard deck 1853 / 19 -> 1855 / 19 (seeds 5 100 000+, chosen on) and 1775 / 24 ->
# 1778 / 23 (5 300 000+), All In 1817 / 7 -> 1817 / 8 (5 200 000+) and 1840 / 11 -> 1842 / 11
# (5 400 000+).
EXPOSE_BELOW = 140.0
EXPOSE_TO = 200.0
EXPOSE_MOST = 4.0


def exposed(image: Image) -> Image:
    """``image`` brightened when it was taken in dim light (:data:`EXPOSE_BELOW`)."""
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    level = float(np.percentile(grey[::4, ::4], 99))
    if level >= EXPOSE_BELOW:
        return image
    return cv2.convertScaleAbs(image, alpha=min(EXPOSE_MOST, EXPOSE_TO / max(level, 1.0)))


def _sized_alike(reads: list[Read]) -> list[str]:
    """Labels for :func:`overlaps.prefer_typical` over card reads: a word index (a joker's
    "Joker") is framed at its word's length, not at the photo's index size, so each word
    read is a label of its own and is never ranked by its size."""
    return [f"#{k}" if r.label in overlaps.WORD_LABELS else r.label for k, r in enumerate(reads)]


def _index_sized(quads: Sequence[npt.NDArray[np.float32]], keep: list[int]) -> list[int]:
    """``keep`` without the reads framed far wider than the photo's reads are
    (:data:`CARD_OVERSIZE`)."""
    if CARD_OVERSIZE is None or len(keep) < CARD_OVERSIZE_AMONG:
        return keep
    widths = [overlaps.short_side(quads[i]) for i in keep]
    most = CARD_OVERSIZE * float(np.median(widths))
    return [i for i, w in zip(keep, widths, strict=True) if w <= most]


def _nothing(read: Read) -> Read:
    """``read`` taken back: it names nothing, with what it saw kept as its alternatives."""
    return replace(read, label=NONE, confidence=read.p_none)


def load_image(path: Path) -> Image:
    """Decode an image file; :class:`ImageError` names the file when it cannot."""
    if not path.exists():
        raise ImageError(f"image {path} does not exist")
    if not path.is_file():
        raise ImageError(f"{path} is not a file")
    data = np.fromfile(str(path), np.uint8)
    image = cv2.imdecode(data, cv2.IMREAD_COLOR) if data.size else None
    if image is None:
        raise ImageError(f"{path} is not a readable image")
    return image


def first_proposals(
    kind: str,
    image: Image,
    bare: bool = True,
    ink_floor: float | None = None,
    faces: Sequence[npt.NDArray[np.float32]] | None = None,
) -> tuple[Image, list[npt.NDArray[np.float32]]]:
    """The image as the reader sees it (card photos :func:`exposed`) and the detector's first
    proposals there, before any later look. ``bare``, ``ink_floor``: see
    :func:`detect_cards.card_candidates`; ``faces``: see :func:`detect_tiles.tile_candidates`."""
    if kind == "cards":
        image = exposed(image)
        return image, detect_cards.card_candidates(image, bare=bare, ink_floor=ink_floor)
    return image, detect_tiles.tile_candidates(image, faces=faces)


class TableReader:
    """Reads one game's objects; the recogniser is chosen by the game."""

    def __init__(
        self,
        game: Game,
        models: Path = MODELS,
        min_confidence: float | None = None,
        deck: DeckProfile | str | None = None,
        data_dir: Path | None = None,
        reframes: tuple[tuple[float, float, float], ...] | None = None,
        verify: tuple[float, ...] | None = None,
        fine: bool | None = None,
        glare: bool | None = None,
        mates: bool | None = None,
        pips: bool | None = None,
        tile_sizes: bool | None = None,
        card_sizes: bool | None = None,
        ink_frames: bool | None = None,
        gate: bool | None = None,
        gate_from: Path | None = None,
    ) -> None:
        if game not in GAMES:
            raise ValueError(f"unknown game {game!r}: expected one of {', '.join(GAMES)}")
        self.game = game
        self.kind: str
        if game in _OWN_READER:
            self.kind = game
        else:
            self.kind = "tiles" if game == "rummikub" else "cards"
        self.deck = "rummikub" if game == "rummikub" else game
        self.recogniser = Recogniser.named(self.kind, models)
        # The floor under which a read is dropped: 0.5, or CARD_MIN_CONFIDENCE for the card
        # decks read without a profile (a profile's reads keep 0.5 for its own gate).
        self.min_confidence = 0.5 if min_confidence is None else min_confidence
        if min_confidence is not None:
            self.read_floor = min_confidence
        else:
            self.read_floor = CARD_MIN_CONFIDENCE if self.kind == "cards" else 0.5
        # Cards (None: the defaults, CARD_REFRAMES and CARD_VERIFY; () turns a step off; and
        # ``fine``: whether small indices are looked for once more, FINE_BELOW).
        cards = self.kind == "cards"
        self.reframes = (CARD_REFRAMES if cards else ()) if reframes is None else reframes
        self.verify = (CARD_VERIFY if cards else ()) if verify is None else verify
        self.fine = cards if fine is None else fine
        self.glare = cards if glare is None else glare  # glare_look: washed-out indices
        self.mates = cards if mates is None else mates  # card_mates.vouch
        self.pips = game == "cards" if pips is None else pips  # card_pips: standard deck
        # The pips' own recogniser: from ``models`` where it holds one, else the shipped one
        # (a folder of card models under trial need not hold it).
        self.pip_recogniser: Recogniser | None = None
        if self.pips:
            pip_models = models if (models / "pips.onnx").is_file() else MODELS
            self.pip_recogniser = Recogniser.named("pips", pip_models)
        # tile_size: a tile framed far smaller than its neighbours takes their size.
        self.tile_sizes = self.kind == "tiles" if tile_sizes is None else tile_sizes
        # card_size: an index framed far larger or narrower than its neighbours is read
        # again at their size.
        self.card_sizes = cards if card_sizes is None else card_sizes
        # ink_frames: an index printed narrow is framed across its ink.
        self.ink_frames = cards if ink_frames is None else ink_frames
        # proposal_gate: a proposal is read only where the gate taught by this very
        # recogniser expects an object in it (a folder of models under trial may hold none,
        # or one another recogniser taught: then every proposal is read). ``gate_from`` names
        # a folder whose gate stands in front of this recogniser whatever taught it: a draw
        # under trial is measured with the shipped gate where it has none of its own.
        self.gate: proposal_gate.Gate | None = None
        if self.kind in proposal_gate.KINDS and (gate is None or gate):
            found = proposal_gate.Gate.named(self.kind, models if gate_from is None else gate_from)
            if found is None and gate_from is not None:
                raise ModelError(
                    f"no {proposal_gate.gate_name(self.kind)} files in {gate_from} to read with"
                )
            if found is not None and (gate_from is not None or found.taught(self.recogniser.path)):
                self.gate = found
        w, h = self.recogniser.spec.crop
        # Warm-up: the first inference and OpenCV's first colour conversions are slow.
        self.recogniser.run(np.zeros((1, h, w, 3), np.uint8))
        detect_tiles.tile_candidates(np.full((64, 64, 3), 128, np.uint8))
        self.profile: DeckProfile | None = None
        if deck is not None:
            self.use_deck(deck, data_dir)

    @property
    def ink_floor(self) -> float | None:
        """The ink level card proposals are also looked for at
        (:func:`detect_cards.card_ink_masks`): :data:`detect_cards.ENROLLED_INK_FLOOR` for a
        card deck read with its profile, else none."""
        if self.kind == "cards" and self.profile is not None:
            return detect_cards.ENROLLED_INK_FLOOR
        return None

    def use_deck(self, deck: DeckProfile | str, data_dir: Path | None = None) -> None:
        """Read with an enrolled deck (a profile, or the name it is stored under): the model
        still decides what is an object, the nearest enrolled card says which one."""
        from vision.enroll import DeckProfile, EnrolError

        profile = (
            deck if isinstance(deck, DeckProfile) else DeckProfile.load(self.game, deck, data_dir)
        )
        if profile.game != self.game:
            raise EnrolError(
                f"deck {profile.deck!r} was enrolled for {profile.game}, not {self.game}"
            )
        if profile.model != model_id(self.recogniser.path):
            raise EnrolError(
                f"deck {profile.deck!r} was enrolled with another {self.kind} model "
                f"({profile.model}); enrol it again: `tableref enroll --game {self.game} "
                f"--deck {profile.deck}`"
            )
        self.profile = profile

    def _recognise(self, batch: Image, name_all: bool = False) -> list[Read]:
        """Reads of ``batch``: only of the crops the proposals' gate passes, where it stands
        (:attr:`gated`); the rest :data:`TURNED_AWAY`. ``name_all``: see
        :meth:`_read_every`."""
        if not self.gated:
            return self._read_every(batch, name_all)
        assert self.gate is not None
        reads = [TURNED_AWAY] * len(batch)
        worth = self.gate.worth_reading(batch)
        if len(worth):
            read = self._read_every(np.ascontiguousarray(batch[worth]), name_all)
            for k, r in zip(worth.tolist(), read, strict=True):
                reads[k] = r
        return reads

    @property
    def gated(self) -> bool:
        """Whether the proposals' gate stands in front of the reads: a reader with a gate
        (its recogniser's, or the one ``gate_from`` named), and no deck profile or one of a
        kind in :data:`PROFILE_GATED`."""
        return self.gate is not None and (self.profile is None or self.kind in PROFILE_GATED)

    def _read_every(self, batch: Image, name_all: bool = False) -> list[Read]:
        """Reads of every crop of ``batch``, by the model alone or with the deck profile. A
        card deck's profile names only the crops that may be objects (:data:`NAMED_ONLY`): the
        rest read as nothing without alternatives, unless ``name_all`` (what a miss's
        diagnosis asks: which card the profile would have named)."""
        if self.profile is None:
            return self._classify(batch)
        logits, emb, shapes = self.recogniser.describe(batch)
        probs, model_names = self.recogniser.probabilities(logits, self.deck)
        if self.kind == "cards" and len(batch):
            # As the plain reader does: the none score of a crop that may be an index is
            # taken over both views of it.
            again = np.nonzero(probs[:, -1] < HALF_TURN_BELOW)[0]
            if len(again):
                turned, _ = self.recogniser.run(np.ascontiguousarray(batch[again, ::-1, ::-1]))
                logits[again] = (logits[again] + turned) / 2
                probs, model_names = self.recogniser.probabilities(logits, self.deck)
        from vision.enroll import INK_CHROMA, colour_blind, ink_colour

        log_p = np.log(probs + 1e-6)
        index = {n: i for i, n in enumerate(model_names)}
        weight = self.profile.model_weight
        best = probs[:, :-1].max(axis=1)
        own = (best >= probs[:, -1]) & (best >= self.min_confidence)
        own_label = [model_names[int(i)] for i in probs[:, :-1].argmax(axis=1)]
        vouched = model_vouches(probs, weight, model_names)
        # A partly enrolled deck: the cards left out are the model's to name.
        left_out = set(model_names[:-1]) - set(self.profile.labels)
        gate = self.profile.object_margin(emb, probs[:, -1])
        rows: npt.NDArray[np.intp] | None = None  # the crops the profile names; None: all
        if self.kind in NAMED_ONLY and gate is not None and not name_all:
            maybe = (gate[0] > 0) | vouched | (own & np.isin(own_label, sorted(left_out)))
            rows = np.flatnonzero(maybe)

        def named_only(a: npt.NDArray[Any]) -> npt.NDArray[Any]:
            return a if rows is None else a[rows]

        inks = None if self.profile.inks is None else ink_colour(named_only(batch))

        def prior(names: list[str]) -> npt.NDArray[Any]:
            assert self.profile is not None
            if self.profile.model_reads:
                evidence = named_only(probs)
                if self.kind == "tiles" and inks is not None:
                    coloured = np.linalg.norm(inks, axis=1)[:, None] >= INK_CHROMA
                    evidence = np.where(coloured, colour_blind(evidence, model_names), evidence)
                return weight * self.profile.model_prior(evidence, model_names, names)
            cols = [index.get(n, len(model_names) - 1) for n in names]
            return np.asarray(weight * named_only(log_p)[:, cols], np.float32)

        named = self.profile.classify(
            named_only(emb),
            prior=prior if weight else None,
            cards_only=gate is not None,
            inks=inks,
            shapes=None if shapes is None else named_only(shapes),
        )
        if rows is not None:
            unnamed: tuple[str, float, list[tuple[str, float]]] = (NONE, 0.0, [])
            every = [unnamed] * len(batch)
            for k, n in zip(rows.tolist(), named, strict=True):
                every[k] = n
            named = every
        reads = []
        for k, (label, conf, alts) in enumerate(named):
            p_none = float(probs[k, -1])
            alts = [a for a in alts if a[0] != NONE]
            if own[k] and own_label[k] in left_out:
                reads.append(Read(own_label[k], float(best[k]), alts, p_none))
            elif gate is not None:
                # The enrolment photo's clutter is the profile's idea of nothing: a crop is an
                # object when it is clearly nearer an enrolled card than any clutter (measured:
                # the model's none gate alone misses whole suits of a deck it never saw, and
                # passes clutter the profile then names).
                margin, card = gate
                if margin[k] > 0:
                    reads.append(Read(label, conf, alts, p_none, float(card[k])))
                elif vouched[k] and label == own_label[k]:
                    reads.append(Read(label, conf, alts, p_none, 0.0))
                else:
                    reads.append(Read(NONE, p_none, alts, p_none))
            # Without clutter examples: whether a crop is anything at all is the model's call
            # (it saw every kind of clutter), which card it is the profile's. Where the model
            # cannot read this deck (weight 0) its probability spreads over the labels, so
            # only its none score counts; where it can, it must also find the object as it
            # would alone.
            elif p_none >= PROFILE_NONE_GATE or label == NONE or (weight and not own[k]):
                reads.append(Read(NONE, p_none, alts, p_none))
            else:
                # Of overlapping tiles, the one the model itself is surest of is the best
                # framed (measured: ranking by the profile's confidence lost 1.7 points).
                reads.append(Read(label, conf, alts, p_none, float(best[k])))
        return reads

    def _classify(self, batch: Image) -> list[Read]:
        """Plain reads: cards both views of each index (a 6 over its suit is a 9 under it);
        measured on the training photos and fresh synthetic scenes it reads more right, fewer
        spurious."""
        return self.recogniser.classify(
            batch, self.deck, half_turn=self.kind == "cards", sure_none=FIRST_SURE_NONE
        )

    @property
    def floor(self) -> float:
        """The confidence under which a first read is dropped: with a profile the model's none
        gate has decided already, and a doubtful identity is still an object (it comes with
        its alternatives)."""
        return self.read_floor if self.profile is None else 0.0

    def _small_indices(
        self, image: Image, quads: list[npt.NDArray[np.float32]], reads: list[Read]
    ) -> bool:
        """Cards: whether the indices read so far are small (see :data:`FINE_BELOW`)."""
        heights = [
            float(np.linalg.norm(quads[i][3] - quads[i][0]))
            for i, r in enumerate(reads)
            if r.label != NONE and r.confidence >= self.floor
        ]
        if not heights:
            return True
        working = min(1.0, detect_cards.CARD_WORK_SIDE / max(image.shape[:2]))
        return bool(float(np.median(heights)) * working < FINE_BELOW)

    def _look_finer(
        self,
        image: Image,
        quads: list[npt.NDArray[np.float32]],
        reads: list[Read],
        spent: dict[str, float],
    ) -> tuple[list[npt.NDArray[np.float32]], list[Read]]:
        """Cards: two more looks for indices the first proposals missed, each adding the
        proposals that repeat none of those before, read. Where the first reads are small
        (:meth:`_small_indices`; unless ``fine`` is off), the small indices' proposals
        (:func:`detect_cards.fine_card_quads`); where glare clipped the paper of a photo larger than
        the working size (unless ``glare`` is off), the proposals found at its own size
        (:func:`glare_look.proposals`, never in faint ink). ``spent`` gets the seconds their
        detection and cropping took. Tiles: ``quads`` and ``reads`` as they are."""
        if self.kind != "cards":
            return quads, reads
        if self.fine and self._small_indices(image, quads, reads):
            t0 = time.perf_counter()
            more = detect_cards.fine_card_quads(image, ink_floor=self.ink_floor)
            quads, reads = self._read_more(
                image, quads, reads, more, t0, spent, detect_cards.FINE_CAP
            )
        if self.glare:
            t0 = time.perf_counter()
            widths = [
                overlaps.short_side(q) for q, r in zip(quads, reads, strict=True) if r.label != NONE
            ]
            more = glare_look.proposals(image, widths)
            quads, reads = self._read_more(image, quads, reads, more, t0, spent)
        return quads, reads

    def _read_more(
        self,
        image: Image,
        quads: list[npt.NDArray[np.float32]],
        reads: list[Read],
        more: list[npt.NDArray[np.float32]],
        since: float,
        spent: dict[str, float],
        cap: int | None = None,
    ) -> tuple[list[npt.NDArray[np.float32]], list[Read]]:
        """``quads`` and ``reads`` with the proposals ``more`` that repeat none of them (at most
        ``cap``) and their reads added. ``spent`` gets the seconds since ``since`` (finding
        ``more``) and those the cropping took."""
        new = overlaps.distinct([*quads, *more], start=len(quads))[len(quads) :][:cap]
        t1 = time.perf_counter()
        batch = crops(image, new, self.recogniser.spec.crop)
        spent["detect"] = spent.get("detect", 0.0) + t1 - since
        spent["crop"] = spent.get("crop", 0.0) + time.perf_counter() - t1
        return [*quads, *new], [*reads, *(self._recognise(batch) if new else [])]

    def _in_row_gaps(
        self, image: Image, objects: list[Found], spent: dict[str, float]
    ) -> list[Found]:
        """Tiles where a row of the tiles read leaves room for one (:func:`tile_rows.row_gaps`),
        read there and kept where the recogniser names a tile over the floor; ``spent`` gets
        the seconds their cropping and recognition took."""
        h, w = image.shape[:2]
        places = [
            q
            for q in tile_rows.row_gaps([o.quad for o in objects])
            if 0 <= float(q[:, 0].mean()) < w and 0 <= float(q[:, 1].mean()) < h
        ]
        if not places:
            return []
        t0 = time.perf_counter()
        batch = crops(image, places, self.recogniser.spec.crop)
        t1 = time.perf_counter()
        reads = self._recognise(batch)
        spent["late_crop"] += t1 - t0
        spent["late_recognise"] += time.perf_counter() - t1
        return [
            Found(r.label, r.confidence, q, r.alternatives)
            for q, r in zip(places, reads, strict=True)
            if r.label != NONE
            and r.confidence >= self.floor
            and not any(overlaps.quad_iou(q, o.quad) > 0.3 for o in objects)
        ]

    def _to_index_size(
        self, image: Image, objects: list[Found], spent: dict[str, float]
    ) -> list[Found]:
        """Cards: each index framed far off its neighbours' size read again at their size,
        and moved to the surest such frame that names the same card (:mod:`card_size`);
        ``spent`` gets the seconds the looks' cropping and recognition took. Word indices
        (a joker's) are framed along their word and neither looked at nor counted."""
        printed = [k for k, o in enumerate(objects) if o.label not in overlaps.WORD_LABELS]
        jobs = card_size.looks([objects[k].quad for k in printed])
        if not jobs:
            return objects
        t0 = time.perf_counter()
        batch = crops(image, [q for _, qs in jobs for q in qs], self.recogniser.spec.crop)
        t1 = time.perf_counter()
        reads = self.recogniser.classify(batch, self.deck, half_turn=True)
        spent["late_crop"] += t1 - t0
        spent["late_recognise"] += time.perf_counter() - t1
        moved = card_size.chosen(
            [objects[k].label for k in printed],
            jobs,
            [(r.label, r.confidence) for r in reads],
            self.floor,
        )
        out = list(objects)
        for j, quad in moved.items():
            out[printed[j]] = self._fitted_to_ink(image, replace(out[printed[j]], quad=quad))
        return out

    def _fitted_to_ink(self, image: Image, found: Found) -> Found:
        """Cards: ``found`` framed across its index's ink where that is narrow
        (:mod:`ink_frames`); a word index (a joker's) is framed along its word already."""
        if not self.ink_frames or found.label in overlaps.WORD_LABELS:
            return found
        return replace(found, quad=ink_frames.fitted(image, found.quad))

    def _reframe(
        self, image: Image, quads: list[npt.NDArray[np.float32]], reads: list[Read]
    ) -> tuple[list[npt.NDArray[np.float32]], list[Read]]:
        """Cards: a proposal the model thinks may be an index but cannot name surely is also
        read in other frames (:attr:`reframes`: a narrower one for indices squashed by a
        photo's resizing, a taller one shifted either way for a rank or suit framed alone);
        each is one more proposal, for overlap resolution to choose from."""
        idx = [
            i
            for i, r in enumerate(reads)
            if r.p_none < REFRAME_NONE_BELOW and (r.label == NONE or r.confidence < REFRAME_BELOW)
        ]
        if not idx:
            return quads, reads
        jobs = [(i, f) for i in idx for f in self.reframes]  # (source proposal, frame)
        more = [reframed(quads[i], *f) for i, f in jobs]
        extra = self.recogniser.classify(
            crops(image, more, self.recogniser.spec.crop),
            self.deck,
            half_turn=True,
            sure_none=REFRAME_SURE_NONE,
        )
        # A narrower frame of a 10 cuts its second digit, and the 1 left over its suit reads
        # as a 7 (0.8-0.96 on generated tables, where the first frame read the 10 at 0.4-0.75):
        # a 10 framed narrower names a 10 or nothing. Fresh generated tables, 300 a set, right
        # before -> after: standard deck 1851 -> 1853 of 1908 (seeds 5 100 000+) and 1772 ->
        # 1775 of 1860 (5 300 000+), All In 1813 -> 1817 of 1853 (5 200 000+) and 1837 -> 1840
        # of 1907 (5 400 000+); spurious the same in each; the real held-out photos the same.
        # (Framing a two-digit rank's pair square to its digits as well added nothing more.)
        extra = [
            _nothing(r)
            if f[0] < 1.0 and reads[i].label.startswith("10") and not r.label.startswith("10")
            else r
            for (i, f), r in zip(jobs, extra, strict=True)
        ]
        return [*quads, *more], [*reads, *extra]

    def _look_again(
        self,
        image: Image,
        quads: list[npt.NDArray[np.float32]],
        reads: list[Read],
        floor: float,
    ) -> list[Read]:
        """Tiles: a read naming a tile a little under the floor is looked at again in frames
        a little smaller and larger (:data:`TILE_LOOKS`), all views' logits averaged, as
        cards are verified: a tile framed a little off reads about as well in each, a pattern
        that looks like a number in one frame seldom does in the others."""
        todo = [
            i
            for i, r in enumerate(reads)
            if r.label != NONE and TILE_LOOK_FROM <= r.confidence < floor
        ]
        if not todo:
            return reads
        at = [quads[i] for i in todo]
        size = self.recogniser.spec.crop

        def views(idx: npt.NDArray[np.int64]) -> list[npt.NDArray[Any]]:
            return [crops(image, [scaled(at[int(k)], f) for k in idx], size) for f in TILE_LOOKS]

        again = self.recogniser.classify(
            crops(image, at, size), self.deck, sure_none=2.0, views=views
        )
        out = list(reads)
        for i, r in zip(todo, again, strict=True):
            out[i] = r
        return out

    def _verify(
        self, image: Image, quads: list[npt.NDArray[np.float32]], reads: list[Read], idx: list[int]
    ) -> list[Read]:
        """Cards: every read that would be kept is read again in the :attr:`verify` framings
        (scaled about its centre), both ways up, all views' logits averaged: a real index
        reads the same in a slightly larger or smaller frame, a pattern that looks like one
        in one frame seldom does. The first frame's logits come with the read (it was looked
        at both ways up already), so only the new framings are run, in one batch."""
        todo = [
            i
            for i in idx
            if not (reads[i].confidence >= VERIFY_SURE and reads[i].p_none <= VERIFY_SURE_NONE)
        ]
        if not todo:
            return list(reads)
        size = self.recogniser.spec.crop
        if any(reads[i].logits is None for i in todo):
            first = crops(image, [quads[i] for i in todo], size)
            known = self.recogniser.classify(first, self.deck, half_turn=True, sure_none=2.0)
        else:
            known = [reads[i] for i in todo]
        views = [crops(image, [scaled(quads[i], f) for i in todo], size) for f in self.verify]
        views += [np.ascontiguousarray(v[:, ::-1, ::-1]) for v in views]
        more, _ = self.recogniser.run(np.concatenate(views))
        k = len(todo)
        looks = np.array([r.looks for r in known], np.int64)
        total = np.stack([r.logits for r in known if r.logits is not None]) * looks[:, None]
        total = total + sum(more[v * k : (v + 1) * k] for v in range(len(views)))
        looks = looks + len(views)
        again = self.recogniser.reads((total / looks[:, None]).astype(np.float32), self.deck, looks)
        out = list(reads)
        for k, i in enumerate(todo):
            out[i] = again[k]
        return out

    def _resolve_cards(
        self,
        image: Image,
        quads: list[npt.NDArray[np.float32]],
        reads: list[Read],
        keep: list[int],
        ranks: list[float],
        floor: float,
    ) -> tuple[list[int], list[Read]]:
        """Cards: which of the reads in ``keep`` stay (positions in ``keep``). Overlap
        resolution, then verification (:meth:`_verify`) of the reads it kept. Resolution
        runs again on the verified ranks, without the reads verification took back, and the
        reads it keeps that are not verified yet are verified in turn, until it keeps only
        verified reads (at most ``VERIFY_ROUNDS`` times; then the verified reads alone are
        resolved). Returns the kept positions and the reads as verified."""
        ranks = list(ranks)
        live = list(range(len(keep)))  # positions in keep still in the running

        def resolved(among: list[int]) -> list[int]:
            framed = [quads[keep[j]] for j in among]
            rk = [ranks[j] for j in among]
            # One index read in two frames, about as surely (5H at 0.94 in a frame around the
            # 5 and half its heart, 0.89 around both): the frame at the photo's index size is
            # the index's own. Fresh generated tables, 100 a set, right / spurious: standard
            # deck 606 / 8 -> 610 / 4 (seeds 12 000 000+), 592 / 6 and 638 / 9 either way
            # (12 200 000+, 12 400 000+); All In 623 / 3 and 615 / 1 either way
            # (12 100 000+, 12 300 000+); the real training split 1500 / 75 -> 1505 / 68 of
            # 1603. Either frame holding the other's centre: a 2c read 0.97 in its own frame
            # lost to one twice as tall (seed 12 700 046); fresh tables, 100 a set, All In
            # 621 / 7 -> 622 / 6 (12 700 000+) and 597 / 1 either way (12 900 000+), standard
            # deck 607 / 6 and 639 / 9 either way (12 600 000+, 12 800 000+), the real
            # training split 1505 / 68 -> 1505 / 67.
            # With a profile too, where a rank is the nearest enrolled card's similarity: an
            # unseen deck's JH read in a frame around its J alone outranked the index's own
            # frame, read JH as well (a miss and a spurious read). One-print dev decks
            # (prints 21-42, scenes 61 000+20), right / spurious: standard deck 2515 / 108
            # -> 2534 / 79 of 2649, All In 2497 / 59 -> 2499 / 55 of 2659; TYPICAL_CLOSE
            # 0.03 / 0.1 / 0.2 in similarity instead of 0.06 read prints 21-30 alike (1164 /
            # 1163 / 1162 against 1162 of 1211; All In 1142 / 1139 / 1139 against 1142).
            rk = overlaps.prefer_typical(
                framed, _sized_alike([reads[keep[j]] for j in among]), rk, either=True
            )
            sub = overlaps.suppress(
                framed,
                rk,
                iou=CARD_CLASH_IOU,
                shaped=True,
            )
            chosen = [among[k] for k in sub]
            # Measured on fresh generated scenes: a third of the spurious card reads were an
            # index read a second time in a frame of another size.
            again = overlaps.drop_repeats(
                [quads[keep[j]] for j in chosen],
                [reads[keep[j]].label for j in chosen],
                [rk[k] for k in sub],
            )
            return [chosen[k] for k in again]

        if not self.verify or self.profile is not None:
            return resolved(live), reads
        verified: set[int] = set()
        for _ in range(VERIFY_ROUNDS):
            chosen = resolved(live)
            todo = [j for j in chosen if j not in verified]
            if not todo:
                return chosen, reads
            # Only the reads that overlap resolution kept: a few per photo, not dozens.
            first = reads
            reads = self._verify(image, quads, reads, [keep[j] for j in todo])
            verified.update(todo)
            for j in todo:
                ranks[j] = self._rank(reads[keep[j]])
            live = [
                j
                for j in live
                if j not in todo or not _taken_back(first[keep[j]], reads[keep[j]], floor)
            ]
        return resolved([j for j in live if j in verified]), reads

    def _join_words(
        self,
        image: Image,
        quads: list[npt.NDArray[np.float32]],
        reads: list[Read],
        keep: list[int],
        chosen: list[int],
    ) -> tuple[list[int], list[npt.NDArray[np.float32]]]:
        """Cards: the reads of one word index (a joker's "Joker") joined into one
        (:func:`overlaps.join_words`), and without a profile, those under
        WORD_MIN_CONFIDENCE dropped; then a word's letters read as an index, and a "word"
        around several indices, dropped (:func:`overlaps.word_parts`)."""
        at = [keep[j] for j in chosen]
        words = overlaps.WORD_LABELS
        quads = list(quads)
        if self.profile is not None:
            words = words | ENROLLED_WORDS
            for i in at:
                if reads[i].label in words:
                    quads[i] = word_frames.along_word(image, quads[i])
        kept, frames = overlaps.join_words(
            [quads[i] for i in at],
            [reads[i].label for i in at],
            [reads[i].confidence for i in at],
            words,
        )
        for k, frame in frames.items():
            quads[at[k]] = frame
        chosen = [chosen[k] for k in kept]
        if self.profile is None:
            # After joining: the parts of a word frame it, however unsure each one is.
            paired = self._word_pairs(
                [quads[keep[j]] for j in chosen], [reads[keep[j]] for j in chosen]
            )
            chosen = [
                j
                for n, j in enumerate(chosen)
                if reads[keep[j]].label not in overlaps.WORD_LABELS
                or reads[keep[j]].confidence >= WORD_MIN_CONFIDENCE
                or n in paired
            ]
        at = [keep[j] for j in chosen]
        parts = overlaps.word_parts(
            [quads[i] for i in at],
            [reads[i].label for i in at],
            [reads[i].confidence for i in at],
            words,
        )
        return [chosen[k] for k in parts], quads

    @staticmethod
    def _word_pairs(quads: list[npt.NDArray[np.float32]], reads: list[Read]) -> set[int]:
        """Which doubtful word reads (WORD_PAIR_LEAST up to the word floor) have another read
        of the same word, with at least WORD_PAIR_LEAST, where the card's other corner word
        lies (:func:`card_mates.word_mates`)."""
        if WORD_PAIR_LEAST is None:
            return set()
        doubtful = [
            n
            for n, r in enumerate(reads)
            if r.label in overlaps.WORD_LABELS
            and WORD_PAIR_LEAST <= r.confidence < WORD_MIN_CONFIDENCE
        ]
        if not doubtful:
            return set()
        words = [
            n
            for n, r in enumerate(reads)
            if r.label in overlaps.WORD_LABELS and r.confidence >= WORD_PAIR_LEAST
        ]
        out = set()
        for n in doubtful:
            for m in words:
                if (
                    m != n
                    and reads[m].label == reads[n].label
                    and card_mates.word_mates(quads[n], quads[m])
                ):
                    out.add(n)
        return out

    def _probs(self, logits: npt.NDArray[np.float32]) -> tuple[npt.NDArray[np.float32], list[str]]:
        return self.recogniser.probabilities(logits, self.deck)

    @staticmethod
    def _mate_clash(
        quads: list[npt.NDArray[np.float32]], reads: list[Read]
    ) -> Callable[[int, int], bool]:
        """Whether proposal ``k`` overlaps kept read ``kept`` too much to be kept beside it, or
        is a letter of that kept, surer word read (as :func:`overlaps.word_parts` drops them)."""

        def clashes(k: int, kept: int) -> bool:
            if reads[kept].label not in overlaps.WORD_LABELS:
                return overlaps.quad_iou(quads[k], quads[kept]) > CARD_CLASH_IOU
            # A red "Joker" printed at both corners: its two J's, half-turned a card apart,
            # were paired back as a jack of hearts read twice (card_mates.pair_up) after
            # word_parts had dropped them as letters. Only ranks a letter of the word reads
            # as: a neighbour's 5H inside a generated joker's frame was an index.
            letter = (
                reads[k].label[:-1] in WORD_LETTER_RANKS
                and reads[k].confidence < reads[kept].confidence
                and overlaps.centre_within(quads[k], quads[kept])
            )
            return letter or overlaps.quad_iou(quads[k], quads[kept]) > MATE_CLASH_IOU

        return clashes

    def _vouch(
        self, quads: list[npt.NDArray[np.float32]], reads: list[Read], at: list[int]
    ) -> tuple[list[int], list[Read]]:
        """Cards: the kept reads (``at``) and the proposals their cards' other corner indices
        vouch for (:func:`card_mates.vouch`)."""
        clashes = self._mate_clash(quads, reads)
        return card_mates.vouch(quads, reads, at, self._probs, clashes, overlaps.WORD_LABELS)

    def _pair_up(
        self,
        image: Image,
        quads: list[npt.NDArray[np.float32]],
        reads: list[Read],
        at: list[int],
        floor: float,
    ) -> tuple[list[int], list[Read]]:
        """Cards: the kept reads (``at``) and pairs of doubtful reads at one card's two
        corners that together name it (:func:`card_mates.pair_up`), each pair found read
        again in the :attr:`verify` framings first: a pattern that looks like an index in one
        frame seldom does in the others."""
        clashes = self._mate_clash(quads, reads)
        words = overlaps.WORD_LABELS
        paired, _ = card_mates.pair_up(quads, reads, at, self._probs, clashes, floor, words)
        if len(paired) == len(at):
            return paired, reads
        added = set(paired[len(at) :])
        verified = self._verify(image, quads, reads, sorted(added))
        return card_mates.pair_up(quads, verified, at, self._probs, clashes, floor, words, added)

    def _suit_from_pips(
        self, image: Image, quads: list[npt.NDArray[np.float32]], reads: list[Read], at: list[int]
    ) -> list[Read]:
        """Standard deck: a kept read whose suit the index leaves in doubt (under
        :data:`card_pips.PIP_LOOK_BELOW`) takes the other suit of its colour where its card's
        pips, read by the pip recogniser, outweigh the index (:func:`card_pips.pip_suit`);
        the pips are read in one batch, both ways up."""
        pipper = self.pip_recogniser
        if pipper is None:
            return reads
        looks = []
        placed = card_mates.Frames([quads[i] for i in at])
        for n, i in enumerate(at):
            r = reads[i]
            if r.logits is None or card_pips.other_suit(r.label) is None:
                continue
            p, names = self.recogniser.probabilities(r.logits[None], self.deck)
            if max(card_pips.suit_shares(p[0], names).values()) >= card_pips.PIP_LOOK_BELOW:
                continue
            # Other kept reads, but not this card's own other index.
            mate = placed.mates_of(n)
            others = [quads[j] for m, j in enumerate(at) if j != i and not mate[m]]
            squares = card_pips.pip_squares(card_pips.pip_frames(image, quads[i], others))
            if squares:
                looks.append((i, p[0], names, squares))
        if not looks:
            return reads
        batch = crops(image, [q for *_, squares in looks for q in squares], pipper.spec.crop)
        logits, _ = pipper.run(np.concatenate([batch, batch[:, ::-1, ::-1]]))
        probs, suits = pipper.probabilities(
            ((logits[: len(batch)] + logits[len(batch) :]) / 2).astype(np.float32), "cards"
        )
        out = list(reads)
        start = 0
        for i, p, names, squares in looks:
            pips = card_pips.pip_shares(probs[start : start + len(squares)], suits)
            start += len(squares)
            old = reads[i].label
            new = old[:-1] + str(card_pips.other_suit(old))
            if new not in names:
                continue
            p_old, p_new = float(p[names.index(old)]), float(p[names.index(new)])
            if card_pips.pip_suit(old, p_old, p_new, pips) is None:
                continue
            conf = card_pips.redivided(p_old, p_new, pips, old[-1], new[-1])
            rest = [a for a in reads[i].alternatives if a[0] not in (old, new)]
            out[i] = replace(
                reads[i],
                label=new,
                confidence=conf,
                alternatives=[(new, conf), (old, p_old + p_new - conf), *rest][:3],
            )
        return out

    def _rank(self, read: Read) -> float:
        """Which of two clashing proposals wins: the surer read (with a profile, the surer
        both that it is an object and which card it is)."""
        if self.profile is None:
            return read.confidence
        if read.overlap_rank is not None:
            # The best-framed of overlapping proposals: with clutter examples, the one most
            # like an enrolled card (measured: names more of the found cards right than the
            # softmax confidence), a surer name counting a little (RANK_NAMED); without, the
            # one the model is surest of.
            return read.overlap_rank + RANK_NAMED * read.confidence
        return read.confidence * (1.0 - read.p_none)

    def _turned_twins(
        self, image: Image, objects: list[Found], mark: tuple[float, float]
    ) -> list[Found]:
        """A 6 and a 9 read for each other put right by the deck's bar (turn_marks): the
        label and its twin trade places in the alternatives too."""
        assert self.profile is not None
        labels = turn_marks.turned_labels(
            image, [o.label for o in objects], [o.quad for o in objects], mark, self.profile.cards
        )
        out = []
        for o, label in zip(objects, labels, strict=True):
            if label != o.label:
                swap = {label: o.label, o.label: label}
                o = replace(
                    o, label=label, alternatives=[(swap.get(a, a), p) for a, p in o.alternatives]
                )
            out.append(o)
        return out

    def read(self, image: Image) -> Reading:
        if self.game in _OWN_READER:
            from vision import read_fcc

            own = read_fcc.read_fourcolor if self.game == "fourcolor" else read_fcc.read_cactus
            return own(image, self.recogniser, self.min_confidence)
        t0 = time.perf_counter()
        # An enrolled tile deck's jokers are looked for on the tile faces the detector finds
        # anyway: found once for both (a median 3.9 ms a read saved; None: no joker look).
        on_table = (
            detect_tiles.tile_faces(image)
            if self.kind == "tiles" and self.profile is not None and self.profile.faces is not None
            else None
        )
        image, quads = first_proposals(self.kind, image, ink_floor=self.ink_floor, faces=on_table)
        t1 = time.perf_counter()
        batch = crops(image, quads, self.recogniser.spec.crop)
        t2 = time.perf_counter()
        reads = self._recognise(batch)
        floor = self.floor
        # Seconds the later steps spent detecting, cropping and recognising, booked to those
        # stages rather than to the stage whose window they ran in.
        spent = {"detect": 0.0, "crop": 0.0, "late_crop": 0.0, "late_recognise": 0.0}
        quads, reads = self._look_finer(image, quads, reads, spent)
        if self.kind == "cards" and self.profile is None and self.reframes:
            quads, reads = self._reframe(image, quads, reads)
        if self.kind == "tiles" and self.profile is None and TILE_LOOKS:
            reads = self._look_again(image, quads, reads, floor)
        if self.kind == "tiles" and self.profile is not None:
            reads = doubtful_reads.agreeing_framings(quads, reads, self.profile.agreeable)
        keep = [i for i, r in enumerate(reads) if r.label != NONE and r.confidence >= floor]
        if self.kind == "cards":
            keep = _index_sized(quads, keep)
        t3 = time.perf_counter()
        ranks = [self._rank(reads[i]) for i in keep]
        if self.kind == "tiles":
            ranks = overlaps.prefer_whole(
                [quads[i] for i in keep], [reads[i].label for i in keep], ranks
            )
            ranks = overlaps.prefer_typical(
                [quads[i] for i in keep], [reads[i].label for i in keep], ranks
            )
        if self.kind == "cards":
            chosen, reads = self._resolve_cards(image, quads, reads, keep, ranks, floor)
            chosen, quads = self._join_words(image, quads, reads, keep, chosen)
        else:
            chosen = overlaps.suppress([quads[i] for i in keep], ranks, nested=self.kind == "tiles")
            # Ranks with a profile are its own measure, not the model's confidence that
            # reseat's thresholds are set on.
            if self.kind == "tiles" and self.profile is None:
                chosen = overlaps.reseat(
                    [quads[i] for i in keep], [reads[i].label for i in keep], ranks, chosen
                )
        at = [keep[j] for j in chosen]
        if self.kind == "cards" and self.profile is None and self.mates:
            at, reads = self._vouch(quads, reads, at)
        if self.kind == "cards" and self.profile is None and self.mates and PAIRS:
            at, reads = self._pair_up(image, quads, reads, at, floor)
        if self.kind == "cards" and self.profile is None and self.pips:
            reads = self._suit_from_pips(image, quads, reads, at)
        objects = [
            Found(reads[i].label, reads[i].confidence, quads[i], reads[i].alternatives) for i in at
        ]
        if self.kind == "tiles":
            objects += self._in_row_gaps(image, objects, spent)
        # Frames are fitted to their ink before the neighbours' index size is taken, and a
        # frame that look moves is fitted again: taken from unfitted frames, a narrow-font
        # deck's size is the proposals' 0.62-wide shape, so its fitted indices looked like
        # slivers and were widened over the next card's pip. Until 2026-12-07 they were
        # fitted after. Right / spurious, before -> after: the real dev fold (438) read by
        # five development draws that never trained on it, 2048 / 61 -> 2053 / 56 in all;
        # the real training photos with the shipped models 1553 / 30 -> 1556 / 27 (float
        # files 1555 / 32 -> 1558 / 29); 2000 development tables (standard deck 18 000 000+,
        # 18 100 000+, 18 300 000+; All In 18 000 000+, 18 100 000+; 400 each) the same.
        if self.kind == "cards":
            objects = [self._fitted_to_ink(image, o) for o in objects]
        if self.kind == "cards" and self.profile is None and self.card_sizes:
            objects = self._to_index_size(image, objects, spent)
        if self.kind == "cards" and self.profile is None and ART_WORDS:
            art = art_words.on_art(
                [o.quad for o in objects],
                [o.label for o in objects],
                [o.confidence for o in objects],
                overlaps.WORD_LABELS,
            )
            objects = [o for o, card in zip(objects, art, strict=True) if card is None]
        if self.kind == "tiles" and self.profile is not None and self.profile.mark is not None:
            objects = self._turned_twins(image, objects, self.profile.mark)
        if on_table is not None:
            assert self.profile is not None and self.profile.faces is not None
            found = joker_faces.jokers(
                image,
                [o.quad for o in objects],
                self.profile.faces,
                self.profile.face_labels,
                on_table,
            )
            faces = [quad for *_, quad in found]
            objects = [o for o in objects if not any(joker_faces.within(o.quad, f) for f in faces)]
            objects += [Found(label, p, quad, alts) for label, p, alts, quad in found]
        if self.kind == "tiles" and self.tile_sizes:
            sized = tile_size.to_neighbours_size([o.quad for o in objects])
            objects = [replace(o, quad=q) for o, q in zip(objects, sized, strict=True)]
        objects.sort(key=lambda o: (float(o.quad[:, 1].mean()), float(o.quad[:, 0].mean())))
        t4 = time.perf_counter()
        sets = group_sets(objects) if self.kind == "tiles" else None
        t5 = time.perf_counter()
        late = spent["late_crop"] + spent["late_recognise"]
        ms = {
            "detect": t1 - t0 + spent["detect"],
            "crop": t2 - t1 + spent["crop"] + spent["late_crop"],
            "recognise": t3 - t2 - spent["detect"] - spent["crop"] + spent["late_recognise"],
            "resolve": t4 - t3 - late,
            "group": t5 - t4,
        }
        timings = {k: round(v * 1000, 2) for k, v in ms.items()}
        timings["candidates"] = float(len(quads))
        return Reading(objects, sets, timings)
