#!/usr/bin/env python3
"""Scores a LiveScan event log of a BoofCV hand-held video against its silver labels.

    silver.py SILVER.json EVENTS.jsonl [--json]

The silver labels (../shared/corpus/boofcv-fiducial-video/*/movie.silver.json, described in that folder's
MANIFEST.md) are zxing-cpp 3.1.1's decodes of every frame: machine-made, not checked by a person. So the figures are
relative, for comparing one LiveScan against another, and the pass/fail marks on them are informational:
- trusted payloads: the distinct silver payloads decoded in at least MIN_SILVER_FRAMES frames (the manifest calls those
  decoded in fewer likely misreads);
- payload recall: the share of trusted payloads that some LiveScan barcode item reported at least once;
- false payloads: the payloads LiveScan reported that are not trusted (a payload the reference decoded in fewer than
  MIN_SILVER_FRAMES frames counts as false, and is flagged so in the list);
- frame recall: the share of silver decodes of trusted payloads (one per code per frame) that a LiveScan item alive in
  that frame, with the same payload and box IoU >= FRAME_MATCH_IOU, accounts for (each item accounts for at most one
  code a frame). An item is alive from its add through its last sighting, with the bounds of its latest event, the
  reconstruction Benchmarks/tracking/score_tracking.py does;
- first-report lag: for each trusted payload LiveScan reported, its first add frame minus the payload's first silver
  frame (negative: LiveScan read it first).

Standard library only (the event log is parsed by score_tracking.py, which needs py-motmetrics only for its MOT
figures), so test_dev.py runs it with a bare Python 3.11.
"""
from __future__ import annotations

import argparse
import bisect
import json
import os
import statistics
import sys
from dataclasses import dataclass

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tracking"))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import score_tracking as st  # noqa: E402
from measures import iou, read_json_object  # noqa: E402

MIN_SILVER_FRAMES = 5
FRAME_MATCH_IOU = 0.3


class SilverError(Exception):
    """Labels that cannot be read at all."""


@dataclass
class SilverLabels:
    frame_count: int
    payload_frames: dict  # payload bytes -> frames the reference decoded it in
    frames: list  # frames[i]: [(payload bytes, box)]

    @property
    def trusted(self) -> set:
        return {payload for payload, count in self.payload_frames.items() if count >= MIN_SILVER_FRAMES}

    def first_frames(self) -> dict:
        """Payload -> the first frame the reference decoded it in."""
        first = {}
        for index, codes in enumerate(self.frames):
            for payload, _ in codes:
                first.setdefault(payload, index)
        return first


def parse_silver(data: dict) -> SilverLabels:
    try:
        frames = [[] for _ in range(int(data["frames_total"]))]
        for raw_frame in data["frames"]:
            index = raw_frame["frame"]
            if not 0 <= index < len(frames):
                raise SilverError(f"frame {index} outside 0..{len(frames) - 1}")
            for code in raw_frame["codes"]:
                frames[index].append((code["text"].encode("utf-8"), st.quad_box(code["corners"])))
        # Counted from the frames, not taken from distinct_payloads, so the two cannot disagree.
        payload_frames = {}
        for codes in frames:
            for payload in {payload for payload, _ in codes}:
                payload_frames[payload] = payload_frames.get(payload, 0) + 1
        return SilverLabels(frame_count=len(frames), payload_frames=payload_frames, frames=frames)
    except (KeyError, TypeError, ValueError, AttributeError) as error:
        raise SilverError(f"not silver labels: {error!r}") from error


def read_silver(path: str) -> SilverLabels:
    return parse_silver(read_json_object(path, "silver labels", SilverError))


class AliveItem:
    """A predicted barcode item with its bounds looked up by frame in O(log changes)."""

    def __init__(self, item: st.PredictedItem):
        self.first, self.last = item.add_frame, item.last_frame
        self.payload = item.final_payload  # a barcode's payload is its identity: the tracker never changes it
        self.frames = [change.frame for change in item.changes]
        self.boxes = [change.box for change in item.changes]

    def box_at(self, frame: int):
        if not self.first <= frame <= self.last:
            return None
        return self.boxes[max(bisect.bisect_right(self.frames, frame) - 1, 0)]


def frame_matches(codes: list, alive: list) -> int:
    """How many of one frame's silver codes the alive (payload, box) pairs account for, greedy by IoU."""
    pairs = []
    for code_index, (payload, box) in enumerate(codes):
        for item_index, (item_payload, item_box) in enumerate(alive):
            if item_payload == payload:
                overlap = iou(box, item_box)
                if overlap >= FRAME_MATCH_IOU:
                    pairs.append((overlap, code_index, item_index))
    used_codes, used_items = set(), set()
    for _, code_index, item_index in sorted(pairs, reverse=True):
        if code_index not in used_codes and item_index not in used_items:
            used_codes.add(code_index)
            used_items.add(item_index)
    return len(used_codes)


def score(silver: SilverLabels, log: st.EventLog) -> dict:
    items = [AliveItem(item) for item in st.reconstruct(log).values() if item.kind == "barcode"]
    trusted = silver.trusted
    first_add = {}
    for item in items:
        if item.payload is not None and (item.payload not in first_add or item.first < first_add[item.payload]):
            first_add[item.payload] = item.first
    reported = set(first_add)

    matched = decodes = 0
    for frame, codes in enumerate(silver.frames):
        codes = [code for code in codes if code[0] in trusted]
        if not codes:
            continue
        decodes += len(codes)
        alive = [(item.payload, box) for item in items if (box := item.box_at(frame)) is not None]
        matched += frame_matches(codes, alive)

    silver_first = silver.first_frames()
    lags = [first_add[payload] - silver_first[payload] for payload in sorted(trusted & reported)]
    return {
        "frames_labelled": silver.frame_count,
        "frames_scanned": log.last_frame + 1,
        "end_reason": log.end_reason,
        "trusted_payloads": len(trusted),
        "payloads_found": len(trusted & reported),
        "payload_recall": len(trusted & reported) / len(trusted) if trusted else 1.0,
        "missing_payloads": [shown(payload) for payload in sorted(trusted - reported)],
        "false_payloads": [{"payload": shown(payload), "silver_frames": silver.payload_frames.get(payload, 0)}
                           for payload in sorted(reported - trusted)],
        "silver_decodes": decodes,
        "decodes_matched": matched,
        "frame_recall": matched / decodes if decodes else None,
        "first_report_lag_median": statistics.median(lags) if lags else None,
        "first_report_lag_max": max(lags) if lags else None,
    }


def shown(payload: bytes, limit: int = 48) -> str:
    """A payload fit for a terminal: control and format characters (ESC, bidi overrides) escaped, long ones cut."""
    text = payload.decode("utf-8", "backslashreplace")
    text = "".join(char if char.isprintable() else f"\\u{ord(char):04x}" for char in text)
    return text if len(text) <= limit else text[:limit - 3] + "..."


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description="Score a LiveScan event log against BoofCV silver labels.")
    parser.add_argument("silver", help="movie.silver.json")
    parser.add_argument("events", help="event log JSON Lines from livescan scan --events")
    args = parser.parse_args(argv)
    try:
        result = score(read_silver(args.silver), st.read_event_log(args.events))
    except (SilverError, st.ScoreError) as error:
        print(f"silver.py: error: {error}", file=sys.stderr)
        return 1
    print(json.dumps(result, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
