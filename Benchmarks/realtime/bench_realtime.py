#!/usr/bin/env python3
"""Real-time benchmark (`make bench`): LiveScan against decode-only, zbarimg, ZXingReader and per-frame
tesseract on generated 720p and 1080p videos, a live 720p30 stream, and a soak run for memory.

    bench_realtime.py --bin .build/release --out .build/bench/realtime [--quick] [--live-seconds S]
                      [--view-seconds S] [--soak-seconds S] [--tesseract-every N]

Every figure comes from this one run: each tool is a child process of this script, timed from start to exit and its
peak RSS read from its own rusage (os.wait4); LiveScan text+barcodes and per-frame tesseract, whose ratio is a
target, alternate TEXT_ROUNDS times and their medians are compared. Videos: the tracking-mixed scene
(livescan-scenes, 1280x720 30 fps, codes and text entering, leaving, occluded) as rendered, and upscaled to
1920x1080 with ffmpeg; the live stream is tracking-barcodes + tracking-text + tracking-mixed re-encoded as a live
encoder would (no B-frames, a keyframe a second) and looped by ffmpeg at real speed over TCP on 127.0.0.1. The
figures and targets are computed by score_realtime.py; results go to OUT/realtime.json and OUT/summary.txt. Unmet
targets are reported, not fatal. Standard library only.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import score_realtime as sr  # noqa: E402
import view_cost  # noqa: E402
from score_realtime import st  # noqa: E402

OFFLINE_SCENE = "tracking-mixed"
# The speed figure's video: one minute at 30 fps.
SPEED_FRAMES = 1800
# Alternating runs of LiveScan text+barcodes and per-frame tesseract whose medians give their ratio.
TEXT_ROUNDS = 3
LIVE_SCENES = ("tracking-barcodes", "tracking-text", "tracking-mixed")
UPSCALED = (1920, 1080)


class BenchError(Exception):
    """Something the benchmark cannot go on without (a tool missing, a video that cannot be made)."""


def log(message: str):
    print(f"bench: {message}", flush=True)


# ---------------------------------------------------------------------------------------------------------------------
# Child processes: every one is registered so that an error, Ctrl-C or SIGTERM leaves none behind.


class Children:
    def __init__(self):
        self.running = []

    def start(self, command, **kwargs) -> subprocess.Popen:
        kwargs.setdefault("stdin", subprocess.DEVNULL)
        process = subprocess.Popen(command, **kwargs)
        self.running.append(process)
        return process

    def reap(self, process: subprocess.Popen, timeout: float | None = None):
        """Waits for `process` (at most `timeout` s); its rusage, or None when it is still running.

        Only this method waits for the children (never Popen.poll/wait/send_signal, which would reap them first and
        lose the rusage), so a child's pid stays its own, if a zombie, until it is reaped here."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            try:
                pid, status, usage = os.wait4(process.pid, 0 if deadline is None else os.WNOHANG)
            except ChildProcessError:  # reaped elsewhere after all: gone, figures lost
                process.returncode = -1 if process.returncode is None else process.returncode
                self.running.remove(process)
                return None
            if pid == process.pid:
                process.returncode = os.waitstatus_to_exitcode(status)
                self.running.remove(process)
                return usage
            if time.monotonic() >= deadline:
                return None
            time.sleep(0.02)

    def alive(self, process: subprocess.Popen) -> bool:
        return process in self.running and self.reap(process, timeout=0) is None and process in self.running

    def stop(self, process: subprocess.Popen, first=signal.SIGTERM, grace: float = 5):
        """Sends `first`, then SIGKILL after `grace` s; the rusage."""
        if process not in self.running:
            return None
        signal_child(process, first)
        usage = self.reap(process, grace)
        if usage is None and process in self.running:
            signal_child(process, signal.SIGKILL)
            usage = self.reap(process)
        return usage

    def stop_all(self):
        for process in list(self.running):
            self.stop(process, grace=2)


def signal_child(process: subprocess.Popen, signum: int):
    try:
        os.kill(process.pid, signum)
    except ProcessLookupError:
        pass


CHILDREN = Children()


def measured(command, stdout_path: str, stderr_path: str, env=None) -> dict:
    """Runs `command` to completion: wall seconds, peak RSS (MB) and exit status."""
    with open(stdout_path, "wb") as stdout, open(stderr_path, "wb") as stderr:
        start = time.monotonic()
        process = CHILDREN.start(command, stdout=stdout, stderr=stderr, env=env)
        usage = CHILDREN.reap(process)
        seconds = time.monotonic() - start
    return {"seconds": seconds, "peak_rss_mb": usage.ru_maxrss / 1024, "exit": process.returncode}


def tail(path: str, lines: int = 5) -> str:
    try:
        with open(path, "rb") as file:
            return " | ".join(file.read().decode("utf-8", "replace").strip().splitlines()[-lines:])
    except OSError:
        return ""


def quiet(command, what: str):
    """Runs a preparation step (not measured); BenchError with its last stderr lines when it fails."""
    result = subprocess.run(command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    if result.returncode != 0:
        message = " | ".join(result.stderr.decode("utf-8", "replace").strip().splitlines()[-3:])
        raise BenchError(f"{what} failed (exit {result.returncode}): {message}")


# ---------------------------------------------------------------------------------------------------------------------
# Videos and ground truth


def newer(path: str, *sources: str) -> bool:
    return os.path.exists(path) and all(os.path.getmtime(path) > os.path.getmtime(source) for source in sources)


def write_json(path: str, data):
    with open(path, "w", encoding="utf-8") as file:
        json.dump(data, file)


def read_json(path: str):
    with open(path, encoding="utf-8") as file:
        return json.load(file)


class Videos:
    def __init__(self, args):
        self.args = args
        self.scenes_tool = os.path.join(args.bin, "livescan-scenes")
        self.dir = os.path.join(args.out, "videos")
        os.makedirs(self.dir, exist_ok=True)

    def render(self, scene: str, frames: int | None) -> tuple:
        name = scene if frames is None else f"{scene}-{frames}f"
        video, truth = os.path.join(self.dir, f"{name}.mp4"), os.path.join(self.dir, f"{name}.truth.json")
        if newer(video, self.scenes_tool) and newer(truth, self.scenes_tool):
            return video, truth
        log(f"rendering {name}")
        command = [self.scenes_tool, "video", scene, video, "--truth", truth]
        if frames is not None:
            command += ["--frames", str(frames)]
        quiet(command, f"livescan-scenes video {scene}")
        return video, truth

    def upscaled(self, video: str, truth: str) -> tuple:
        width, height = UPSCALED
        base = video.removesuffix(".mp4") + f"-{height}p"
        out_video, out_truth = base + ".mp4", base + ".truth.json"
        if newer(out_video, video) and newer(out_truth, truth):
            return out_video, out_truth
        log(f"upscaling {os.path.basename(video)} to {width}x{height}")
        quiet([self.args.ffmpeg, "-nostdin", "-v", "error", "-y", "-i", video, "-vf", f"scale={width}:{height}",
               "-c:v", "libx264", "-preset", "veryfast", "-crf", "18", "-pix_fmt", "yuv420p", out_video],
              "ffmpeg upscale")
        data = read_json(truth)
        factor_x, factor_y = width / data["width"], height / data["height"]
        data["width"], data["height"] = width, height
        for frame in data["frames"]:
            for placement in frame:
                placement["bounds"] = [[round(x * factor_x, 3), round(y * factor_y, 3)] for x, y in placement["bounds"]]
        write_json(out_truth, data)
        return out_video, out_truth

    def live(self) -> tuple:
        """The live stream's video: the tracking scenes one after the other, encoded as a live encoder would."""
        parts = [self.render(scene, None) for scene in LIVE_SCENES]
        video, truth = os.path.join(self.dir, "live.mp4"), os.path.join(self.dir, "live.truth.json")
        sources = [path for pair in parts for path in pair]
        if newer(video, *sources) and newer(truth, *sources):
            return video, truth
        log("encoding the live stream's video")
        listing = os.path.join(self.dir, "live.concat.txt")
        with open(listing, "w", encoding="utf-8") as file:
            for part, _ in parts:
                file.write(f"file '{os.path.abspath(part)}'\n")
        # No B-frames and a keyframe every second, as a camera or live encoder sends: frame k is complete when its
        # packet arrives, so the latency measured is LiveScan's, not the reordering of a file encoder's GOP.
        quiet([self.args.ffmpeg, "-nostdin", "-v", "error", "-y", "-f", "concat", "-safe", "0", "-i", listing, "-an",
               "-c:v", "libx264", "-preset", "veryfast", "-tune", "zerolatency", "-crf", "18", "-g", "30", "-bf", "0",
               "-pix_fmt", "yuv420p", video], "ffmpeg concat")
        merged = None
        for scene, (_, part_truth) in zip(LIVE_SCENES, parts):
            data = read_json(part_truth)
            for item in data["items"]:
                item["id"] = f"{scene}/{item['id']}"
            for frame in data["frames"]:
                for placement in frame:
                    placement["item"] = f"{scene}/{placement['item']}"
            if merged is None:
                merged = data
            else:
                merged["items"] += data["items"]
                merged["frames"] += data["frames"]
        merged["frame_count"] = len(merged["frames"])
        write_json(truth, merged)
        return video, truth


# ---------------------------------------------------------------------------------------------------------------------
# Offline runs over one video


class Offline:
    def __init__(self, args, env: dict):
        self.args = args
        self.env = env
        self.livescan = os.path.join(args.bin, "livescan")
        # Every symbology read by default: the barcodes a scan without --types reads.
        self.barcode_types = "barcodes"

    def run_video(self, name: str, video: str, truth_path: str) -> dict:
        args = self.args
        truth = st.read_truth(truth_path)
        expected = sr.truth_payloads(truth)
        work = os.path.join(args.out, name)
        os.makedirs(work, exist_ok=True)
        runs, cer = {}, {}
        frame_count = len(truth.frames)

        def path(stem: str) -> str:
            return os.path.join(work, stem)

        log(f"{name}: decode-only")
        run = measured([args.ffmpeg, "-nostdin", "-v", "error", "-i", video, "-map", "0:v:0", "-f", "null", "-"],
                       os.devnull, path("decode.err"), self.env)
        runs["decode"] = finish(run, frame_count if run["exit"] == 0 else None, path("decode.err"))

        for tool, types in (("livescan-barcodes", self.barcode_types), ("livescan-text", None)):
            log(f"{name}: {tool}")
            events = path(f"{tool}.events.jsonl")
            command = [self.livescan, "scan", video, "--events", events] + (["--types", types] if types else [])
            run = measured(command, path(f"{tool}.out"), path(f"{tool}.err"), self.env)
            event_log = st.read_event_log(events)
            ok = run["exit"] in (0, 4) and event_log.end_reason == "eof"
            run = finish(run, event_log.last_frame + 1 if ok else None, path(f"{tool}.err"))
            if ok and event_log.last_frame + 1 != frame_count:
                run["note"] = f"scanned {event_log.last_frame + 1} of {frame_count} frames"
            run["payloads"] = sr.payload_yield(expected, {change.payload for change in event_log.changes
                                                          if change.kind == "barcode"})
            runs[tool] = run
            if tool == "livescan-text":
                predictions = st.reconstruct(event_log)
                sampled = sr.sampled_frames(frame_count, args.tesseract_every)
                cer[tool] = sr.cer_figures(truth, {frame: sr.livescan_transcripts(predictions, frame)
                                                   for frame in sampled})

        frames_dir = path("frames")
        log(f"{name}: extracting {frame_count} frames as PGM for the peers (not timed)")
        shutil.rmtree(frames_dir, ignore_errors=True)
        os.makedirs(frames_dir)
        try:
            quiet([args.ffmpeg, "-nostdin", "-v", "error", "-i", video, "-map", "0:v:0", "-fps_mode", "passthrough",
                   "-pix_fmt", "gray", os.path.join(frames_dir, "%05d.pgm")], "ffmpeg frame extraction")
            frames = sorted(os.listdir(frames_dir))
            if len(frames) != frame_count:
                raise BenchError(f"{video}: extracted {len(frames)} frames, the ground truth has {frame_count}")
            frames = [os.path.join(frames_dir, frame) for frame in frames]

            log(f"{name}: zbarimg over {len(frames)} frames")
            run = measured([args.zbarimg, "-q", "--raw", *frames], path("zbarimg.out"), path("zbarimg.err"), self.env)
            # zbarimg exits 4 when any image had nothing in it.
            run = finish(run, frame_count if run["exit"] in (0, 4) else None, path("zbarimg.err"))
            with open(path("zbarimg.out"), "rb") as file:
                run["payloads"] = sr.payload_yield(expected, {line for line in file.read().split(b"\n") if line})
            runs["zbarimg"] = run

            log(f"{name}: ZXingReader over {len(frames)} frames")
            run = measured([args.zxingreader, "-1", "-noscale", *frames], path("zxingreader.out"),
                           path("zxingreader.err"), self.env)
            run = finish(run, frame_count if run["exit"] == 0 else None, path("zxingreader.err"))
            with open(path("zxingreader.out"), "rb") as file:
                run["payloads"] = sr.payload_yield(expected, zxing_payloads(file.read()))
            runs["zxingreader"] = run

            sampled = sr.sampled_frames(frame_count, args.tesseract_every)
            log(f"{name}: tesseract over {len(sampled)} frames (every {args.tesseract_every}th)")
            listing = path("tesseract.list")
            with open(listing, "w", encoding="utf-8") as file:
                file.writelines(frames[frame] + "\n" for frame in sampled)
            run = measured([args.tesseract, listing, "stdout", "--psm", "3"], path("tesseract.out"),
                           path("tesseract.err"), self.env)
            run = finish(run, len(sampled) if run["exit"] == 0 else None, path("tesseract.err"))
            run["note"] = f"every {args.tesseract_every}th frame"
            runs["tesseract"] = run
            if run["exit"] == 0:
                with open(path("tesseract.out"), encoding="utf-8", errors="replace") as file:
                    try:
                        pages = sr.tesseract_pages(file.read(), len(sampled))
                        cer["tesseract"] = sr.cer_figures(truth, dict(zip(sampled, pages)))
                    except ValueError as error:
                        run["note"] += f"; no CER: {error}"
            self.time_text_against_tesseract(name, runs, [self.livescan, "scan", video, "--events",
                                                           path("livescan-text.rerun.jsonl")],
                                             [args.tesseract, listing, "stdout", "--psm", "3"], work)
        finally:
            shutil.rmtree(frames_dir, ignore_errors=True)
        video_result = {"video": video, "truth": truth_path, "frames": frame_count,
                        "size": f"{truth.width}x{truth.height}", "runs": runs, "cer": cer}
        video_result["ratios"] = sr.video_ratios(video_result)
        return video_result

    def time_text_against_tesseract(self, name: str, runs: dict, livescan: list, tesseract: list, work: str):
        """Runs LiveScan text+barcodes and per-frame tesseract `TEXT_ROUNDS - 1` times more, alternating, and gives
        each its median wall time: the two share the machine's moments, and one run's time swings widely on a shared
        2-core machine (the 720p scan 2.6-4.6 s, the slowest a first run). The first runs' outputs are the ones
        scored."""
        text, tesseract_run = runs.get("livescan-text"), runs.get("tesseract")
        if not text or not tesseract_run or text.get("fps") is None or tesseract_run.get("fps") is None:
            return
        seconds = {"livescan-text": [text["seconds"]], "tesseract": [tesseract_run["seconds"]]}
        for round_ in range(1, TEXT_ROUNDS):
            log(f"{name}: text+barcodes and tesseract, timing round {round_ + 1} of {TEXT_ROUNDS}")
            for tool, command in (("livescan-text", livescan), ("tesseract", tesseract)):
                run = measured(command, os.devnull, os.path.join(work, f"{tool}.rerun.err"), self.env)
                if run["exit"] not in (0, 4):
                    raise BenchError(f"{name}: {tool} failed when timed again: "
                                     f"{tail(os.path.join(work, f'{tool}.rerun.err'))}")
                seconds[tool].append(run["seconds"])
        for tool, values in seconds.items():
            run = runs[tool]
            run["round_seconds"] = values
            run["seconds"] = statistics.median(values)
            run["fps"] = run["frames"] / run["seconds"]
            note = f"median of {len(values)} alternating runs"
            run["note"] = f"{run['note']}; {note}" if run.get("note") else note


def speed_run(args, env: dict, livescan: str, types: str, video: str, frames: int, rounds: int = 3) -> dict:
    """The speed figure: LiveScan barcodes-only against `ffmpeg -threads 1 -f null` (one core decoding) on a
    1-minute 720p video, so that start-up weighs little. The two alternate `rounds` times and the medians are
    compared: on a shared 2-core machine one run's wall time swings by 15 %."""
    work = os.path.join(args.out, "speed")
    os.makedirs(work, exist_ok=True)
    decode, barcodes, peaks = [], [], []
    for round_ in range(rounds):
        log(f"speed: round {round_ + 1} of {rounds} over {frames} frames")
        run = measured([args.ffmpeg, "-nostdin", "-v", "error", "-threads", "1", "-i", video, "-map", "0:v:0", "-f",
                        "null", "-"], os.devnull, os.path.join(work, "decode.err"), env)
        if run["exit"] != 0:
            raise BenchError(f"ffmpeg -threads 1 failed on {video}: {tail(os.path.join(work, 'decode.err'))}")
        decode.append(run["seconds"])
        events = os.path.join(work, "barcodes.events.jsonl")
        run = measured([livescan, "scan", video, "--types", types, "--events", events],
                       os.path.join(work, "barcodes.out"), os.path.join(work, "barcodes.err"), env)
        if run["exit"] not in (0, 4):
            raise BenchError(f"livescan failed on {video}: {tail(os.path.join(work, 'barcodes.err'))}")
        barcodes.append(run["seconds"])
        peaks.append(run["peak_rss_mb"])
    decode_median, barcodes_median = statistics.median(decode), statistics.median(barcodes)
    return {"video": video, "frames": frames, "rounds": rounds, "decode_seconds": decode,
            "barcodes_seconds": barcodes, "barcodes_peak_rss_mb": max(peaks), "decode_fps": frames / decode_median,
            "barcodes_fps": frames / barcodes_median, "ratio": decode_median / barcodes_median}


def finish(run: dict, frames: int | None, stderr_path: str) -> dict:
    """Adds frames and fps; a failed run gets no fps and a note with its last stderr lines."""
    run["frames"] = frames
    run["fps"] = frames / run["seconds"] if frames and run["seconds"] > 0 else None
    if frames is None:
        run["note"] = f"failed (exit {run['exit']}): {tail(stderr_path, 2)}"[:160]
        log(f"warning: {run['note']}")
    return run


ZXING_LINE = re.compile(rb'^\S+ \S+ "(.*)"$')


def zxing_payloads(output: bytes) -> set:
    """Payloads from `ZXingReader -1` lines (`FILE FORMAT "TEXT"`; a file with nothing in it prints `FILE None`)."""
    found = set()
    for line in output.split(b"\n"):
        match = ZXING_LINE.match(line)
        if match:
            found.add(match.group(1))
    return found


# ---------------------------------------------------------------------------------------------------------------------
# Live stream


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def listening(port: int) -> bool:
    """Whether something listens on 127.0.0.1:port, read from /proc so no connection is spent on asking."""
    try:
        with open("/proc/net/tcp", encoding="ascii") as file:
            next(file)
            for line in file:
                fields = line.split()
                if fields[1] == f"0100007F:{port:04X}" and fields[3] == "0A":
                    return True
    except OSError:
        pass
    return False


def rss_mb(pid: int) -> float | None:
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as file:
            for line in file:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except (OSError, ValueError):
        pass
    return None


class LiveRecord:
    """What the reader threads collect, each line stamped when it arrived."""

    def __init__(self, events_path: str):
        self.progress = []  # (wall, frames written)
        self.adds = []  # (wall, score_tracking.Change)
        self.first_arrival = {}  # frame -> arrival of its first change line
        self.first_output = None
        self.start = self.end = None
        self.bad_lines = 0
        self.events_path = events_path

    def read_progress(self, pipe):
        # A report is a block of key=value lines, `frame=` first, ending with `progress=`; stamped at its first line.
        stamp = count = None
        for raw in pipe:
            now = time.monotonic()
            key, _, value = raw.decode("ascii", "replace").strip().partition("=")
            if key == "frame":
                stamp, count = now, int(value) if value.isdigit() else None
            elif key == "progress" and stamp is not None and count is not None:
                self.progress.append((stamp, count))

    def read_events(self, pipe):
        with open(self.events_path, "wb") as sink:
            for raw in pipe:
                now = time.monotonic()
                sink.write(raw)
                try:
                    line = json.loads(raw)
                    event = line.get("event")
                    if event in ("add", "update", "remove"):
                        change = st.parse_change(line)
                        self.first_arrival.setdefault(change.frame, now)
                        if self.first_output is None:
                            self.first_output = now
                        if event == "add":
                            self.adds.append((now, change))
                    elif event == "start":
                        self.start = line
                    elif event == "end":
                        self.end = line
                except (ValueError, AttributeError):
                    self.bad_lines += 1


def live_run(args, env: dict, video: str, truth: st.GroundTruth, seconds: float, rss_period: float, tag: str) -> dict:
    """Serves `video` looped at real speed on 127.0.0.1 and scans it with livescan for `seconds`."""
    port = free_port()
    record = LiveRecord(os.path.join(args.out, f"{tag}.events.jsonl"))
    server_err = os.path.join(args.out, f"{tag}.server.err")
    scanner_err = os.path.join(args.out, f"{tag}.livescan.err")
    with open(server_err, "wb") as server_stderr:
        server = CHILDREN.start(
            [args.ffmpeg, "-hide_banner", "-nostdin", "-nostats", "-v", "error", "-re", "-stream_loop", "-1",
             "-i", video, "-map", "0:v:0", "-c", "copy", "-f", "mpegts", "-flush_packets", "1",
             "-progress", "pipe:1", "-stats_period", "0.1", f"tcp://127.0.0.1:{port}?listen=1"],
            stdout=subprocess.PIPE, stderr=server_stderr)
    progress_thread = threading.Thread(target=record.read_progress, args=(server.stdout,), daemon=True)
    progress_thread.start()
    deadline = time.monotonic() + 10
    while not listening(port):
        if not CHILDREN.alive(server) or time.monotonic() > deadline:
            raise BenchError(f"the ffmpeg stream server did not start listening on port {port}: {tail(server_err)}")
        time.sleep(0.02)

    # update_distance=0: every processed frame in which anything moved writes a line, so frames can be counted.
    with open(scanner_err, "wb") as scanner_stderr:
        launched = time.monotonic()
        scanner = CHILDREN.start([os.path.join(args.bin, "livescan"), "scan", f"tcp://127.0.0.1:{port}",
                                  "--events", "-", "--tracker", "update_distance=0", "--timeout", "10"],
                                 stdout=subprocess.PIPE, stderr=scanner_stderr, env=env)
    events_thread = threading.Thread(target=record.read_events, args=(scanner.stdout,), daemon=True)
    events_thread.start()

    samples = []
    usage = None
    while True:
        elapsed = time.monotonic() - launched
        if elapsed >= seconds:
            break
        time.sleep(min(rss_period - elapsed % rss_period, seconds - elapsed))
        usage = CHILDREN.reap(scanner, timeout=0)
        if usage is not None:
            break
        mb = rss_mb(scanner.pid)
        if mb is not None:
            samples.append((time.monotonic() - launched, mb))
    stopped_at = time.monotonic()
    ended_early = usage is not None
    if usage is None:
        usage = CHILDREN.stop(scanner, first=signal.SIGINT, grace=15)
    CHILDREN.stop(server, first=signal.SIGTERM, grace=5)
    events_thread.join(5)
    progress_thread.join(5)
    if ended_early:
        raise BenchError(f"livescan stopped after {stopped_at - launched:.1f} s (exit {scanner.returncode}) "
                         f"instead of running {seconds:.0f} s: {tail(scanner_err)}")
    if not record.progress or record.first_output is None:
        raise BenchError(f"no frames were streamed or nothing was reported (livescan: {tail(scanner_err)}; "
                         f"ffmpeg: {tail(server_err)})")

    fps = truth.fps
    sent = sr.sent_time_function(record.progress, fps)
    frames_sent = max((count for wall, count in record.progress if wall <= stopped_at), default=0)
    decoded = record.end["frame"] + 1 if record.end else max(record.first_arrival) + 1
    # The frame being sent when LiveScan's first output arrived: appearances before it are start-up.
    steady_from = max((count for wall, count in record.progress if wall <= record.first_output), default=0)
    grace = ((record.start or {}).get("config") or {}).get("tracker", {}).get("grace_period", 0.5)
    latency = sr.latency_figures(truth, record.adds, sent, round(grace * fps), decoded, steady_from)
    processed = sr.processed_figures(set(record.first_arrival), decoded, steady_from, fps, record.end)
    run = {"seconds": stopped_at - launched, "peak_rss_mb": usage.ru_maxrss / 1024, "exit": scanner.returncode,
           "end_reason": (record.end or {}).get("reason", "missing"), "bad_lines": record.bad_lines}
    return {"source": f"tcp://127.0.0.1 (ffmpeg -re -stream_loop -1, {os.path.basename(video)}, "
                      f"{len(truth.frames)} frames)",
            "seconds": seconds, "frames_sent": frames_sent, "processed": processed, "latency": latency,
            "lag": sr.lag_figures(record.first_arrival, sent, steady_from),
            "first_output_seconds": record.first_output - sent(0), "steady_from": steady_from, "run": run,
            "rss_samples": samples, "events": record.events_path}


# ---------------------------------------------------------------------------------------------------------------------


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description="LiveScan's real-time benchmark (make bench).")
    parser.add_argument("--bin", required=True, help="directory holding livescan and livescan-scenes")
    parser.add_argument("--out", required=True, help="output directory")
    parser.add_argument("--quick", action="store_true", help="a short development run: 90 frames, 20 s live, 60 s soak")
    parser.add_argument("--live-seconds", type=float, help="length of the live run (default 60, quick 20)")
    parser.add_argument("--view-seconds", type=float,
                        help="each run of the live views' cost, 0 to skip (default 30, quick 15)")
    parser.add_argument("--soak-seconds", type=float, help="length of the soak run, 0 to skip (default 600, quick 60)")
    parser.add_argument("--tesseract-every", type=int, default=10, help="tesseract and CER on every N-th frame")
    args = parser.parse_args(argv)
    args.live_seconds = args.live_seconds if args.live_seconds is not None else (20 if args.quick else 60)
    args.soak_seconds = args.soak_seconds if args.soak_seconds is not None else (60 if args.quick else 600)
    args.view_seconds = args.view_seconds if args.view_seconds is not None else (15 if args.quick else 30)
    if args.live_seconds < 5 or args.soak_seconds < 0 or args.view_seconds < 0 or args.tesseract_every < 1:
        parser.error("--live-seconds must be >= 5, --soak-seconds and --view-seconds >= 0, --tesseract-every >= 1")

    tools = {"ffmpeg": "ffmpeg", "zbarimg": "zbarimg", "zxingreader": "ZXingReader", "tesseract": "tesseract"}
    for attribute, name in tools.items():
        found = shutil.which(name)
        if not found:
            print(f"bench: error: {name} not found", file=sys.stderr)
            return 1
        setattr(args, attribute, found)
    for name in ("livescan", "livescan-scenes"):
        if not os.access(os.path.join(args.bin, name), os.X_OK):
            print(f"bench: error: {args.bin}/{name} not found: build it first (make build)", file=sys.stderr)
            return 1
    os.makedirs(args.out, exist_ok=True)
    # Debian's Tesseract uses OpenMP, which reads this once at load: livescan and the tesseract CLI alike.
    env = dict(os.environ, OMP_THREAD_LIMIT="1")

    def terminate(signum, frame):
        raise SystemExit(128 + signum)

    signal.signal(signal.SIGTERM, terminate)
    # Started as a background job of a script, SIGINT comes ignored: Ctrl-C must still stop the run and its children.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    started = time.monotonic()
    try:
        videos = Videos(args)
        offline_frames = 90 if args.quick else None
        video_720, truth_720 = videos.render(OFFLINE_SCENE, offline_frames)
        video_1080, truth_1080 = videos.upscaled(video_720, truth_720)
        live_video, live_truth_path = videos.live()

        offline = Offline(args, env)
        results = {"quick": args.quick, "videos": {}}
        for name, video, truth in (("720p", video_720, truth_720), ("1080p", video_1080, truth_1080)):
            results["videos"][name] = offline.run_video(name, video, truth)
        speed_frames = 90 if args.quick else SPEED_FRAMES
        speed_video, _ = videos.render(OFFLINE_SCENE, speed_frames)
        results["speed"] = speed_run(args, env, offline.livescan, offline.barcode_types, speed_video, speed_frames)
        results["notes"] = [
            f"videos: {OFFLINE_SCENE} ({results['videos']['720p']['frames']} frames, codes and text entering, "
            f"leaving, occluded) rendered at 1280x720 and upscaled to 1920x1080 (H.264); LiveScan at its default "
            f"(balanced) quality; seconds are each process's wall time, start-up included; LiveScan text+barcodes and "
            f"tesseract: the median of {TEXT_ROUNDS} alternating runs (outputs and CERs of the first)",
            "zbarimg and ZXingReader read the same frames as 8-bit grey PGM files extracted beforehand (untimed), "
            "one process over all of them: their time includes reading image files, LiveScan's includes demuxing "
            "and decoding H.264; decode-only is `ffmpeg -f null` on the same file",
            "ZXingReader runs with -noscale, like LiveScan's balanced level: zxing-cpp 1.4's downscaling abort()s "
            "on these multi-code frames",
            f"tesseract: one process over every {args.tesseract_every}th frame from frame "
            f"{args.tesseract_every // 2} (a list file), --psm 3, OMP_THREAD_LIMIT=1, fps over those frames; both "
            f"CERs are on those frames against the visible ground-truth lines (definition: score_realtime.py)",
            "live runs use --tracker update_distance=0 so that processed frames can be counted in the event log"]

        live_truth = st.read_truth(live_truth_path)
        log(f"live: streaming {os.path.basename(live_video)} for {args.live_seconds:.0f} s")
        results["live"] = live_run(args, env, live_video, live_truth, args.live_seconds, 5, "live")
        if args.view_seconds > 0:
            log(f"live views' cost: the live stream plainly, with --serve and a viewer, with --preview, "
                f"{args.view_seconds:.0f} s each")
            tools = {"livescan": os.path.join(args.bin, "livescan"), "ffmpeg": args.ffmpeg, "children": CHILDREN,
                     "free_port": free_port, "listening": listening}
            results["view_cost"] = view_cost.view_cost(tools, live_video, args.view_seconds, args.out, env)
        if args.soak_seconds > 0:
            log(f"soak: streaming for {args.soak_seconds:.0f} s, RSS every 10 s")
            soak = live_run(args, env, live_video, live_truth, args.soak_seconds, 10, "soak")
            soak["period"] = 10
            soak["rss"] = sr.rss_trend(soak["rss_samples"], args.soak_seconds)
            results["soak"] = soak
        results["targets"] = sr.evaluate_targets(results)
        results["wall_seconds"] = time.monotonic() - started
    except (BenchError, st.ScoreError, OSError) as error:
        print(f"bench: error: {error}", file=sys.stderr)
        return 1
    finally:
        CHILDREN.stop_all()

    report = sr.render(results)
    print()
    print(f"== real-time benchmark{' (quick)' if args.quick else ''}: {os.cpu_count()} cores, "
          f"{results['wall_seconds']:.0f} s")
    print(report)
    with open(os.path.join(args.out, "summary.txt"), "w", encoding="utf-8") as file:
        file.write(report + "\n")
    with open(os.path.join(args.out, "realtime.json"), "w", encoding="utf-8") as file:
        json.dump(results, file, indent=1, default=str)
        file.write("\n")
    log(f"results in {args.out}/summary.txt and realtime.json; event logs and tool outputs beside them")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        CHILDREN.stop_all()
        print("bench: interrupted", file=sys.stderr)
        sys.exit(130)
