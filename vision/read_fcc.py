"""Reading Four Color and Cactus tables with their ONNX recognisers (``TableReader("fourcolor")``
and ``TableReader("cactus")`` call these).

* **Four Color**: proposals are squares around characters (:mod:`vision.detect_fourcolor`),
  read in their four turns; a card's two printed ends are paired, each card's whole quad is
  drawn from its character (its length from the distance between its two ends where both show,
  else from the character's size), and the cards lying in rows are grouped into exposed melds
  (:mod:`vision.fourcolor_read`, :mod:`vision.melds`).
* **Cactus**: proposals are name bands, found from the paper a card's outline encloses or as
  colourful bars (:mod:`vision.detect_cactus`); each band is read upright, and the card it
  names is drawn around it. On a discard pile the top card reads whole; a card under it counts
  when its name shows.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from vision import detect_cactus, detect_fourcolor
from vision.crops import crops
from vision.fourcolor_read import meld_groups, read_cards
from vision.labels import NONE
from vision.overlaps import quad_iou
from vision.reader import Found, Reading
from vision.recognise import Read, Recogniser

Image = npt.NDArray[Any]
Quad = npt.NDArray[np.float64]


# A Four Color card is looked at many times (four turns of every proposal, then square to its
# strokes, then beside every find), so a chance read of something that is no character is
# likelier than for one look: a character counts from this confidence. Chosen on generated
# tables of seeds 600000-600023 (training fonts) and 610000-610011 (held-out fonts), not the
# benchmark's: right / spurious 98.4% / 1.6% and 91.6% / 3.4% at 0.55, 97.7% / 1.2% and
# 92.2% / 2.0% at 0.65, 96.9% / 1.2% and 87.7% / 2.2% at 0.75.
CHARACTER_CONFIDENCE = 0.65
# A read this sure is a lead: looked at again (square to its strokes, turned a little) and kept
# when a closer look reaches CHARACTER_CONFIDENCE (a fanned character, turned against its
# proposal, often reads 0.4-0.6 as first framed).
LEAD_CONFIDENCE = 0.35
# ... and a lead counts from this confidence (the best of a dozen looks is surer by chance than
# one look). Chosen on fresh tables (seeds 900000-39 training fonts, 911000-39 held-out fonts):
# right / spurious 444 / 9 and 432 / 10 at 0.65, 446 / 4 and 432 / 8 at 0.8, 445 / 4 and
# 433 / 6 at 0.85, 444 / 2 and 431 / 6 at 0.9.
LEAD_BAR = 0.85


def _ms(stamps: list[float], names: tuple[str, ...]) -> dict[str, float]:
    return {n: round((b - a) * 1000, 2) for n, a, b in zip(names, stamps, stamps[1:], strict=False)}


def _found(label: str, confidence: float, quad: Quad, alts: list[tuple[str, float]]) -> Found:
    return Found(label, confidence, np.asarray(quad, np.float32), alts)


def exposed_melds(objects: list[Found]) -> list[list[str]]:
    """Whole-card reads grouped into exposed melds (:func:`vision.fourcolor_read.meld_groups`)."""
    groups = meld_groups([o.quad.astype(np.float64) for o in objects], [o.label for o in objects])
    return [[objects[i].label for i in m] for m in groups]


class _Classifier:
    """The recogniser as :mod:`vision.fourcolor_read` wants it, timing crops and inference."""

    def __init__(self, rec: Recogniser, deck: str, min_confidence: float) -> None:
        self.rec, self.deck, self.min_confidence = rec, deck, min_confidence
        self.crop_s = self.recognise_s = 0.0

    def __call__(self, image: Image, quads: Sequence[Quad]) -> list[tuple[Any, ...]]:
        t0 = time.perf_counter()
        batch = crops(image, [np.asarray(q, np.float32) for q in quads], self.rec.spec.crop)
        t1 = time.perf_counter()
        reads = self.rec.classify(batch, self.deck)
        self.crop_s += t1 - t0
        self.recognise_s += time.perf_counter() - t1
        return [
            (r.label if r.confidence >= self.min_confidence else NONE, r.confidence, r.alternatives)
            for r in reads
        ]


def distinct_squares(quads: Sequence[Quad]) -> list[Quad]:
    """The proposals less the near copies of one already kept (centre within 4% of its side,
    side within 5%, turned within 3° modulo 90): the proposers often find one character
    several ways, and each proposal costs four recogniser looks. About a third of a table's
    proposals are such copies."""
    if not quads:
        return []
    q = np.asarray(quads, np.float64)
    centre = q.mean(axis=1)
    edge = q[:, 1] - q[:, 0]
    side = np.linalg.norm(edge, axis=1)
    turn = np.degrees(np.arctan2(edge[:, 1], edge[:, 0])) % 90.0
    kept: list[int] = []
    for i in range(len(q)):
        if kept:
            k = np.asarray(kept)
            dturn = np.abs(turn[k] - turn[i])
            copy = (
                (np.linalg.norm(centre[k] - centre[i], axis=1) < 0.04 * side[k])
                & (np.abs(side[i] / side[k] - 1) < 0.05)
                & (np.minimum(dturn, 90.0 - dturn) < 3.0)
            )
            if copy.any():
                continue
        kept.append(i)
    return [quads[i] for i in kept]


def read_fourcolor(image: Image, rec: Recogniser, min_confidence: float) -> Reading:
    t0 = time.perf_counter()
    found = detect_fourcolor.candidates(image)
    proposals = distinct_squares(found)
    t1 = time.perf_counter()
    classify = _Classifier(rec, "fourcolor", LEAD_CONFIDENCE)
    confirm = max(min_confidence, CHARACTER_CONFIDENCE)
    cards = read_cards(image, classify, proposals, confirm, max(confirm, LEAD_BAR))
    objects = [_found(r.label, r.confidence, q, list(r.alternatives)) for r, q in cards]
    t2 = time.perf_counter()
    sets = exposed_melds(objects)
    t3 = time.perf_counter()
    timings = {
        "detect": round((t1 - t0) * 1000, 2),
        "crop": round(classify.crop_s * 1000, 2),
        "recognise": round(classify.recognise_s * 1000, 2),
        "resolve": round((t2 - t1 - classify.crop_s - classify.recognise_s) * 1000, 2),
        "group": round((t3 - t2) * 1000, 2),
        "candidates": float(len(found)),
        "distinct": float(len(proposals)),
    }
    return Reading(objects, sets, timings, game="fourcolor")


def _card_of(
    i: int,
    hyps: list[tuple[Quad, list[Quad]]],
    reads: list[Read],
    bands32: list[npt.NDArray[np.float32]],
    keep: list[int],
    runs_down: Callable[[Quad], float],
    name_at_top: bool | None = None,
) -> Quad:
    """The card a read band belongs to. Hypotheses that know their card (a band on the
    paper of a card's body, or beside a straight paper edge) and read the same band the same
    way outvote a bare colourful bar, which may lie at either end of its card; for a bare bar
    the deck's layout (``name_at_top``, from the table's other cards: one deck prints every
    name at the same end) says which way the card runs, else ``runs_down`` (the card's coloured
    outline and paper: evidence that the card lies below the band)."""
    band, cards = hyps[i]
    same = _known_cards(i, hyps, reads, bands32, keep)
    if name_at_top is not None:
        # A band on the body of another card (the one below, or a turn of its own body that
        # puts the name at the deck's other end) knows a card too, the wrong one.
        fits = [j for j in same if _name_at_top(hyps[j]) == name_at_top]
        same = fits or same
    if same:
        return hyps[max(same, key=lambda j: reads[j].confidence)][1][0]
    if len(cards) > 1:
        if name_at_top is not None:
            return cards[0] if name_at_top else cards[1]
        return cards[0] if runs_down(band) >= 0 else cards[1]
    return cards[0]


def _name_at_top(hyp: tuple[Quad, list[Quad]]) -> bool:
    """Whether a hypothesis that knows its card puts the name at the card's top."""
    band, cards = hyp
    return bool(np.allclose(cards[0], detect_cactus.card_from_band(band, True), atol=1e-6))


def _known_cards(
    i: int,
    hyps: list[tuple[Quad, list[Quad]]],
    reads: list[Read],
    bands32: list[npt.NDArray[np.float32]],
    keep: list[int],
) -> list[int]:
    """Kept hypotheses that know their card and read band ``i``'s band the same way."""
    band = hyps[i][0]
    return [
        j
        for j in keep
        if len(hyps[j][1]) == 1
        and reads[j].label == reads[i].label
        and quad_iou(bands32[i], bands32[j]) > 0.5
        and float((hyps[j][0][3] - hyps[j][0][0]) @ (band[3] - band[0])) > 0
    ]


def deck_layout(
    chosen: list[int],
    hyps: list[tuple[Quad, list[Quad]]],
    reads: list[Read],
    bands32: list[npt.NDArray[np.float32]],
    keep: list[int],
) -> bool | None:
    """Whether the deck on the table prints names at the top of its cards (True), the bottom
    (False), or unknown (None): a vote of the cards read whose card is known from its body or
    a paper edge, decided by a clear majority (twice the other side's votes, two at least).
    A bare bar's outline evidence is weak under a pile, where other cards' outlines run along
    the covered card's sides: on fresh held-out tables (seeds 1 300 000-199) two of the ten
    misses were names read right on a card drawn the wrong way from its band."""
    votes = [0, 0]  # bottom, top
    for i in chosen:
        same = _known_cards(i, hyps, reads, bands32, keep)
        if not same:
            continue
        votes[_name_at_top(hyps[max(same, key=lambda j: reads[j].confidence)])] += 1
    bottom, top_votes = votes
    if top_votes >= 2 and top_votes >= 2 * bottom:
        return True
    if bottom >= 2 and bottom >= 2 * top_votes:
        return False
    return None


# A Cactus band read this surely (a name, not nothing) is a lead: looked at again, a little
# shifted and scaled along the band, and read when one of those views is surer than
# CACTUS_LEAD_BAR (the best of several looks is surer by chance than one look).
CACTUS_LEAD = 0.25
CACTUS_LEAD_BAR = 0.8
_LEAD_VIEWS = [(shift, scale) for shift in (-0.06, 0.0, 0.06) for scale in (0.92, 1.0, 1.08)]


def _band_view(band: Quad, shift: float, scale: float) -> Quad:
    """``band`` moved ``shift`` of its length along itself and scaled ``scale`` about its
    centre (length and height alike)."""
    centre = band.mean(axis=0)
    along = band[1] - band[0]
    return np.asarray(centre + (band - centre) * scale + along * shift, np.float64)


def _second_look(
    image: Image,
    rec: Recogniser,
    hyps: list[tuple[Quad, list[Quad]]],
    reads: list[Read],
    bands32: list[npt.NDArray[np.float32]],
    keep: list[int],
    chosen: list[int],
    min_confidence: float,
) -> None:
    """Leads (names read between CACTUS_LEAD and ``min_confidence`` on a band nothing was read
    on) looked at again; a lead confirmed takes the surest view's read and joins ``keep`` and
    ``chosen``. On fresh held-out tables (seeds 1 300 000-199) four of the misses left were
    bands proposed and read right at 0.29-0.48: a blurred small card or a covered band framed
    a little off."""
    leads = [
        i
        for i, r in enumerate(reads)
        if r.label != NONE and CACTUS_LEAD <= r.confidence < min_confidence
    ]
    leads.sort(key=lambda i: -reads[i].confidence)
    leads = [i for i in leads if all(quad_iou(bands32[i], bands32[j]) < 0.3 for j in chosen)]
    if not leads:
        return
    views = [_band_view(hyps[i][0], a, b).astype(np.float32) for i in leads for a, b in _LEAD_VIEWS]
    looks = rec.classify(crops(image, views, rec.spec.crop), "cactus")
    n = len(_LEAD_VIEWS)
    for k, i in enumerate(leads):
        same = [r for r in looks[k * n : (k + 1) * n] if r.label == reads[i].label]
        best = max(same, key=lambda r: r.confidence, default=None)
        if best is None or best.confidence < CACTUS_LEAD_BAR:
            continue
        if any(quad_iou(bands32[i], bands32[j]) >= 0.3 for j in chosen):
            continue  # a surer lead on the same band was confirmed first
        reads[i] = best
        keep.append(i)
        chosen.append(i)


def read_cactus(
    image: Image, rec: Recogniser, min_confidence: float, look_again: bool = True
) -> Reading:
    stamps = [time.perf_counter()]
    hyps = detect_cactus.band_hypotheses(image, covered=True)
    stamps.append(time.perf_counter())
    batch = crops(image, [b.astype(np.float32) for b, _ in hyps], rec.spec.crop)
    stamps.append(time.perf_counter())
    reads: list[Read] = rec.classify(batch, "cactus")
    stamps.append(time.perf_counter())
    keep = [i for i, r in enumerate(reads) if r.label != NONE and r.confidence >= min_confidence]
    keep.sort(key=lambda i: -reads[i].confidence)
    bands32 = [b.astype(np.float32) for b, _ in hyps]
    chosen: list[int] = []
    for i in keep:
        if all(quad_iou(bands32[i], bands32[j]) < 0.3 for j in chosen):
            chosen.append(i)
    if look_again:
        _second_look(image, rec, hyps, reads, bands32, keep, chosen, min_confidence)
    masks: dict[str, Image] = {}

    def runs_down(band: Quad) -> float:  # only bare colourful bars need the masks: made once
        if not masks:
            masks["print"] = detect_cactus.print_mask(image)
            masks["paper"] = detect_cactus.paper_mask(image)
        # The outline speaks first (on a pile other cards' paper lies on both sides); where
        # it is silent (a deck the table's colour drops out of the print mask), the paper.
        outline = detect_cactus.outline_runs_down(masks["print"], band)
        if abs(outline) >= 0.1:
            return outline
        return detect_cactus.paper_runs_down(masks["paper"], band)

    layout = deck_layout(chosen, hyps, reads, bands32, keep)
    objects = []
    for i in chosen:
        r = reads[i]
        card = _card_of(i, hyps, reads, bands32, keep, runs_down, layout)
        objects.append(_found(r.label, r.confidence, card, r.alternatives))
    objects.sort(key=lambda o: (float(o.quad[:, 1].mean()), float(o.quad[:, 0].mean())))
    stamps.append(time.perf_counter())
    stamps.append(time.perf_counter())
    timings = _ms(stamps, ("detect", "crop", "recognise", "resolve", "group"))
    timings["candidates"] = float(len(hyps))
    return Reading(objects, None, timings, game="cactus")
