"""All In showdown speed against treys on the same hands, and the exhaustive golden master.

* ``eval_per_s``: hands ranked per second by ``allin_hands.hand_key`` (card codes in, key
  out) and by ``evaluate`` (tokens in, parsed and checked); treys' ``Evaluator.evaluate`` on
  the same hands in its own card encoding, in the same run.
* ``exhaustive``: every one of the 2,598,960 five-card hands ranked; category counts compared
  with the textbook frequencies, side A and side B values tallied, and each hand's category
  compared with treys'.
"""

from __future__ import annotations

import itertools
import random
import time
from collections import Counter
from typing import Any

from treys import Card, Evaluator

from host.rules.allin_hands import TEXTBOOK_COUNTS as TEXTBOOK
from host.rules.allin_hands import VALUES, card_codes, evaluate, hand_key, rank_codes

TREYS_CLASS = {
    0: "straight_flush",  # royal flush
    1: "straight_flush",
    2: "four_of_a_kind",
    3: "full_house",
    4: "flush",
    5: "straight",
    6: "three_of_a_kind",
    7: "two_pair",
    8: "pair",
    9: "high_card",
}
TREYS_SUIT = {"c": "s", "m": "h", "b": "d", "t": "c"}
SAMPLE = 200_000


def _treys_card(token: str) -> int:
    return int(Card.new(token[:-1].replace("10", "T") + TREYS_SUIT[token[-1]]))


def _rate(count: int, seconds: float) -> int:
    return round(count / seconds)


def _speed() -> dict[str, Any]:
    codes = card_codes()
    tokens = list(codes)
    rng = random.Random(1)
    hands = [rng.sample(tokens, 5) for _ in range(SAMPLE)]
    as_codes = [[codes[t] for t in h] for h in hands]
    as_treys = [[_treys_card(t) for t in h] for h in hands]
    evaluator = Evaluator()

    started = time.perf_counter()
    for h in as_codes:
        hand_key(h)
    ours = time.perf_counter() - started
    started = time.perf_counter()
    for hand in hands[: SAMPLE // 4]:
        evaluate(hand)
    ours_tokens = time.perf_counter() - started
    started = time.perf_counter()
    for h in as_treys:
        evaluator.evaluate(h, [])
    theirs = time.perf_counter() - started
    return {
        "hands": SAMPLE,
        "allin_hand_key": _rate(SAMPLE, ours),
        "allin_evaluate_tokens": _rate(SAMPLE // 4, ours_tokens),
        "treys_evaluate": _rate(SAMPLE, theirs),
        "ratio_allin_to_treys": round(ours and theirs / ours, 3),
    }


def _exhaustive() -> dict[str, Any]:
    codes = card_codes()
    by_code = {c: _treys_card(t) for t, c in codes.items()}
    evaluator = Evaluator()
    counts: Counter[str] = Counter()
    disagree = 0
    started = time.perf_counter()
    for hand in itertools.combinations(sorted(codes.values()), 5):
        name = rank_codes(hand)[0]
        counts[name] += 1
        treys_class = evaluator.get_rank_class(evaluator.evaluate([by_code[c] for c in hand], []))
        disagree += TREYS_CLASS[treys_class] != name
    seconds = time.perf_counter() - started
    values = {
        side: dict(sorted(Counter({VALUES[side][n]: k for n, k in counts.items()}).items()))
        for side in ("A", "B")
    }
    return {
        "hands": sum(counts.values()),
        "categories": dict(counts),
        "matches_textbook": dict(counts) == TEXTBOOK,
        "hands_by_value": values,
        "treys_category_disagreements": disagree,
        "seconds_with_treys": round(seconds, 1),
    }


def measure() -> dict[str, Any]:
    return {"eval_per_s": _speed(), "exhaustive": _exhaustive()}
