"""A doubtful card read where several framings of one object agree on it.

Enrolment names the cards its own object-or-nothing gate takes for clutter
(:func:`vision.enroll.doubtful_cards`): on the unseen tile deck, the colour-change star joker,
whose crops the embedding places within 0.01-0.02 (cosine) of a sideways 4 or a maker's bar.
On the table such a card is gated as nothing wherever it lies, though the profile names it
right. Clutter seldom gets the same doubtful name from several framings at once, a tile does:
so a doubtful card is read where at least :data:`AGREEING_FRAMINGS` proposals framed as one
object, none of them read as anything, all name it at :data:`AGREEING_LEAST` or more.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import replace

import numpy as np
import numpy.typing as npt

from vision.labels import NONE
from vision.matching import same_object
from vision.recognise import Read

# Development layouts 8, 9 and 11-15, seeds 8 600 000+ (ten sets of 30 scenes, about 8,300
# tiles), right / spurious against reading without: three framings at 0.6, +72 / +5 (with
# enroll.MAGNET_SHARE; +73 / +11 without it); at 0.5, layouts 8 and 13 +17 / +135 and
# +13 / +8 (a joker that the table's clutter lies nearest, MJ on layout 8, named from the
# cloth); two framings at 0.5, layout 11 +13 / 0.
AGREEING_FRAMINGS = 3
AGREEING_LEAST = 0.6


def agreeing_framings(
    quads: Sequence[npt.NDArray[np.float32]], reads: Sequence[Read], doubtful: Collection[str]
) -> list[Read]:
    """``reads`` with a doubtful card read where its framings agree.

    A read judged nothing whose likeliest card is in ``doubtful`` at :data:`AGREEING_LEAST`
    or more joins the other such reads naming that card and framed as the same object
    (:func:`vision.matching.same_object`); with :data:`AGREEING_FRAMINGS` or more, and no
    read of anything framed as that object, the surest of them becomes a read of the card
    (last in overlap resolution: any read of an object outranks it).
    """
    out = list(reads)
    if not doubtful:
        return out
    named = [
        i
        for i, r in enumerate(reads)
        if r.label == NONE
        and r.alternatives
        and r.alternatives[0][0] in doubtful
        and r.alternatives[0][1] >= AGREEING_LEAST
    ]
    objects = [i for i, r in enumerate(reads) if r.label != NONE]
    used: set[int] = set()
    for i in named:
        if i in used:
            continue
        card = reads[i].alternatives[0][0]
        group = [
            j
            for j in named
            if j not in used
            and reads[j].alternatives[0][0] == card
            and same_object(quads[j], quads[i])
        ]
        if len(group) < AGREEING_FRAMINGS:
            continue
        if any(same_object(quads[o], quads[i]) for o in objects):
            continue
        used.update(group)
        surest = max(group, key=lambda j: reads[j].alternatives[0][1])
        r = reads[surest]
        out[surest] = replace(r, label=card, confidence=r.alternatives[0][1], overlap_rank=0.0)
    return out
