"""Decks in the unseen style, enrolled as a player does, for the enrolled-reading tests."""

from __future__ import annotations

import numpy as np

from host.cli.enroll import deck_order, default_grid
from vision import synth, synth_unseen
from vision.enrol_session import Enrolment
from vision.reader import TableReader


def one_print_deck(reader: TableReader, print_seed: int, seeds: range) -> list[synth.Scene]:
    """A deck in the unseen style printed one way throughout (as a bought deck is), enrolled
    from one layout photo into ``reader``, and its table scenes from ``seeds``."""
    order = deck_order(reader.game)
    cols, rows = default_grid(len(order))
    deck = synth_unseen.deck_print(print_seed)
    layout = synth_unseen.layout_scene(
        reader.game, order, cols, np.random.default_rng(7), deck=deck
    )
    session = Enrolment(reader, "test", order, cols, rows)
    session.capture(1, layout.image)
    reader.use_deck(session.profile())
    return [
        synth_unseen.scene(reader.game, np.random.default_rng(seed), deck=deck) for seed in seeds
    ]
