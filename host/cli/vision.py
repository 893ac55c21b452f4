"""``tableref read`` (cards and tiles from photos) and ``tableref train`` (the recognisers)."""

from __future__ import annotations

import json
import sys
from dataclasses import replace
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from host.cli.app import app
from host.cli.common import InputError, JsonOption, emit


class ReadGame(StrEnum):
    rummikub = "rummikub"
    cards = "cards"
    allin = "allin"
    fourcolor = "fourcolor"
    cactus = "cactus"


class Kind(StrEnum):
    tiles = "tiles"
    cards = "cards"
    fourcolor = "fourcolor"
    cactus = "cactus"


@app.command("read")
def read(
    images: Annotated[list[Path], typer.Argument(help="Image files to read.")],
    game: Annotated[ReadGame, typer.Option("--game", help="Which objects to read.")],
    as_json: JsonOption = False,
    annotate: Annotated[
        Path | None,
        typer.Option("--annotate", help="Write the image with quads and labels drawn (PNG)."),
    ] = None,
    deck: Annotated[
        str | None,
        typer.Option("--deck", help="Read with this enrolled deck (see `tableref enroll`)."),
    ] = None,
    data_dir: Annotated[
        Path | None, typer.Option("--data-dir", help="Where enrolled decks live.")
    ] = None,
) -> None:
    """Find and name every tile, card corner index, Four Color card or Cactus card in each
    image."""
    from vision.annotate import draw
    from vision.reader import ImageError, TableReader, load_image
    from vision.recognise import ModelError

    if annotate is not None and len(images) > 1:
        raise InputError("--annotate takes one image at a time")
    from vision.enroll import EnrolError

    try:
        reader = TableReader(game.value, deck=deck, data_dir=data_dir)
    except (ModelError, EnrolError, ValueError) as exc:
        raise InputError(str(exc)) from exc
    results = []
    for path in images:
        try:
            image = load_image(path)
        except ImageError as exc:
            raise InputError(str(exc)) from exc
        reading = reader.read(image)
        results.append(reading.to_json(str(path)))
        if annotate is not None and not draw(image, reading, annotate):
            raise InputError(f"cannot write {annotate}")

    def render() -> None:
        for r in results:
            typer.echo(f"{r['image']}: {len(r['objects'])} objects")
            for o in r["objects"]:
                alts = ", ".join(f"{a['label']} {a['confidence']:.2f}" for a in o["alternatives"])
                extra = f"  (or: {alts})" if alts else ""
                typer.echo(f"  {o['label']:>4} {o['confidence']:.2f}{extra}")
            for s in r.get("sets", []):
                typer.echo(f"  set: {s}")
            for m in r.get("melds", []):
                typer.echo(f"  meld: {' '.join(m)}")

    emit(results[0] if len(results) == 1 else results, as_json, render)


@app.command("train")
def train(
    kind: Annotated[
        Kind, typer.Argument(help="Which recogniser: tiles, cards, fourcolor or cactus.")
    ],
    seed: Annotated[int, typer.Option(help="Seed for every random choice.")] = 0,
    scenes: Annotated[
        int | None,
        typer.Option(help="Synthetic scenes to render (default: as for the shipped model)."),
    ] = None,
    epochs: Annotated[
        int | None, typer.Option(help="Passes over the crops (default: as for the shipped model).")
    ] = None,
    real: Annotated[
        bool, typer.Option(help="Add the real photos' training split (tiles and cards).")
    ] = True,
    out: Annotated[Path, typer.Option(help="Folder for the .onnx and label files.")] = Path(
        "models"
    ),
    as_json: JsonOption = False,
) -> None:
    """Train a recogniser on CPU and export it to ONNX (with its label file)."""
    from rich.progress import BarColumn, Progress, TaskID, TextColumn, TimeRemainingColumn

    from vision.train import SHIPPED
    from vision.train import train as run_training

    default = SHIPPED[kind.value]
    settings = replace(
        default,
        seed=seed,
        scenes=default.scenes if scenes is None else scenes,
        epochs=default.epochs if epochs is None else epochs,
        real=real and default.real,
    )
    tasks: dict[str, TaskID] = {}
    with Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        TextColumn("{task.completed}/{task.total}"),
        TimeRemainingColumn(),
        disable=as_json or not sys.stderr.isatty(),
        console=None,
    ) as progress:

        def report(stage: str, done: int, total: int) -> None:
            if stage not in tasks:
                tasks[stage] = progress.add_task(stage, total=total)
            progress.update(tasks[stage], completed=done, total=total)

        result = run_training(settings, out, report)
    emit(result, as_json, lambda: typer.echo(json.dumps(result, indent=2)))
