"""The camera path: the frame gate skips hands, corner indices of one card become one card,
and a deck is read by vision exactly when vision reads it here."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
import tally

from host.camera_feed import CameraFeed, merge_corners, reader_for, vision_reads
from host.cli.common import InputError
from host.device import FakeDevice
from host.referee import Table
from host.store import Store
from host.table.reads import FrameRead


def _index(label: str, x: float, y: float, conf: float = 0.9, h: float = 40) -> dict[str, Any]:
    w = h * 0.62
    quad = [[x - w / 2, y - h / 2], [x + w / 2, y - h / 2], [x + w / 2, y + h / 2],
            [x - w / 2, y + h / 2]]  # fmt: skip
    return {"label": label, "confidence": conf, "quad": quad}


def test_both_corners_of_one_card_are_one_card() -> None:
    near = merge_corners([_index("7c", 100, 100, 0.8), _index("7c", 190, 250, 0.95)])
    assert len(near) == 1 and near[0]["confidence"] == 0.95
    centre = np.array(near[0]["quad"]).mean(axis=0)
    assert np.allclose(centre, (145, 175), atol=2)  # the card's middle
    # a card's length apart no more: two places (the box check flags the second copy)
    assert len(merge_corners([_index("7c", 100, 100), _index("7c", 600, 500)])) == 2
    # neighbours with other labels stay apart
    assert len(merge_corners([_index("7c", 100, 100), _index("8c", 150, 100)])) == 2


def test_a_deck_vision_does_not_read_is_refused_in_words() -> None:
    with pytest.raises(InputError, match="vision does not read the bridge deck"):
        reader_for("bridge")
    assert set(vision_reads()) <= {"rummikub", "allin", "standard", "fourcolor", "cactus"}


def test_the_gate_keeps_hands_away_from_the_reader(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from vision.synth_sequence import hand_sequence

    tally.install(monkeypatch)
    table = Table(Store(tmp_path / "t.sqlite3"), FakeDevice(), stable_frames=3)
    sid = table.store.create_session("night", ["ann", "bob"])
    table.start_game(sid, "tally", {"target": 60})
    frames = hand_sequence(np.random.default_rng(4))
    read: list[int] = []
    by_image = {id(f.image): i for i, f in enumerate(frames)}

    def reader(deck: str) -> Any:
        def read_one(image: Any) -> FrameRead:
            read.append(by_image[id(image)])
            return FrameRead()

        return read_one

    feed = CameraFeed((f.image for f in frames), table, readers=reader)
    feed.run()
    assert read, "the still table was never read"
    assert not [i for i in read if frames[i].hand_over_table], "a hand frame reached the reader"
    assert feed.skipped + feed.count == len(frames)
