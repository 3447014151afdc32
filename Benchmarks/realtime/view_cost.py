"""What the live views cost a live scan: the same 720p30 stream scanned three times, plainly, with `--serve` and one
viewer attached (a browser's requests: the picture and the items at up to 15 a second, the event stream read), and
with `--preview` (the listing and its picture on a pseudo-terminal of 160x50). Each run's processed fps (the end
line's frames_processed over the frames decoded) and the CPU it took (rusage: user + system over wall time); the
target is a view at most 5 % slower than the plain scan.
"""
import fcntl
import json
import os
import signal
import struct
import subprocess
import termios
import threading
import time
import urllib.request

# The viewer asks for the picture and the items at most this often, as the page does (a 66 ms pause after each).
VIEWER_PERIOD = 1 / 15
PREVIEW_COLUMNS, PREVIEW_ROWS = 160, 50
TARGET_SLOWER = 0.05


class Viewer:
    """One viewer of `--serve`: the page's loop (picture, then items), and the event stream read as it comes."""

    def __init__(self, stderr_path: str):
        self.stderr_path = stderr_path
        self.pictures = set()
        self.failures = 0
        self.lines = 0
        self._stop = threading.Event()
        self._threads = []

    def start(self):
        self._threads = [threading.Thread(target=self._look, daemon=True),
                         threading.Thread(target=self._read_events, daemon=True)]
        for thread in self._threads:
            thread.start()

    def stop(self):
        self._stop.set()
        for thread in self._threads:
            thread.join(5)

    def _url(self) -> str | None:
        """The page's address, once livescan has printed it."""
        while not self._stop.is_set():
            try:
                with open(self.stderr_path, encoding="utf-8", errors="replace") as file:
                    for word in file.read().split():
                        if word.startswith("http://127.0.0.1:"):
                            return word
            except OSError:
                pass
            time.sleep(0.1)
        return None

    def _look(self):
        url = self._url()
        while url and not self._stop.is_set():
            try:
                with urllib.request.urlopen(url + "frame.jpg", timeout=5) as reply:
                    reply.read()
                    self.pictures.add(reply.headers.get("X-Frame"))
                with urllib.request.urlopen(url + "items", timeout=5) as reply:
                    json.loads(reply.read())
            except (OSError, ValueError):
                self.failures += 1  # no picture yet (503), or the scan ended
            time.sleep(VIEWER_PERIOD)

    def _read_events(self):
        url = self._url()
        try:
            with urllib.request.urlopen(url + "events", timeout=30) as stream:
                for line in stream:
                    if self._stop.is_set():
                        break
                    self.lines += line.startswith(b"data: ")
        except (OSError, TypeError):
            pass


def _drain(descriptor: int):
    """Reads what the listing draws on the pseudo-terminal, as a terminal would, until it closes."""
    try:
        while os.read(descriptor, 65536):
            pass
    except OSError:
        pass


def _end_line(events_path: str) -> dict:
    last = {}
    with open(events_path, encoding="utf-8", errors="replace") as file:
        for line in file:
            if '"event":"end"' in line:
                last = json.loads(line)
    return last


def _one_run(tools, video: str, seconds: float, out_dir: str, env: dict, view: str) -> dict:
    children = tools["children"]
    port = tools["free_port"]()
    server = children.start([tools["ffmpeg"], "-hide_banner", "-nostdin", "-nostats", "-v", "error", "-re",
                             "-stream_loop", "-1", "-i", video, "-map", "0:v:0", "-c", "copy", "-f", "mpegts",
                             f"tcp://127.0.0.1:{port}?listen=1"], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 10
    while not tools["listening"](port) and time.monotonic() < deadline:
        time.sleep(0.02)
    events = os.path.join(out_dir, f"view-cost-{view}.events.jsonl")
    stderr_path = os.path.join(out_dir, f"view-cost-{view}.livescan.err")
    command = [tools["livescan"], "scan", f"tcp://127.0.0.1:{port}", "--events", events, "--timeout", "10"]
    viewer, terminal = None, None
    with open(stderr_path, "wb") as stderr:
        if view == "preview":
            terminal, follower = os.openpty()
            fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", PREVIEW_ROWS, PREVIEW_COLUMNS, 0, 0))
            scanner = children.start(command + ["--preview"], stdin=follower, stdout=follower, stderr=stderr,
                                     env=dict(env, TERM="xterm-256color", COLORTERM="truecolor"))
            os.close(follower)
            threading.Thread(target=_drain, args=(terminal,), daemon=True).start()
        else:
            scanner = children.start(command + (["--serve", "0"] if view == "serve" else []),
                                     stdout=subprocess.DEVNULL, stderr=stderr, env=env)
    if view == "serve":
        viewer = Viewer(stderr_path)
        viewer.start()
    launched = time.monotonic()
    time.sleep(seconds)
    usage = children.stop(scanner, first=signal.SIGINT, grace=15)
    wall = time.monotonic() - launched
    children.stop(server, first=signal.SIGTERM, grace=5)
    if viewer:
        viewer.stop()
    if terminal is not None:
        os.close(terminal)
    end = _end_line(events)
    processed, dropped = end.get("frames_processed", 0), end.get("frames_dropped", 0)
    cpu = (usage.ru_utime + usage.ru_stime) if usage else None
    run = {"processed": processed, "dropped": dropped,
           "fps": processed / (processed + dropped) * 30 if processed + dropped else None,
           "cpu_cores": cpu / wall if cpu is not None else None, "wall": wall, "end": end.get("reason", "missing")}
    if viewer:
        run["pictures_per_second"] = len(viewer.pictures - {None, "-1"}) / wall
        run["log_lines_streamed"] = viewer.lines
    return run


def view_cost(tools: dict, video: str, seconds: float, out_dir: str, env: dict) -> dict:
    """The three runs over `video` (a 30 fps stream), `seconds` each. `tools`: livescan and ffmpeg paths, the
    benchmark's `children`, `free_port` and `listening`."""
    runs = {view: _one_run(tools, video, seconds, out_dir, env, view) for view in ("plain", "serve", "preview")}
    plain = runs["plain"]["fps"]
    for view in ("serve", "preview"):
        fps = runs[view]["fps"]
        runs[view]["slower"] = (plain - fps) / plain if plain and fps is not None else None
    return {"seconds": seconds, "cores": os.cpu_count(), "runs": runs, "target_slower": TARGET_SLOWER}


def render(cost: dict) -> list:
    """The report's lines."""
    out = [f"== live views' cost: the live stream for {cost['seconds']:.0f} s each, text and barcodes, "
           f"{cost['cores']} cores"]
    names = {"plain": "plain scan", "serve": "--serve, 1 viewer",
             "preview": f"--preview ({PREVIEW_COLUMNS}x{PREVIEW_ROWS} pty)"}
    for view, run in cost["runs"].items():
        fps = "-" if run["fps"] is None else f"{run['fps']:.1f}"
        cores = "-" if run["cpu_cores"] is None else f"{run['cpu_cores']:.2f}"
        left = "-" if run["cpu_cores"] is None else f"{max(cost['cores'] - run['cpu_cores'], 0) / cost['cores']:.0%}"
        line = (f"   {names[view]:<26} {fps:>5} fps processed ({run['processed']} of "
                f"{run['processed'] + run['dropped']}), {cores} cores busy, {left} of the CPU left")
        if run.get("slower") is not None:
            line += f", {run['slower']:+.1%} slower" if run["slower"] >= 0 else f", {-run['slower']:.1%} faster"
        if "pictures_per_second" in run:
            line += f"; {run['pictures_per_second']:.1f} pictures/s and {run['log_lines_streamed']} log lines to it"
        out.append(line)
    return out


def verdicts(cost: dict) -> list:
    """(name, passed, detail) per view: at most TARGET_SLOWER slower than the plain scan."""
    result = []
    for view in ("serve", "preview"):
        slower = cost["runs"][view].get("slower")
        result.append((f"live 720p30 with --{view} <= {TARGET_SLOWER:.0%} slower",
                       slower is not None and slower <= TARGET_SLOWER,
                       "not measured" if slower is None else f"{slower:+.1%}"))
    return result
