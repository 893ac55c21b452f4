"""Decks in the unseen style, enrolled as a player does, for the enrolled-reading tests."""

from __future__ import annotations

import numpy as np

from host.cli.enroll import deck_order, default_grid
from vision import synth, synth_unseen
from vision.enrol_session import Enrolment
from vision.enroll import DeckProfile
from vision.reader import TableReader
from vision.synth_unseen import DeckPrint


def enrolled(
    reader: TableReader,
    layout_seed: int = 7,
    deck: DeckPrint | None = None,
    partial: bool = False,
    **options: object,
) -> DeckProfile:
    """The profile of an unseen-style deck (each card drawn its own way, or ``deck`` printed
    one way throughout) captured once from the generated layout photo ``layout_seed``;
    ``options`` are set on the :class:`Enrolment` before the capture."""
    order = deck_order(reader.game)
    cols, rows = default_grid(len(order))
    layout = synth_unseen.layout_scene(
        reader.game, order, cols, np.random.default_rng(layout_seed), deck=deck
    )
    session = Enrolment(reader, "test", order, cols, rows)
    for name, value in options.items():
        setattr(session, name, value)
    session.capture(1, layout.image)
    return session.profile(partial=partial)


def one_print_deck(reader: TableReader, print_seed: int, seeds: range) -> list[synth.Scene]:
    """A deck in the unseen style printed one way throughout (as a bought deck is), enrolled
    from one layout photo into ``reader``, and its table scenes from ``seeds``."""
    deck = synth_unseen.deck_print(print_seed)
    reader.use_deck(enrolled(reader, deck=deck))
    return [
        synth_unseen.scene(reader.game, np.random.default_rng(seed), deck=deck) for seed in seeds
    ]
