"""The targets of the dev-scene benchmark (`make bench-dev`, run by bench_dev.py) and its one table.

Pure functions over figures already computed, tested with a bare Python 3.11 (test_dev.py). The figures of a dev scene
are ../shared/tools/score_scene.py's, one kind at a time: `idf1`, `id_switches`, `ghost_tracks`, `content` (barcodes:
the share of items whose payload is exact; text: 1 - CER), `add_latency_median` (frames after first full
visibility), `mota`; those of a BoofCV video are silver.py's.
"""
from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tracking"))
from score_tracking import fmt, table  # noqa: E402

QUALITIES = ("fast", "balanced", "accurate")
# The absolute targets hold at the default level; `accurate` (every frame read whole) is what it is compared with.
DEFAULT_QUALITY = "balanced"
REFERENCE_QUALITY = "accurate"
REFERENCE_IDF1_MARGIN = 0.01
# Figures are shown to 3 decimals; a difference that prints as -0.010 is within the margin.
TOLERANCE = 1e-9

# Per kind: (figure, comparison, threshold), in the table's column order.
TARGETS = {
    "barcode": (("idf1", ">=", 0.97), ("id_switches", "<=", 0), ("ghost_tracks", "<=", 0), ("content", ">=", 1.0),
                ("add_latency_median", "<=", 2)),
    "text": (("idf1", ">=", 0.90), ("ghost_tracks", "<=", 0), ("content", ">=", 0.98),
             ("add_latency_median", "<=", 10)),
}
# The table's figure columns: (figure, header, digits).
COLUMNS = (("idf1", "IDF1", 3), ("mota", "MOTA", 3), ("id_switches", "ID sw", 0), ("ghost_tracks", "ghosts", 0),
           ("content", "content", 3), ("add_latency_median", "add lat", 1))
# BoofCV videos: informational marks (silver labels are not ground truth).
SILVER_CHECKS = (("payload_recall", ">=", 1.0), ("false_payload_count", "<=", 0))


def passes(value, comparison: str, threshold: float) -> bool:
    """A missing figure (no item matched, no scan) never passes."""
    if value is None:
        return False
    return value >= threshold - TOLERANCE if comparison == ">=" else value <= threshold + TOLERANCE


def target_label(kind: str, figure: str, comparison: str, threshold: float) -> str:
    header = {key: name for key, name, _ in COLUMNS}.get(figure, figure)
    return f"{kind} {header} {comparison} {fmt(threshold, 1 if float(threshold).is_integer() else 2)}"


def evaluate(kind: str, figures: dict | None) -> list:
    """[(figure, label, value, pass)] for one kind's figures at the default level; None figures (the scan or the
    scorer failed) fail every target."""
    verdicts = []
    for figure, comparison, threshold in TARGETS[kind]:
        value = figures.get(figure) if figures else None
        verdicts.append((figure, target_label(kind, figure, comparison, threshold), value,
                         passes(value, comparison, threshold)))
    return verdicts


def reference_gap(default: dict | None, reference: dict | None):
    """(default IDF1 - reference IDF1, pass): the default level must score within the margin of the reference."""
    if not default or not reference or default.get("idf1") is None or reference.get("idf1") is None:
        return None, False
    gap = default["idf1"] - reference["idf1"]
    return gap, gap >= -REFERENCE_IDF1_MARGIN - TOLERANCE


def cell(value, digits: int) -> str:
    if value is None:
        return "n/a"
    if digits == 0 and isinstance(value, float) and value.is_integer():
        value = int(value)
    return fmt(value, digits) if digits else str(value)


def marked(text: str, ok: bool) -> str:
    return f"{text} {'PASS' if ok else 'FAIL'}"


def scene_rows(scene: dict) -> tuple:
    """(table rows, notes, verdicts [(label, pass, shown)]) of one dev scene.

    `scene`: {"name", "kinds": [kind], "runs": {quality: {"fps", "error", "warnings", "scores": {kind: figures |
    None}}}}; an error (the scan or the scorer failed) shows n/a and fails the targets."""
    rows, notes, verdicts = [], [], []
    runs = scene["runs"]
    for quality in QUALITIES:
        for warning in (runs.get(quality) or {}).get("warnings", []):
            notes.append(f"   {scene['name']} {quality}: {warning}")
    for kind in scene["kinds"]:
        for quality in QUALITIES:
            run = runs.get(quality)
            if run is None:
                continue
            figures = run["scores"].get(kind) if not run.get("error") else None
            judged = {figure: ok for figure, _, _, ok in evaluate(kind, figures)} if quality == DEFAULT_QUALITY \
                else {}
            if figures is None:
                notes.append(f"   {scene['name']} {quality} {kind}: {run.get('error') or 'not scored'}")
            cells = [cell((figures or {}).get(figure), digits) for figure, _, digits in COLUMNS]
            for index, (figure, _, _) in enumerate(COLUMNS):
                if figure in judged:
                    cells[index] = marked(cells[index], judged[figure])
            rows.append([scene["name"], quality, kind, *cells, cell(run.get("fps"), 1)])
            if quality == DEFAULT_QUALITY:
                verdicts += [(f"{scene['name']} {label}", ok, cell(value, 3))
                             for _, label, value, ok in evaluate(kind, figures)]
        default, reference = runs.get(DEFAULT_QUALITY), runs.get(REFERENCE_QUALITY)
        if default is not None and reference is not None:
            gap, ok = reference_gap(None if default.get("error") else default["scores"].get(kind),
                                    None if reference.get("error") else reference["scores"].get(kind))
            shown = "n/a" if gap is None else f"{gap:+.3f}"
            rows.append([scene["name"], f"vs {REFERENCE_QUALITY}", kind, marked(shown, ok)]
                        + [""] * len(COLUMNS))
            verdicts.append((f"{scene['name']} {kind} IDF1 {DEFAULT_QUALITY} - {REFERENCE_QUALITY} >= "
                             f"-{REFERENCE_IDF1_MARGIN}", ok, shown))
    return rows, notes, verdicts


def render_scenes(scenes: list) -> tuple:
    """(the dev-scene table with its notes below, every verdict)."""
    rows, notes, verdicts = [], [], []
    for scene in scenes:
        scene_table, scene_notes, scene_verdicts = scene_rows(scene)
        rows += scene_table
        notes += scene_notes
        verdicts += scene_verdicts
    header = ["scene", "quality", "kind", *[name for _, name, _ in COLUMNS], "fps"]
    # Comparison rows leave the figure columns empty: no trailing blanks.
    lines = [line.rstrip() for line in table(rows, header, left_columns=3).splitlines()]
    return "\n".join([*lines, *notes]), verdicts


def silver_checks(figures: dict) -> list:
    values = {"payload_recall": figures["payload_recall"], "false_payload_count": len(figures["false_payloads"])}
    return [(name, passes(values[name], comparison, threshold)) for name, comparison, threshold in SILVER_CHECKS]


def render_videos(videos: list) -> str:
    """The BoofCV table. `videos`: [{"name", "fps", "error", "figures": silver.py's | None}]."""
    header = ["video", "frames", "payload recall", "false payloads", "frame recall", "first-report lag med/max",
              "fps"]
    rows, notes = [], []
    for video in videos:
        figures = video.get("figures")
        if video.get("error") or figures is None:
            rows.append([video["name"], f"failed: {video.get('error') or 'not scored'}", "", "", "", "", ""])
            continue
        checks = dict(silver_checks(figures))
        recall = f"{figures['payloads_found']}/{figures['trusted_payloads']}"
        lag = f"{cell(figures['first_report_lag_median'], 1)}/{cell(figures['first_report_lag_max'], 0)}"
        rows.append([video["name"], str(figures["frames_scanned"]), marked(recall, checks["payload_recall"]),
                     marked(str(len(figures["false_payloads"])), checks["false_payload_count"]),
                     cell(figures["frame_recall"], 3), lag, cell(video.get("fps"), 1)])
        for payload in figures["missing_payloads"]:
            notes.append(f"   {video['name']}: never reported: {payload!r}")
        for false in figures["false_payloads"]:
            notes.append(f"   {video['name']}: false payload {false['payload']!r} (silver frames: "
                         f"{false['silver_frames']})")
        if figures["frames_scanned"] != figures["frames_labelled"]:
            notes.append(f"   {video['name']}: {figures['frames_scanned']} frames scanned but "
                         f"{figures['frames_labelled']} labelled: frame figures are misaligned")
    return "\n".join([table(rows, header, left_columns=1), *notes])


def render_verdict(verdicts: list) -> str:
    failed = [(label, shown) for label, ok, shown in verdicts if not ok]
    lines = [f"dev-scene targets at {DEFAULT_QUALITY}: {len(verdicts) - len(failed)} of {len(verdicts)} PASS"]
    lines += [f"   FAIL  {label}  (got {shown})" for label, shown in failed]
    return "\n".join(lines)
