"""Which way a real photo's corner index stands inside its hand-drawn box.

The shared card photos label each index with an axis-aligned box, which does not say whether
the index stands upright in it (rank over suit down the image) or lies on its side. The box's
shape says it only loosely: the photos were stretched to 640 × 640 from other shapes, so an
upright index in a photo squashed top to bottom has a square box, and one lying on its side
in a photo squashed across has a tall one. Read by a model that never trained on them (the
dev fold, a dev-out model of the shipped recipe), 23 of the fold's 53 square boxes hold an
upright index and 23 a sideways one, 18 of 244 tall boxes a sideways one, 9 of 104 wide
boxes an upright one.

So training asks a model: :func:`box_turn` compares how likely the labelled card is in the
box framed upright and framed a quarter turn (each both ways up). Where the model cannot
tell, a box far from square still says it by its shape (:data:`SURE_ASPECT`); otherwise the
index's turn is unknown and its box gives no training crop.
"""

from __future__ import annotations

from typing import Literal

import numpy as np

from vision.crops import crops
from vision.recognise import Recogniser
from vision.synth import Image, Quad, Truth

Turn = Literal["upright", "sideways"]

# The labelled card at least this likely in one framing, and this many times likelier than in
# the other. Measured on the dev fold with a model trained 4 epochs on the generated crops
# alone, against the turns a dev-out model of the shipped recipe reads at 0.3 and 2 times:
# 255 boxes alike, 2 unlike, 148 it left undecided (0.3 and 2 times: 183 alike, 1 unlike).
TURN_MIN = 0.1
TURN_RATIO = 3.0
# A box this many times taller than wide (or wider than tall) is taken as its shape says when
# the model cannot tell. With the model's turns, on the same fold: 289 boxes alike, 5 unlike,
# 76 left out; the shape alone (the rule before: tall upright, wide sideways, square out)
# 286 alike, 17 unlike, 53 left out.
SURE_ASPECT = 1.6
GROW = 1.15  # the box is read grown by this much (a hand-drawn box is often tight)


def framings(box: Quad) -> tuple[Quad, Quad]:
    """The box grown by :data:`GROW`, framed upright and a quarter turn."""
    c = box.mean(0)
    q = (c + (box - c) * GROW).astype(np.float32)
    return q, np.roll(q, 1, axis=0)


def box_turn(p_upright: float, p_sideways: float, aspect: float) -> Turn | None:
    """The index's turn from the labelled card's probability in the two framings and the
    box's width over its height; ``None`` when neither says."""
    if p_upright >= TURN_MIN and p_upright >= TURN_RATIO * p_sideways:
        return "upright"
    if p_sideways >= TURN_MIN and p_sideways >= TURN_RATIO * p_upright:
        return "sideways"
    if aspect >= SURE_ASPECT:
        return "sideways"
    if aspect <= 1 / SURE_ASPECT:
        return "upright"
    return None


def photo_turns(
    recogniser: Recogniser, image: Image, truths: list[Truth], deck: str = "cards"
) -> list[Turn | None]:
    """Each labelled index's turn in one photo (see the module's docstring)."""
    if not truths:
        return []
    unknown = sorted({t.label for t in truths} - set(recogniser.spec.decks[deck]))
    if unknown:
        raise ValueError(f"labels {unknown} are not cards of the {deck!r} deck")
    quads = [q for t in truths for q in framings(t.quad)]
    batch = crops(image, quads, recogniser.spec.crop)
    logits, _ = recogniser.run(batch)
    turned, _ = recogniser.run(np.ascontiguousarray(batch[:, ::-1, ::-1]))
    probs, names = recogniser.probabilities(np.asarray((logits + turned) / 2, np.float32), deck)
    out: list[Turn | None] = []
    for k, t in enumerate(truths):
        j = names.index(t.label)
        w, h = t.quad[2] - t.quad[0]
        aspect = float(w) / max(float(h), 1e-6)
        out.append(box_turn(float(probs[2 * k, j]), float(probs[2 * k + 1, j]), aspect))
    return out
