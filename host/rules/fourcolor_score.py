"""Four Color Cards: the hu of a finished hand, flower hu, threshold and settlement (§3)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from host.rules.fourcolor_combos import Combination, meld
from host.rules.fourcolor_split import WinFrom, best_split, split_with_win_card
from host.rules.notation import check_in_box, parse_token

DEFAULT_THRESHOLD = 10


@dataclass(frozen=True, slots=True)
class Score:
    """A hand judged for hu: exposed melds first, then the best split of the concealed cards."""

    winning_shape: bool
    hu: int  # everything: split + exposed melds + flower hu
    flower_hu: int
    threshold: int
    combinations: tuple[Combination, ...]
    leftover: tuple[str, ...]

    @property
    def meets_threshold(self) -> bool:
        return self.winning_shape and self.hu >= self.threshold

    @property
    def stake(self) -> int:
        """Points each other player pays the caller of hu (negative: the caller pays each)."""
        if self.meets_threshold:
            return self.hu - self.threshold + 1
        return -(self.threshold + 1)

    def explain(self) -> str:
        if not self.winning_shape:
            verb = "fits" if len(self.leftover) == 1 else "fit"
            return f"not a winning shape: {' '.join(self.leftover)} {verb} in no combination"
        verdict = "reaches" if self.meets_threshold else "falls short of"
        return f"{self.hu} hu {verdict} the threshold of {self.threshold}"

    def to_json(self) -> dict[str, object]:
        return {
            "winning_shape": self.winning_shape,
            "hu": self.hu,
            "flower_hu": self.flower_hu,
            "meets_threshold": self.meets_threshold,
            "threshold": self.threshold,
            "stake": self.stake,
            "combinations": [c.to_json() for c in self.combinations],
            "leftover": list(self.leftover),
        }


def score_hand(
    hand: Iterable[str],
    exposed: Iterable[Combination | Iterable[str]] = (),
    win_card: str | None = None,
    win_from: WinFrom = "other",
    flower: str | None = None,
    threshold: int = DEFAULT_THRESHOLD,
    self_drawn_at_hand: bool = True,
) -> Score:
    """Judge a hand: ``hand`` the concealed cards, ``exposed`` the melds laid face up.

    ``win_card`` completes the hand (``win_from`` says whether the winner drew it or took it
    from another player); without it the hand is judged as it is. ``flower`` is the card
    revealed after the hu: each card the player holds identical to it adds 1 hu.
    Raises NotationError (unknown card, more copies than the box holds) or MeldError.
    """
    held = [parse_token("fourcolor", c) for c in hand]
    melds = [m if isinstance(m, Combination) else meld(m, exposed=True) for m in exposed]
    melds = [Combination(m.kind, m.cards, True) for m in melds]
    win = parse_token("fourcolor", win_card) if win_card is not None else None
    flower_card = parse_token("fourcolor", flower) if flower is not None else None
    everything = held + [c for m in melds for c in m.cards] + ([win] if win else [])
    check_in_box("fourcolor", everything + ([flower_card] if flower_card else []))
    if threshold < 0:
        raise ValueError(f"the threshold must be 0 or more, not {threshold}")
    if win is None:
        split = best_split(held)
    else:
        split = split_with_win_card(held, win, win_from, self_drawn_at_hand)
    flower_hu = everything.count(flower_card) if flower_card else 0
    combos = (*melds, *split.combinations)
    return Score(
        winning_shape=split.winning,
        hu=sum(c.hu for c in combos) + flower_hu,
        flower_hu=flower_hu,
        threshold=threshold,
        combinations=combos,
        leftover=split.leftover,
    )


def settle(players: Sequence[str], caller: str, score: Score) -> dict[str, int]:
    """Points each player gains (negative: loses) when ``caller`` calls hu with ``score``.

    A hu at or above the threshold collects hu - threshold + 1 from every other player (the
    +1 is the stake); a false hu (below it, or not a winning shape) pays threshold + 1 to
    every other player. Always zero-sum.
    """
    if caller not in players:
        raise ValueError(f"{caller!r} is not a player")
    each = score.stake
    return {p: each * (len(players) - 1) if p == caller else -each for p in players}


def starting_points(players: Sequence[str]) -> int:
    """Each player starts with 10 × the number of players."""
    return 10 * len(players)
