"""The recogniser's ``shape`` output: its last convolution's features averaged across each
row (N × channels·rows), added to an exported ONNX graph beside ``logits`` and
``embedding``.

The 128-d embedding is trained to tell apart the glyphs the model knows, and squashes those it
never saw (a star joker's crops sit 0.97-0.99 from its own enrolled crops and 0.93-0.98 from a
4's). The convolution's features, kept per row of the crop, still say where the strokes lie;
deck enrolment names by both (:mod:`vision.enroll`). The output reads tensors the graph
computes anyway, so adding it to a trained model changes none of its other outputs.

``python -m vision.model_outputs MODEL.onnx...`` adds it to models exported before it existed
(the ``train`` extra's ``onnx`` package is needed; reading needs only onnxruntime).
"""

from __future__ import annotations

import argparse
from pathlib import Path

SHAPE = "shape"


def add_shape_output(path: Path) -> bool:
    """Add the ``shape`` output to the model at ``path`` in place; False when it has one."""
    import onnx
    from onnx import helper

    model = onnx.load(str(path))
    graph = model.graph
    if any(o.name == SHAPE for o in graph.output):
        return False
    # The embedding's dense layer reads a Flatten of the last convolution block's output.
    flatten = [n for n in graph.node if n.op_type == "Flatten"]
    if len(flatten) != 1:
        raise ValueError(f"{path}: expected one Flatten before the embedding, found {len(flatten)}")
    features = flatten[0].input[0]
    opset = next(o.version for o in model.opset_import if o.domain in ("", "ai.onnx"))
    if opset >= 18:
        # ReduceMean takes its axes as an input from opset 18 on; the export uses 17.
        raise ValueError(f"{path}: opset {opset}; the shape output is written for opset 17")
    rows = f"{SHAPE}/rows"
    mean = helper.make_node("ReduceMean", [features], [rows], axes=[3], keepdims=0)
    graph.node.extend([mean, helper.make_node("Flatten", [rows], [SHAPE], axis=1)])
    graph.output.append(helper.make_tensor_value_info(SHAPE, onnx.TensorProto.FLOAT, ["n", None]))
    onnx.checker.check_model(model)
    onnx.save(model, str(path))
    return True


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("models", nargs="+", type=Path)
    for path in ap.parse_args().models:
        print(f"{path}: {'added' if add_shape_output(path) else 'already has it'}")


if __name__ == "__main__":
    main()
