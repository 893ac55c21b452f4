"""Live zone placement (bench/results/zones.json): cards laid in the hand areas and the centre
of generated tables seen through a tilted camera, placed by the table's calibration (found
from its markers) and by the default image sectors; share placed in the zone they lie in, and
the cost per card."""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from host.table.reads import ObjectRead
from host.table.stable import TableObject
from host.table.zones import CENTRE, CalibratedLayout, Layout, SectorLayout
from vision import calibrate
from vision.synth_table import render_calibration_scene

TABLES = 30
CARDS_PER_ZONE = 6
CARD_MM = (56.0, 87.0)


def _card(scene: Any, x: float, y: float, turn: float, oid: int, label: str) -> TableObject:
    w, h = CARD_MM[0] / 2, CARD_MM[1] / 2
    c, s = np.cos(turn), np.sin(turn)
    corners = np.array([[x + dx * c - dy * s, y + dx * s + dy * c]
                        for dx, dy in ((-w, -h), (w, -h), (w, h), (-w, h))])  # fmt: skip
    quad = tuple((float(px), float(py)) for px, py in scene.true_to_image(corners))
    read = ObjectRead(label=label, confidence=0.99, quad=quad)
    return TableObject(oid, label, read, corrected=False, stable=True)


def run() -> dict[str, Any]:
    right = {"calibrated": 0, "sectors": 0}
    by_seats: dict[int, dict[str, int]] = {}
    cards = 0
    seconds = 0.0
    for seed in range(TABLES):
        rng = np.random.default_rng(5000 + seed)
        scene = render_calibration_scene(rng, image_size=(1280, 960))
        seats = 2 + seed % 5  # 2 to 6 players
        players = [f"p{i + 1}" for i in range(seats)]
        table = calibrate.from_markers(
            "bench", scene.image, scene.width_mm, scene.height_mm,
            zones=calibrate.default_zones(seats),
        )  # fmt: skip
        layouts: dict[str, Layout] = {
            "calibrated": CalibratedLayout(table, players, game="bench"),
            "sectors": SectorLayout(players),
        }
        owner = {f"seat{i + 1}": p for i, p in enumerate(players)} | {CENTRE: CENTRE}
        tally = by_seats.setdefault(seats, {"cards": 0, "calibrated": 0, "sectors": 0})
        for zone in table.zones:
            xs = [p[0] for p in zone.polygon]
            ys = [p[1] for p in zone.polygon]
            for k in range(CARDS_PER_ZONE):
                # Anywhere in the zone, the card's centre at least 30 mm inside its edges.
                x = rng.uniform(min(xs) * scene.width_mm + 30, max(xs) * scene.width_mm - 30)
                y = rng.uniform(min(ys) * scene.height_mm + 30, max(ys) * scene.height_mm - 30)
                obj = _card(scene, float(x), float(y), float(rng.uniform(0, np.pi)), k, "x")
                cards += 1
                tally["cards"] += 1
                for name, layout in layouts.items():
                    started = time.perf_counter()
                    placed = layout.zone_of(obj, 1280, 960)
                    if name == "calibrated":
                        seconds += time.perf_counter() - started
                    if placed == owner[zone.name]:
                        right[name] += 1
                        tally[name] += 1
    return {
        "tables": TABLES,
        "cards": cards,
        "right_calibrated": right["calibrated"],
        "right_sectors": right["sectors"],
        "share_calibrated": round(right["calibrated"] / cards, 4),
        "share_sectors": round(right["sectors"] / cards, 4),
        "by_seats": {str(k): v for k, v in sorted(by_seats.items())},
        "ms_per_card_calibrated": round(1000 * seconds / cards, 3),
        "setup": "900 x 600 mm tables, 1280 x 960 px, random tilt, calibrated from the markers "
        "with default_zones(seats); cards 56 x 87 mm turned at random, centres at least 30 mm "
        "inside their zone",
    }
