"""Property tests: whole All In games played by seeded bots keep the box and the runes whole,
end after 3 rounds (4 with the heirs' tie-break), and replay from JSON to the same state."""

from __future__ import annotations

from collections import Counter
from typing import Any

from game_helpers import assert_replays_and_redoes
from hypothesis import given, settings
from hypothesis import strategies as st

from host.rules.allin import ALL_CARDS, RUNE_SUPPLY, AllInState
from host.rules.allin_bot import play_game
from host.rules.base import Game

VARIANTS: list[dict[str, Any]] = [{}, {"enchanted_discard": True}, {"closed_minds_eye": True}]


def _conserved(state: AllInState) -> None:
    cards = [c for h in state.hands for c in h] + list(state.deck) + list(state.discard)
    cards += [c for c in state.display if c is not None]
    assert Counter(cards) == Counter(ALL_CARDS)
    assert sum(state.runes) + state.pot + state.supply == RUNE_SUPPLY
    assert min(state.runes) >= 0 and state.supply >= 0
    if state.phase == "play":
        assert all(len(h) == 5 for h in state.hands)


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    players=st.integers(2, 5),
    side=st.sampled_from(["A", "B"]),
    variant=st.sampled_from(VARIANTS),
    heirs=st.booleans(),
    undo_depth=st.integers(1, 20),
)
def test_bot_games_conserve_end_and_replay(
    seed: int, players: int, side: str, variant: dict[str, Any], heirs: bool, undo_depth: int
) -> None:
    names = [f"p{i}" for i in range(players)]
    game = play_game(names, seed, side=side, heirs_of_the_prophets=heirs, **variant)
    state = game.state
    assert state.finished
    for index in range(len(game)):
        _conserved(game.state_at(index))
    rounds = len(state.results)
    if rounds == 4:  # only the heirs' extra round after a tie
        top = max(game.state_at(_last_round_end(game, 3)).runes)
        assert heirs and list(game.state_at(_last_round_end(game, 3)).runes).count(top) > 1
    else:
        assert rounds == 3
    assert_replays_and_redoes(game, undo_depth)


def _last_round_end(game: Game[AllInState], round_no: int) -> int:
    return next(i for i in range(len(game)) if len(game.state_at(i).results) == round_no)


def test_bots_exercise_every_action_and_effect() -> None:
    kinds: Counter[str] = Counter()
    for seed in range(6):
        game = play_game(["a", "b", "c"], seed, enchanted_discard=seed % 2 == 0)
        for event in game.events:
            kinds[event.type] += 1
            for step in event.get("effects") or []:
                kinds[step["effect"]] += 1
    for kind in ("play", "pass", "all_in", "predict", "deal", "take", "swap", "draw", "reveal"):
        assert kinds[kind] > 0, kind
    for kind in ("rune", "hypnosis", "eye"):
        assert kinds[kind] > 0, kind
