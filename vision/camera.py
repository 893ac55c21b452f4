"""Frame sources: an image file or folder, a video file, an OpenCV camera, picamera2 on a Pi.

:func:`frames` turns any of them into one iterator of :class:`Frame` (BGR pixels plus where
they came from), so the rest of the program never asks what the source is.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".webp", ".tif", ".tiff")
VIDEO_SUFFIXES = (".mp4", ".avi", ".mov", ".mkv", ".webm", ".m4v")


class SourceError(ValueError):
    """A source that does not exist or cannot be opened."""


@dataclass(frozen=True)
class Frame:
    image: npt.NDArray[Any]
    source: str  # file path, "video.mp4#12", "camera:0", "picamera2"
    index: int
    timestamp: float  # seconds (monotonic clock for live sources, frame time for videos)


def picamera2_available() -> bool:
    try:
        import picamera2  # noqa: F401
    except ImportError:
        return False
    return True


def frames(source: str | int | Path, limit: int | None = None) -> Iterator[Frame]:
    """Frames from ``source``:

    * a folder: its images in name order; an image file: that one image;
    * a video file: its frames;
    * an integer (or a string of digits): that OpenCV camera;
    * ``"picamera2"``: the Raspberry Pi camera through picamera2.
    """
    if isinstance(source, int) or (isinstance(source, str) and source.isdigit()):
        it = _camera(int(source))
    elif source == "picamera2":
        it = _picamera2()
    else:
        path = Path(source)
        if path.is_dir():
            it = _folder(path)
        elif not path.exists():
            raise SourceError(f"source {path} does not exist")
        elif path.suffix.lower() in VIDEO_SUFFIXES:
            it = _video(path)
        else:
            it = _images([path])
    for n, frame in enumerate(it):
        if limit is not None and n >= limit:
            return
        yield frame


def _images(paths: list[Path]) -> Iterator[Frame]:
    for i, p in enumerate(paths):
        image = cv2.imdecode(np.fromfile(str(p), np.uint8), cv2.IMREAD_COLOR)
        if image is None:
            raise SourceError(f"{p} is not a readable image")
        yield Frame(image, str(p), i, float(i))


def _folder(path: Path) -> Iterator[Frame]:
    files = sorted(p for p in path.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
    return _images(files)


def _video(path: Path) -> Iterator[Frame]:
    cap = cv2.VideoCapture(str(path))
    if not cap.isOpened():
        raise SourceError(f"cannot open video {path}")
    fps = cap.get(cv2.CAP_PROP_FPS) or 30.0
    # A file's frames are timed by their position, so replays are reproducible.
    return _capture(cap, lambda i: (f"{path}#{i}", i / fps))


def _camera(index: int) -> Iterator[Frame]:
    cap = cv2.VideoCapture(index)
    if not cap.isOpened():
        raise SourceError(f"cannot open camera {index}")
    return _capture(cap, lambda _i: (f"camera:{index}", time.monotonic()))


def _capture(
    cap: cv2.VideoCapture, name_and_time: Callable[[int], tuple[str, float]]
) -> Iterator[Frame]:
    """Frames from an opened capture until it runs dry; the capture is released at the end."""
    try:
        i = 0
        while True:
            ok, image = cap.read()
            if not ok:
                return
            name, stamp = name_and_time(i)
            yield Frame(image, name, i, stamp)
            i += 1
    finally:
        cap.release()


def _picamera2() -> Iterator[Frame]:
    try:
        from picamera2 import Picamera2
    except ImportError:
        raise SourceError("picamera2 is not installed (it comes with Raspberry Pi OS)") from None
    cam: Any = Picamera2()
    cam.configure(cam.create_still_configuration(main={"format": "RGB888", "size": (1600, 1200)}))
    cam.start()
    try:
        i = 0
        while True:
            # picamera2's "RGB888" is laid out B, G, R in memory: already OpenCV's order.
            image = np.ascontiguousarray(cam.capture_array())
            yield Frame(image, "picamera2", i, time.monotonic())
            i += 1
    finally:
        cam.stop()
