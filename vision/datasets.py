"""The real photos in ``../shared/datasets/`` as ground truth, and the fixed train/held-out split.

Split: a photo is *held out* when the first byte of the SHA-1 of its file name is divisible by
5 (about 20 %); the rest is the training split. The rule depends on nothing but the name, so
it never changes when photos are added, and no held-out photo reaches training.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import cv2
import numpy as np

from vision.synth import Quad, Truth

Kind = Literal["tiles", "cards"]
FOLDERS = {"tiles": "rummikub-photos", "cards": "playing-card-photos"}
IGNORED_CLASSES = {"BACK"}  # a card's back shows no index


def datasets_root() -> Path:
    env = os.environ.get("TABLEREF_DATASETS")
    if env:
        return Path(env)
    return Path(__file__).resolve().parent.parent.parent / "shared" / "datasets"


def split_of(name: str) -> Literal["train", "test"]:
    return "test" if hashlib.sha1(name.encode()).digest()[0] % 5 == 0 else "train"


def in_dev_fold(name: str) -> bool:
    """A training photo set apart to compare training recipes (first SHA-1 byte ≡ 1 mod 5:
    about a fifth of the training split). Recipes are tuned on it, never on the held-out
    split; the shipped models train on the whole training split, this fold included."""
    return split_of(name) == "train" and hashlib.sha1(name.encode()).digest()[0] % 5 == 1


@dataclass(frozen=True)
class Photo:
    path: Path
    truths: list[Truth]
    ignore: list[Quad]  # labelled regions that are not objects to read (card backs)

    @property
    def split(self) -> str:
        return split_of(self.path.name)


def token_for(kind: Kind, cls: str) -> str | None:
    """The notation token of a dataset class name (None: not an object we read)."""
    if kind == "tiles":
        if cls == "joker":
            return "J"
        colour, number = cls.split("_")
        return {"black": "k", "blue": "b", "red": "r", "orange": "o"}[colour] + number
    if cls in IGNORED_CLASSES:
        return None
    if cls.endswith("JOKER"):
        return "X"
    return cls


def _quad(values: list[float], w: int, h: int, kind: Kind) -> Quad:
    if len(values) == 4:
        cx, cy, bw, bh = values
        pts = np.array(
            [
                [cx - bw / 2, cy - bh / 2],
                [cx + bw / 2, cy - bh / 2],
                [cx + bw / 2, cy + bh / 2],
                [cx - bw / 2, cy + bh / 2],
            ],
            np.float32,
        )
    else:
        pts = np.array(values, np.float32).reshape(-1, 2)
    pts = pts * np.array([w, h], np.float32)
    if kind == "cards" or len(values) == 4:
        x0, y0 = pts.min(0)
        x1, y1 = pts.max(0)
        return np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float32)
    # A tile polygon: its rotated box, upright (portrait, top edge towards the image top).
    (cx, cy), (rw, rh), ang = cv2.minAreaRect(pts)
    if rw > rh:
        rw, rh, ang = rh, rw, ang + 90.0
    box = cv2.boxPoints(((cx, cy), (rw, rh), ang)).astype(np.float32)
    a = np.radians(ang + 90.0)
    down = np.array([np.cos(a), np.sin(a)], np.float32)
    if down[1] < 0:
        down = -down
    right = np.array([down[1], -down[0]], np.float32)
    rel = box - box.mean(0)
    order = {(bool(r @ right > 0), bool(r @ down > 0)): i for i, r in enumerate(rel)}
    return box[
        [order[(False, False)], order[(True, False)], order[(True, True)], order[(False, True)]]
    ]


def load(kind: Kind, root: Path | None = None) -> list[Photo]:
    folder = (root or datasets_root()) / FOLDERS[kind]
    if not folder.is_dir():
        raise FileNotFoundError(f"dataset folder {folder} is missing")
    classes = (folder / "classes.txt").read_text().splitlines()
    photos = []
    for image in sorted((folder / "images").glob("*.jpg")):
        label_file = folder / "labels" / (image.stem + ".txt")
        truths: list[Truth] = []
        ignore: list[Quad] = []
        size = _size(image)
        if label_file.is_file():
            for line in label_file.read_text().splitlines():
                parts = line.split()
                if len(parts) < 5:
                    continue
                cls = classes[int(parts[0])]
                q = _quad([float(v) for v in parts[1:]], size[0], size[1], kind)
                token = token_for(kind, cls)
                if token is None:
                    ignore.append(q)
                else:
                    truths.append(Truth(token, q))
        photos.append(Photo(image, truths, ignore))
    return photos


def _size(path: Path) -> tuple[int, int]:
    """(width, height) from the JPEG header, without decoding the picture."""
    data = path.read_bytes()
    i = 2
    while i + 9 < len(data):
        if data[i] != 0xFF:
            i += 1
            continue
        marker = data[i + 1]
        length = int.from_bytes(data[i + 2 : i + 4], "big")
        if marker in (0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE):
            h = int.from_bytes(data[i + 5 : i + 7], "big")
            w = int.from_bytes(data[i + 7 : i + 9], "big")
            return w, h
        i += 2 + length
    full = cv2.imread(str(path), cv2.IMREAD_UNCHANGED)
    if full is None:
        raise FileNotFoundError(f"cannot read {path}")
    return int(full.shape[1]), int(full.shape[0])
