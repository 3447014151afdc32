#!/usr/bin/env python3
"""Scores a LiveScan event log against a synthetic scene's ground truth.

    score_tracking.py TRUTH.json EVENTS.jsonl [--name NAME] [--iou T] [--json OUT] [--check] [--scan-seconds S]
    score_tracking.py --summary SCORE.json...

Inputs:
- TRUTH.json from `livescan-scenes video PRESET OUT --truth TRUTH.json` (schema: GroundTruth in
  Sources/LiveScanScenes/GroundTruth.swift).
- EVENTS.jsonl from `livescan scan VIDEO --events EVENTS.jsonl` (event log v1: Sources/LiveScanCore/Output/EventLog.swift).
  Lines that are not JSON objects of a known event with the fields it needs are skipped and counted.

Method:
- A predicted item exists from its add frame through its last sighting (the `seen_frame` of its remove, or the end
  frame when never removed), with the bounds of its latest event at or before each frame.
- In each frame the ground-truth objects are the placements with `visible: true`. Placements with `visible: false`
  are "don't care": a prediction that no visible object of its kind overlaps with IoU >= the match threshold, but that
  overlaps a don't-care box of its kind with IoU >= 0.3, is dropped from that frame (neither a false positive nor a
  match), and the don't-care object is never a miss.
- Boxes are the axis-aligned bounding boxes of the quads, ground truth clipped to the image (an item partly outside
  the frame is don't care, and a scanner can only report the part it sees); distance = 1 - IoU; a pair may match when IoU >= --iou
  (default 0.5). py-motmetrics does the per-frame assignment and the CLEAR-MOT and identity metrics, separately for
  barcodes and text (a prediction only matches ground truth of its own kind) and overall.
- Payloads, transcripts and add latency are judged on the predicted item matched most often to each ground-truth item
  (for latency: the first predicted item matched to it).

Only the MOT metrics need motmetrics (imported when they are computed), so parsing, reconstruction, CER and latency
can be tested with a bare Python 3.11.
"""
from __future__ import annotations

import argparse
import base64
import json
import math
import os
import statistics
import sys
from collections import Counter, defaultdict
from dataclasses import dataclass, field

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from measures import edit_distance, iou, read_json_object  # noqa: E402

KINDS = ("barcode", "text")
DONT_CARE_IOU = 0.3
DEFAULT_IOU = 0.5

# The pass/fail targets of --check: (kind, metric key, comparison, threshold, label).
TARGETS = (
    ("barcode", "idf1", ">=", 0.97, "barcode IDF1 >= 0.97"),
    ("barcode", "num_switches", "<=", 0, "barcode ID switches == 0"),
    ("barcode", "payload_missing", "<=", 0, "barcode payloads all exact"),
    ("barcode", "add_latency_median", "<=", 2, "barcode median add latency <= 2 frames"),
    ("text", "idf1", ">=", 0.90, "text IDF1 >= 0.90"),
    ("text", "cer", "<=", 0.02, "text CER <= 0.02"),
)

MOT_METRICS = ("idf1", "mota", "num_switches", "num_false_positives", "num_misses", "num_fragmentations",
               "num_matches", "num_objects", "num_predictions")


class ScoreError(Exception):
    """An input that cannot be scored at all (missing file, not ground truth)."""


# ---------------------------------------------------------------------------------------------------------------------
# Geometry


Box = tuple  # (x0, y0, x1, y1)


def quad_box(points) -> Box:
    """The axis-aligned bounding box of four [x, y] corners; ValueError when they are not four number pairs."""
    if not isinstance(points, list) or len(points) != 4:
        raise ValueError("bounds must be four [x, y] corners")
    xs, ys = [], []
    for point in points:
        if (not isinstance(point, list) or len(point) != 2
                or not all(isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)
                           for v in point)):
            raise ValueError("bounds must be four [x, y] corners")
        xs.append(float(point[0]))
        ys.append(float(point[1]))
    return (min(xs), min(ys), max(xs), max(ys))


def clip(box: Box, width: float, height: float) -> Box:
    """The part of `box` inside a width x height image: all a scanner can see of an item partly outside the frame."""
    return (min(max(box[0], 0.0), width), min(max(box[1], 0.0), height),
            min(max(box[2], 0.0), width), min(max(box[3], 0.0), height))


# ---------------------------------------------------------------------------------------------------------------------
# Ground truth


@dataclass
class TruthItem:
    id: str
    kind: str
    symbology: str | None = None
    payload: str | None = None
    transcript: str | None = None


@dataclass
class Placement:
    item: str
    box: Box
    visible: bool


@dataclass
class GroundTruth:
    width: int
    height: int
    fps: float
    items: dict  # id -> TruthItem, in file order
    frames: list  # frames[i]: list of Placement

    def first_visible_frame(self) -> dict:
        """Item id -> the first frame in which it is visible; items never visible are absent."""
        first = {}
        for index, placements in enumerate(self.frames):
            for placement in placements:
                if placement.visible and placement.item not in first:
                    first[placement.item] = index
        return first


def parse_truth(data: dict) -> GroundTruth:
    try:
        width, height = data["width"], data["height"]
        items = {}
        for raw in data["items"]:
            item = TruthItem(id=str(raw["id"]), kind=raw["kind"], symbology=raw.get("symbology"),
                             payload=raw.get("payload"), transcript=raw.get("transcript"))
            if item.kind not in KINDS:
                raise ScoreError(f"ground truth item '{item.id}' has unknown kind '{item.kind}'")
            items[item.id] = item
        frames = []
        for index, raw_frame in enumerate(data["frames"]):
            placements = []
            for raw in raw_frame:
                if raw["item"] not in items:
                    raise ScoreError(f"ground truth frame {index} places unknown item '{raw['item']}'")
                placements.append(Placement(item=raw["item"], box=clip(quad_box(raw["bounds"]), width, height),
                                            visible=bool(raw["visible"])))
            frames.append(placements)
        frame_count = data.get("frame_count", len(frames))
        if frame_count != len(frames):
            raise ScoreError(f"ground truth says frame_count {frame_count} but lists {len(frames)} frames")
        return GroundTruth(width=width, height=height, fps=float(data["fps"]), items=items,
                           frames=frames)
    except (KeyError, TypeError, ValueError) as error:
        raise ScoreError(f"not ground truth: {error!r}") from error


def read_truth(path: str) -> GroundTruth:
    return parse_truth(read_json_object(path, "ground truth", ScoreError))


# ---------------------------------------------------------------------------------------------------------------------
# Event log


@dataclass
class Change:
    event: str
    frame: int
    id: str
    kind: str
    box: Box
    seen_frame: int
    payload: bytes | None = None  # barcodes: the exact bytes (payload_b64 when present, else payload as UTF-8)
    transcript: str | None = None


@dataclass
class EventLog:
    start: dict | None = None
    end: dict | None = None
    changes: list = field(default_factory=list)
    lines: int = 0  # non-blank lines read
    skipped: int = 0  # garbage or cut lines
    skipped_examples: list = field(default_factory=list)  # (line number, reason), the first few

    @property
    def end_reason(self) -> str:
        return self.end.get("reason", "?") if self.end else "missing"

    @property
    def last_frame(self) -> int:
        """The end line's frame, or without one the highest frame the log mentions (-1 for none)."""
        if self.end is not None:
            return self.end["frame"]
        frames = [change.frame for change in self.changes]
        return max(frames) if frames else -1


def _integer(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def parse_change(obj: dict) -> Change:
    """One add/update/remove line; ValueError naming what is wrong."""
    if not _integer(obj.get("frame")):
        raise ValueError("frame is not a non-negative integer")
    if not isinstance(obj.get("id"), str) or not obj["id"]:
        raise ValueError("id missing")
    kind = obj.get("kind")
    if kind not in KINDS:
        raise ValueError(f"unknown kind {kind!r}")
    box = quad_box(obj.get("bounds"))
    seen_frame = obj.get("seen_frame", obj["frame"])
    if not _integer(seen_frame):
        raise ValueError("seen_frame is not a non-negative integer")
    change = Change(event=obj["event"], frame=obj["frame"], id=obj["id"], kind=kind, box=box, seen_frame=seen_frame)
    if kind == "barcode":
        if "payload_b64" in obj:
            try:
                change.payload = base64.b64decode(obj["payload_b64"], validate=True)
            except (TypeError, ValueError) as error:
                raise ValueError("payload_b64 is not base64") from error
        elif isinstance(obj.get("payload"), str):
            change.payload = obj["payload"].encode("utf-8", "surrogatepass")
        else:
            raise ValueError("barcode without payload")
    else:
        if not isinstance(obj.get("transcript"), str):
            raise ValueError("text without transcript")
        change.transcript = obj["transcript"]
    return change


def parse_event_log(lines) -> EventLog:
    """Reads event-log lines (str or bytes); never raises on content."""
    log = EventLog()
    for number, line in enumerate(lines, start=1):
        if isinstance(line, bytes):
            line = line.decode("utf-8", "replace")
        if not line.strip():
            continue
        log.lines += 1
        try:
            obj = json.loads(line)
            if not isinstance(obj, dict):
                raise ValueError("not a JSON object")
            event = obj.get("event")
            if event == "start":
                if log.start is not None:
                    raise ValueError("second start line")
                if obj.get("v") != 1:
                    raise ValueError(f"unsupported version {obj.get('v')!r}")
                log.start = obj
            elif event == "end":
                if not _integer(obj.get("frame")):
                    raise ValueError("end without frame")
                log.end = obj
            elif event in ("add", "update", "remove"):
                log.changes.append(parse_change(obj))
            else:
                raise ValueError(f"unknown event {event!r}")
        except ValueError as error:  # json.JSONDecodeError is a ValueError
            log.skipped += 1
            if len(log.skipped_examples) < 5:
                log.skipped_examples.append((number, str(error)[:80]))
    return log


def read_event_log(path: str) -> EventLog:
    try:
        with open(path, "rb") as file:
            return parse_event_log(file.read().split(b"\n"))
    except OSError as error:
        raise ScoreError(f"cannot read event log '{path}': {error}") from error


# ---------------------------------------------------------------------------------------------------------------------
# Predicted tracks


@dataclass
class PredictedItem:
    id: str
    kind: str
    add_frame: int
    last_frame: int  # inclusive
    changes: list  # this item's changes in log order

    def box_at(self, frame: int) -> Box | None:
        """The bounds of the latest event at or before `frame`, or None when the item does not exist then."""
        if not self.add_frame <= frame <= self.last_frame:
            return None
        box = None
        for change in self.changes:
            if change.frame > frame:
                break
            box = change.box
        return box if box is not None else self.changes[0].box

    @property
    def final_payload(self) -> bytes | None:
        return self.changes[-1].payload

    @property
    def final_transcript(self) -> str | None:
        return self.changes[-1].transcript

    @property
    def payloads(self) -> set:
        return {change.payload for change in self.changes if change.payload is not None}


def reconstruct(log: EventLog) -> dict:
    """Predicted item id -> PredictedItem. An item first met as an update (a cut log) counts as added there."""
    end_frame = log.last_frame
    by_id = defaultdict(list)
    for change in log.changes:
        by_id[change.id].append(change)
    items = {}
    for item_id, changes in by_id.items():
        changes.sort(key=lambda change: change.frame)  # stable: log order within a frame
        removes = [change for change in changes if change.event == "remove"]
        if removes:
            last_frame = removes[0].seen_frame
            changes = [change for change in changes if change.frame <= removes[0].frame]
        else:
            last_frame = max(end_frame, changes[-1].frame)
        items[item_id] = PredictedItem(id=item_id, kind=changes[0].kind, add_frame=changes[0].frame,
                                       last_frame=last_frame, changes=changes)
    return items


# ---------------------------------------------------------------------------------------------------------------------
# Per-frame association input


@dataclass
class FrameInput:
    """What one frame hands the accumulator for one kind (or overall)."""
    frame: int
    objects: list  # ground-truth item ids (visible)
    hypotheses: list  # predicted item ids (not dropped)
    distances: list  # rows per object, columns per hypothesis: 1 - IoU, or None when they may not match
    dropped: int = 0  # predictions dropped for overlapping a don't-care box


def frame_inputs(truth: GroundTruth, predictions: dict, kind: str | None, iou_threshold: float) -> list:
    """One FrameInput per ground-truth frame; `kind` None means both kinds (pairs of different kinds never match)."""
    wanted = KINDS if kind is None else (kind,)
    live = [item for item in predictions.values() if item.kind in wanted]
    inputs = []
    for index, placements in enumerate(truth.frames):
        visible, dont_care = [], []
        for placement in placements:
            item_kind = truth.items[placement.item].kind
            if item_kind in wanted:
                (visible if placement.visible else dont_care).append((placement.item, item_kind, placement.box))
        hypotheses = []
        dropped = 0
        for item in live:
            box = item.box_at(index)
            if box is None:
                continue
            best_visible = max((iou(box, gt_box) for _, gt_kind, gt_box in visible if gt_kind == item.kind),
                               default=0.0)
            if best_visible < iou_threshold and any(
                    gt_kind == item.kind and iou(box, gt_box) >= DONT_CARE_IOU for _, gt_kind, gt_box in dont_care):
                dropped += 1
                continue
            hypotheses.append((item.id, item.kind, box))
        distances = []
        for _, gt_kind, gt_box in visible:
            row = []
            for _, hyp_kind, hyp_box in hypotheses:
                overlap = iou(gt_box, hyp_box)
                row.append(1.0 - overlap if hyp_kind == gt_kind and overlap >= iou_threshold else None)
            distances.append(row)
        inputs.append(FrameInput(frame=index, objects=[v[0] for v in visible], hypotheses=[h[0] for h in hypotheses],
                                 distances=distances, dropped=dropped))
    return inputs


# ---------------------------------------------------------------------------------------------------------------------
# Metrics that need only the matches


def most_matched(matches) -> dict:
    """Ground-truth id -> the predicted id matched to it in the most frames (ties: the earlier matched)."""
    counts = defaultdict(Counter)
    for _, object_id, hypothesis_id in matches:
        counts[object_id][hypothesis_id] += 1
    return {object_id: counter.most_common(1)[0][0] for object_id, counter in counts.items()}


def first_matched(matches) -> dict:
    """Ground-truth id -> the predicted id matched to it first."""
    first = {}
    for frame, object_id, hypothesis_id in sorted(matches, key=lambda match: match[0]):
        first.setdefault(object_id, hypothesis_id)
    return first


def scored_items(truth: GroundTruth, kind: str) -> list:
    """The ground-truth items of `kind` that are visible in at least one frame: the ones a scanner must report."""
    first = truth.first_visible_frame()
    return [item for item in truth.items.values() if item.kind == kind and item.id in first]


def payload_figures(truth: GroundTruth, predictions: dict, matches) -> dict:
    chosen = most_matched(matches)
    items = scored_items(truth, "barcode")
    exact = 0
    details = []
    for item in items:
        expected = (item.payload or "").encode("utf-8")
        predicted = predictions[chosen[item.id]].final_payload if item.id in chosen else None
        ok = predicted == expected
        exact += ok
        if not ok:
            details.append({"item": item.id, "expected": item.payload,
                            "got": None if predicted is None else predicted.decode("utf-8", "replace")})
    known = {(item.payload or "").encode("utf-8") for item in truth.items.values() if item.kind == "barcode"}
    # A misread: a predicted barcode that reported, at any time, a payload no ground-truth barcode carries.
    misreads = sorted(item.id for item in predictions.values()
                      if item.kind == "barcode" and item.payloads - known)
    return {"exact": exact, "total": len(items), "missing": len(items) - exact, "misreads": len(misreads),
            "not_exact": details}


def transcript_figures(truth: GroundTruth, predictions: dict, matches) -> dict:
    chosen = most_matched(matches)
    edits = characters = 0
    details = []
    for item in scored_items(truth, "text"):
        expected = item.transcript or ""
        predicted = predictions[chosen[item.id]].final_transcript if item.id in chosen else None
        distance = len(expected) if predicted is None else edit_distance(predicted, expected)
        edits += distance
        characters += len(expected)
        if distance:
            details.append({"item": item.id, "expected": expected, "got": predicted, "edits": distance})
    return {"edits": edits, "characters": characters, "cer": edits / characters if characters else None,
            "wrong": details}


def latency_figures(truth: GroundTruth, predictions: dict, matches, kind: str) -> dict:
    """Frames from an item's first visible frame to the add frame of the first prediction matched to it.

    An item added while still partly outside the frame or occluded (before it counts as visible) has latency 0;
    `per_item` keeps the raw, negative, difference.
    """
    first_visible = truth.first_visible_frame()
    first = first_matched(matches)
    raw = {}
    for item in scored_items(truth, kind):
        if item.id in first:
            raw[item.id] = predictions[first[item.id]].add_frame - first_visible[item.id]
    values = sorted(max(value, 0) for value in raw.values())
    return {"median": statistics.median(values) if values else None, "max": max(values) if values else None,
            "reported": len(values), "never_reported": len(scored_items(truth, kind)) - len(values),
            "added_before_visible": sum(value < 0 for value in raw.values()), "per_item": raw}


# ---------------------------------------------------------------------------------------------------------------------
# MOT metrics (py-motmetrics)


def accumulate(inputs: list):
    """A motmetrics accumulator fed with `inputs`, and the matches [(frame, object id, hypothesis id)] it decided."""
    import motmetrics
    import numpy

    # motmetrics 1.4 stores ids as floats, so the string ids travel as numbers and are mapped back.
    object_numbers, hypothesis_numbers = {}, {}

    def numbers(ids, table):
        return [table.setdefault(identifier, len(table) + 1) for identifier in ids]

    accumulator = motmetrics.MOTAccumulator(auto_id=False)
    for frame_input in inputs:
        distances = numpy.full((len(frame_input.objects), len(frame_input.hypotheses)), numpy.nan)
        for row, values in enumerate(frame_input.distances):
            for column, value in enumerate(values):
                if value is not None:
                    distances[row, column] = value
        accumulator.update(numbers(frame_input.objects, object_numbers),
                           numbers(frame_input.hypotheses, hypothesis_numbers), distances, frameid=frame_input.frame)
    object_ids = {number: identifier for identifier, number in object_numbers.items()}
    hypothesis_ids = {number: identifier for identifier, number in hypothesis_numbers.items()}
    events = accumulator.mot_events
    matched = events[events["Type"].isin(["MATCH", "SWITCH"])]
    matches = [(int(frame), object_ids[int(object_number)], hypothesis_ids[int(hypothesis_number)])
               for (frame, _), object_number, hypothesis_number in zip(matched.index, matched["OId"], matched["HId"])]
    return accumulator, matches


def mot_figures(accumulator) -> dict:
    import motmetrics

    host = motmetrics.metrics.create()
    summary = host.compute(accumulator, metrics=list(MOT_METRICS), name="scene")
    figures = {}
    for name in MOT_METRICS:
        value = summary[name].iloc[0]
        value = float(value)
        figures[name] = None if math.isnan(value) else (int(value) if name.startswith("num_") else value)
    return figures


# ---------------------------------------------------------------------------------------------------------------------
# One scene


def score(truth: GroundTruth, log: EventLog, iou_threshold: float = DEFAULT_IOU) -> dict:
    predictions = reconstruct(log)
    result = {"iou_threshold": iou_threshold, "dont_care_iou": DONT_CARE_IOU,
              "log": {"lines": log.lines, "skipped_lines": log.skipped,
                      "skipped_examples": [f"line {n}: {reason}" for n, reason in log.skipped_examples],
                      "end_reason": log.end_reason, "last_frame": log.last_frame,
                      "frames_scanned": log.last_frame + 1, "frames_in_truth": len(truth.frames)},
              "kinds": {}}
    warnings = []
    if log.start is None:
        warnings.append("event log has no start line")
    elif (log.start.get("width"), log.start.get("height")) != (truth.width, truth.height):
        warnings.append(f"event log is {log.start.get('width')}x{log.start.get('height')}, "
                        f"ground truth {truth.width}x{truth.height}")
    if log.end is None:
        warnings.append("event log has no end line (cut short?)")
    elif log.end_reason != "eof":
        warnings.append(f"scan ended with reason '{log.end_reason}'")
    if log.last_frame + 1 != len(truth.frames):
        warnings.append(f"scanned {log.last_frame + 1} frames, ground truth has {len(truth.frames)}")
    if log.skipped:
        warnings.append(f"{log.skipped} unreadable event-log line(s) skipped")
    result["warnings"] = warnings

    for kind in (*KINDS, None):
        name = kind or "overall"
        inputs = frame_inputs(truth, predictions, kind, iou_threshold)
        accumulator, matches = accumulate(inputs)
        figures = mot_figures(accumulator)
        wanted = KINDS if kind is None else (kind,)
        matched_predictions = {hypothesis for _, _, hypothesis in matches}
        figures["gt_items"] = sum(len(scored_items(truth, k)) for k in wanted)
        figures["predicted_items"] = sum(1 for item in predictions.values() if item.kind in wanted)
        figures["matched_predicted_items"] = len(matched_predictions)
        figures["dropped_dont_care"] = sum(frame_input.dropped for frame_input in inputs)
        if kind == "barcode":
            figures["payload"] = payload_figures(truth, predictions, matches)
        if kind == "text":
            figures["transcript"] = transcript_figures(truth, predictions, matches)
        if kind is not None:
            figures["add_latency"] = latency_figures(truth, predictions, matches, kind)
        result["kinds"][name] = figures
    result["targets"] = evaluate_targets(result)
    result["pass"] = all(target["pass"] for target in result["targets"])
    return result


def target_value(kinds: dict, kind: str, key: str):
    figures = kinds[kind]
    if key == "payload_missing":
        return figures["payload"]["missing"]
    if key == "cer":
        return figures["transcript"]["cer"]
    if key == "add_latency_median":
        return figures["add_latency"]["median"]
    return figures[key]


def evaluate_targets(result: dict) -> list:
    """The targets that apply (the scene has items of the target's kind), each with its value and verdict."""
    targets = []
    for kind, key, comparison, threshold, label in TARGETS:
        if result["kinds"][kind]["gt_items"] == 0:
            continue
        value = target_value(result["kinds"], kind, key)
        # A metric that could not be computed (no report at all) fails rather than passes silently.
        passed = value is not None and (value >= threshold if comparison == ">=" else value <= threshold)
        if key == "payload_missing":
            payload = result["kinds"][kind]["payload"]
            shown = f"{payload['exact']}/{payload['total']} exact"
        else:
            shown = fmt(value, 1 if key in ("num_switches", "add_latency_median") else 3)
        targets.append({"target": label, "kind": kind, "metric": key, "value": value, "shown": shown,
                        "pass": passed})
    return targets


# ---------------------------------------------------------------------------------------------------------------------
# Output


def fmt(value, digits=3) -> str:
    if value is None:
        return "n/a"
    if isinstance(value, float):
        if value.is_integer() and digits == 1:
            return str(int(value))
        return f"{value:.{digits}f}"
    return str(value)


def table(rows: list, header: list, left_columns: int = 1) -> str:
    """Plain text columns: the first `left_columns` left-aligned (names), the rest right-aligned (figures)."""
    widths = [max(len(str(row[i])) for row in [header, *rows]) for i in range(len(header))]
    lines = ["  ".join(str(cell).ljust(widths[i]) if i < left_columns else str(cell).rjust(widths[i])
                       for i, cell in enumerate(row)) for row in [header, *rows]]
    lines.insert(1, "  ".join("-" * width for width in widths))
    return "\n".join(lines)


def kind_cells(figures: dict) -> list:
    payload = figures.get("payload")
    transcript = figures.get("transcript")
    latency = figures.get("add_latency")
    return [fmt(figures["idf1"]), fmt(figures["mota"]), fmt(figures["num_switches"]),
            fmt(figures["num_false_positives"]), fmt(figures["num_misses"]), fmt(figures["num_fragmentations"]),
            f"{figures['predicted_items']}/{figures['gt_items']}",
            f"{payload['exact']}/{payload['total']}" if payload else "-",
            fmt(payload["misreads"]) if payload else "-",
            fmt(transcript["cer"]) if transcript else "-",
            f"{fmt(latency['median'], 1)}/{fmt(latency['max'], 1)}" if latency else "-"]


KIND_HEADER = ["kind", "IDF1", "MOTA", "IDSW", "FP", "FN", "Frag", "pred/GT items", "exact", "misreads", "CER",
               "add lat med/max"]


def render_scene(name: str, result: dict) -> str:
    log = result["log"]
    out = [f"== {name}: {log['frames_scanned']} frames scanned, end '{log['end_reason']}', "
           f"{log['skipped_lines']} skipped line(s), IoU >= {result['iou_threshold']} "
           f"(don't care >= {result['dont_care_iou']})"]
    if result.get("scan"):
        out.append(f"   scan: {fmt(result['scan']['wall_seconds'], 2)} s wall, {fmt(result['scan']['fps'], 1)} fps")
    for warning in result["warnings"]:
        out.append(f"   warning: {warning}")
    rows = [[kind, *kind_cells(figures)] for kind, figures in result["kinds"].items()
            if kind == "overall" or figures["gt_items"] or figures["predicted_items"]]
    out.append(table(rows, KIND_HEADER))
    for kind in KINDS:
        figures = result["kinds"][kind]
        for wrong in figures.get("payload", {}).get("not_exact", []):
            out.append(f"   payload {wrong['item']}: expected {wrong['expected']!r}, got {wrong['got']!r}")
        for wrong in figures.get("transcript", {}).get("wrong", []):
            out.append(f"   transcript {wrong['item']}: expected {wrong['expected']!r}, got {wrong['got']!r} "
                       f"({wrong['edits']} edits)")
    for target in result["targets"]:
        out.append(f"   {'PASS' if target['pass'] else 'FAIL'}  {target['target']}  (got {target['shown']})")
    return "\n".join(out)


def render_summary(results: list) -> str:
    header = ["scene", *KIND_HEADER[:1], "IDF1", "MOTA", "IDSW", "FP", "FN", "exact", "CER", "add lat med/max",
              "fps", "targets"]
    rows = []
    for result in results:
        scan = result.get("scan") or {}
        passed = sum(target["pass"] for target in result["targets"])
        verdict = f"{passed}/{len(result['targets'])} pass"
        for kind in (*KINDS, "overall"):
            figures = result["kinds"][kind]
            if kind != "overall" and not (figures["gt_items"] or figures["predicted_items"]):
                continue
            payload = figures.get("payload")
            transcript = figures.get("transcript")
            latency = figures.get("add_latency")
            rows.append([result.get("scene", "?"), kind, fmt(figures["idf1"]), fmt(figures["mota"]),
                         fmt(figures["num_switches"]), fmt(figures["num_false_positives"]),
                         fmt(figures["num_misses"]),
                         f"{payload['exact']}/{payload['total']}" if payload else "-",
                         fmt(transcript["cer"]) if transcript else "-",
                         f"{fmt(latency['median'], 1)}/{fmt(latency['max'], 1)}" if latency else "-",
                         fmt(scan.get("fps"), 1) if kind == "overall" else "",
                         verdict if kind == "overall" else ""])
    return table(rows, header, left_columns=2)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description="Score a LiveScan event log against a scene's ground truth.")
    parser.add_argument("truth", nargs="?", help="ground truth JSON from livescan-scenes --truth")
    parser.add_argument("events", nargs="?", help="event log JSON Lines from livescan scan --events")
    parser.add_argument("--name", help="scene name for the report (default: the truth file's name)")
    parser.add_argument("--iou", type=float, default=DEFAULT_IOU,
                        help=f"IoU a prediction needs with a ground-truth box to match it (default {DEFAULT_IOU})")
    parser.add_argument("--json", metavar="OUT", help="also write the figures as JSON to OUT")
    parser.add_argument("--check", action="store_true", help="exit 1 when a target fails")
    parser.add_argument("--scan-seconds", type=float, help="wall time of the scan, to report frames per second")
    parser.add_argument("--summary", nargs="+", metavar="SCORE_JSON",
                        help="print one table of several --json outputs instead of scoring")
    args = parser.parse_args(argv)

    try:
        if args.summary:
            results = []
            for path in args.summary:
                with open(path, encoding="utf-8") as file:
                    results.append(json.load(file))
            print(render_summary(results))
            return 1 if args.check and not all(result["pass"] for result in results) else 0
        if not args.truth or not args.events:
            parser.error("TRUTH and EVENTS are required (or --summary)")
        if not 0 < args.iou <= 1:
            parser.error("--iou must be in (0, 1]")
        truth = read_truth(args.truth)
        log = read_event_log(args.events)
        result = score(truth, log, args.iou)
    except (ScoreError, OSError, ValueError) as error:
        print(f"Error: {error}", file=sys.stderr)
        return 2
    name = args.name or args.truth.rsplit("/", 1)[-1].removesuffix(".json").removesuffix(".truth")
    result = {"scene": name, "truth": args.truth, "events": args.events, **result}
    if args.scan_seconds is not None:
        frames = result["log"]["frames_scanned"]
        result["scan"] = {"wall_seconds": args.scan_seconds, "frames": frames,
                          "fps": frames / args.scan_seconds if args.scan_seconds > 0 else None}
    print(render_scene(name, result))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as file:
            json.dump(result, file, indent=1, ensure_ascii=False)
            file.write("\n")
    return 1 if args.check and not result["pass"] else 0


if __name__ == "__main__":
    sys.exit(main())
