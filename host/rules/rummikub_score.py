"""Rummikub with a Twist: the score of a game and of a series (RULINGS.md §2).

A finished game: every loser scores minus their rack total (any joker 30); the winner gains
the sum of those losses. When the pool runs out and nobody can play, the lowest rack total
wins, each other player loses (own total − winner's total), the winner gains the sum.
Choice where the book is silent: a tie for the lowest total goes to the player with fewer
tiles, then to the player listed first (turn order).

A series is as many games as players; its winner has the most game wins, ties broken by the
higher total score (still tied: the player listed first, and ``tied`` says so).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from host.rules.notation import tile_value

JOKER_PENALTY = 30


def rack_value(rack: Sequence[str]) -> int:
    """Penalty of a rack left at the end: numbers at face value, every joker 30."""
    return sum(tile_value(t) for t in rack)


@dataclass(frozen=True, slots=True)
class GameScore:
    winner: str
    scores: dict[str, int]
    pool_empty: bool

    def to_json(self) -> dict[str, object]:
        return {"winner": self.winner, "scores": dict(self.scores)}


class ScoreError(ValueError):
    """Racks that do not describe the end of a game."""


def score_game(racks: Mapping[str, Sequence[str]], *, pool_empty: bool = False) -> GameScore:
    """Score the end of a game from every player's rack (in turn order)."""
    if len(racks) < 2:
        raise ScoreError("a game of Rummikub has at least 2 players")
    totals = {name: rack_value(rack) for name, rack in racks.items()}
    empty = [name for name, rack in racks.items() if not rack]
    if not pool_empty:
        if len(empty) != 1:
            found = "nobody" if not empty else ", ".join(empty)
            raise ScoreError(
                f"exactly one player must have an empty rack (the winner), found {found}; "
                f"use the pool-empty rule if the pool ran out"
            )
        winner = empty[0]
        base = 0
    else:
        order = list(racks)
        winner = min(order, key=lambda n: (totals[n], len(racks[n]), order.index(n)))
        base = totals[winner]
    scores = {name: -(totals[name] - base) for name in racks if name != winner}
    scores = {name: scores.get(name, 0) for name in racks}
    scores[winner] = -sum(v for n, v in scores.items() if n != winner)
    return GameScore(winner, scores, pool_empty)


@dataclass(frozen=True, slots=True)
class SeriesScore:
    players: tuple[str, ...]
    wins: dict[str, int]
    totals: dict[str, int]
    games: int
    finished: bool
    winner: str | None  # the leader so far when the series is not finished
    tied: bool  # wins and total score both tied at the top

    def to_json(self) -> dict[str, object]:
        return {
            "winner": self.winner,
            "finished": self.finished,
            "games": self.games,
            "wins": dict(self.wins),
            "scores": dict(self.totals),
            "tied": self.tied,
        }


def score_series(players: Sequence[str], games: Sequence[GameScore]) -> SeriesScore:
    """Standings of a series of ``len(players)`` games."""
    names = tuple(players)
    wins = dict.fromkeys(names, 0)
    totals = dict.fromkeys(names, 0)
    for game in games:
        if set(game.scores) != set(names):
            raise ScoreError(f"a game of the series has players {sorted(game.scores)}")
        wins[game.winner] += 1
        for name, value in game.scores.items():
            totals[name] += value
    ranked = sorted(names, key=lambda n: (-wins[n], -totals[n], names.index(n)))
    winner = ranked[0] if games else None
    tied = (
        len(ranked) > 1
        and bool(games)
        and (wins[ranked[0]], totals[ranked[0]]) == (wins[ranked[1]], totals[ranked[1]])
    )
    return SeriesScore(names, wins, totals, len(games), len(games) >= len(names), winner, tied)
