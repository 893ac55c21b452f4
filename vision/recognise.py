"""Recognition: an onnxruntime session over normalised crops → labels with confidences.

The model takes ``crops`` (N × 3 × h × w float32, BGR 0–255; it normalises each crop itself)
and returns ``logits`` (N × labels) and ``embedding`` (N × d, the penultimate layer: for
per-deck enrolment by nearest neighbour). Confidences are a softmax over the labels of the
deck in play plus ``none``.
"""

from __future__ import annotations

import functools
import hashlib
import os
import platform
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import onnxruntime as ort
from onnxruntime.capi import onnxruntime_pybind11_state as ort_errors

from vision.labels import NONE, LabelSpec
from vision.model_outputs import SHAPE

MODELS = Path(__file__).resolve().parent.parent / "models"
LOW_CONFIDENCE = 0.9  # below this, a read carries its top-3 alternatives


@dataclass(frozen=True)
class Read:
    label: str
    confidence: float
    alternatives: list[tuple[str, float]]  # best first, the label itself included
    p_none: float
    # With a deck profile: which of overlapping proposals to keep (higher wins).
    overlap_rank: float | None = None
    # The logits the read came from (both ways up averaged where looked at so): a later look
    # in other framings averages with them instead of running this crop again.
    logits: npt.NDArray[np.float32] | None = field(default=None, compare=False, repr=False)
    looks: int = field(default=1, compare=False, repr=False)  # views averaged into logits


class ModelError(RuntimeError):
    """A model file is missing, damaged, or does not match its label file."""


# onnxruntime's own exception types (they derive from Exception alone).
_LOAD_ERRORS = (
    ort_errors.Fail,
    ort_errors.InvalidArgument,
    ort_errors.InvalidGraph,
    ort_errors.InvalidProtobuf,
    ort_errors.NoModel,
    ort_errors.NoSuchFile,
    ort_errors.NotImplemented,
    ort_errors.RuntimeException,
)


def load_spec(name: str, models: Path = MODELS) -> LabelSpec:
    """The label file ``<models>/<name>.labels.json``; a :class:`ModelError` names it when it
    is missing or damaged."""
    spec_path = models / f"{name}.labels.json"
    if not spec_path.is_file():
        raise ModelError(f"label file {spec_path} is missing: run `tableref train {name}`")
    try:
        return LabelSpec.load(spec_path)
    except (ValueError, KeyError, TypeError) as exc:
        raise ModelError(
            f"label file {spec_path} cannot be read ({type(exc).__name__}: {exc}): restore "
            f"it from the repository or run `tableref train {name}`"
        ) from exc


def model_id(path: str | Path) -> str:
    """Names a model file by its content: embeddings from one model mean nothing to another,
    and a proposals' gate stands in front of the recogniser that taught it only."""
    p = Path(path)
    return f"{p.stem}:{hashlib.sha256(p.read_bytes()).hexdigest()[:16]}"


def float_path(model: Path) -> Path:
    """Where the float model a quantised ``model`` was made from is kept (vision.quantise)."""
    return model.with_name(model.name.removesuffix(".onnx") + ".float.onnx")


@functools.cache
def cpu_flags() -> frozenset[str]:
    """The CPU's feature flags as Linux lists them (empty where it does not)."""
    try:
        text = Path("/proc/cpuinfo").read_text()
    except OSError:
        return frozenset()
    for line in text.splitlines():
        if line.startswith(("flags", "Features")):
            return frozenset(line.split(":", 1)[1].split())
    return frozenset()


def int8_saturates() -> bool:
    """Whether onnxruntime's int8 convolutions lose precision on this CPU. On x86 without
    VNNI they add pairs of uint8 x int8 products in 16 bits (vpmaddubsw), which saturate;
    with VNNI (and on ARM) the sums are exact. Measured on a 2-core AMD EPYC with AVX2 alone:
    the shipped int8 tile model missed an enrolled deck's double joker that the float model
    and the int8 one on the machine it was measured on both read (tests/test_vision_tile_size)."""
    if platform.machine().lower() not in ("x86_64", "amd64", "i386", "i686"):
        return False
    return not ({"avx512_vnni", "avx_vnni"} & cpu_flags())


def model_input(batch: npt.NDArray[Any]) -> npt.NDArray[np.float32]:
    """N x h x w x 3 uint8 crops as the models take them: N x 3 x h x w float32."""
    return np.ascontiguousarray(batch.transpose(0, 3, 1, 2), dtype=np.float32)


def session(model: Path, name: str, threads: int | None = None) -> ort.InferenceSession:
    """An onnxruntime CPU session for ``model``, as every recogniser runs; a :class:`ModelError`
    names a file that cannot be loaded and how to get it again (`tableref train NAME`)."""
    opts = ort.SessionOptions()
    # Two threads, and no spinning: onnxruntime's pool busy-waits after each run when
    # allowed to, taking the core detection needs next (a tile photo read in ~72 ms with
    # 2 spinning threads against ~45 ms with one). Without spinning, 2 threads beat 1 on
    # an otherwise idle 2-core machine: median per held-out photo, cards 60.5 -> 45.4 ms,
    # tiles 53.8 -> 44.7 ms (same photos, same process). A Pi 4/5 has 4 cores.
    if threads is None:
        threads = min(2, os.cpu_count() or 1)
    opts.intra_op_num_threads = threads
    opts.inter_op_num_threads = 1
    opts.add_session_config_entry("session.intra_op.allow_spinning", "0")
    opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    try:
        return ort.InferenceSession(str(model), opts, providers=["CPUExecutionProvider"])
    except _LOAD_ERRORS as exc:
        # A truncated download or a file that is not a model: say which file and how to
        # get a good one, not onnxruntime's protobuf message alone.
        raise ModelError(
            f"model file {model} cannot be loaded ({type(exc).__name__}: {exc}); it is "
            f"damaged or not an ONNX model: run `tableref train {name}`, or restore "
            "it from the repository"
        ) from exc


class Recogniser:
    """One ONNX model and its label spec: ``models/<name>.onnx`` + ``<name>.labels.json``."""

    def __init__(self, model: Path, spec: LabelSpec, threads: int | None = None) -> None:
        if not model.is_file():
            raise ModelError(f"model file {model} is missing: run `tableref train {spec.name}`")
        self.session = session(model, spec.name, threads)
        self.path = model  # deck profiles are bound to the model file that made them
        self.spec = spec
        # Models exported before the ``shape`` output existed (vision.model_outputs) lack it.
        self.has_shape = any(o.name == SHAPE for o in self.session.get_outputs())
        out = self.session.get_outputs()[0].shape
        if out[-1] != len(spec.labels):
            raise ModelError(f"{model} gives {out[-1]} outputs, its label file {len(spec.labels)}")

    @classmethod
    def named(cls, name: str, models: Path = MODELS) -> Recogniser:
        """``<models>/<name>.onnx``, or the float model it was quantised from where int8
        arithmetic saturates on this CPU (:func:`int8_saturates`)."""
        model = models / f"{name}.onnx"
        if int8_saturates() and float_path(model).is_file():
            model = float_path(model)
        return cls(model, load_spec(name, models))

    def _outputs(self, batch: npt.NDArray[Any], names: list[str]) -> list[npt.NDArray[np.float32]]:
        """The named outputs for N × h × w × 3 uint8 crops (none for an empty batch)."""
        if len(batch) == 0:
            labels = len(self.spec.labels)
            return [np.zeros((0, labels if n == "logits" else 0), np.float32) for n in names]
        x = model_input(batch)
        return [np.asarray(o, np.float32) for o in self.session.run(names, {"crops": x})]

    def run(
        self, batch: npt.NDArray[Any]
    ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
        """Logits and embeddings for N × h × w × 3 uint8 crops."""
        logits, emb = self._outputs(batch, ["logits", "embedding"])
        return logits, emb

    def describe(
        self, batch: npt.NDArray[Any]
    ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32], npt.NDArray[np.float32] | None]:
        """Logits, embeddings and the ``shape`` features (``None`` for a model without that
        output) for N × h × w × 3 uint8 crops, in one pass."""
        if not self.has_shape:
            return (*self.run(batch), None)
        logits, emb, shape = self._outputs(batch, ["logits", "embedding", SHAPE])
        return logits, emb, shape

    def probabilities(
        self, logits: npt.NDArray[np.float32], deck: str
    ) -> tuple[npt.NDArray[np.float32], list[str]]:
        """Softmax over the deck's labels and ``none``; returns (probs, their labels)."""
        names = [*self.spec.decks[deck], NONE]
        idx = [self.spec.labels.index(n) for n in names]
        z = logits[:, idx]
        z = z - z.max(axis=1, keepdims=True)
        e = np.exp(z)
        return (e / e.sum(axis=1, keepdims=True)).astype(np.float32), names

    def classify(
        self,
        batch: npt.NDArray[Any],
        deck: str,
        half_turn: bool = False,
        sure_none: float = 0.7,
        views: Callable[[npt.NDArray[np.int64]], list[npt.NDArray[Any]]] | None = None,
    ) -> list[Read]:
        """Reads of N × h × w × 3 crops.

        ``half_turn``: a crop that is not surely nothing (``none`` below ``sure_none``) is
        looked at upside down as well (the models learn both ways up), and the two views'
        logits are averaged. Most proposals are surely nothing, so this costs far less than
        a second pass over all of them (measured: the same reads as a second pass over all).
        ``views``: given those crops' indices, the same crops in other framings; each is
        looked at too (both ways up with ``half_turn``), all views' logits averaged.
        """
        logits, _ = self.run(batch)
        probs, _ = self.probabilities(logits, deck)
        if (half_turn or views) and len(batch):
            again = np.nonzero(probs[:, -1] < sure_none)[0]
            if len(again):
                seen = [batch[again], *(views(again) if views else [])]
                if half_turn:
                    seen += [np.ascontiguousarray(b[:, ::-1, ::-1]) for b in seen]
                more, _ = self.run(np.concatenate(seen[1:]))
                k = len(again)
                total = logits[again] + sum(more[i * k : (i + 1) * k] for i in range(len(seen) - 1))
                logits[again] = total / len(seen)
                looks = np.ones(len(batch), np.int64)
                looks[again] = len(seen)
                return self.reads(logits, deck, looks)
        return self.reads(logits, deck)

    def reads(
        self,
        logits: npt.NDArray[np.float32],
        deck: str,
        looks: npt.NDArray[np.int64] | None = None,
    ) -> list[Read]:
        """One :class:`Read` per row of logits (the best of the deck's labels and ``none``);
        ``looks``: how many views each row's logits are the average of (1 when not given)."""
        probs, names = self.probabilities(logits, deck)
        none = len(names) - 1
        reads = []
        if looks is None:
            looks = np.ones(len(logits), np.int64)
        # The top three objects of every row at once (a per-row argsort was most of this).
        objects = probs[:, :none]
        top = np.argsort(-objects, axis=1, kind="stable")[:, :3]
        top_p = np.take_along_axis(objects, top, axis=1).tolist()
        p_none = probs[:, none].tolist()
        for k, (order, top_k, z, n) in enumerate(
            zip(top.tolist(), top_p, logits, looks.tolist(), strict=True)
        ):
            is_object = top_k[0] >= p_none[k]
            # Confidence that this is the named object, among objects and "nothing".
            reads.append(
                Read(
                    label=names[order[0]] if is_object else NONE,
                    confidence=top_k[0] if is_object else p_none[k],
                    alternatives=[(names[i], c) for i, c in zip(order, top_k, strict=True)],
                    p_none=p_none[k],
                    logits=z,
                    looks=int(n),
                )
            )
        return reads
