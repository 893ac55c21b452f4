"""The common summary of any game's state: who has what score, who won, is it over.

Every engine's ``RULES`` has ``summary(state) -> dict`` with at least ``game``, ``players``
(seat order), ``scores`` (name → score in the game's unit: runes, score cards, points),
``winner`` (a name, or ``None`` while playing or when a tie leaves no winner) and
``finished``; an engine may add its own keys (round, pot, turn, …).
"""

from __future__ import annotations

from typing import Any, Protocol

from host.rules.base import Game, LogError

REQUIRED_KEYS = ("game", "players", "scores", "winner", "finished")


class Summarising(Protocol):
    def summary(self, state: Any) -> dict[str, Any]: ...


def summarize(game: Game[Any]) -> dict[str, Any]:
    """The summary of a game's current state, through its engine."""
    summary = getattr(game.rules, "summary", None)
    if summary is None:
        raise LogError(f"the {game.rules.game} engine cannot summarise a game yet")
    result: dict[str, Any] = summary(game.state)
    missing = [k for k in REQUIRED_KEYS if k not in result]
    if missing:
        raise LogError(f"the {game.rules.game} engine's summary lacks {', '.join(missing)}")
    return result
