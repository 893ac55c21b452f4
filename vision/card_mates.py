"""A card's two corner indices name the same card: a sure read vouches for its card's other.

A playing card carries its index twice, at diagonally opposite corners, half-turned to each
other. Where one index reads surely and the other only doubtfully (under the floor, or
dropped for an overlapping frame), the sure one is evidence for the doubtful one: a proposal
at the card's other corner that names the same card first of all cards is kept as that card.

Pure geometry and arithmetic over reads; the reader decides which reads take part.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import replace

import numpy as np
import numpy.typing as npt

from vision.labels import NONE
from vision.recognise import Read

Quad = npt.NDArray[np.float32]
Probabilities = Callable[[npt.NDArray[np.float32]], tuple[npt.NDArray[np.float32], list[str]]]

# Where a card's other index lies, seen from one index in its own frame, in units of the index's
# height. On generated tables (200 scenes each deck, 990 + 986 index pairs) 98-99% of pairs
# lie across 1.2-3.1 and along 1.0-4.3; the shared photos' other corners (1154 labelled
# pairs, vision.evaluate.other_corner) 96-99% within 1.1-4.2 and 1.2-4.6.
MATE_ACROSS = (1.0, 4.2)
MATE_ALONG = (1.0, 4.6)
MATE_SIZE = (0.75, 1.33)  # the other index's height over this one's
MATE_PARALLEL = 0.9  # |cos| between the two indices' up-down axes
# Other cards' indices lie where a card's other corner would about once a generated table
# (222 of 7856 index pairs of different cards in 200 tables), so geometry alone proves
# nothing: the proposal must also name the card (first of all cards and above nothing), with at
# least MATE_VOUCHED, and the vouching read must be sure (MATE_SURE).
MATE_SURE = 0.75
MATE_VOUCHED = 0.1


class Frames:
    """Centres, up-down and across unit axes, heights and widths of many quads (TL TR BR BL)."""

    def __init__(self, quads: Sequence[Quad]) -> None:
        q = np.asarray(quads, np.float64).reshape(-1, 4, 2)
        self.centre = q.mean(axis=1)
        down = (q[:, 3] + q[:, 2] - q[:, 0] - q[:, 1]) / 2
        across = (q[:, 1] + q[:, 2] - q[:, 0] - q[:, 3]) / 2
        self.height = np.linalg.norm(down, axis=1)
        self.width = np.linalg.norm(across, axis=1)
        self.down = down / np.maximum(self.height, 1e-9)[:, None]
        self.across = across / np.maximum(self.width, 1e-9)[:, None]

    def _placed(
        self, at: npt.NDArray[np.int64], other: npt.NDArray[np.int64]
    ) -> npt.NDArray[np.bool_]:
        """For each pair (at[n], other[n]): whether ``other`` lies where the card of the index
        framed by ``at`` has its other index, seen from ``at``."""
        h = np.maximum(self.height[at], 1e-9)
        d = self.centre[other] - self.centre[at]
        across = np.einsum("ij,ij->i", d, self.across[at]) / h
        along = np.einsum("ij,ij->i", d, self.down[at]) / h
        size = self.height[other] / h
        parallel = np.abs(np.einsum("ij,ij->i", self.down[other], self.down[at]))
        # Diagonally opposite: both across and along, on the same diagonal. A read keeps its
        # proposal's frame whichever way up it read best, so either diagonal side counts.
        return np.asarray(
            (across * along > 0)
            & (np.abs(across) >= MATE_ACROSS[0])
            & (np.abs(across) <= MATE_ACROSS[1])
            & (np.abs(along) >= MATE_ALONG[0])
            & (np.abs(along) <= MATE_ALONG[1])
            & (size >= MATE_SIZE[0])
            & (size <= MATE_SIZE[1])
            & (parallel >= MATE_PARALLEL)
        )

    def all_mates(self) -> npt.NDArray[np.bool_]:
        """An n x n matrix: whether frames i and j can be one card's two corner indices."""
        n = len(self.height)
        at, other = np.repeat(np.arange(n), n), np.tile(np.arange(n), n)
        seen = self._placed(at, other).reshape(n, n)
        return np.asarray(seen & seen.T)

    def mates_of(self, i: int) -> npt.NDArray[np.bool_]:
        """Which frames can be the other corner index of frame ``i``'s card, seen from either."""
        n = len(self.height)
        everyone = np.arange(n)
        me = np.full(n, i)
        return self._placed(me, everyone) & self._placed(everyone, me)


def mates(a: Quad, b: Quad) -> bool:
    """Whether two index frames can be the two corners of one card, seen from either."""
    return bool(Frames([a, b]).mates_of(0)[1])


# A joker prints its word ("Joker") alike at two corners, each framed along the word. Where the
# other word lies, in units of this word frame's long side: on 400 development tables
# (standard deck, seeds 18 000 000+) the 35 right word reads beside another read of the word
# lay 1.3-3.4 from it, parallel (|cos| 0.95-1.0); the size bounds leave out a frame much wider
# than its word (a joker read in a frame over the word and the card's art).
WORD_APART = (1.2, 3.5)
WORD_SIZE = (0.77, 1.3)
WORD_PARALLEL = 0.95


def word_mates(a: Quad, b: Quad) -> bool:
    """Whether two word frames can be one joker's two corner words, seen from ``a``."""
    f = Frames([a, b])
    tall = f.height >= f.width
    axis = np.where(tall[:, None], f.down, f.across)
    length = np.maximum(f.height, f.width)
    apart = float(np.linalg.norm(f.centre[1] - f.centre[0])) / max(float(length[0]), 1e-9)
    return bool(
        WORD_APART[0] <= apart <= WORD_APART[1]
        and WORD_SIZE[0] <= length[1] / max(float(length[0]), 1e-9) <= WORD_SIZE[1]
        and abs(float(axis[0] @ axis[1])) >= WORD_PARALLEL
    )


def joint(a: Read, b: Read, probs: Probabilities) -> Read:
    """One read of a card from the reads of its two indices: the deck's cards scored by the
    product of the two reads' card probabilities (``none`` left out), normalised."""
    assert a.logits is not None and b.logits is not None
    p, names = probs(np.stack([a.logits, b.logits]))
    cards = np.asarray(p[:, :-1], np.float64)
    cards = cards / np.maximum(cards.sum(axis=1, keepdims=True), 1e-12)
    both = cards[0] * cards[1]
    both = both / max(float(both.sum()), 1e-300)
    top = np.argsort(-both, kind="stable")[:3]
    return Read(
        label=names[int(top[0])],
        confidence=float(both[int(top[0])]),
        alternatives=[(names[int(i)], float(both[int(i)])) for i in top],
        p_none=b.p_none,
        logits=None,
    )


def vouch(
    quads: Sequence[Quad],
    reads: Sequence[Read],
    kept: Sequence[int],
    probs: Probabilities,
    clashes: Callable[[int, int], bool],
    words: frozenset[str] = frozenset(),
) -> tuple[list[int], list[Read]]:
    """``kept`` (indices into ``quads`` and ``reads``) with the proposals vouched for added.

    A kept read of at least MATE_SURE whose card is read nowhere else, and whose other corner
    (:meth:`Frames.mates_of`) holds no kept read, vouches for the proposal there (any read,
    kept or not, that ``clashes(proposal, kept)`` with no kept read) that names its card
    (first of all cards and above nothing) with at least MATE_VOUCHED; that proposal is kept
    as the card, with the confidence of both reads together (:func:`joint`). Word indices
    (``words``, a joker's "Joker") take no part: a joker's word is printed alike at both
    corners and is read on its own terms.
    Returns the kept indices (vouched ones appended) and the reads, the vouched ones changed."""
    kept = list(kept)
    times = Counter(reads[k].label for k in kept)
    sure = [
        i
        for i in kept
        if reads[i].confidence >= MATE_SURE
        and reads[i].logits is not None
        and reads[i].label not in words
        and times[reads[i].label] == 1
    ]
    if not sure:
        return kept, list(reads)
    # Only kept reads (which leave a corner taken) and proposals naming a sure read's card can
    # matter: a few dozen of a photo's thousand or more.
    labels = {reads[i].label for i in sure}
    pool = sorted(
        set(kept)
        | {
            k
            for k, r in enumerate(reads)
            if r.label in labels and r.confidence >= MATE_VOUCHED and r.logits is not None
        }
    )
    frames = Frames([quads[k] for k in pool])
    where = {k: n for n, k in enumerate(pool)}
    is_kept = np.isin(pool, kept)
    out = list(reads)
    added: list[int] = []
    for i in sure:
        there = frames.mates_of(where[i])
        if (there & is_kept).any():
            continue
        label = reads[i].label
        # Named first, above nothing too: a frame half over another card's index, or over a
        # card's pips, gives this card a little of its probability.
        named = [
            pool[n]
            for n in np.nonzero(there)[0].tolist()
            if reads[pool[n]].label == label and pool[n] not in added
        ]
        named.sort(key=lambda k: -reads[k].confidence)
        best = next((k for k in named if not any(clashes(k, m) for m in [*kept, *added])), -1)
        if best < 0:
            continue
        both = joint(reads[i], reads[best], probs)
        if both.label == label:
            out[best] = replace(both, logits=reads[best].logits, looks=reads[best].looks)
            added.append(best)
    return kept + added, out


# Two doubtful reads at one card's two corners, naming the same card first: each is under
# the floor, together they may not be (:func:`pair_up`). Under this a read names its card too
# weakly to be evidence even twice.
PAIR_LEAST = 0.3


def pair_up(
    quads: Sequence[Quad],
    reads: Sequence[Read],
    kept: Sequence[int],
    probs: Probabilities,
    clashes: Callable[[int, int], bool],
    floor: float,
    words: frozenset[str] = frozenset(),
    among: set[int] | None = None,
) -> tuple[list[int], list[Read]]:
    """``kept`` with pairs of doubtful reads added: two proposals (of ``among``, where given)
    that name the same card first with at least PAIR_LEAST each, lie where one card's two
    corner indices lie (:meth:`Frames.mates_of`), clash with no kept read, and whose card is
    read nowhere else, are kept as that card where both reads together (:func:`joint`) name
    it with at least ``floor``. Surest pairs first. Returns the kept indices and the reads,
    the paired ones changed."""
    kept = list(kept)
    taken = {reads[k].label for k in kept}
    is_kept = set(kept)
    # Grouped by card first: only two reads of one card can pair, and a photo's proposals
    # over the least are a few hundred of a dozen or more cards.
    by_card: dict[str, list[int]] = {}
    for k, r in enumerate(reads):
        if (
            k not in is_kept
            and (among is None or k in among)
            and r.confidence >= PAIR_LEAST
            and r.logits is not None
            and r.label != NONE
            and r.label not in words
            and r.label not in taken
            # Rank-and-suit indices only: letting the rune card's lone "R" pair too read All In
            # alike (400 development tables, seeds 18 000 000+: 2573 / 13 of 2590 either way;
            # 18 100 000+: 2483 / 12 of 2520), so the rule stays as it was measured first.
            and len(r.label) >= 2
        ):
            by_card.setdefault(r.label, []).append(k)
    pairs: list[tuple[float, int, int, Read]] = []
    free: dict[int, bool] = {}

    def unclashed(k: int) -> bool:
        if k not in free:
            free[k] = not any(clashes(k, m) for m in kept)
        return free[k]

    for label, group in by_card.items():
        if len(group) < 2:
            continue
        there = np.triu(Frames([quads[k] for k in group]).all_mates(), 1)
        if not there.any():
            continue
        # What joint() would give every pair at once: the product of the two reads' card
        # probabilities (none left out), normalised, at this card.
        logits = np.stack([r.logits for r in (reads[k] for k in group) if r.logits is not None])
        p, names = probs(logits)
        cards = np.asarray(p[:, :-1], np.float64)
        cards = cards / np.maximum(cards.sum(axis=1, keepdims=True), 1e-12)
        at = cards[:, names.index(label)]
        sure = np.outer(at, at) / np.maximum(cards @ cards.T, 1e-300)
        for a, b in zip(*np.nonzero(there & (sure >= floor)), strict=True):
            i, j = group[int(a)], group[int(b)]
            if unclashed(i) and unclashed(j):
                both = joint(reads[i], reads[j], probs)
                if both.label == label:
                    pairs.append((both.confidence, i, j, both))
    out = list(reads)
    added: list[int] = []
    for _, i, j, both in sorted(pairs, key=lambda p: -p[0]):
        if both.label in taken or any(clashes(k, m) for k in (i, j) for m in added):
            continue
        for k in (i, j):
            out[k] = replace(both, logits=reads[k].logits, looks=reads[k].looks)
        added += [i, j]
        taken.add(both.label)
    return kept + added, out
