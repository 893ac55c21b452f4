"""``tableref demo``: the referees at work on built-in material, no camera or device needed.

It scores the All In rule book's 3-player showdown, then lets seeded bots play a whole All In
game and a whole Cactus Game, stores each as a JSON-lines log and replays it from there.
"""

from __future__ import annotations

import random
from typing import Annotated, Any

import typer

from host.cli.allin import _render as render_showdown
from host.cli.app import app
from host.cli.common import JsonOption, emit
from host.cli.replay import render_summary, replay_text
from host.rules import allin_bot, cactus_bot
from host.rules.allin import showdown
from host.rules.allin_hands import LABELS

# The rule book's scoring example: Alice's 4-5-6-7-8 beats Dan's A-2-3-4-5 and Phil's kings.
BOOK_HANDS = {
    "Alice": ["4c", "5m", "6b", "7t", "8c"],
    "Dan": ["Ac", "2m", "3b", "4t", "5c"],
    "Phil": ["Kc", "Km", "Kb", "2t", "9m"],
}
BOOK_PREDICTIONS = {"Alice": "Dan", "Dan": "Alice", "Phil": "Alice"}
BOOK_POT = 7


def run_demo(seed: int) -> dict[str, Any]:
    book = showdown(BOOK_HANDS, predictions=BOOK_PREDICTIONS, pot=BOOK_POT)
    rng = random.Random(seed)
    allin_game = allin_bot.play_game(["ann", "bob", "cy", "dee"], rng.randrange(2**32))
    cactus_game = cactus_bot.play_game(["ann", "bob", "cy"], rng.randrange(2**32))
    return {
        "allin_showdown": book,
        "allin_game": replay_text(allin_game.to_jsonl(), "allin demo log"),
        "cactus_game": {
            **replay_text(cactus_game.to_jsonl(), "cactus demo log"),
            "last_moves": list(cactus_game.state.log[-6:]),
        },
    }


@app.command("demo")
def demo(
    seed: Annotated[int, typer.Option("--seed", help="Seed for the bots' shuffles and moves.")] = 7,
    as_json: JsonOption = False,
) -> None:
    """Score the All In rule book's showdown, then replay bot-played All In and Cactus games."""
    result = run_demo(seed)

    def render() -> None:
        typer.echo("== All In: the rule book's 3-player showdown (pot 7) ==")
        render_showdown(result["allin_showdown"])
        typer.echo("\n== All In: a 4-player game by seeded bots, replayed from its log ==")
        render_summary(result["allin_game"])
        for r in result["allin_game"]["rounds"]:
            hands = ", ".join(f"{n} {LABELS[h['hand']]}" for n, h in r["hands"].items())
            typer.echo(f"  round {r['round']}: best {r['best']} ({hands}); pot {r['pot']}")
        typer.echo("\n== Cactus Game: a 3-player game by seeded bots, replayed from its log ==")
        render_summary(result["cactus_game"])
        for line in result["cactus_game"]["last_moves"]:
            typer.echo(f"  … {line}")

    emit(result, as_json, render)
