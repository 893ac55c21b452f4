"""Why an unseen deck's object was not read right after enrolment: misses by cause.

For development seeds apart from the benchmark's (``python -m vision.enrol_misses GAME``):
the deck is enrolled from one generated layout photo (:mod:`vision.synth_unseen`), table
scenes are read with the profile, and every object not read right falls in one bucket,
decided in this order:

* ``not_proposed``: no detector proposal covers it (:func:`vision.matching.same_object`);
* ``wrong_label``: a kept read covers it but names another card;
* ``lost_to_overlap``: a proposal over it was judged an object and named right, but overlap
  resolution kept another read instead;
* ``turned_away``: the proposals' gate (:mod:`vision.proposal_gate`, card decks) turned
  away a proposal over it that the profile, asked, names right;
* ``judged_nothing_named_right``: every proposal over it was judged nothing, and the
  profile's nearest card for one of them is right (the object-or-nothing gate's miss);
* ``judged_nothing``: every proposal over it was judged nothing, named wrong too.

``--prints 201 202 ...`` reads one physical deck a seed instead, every copy of a card printed
alike, as the benchmark's one-print rows do; ``--models DIR`` reads with other models, and
``--gate-from DIR`` with the proposals' gate in DIR whatever taught it. The
one-print development figures of ``models/LIMITS.md`` ("one-print decks 201-206, scenes
61 000+") are ``python -m vision.enrol_misses cards allin --prints 201 202 203 204 205 206
--layout 7 --scene-seed 61000 --models DIR``, a line of JSON per print.

Spurious reads are split by where they lie: ``on_object`` (over a labelled object, in a
frame too far off to count as it: a rank or suit alone, a neighbour's index), ``on_partial``
(over a partly covered object, named wrong), ``clutter`` (on nothing labelled).
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np

from vision import detect_cards, detect_tiles
from vision.crops import crops
from vision.evaluate import Score, score
from vision.matching import same_object
from vision.reader import TableReader
from vision.recognise import MODELS, ModelError
from vision.synth import Scene

BUCKETS = (
    "not_proposed",
    "wrong_label",
    "lost_to_overlap",
    "turned_away",
    "judged_nothing_named_right",
    "judged_nothing",
)


def causes(reader: TableReader, scene: Scene) -> tuple[Counter[str], Counter[str], Score]:
    """(misses by cause, spurious reads by place, the scene's score) for one scene read with
    ``reader`` (and the profile it holds)."""
    image = scene.image
    quads = (
        detect_tiles.tile_candidates(image)
        if reader.kind == "tiles"
        else detect_cards.card_candidates(image, ink_floor=reader.ink_floor)
    )
    reads = reader._recognise(crops(image, quads, reader.recogniser.spec.crop), name_all=True)
    objects = reader.read(image).objects
    s = score(objects, scene.truths, partial=scene.partial)
    miss: Counter[str] = Counter()
    for t in scene.truths:
        kept = [o for o in objects if same_object(o.quad, t.quad)]
        if any(o.label == t.label for o in kept):
            continue
        placed = [(q, r) for q, r in zip(quads, reads, strict=True) if same_object(q, t.quad)]
        over = [r for _, r in placed]
        if not over:
            miss["not_proposed"] += 1
        elif kept:
            named = any(r.label == t.label for r in over)
            miss["lost_to_overlap" if named else "wrong_label"] += 1
        elif any(r.label == t.label for r in over):
            miss["lost_to_overlap"] += 1
        elif _turned_away(reader, image, [q for q, r in placed if r.looks == 0], t.label):
            miss["turned_away"] += 1
        elif any(r.alternatives and r.alternatives[0][0] == t.label for r in over):
            miss["judged_nothing_named_right"] += 1
        else:
            miss["judged_nothing"] += 1
    spurious: Counter[str] = Counter()
    for o in objects:
        if any(same_object(o.quad, t.quad) for t in scene.truths):
            continue
        if any(same_object(o.quad, p.quad) for p in scene.partial):
            if not any(p.label == o.label and same_object(o.quad, p.quad) for p in scene.partial):
                spurious["on_partial"] += 1
            continue
        centre = o.quad.mean(axis=0)
        on = any(_near(centre, t.quad) for t in [*scene.truths, *scene.partial])
        spurious["on_object" if on else "clutter"] += 1
    return miss, spurious, s


def _turned_away(
    reader: TableReader, image: np.ndarray, away: list[np.ndarray], label: str
) -> bool:
    """Whether the profile, asked, names ``label`` (as an object, or as its nearest card) in
    one of the proposals ``away`` over an object that the proposals' gate turned away."""
    if not away:
        return False
    asked = reader._read_every(crops(image, away, reader.recogniser.spec.crop), name_all=True)
    return any(
        r.label == label or (r.alternatives and r.alternatives[0][0] == label) for r in asked
    )


def _near(point: np.ndarray, quad: np.ndarray, grow: float = 1.6) -> bool:
    import cv2

    c = quad.mean(0)
    q = (c + (quad - c) * grow).astype(np.float32).reshape(-1, 1, 2)
    return cv2.pointPolygonTest(q, (float(point[0]), float(point[1])), False) >= 0


def measure(
    game: str,
    layout_seed: int,
    scene_seed: int,
    scenes: int,
    calibrate: bool = True,
    print_seed: int | None = None,
    models: Path = MODELS,
    gate_from: Path | None = None,
) -> dict[str, Any]:
    """Enrol the unseen deck from one layout photo, then read ``scenes`` table scenes with
    the profile. Each card is printed its own way, as the benchmark's harder measure draws
    them, unless ``print_seed`` names one physical deck (``synth_unseen.deck_print``) whose
    every copy of a card is printed alike, as the benchmark's one-print rows read them.
    ``gate_from``: the folder whose proposals' gate the reader uses whatever taught it
    (:class:`TableReader`)."""
    import time

    from host.cli.enroll import deck_order, default_grid
    from vision import synth_unseen
    from vision.enrol_session import Enrolment

    reader = TableReader(game, models=models, gate_from=gate_from)  # type: ignore[arg-type]
    order = deck_order(game)
    cols, rows = default_grid(len(order))
    deck = None if print_seed is None else synth_unseen.deck_print(print_seed)
    layout = synth_unseen.layout_scene(
        game, order, cols, np.random.default_rng(layout_seed), deck=deck
    )
    started = time.perf_counter()
    session = Enrolment(reader, "dev", order, cols, rows)
    session.calibrate = calibrate
    session.capture(1, layout.image)
    profile = session.profile(partial=True)
    enrol_s = time.perf_counter() - started
    reader.use_deck(profile)
    total, miss, spurious = Score(), Counter[str](), Counter[str]()
    for i in range(scenes):
        scene = synth_unseen.scene(game, np.random.default_rng(scene_seed + i), deck=deck)
        m, sp, s = causes(reader, scene)
        total.add(s)
        miss.update(m)
        spurious.update(sp)
    return {
        "game": game,
        "layout_seed": layout_seed,
        **({} if deck is None else {"print_seed": print_seed, "font": deck.font}),
        "enrolled": len(order) - len(session.missing),
        "enrol_seconds": round(enrol_s, 2),
        "object_threshold": profile.object_threshold,
        **total.to_json(),
        "misses": {b: miss[b] for b in BUCKETS},
        "spurious_by_place": dict(spurious),
    }


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(
        prog="python -m vision.enrol_misses", description=__doc__.splitlines()[0]
    )
    ap.add_argument("games", nargs="+", choices=("cards", "allin", "rummikub"))
    ap.add_argument("--layout", type=int, nargs="+", default=[11])
    ap.add_argument("--scene-seed", type=int, default=60_000)
    ap.add_argument("--scenes", type=int, default=20)
    ap.add_argument(
        "--fixed-margin", action="store_true", help="the old fixed OBJECT_MARGIN, uncalibrated"
    )
    ap.add_argument(
        "--prints",
        type=int,
        nargs="+",
        help="one physical deck a seed, every copy of a card printed alike (development used "
        "201-206; the benchmark's are its own), each enrolled from each --layout",
    )
    ap.add_argument(
        "--models", type=Path, default=MODELS, help="read with the models in this folder"
    )
    ap.add_argument(
        "--gate-from",
        type=Path,
        help="read with the proposals' gate in this folder (models/ for the shipped one), "
        "whatever recogniser taught it",
    )
    args = ap.parse_args(argv)
    prints: list[int | None] = list(args.prints) if args.prints else [None]
    for game in args.games:
        for layout in args.layout:
            for print_seed in prints:
                try:
                    out = measure(
                        game,
                        layout,
                        args.scene_seed,
                        args.scenes,
                        not args.fixed_margin,
                        print_seed,
                        args.models,
                        args.gate_from,
                    )
                except ModelError as exc:  # a --models folder without the game's model
                    ap.error(str(exc))
                print(json.dumps(out), flush=True)


if __name__ == "__main__":
    main()
