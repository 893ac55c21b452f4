"""A tile's overlapping reads name it together when a deck profile reads the table
(vision.pooled_reads): overlap resolution keeps the best-framed read, which may name the tile
worse than the other framings of it."""

from __future__ import annotations

import numpy as np

from vision.pooled_reads import pool_names
from vision.recognise import Read


def _tile(x: float, y: float = 0.0, w: float = 40.0, h: float = 56.0) -> np.ndarray:
    return np.array([[x, y], [x + w, y], [x + w, y + h], [x, y + h]], np.float32)


def _read(label: str, p: float, other: str) -> Read:
    return Read(label, p, [(label, p), (other, round(1 - p, 2))], 0.05)


def test_two_framings_outvote_the_best_framed_read() -> None:
    # The kept read (highest rank) says k8 at 0.89; two other framings of the same tile read
    # the teal 8 at 0.98 and 0.9.
    quads = [_tile(0), _tile(3, 2), _tile(-2, 4)]
    reads = [_read("k8", 0.89, "b8"), _read("b8", 0.98, "k8"), _read("b8", 0.9, "k8")]
    out = pool_names(quads, reads, keep=[0, 1, 2], chosen=[0], ranks=[0.97, 0.95, 0.94])
    assert out[0].label == "b8"
    assert abs(out[0].confidence - (0.98 + 0.9 + 0.11) / 3) < 1e-6
    assert out[0].alternatives[0][0] == "b8" and out[0].alternatives[1][0] == "k8"
    assert out[1:] == reads[1:]  # only kept reads are renamed


def test_a_neighbours_read_and_an_agreeing_group_change_nothing() -> None:
    # The neighbour's b8 lies a tile's width away: another object, so it does not count.
    quads = [_tile(0), _tile(44), _tile(88)]
    reads = [_read("k8", 0.89, "b8"), _read("b8", 0.99, "k8"), _read("b8", 0.99, "k8")]
    out = pool_names(quads, reads, keep=[0, 1, 2], chosen=[0, 1], ranks=[0.97, 0.95, 0.9])
    assert out == reads
    # One framing reading otherwise, outweighed by the kept read's own: unchanged as well.
    quads = [_tile(0), _tile(3, 2)]
    reads = [_read("r9", 0.95, "r6"), _read("r6", 0.6, "r9")]
    assert pool_names(quads, reads, [0, 1], [0], [0.96, 0.9]) == reads


def test_a_framing_counts_for_the_highest_ranked_kept_read_it_frames() -> None:
    # Two kept reads framed as one object (they did not clash in resolution): the left-out
    # read counts with the higher-ranked one only.
    quads = [_tile(0), _tile(8), _tile(4)]
    reads = [_read("o3", 0.51, "o9"), _read("o3", 0.6, "o9"), _read("o9", 0.99, "o3")]
    out = pool_names(quads, reads, keep=[0, 1, 2], chosen=[0, 1], ranks=[0.8, 0.9, 0.7])
    assert out[1].label == "o9"
    assert out[0] == reads[0]


def test_a_read_named_outside_its_alternatives_votes_its_label_alone() -> None:
    # A tile the deck profile left out is named by the model, with the profile's nearest
    # enrolled tiles as its alternatives: those are other tiles, not its doubt.
    quads = [_tile(0), _tile(3, 2)]
    left_out = Read("o12", 0.93, [("o11", 0.7), ("o2", 0.2)], 0.02)
    reads = [left_out, _read("o11", 0.55, "o12")]
    assert pool_names(quads, reads, [0, 1], [0], [0.9, 0.8]) == reads
