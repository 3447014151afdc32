#!/usr/bin/env python3
"""Rewrites PP-OCRv4's DB text detector (ONNX, as rapidocr-onnxruntime 1.4.4 ships it) so that OpenCV 4.6's dnn loads it.

    ppocr-det-for-opencv.py IN.onnx OUT.onnx

OpenCV 4.6's ONNX importer takes Clip only in its opset-6 form, min and max as attributes
(`node_proto.input_size() == 1`); the model has the opset-11 form, min and max as inputs fed by Constant nodes.
Each such Clip gets its constants as attributes; Constants nothing reads any more are dropped. Nothing else changes:
the weights and every other node are copied as they are. Needs the `onnx` Python package (Debian: python3-onnx).
"""
import sys

import onnx
from onnx import helper, numpy_helper


def main(source, target):
    model = onnx.load(source)
    graph = model.graph
    constants = {n.output[0]: n for n in graph.node if n.op_type == "Constant"}
    initialisers = {i.name: i for i in graph.initializer}

    def scalar(name):
        if name in constants:
            value = next(a for a in constants[name].attribute if a.name == "value")
            return float(numpy_helper.to_array(value.t).reshape(-1)[0])
        if name in initialisers:
            return float(numpy_helper.to_array(initialisers[name]).reshape(-1)[0])
        raise SystemExit(f"Clip bound {name} is neither a Constant nor an initialiser")

    rewritten = 0
    for node in graph.node:
        if node.op_type != "Clip" or len(node.input) == 1:
            continue
        bounds = list(node.input[1:]) + [""] * (3 - len(node.input))
        attributes = []
        if bounds[0]:
            attributes.append(helper.make_attribute("min", scalar(bounds[0])))
        if bounds[1]:
            attributes.append(helper.make_attribute("max", scalar(bounds[1])))
        del node.input[1:]
        node.attribute.extend(attributes)
        rewritten += 1

    read = {name for n in graph.node for name in n.input} | {o.name for o in graph.output}
    unused = [n for n in graph.node if n.op_type == "Constant" and n.output[0] not in read]
    for node in unused:
        graph.node.remove(node)
    onnx.save(model, target)
    print(f"{source} -> {target}: {rewritten} Clip nodes given attribute bounds, {len(unused)} Constants dropped")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        raise SystemExit(__doc__)
    main(sys.argv[1], sys.argv[2])
