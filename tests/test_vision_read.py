"""``tableref read``: the JSON contract, annotation, and bad files."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision import synth


def tableref(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "host", *map(str, args)],
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.fixture(scope="module")
def tiles_photo(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[str]]:
    scene = synth.tile_scene(
        np.random.default_rng(11), layout="rows", surface="wood", lighting="even", angle=0.0
    )
    path = tmp_path_factory.mktemp("read") / "table.jpg"
    cv2.imwrite(str(path), scene.image)
    return path, sorted(t.label for t in scene.truths)


def test_read_rummikub_json_contract(tiles_photo: tuple[Path, list[str]], tmp_path: Path) -> None:
    path, labels = tiles_photo
    out = tmp_path / "annotated.png"
    done = tableref("read", path, "--game", "rummikub", "--json", "--annotate", out)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["image"] == str(path)
    assert set(result) == {"image", "objects", "sets"}
    for o in result["objects"]:
        assert set(o) == {"label", "confidence", "quad", "alternatives"}
        assert 0.0 <= o["confidence"] <= 1.0
        assert len(o["quad"]) == 4 and all(len(p) == 2 for p in o["quad"])
        if o["confidence"] < 0.9:
            assert len(o["alternatives"]) == 3
            assert all(set(a) == {"label", "confidence"} for a in o["alternatives"])
    read = sorted(o["label"] for o in result["objects"])
    right = sum(min(read.count(x), labels.count(x)) for x in set(labels))
    assert right >= 0.9 * len(labels)
    # Sets are strings of tokens, ready for `tableref check rummikub`, covering every tile.
    assert sorted(" ".join(result["sets"]).split()) == read
    image = cv2.imread(str(out))
    assert image is not None and image.shape[:2] == cv2.imread(str(path)).shape[:2]


def test_read_several_images_gives_a_list(tiles_photo: tuple[Path, list[str]]) -> None:
    path, _ = tiles_photo
    done = tableref("read", path, path, "--game", "rummikub", "--json")
    assert done.returncode == 0, done.stderr
    assert [r["image"] for r in json.loads(done.stdout)] == [str(path), str(path)]


def test_empty_table_has_no_objects(tmp_path: Path) -> None:
    path = tmp_path / "empty.png"
    cv2.imwrite(str(path), synth.render_surface("wood", 1000, 750, np.random.default_rng(2)))
    for game in ("rummikub", "cards", "allin"):
        done = tableref("read", path, "--game", game, "--json")
        assert done.returncode == 0, done.stderr
        result = json.loads(done.stdout)
        assert result["objects"] == []
    blank = tmp_path / "blank.png"
    cv2.imwrite(str(blank), np.full((300, 400, 3), 255, np.uint8))
    assert json.loads(tableref("read", blank, "--game", "cards", "--json").stdout)["objects"] == []


def test_cards_have_no_sets(tmp_path: Path) -> None:
    scene = synth.card_scene(np.random.default_rng(4), "allin", layout="apart")
    path = tmp_path / "cards.png"
    cv2.imwrite(str(path), scene.image)
    result = json.loads(tableref("read", path, "--game", "allin", "--json").stdout)
    assert "sets" not in result
    assert result["objects"]


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda d: d / "missing.jpg", "does not exist"),
        (
            lambda d: (d / "junk.jpg").write_bytes(b"\x00garbage") and d / "junk.jpg",
            "not a readable image",
        ),
        (lambda d: d, "not a file"),
    ],
)
def test_bad_files_exit_2_with_a_clear_message(tmp_path: Path, make, message: str) -> None:  # type: ignore[no-untyped-def]
    path = make(tmp_path)
    done = tableref("read", path, "--game", "cards")
    assert done.returncode == 2
    assert message in done.stderr and str(path) in done.stderr


def test_unknown_game_is_refused(tiles_photo: tuple[Path, list[str]]) -> None:
    path, _ = tiles_photo
    done = tableref("read", path, "--game", "chess")
    assert done.returncode == 2
    assert "chess" in done.stderr
