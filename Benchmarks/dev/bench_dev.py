#!/usr/bin/env python3
"""Dev-scene benchmark: every ../shared/dev-scenes video at each quality level, the BoofCV hand-held videos, and
ICDAR 2015's dev photos as a drifting video against the same photos as stills (scene_text_video.py) and as hand-held
clips of a sign through camera shakes (shaken_signs.py), scanned by
livescan and scored; one report of PASS/FAIL per target and the scan fps.

    bench_dev.py --bin .build/release --shared ../shared --out .build/bench/dev [--scenes a,b] [--qualities q,r]
                 [--no-boofcv] [--no-scene-text-video]

Run by scripts/bench-dev.sh with the Python of a virtualenv that has py-motmetrics, numpy and rapidfuzz: the dev
scenes are scored by ../shared/tools/score_scene.py (the scorer LiveScan is judged by), run as a command once per
scene, quality and kind the truth holds; the BoofCV videos (balanced) by silver.py. Targets and table: report.py.
Scans run one at a time (the machine has 2 cores; fps is frames / scan wall seconds, process start included).
Writes OUT/summary.txt, OUT/dev.json and per scan OUT/<scene>/<quality>.events.jsonl, .scan.log and
.<kind>.score.json. Exit status 0 whatever the targets say; 1 when a scan or a scorer failed (the others still run).
"""
from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import report  # noqa: E402
import scene_text_video  # noqa: E402
import shaken_signs  # noqa: E402
import silver  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tracking"))
import score_tracking as st  # noqa: E402

BOOFCV_VIDEOS = ("qrcode", "microqr", "aztec")
BOOFCV_FOLDER = os.path.join("corpus", "boofcv-fiducial-video")
# Generous: accurate reads about 20 frames a second at 720p, and the longest video has 868 frames.
SCAN_TIMEOUT = 600
SCORE_TIMEOUT = 120


def log(message: str) -> None:
    print(f"bench-dev: {message}", flush=True)


def scan(livescan: str, video: str, quality: str, prefix: str) -> dict:
    """Scans `video` into the fresh event log prefix.events.jsonl; {"events", "fps", "frames", "seconds", "error",
    "warnings"}."""
    events, scan_log = prefix + ".events.jsonl", prefix + ".scan.log"
    for stale in (events, scan_log):
        if os.path.exists(stale):
            os.remove(stale)
    command = [livescan, "scan", video, "--quality", quality, "--events", events, "--no-listing"]
    result = {"events": events, "fps": None, "frames": None, "seconds": None, "error": None, "warnings": []}
    start = time.monotonic()
    with open(scan_log, "wb") as stderr:
        process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=stderr)
        try:
            returncode = process.wait(timeout=SCAN_TIMEOUT)
        except subprocess.TimeoutExpired:
            returncode = None
        finally:
            if process.poll() is None:  # timed out, or this script was interrupted
                process.kill()
                process.wait()
    result["seconds"] = time.monotonic() - start
    if returncode is None:
        result["error"] = f"scan timed out after {SCAN_TIMEOUT} s (log: {scan_log})"
        return result
    if returncode != 0:
        result["error"] = f"livescan exited with {returncode} (log: {scan_log})"
        return result
    event_log = st.read_event_log(events)
    if event_log.end is None or event_log.end_reason != "eof":
        result["error"] = f"event log ended '{event_log.end_reason}', not 'eof' (log: {scan_log})"
        return result
    frames = event_log.end.get("frames_processed", event_log.last_frame + 1)
    result["frames"] = frames
    result["fps"] = frames / result["seconds"] if result["seconds"] > 0 else None
    if event_log.skipped:
        result["warnings"].append(f"{event_log.skipped} event-log line(s) unreadable: {event_log.skipped_examples}")
    if event_log.end.get("frames_dropped"):
        result["warnings"].append(f"{event_log.end['frames_dropped']} frame(s) dropped")
    return result


def score_scene(scorer: str, truth: str, events: str, kind: str, out: str) -> tuple:
    """(figures, error) from score_scene.py for one kind; the figures are also written to `out`."""
    try:
        done = subprocess.run([sys.executable, scorer, truth, events, "--kind", kind, "--json"],
                              stdin=subprocess.DEVNULL, capture_output=True, timeout=SCORE_TIMEOUT)
    except subprocess.TimeoutExpired:
        return None, f"score_scene.py timed out after {SCORE_TIMEOUT} s"
    if done.returncode != 0:
        last = (done.stderr.decode("utf-8", "replace").strip().splitlines() or ["no message"])[-1]
        return None, f"score_scene.py exited with {done.returncode}: {last}"
    try:
        figures = json.loads(done.stdout.decode("utf-8").strip().splitlines()[-1])
    except (ValueError, IndexError):
        return None, "score_scene.py printed no JSON"
    with open(out, "w", encoding="utf-8") as file:
        json.dump(figures, file, indent=1)
    return figures, None


def dev_scenes(shared: str, only: list | None) -> list:
    """[(name, video, truth, kinds)] of ../shared/dev-scenes, by name."""
    folder = os.path.join(shared, "dev-scenes")
    scenes = []
    for name in sorted(os.listdir(folder)):
        video, truth = os.path.join(folder, name, "video.mp4"), os.path.join(folder, name, "truth.json")
        if not (os.path.isfile(video) and os.path.isfile(truth)) or (only and name not in only):
            continue
        with open(truth, encoding="utf-8") as file:
            data = json.load(file)
        kinds = [kind for kind in ("barcode", "text") if any(item.get("kind") == kind for item in data["items"])]
        scenes.append((name, video, truth, kinds, data.get("frames")))
    return scenes


def run_scene(livescan: str, scorer: str, out: str, scene: tuple, qualities: list) -> dict:
    name, video, truth, kinds, truth_frames = scene
    os.makedirs(os.path.join(out, name), exist_ok=True)
    runs = {}
    for quality in qualities:
        prefix = os.path.join(out, name, quality)
        run = scan(livescan, video, quality, prefix)
        run["scores"] = {}
        if run["error"] is None:
            if truth_frames is not None and run["frames"] != truth_frames:
                run["warnings"].append(f"{run['frames']} frames scanned, truth has {truth_frames}")
            errors = []
            for kind in kinds:
                figures, error = score_scene(scorer, truth, run["events"], kind, f"{prefix}.{kind}.score.json")
                run["scores"][kind] = figures
                if error:
                    errors.append(f"{kind}: {error}")
            run["error"] = "; ".join(errors) or None
        log(f"{name} {quality}: " + (f"{run['frames']} frames in {run['seconds']:.1f} s ({run['fps']:.1f} fps)"
                                     if run["frames"] else "") + (f" FAILED: {run['error']}" if run["error"] else ""))
        runs[quality] = run
    return {"name": name, "kinds": kinds, "runs": runs}


def run_video(livescan: str, out: str, name: str, video: str, labels: str) -> dict:
    os.makedirs(os.path.join(out, "boofcv"), exist_ok=True)
    run = scan(livescan, video, report.DEFAULT_QUALITY, os.path.join(out, "boofcv", name))
    result = {"name": name, "fps": run["fps"], "error": run["error"], "figures": None}
    if run["error"] is None:
        try:
            result["figures"] = silver.score(silver.read_silver(labels), st.read_event_log(run["events"]))
        except (silver.SilverError, st.ScoreError) as error:
            result["error"] = str(error)
    log(f"boofcv {name}: " + (f"{run['frames']} frames in {run['seconds']:.1f} s ({run['fps']:.1f} fps)"
                              if run["frames"] else "") + (f" FAILED: {result['error']}" if result["error"] else ""))
    return result


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description="Scan and score the dev scenes and the BoofCV videos.")
    parser.add_argument("--bin", required=True, help="the folder holding livescan")
    parser.add_argument("--shared", required=True, help="the shared folder (dev-scenes, tools, corpus)")
    parser.add_argument("--out", required=True, help="where event logs, scores and the summary go")
    parser.add_argument("--scenes", help="comma-separated dev scenes (default: all)")
    parser.add_argument("--qualities", default=",".join(report.QUALITIES),
                        help="comma-separated quality levels (default: fast,balanced,accurate)")
    parser.add_argument("--no-boofcv", action="store_true", help="skip the BoofCV videos")
    parser.add_argument("--no-scene-text-video", action="store_true",
                        help="skip ICDAR 2015's photos as a drifting video against the same photos as stills, "
                             "and as shaken clips")
    args = parser.parse_args(argv)
    # As Ctrl-C does: unwind, so that scan() kills the livescan it is waiting for.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(128 + signal.SIGTERM))
    qualities = [quality for quality in args.qualities.split(",") if quality]
    unknown = [quality for quality in qualities if quality not in report.QUALITIES]
    if unknown:
        parser.error(f"unknown quality {unknown[0]!r} (known: {', '.join(report.QUALITIES)})")
    livescan = os.path.join(args.bin, "livescan")
    scorer = os.path.join(args.shared, "tools", "score_scene.py")
    os.makedirs(args.out, exist_ok=True)
    started = time.monotonic()

    scenes = [run_scene(livescan, scorer, args.out, scene, qualities)
              for scene in dev_scenes(args.shared, args.scenes.split(",") if args.scenes else None)]
    videos, missing_videos = [], []
    if not args.no_boofcv:
        for name in BOOFCV_VIDEOS:
            folder = os.path.join(args.shared, BOOFCV_FOLDER, name)
            video, labels = os.path.join(folder, "movie.mp4"), os.path.join(folder, "movie.silver.json")
            if os.path.isfile(video) and os.path.isfile(labels):
                videos.append(run_video(livescan, args.out, name, video, labels))
            else:
                missing_videos.append(name)
    scene_text = None if args.no_scene_text_video \
        else scene_text_video.run(livescan, args.shared, args.out, report.DEFAULT_QUALITY)
    shaken = None if args.no_scene_text_video \
        else shaken_signs.run(livescan, args.shared, args.out, report.DEFAULT_QUALITY)
    seconds = time.monotonic() - started

    scene_table, verdicts = report.render_scenes(scenes)
    lines = [f"== dev scenes ({args.shared}/dev-scenes): score_scene.py, IoU >= 0.3; PASS/FAIL on the "
             f"{report.DEFAULT_QUALITY} rows; 'vs {report.REFERENCE_QUALITY}': {report.DEFAULT_QUALITY} IDF1 minus "
             f"{report.REFERENCE_QUALITY}'s, within {report.REFERENCE_IDF1_MARGIN}; content: exact payload share "
             f"(barcodes) or 1-CER (text); add lat: median frames after first full visibility; fps: frames / scan "
             f"wall seconds", scene_table, ""]
    if videos or missing_videos:
        lines.append(f"== BoofCV hand-held videos ({report.DEFAULT_QUALITY}) against silver labels (zxing-cpp 3.1.1; "
                     f"not ground truth, so relative figures and informational marks): payload recall over payloads "
                     f"of >= {silver.MIN_SILVER_FRAMES} silver frames; frame recall: silver decodes matched by an "
                     f"alive item (same payload, IoU >= {silver.FRAME_MATCH_IOU}); lag: first add minus first silver "
                     f"frame")
        if videos:
            lines.append(report.render_videos(videos))
        if missing_videos:
            lines.append(f"   not found, skipped: {', '.join(missing_videos)}")
        lines.append("")
    if scene_text is not None:
        lines += [f"== ICDAR 2015's {scene_text['photos']} dev photos as a drifting 720p video and as stills "
                  f"({report.DEFAULT_QUALITY}, text; scene_text_video.py): word recall and precision by "
                  f"score_realdata.py's rules; add latency: frames from a photo's first frame to each found word's",
                  scene_text_video.render(scene_text), ""]
        verdicts += scene_text_video.verdicts(scene_text["video"], scene_text["stills"], scene_text.get("focus"))
    if shaken is not None:
        lines += [f"== A sign through a camera shake ({report.DEFAULT_QUALITY}, text; shaken_signs.py): ICDAR's dev "
                  f"photos as {shaken_signs.SIZE[0]}x{shaken_signs.SIZE[1]} hand-held clips of "
                  f"{shaken_signs.FRAMES} frames, blurred past reading in frames "
                  f"{', '.join(f'{a}-{b}' for a, b in shaken_signs.BLURS)}",
                  shaken_signs.render(shaken), ""]
        verdicts += shaken_signs.verdicts(shaken)
    lines += [report.render_verdict(verdicts), f"bench-dev: {seconds:.0f} s in all"]
    summary = "\n".join(lines)
    print()
    print(summary)
    with open(os.path.join(args.out, "summary.txt"), "w", encoding="utf-8") as file:
        file.write(summary + "\n")
    with open(os.path.join(args.out, "dev.json"), "w", encoding="utf-8") as file:
        json.dump({"seconds": seconds, "scenes": scenes, "boofcv": videos, "scene_text_video": scene_text,
                   "shaken_signs": shaken,
                   "verdicts": [{"target": label, "pass": ok, "got": shown} for label, ok, shown in verdicts]},
                  file, indent=1)
    log(f"event logs, scores, summary.txt and dev.json are in {args.out}")
    failed = any(run["error"] for scene in scenes for run in scene["runs"].values())
    failed = failed or bool(scene_text and scene_text["error"]) or bool(shaken and shaken.get("error"))
    return 1 if failed or any(video["error"] for video in videos) else 0


if __name__ == "__main__":
    sys.exit(main())
