#!/usr/bin/env python3
"""The figures of the real-time benchmark (`make bench`, run by bench_realtime.py): text CER on sampled frames, add
latency on a live stream, the RSS trend of a soak run, the ratios and the pass/fail targets.

Pure functions over outputs already read, so they are tested with a bare Python 3.11 (test_score_realtime.py).
Ground truth and event logs are parsed by Benchmarks/tracking/score_tracking.py, imported from there.

CER (one definition for every text path): in each scored frame, every ground-truth text line that is visible there is
paired with the output line of that frame nearest to it in edit distance (nearest pairs first, each output line used
once); its cost is that distance, at most the line's length (a line with no usable output costs its length, as a
line read as nothing). Lines are compared after
collapsing runs of whitespace. CER = total cost / total characters of the expected lines. Output lines that match no
expected line (Tesseract's "lines" read from code textures, LiveScan's false items) are not counted: the measure is
how well the text that is there gets read. For LiveScan, a frame's output lines are the transcripts of the text items
alive in that frame, each as its latest event at or before the frame gave it.
"""
from __future__ import annotations

import bisect
import os
import statistics
import sys
from dataclasses import dataclass

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tracking"))
import score_tracking as st  # noqa: E402
import view_cost  # noqa: E402  (beside this file)

# An add is credited to a ground-truth text line whose box it overlaps this much in the add's frame (barcodes are
# identified by payload, the overlap only tells identical twins apart).
TEXT_MATCH_IOU = 0.3
# "Flat": the soak's RSS may grow at most this fast over its second half (2.5 MB over the second 5 min of 10).
SOAK_SLOPE_LIMIT = 0.5  # MB per minute
# Peak RSS of a scan: 300 MB, and 400 MB for a scan that reads text, whose learned detector and
# recogniser networks (about 150 MB of buffers at 960x544) are loaded.
RSS_LIMIT = 300.0  # MB
RSS_LIMIT_WITH_TEXT = 400.0  # MB
# The first minute holds the allocator's and caches' warm-up (about +3 MB): a shorter soak's second half cannot tell a
# leak from it, so its trend is shown but not judged (the 300 MB ceiling still is).
SOAK_MIN_SECONDS = 300
# "Held at 30 fps" on a 30 fps stream: at most 1 frame in 30 dropped.
LIVE_FPS_TARGET = 29.0


# ---------------------------------------------------------------------------------------------------------------------
# CER


def sampled_frames(frame_count: int, every: int) -> list:
    """The frames CER is scored on (and per-frame tesseract reads): every `every`-th, starting `every` // 2 in, away
    from frame 0, where no tracker that confirms a line over two frames can have reported it yet."""
    return list(range(min(every // 2, max(frame_count - 1, 0)), frame_count, every))


def normalise(text: str) -> str:
    return " ".join(text.split())


def frame_cer(expected_lines, output_lines) -> tuple:
    """(edits, characters, exact lines) of one frame, by the module's CER definition.

    Each output line serves at most one expected line: pairs are taken nearest first (greedy), so one line read well
    cannot stand in for two."""
    expected = [normalise(text) for text in expected_lines]
    outputs = [line for line in (normalise(text) for text in output_lines) if line]
    pairs = []
    for row, line in enumerate(expected):
        for column, output in enumerate(outputs):
            # The distance is at least the difference in length; a pair no better than nothing is no pair.
            if abs(len(output) - len(line)) < len(line):
                distance = st.edit_distance(line, output)
                if distance < len(line):
                    pairs.append((distance, row, column))
    cost = [len(line) for line in expected]
    used_rows, used_columns = set(), set()
    for distance, row, column in sorted(pairs):
        if row not in used_rows and column not in used_columns:
            used_rows.add(row)
            used_columns.add(column)
            cost[row] = distance
    return sum(cost), sum(len(line) for line in expected), sum(value == 0 for value in cost)


def visible_transcripts(truth: st.GroundTruth, frame: int) -> list:
    """The transcripts of the text lines visible in `frame`."""
    return [truth.items[placement.item].transcript or "" for placement in truth.frames[frame]
            if placement.visible and truth.items[placement.item].kind == "text"]


def cer_figures(truth: st.GroundTruth, outputs: dict) -> dict:
    """CER over the frames in `outputs` (frame index -> that frame's output lines)."""
    edits = characters = exact = lines = 0
    for frame, output_lines in sorted(outputs.items()):
        expected = visible_transcripts(truth, frame)
        frame_edits, frame_characters, frame_exact = frame_cer(expected, output_lines)
        edits += frame_edits
        characters += frame_characters
        exact += frame_exact
        lines += len(expected)
    return {"frames": len(outputs), "lines": lines, "exact_lines": exact, "edits": edits, "characters": characters,
            "cer": edits / characters if characters else None}


def livescan_transcripts(predictions: dict, frame: int) -> list:
    """The transcripts of the text items alive in `frame` (score_tracking.reconstruct's items), as of that frame."""
    lines = []
    for item in predictions.values():
        if item.kind != "text" or not item.add_frame <= frame <= item.last_frame:
            continue
        transcript = item.changes[0].transcript
        for change in item.changes:
            if change.frame > frame:
                break
            transcript = change.transcript
        lines.append(transcript or "")
    return lines


def tesseract_pages(text: str, count: int) -> list:
    """Tesseract's text output for a list of `count` images, one list of lines per image (pages end with \\f)."""
    pages = text.split("\f")
    if pages and not pages[-1].strip():
        pages.pop()
    if len(pages) != count:
        raise ValueError(f"tesseract gave {len(pages)} pages for {count} images")
    return [page.splitlines() for page in pages]


# ---------------------------------------------------------------------------------------------------------------------
# Barcode yield


def truth_payloads(truth: st.GroundTruth) -> set:
    """The payloads (bytes) of the barcodes visible in at least one frame."""
    return {(item.payload or "").encode("utf-8") for item in st.scored_items(truth, "barcode")}


def payload_yield(expected: set, found) -> dict:
    """Distinct payloads found that the ground truth has, of how many, and the distinct ones it does not have."""
    found = set(found)
    return {"correct": len(found & expected), "total": len(expected),
            "misreads": sorted(payload.decode("utf-8", "replace") for payload in found - expected)}


# ---------------------------------------------------------------------------------------------------------------------
# Live add latency
#
# The stream is the truth video looped by `ffmpeg -re -stream_loop -1 ... -f mpegts tcp://...?listen=1`. ffmpeg opens
# (accepts on) its output before it starts reading the input, so the first frame it sends is the video's frame 0,
# and LiveScan's frame index (LiveFrameSource: frames decoded since it connected, dropped ones included) is the index
# of the frame sent: sent frame k shows truth frame k mod L. ffmpeg's `-progress` reports, read every 0.1 s, give the
# wall time at which each frame was written to the socket (`-flush_packets 1`: no buffering after that); LiveScan's
# event log lines on a pipe give the wall time each add reached us. Latency of an appearance = arrival of its first
# add - time its first visible frame was sent, i.e. what a user of the stream waits, including LiveScan's demuxing,
# decoding (FFmpeg's frame threads hold a frame each), waiting for the scanner, recognition and the tracker's
# confirmations.
#
# Error bars: both time stamps are taken by this process's reader threads when a line arrives, so each is late by the
# thread's wake-up, a few ms on an idle machine, up to a scheduler slice or two (10-20 ms) on a loaded one; the sent
# time is interpolated between reports 3 frames apart at a pace -re keeps linear, within a frame (33 ms) even when
# ffmpeg stalls. One sample is good to about +-1 frame; the median over tens of samples much better. The frame
# alignment (decoded k = sent k) holds only if no frame is lost in between: the report compares frames sent and decoded.


@dataclass
class Appearance:
    """One stretch of frames in which an item is visible (gaps shorter than the tracker's grace period bridged)."""
    item: str
    kind: str
    start: int  # first visible frame, in stream frames
    end: int  # last visible frame, in stream frames
    loop: int
    # Visible across the loop's seam (last frame and frame 0): the tracker may keep it, so no add is owed.
    continued: bool = False


def visible_runs(truth: st.GroundTruth, grace_frames: int) -> dict:
    """Item id -> [(first, last)] visible frames within one pass of the video, runs at most `grace_frames` apart
    merged (the tracker keeps an item unseen for up to its grace period)."""
    runs = {}
    for index, placements in enumerate(truth.frames):
        for placement in placements:
            if not placement.visible:
                continue
            item_runs = runs.setdefault(placement.item, [])
            if item_runs and index - item_runs[-1][1] - 1 <= grace_frames:
                item_runs[-1] = (item_runs[-1][0], index)
            else:
                item_runs.append((index, index))
    return runs


def stream_appearances(truth: st.GroundTruth, grace_frames: int, frames: int) -> list:
    """Every appearance that starts within the first `frames` frames of the looped stream."""
    length = len(truth.frames)
    runs = visible_runs(truth, grace_frames)
    appearances = []
    for loop in range(0, (frames + length - 1) // length if length else 0):
        for item_id, item_runs in runs.items():
            wraps = item_runs[-1][1] == length - 1
            for first, last in item_runs:
                start = loop * length + first
                if start >= frames:
                    continue
                appearances.append(Appearance(item=item_id, kind=truth.items[item_id].kind, start=start,
                                              end=loop * length + last, loop=loop,
                                              continued=loop > 0 and first == 0 and wraps))
    appearances.sort(key=lambda appearance: (appearance.start, appearance.item))
    return appearances


def sent_time_function(samples, fps: float):
    """A function: stream frame k -> wall time at which it was sent, from (wall time, frames written) samples.

    Frame k is sent when the count of frames written reaches k + 1: interpolated linearly between samples, and
    extrapolated at `fps` outside them.
    """
    points = []
    for wall, count in sorted(samples):
        if not points or count > points[-1][1]:
            points.append((wall, count))
    if not points:
        raise ValueError("no progress samples from the stream server")
    counts = [count for _, count in points]

    def sent(frame: int) -> float:
        target = frame + 1
        index = bisect.bisect_left(counts, target)
        if index == 0:
            return points[0][0] - (points[0][1] - target) / fps
        if index == len(points):
            return points[-1][0] + (target - points[-1][1]) / fps
        (wall_a, count_a), (wall_b, count_b) = points[index - 1], points[index]
        return wall_a + (wall_b - wall_a) * (target - count_a) / (count_b - count_a)

    return sent


def match_add(truth: st.GroundTruth, change: st.Change) -> str | None:
    """The ground-truth item an add (of a looped stream) is about, or None: a barcode by payload (the box picks
    among identical twins), a text line by box overlap, in the truth frame the add's frame shows."""
    placements = truth.frames[change.frame % len(truth.frames)]
    best, best_overlap = None, -1.0
    for placement in placements:
        item = truth.items[placement.item]
        if item.kind != change.kind:
            continue
        overlap = st.iou(placement.box, change.box)
        if item.kind == "barcode":
            if (item.payload or "").encode("utf-8") != change.payload:
                continue
        elif overlap < TEXT_MATCH_IOU:
            continue
        if overlap > best_overlap:
            best, best_overlap = item.id, overlap
    return best


def percentile(values: list, fraction: float):
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def present_runs(truth: st.GroundTruth) -> dict:
    """Item id -> [(first, last)] frames, within one pass of the video, in which it is at least partly in the picture
    (visible or not)."""
    runs = {}
    for index, placements in enumerate(truth.frames):
        for placement in placements:
            item_runs = runs.setdefault(placement.item, [])
            if item_runs and item_runs[-1][1] == index - 1:
                item_runs[-1] = (item_runs[-1][0], index)
            else:
                item_runs.append((index, index))
    return runs


def owning_appearance(appearances: list, frame: int, grace_frames: int, entering=None) -> Appearance | None:
    """The appearance (of one item, in order) an add in `frame` belongs to: the one under way; else the one just
    over, within the grace period (the tracker still knew the item); else the next one if the item is entering it,
    partly in the picture from `frame` on (`entering(frame, start)`; None: always), as a line reported by the part
    in view before it is wholly in is."""
    previous = upcoming = None
    for appearance in appearances:
        if appearance.start <= frame <= appearance.end:
            return appearance
        if appearance.end < frame:
            previous = appearance
        elif upcoming is None:
            upcoming = appearance
    if previous is not None and frame - previous.end <= grace_frames:
        return previous
    if upcoming is not None and (entering is None or entering(frame, upcoming.start)):
        return upcoming
    return None


def latency_figures(truth: st.GroundTruth, adds: list, sent, grace_frames: int, frames: int,
                    steady_from: int) -> dict:
    """Add latency per kind on a looped live stream.

    `adds`: [(arrival wall time, score_tracking.Change)] in arrival order; `sent`: sent_time_function's result;
    `frames`: frames decoded (appearances starting later are not counted); `steady_from`: the stream frame being sent
    when LiveScan's first output arrived: appearances starting before it waited for LiveScan to start (stream probing,
    engine set-up) and are reported as start-up, not in the medians.
    """
    appearances = stream_appearances(truth, grace_frames, frames)
    length = len(truth.frames)
    presence = present_runs(truth)
    by_item = {}
    for appearance in appearances:
        by_item.setdefault(appearance.item, []).append(appearance)
    first_add = {}  # id(appearance) -> (arrival, change)
    unmatched = duplicates = 0
    for arrival, change in adds:
        item_id = match_add(truth, change)
        if item_id is None:
            unmatched += 1
            continue
        def entering(frame, start, runs=presence.get(item_id, [])):
            # In the picture from `frame` through `start`, within one pass of the video.
            return frame // length == start // length and any(
                first <= frame % length and start % length <= last for first, last in runs)

        owner = owning_appearance(by_item.get(item_id, []), change.frame, grace_frames, entering)
        if owner is None:
            unmatched += 1
        elif id(owner) in first_add:
            duplicates += 1  # added twice in one appearance: the tracker lost it
        else:
            first_add[id(owner)] = (arrival, change)

    figures = {}
    for kind in st.KINDS:
        milliseconds, frame_latencies, startup, samples = [], [], [], []
        owed = missed = continued_added = early = 0
        for appearance in appearances:
            if appearance.kind != kind:
                continue
            found = first_add.get(id(appearance))
            if appearance.start < steady_from:
                if found is not None:
                    startup.append(max(0.0, found[0] - sent(appearance.start)) * 1000)
                continue
            if appearance.continued and found is None:
                continue
            continued_added += appearance.continued
            owed += 1
            if found is None:
                missed += 1
                continue
            waited = found[0] - sent(appearance.start)
            early += waited < 0
            milliseconds.append(max(0.0, waited) * 1000)
            frame_latencies.append(found[1].frame - appearance.start)
            samples.append({"item": appearance.item, "start": appearance.start, "add_frame": found[1].frame,
                            "ms": round(milliseconds[-1], 1)})
        figures[kind] = {"appearances": owed, "added": len(milliseconds), "missed": missed,
                         "median_ms": statistics.median(milliseconds) if milliseconds else None,
                         "p90_ms": percentile(milliseconds, 0.9), "max_ms": max(milliseconds, default=None),
                         "median_frames": statistics.median(frame_latencies) if frame_latencies else None,
                         "before_in_view": early, "startup_ms": sorted(startup),
                         "continued_readded": continued_added, "samples": samples}
    figures["unmatched_adds"] = unmatched
    figures["duplicate_adds"] = duplicates
    return figures


def processed_figures(frames_with_lines: set, decoded: int, steady_from: int, fps: float,
                      end_line: dict | None) -> dict:
    """Frames LiveScan processed on the live stream, and the rate that makes at the stream's pace.

    The event log v1 does not count processed frames. When its end line has `frames_processed`/`frames_dropped`
    those are used; otherwise the run uses the tracker setting update_distance=0, so each processed frame in which
    any item's bounds changed writes a line with its index, and the frames with a line are a lower bound on those
    processed. It is tight: scanning the live video as a file (every frame processed) so, 899 of its 900 frames had a
    line (the one without is a scene cut: the last scene's items unseen, the new ones not yet confirmed).
    Counted from `steady_from` (LiveScan's first output) on: before it, frames buffered while the stream was probed
    arrive in a burst and all but the last are dropped by design.
    """
    window = max(decoded - steady_from, 0)
    if end_line and isinstance(end_line.get("frames_processed"), int):
        processed = end_line["frames_processed"]
        method = "end line"
        window = decoded
    else:
        processed = sum(1 for frame in frames_with_lines if steady_from <= frame < decoded)
        method = "frames with a line (lower bound)"
    return {"decoded": decoded, "window": window, "processed": processed, "method": method,
            "fps": processed / window * fps if window else None,
            "dropped": window - processed}


def lag_figures(first_arrival: dict, sent, steady_from: int) -> dict:
    """Frame-to-output lag: for each frame that got an event line, from its sending to the arrival of its first line
    (demuxing, decoding, waiting for the scanner, recognition, tracking, writing), from `steady_from` on."""
    lags = sorted((arrival - sent(frame)) * 1000 for frame, arrival in first_arrival.items() if frame >= steady_from)
    return {"frames": len(lags), "median_ms": statistics.median(lags) if lags else None,
            "p90_ms": percentile(lags, 0.9), "max_ms": lags[-1] if lags else None}


# ---------------------------------------------------------------------------------------------------------------------
# Memory


def slope(points) -> float | None:
    """Least-squares slope of [(x, y)], None with fewer than 2 distinct x."""
    if len({x for x, _ in points}) < 2:
        return None
    mean_x = sum(x for x, _ in points) / len(points)
    mean_y = sum(y for _, y in points) / len(points)
    return (sum((x - mean_x) * (y - mean_y) for x, y in points)
            / sum((x - mean_x) ** 2 for x, _ in points))


def rss_trend(samples, duration: float) -> dict:
    """Start, peak, end of [(seconds since start, RSS MB)] and the slope over the second half in MB per minute."""
    if not samples:
        return {"start": None, "peak": None, "end": None, "slope_mb_per_min": None, "samples": 0}
    second_half = [(seconds / 60, mb) for seconds, mb in samples if seconds >= duration / 2]
    per_minute = slope(second_half)
    return {"start": samples[0][1], "peak": max(mb for _, mb in samples), "end": samples[-1][1],
            "slope_mb_per_min": per_minute, "samples": len(samples)}


# ---------------------------------------------------------------------------------------------------------------------
# Ratios and targets


def ratio(numerator, denominator):
    return numerator / denominator if numerator is not None and denominator else None


def fps_of(video: dict, tool: str):
    run = video["runs"].get(tool)
    return run.get("fps") if run else None


def video_ratios(video: dict) -> dict:
    barcodes = fps_of(video, "livescan-barcodes")
    return {"barcodes_vs_decode": ratio(barcodes, fps_of(video, "decode")),
            "barcodes_vs_zbarimg": ratio(barcodes, fps_of(video, "zbarimg")),
            "barcodes_vs_zxingreader": ratio(barcodes, fps_of(video, "zxingreader")),
            "text_vs_tesseract": ratio(fps_of(video, "livescan-text"), fps_of(video, "tesseract"))}


def verdict(value, comparison: str, threshold) -> str:
    # A figure that could not be measured fails rather than passes silently.
    if value is None:
        return "FAIL"
    return "PASS" if (value >= threshold if comparison == ">=" else value <= threshold) else "FAIL"


def evaluate_targets(results: dict) -> list:
    """[{target, shown, verdict}] for the issue's targets: verdict PASS, FAIL, or SKIP (not run by choice)."""
    targets = []

    def add(label, value, comparison, threshold, shown, skip=False):
        targets.append({"target": label, "value": value, "shown": shown,
                        "verdict": "SKIP" if skip else verdict(value, comparison, threshold)})

    speed = results.get("speed")
    if speed:
        add(f"{speed['frames']}-frame 720p: LiveScan barcodes-only >= 0.8x `ffmpeg -threads 1` decode-only "
            f"(medians of {speed['rounds']} alternating runs)", speed["ratio"], ">=", 0.8,
            f"{st.fmt(speed['ratio'], 2)}x ({st.fmt(speed['barcodes_fps'], 1)} against "
            f"{st.fmt(speed['decode_fps'], 1)} fps)")
    for name, video in results["videos"].items():
        ratios = video["ratios"]
        add(f"{name}: LiveScan barcodes-only >= 5x zbarimg", ratios["barcodes_vs_zbarimg"], ">=", 5,
            f"{st.fmt(ratios['barcodes_vs_zbarimg'], 2)}x")
        text_fps = fps_of(video, "livescan-text")
        if name == "720p":
            add("720p: LiveScan text+barcodes >= 30 fps", text_fps, ">=", 30, f"{st.fmt(text_fps, 1)} fps")
        ours, theirs = video["cer"].get("livescan-text", {}).get("cer"), video["cer"].get("tesseract", {}).get("cer")
        speed = ratios["text_vs_tesseract"]
        both = None if speed is None or ours is None or theirs is None else (speed if ours <= theirs else 0.0)
        add(f"{name}: LiveScan text+barcodes >= 10x per-frame tesseract at equal or lower CER", both, ">=", 10,
            f"{st.fmt(speed, 1)}x, CER {st.fmt(ours)} vs {st.fmt(theirs)}")

    live = results.get("live")
    if live:
        processed = live["processed"]
        add("live 720p30: held at 30 fps (processed >= 29 fps)", processed["fps"], ">=", LIVE_FPS_TARGET,
            f"{st.fmt(processed['fps'], 1)} fps, {processed['dropped']} of {processed['window']} dropped")
        for kind, limit in (("barcode", 100), ("text", 500)):
            figures = live["latency"][kind]
            add(f"live: median {kind} add latency <= {limit} ms", figures["median_ms"], "<=", limit,
                f"{st.fmt(figures['median_ms'], 0)} ms over {figures['added']}, {figures['missed']} missed")

    for reads_text, limit, which in ((False, RSS_LIMIT, "barcodes-only LiveScan run"),
                                     (True, RSS_LIMIT_WITH_TEXT, "LiveScan run that reads text")):
        peaks = [(label, run["peak_rss_mb"]) for label, run, text in livescan_runs(results)
                 if text == reads_text and run.get("peak_rss_mb") is not None]
        worst = max(peaks, key=lambda pair: pair[1], default=(None, None))
        add(f"RSS <= {limit:.0f} MB in every {which}", worst[1], "<=", limit,
            f"peak {st.fmt(worst[1], 0)} MB ({worst[0]})" if worst[0] else "n/a")
    for label, passed, shown in view_cost.verdicts(results["view_cost"]) if results.get("view_cost") else []:
        targets.append({"target": label, "value": None, "shown": shown, "verdict": "PASS" if passed else "FAIL"})
    soak = results.get("soak")
    if soak:
        trend = soak["rss"]
        shown = (f"{st.fmt(trend['slope_mb_per_min'], 2)} MB/min, {st.fmt(trend['start'], 0)} -> "
                 f"{st.fmt(trend['end'], 0)} MB")
        short = soak["seconds"] < SOAK_MIN_SECONDS
        add(f"soak: RSS flat over {soak['seconds']:.0f} s (second-half slope < {SOAK_SLOPE_LIMIT} MB/min)",
            None if trend["slope_mb_per_min"] is None else abs(trend["slope_mb_per_min"]), "<=", SOAK_SLOPE_LIMIT,
            shown + (f"; not judged under {SOAK_MIN_SECONDS} s" if short else ""), skip=short)
    else:
        add("soak: RSS flat", None, "<=", SOAK_SLOPE_LIMIT, "skipped (BENCH_SOAK_SECONDS=0)", skip=True)
    return targets


def livescan_runs(results: dict):
    """(label, run, whether it reads text) for every LiveScan process of the benchmark: the live and soak runs read
    text and barcodes, the speed runs barcodes only (their largest peak)."""
    for name, video in results["videos"].items():
        for tool, run in video["runs"].items():
            if tool.startswith("livescan"):
                yield f"{name} {tool}", run, tool == "livescan-text"
    speed = results.get("speed")
    if speed and speed.get("barcodes_peak_rss_mb") is not None:
        yield "speed", {"peak_rss_mb": speed["barcodes_peak_rss_mb"]}, False
    for part in ("live", "soak"):
        if results.get(part):
            yield part, results[part]["run"], True


# ---------------------------------------------------------------------------------------------------------------------
# Output


TOOL_NAMES = {"decode": "decode-only (ffmpeg -f null)", "livescan-barcodes": "LiveScan barcodes-only",
              "zbarimg": "zbarimg", "zxingreader": "ZXingReader -noscale", "livescan-text": "LiveScan text+barcodes",
              "tesseract": "tesseract (per frame)"}


def render(results: dict) -> str:
    out = []
    rows = []
    for name, video in results["videos"].items():
        for tool, run in video["runs"].items():
            payloads = run.get("payloads")
            cer = video["cer"].get(tool)
            rows.append([TOOL_NAMES.get(tool, tool), name, st.fmt(run.get("frames")), st.fmt(run.get("seconds"), 2),
                         st.fmt(run.get("fps"), 1), st.fmt(run.get("peak_rss_mb"), 0),
                         f"{payloads['correct']}/{payloads['total']}" if payloads else "-",
                         str(len(payloads["misreads"])) if payloads else "-",
                         st.fmt(cer["cer"]) if cer else "-",
                         f"{cer['exact_lines']}/{cer['lines']}" if cer else "-",
                         run.get("note", "")])
    out.append(st.table(rows, ["tool", "video", "frames", "seconds", "fps", "peak RSS MB", "codes found",
                               "misreads", "CER", "lines exact", "note"], left_columns=2))
    out.append("")
    for name, video in results["videos"].items():
        ratios = video["ratios"]
        out.append(f"{name} ratios: barcodes-only / decode-only {st.fmt(ratios['barcodes_vs_decode'], 2)}x, "
                   f"/ zbarimg {st.fmt(ratios['barcodes_vs_zbarimg'], 2)}x, "
                   f"/ ZXingReader {st.fmt(ratios['barcodes_vs_zxingreader'], 2)}x; "
                   f"text+barcodes / tesseract {st.fmt(ratios['text_vs_tesseract'], 1)}x")
    speed = results.get("speed")
    if speed:
        out.append(f"speed ({speed['frames']} frames of 720p, {speed['rounds']} alternating runs): LiveScan "
                   f"barcodes-only {', '.join(st.fmt(x, 2) for x in speed['barcodes_seconds'])} s, `ffmpeg -threads 1 "
                   f"-f null` {', '.join(st.fmt(x, 2) for x in speed['decode_seconds'])} s: median ratio "
                   f"{st.fmt(speed['ratio'], 2)}x; LiveScan's peak RSS {st.fmt(speed.get('barcodes_peak_rss_mb'), 0)} MB")
    for note in results.get("notes", []):
        out.append(f"note: {note}")

    live = results.get("live")
    if live:
        processed, latency, run = live["processed"], live["latency"], live["run"]
        out.append("")
        out.append(f"== live: {live['source']} for {live['seconds']:.0f} s, frames sent {live['frames_sent']}, "
                   f"decoded {processed['decoded']}, exit {run['exit']}, peak RSS {st.fmt(run['peak_rss_mb'], 0)} MB")
        out.append(f"   processed {processed['processed']} of {processed['window']} frames from LiveScan's first "
                   f"output on ({processed['method']}): {st.fmt(processed['fps'], 1)} fps at the stream's pace; "
                   f"first output {st.fmt(live['first_output_seconds'], 2)} s after the first frame was sent")
        rows = []
        for kind in st.KINDS:
            figures = latency[kind]
            rows.append([kind, f"{figures['added']}/{figures['appearances']}", str(figures["before_in_view"]),
                         st.fmt(figures["median_ms"], 0), st.fmt(figures["p90_ms"], 0), st.fmt(figures["max_ms"], 0),
                         st.fmt(figures["median_frames"], 1),
                         ", ".join(st.fmt(value, 0) for value in figures["startup_ms"]) or "-"])
        out.append(st.table(rows, ["kind", "added/appearances", "before in view (0 ms)", "median ms", "p90 ms",
                                   "max ms", "median frames", "start-up adds ms"]))
        lag = live["lag"]
        out.append(f"   frame-to-output lag (a frame's sending to its first event line, {lag['frames']} frames): "
                   f"median {st.fmt(lag['median_ms'], 0)} ms, p90 {st.fmt(lag['p90_ms'], 0)} ms, max "
                   f"{st.fmt(lag['max_ms'], 0)} ms; adds matching no appearance: {latency['unmatched_adds']}, second "
                   f"adds in one appearance: {latency['duplicate_adds']}")
    if results.get("view_cost"):
        out.append("")
        out.extend(view_cost.render(results["view_cost"]))
    soak = results.get("soak")
    if soak:
        trend = soak["rss"]
        out.append("")
        out.append(f"== soak: {soak['seconds']:.0f} s live, RSS sampled every {soak['period']:.0f} s: start "
                   f"{st.fmt(trend['start'], 1)} MB, peak {st.fmt(trend['peak'], 1)} MB (ru_maxrss "
                   f"{st.fmt(soak['run']['peak_rss_mb'], 1)}), end {st.fmt(trend['end'], 1)} MB, second-half slope "
                   f"{st.fmt(trend['slope_mb_per_min'], 3)} MB/min; processed {st.fmt(soak['processed']['fps'], 1)} "
                   f"fps")
    out.append("")
    for target in results["targets"]:
        out.append(f"{target['verdict']}  {target['target']}  (got {target['shown']})")
    return "\n".join(out)
