"""``tableref read`` (cards and tiles from photos), ``tableref train`` and ``tableref quantise``
(the recognisers)."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from dataclasses import replace
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from host.cli.app import app
from host.cli.common import InputError, JsonOption, emit

if TYPE_CHECKING:
    from vision.train import Settings


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
    pips = "pips"
    cards_gate = "cards-gate"
    tiles_gate = "tiles-gate"


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
        Path | None,
        typer.Option("--data-dir", help="Where enrolled decks and table calibrations live."),
    ] = None,
    table: Annotated[
        str | None,
        typer.Option(
            "--table",
            help="Report where each object lies on this calibrated table (mm and zone; see "
            "`tableref calibrate`).",
        ),
    ] = None,
    zones: Annotated[
        list[str] | None,
        typer.Option(
            "--zone", help="Only objects in this zone of --table (repeat for several zones)."
        ),
    ] = None,
) -> None:
    """Find and name every tile, card corner index, Four Color card or Cactus card in each
    image; with --table, also where each lies on the table (millimetres from marker 0, and
    the zone its centre falls in)."""
    from vision.annotate import draw
    from vision.reader import ImageError, TableReader, load_image
    from vision.recognise import ModelError

    if annotate is not None and len(images) > 1:
        raise InputError("--annotate takes one image at a time")
    from vision.enroll import EnrolError

    calibration = _calibration(table, zones, data_dir)
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
        if calibration is not None:
            result = _on_table(reading, str(path), calibration, image.shape, zones)
        else:
            result = reading.to_json(str(path))
        results.append(result)
        if annotate is not None and not draw(image, reading, annotate):
            raise InputError(f"cannot write {annotate}")

    def render() -> None:
        for r in results:
            typer.echo(f"{r['image']}: {len(r['objects'])} objects")
            for o in r["objects"]:
                alts = ", ".join(f"{a['label']} {a['confidence']:.2f}" for a in o["alternatives"])
                extra = f"  (or: {alts})" if alts else ""
                where = ""
                if "table" in o:
                    x, y = o["table"]["centre_mm"]
                    where = f"  at {x:.0f},{y:.0f} mm in {o['table']['zone'] or 'no zone'}"
                typer.echo(f"  {o['label']:>4} {o['confidence']:.2f}{where}{extra}")
            for s in r.get("sets", []):
                typer.echo(f"  set: {s}")
            for m in r.get("melds", []):
                typer.echo(f"  meld: {' '.join(m)}")

    emit(results[0] if len(results) == 1 else results, as_json, render)


def _calibration(table: str | None, zones: list[str] | None, data_dir: Path | None) -> Any:
    """The stored calibration of ``table`` (checked before any image is read), with every
    zone asked for by ``--zone`` known to it."""
    if table is None:
        if zones:
            raise InputError("--zone needs --table: zones belong to a calibrated table")
        return None
    from vision import calibrate

    try:
        calibration = calibrate.load(table, data_dir)
    except (calibrate.CalibrationError, ValueError) as exc:
        raise InputError(str(exc)) from exc
    known = [z.name for z in calibration.zones]
    for name in zones or []:
        if name not in known and name != calibrate.OFF_TABLE:
            raise InputError(
                f"table {table!r} has no zone {name!r} (its zones: "
                f"{', '.join(known) or 'none yet'}; add one with `tableref calibrate zone`)"
            )
    return calibration


def _on_table(
    reading: Any, image: str, calibration: Any, shape: tuple[int, ...], zones: list[str] | None
) -> dict[str, Any]:
    """The reading's JSON with each object's place on the table. With ``zones``, only the
    objects in them, and the sets / melds grouped from those objects alone (a set never names
    a tile outside the zones asked for)."""
    from vision import calibrate

    try:
        frame = calibration.for_frame(int(shape[1]), int(shape[0]))
    except calibrate.CalibrationError as exc:
        raise InputError(str(exc)) from exc
    places = [frame.locate(o.quad.tolist()) for o in reading.objects]
    if zones:
        keep = [i for i, place in enumerate(places) if place["zone"] in zones]
        reading, places = reading.only(keep), [places[i] for i in keep]
    result: dict[str, Any] = reading.to_json(image)
    objects = [{**o, "table": place} for o, place in zip(result["objects"], places, strict=True)]
    return {**result, "table": calibration.name, "objects": objects}


@app.command("train")
def train(
    kind: Annotated[
        Kind,
        typer.Argument(
            help="Which recogniser: tiles, cards, fourcolor, cactus, pips (a standard "
            "card's pips, read where its index leaves the suit in doubt), or cards-gate / "
            "tiles-gate (which proposals are worth reading, taught by the recogniser in --out)."
        ),
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
        bool, typer.Option(help="Add the real photos' training split (tiles, cards, pips).")
    ] = True,
    dev_out: Annotated[
        bool,
        typer.Option(
            "--dev-out",
            help="Leave the real photos' dev fold out too, for a development model measured "
            "on it (`python -m bench._sweep --photos dev`).",
        ),
    ] = False,
    recipe: Annotated[
        list[str] | None,
        typer.Option(
            "--recipe",
            metavar="NAME=VALUE",
            help="Change one of the recipe's settings (vision.train.Settings, e.g. "
            "thin_digits=0.2 or fonts=DejaVu,Liberation); repeat for more. For a recipe "
            "change measured against the shipped one (models/LIMITS.md).",
        ),
    ] = None,
    out: Annotated[Path, typer.Option(help="Folder for the .onnx and label files.")] = Path(
        "models"
    ),
    as_json: JsonOption = False,
) -> None:
    """Train a recogniser on CPU and export it to ONNX (with its label file)."""
    from rich.progress import BarColumn, Progress, TaskID, TextColumn, TimeRemainingColumn

    from vision import recipe_change
    from vision.quantise import QuantiseError
    from vision.train import SHIPPED
    from vision.train import train as run_training

    default = SHIPPED[kind.value]
    settings = replace(
        default,
        seed=seed,
        scenes=default.scenes if scenes is None else scenes,
        epochs=default.epochs if epochs is None else epochs,
        real=real and default.real,
        dev_out=dev_out,
    )
    try:
        settings = recipe_change.changed(settings, recipe or [])
    except recipe_change.RecipeError as exc:
        raise InputError(str(exc)) from exc
    if dev_out and not settings.real:
        # Otherwise the flag would be dropped without a word and the draw taken for one.
        why = "--no-real was given" if default.real else f"{kind.value} learns from none"
        raise InputError(f"--dev-out leaves real photos out, but {why}")
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

        try:
            if kind in (Kind.cards_gate, Kind.tiles_gate):
                result = _train_gate(settings, out, report)
            else:
                result = run_training(settings, out, report)
        except (QuantiseError, FileNotFoundError) as exc:
            raise InputError(str(exc)) from exc
    emit(result, as_json, lambda: typer.echo(json.dumps(result, indent=2)))


def _train_gate(
    settings: Settings, out: Path, report: Callable[[str, int, int], None]
) -> dict[str, Any]:
    """A proposals' gate, taught by the recogniser it will stand in front of: the one in
    ``out`` where that holds one (a recogniser just trained there), else the shipped one."""
    from vision import train_gate
    from vision.recognise import MODELS, ModelError

    kind = train_gate.recogniser_kind(settings)
    teacher = out if (out / f"{kind}.onnx").is_file() else MODELS
    try:
        return train_gate.train(settings, out, teacher, report)
    except (ModelError, ValueError) as exc:
        raise InputError(str(exc)) from exc


class Int8Kind(StrEnum):
    tiles = "tiles"
    cards = "cards"


@app.command("quantise")
def quantise_model(
    kind: Annotated[Int8Kind, typer.Argument(help="Which recogniser: tiles or cards.")],
    models: Annotated[
        Path, typer.Option(help="Folder with <kind>.float.onnx and <kind>.labels.json.")
    ] = Path("models"),
    as_json: JsonOption = False,
) -> None:
    """Make a recogniser's int8 model (<kind>.onnx) again from the float model training kept
    beside it, calibrated on real training photos; `tableref train` does this itself."""
    from vision.quantise import QuantiseError, requantise
    from vision.recognise import ModelError, float_path, load_spec

    model = models / f"{kind.value}.onnx"
    try:
        requantise(model, kind.value, load_spec(kind.value, models))
    except (ModelError, QuantiseError, FileNotFoundError) as exc:
        raise InputError(str(exc)) from exc
    result = {
        "model": str(model),
        "bytes": model.stat().st_size,
        "float_model": str(float_path(model)),
        "float_bytes": float_path(model).stat().st_size,
    }
    emit(result, as_json, lambda: typer.echo(f"wrote {model} ({result['bytes']} bytes)"))
