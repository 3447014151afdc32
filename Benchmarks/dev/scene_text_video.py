"""Scene text in motion against the same pictures as stills: ICDAR 2015's dev photos (../shared/realdata) played
as a drifting 720p video (Benchmarks/accuracy/icdar_video.py's `pan`: each photo held 1.5 s, the view drifting 64 x
36 px with a small shake) and read as still images, by the same binary at the same level.

The video's settled transcripts (the items alive at each photo's last frame) and the stills' items are scored with
icdar_video.py's word rules (score_realdata.py's): recall over the labelled words, precision of the words of 3 or
more letters against every region's words; and the settled items that hold no word any region names (textures
read as text, which a user sees as items, whatever their length). Targets: the video's recall at least
`RECALL_RATIO` of the stills', at the stills' precision or better; and the latency of the words the video finds
(frames after the photo came into view), median and 90th percentile, for what "found when it becomes readable" asks.
The same photos coming into focus (icdar_video.py's `focus`: the pan out of focus for its first frames) measure the
latency from the frame a photo's text becomes legible; target: at its 90th percentile at most `LEGIBLE_LATENCY`
frames. Pure functions over the logs beside the scans, tested in test_dev.py.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "accuracy"))
import icdar_video  # noqa: E402

RECALL_RATIO = 0.95
FRAMES_PER_PHOTO = 45
MOTION = "pan"
# Text legible for at least 10 frames is added within 10 frames of becoming legible.
LEGIBLE_LATENCY = 10


def still_transcripts(events: list) -> dict:
    """{photo file name: {item id: its last transcript}} over the stills' text items, as icdar_video.score counts
    one photo's items."""
    by_file: dict = {}
    for event in events:
        if event.get("event") in ("add", "update") and event.get("kind", "text") == "text":
            name = os.path.basename(event.get("file") or "")
            by_file.setdefault(name, {})[event["id"]] = event.get("transcript") or ""
    return by_file


def still_words(entries: list, events: list) -> tuple:
    """(words found, long words correct, long words) over the stills' items, photo by photo (`still_transcripts`)."""
    by_file = still_transcripts(events)
    found = correct = long_count = 0
    for entry in entries:
        texts = by_file.get(os.path.basename(entry["file"]), {}).values()
        truth = [w for region in entry["regions"] if not region["dont_care"] for w in icdar_video.words(region["text"])]
        every = icdar_video.region_words(entry)
        got = [w for text in texts for w in icdar_video.words(text)]
        long = [w for w in got if len(w) >= 3]
        found += sum(1 for w in truth if w in set(got))
        correct += sum(1 for w in long if w in every)
        long_count += len(long)
    return found, correct, long_count


def still_items(entries: list, events: list) -> tuple:
    """(items, items holding no word of any region of their photo) over the stills' items, as `still_words` counts
    them: the items a user sees that hold nothing the labels name (textures read as text, mostly)."""
    by_file = still_transcripts(events)
    items = empty = 0
    for entry in entries:
        every = icdar_video.region_words(entry)
        texts = by_file.get(os.path.basename(entry["file"]), {}).values()
        items += len(texts)
        empty += sum(1 for text in texts if icdar_video.names_no_word(text, every))
    return items, empty


def figures(hits: int, truth: int, correct: int, long_count: int, items: tuple = (0, 0)) -> dict:
    return {"recall": hits / max(truth, 1), "precision": correct / max(long_count, 1), "words_found": hits,
            "items": items[0], "items_without_word": items[1]}


def verdicts(video: dict | None, stills: dict | None, focus: dict | None = None) -> list:
    """[(label, pass, shown)]: the video's recall against the stills', and its precision; the latency of the photos
    coming into focus."""
    if not video or not stills:
        return [("drifting ICDAR photos: scanned", False, "n/a")]
    latency = []
    if focus is not None:
        p90 = focus.get("latency_p90")
        latency = [(f"ICDAR photos coming into focus: p90 frames from legible to added <= {LEGIBLE_LATENCY}",
                    p90 is not None and p90 <= LEGIBLE_LATENCY, f"{p90} (median {focus.get('latency_median')})")]
    ratio = video["recall"] / stills["recall"] if stills["recall"] else 0.0
    return [(f"drifting ICDAR photos: settled word recall >= {RECALL_RATIO}x the stills'", ratio >= RECALL_RATIO,
             f"{ratio:.2f}x ({video['recall']:.3f} / {stills['recall']:.3f})"),
            ("drifting ICDAR photos: precision >= the stills'", video["precision"] >= stills["precision"] - 1e-9,
             f"{video['precision']:.3f} / {stills['precision']:.3f}")] + latency


def scan(livescan: str, source: str, quality: str, events: str) -> float:
    """Scans `source` for text into `events`; the wall seconds it took."""
    if os.path.exists(events):
        os.remove(events)
    started = time.monotonic()
    done = subprocess.run([livescan, "scan", source, "--types", "text", "--quality", quality, "--events", events,
                           "--no-listing"], capture_output=True, text=True,
                          env={**os.environ, "OMP_THREAD_LIMIT": "1"})
    if done.returncode not in (0, 4):
        raise RuntimeError(f"livescan exited with {done.returncode}: {done.stderr[-500:]}")
    return time.monotonic() - started


def dev_photos(shared: str) -> tuple | None:
    """ICDAR 2015's dev photos under the shared folder: their folder and labels.json's entries; None when they are
    not there."""
    root = os.path.join(shared, "realdata", icdar_video.SET)
    labels = os.path.join(root, "labels.json")
    if not os.path.isfile(labels):
        return None
    with open(labels, encoding="utf-8") as file:
        return root, json.load(file)


def run(livescan: str, shared: str, out: str, quality: str) -> dict | None:
    """Builds the video (cached under `out`), scans it and the photos; None when the photos are not there."""
    photos = dev_photos(shared)
    if photos is None:
        return None
    root, entries = photos
    folder = os.path.join(out, "scene-text-video")
    os.makedirs(folder, exist_ok=True)
    result = {"photos": len(entries), "quality": quality, "error": None, "video": None, "stills": None,
              "focus": None}
    try:
        for name, motion in (("video", MOTION), ("focus", "focus")):
            video = icdar_video.build_video(motion, entries, root, FRAMES_PER_PHOTO, folder)
            log = os.path.join(folder, f"{name}-{quality}.jsonl")
            seconds = scan(livescan, video, quality, log)
            totals, latencies = icdar_video.score(entries, icdar_video.read_events(log), FRAMES_PER_PHOTO,
                                                  legible=icdar_video.legible_from(motion))
            hits, correct, long_count = totals["settled"]
            result[name] = {**figures(hits, totals["truth"], correct, long_count, totals["items"]),
                            "fps": len(entries) * FRAMES_PER_PHOTO / seconds,
                            "latency_median": sorted(latencies)[len(latencies) // 2] if latencies else None,
                            "latency_p90": icdar_video.p90(latencies)}
        video_log = os.path.join(folder, f"video-{quality}.jsonl")
        stills_log = os.path.join(folder, f"stills-{quality}.jsonl")
        seconds = scan(livescan, os.path.join(root, "images"), quality, stills_log)
        with open(stills_log, encoding="utf-8") as file:
            events = [json.loads(line) for line in file if line.strip()]
        hits, correct, long_count = still_words(entries, events)
        result["stills"] = {**figures(hits, totals["truth"], correct, long_count, still_items(entries, events)),
                            "fps": len(entries) / seconds}
        result["folds"] = fold_figures(entries, icdar_video.read_events(video_log), events)
    except (RuntimeError, ValueError, OSError) as error:
        result["error"] = str(error)
    return result


def fold_figures(entries: list, video_events: list, still_events: list) -> list:
    """The video's settled figures and the stills' on each fold of the photos (`icdar_video.fold`): a change is kept
    only when it helps on both."""
    folds = []
    for fold in (0, 1):
        counted = {k for k, entry in enumerate(entries) if icdar_video.fold(entry["file"]) == fold}
        totals, _ = icdar_video.score(entries, video_events, FRAMES_PER_PHOTO, counted)
        hits, correct, long_count = still_words([entries[k] for k in sorted(counted)], still_events)
        folds.append({"fold": fold, "photos": len(counted),
                      "video": figures(*totals["settled"][:1], totals["truth"], *totals["settled"][1:]),
                      "stills": figures(hits, totals["truth"], correct, long_count)})
    return folds


def render(result: dict) -> str:
    """The section's table: the photos as video and as stills."""
    lines = ["| photos as | word recall | precision | words found | items / holding no labelled word "
             "| add latency median / p90 (frames) | fps |",
             "|---|---|---|---|---|---|---|"]
    for name, label in (("video", f"drifting video, settled ({FRAMES_PER_PHOTO} frames a photo)"),
                        ("focus", f"coming into focus (legible from frame {icdar_video.BLURRED}), settled"),
                        ("stills", "still images")):
        row = result.get(name)
        if row is None:
            lines.append(f"| {label} | n/a | | | | | |")
            continue
        latency = "" if name == "stills" else f"{row['latency_median']} / {row['latency_p90']}"
        lines.append(f"| {label} | {row['recall']:.3f} | {row['precision']:.3f} | {row['words_found']} "
                     f"| {row.get('items', 0)} / {row.get('items_without_word', 0)} | {latency} | {row['fps']:.1f} |")
    for fold in result.get("folds") or []:
        video, stills = fold["video"], fold["stills"]
        lines.append(f"| fold {fold['fold']} ({fold['photos']} photos): video / stills | {video['recall']:.3f} / "
                     f"{stills['recall']:.3f} | {video['precision']:.3f} / {stills['precision']:.3f} | "
                     f"{video['words_found']} / {stills['words_found']} | | | |")
    if result.get("error"):
        lines.append(f"   failed: {result['error']}")
    return "\n".join(lines)
