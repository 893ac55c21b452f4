"""Reads the referee will not accept without a person's word: why each one is doubtful.

A read is flagged when the token names no card of the game's deck, when the recogniser was
unsure, or when the box cannot hold that many copies (a third ``r7``: the least confident
extra copies are flagged, never silently dropped). Game adapters add flags from the previous
state (a card that is already elsewhere).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from host.rules.notation import BOX, NotationError, parse_token, tokens
from host.table.stable import TableObject


def flag_reads(objects: Sequence[TableObject], deck: str, min_confidence: float) -> dict[int, str]:
    """Object id → the reason its read needs a correction."""
    flags: dict[int, str] = {}
    box = BOX[deck]
    copies: dict[str, list[TableObject]] = defaultdict(list)
    for obj in objects:
        try:
            token = parse_token(deck, obj.label)
        except NotationError as exc:
            flags[obj.id] = str(exc)
            continue
        copies[token].append(obj)
        if not obj.corrected and obj.read.confidence < min_confidence:
            flags[obj.id] = (
                f"unsure read: {token} at confidence {obj.read.confidence:.2f}; please confirm"
            )
    for token, objs in copies.items():
        if len(objs) > box[token]:
            # Keep the corrected and most confident copies; the rest cannot all be right.
            ranked = sorted(objs, key=lambda o: (o.corrected, o.read.confidence), reverse=True)
            for extra in ranked[box[token] :]:
                flags[extra.id] = (
                    f"the box holds {box[token]} × {token}, and {len(objs)} are read on the table"
                )
    return flags


def suggestions(obj: TableObject, deck: str) -> list[str]:
    """Every legal token for a correction, the recogniser's alternatives first."""
    legal = tokens(deck)
    seen: list[str] = []
    for label in [obj.read.label, *(a.label for a in obj.read.alternatives)]:
        try:
            token = parse_token(deck, label)
        except NotationError:
            continue
        if token not in seen:
            seen.append(token)
    return seen + [t for t in dict.fromkeys(legal) if t not in seen]
