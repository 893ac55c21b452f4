"""Frame sources: one iterator whatever the source."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.camera import SourceError, frames, picamera2_available


def _image(value: int) -> np.ndarray:
    return np.full((40, 60, 3), value, np.uint8)


def test_folder_gives_its_images_in_name_order(tmp_path: Path) -> None:
    for name, v in (("b.png", 20), ("a.jpg", 10), ("c.png", 30)):
        cv2.imwrite(str(tmp_path / name), _image(v))
    (tmp_path / "notes.txt").write_text("not an image")
    got = list(frames(tmp_path))
    assert [Path(f.source).name for f in got] == ["a.jpg", "b.png", "c.png"]
    assert [f.index for f in got] == [0, 1, 2]
    assert abs(int(got[1].image.mean()) - 20) <= 1


def test_single_image_file(tmp_path: Path) -> None:
    cv2.imwrite(str(tmp_path / "x.png"), _image(99))
    (only,) = frames(tmp_path / "x.png")
    assert only.image.shape == (40, 60, 3)


def test_video_file_frames_and_limit(tmp_path: Path) -> None:
    path = tmp_path / "clip.avi"
    out = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 10, (60, 40))
    assert out.isOpened()
    for v in range(5):
        out.write(_image(40 * v))
    out.release()
    assert len(list(frames(path))) == 5
    got = list(frames(path, limit=2))
    assert [f.source for f in got] == [f"{path}#0", f"{path}#1"]
    assert got[1].timestamp == pytest.approx(0.1)


def test_missing_source_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(SourceError, match="does not exist"):
        list(frames(tmp_path / "nope.jpg"))


def test_unreadable_image_is_an_error(tmp_path: Path) -> None:
    (tmp_path / "bad.jpg").write_bytes(b"not a jpeg")
    with pytest.raises(SourceError, match="not a readable image"):
        list(frames(tmp_path / "bad.jpg"))


def test_absent_camera_is_an_error() -> None:
    with pytest.raises(SourceError, match="camera 97"):
        list(frames(97))


def test_picamera2_missing_is_a_clear_error() -> None:
    if picamera2_available():
        pytest.skip("this machine has picamera2 (a Raspberry Pi): nothing to refuse")
    with pytest.raises(SourceError, match="picamera2"):
        list(frames("picamera2"))
