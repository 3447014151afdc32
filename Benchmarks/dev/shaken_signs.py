"""A sign seen through a camera shake: ICDAR 2015's dev photos (../shared/realdata) cut into hand-held portrait
clips, each legible in three stretches with the view blurred past reading between them, as a hand's shake blurs it.

Each photo whose labelled words include one at least `MIN_WORD_HEIGHT` px tall gives one clip around its tallest such
word: a 397 x 706 window of the photo (the word's centre in its middle, kept in the photo), scaled to 450 x 800,
`FRAMES` frames at 30 fps, shaking by a few pixels; frames `BLURS` are blurred by a 24 x 3 px box (a fast shake:
no word of ICDAR's photos reads through it). The clips are joined into one video (each a cut from the last), built
with ffmpeg once under OUT, and scanned for text. A labelled word of a clip that the scan reports while the clip is
shown counts; for each such word: how many items held it (one sign, one item: the target is 1) and in which of
the three legible stretches it was reported (an item holding it present in some frame of the stretch). Pure
functions over the log beside the scan, tested in test_dev.py.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "accuracy"))
import icdar_video  # noqa: E402
import scene_text_video  # noqa: E402

FRAMES = 83
# The blurred stretches; the legible ones are what lies around them.
BLURS = ((20, 34), (55, 66))
LEGIBLE = ((0, 19), (35, 54), (67, 82))
# One frame of each legible stretch, read as a still image: what the video is held to (a sign every frame of which
# reads as a still should be reported in each stretch).
STILL_FRAMES = (10, 45, 75)
MIN_WORD_HEIGHT = 35
WINDOW = (397, 706)
SIZE = (450, 800)


def clips(entries: list) -> list:
    """[(entry index, word, window left)]: each photo's tallest labelled word at least MIN_WORD_HEIGHT px tall that
    fits the window's width and is labelled once in the photo, and where the window stands."""
    chosen = []
    for k, entry in enumerate(entries):
        best = None
        labelled = [w for region in entry["regions"] if not region["dont_care"]
                    for w in icdar_video.words(region["text"])]
        for region in entry["regions"]:
            xs = [p[0] for p in region["quad"]]
            ys = [p[1] for p in region["quad"]]
            height, width = max(ys) - min(ys), max(xs) - min(xs)
            words = icdar_video.words(region["text"])
            # A word the photo shows once: its items are the items of one sign.
            if region["dont_care"] or len(words) != 1 or labelled.count(words[0]) != 1 \
                    or height < MIN_WORD_HEIGHT or width > WINDOW[0] - 16:
                continue
            if best is None or height > best[0]:
                left = min(max((min(xs) + max(xs)) / 2 - WINDOW[0] / 2, 0), icdar_video.W - WINDOW[0] - 8)
                best = (height, words[0], int(left))
        if best:
            chosen.append((k, best[1], best[2]))
    return chosen


def clip_filter(left: int) -> str:
    """The ffmpeg filter of one clip: the window at `left`, shaking, blurred in the BLURS stretches."""
    blurred = "+".join(f"between(n,{a},{b})" for a, b in BLURS)
    return (f"format=rgb24,crop=w={WINDOW[0]}:h={WINDOW[1]}:x='{left}+4+4*sin(2*PI*t*1.3)':"
            f"y='7+6*sin(2*PI*t*1.7+1)':exact=1,scale={SIZE[0]}:{SIZE[1]},"
            f"avgblur=sizeX=24:sizeY=3:enable='{blurred}',format=yuv420p")


def clip_path(out: str, k: int) -> str:
    """Where `build` writes the clip of photo `k` under `out`."""
    return os.path.join(out, "shaken-signs", f"{k:03d}.mp4")


def build(entries: list, chosen: list, root: str, out: str) -> str:
    """The clips joined into one video under `out` (reused when present)."""
    path = os.path.join(out, f"shaken-signs-n{len(chosen)}-f{FRAMES}.mp4")
    if os.path.exists(path):
        return path
    folder = os.path.join(out, "shaken-signs")
    os.makedirs(folder, exist_ok=True)
    listing = os.path.join(folder, "concat.txt")
    with open(listing, "w", encoding="utf-8") as lst:
        for k, _, left in chosen:
            clip = clip_path(out, k)
            if not os.path.exists(clip):
                icdar_video.run(["ffmpeg", "-v", "error", "-y", "-loop", "1", "-framerate", "30", "-i",
                                 os.path.join(root, entries[k]["file"]), "-frames:v", str(FRAMES), "-vf",
                                 clip_filter(left), "-c:v", "libx264", "-crf", "18", "-g", "30", "-r", "30",
                                 clip + ".tmp.mp4"])
                os.replace(clip + ".tmp.mp4", clip)
            lst.write(f"file '{os.path.abspath(clip)}'\n")
    icdar_video.run(["ffmpeg", "-v", "error", "-y", "-f", "concat", "-safe", "0", "-i", listing, "-c", "copy",
                     path + ".tmp.mp4"])
    os.replace(path + ".tmp.mp4", path)
    return path


def still_name(k: int, frame: int) -> str:
    """The file name of frame `frame` of photo `k`'s clip read as a still image."""
    return f"{k:03d}_{frame}.png"


def build_stills(chosen: list, out: str) -> str:
    """Frames STILL_FRAMES of each clip (built by `build`) as PNG files in one folder under `out` (reused when
    present), named CLIP_FRAME.png by the clip's photo index and the frame."""
    folder = os.path.join(out, "shaken-signs", "stills")
    os.makedirs(folder, exist_ok=True)
    picked = "+".join(f"eq(n\\,{n})" for n in STILL_FRAMES)
    for k, _, _ in chosen:
        if all(os.path.exists(os.path.join(folder, still_name(k, n))) for n in STILL_FRAMES):
            continue
        pattern = os.path.join(folder, f"{k:03d}_tmp%d.png")
        icdar_video.run(["ffmpeg", "-v", "error", "-y", "-i", clip_path(out, k), "-vf", f"select='{picked}'",
                         "-vsync", "0", pattern])
        for number, n in enumerate(STILL_FRAMES, start=1):
            os.replace(pattern % number, os.path.join(folder, still_name(k, n)))
    return folder


def still_signs(chosen: list, events: list) -> set:
    """The clips (their indices in `chosen`) whose word some item of one of their still frames holds. `events`: the
    stills' scan's log lines, each add and update naming its `file`."""
    read = set()
    for clip, (k, word, _) in enumerate(chosen):
        names = {still_name(k, n) for n in STILL_FRAMES}
        if any(os.path.basename(e.get("file") or "") in names and word in icdar_video.words(e.get("transcript"))
               for e in events if e.get("event") in ("add", "update")):
            read.add(clip)
    return read


def score(chosen: list, events: list) -> dict:
    """For each clip's word the scan reported while the clip was shown: its items, and the legible stretches it was
    reported in. `events`: icdar_video.read_events's text events."""
    words = []
    alive = {}  # id -> transcript
    i = 0
    for clip, (_, word, _) in enumerate(chosen):
        first = clip * FRAMES
        holders, reported = set(), set()
        for frame in range(first, first + FRAMES):
            while i < len(events) and events[i]["frame"] <= frame:
                event = events[i]
                i += 1
                if event["event"] == "remove":
                    alive.pop(event["id"], None)
                else:
                    text = event.get("transcript")
                    alive[event["id"]] = text if text is not None else alive.get(event["id"], "")
            holding = {item for item, text in alive.items() if word in icdar_video.words(text)}
            holders |= holding
            if holding:
                reported |= {n for n, (a, b) in enumerate(LEGIBLE) if a <= frame - first <= b}
        if holders:
            words.append({"clip": clip, "word": word, "items": len(holders), "stretches": sorted(reported)})
    return {"clips": len(chosen), "words": words}


def summary(result: dict, stills: set | None = None) -> dict:
    """Words reported, how many items each took (mean, and how many were one item), and how many were reported
    in all three legible stretches; with `stills` (`still_signs`), how many signs the still frames read and how many
    of those the video never reported."""
    words = result["words"]
    reported = {w["clip"] for w in words}
    return {"clips": result["clips"], "words": len(words),
            "stills_read": None if stills is None else len(stills),
            "missed_by_video": None if stills is None else len(stills - reported),
            "one_item": sum(1 for w in words if w["items"] == 1),
            "items_per_word": sum(w["items"] for w in words) / max(len(words), 1),
            "every_stretch": sum(1 for w in words if len(w["stretches"]) == len(LEGIBLE))}


def verdicts(result: dict | None) -> list:
    """[(label, pass, shown)]: every sign read is one item through its shakes."""
    if not result or result.get("error"):
        return [("shaken signs: scanned", False, (result or {}).get("error") or "n/a")]
    return [("shaken signs: each sign read is one item through its shakes",
             result["words"] > 0 and result["one_item"] == result["words"],
             f"{result['one_item']} of {result['words']} ({result['items_per_word']:.2f} items a sign)")]


def render(result: dict) -> str:
    """The section's lines."""
    if result.get("error"):
        return f"   failed: {result['error']}"
    return (f"   {result['clips']} clips; signs read: {result['words']}; one item through the shakes: "
            f"{result['one_item']} ({result['items_per_word']:.2f} items a sign); reported in all three legible "
            f"stretches: {result['every_stretch']}; {result['fps']:.1f} fps; their frames "
            f"{', '.join(map(str, STILL_FRAMES))} read as still images: {result.get('stills_read')} signs, {result.get('missed_by_video')} of them never "
            f"reported by the video")


def run(livescan: str, shared: str, out: str, quality: str) -> dict | None:
    """Builds the clips' video, scans it and scores it; None when the photos are not there."""
    photos = scene_text_video.dev_photos(shared)
    if photos is None:
        return None
    root, entries = photos
    chosen = clips(entries)
    try:
        video = build(entries, chosen, root, out)
        log = os.path.join(out, f"shaken-signs-{quality}.jsonl")
        seconds = scene_text_video.scan(livescan, video, quality, log)
        result = score(chosen, icdar_video.read_events(log))
        stills_log = os.path.join(out, f"shaken-signs-stills-{quality}.jsonl")
        scene_text_video.scan(livescan, build_stills(chosen, out), quality, stills_log)
        with open(stills_log, encoding="utf-8") as file:
            stills = still_signs(chosen, [json.loads(line) for line in file if line.strip()])
        return {**summary(result, stills), "fps": len(chosen) * FRAMES / seconds, "error": None}
    except (RuntimeError, ValueError, OSError, subprocess.SubprocessError) as error:
        return {"error": str(error)}
