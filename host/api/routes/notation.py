"""Card and tile tokens as people type them: parsed by the one notation parser.

The dashboard's entry fields (a Rummikub rack, a hand) show what was understood while the
player types; a token the notation does not know is refused with a message naming it.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query

from host.api.models import ERRORS
from host.rules.notation import parse_cards

router = APIRouter(prefix="/api/notation", tags=["notation"], responses=ERRORS)

Deck = Literal["rummikub", "allin", "standard", "fourcolor", "cactus"]


@router.get("/{game}")
def parse(
    game: Deck, text: Annotated[str, Query(max_length=2000, examples=["r7 k13 J"])] = ""
) -> dict[str, Any]:
    """The tokens in ``text`` (spaces or commas between them), each as the notation writes
    it; 400 naming the first token that is not one of the game's (or one too many copies)."""
    return {"game": game, "tokens": parse_cards(game, text)}
