"""The two measures every benchmark scorer here uses, box overlap and edit distance, and their one JSON-file reader
(standard library only).

Imported by Benchmarks/accuracy/compare.py and Benchmarks/tracking/score_tracking.py (and through it by
Benchmarks/realtime/score_realtime.py), each of which puts this folder on sys.path.
"""
from __future__ import annotations

import json

Box = tuple[float, float, float, float]  # min x, min y, max x, max y


def iou(a: Box, b: Box) -> float:
    """Intersection over union of two axis-aligned boxes (0 when they do not overlap)."""
    width = min(a[2], b[2]) - max(a[0], b[0])
    height = min(a[3], b[3]) - max(a[1], b[1])
    if width <= 0 or height <= 0:
        return 0.0
    intersection = width * height
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - intersection
    return intersection / union if union > 0 else 0.0


def edit_distance(a: str, b: str) -> int:
    """Levenshtein distance (insert, delete, substitute: 1 each)."""
    if len(a) < len(b):
        a, b = b, a
    previous = list(range(len(b) + 1))
    for i, char_a in enumerate(a, 1):
        current = [i]
        append = current.append
        for j, char_b in enumerate(b, 1):
            append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (char_a != char_b)))
        previous = current
    return previous[-1]


def read_json_object(path: str, what: str, error: type[Exception]) -> dict:
    """The JSON object in the file at `path` (`what` it should hold, for messages); raises `error` when the file
    cannot be read, is not JSON or holds something else than an object."""
    try:
        with open(path, encoding="utf-8") as file:
            data = json.load(file)
    except (OSError, ValueError) as failure:
        raise error(f"cannot read {what} '{path}': {failure}") from failure
    if not isinstance(data, dict):
        raise error(f"'{path}' is not {what} (not a JSON object)")
    return data
