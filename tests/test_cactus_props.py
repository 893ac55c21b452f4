"""Property tests: whole Cactus games played by seeded bots keep every card and score card,
end with a winner at the target, and replay from JSON to the same state."""

from __future__ import annotations

from collections import Counter

from game_helpers import assert_replays_and_redoes
from hypothesis import given, settings
from hypothesis import strategies as st

from host.rules.cactus import ALL_CARDS, SCORE_CARDS, CactusState
from host.rules.cactus_bot import play_game


def _conserved(state: CactusState) -> None:
    cards = [c for h in state.hands for c in h] + list(state.deck) + list(state.discard)
    if state.pending is not None:
        cards += [state.pending.card] + ["nope"] * len(state.pending.nopes)
    assert Counter(cards) == Counter(ALL_CARDS)
    assert sum(state.scores) + state.supply == SCORE_CARDS and state.supply >= 0


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 6), undo_depth=st.integers(1, 30))
def test_bot_games_conserve_end_and_replay(seed: int, players: int, undo_depth: int) -> None:
    game = play_game([f"p{i}" for i in range(players)], seed)
    state = game.state
    assert state.finished and state.winner is not None
    assert state.scores[state.index(state.winner)] >= state.target
    assert sum(s >= state.target for s in state.scores) == 1
    for index in range(len(game)):
        _conserved(game.state_at(index))
    assert_replays_and_redoes(game, undo_depth)


def test_bots_exercise_every_action_and_the_nope_chain() -> None:
    seen: Counter[str] = Counter()
    for seed in range(30):
        game = play_game(["a", "b", "c"], seed)
        for event in game.events:
            seen[event.type] += 1
            if event.type == "play":
                seen[event["card"]] += 1
    for kind in ("play_set", "nope", "resolve", "draw", "shuffle"):
        assert seen[kind] > 0, kind
    for card in ("free_point", "swap_hands", "peek_steal", "draw_three", "steal_point"):
        assert seen[card] > 0, card
    assert seen["gimme"] > 0 and seen["steal_card"] > 0
