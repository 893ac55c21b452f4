"""A few training steps end to end: build crops, fit, export a loadable ONNX model."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import numpy.typing as npt
import onnx
import pytest

from vision import glyphs
from vision.labels import LabelSpec
from vision.recognise import Recogniser
from vision.train import Settings, train


@pytest.mark.slow
def test_train_smoke_exports_a_loadable_model(tmp_path: Path) -> None:
    settings = Settings(
        "tiles", seed=3, scenes=1, epochs=1, batch=64, real=False, workers=1, calibration_photos=2
    )
    result = train(settings, out=tmp_path, cache=False)
    model = tmp_path / "tiles.onnx"
    assert model.is_file() and result["bytes"] == model.stat().st_size
    assert result["bytes"] < 5 * 1024 * 1024
    assert result["render_fonts"] == glyphs.font_signature()  # its renders depend on them
    # Shipped as int8 (vision.quantise), the float model kept beside it to derive it again.
    ops = {n.op_type for n in onnx.load(str(model)).graph.node}
    source = tmp_path / "tiles.float.onnx"
    assert result["int8"] and "QuantizeLinear" in ops
    assert "QuantizeLinear" not in {n.op_type for n in onnx.load(str(source)).graph.node}
    spec = LabelSpec.load(tmp_path / "tiles.labels.json")
    rec = Recogniser(model, spec)
    w, h = spec.crop
    logits, emb = rec.run(np.zeros((3, h, w, 3), np.uint8))
    assert logits.shape == (3, len(spec.labels))
    assert emb.shape[0] == 3 and emb.shape[1] >= 32  # the embedding for deck enrolment
    # ...and the shape features enrolment names by beside it (vision.model_outputs)
    _, _, shape = rec.describe(np.zeros((3, h, w, 3), np.uint8))
    assert shape is not None and shape.shape == (3, 64 * (h // 8))
    reads = rec.classify(np.zeros((2, h, w, 3), np.uint8), "rummikub")
    assert len(reads) == 2 and all(0 <= r.confidence <= 1 for r in reads)
    assert all(len(r.alternatives) == 3 for r in reads)


def test_shipped_recognisers_use_two_threads_without_spinning(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Two non-spinning threads read a photo ~25% faster than one on an idle 2-core machine
    # (bench/results/vision.json); a 1-core board must not be asked for two.
    rec = Recogniser.named("tiles")
    opts = rec.session.get_session_options()
    assert opts.intra_op_num_threads == 2
    assert opts.get_session_config_entry("session.intra_op.allow_spinning") == "0"
    monkeypatch.setattr("vision.recognise.os.cpu_count", lambda: 1)
    assert Recogniser.named("tiles").session.get_session_options().intra_op_num_threads == 1


def test_the_recipe_widths_shape_the_network(tmp_path: Path) -> None:
    # Settings.widths reach the network: the last blocks' channels are what the exported
    # model's shape features (vision.model_outputs) average, one row of the crop at a time.
    from vision.labels import spec_for
    from vision.train import export, fit

    spec = spec_for("cards")
    w, h = spec.crop
    rng = np.random.default_rng(0)
    x = rng.integers(0, 255, (40, h, w, 3), dtype=np.uint8)
    y = rng.integers(0, len(spec.labels), 40).astype(np.int64)
    settings = Settings("cards", epochs=1, batch=16, widths=(8, 16, 24))
    model, metrics = fit(spec, x, y, settings)
    rec = Recogniser(export(model, spec, tmp_path), spec)
    _, _, shape = rec.describe(x[:2])
    assert shape is not None and shape.shape == (2, 24 * (h // 8))
    assert metrics["train_crops"] == 38


def test_the_recipes_draw_their_share_of_thinned_digits(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from dataclasses import replace

    from vision import synth
    from vision import train as training

    drawn: list[float | None] = []

    def scene(rng: np.random.Generator, face: object = None) -> synth.Scene:
        drawn.append(getattr(face, "keywords", {}).get("thin"))
        return synth.Scene(np.zeros((60, 80, 3), np.uint8), [])

    def cards(
        rng: np.random.Generator, game: str, face: object = None, table_print: object = None
    ) -> synth.Scene:
        drawn.append(getattr(face, "keywords", {}).get("thin"))
        return synth.Scene(np.zeros((60, 80, 3), np.uint8), [])

    monkeypatch.setattr(training.synth, "tile_scene", scene)
    monkeypatch.setattr(training.synth, "card_scene", cards)
    training._scene_job(training.SceneJob("tiles", 1, 1, {}, thin=0.2))
    training._scene_job(training.SceneJob("tiles", 2, 1, {}))
    training._scene_job(training.SceneJob("cards", 3, 1, {}, thin=0.2))
    training._scene_job(training.SceneJob("cards", 4, 1, {}))
    assert drawn == [0.2, 0.0, 0.2, None]  # cards without it: render_card as always
    shipped = training.SHIPPED["tiles"]
    assert shipped.thin_digits == 0.2  # the shipped tiles.onnx was trained with them
    plain = replace(shipped, thin_digits=0.0)
    assert training.cache_key(plain) != training.cache_key(shipped)


def test_card_scenes_turn_grey_at_the_recipes_share(monkeypatch: pytest.MonkeyPatch) -> None:
    from dataclasses import replace

    from vision import synth
    from vision import train as training

    seen: list[npt.NDArray[np.uint8]] = []

    def cards(
        rng: np.random.Generator, game: str, face: object = None, table_print: object = None
    ) -> synth.Scene:
        image = np.zeros((60, 80, 3), np.uint8)
        image[..., 2] = 200  # a red table: grey only if the job turned it so
        return synth.Scene(image, [])

    def crops_from(
        kind: str, spec: object, image: npt.NDArray[np.uint8], *args: object, **kw: object
    ) -> tuple[list[object], list[int]]:
        seen.append(image.copy())
        return [], []

    monkeypatch.setattr(training.synth, "card_scene", cards)
    monkeypatch.setattr(training, "crops_from", crops_from)
    training._scene_job(training.SceneJob("cards", 4, 1, {}, grey=1.0))
    training._scene_job(training.SceneJob("cards", 4, 1, {}))
    turned, kept = seen
    assert (turned[..., 0] == turned[..., 2]).all()
    assert np.median(kept[..., 2].astype(int) - kept[..., 0]) == 200
    shipped = training.SHIPPED["cards"]
    assert shipped.grey == 0.0  # the shipped cards.onnx never saw a grey scene
    assert "-grey" not in training.cache_key(shipped)
    assert training.cache_key(replace(shipped, grey=0.2)) != training.cache_key(shipped)
