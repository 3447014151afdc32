#!/usr/bin/env python3
"""Accuracy benchmark: livescan against ZXingReader 1.4, zbarimg and tesseract on the labelled corpora.

    accuracy.py --bin .build/release --corpus ../shared/corpus --out .build/bench/accuracy

Barcodes: every folder of zxing-cpp-samples and zxing-blackbox, scanned with the folder's format (`--types`,
`-format`, zbar `-S<symbology>.enable`); QR folders also at `--quality accurate` and with every format enabled.
Text: CER on tesseract-testing pages and on the public SROIE receipts, and (with `--realdata`) word recall and
precision on the ICDAR 2015 scene-text photos beside Tesseract's own layout. Real photos (`--realdata`,
../shared/realdata: quagga2 1-D phone photos, jsQR and BoofCV QR photos) are scored by ../shared/tools/
score_realdata.py, which runs LiveScan, ZXingReader 1.4, zbarimg and zxing-cpp 3.1 (its Python wheel, in the
`--realdata-python` environment) on every image. Writes summary.txt and accuracy.json in
--out; a tool that crashes or hangs on an image counts as "not decoded" there and is listed, never fatal.
Standard library only; the comparison rules live in compare.py (tested by test_compare.py).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import compare  # noqa: E402
import icdar_video  # noqa: E402

BARCODE_CORPORA = ("zxing-cpp-samples", "zxing-blackbox")
REALDATA_SETS = ("quagga2-1d-photos", "jsqr-qr-photos", "boofcv-qr-detection")
# The real scene-text set: word recall and precision over whole photos.
REALDATA_TEXT_SET = "icdar2015-incidental-text"
# LiveScan's quality levels, each of which reads the scene-text photos and crops.
QUALITY_LEVELS = ("fast", "balanced", "accurate")
# score_realdata.py's text reader names beside LiveScan's, as the scene-text table's columns.
REALDATA_TEXT_PEERS = (("tesseract-psm3", "tesseract --psm 3"), ("tesseract-psm11", "tesseract --psm 11"))
# score_realdata.py's reader names, as the realdata table's peer columns.
REALDATA_PEERS = (("zxingreader-1.4", "ZXingReader 1.4"), ("zbarimg", "zbarimg"), ("zxing-cpp-3.1", "zxing-cpp 3.1"))
# Symbologies of the quagga2 labels that no zxing-cpp reads: a miss there is expected, never a target.
UNSUPPORTED_BY_ZXING = ("Industrial2of5",)
QR_FORMAT = "QRCode"


# --- Running tools ----------------------------------------------------------------------------------------------------

class Run:
    """One finished (or killed) process."""

    def __init__(self, returncode: int | None, stdout: bytes, stderr: bytes, seconds: float, timed_out: bool):
        self.returncode, self.stdout, self.stderr = returncode, stdout, stderr
        self.seconds, self.timed_out = seconds, timed_out

    @property
    def crashed(self) -> bool:
        """Killed by a signal (zxing-cpp's assertions abort()) or timed out."""
        return self.timed_out or (self.returncode is not None and self.returncode < 0)


def run(command: list[str], timeout: float, env: dict | None = None) -> Run:
    start = time.monotonic()
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL,
                               env=env, start_new_session=True)
    try:
        stdout, stderr = process.communicate(timeout=timeout)
        return Run(process.returncode, stdout, stderr, time.monotonic() - start, False)
    except subprocess.TimeoutExpired:
        try:
            os.killpg(process.pid, signal.SIGKILL)   # the session this call started, nothing else
        except ProcessLookupError:
            pass
        stdout, stderr = process.communicate()
        return Run(process.returncode, stdout, stderr, time.monotonic() - start, True)


class Clock:
    """Total wall seconds per tool."""

    def __init__(self):
        self.seconds: dict[str, float] = {}
        self.runs: dict[str, int] = {}

    def add(self, tool: str, result: Run) -> Run:
        self.seconds[tool] = self.seconds.get(tool, 0.0) + result.seconds
        self.runs[tool] = self.runs.get(tool, 0) + 1
        return result


def read_events(path: str) -> list[dict]:
    events = []
    try:
        with open(path, encoding="utf-8") as handle:
            for line in handle:
                try:
                    events.append(json.loads(line))
                except json.JSONDecodeError:
                    pass   # a last line cut by a crash
    except FileNotFoundError:
        pass
    return events


class Tools:
    def __init__(self, args, clock: Clock):
        self.livescan = os.path.join(args.bin, "livescan")
        self.zxing = shutil.which("ZXingReader")
        self.zbar = shutil.which("zbarimg")
        self.tesseract = shutil.which("tesseract")
        self.dwebp = shutil.which("dwebp")
        self.timeout = args.timeout
        self.text_timeout = args.text_timeout
        self.clock = clock
        self.work = os.path.join(args.out, "work")
        self.env = dict(os.environ, OMP_THREAD_LIMIT="1")
        self.quality = args.quality
        os.makedirs(self.work, exist_ok=True)

    # LiveScan ---------------------------------------------------------------------------------------------------------
    def livescan_folder(self, tool: str, folder: str, images: list[str], types: str, quality: str | None,
                        tag: str) -> tuple[dict[str, list[compare.Decode]], list[str]]:
        """Scans a whole folder in one process; image -> decodes, and the images it failed on.
        Frames count only the images that decoded (ImageSource skips unreadable ones and names them on stderr).
        If the process dies, the folder is rescanned image by image so one bad image costs only itself."""
        events_path = os.path.join(self.work, tag + ".jsonl")
        command = [self.livescan, "scan", "--types", types, "--events", events_path]
        if quality:
            command += ["--quality", quality]
        result = self.clock.add(tool, run(command + [folder], self.timeout * len(images) + 30, self.env))
        events = read_events(events_path)
        finished = any(event.get("event") == "end" and event.get("reason") == "eof" for event in events)
        if result.crashed or result.returncode not in (0, 1, 4) or not finished:
            return self._livescan_each(tool, folder, images, command, tag)
        unreadable = {os.path.basename(path) for path in
                      re.findall(r"Error: (.*?): not a readable image", result.stderr.decode("utf-8", "replace"))}
        readable = [name for name in images if name not in unreadable]
        frames = compare.livescan_frames(events)
        decodes = {name: frames.get(index, []) for index, name in enumerate(readable)}
        for name in unreadable:
            decodes[name] = []
        return decodes, sorted(f"{name}: unreadable" for name in unreadable if name in images)

    def _livescan_each(self, tool, folder, images, command, tag):
        decodes, failures = {}, []
        events_path = os.path.join(self.work, tag + ".one.jsonl")
        command = [part if part != os.path.join(self.work, tag + ".jsonl") else events_path for part in command]
        for name in images:
            if os.path.exists(events_path):
                os.remove(events_path)
            result = self.clock.add(tool, run(command + [os.path.join(folder, name)], self.timeout, self.env))
            if result.crashed or result.returncode not in (0, 4):
                failures.append(f"{name}: {describe(result)}")
            decodes[name] = compare.livescan_frames(read_events(events_path)).get(0, [])
        return decodes, failures

    # ZXingReader ------------------------------------------------------------------------------------------------------
    def zxing_image(self, path: str, zx_format: str, tool: str = "zxingreader") -> tuple[list[compare.Decode], str | None]:
        command = [self.zxing] + (["-format", zx_format] if zx_format else []) + [path]
        result = self.clock.add(tool, run(command, self.timeout))
        failure = None
        if result.crashed:
            failure = f"{os.path.basename(path)}: {describe(result)}"
        elif b"Failed to read image" in result.stdout + result.stderr:
            failure = f"{os.path.basename(path)}: cannot read the image"
        return compare.parse_zxing_reader(result.stdout), failure

    # zbarimg ----------------------------------------------------------------------------------------------------------
    def zbar_image(self, path: str, symbologies: tuple[str, ...]) -> tuple[list[compare.Decode], str | None]:
        config = [] if not symbologies else ["-Sdisable"] + [f"-S{name}.enable" for name in symbologies]
        base = [self.zbar, "-q", "--nodbus"] + config
        result = self.clock.add("zbarimg", run(base + ["--xml", path], self.timeout))
        failure = f"{os.path.basename(path)}: {describe(result)}" if result.crashed else None
        decodes = compare.parse_zbar_xml(result.stdout)
        if len(decodes) == 1:
            # The raw bytes, unconverted: with -Sbinary zbarimg prints them with no separator, so only a
            # single-symbol image can be split; XML holds zbar's charset-converted text.
            raw = self.clock.add("zbarimg", run(base + ["--raw", "-Sbinary", path], self.timeout))
            if not raw.crashed and raw.returncode == 0:
                decodes[0].raw = raw.stdout
        return decodes, failure

    # Text -------------------------------------------------------------------------------------------------------------
    def livescan_text(self, path: str, tag: str, quality: str | None = None):
        events_path = os.path.join(self.work, tag + ".text.jsonl")
        if os.path.exists(events_path):
            os.remove(events_path)
        result = self.clock.add("livescan-text", run(
            [self.livescan, "scan", "--types", "text", "--quality", quality or self.quality, "--events", events_path,
             path],
            self.text_timeout, self.env))
        failure = None if not result.crashed and result.returncode in (0, 4) else describe(result)
        return compare.livescan_text_lines(read_events(events_path)), failure

    def tesseract_text(self, path: str):
        result = self.clock.add("tesseract", run([self.tesseract, path, "-", "--psm", "3", "tsv"],
                                                 self.text_timeout, self.env))
        failure = None if not result.crashed and result.returncode == 0 else describe(result)
        return compare.parse_tesseract_tsv(result.stdout.decode("utf-8", "replace")), failure


def describe(result: Run) -> str:
    if result.timed_out:
        return f"timed out after {result.seconds:.0f} s"
    if result.returncode is not None and result.returncode < 0:
        return f"killed by signal {-result.returncode} ({signal.Signals(-result.returncode).name})"
    tail = result.stderr.decode("utf-8", "replace").strip().splitlines()[-1:] or [""]
    return f"exit {result.returncode} {tail[0][:120]}"


# --- Folder descriptions ----------------------------------------------------------------------------------------------

def describe_folders(corpus_dir: str, corpus: str) -> list[dict]:
    """Folder -> format, upstream bar, expected payloads per image (or per structured-append group)."""
    root = os.path.join(corpus_dir, corpus)
    with open(os.path.join(root, "expected_pass_counts.json"), encoding="utf-8") as handle:
        upstream = json.load(handle)
    folders = []
    for name in sorted(entry for entry in os.listdir(root) if os.path.isdir(os.path.join(root, entry))):
        path = os.path.join(root, name)
        images = compare.image_files(path)
        folder = {"corpus": corpus, "folder": name, "path": path, "images": images, "format": None,
                  "negative": False, "structured": False, "upstream_min": None, "upstream_fast_min": None,
                  "allowed_fp": None, "note": "", "expected": {}, "groups": {}}
        labelled = {image: compare.ground_truth_path(path, image) for image in images}
        entry = upstream.get(name)
        if corpus == "zxing-cpp-samples":
            if entry:
                folder["format"] = None if entry["format"] in (None, "None") else entry["format"]
                folder["structured"] = bool(entry.get("structured_append"))
                rotation0 = next((test for test in entry["tests"] if test.get("rotation") == 0), None)
                if rotation0:
                    folder["upstream_min"] = rotation0["slow_min_pass"]
                    folder["upstream_fast_min"] = rotation0["fast_min_pass"]
                if entry.get("reader_options"):
                    folder["note"] = "upstream options: " + entry["reader_options"]
            elif name.startswith("datamatrix"):
                folder["format"] = "DataMatrix"
                folder["note"] = "no upstream runner entry"
            if not any(labelled.values()) and not folder["structured"]:
                if name.startswith("falsepositives") or (entry and folder["upstream_min"] == 0):
                    folder["negative"] = True
                    folder["allowed_fp"] = 0
                else:
                    folder["format"] = "unlabelled"
                    folder["note"] = "no ground truth (manifest: silver labels only); not scored"
        else:
            test_class = entry["test_classes"][0] if entry else None
            if test_class:
                first = test_class["tests"][0]
                folder["format"] = compare.JAVA_FORMATS.get(test_class["format"]) if test_class["format"] else None
                if test_class["negative"]:
                    folder["negative"] = True
                    folder["allowed_fp"] = first.get("max_false_positives")
                elif "expected_texts_unordered" in first:
                    texts = [text.encode("utf-8") for text in first["expected_texts_unordered"]]
                    folder["expected"] = {first["image"]: texts}
                    folder["upstream_min"] = first.get("expected_result_count", len(texts))
                    folder["note"] = "4 QR codes in one photo: counted per code"
                else:
                    folder["upstream_min"] = first["try_harder_must_pass"]
                    folder["upstream_fast_min"] = first["must_pass"]
        if folder["format"] != "unlabelled" and not folder["negative"] and not folder["expected"]:
            if folder["structured"]:
                groups = compare.structured_groups(path, images)
                for group, parts in groups.items():
                    truth = compare.ground_truth_path(path, group + ".x")
                    if truth:
                        folder["groups"][group] = {"parts": parts, "expected": compare.read_bytes(truth)}
                folder["note"] = "structured append: counted per group"
            else:
                folder["expected"] = {image: [compare.read_bytes(truth)] for image, truth in labelled.items() if truth}
        folders.append(folder)
    return folders


def units(folder: dict) -> int:
    if folder["negative"]:
        return 0
    if folder["structured"]:
        return len(folder["groups"])
    return sum(len(value) for value in folder["expected"].values())


def score_folder(folder: dict, decodes: dict[str, list[compare.Decode]]) -> dict:
    """correct = expected codes (or groups) read exactly; misreads = labelled images with a decode matching no
    expected code; fp = images of a negative folder with any decode."""
    fmt = folder["format"]
    score = {"correct": 0, "misread_images": 0, "fp_images": 0, "decodes": 0, "misread_examples": []}
    for image in folder["images"]:
        found = decodes.get(image, [])
        score["decodes"] += len(found)
        if folder["negative"]:
            score["fp_images"] += bool(found)
            if found and len(score["misread_examples"]) < 5:
                score["misread_examples"].append(f"{image}: {found[0].candidates()[0][:60]!r}")
            continue
        expected = folder["expected"].get(image)
        if expected is None:
            continue
        result = compare.score_image(found, expected, fmt)
        score["correct"] += result.correct
        if result.wrong:
            score["misread_images"] += 1
            wrong = next(decode for decode in found if not any(compare.matches(decode, want, fmt)
                                                                    for want in expected))
            if len(score["misread_examples"]) < 5:
                score["misread_examples"].append(f"{image}: {wrong.candidates()[0][:60]!r}")
    if folder["structured"]:
        score["correct"] = sum(compare.structured_group_correct([decodes.get(part, []) for part in group["parts"]],
                                                                group["expected"], fmt)
                               for group in folder["groups"].values())
    return score


# --- Barcode benchmark ------------------------------------------------------------------------------------------------

def run_barcodes(args, tools: Tools, log) -> list[dict]:
    results = []
    webp_dir = os.path.join(args.out, "webp-as-png")
    for corpus in BARCODE_CORPORA:
        for folder in describe_folders(args.corpus, corpus):
            if args.only and not re.search(args.only, f"{corpus}/{folder['folder']}"):
                continue
            fmt = folder["format"]
            row = {key: folder[key] for key in ("corpus", "folder", "format", "negative", "structured",
                                                  "upstream_min", "upstream_fast_min", "allowed_fp", "note")}
            row["images"] = len(folder["images"])
            row["webp"] = sum(name.lower().endswith(".webp") for name in folder["images"])
            row["units"] = units(folder)
            row["tools"] = {}
            results.append(row)
            if fmt == "unlabelled":
                log(f"{corpus}/{folder['folder']}: unlabelled, skipped")
                continue
            support = compare.FORMATS.get(fmt, compare.FormatSupport(None, None, None))
            row["zxing14_supports"] = support.zxing is not None
            tag = f"{corpus}.{folder['folder']}"
            runs = []
            if support.livescan:
                runs.append(("livescan", support.livescan, args.quality))
                if fmt == QR_FORMAT:
                    runs.append(("livescan-accurate", support.livescan, "accurate"))
                    runs.append(("livescan-any", compare.LIVESCAN_BARCODES, None))
            for tool, types, quality in runs:
                decodes, failures = tools.livescan_folder(tool, folder["path"], folder["images"], types, quality,
                                                          f"{tag}.{tool}")
                row["tools"][tool] = dict(score_folder(folder, decodes), failures=failures)
            if support.zxing is not None and tools.zxing:
                decodes, failures, converted = {}, [], {}
                for image in folder["images"]:
                    decodes[image], failure = tools.zxing_image(os.path.join(folder["path"], image), support.zxing)
                    if failure and "cannot read" not in failure:
                        failures.append(failure)
                    if image.lower().endswith(".webp") and tools.dwebp:
                        png = os.path.join(webp_dir, corpus, folder["folder"], image + ".png")
                        os.makedirs(os.path.dirname(png), exist_ok=True)
                        if not os.path.exists(png):
                            run([tools.dwebp, "-quiet", os.path.join(folder["path"], image), "-o", png], 60)
                        converted[image], _ = tools.zxing_image(png, support.zxing, "zxingreader-webp-as-png")
                row["tools"]["zxingreader"] = dict(score_folder(folder, decodes), failures=failures)
                if converted:
                    row["tools"]["zxingreader-webp-as-png"] = score_folder(folder, dict(decodes, **converted))
            if support.zbar is not None and tools.zbar:
                decodes, failures = {}, []
                for image in folder["images"]:
                    decodes[image], failure = tools.zbar_image(os.path.join(folder["path"], image), support.zbar)
                    if failure:
                        failures.append(failure)
                row["tools"]["zbarimg"] = dict(score_folder(folder, decodes), failures=failures)
            log(folder_line(row))
    return results


def value(row: dict, tool: str, key: str = "correct"):
    scores = row["tools"].get(tool)
    return None if scores is None else scores[key]


def folder_line(row: dict) -> str:
    parts = [f"{row['corpus']}/{row['folder']}"]
    for tool in ("livescan", "livescan-accurate", "zxingreader", "zxingreader-webp-as-png", "zbarimg"):
        if tool in row["tools"]:
            key = "fp_images" if row["negative"] else "correct"
            parts.append(f"{tool} {value(row, tool, key)}")
    return ": ".join(parts[:1]) + ": " + ", ".join(parts[1:]) + (f" (of {row['units']})" if not row["negative"] else " FP")


# --- Text benchmark ---------------------------------------------------------------------------------------------------

def page_truth(folder: str, image: str) -> tuple[str, bool] | None:
    """(text, compare-without-whitespace) for a tesseract-testing image."""
    stem = os.path.splitext(image)[0]
    for candidate in (stem, re.sub(r"-rotated-.*$", "", stem)):
        path = os.path.join(folder, candidate + ".txt")
        if os.path.isfile(path):
            return compare.read_bytes(path).decode("utf-8"), False
    for candidate in (stem + ".box", stem + "line.box"):
        path = os.path.join(folder, candidate)
        if os.path.isfile(path):
            return compare.box_file_text(path), True   # box files do not record word spaces
    return None


def run_text(args, tools: Tools, log) -> dict:
    text = {"pages": [], "receipts": []}
    peers = [("livescan", tools.livescan_text)] + ([("tesseract", tools.tesseract_text)] if tools.tesseract else [])
    folder = os.path.join(args.corpus, "tesseract-testing")
    if os.path.isdir(folder) and not args.only:
        for image in compare.image_files(folder):
            truth = page_truth(folder, image)
            if truth is None:
                continue
            reference, no_spaces = truth
            reference = "".join(reference.split()) if no_spaces else compare.normalise_whitespace(reference)
            row = {"image": image, "reference_chars": len(reference), "no_whitespace": no_spaces}
            for tool, read in peers:
                if tool == "livescan":
                    lines, failure = read(os.path.join(folder, image), "tesseract-testing." + image)
                else:
                    lines, failure = read(os.path.join(folder, image))
                hypothesis = " ".join(line for _, line in lines)
                hypothesis = "".join(hypothesis.split()) if no_spaces else compare.normalise_whitespace(hypothesis)
                errors = compare.edit_distance(hypothesis, reference)
                row[tool] = {"cer": errors / max(1, len(reference)), "errors": errors, "lines": len(lines),
                             "word_recall": compare.word_recall(" ".join(line for _, line in lines), reference),
                             "failure": failure}
            text["pages"].append(row)
            log(f"tesseract-testing/{image}: " + ", ".join(f"{tool} CER {row[tool]['cer']:.3f}" for tool, _ in peers))
    folder = os.path.join(args.corpus, "sroie-receipts")
    if os.path.isdir(folder) and not args.only:
        with open(os.path.join(folder, "splits.json"), encoding="utf-8") as handle:
            public = json.load(handle)["public"]
        for receipt in public:
            image = os.path.join(folder, "img", receipt + ".jpg")
            truth = compare.read_sroie_boxes(os.path.join(folder, "box", receipt + ".csv"))
            row = {"receipt": receipt}
            for tool, read in peers:
                if tool == "livescan":
                    lines, failure = read(image, "sroie." + receipt)
                else:
                    lines, failure = read(image)
                score = compare.score_lines(truth, lines)
                row[tool] = {"cer": score.cer, "errors": score.errors, "reference_chars": score.reference_chars,
                             "gt_lines": score.lines, "matched_lines": score.matched, "lines": len(lines),
                             "failure": failure}
            text["receipts"].append(row)
            log(f"sroie/{receipt}: " + ", ".join(f"{tool} CER {row[tool]['cer']:.3f} "
                                                 f"({row[tool]['matched_lines']}/{row[tool]['gt_lines']} lines)"
                                                 for tool, _ in peers))
    text["tools"] = [tool for tool, _ in peers]
    return text


# --- Report -----------------------------------------------------------------------------------------------------------

def supported_codes(realdata: str, name: str) -> int:
    """The labelled codes with a payload of a set whose symbology zxing-cpp reads (quagga2: not Industrial 2 of 5)."""
    with open(os.path.join(realdata, name, "labels.json"), encoding="utf-8") as handle:
        entries = json.load(handle)
    return sum(1 for entry in entries for code in entry["codes"]
               if code.get("text") and code.get("format") not in UNSUPPORTED_BY_ZXING)


def run_realdata(args, tools: Tools, log) -> list[dict]:
    """score_realdata.py over each realdata barcode set present: one row per set (codes, and per reader read,
    misreads, EAN read without its add-on). Empty when --realdata is not given or holds none of the sets."""
    if not args.realdata:
        return []
    names = [name for name in REALDATA_SETS if os.path.isfile(os.path.join(args.realdata, name, "labels.json"))
             and (not args.only or re.search(args.only, f"realdata/{name}"))]
    if not names:
        log(f"no realdata barcode set in {args.realdata}; skipped")
        return []
    python = args.realdata_python or sys.executable
    command = [python, args.realdata_scorer, tools.livescan, args.realdata, "--sets", ",".join(names),
               "--quality", args.quality]
    log(f"realdata: {', '.join(names)} through {os.path.basename(args.realdata_scorer)}")
    result = tools.clock.add("realdata (all readers)", run(command, timeout=3600, env=tools.env))
    rows = []
    for line in result.stdout.decode("utf-8", "replace").splitlines():
        try:
            row = json.loads(line)
        except ValueError:
            continue
        if isinstance(row, dict) and row.get("set") in names:
            # Boxes-only labels (BoofCV) carry no symbology: every labelled code counts.
            row["supported"] = supported_codes(args.realdata, row["set"]) or row["codes"]
            rows.append(row)
            log(f"realdata/{row['set']}: livescan {row['livescan']['read']} (misreads "
                f"{row['livescan']['misreads']}), " + ", ".join(f"{key} {row[key]['read']}" for key, _ in REALDATA_PEERS
                                                                 if key in row) + f" (of {row['codes']})")
    if result.returncode != 0 or len(rows) != len(names):
        tail = result.stderr.decode("utf-8", "replace").strip().splitlines()[-3:]
        log(f"realdata: the scorer failed ({describe(result)}): " + " | ".join(tail))
    return rows


def run_realdata_text(args, tools: Tools, log, quality: str) -> dict | None:
    """score_realdata.py over the ICDAR 2015 scene-text photos, when --realdata holds them: word recall and
    precision of LiveScan at `quality` and of Tesseract's own layout (--psm 3, --psm 11). None when absent or
    skipped."""
    if not args.realdata or not os.path.isfile(os.path.join(args.realdata, REALDATA_TEXT_SET, "labels.json")):
        return None
    if args.only and not re.search(args.only, f"realdata/{REALDATA_TEXT_SET}"):
        return None
    python = args.realdata_python or sys.executable
    command = [python, args.realdata_scorer, tools.livescan, args.realdata, "--sets", REALDATA_TEXT_SET,
               "--quality", quality]
    log(f"realdata: {REALDATA_TEXT_SET} through {os.path.basename(args.realdata_scorer)}, {quality}")
    result = tools.clock.add("realdata text (all readers)", run(command, timeout=3600, env=tools.env))
    for line in result.stdout.decode("utf-8", "replace").splitlines():
        try:
            row = json.loads(line)
        except ValueError:
            continue
        if isinstance(row, dict) and row.get("set") == REALDATA_TEXT_SET:
            log(f"realdata/{REALDATA_TEXT_SET}, {quality}: livescan recall {row['livescan']['recall']}, precision "
                f"{row['livescan']['precision']} (of {row['words']} words)")
            return row
    tail = result.stderr.decode("utf-8", "replace").strip().splitlines()[-3:]
    log(f"realdata text: the scorer failed ({describe(result)}): " + " | ".join(tail))
    return None


def run_realdata_crops(args, tools: Tools, log, quality: str, with_tesseract: bool) -> dict | None:
    """The ICDAR 2015 word crops of --realdata (each picture one word): read exactly, case-insensitive, by LiveScan
    (each crop scanned as an image at `quality`) and, `with_tesseract`, by `tesseract --psm 7` (one line). None when
    absent."""
    labels = os.path.join(args.realdata, REALDATA_TEXT_SET, "word_crops_labels.json") if args.realdata else ""
    if not labels or not os.path.isfile(labels) or (args.only and not re.search(args.only, f"realdata/{REALDATA_TEXT_SET}")):
        return None
    with open(labels, encoding="utf-8") as handle:
        crops = json.load(handle)
    exact = {"livescan": 0, **({"tesseract-psm7": 0} if with_tesseract and tools.tesseract else {})}
    for crop in crops:
        path = os.path.join(args.realdata, REALDATA_TEXT_SET, crop["file"])
        wanted = crop["lines"][0].strip().lower()
        lines, _ = tools.livescan_text(path, f"icdar-crop.{quality}.{os.path.basename(path)}", quality)
        exact["livescan"] += " ".join(text for _, text in lines).strip().lower() == wanted
        if "tesseract-psm7" in exact:
            result = tools.clock.add("tesseract", run([tools.tesseract, path, "-", "--psm", "7"], tools.text_timeout,
                                                      tools.env))
            exact["tesseract-psm7"] += result.stdout.decode("utf-8", "replace").strip().lower() == wanted
    log(f"realdata/{REALDATA_TEXT_SET} word crops, {quality}: livescan {exact['livescan']}, tesseract --psm 7 "
        f"{exact.get('tesseract-psm7', 'n/a')} exact of {len(crops)}")
    return {"crops": len(crops), "exact": exact}


def run_realdata_text_folds(args, tools: Tools, log, quality: str) -> list[dict] | None:
    """Word recall and precision of LiveScan at `quality` on each fold of the ICDAR 2015 photos (`icdar_video.fold`),
    scored by score_realdata.py's own rules (its `score_text`, imported: one set of rules for the whole and the
    folds). None when the photos or the scorer are absent."""
    labels = os.path.join(args.realdata or "", REALDATA_TEXT_SET, "labels.json")
    if not args.realdata or not os.path.isfile(labels) or not os.path.isfile(args.realdata_scorer):
        return None
    if args.only and not re.search(args.only, f"realdata/{REALDATA_TEXT_SET}"):
        return None
    spec = importlib.util.spec_from_file_location("score_realdata", args.realdata_scorer)
    scorer = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(scorer)
    with open(labels, encoding="utf-8") as handle:
        entries = json.load(handle)
    base = os.path.join(args.realdata, REALDATA_TEXT_SET)
    saved = dict(os.environ)
    os.environ.update(tools.env or {})  # the scorer runs livescan with this process's environment
    try:
        folds = []
        for fold in (0, 1):
            photos = [entry for entry in entries if icdar_video.fold(entry["file"]) == fold]
            words, results = scorer.score_text(
                photos, base, {"livescan": lambda path: scorer.livescan(tools.livescan, path, quality, "text")[1]})
            found, right, returned = results["livescan"]
            folds.append({"fold": fold, "photos": len(photos), "words": words,
                          "recall": round(found / max(words, 1), 3), "precision": round(right / max(returned, 1), 3)})
            log(f"realdata/{REALDATA_TEXT_SET} fold {fold} ({len(photos)} photos), {quality}: recall "
                f"{folds[-1]['recall']}, precision {folds[-1]['precision']}")
        return folds
    finally:
        os.environ.clear()
        os.environ.update(saved)


def run_realdata_text_levels(args, tools: Tools, log) -> dict | None:
    """The ICDAR 2015 photos and word crops at every quality level: the row of --quality (the one the targets
    judge, with Tesseract's crops beside it), its `levels` each level's recall, precision and crops read exactly."""
    main, levels = None, {}
    for quality in QUALITY_LEVELS:
        row = run_realdata_text(args, tools, log, quality)
        crops = run_realdata_crops(args, tools, log, quality, with_tesseract=quality == args.quality)
        if crops:
            row = {**(row or {"set": REALDATA_TEXT_SET}), "word_crops": crops}
        if row is None:
            continue
        levels[quality] = {**row.get("livescan", {}), **({"crops": crops["crops"], "crops_exact":
                                                          crops["exact"]["livescan"]} if crops else {})}
        if quality == args.quality:
            main = row
    if main:
        folds = run_realdata_text_folds(args, tools, log, args.quality)
        main = {**main, **({"folds": folds} if folds else {})}
    return {**main, "levels": levels} if main else None


def evaluate_realdata_text_target(row: dict | None) -> list[dict]:
    """The scene-text targets: word recall >= 0.60 at precision >= 0.80 on the ICDAR 2015 photos; >= 75 % of its word crops read
    exactly."""
    if not row:
        return []
    targets = []
    if "livescan" in row:
        ours = row["livescan"]
        targets.append({"target": "realdata scene text: word recall >= 0.60 at precision >= 0.80",
                        "folder": f"realdata/{REALDATA_TEXT_SET}",
                        "pass": ours["recall"] >= 0.6 and ours["precision"] >= 0.8,
                        "detail": f"recall {ours['recall']}, precision {ours['precision']}"})
    if "word_crops" in row:
        crops = row["word_crops"]
        targets.append({"target": "realdata word crops: >= 75 % read exactly", "folder": f"realdata/{REALDATA_TEXT_SET}",
                        "pass": crops["exact"]["livescan"] >= 0.75 * crops["crops"],
                        "detail": f"{crops['exact']['livescan']} of {crops['crops']}"})
    return targets


def render_realdata_text(row: dict) -> list[str]:
    out = ["== realdata scene text  (ICDAR 2015 incidental scene text, scored by score_realdata.py: word recall over "
           "the transcribed words, case-insensitive, punctuation stripped; precision over returned words of 3+ "
           "letters that are some word of the photo)"]
    if "livescan" in row:
        table = [("set", "words", "LS recall", "LS precision") + tuple(f"{title} recall / precision"
                                                                        for _, title in REALDATA_TEXT_PEERS)]
        ours = row["livescan"]
        table.append((row["set"], row["words"], ours["recall"], ours["precision"])
                     + tuple(f"{row[key]['recall']} / {row[key]['precision']}" if key in row else "n/a"
                             for key, _ in REALDATA_TEXT_PEERS))
        out.extend(format_table(table))
    if "word_crops" in row:
        crops = row["word_crops"]
        out.append(f"  word crops ({crops['crops']}, each scanned as an image; exact, case-insensitive): LiveScan "
                   f"{crops['exact']['livescan']}, tesseract --psm 7 {crops['exact'].get('tesseract-psm7', 'n/a')}")
    if row.get("folds"):
        out.append("  LiveScan on two folds of the photos (md5 of the file name, even / odd): a text change is kept only "
                   "when it helps on both")
        table = [("fold", "photos", "words", "recall", "precision")]
        table += [(fold["fold"], fold["photos"], fold["words"], fold["recall"], fold["precision"]) for fold in row["folds"]]
        out.extend("  " + line for line in format_table(table))
    if row.get("levels"):
        out.append("  LiveScan at each quality level (the rows above are --quality's):")
        table = [("level", "recall", "precision", "word crops exact")]
        for level, figures in row["levels"].items():
            table.append((level, figures.get("recall", "n/a"), figures.get("precision", "n/a"),
                          f"{figures['crops_exact']} of {figures['crops']}" if "crops" in figures else "n/a"))
        out.extend("  " + line for line in format_table(table))
    out.append("")
    return out


def evaluate_realdata_targets(rows: list[dict]) -> list[dict]:
    """The real-photo barcode targets: the quagga2 1-D photos at least 80 % of the codes of symbologies zxing-cpp reads, with 0 misreads;
    the QR photo sets at least what zxing-cpp 3.1 alone reads."""
    targets = []
    for row in rows:
        ours = row["livescan"]
        if row["set"] == "quagga2-1d-photos":
            wanted = -(-4 * row["supported"] // 5)
            targets.append({"target": "realdata 1-D: >= 80 % of supported codes, 0 misreads",
                            "folder": f"realdata/{row['set']}", "pass": ours["read"] >= wanted and ours["misreads"] == 0,
                            "detail": f"{ours['read']} of {row['supported']} (>= {wanted}), {ours['misreads']} misreads"})
        elif "zxing-cpp-3.1" in row:
            peer = row["zxing-cpp-3.1"]["read"]
            targets.append({"target": "realdata QR: >= zxing-cpp 3.1", "folder": f"realdata/{row['set']}",
                            "pass": ours["read"] >= peer, "detail": f"{ours['read']} vs {peer}"})
    return targets


def render_realdata(rows: list[dict]) -> list[str]:
    out = ["== realdata  (../shared/realdata, scored by score_realdata.py: a code counts when its exact text or a "
           "standard equivalent is returned; misreads: payloads matching no label of their image)"]
    header = ("set", "codes", "supported", "LS found", "LS mis", "LS no add-on") + tuple(
        f"{title} (mis)" for key, title in REALDATA_PEERS)
    table = [header]
    for row in rows:
        ours = row["livescan"]
        table.append((row["set"], row["codes"], row["supported"], ours["read"], ours["misreads"], ours["addon_missing"])
                     + tuple(f"{row[key]['read']} ({row[key]['misreads']})" if key in row else "n/a"
                             for key, _ in REALDATA_PEERS))
    out.extend(format_table(table))
    out.append("  supported: codes of symbologies zxing-cpp reads (quagga2's Industrial 2 of 5 is not); LS no add-on:"
               " EANs read without their add-on (counted as found).")
    out.append("")
    return out


def cell(number) -> str:
    return "n/a" if number is None else str(number)


def evaluate_targets(rows: list[dict]) -> list[dict]:
    targets = []
    scored = [row for row in rows if row["format"] != "unlabelled" and "livescan" in row["tools"]]
    for row in scored:
        name = f"{row['corpus']}/{row['folder']}"
        if row["negative"]:
            fp = value(row, "livescan", "fp_images")
            targets.append({"target": "0 false positives", "folder": name, "pass": fp == 0, "detail": f"{fp} FP"})
            continue
        zx = value(row, "zxingreader")
        if row.get("zxing14_supports") and zx is not None:
            ours = value(row, "livescan")
            targets.append({"target": ">= ZXingReader 1.4", "folder": name, "pass": ours >= zx,
                            "detail": f"{ours} vs {zx}"})
    qr = [row for row in scored if row["format"] == QR_FORMAT and not row["negative"] and "zxingreader" in row["tools"]]
    for row in qr:
        ours, zx = value(row, "livescan"), value(row, "zxingreader")
        ceiling = zx == row["units"]
        targets.append({"target": "> ZXingReader 1.4 on QR", "folder": f"{row['corpus']}/{row['folder']}",
                        "pass": ours > zx or (ceiling and ours == zx),
                        "detail": f"{ours} vs {zx}" + (" (ZXingReader already reads all)" if ceiling else "")})
    if qr:
        ours = sum(value(row, "livescan") for row in qr)
        zx = sum(value(row, "zxingreader") for row in qr)
        targets.append({"target": "> ZXingReader 1.4 on QR", "folder": "all QR folders", "pass": ours > zx,
                        "detail": f"{ours} vs {zx}"})
    # Stricter, informational: against ZXingReader given the WebP images as PNG (WebP is a file-format gap of the
    # 1.4 CLI, not of its decoder).
    for row in scored:
        png = value(row, "zxingreader-webp-as-png")
        if png is not None and not row["negative"] and row.get("zxing14_supports"):
            ours = value(row, "livescan")
            targets.append({"target": ">= ZXingReader 1.4 given WebP as PNG (informational)",
                            "folder": f"{row['corpus']}/{row['folder']}", "pass": ours >= png,
                            "detail": f"{ours} vs {png}"})
    return targets


def render(rows: list[dict], text: dict, targets: list[dict], clock: Clock, wall: float, tools: Tools,
           realdata: list[dict], realdata_text: dict | None = None) -> str:
    out = render_realdata(realdata) if realdata else []
    out += render_realdata_text(realdata_text) if realdata_text else []
    header = ("folder", "format", "img", "webp", "n", "LS ok", "LS mis", "LS FP", "LS acc", "LS any", "ZX ok",
              "ZX png", "zbar", "up min", "gap")
    for corpus in BARCODE_CORPORA:
        corpus_rows = [row for row in rows if row["corpus"] == corpus]
        if not corpus_rows:
            continue
        out.append(f"== {corpus}  (n = codes expected: images, groups for structured append, codes for multi-QR; "
                   "FP folders count images with any decode)")
        table = [header]
        totals = {"img": 0, "webp": 0, "n": 0, "ls": 0, "mis": 0, "fp": 0, "zx": 0, "zxp": 0, "zbar": 0, "up": 0,
                  "gap": 0}
        for row in corpus_rows:
            negative = row["negative"]
            def get(tool, key="correct"):
                return value(row, tool, "fp_images" if negative and key == "correct" else key)
            ls, zx, zxp, zb = get("livescan"), get("zxingreader"), get("zxingreader-webp-as-png"), get("zbarimg")
            gap = None
            if not negative and row["upstream_min"] is not None and ls is not None:
                gap = max(0, row["upstream_min"] - ls)
            elif not negative and row["upstream_min"] is not None:
                gap = row["upstream_min"]
            fmt = row["format"] or "none (negative)"
            if negative:
                up = f"FP<={row['allowed_fp']}" if row["allowed_fp"] is not None else "-"
                table.append((row["folder"], fmt, row["images"], row["webp"], "-", "-", "-", cell(ls),
                              cell(get("livescan-accurate")), cell(get("livescan-any")), cell(zx), cell(zxp),
                              cell(zb), up, "-"))
                totals["fp"] += ls or 0
            else:
                table.append((row["folder"], fmt, row["images"], row["webp"], row["units"], cell(ls),
                              cell(get("livescan", "misread_images")), "-", cell(get("livescan-accurate")),
                              cell(get("livescan-any")), cell(zx), cell(zxp), cell(zb), cell(row["upstream_min"]),
                              cell(gap)))
                if row["format"] != "unlabelled":
                    totals["n"] += row["units"]
                    totals["ls"] += ls or 0
                    totals["mis"] += get("livescan", "misread_images") or 0
                    totals["zx"] += zx or 0
                    totals["zxp"] += (zxp if zxp is not None else zx) or 0
                    totals["zbar"] += zb or 0
                    totals["up"] += row["upstream_min"] or 0
                    totals["gap"] += gap or 0
            totals["img"] += row["images"]
            totals["webp"] += row["webp"]
        table.append(("TOTAL", "", totals["img"], totals["webp"], totals["n"], totals["ls"], totals["mis"],
                      totals["fp"], "", "", totals["zx"], totals["zxp"], totals["zbar"], totals["up"], totals["gap"]))
        out.extend(format_table(table))
        out.append("")
    out.append(f"LS = livescan (--types = the folder's format, --quality {tools.quality}); acc = --quality accurate; any = every barcode"
               " type; ZX = ZXingReader 1.4 (-format, defaults; WebP unreadable = not decoded); ZX png = the same on"
               " WebP images converted to PNG with dwebp; zbar = zbarimg 0.23; up min = upstream minimum at 0 deg"
               " (zxing-cpp: slow mode; zxing: try-harder); gap = up min - LS ok (0 when met). EAN/UPC compared"
               " in EAN-13 form, Codabar without start/stop letters; everything else byte-exact.")
    failures = []
    for row in rows:
        for tool, scores in row["tools"].items():
            for failure in scores.get("failures", []):
                failures.append(f"  {tool} {row['corpus']}/{row['folder']}/{failure}")
    if failures:
        out.append("")
        out.append(f"Tool failures counted as not decoded ({len(failures)}):")
        out.extend(failures[:60] + ([f"  ... {len(failures) - 60} more in accuracy.json"] if len(failures) > 60 else []))
    misreads = [f"  {row['corpus']}/{row['folder']}: " + "; ".join(row["tools"]["livescan"]["misread_examples"])
                for row in rows if "livescan" in row["tools"] and row["tools"]["livescan"]["misread_examples"]]
    if misreads:
        out.append("")
        out.append("LiveScan misreads / false positives (first few per folder):")
        out.extend(misreads)
    if text.get("pages") or text.get("receipts"):
        out.append("")
        out.append("== text: CER (edit distance / reference characters, whitespace-normalised)")
        peers = text["tools"]
        table = [("page",) + tuple(f"{tool} CER" for tool in peers) + tuple(f"{tool} words" for tool in peers)
                 + tuple(f"{tool} lines" for tool in peers) + ("ref chars",)]
        for page in text["pages"]:
            table.append((page["image"] + (" *" if page["no_whitespace"] else ""),)
                         + tuple(f"{page[tool]['cer']:.3f}" for tool in peers)
                         + tuple(f"{page[tool]['word_recall']:.3f}" for tool in peers)
                         + tuple(page[tool]["lines"] for tool in peers) + (page["reference_chars"],))
        if text["pages"]:
            chars = sum(page["reference_chars"] for page in text["pages"])
            table.append(("ALL PAGES",) + tuple(f"{sum(p[tool]['errors'] for p in text['pages']) / chars:.3f}"
                                                for tool in peers) + ("",) * (2 * len(peers)) + (chars,))
            out.extend(format_table(table))
            out.append("  * GT from a .box file (no word spaces recorded): compared without whitespace.")
            out.append("  words: share of the reference's words read anywhere on the page (CER also counts line order).")
        if text["receipts"]:
            out.append("")
            table = [("receipt",) + tuple(f"{tool} CER" for tool in peers)
                     + tuple(f"{tool} matched" for tool in peers) + ("GT lines", "ref chars")]
            for receipt in text["receipts"]:
                first = receipt[peers[0]]
                table.append((receipt["receipt"],) + tuple(f"{receipt[tool]['cer']:.3f}" for tool in peers)
                             + tuple(receipt[tool]["matched_lines"] for tool in peers)
                             + (first["gt_lines"], first["reference_chars"]))
            chars = sum(receipt[peers[0]]["reference_chars"] for receipt in text["receipts"])
            table.append(("ALL (public)",)
                         + tuple(f"{sum(r[tool]['errors'] for r in text['receipts']) / chars:.3f}" for tool in peers)
                         + tuple(sum(r[tool]["matched_lines"] for r in text["receipts"]) for tool in peers)
                         + (sum(r[peers[0]]["gt_lines"] for r in text["receipts"]), chars))
            out.extend(format_table(table))
            out.append("  SROIE: per GT line, the recognised line with the best box IoU (> 0.3); unmatched GT lines"
                       " count as fully wrong; case-folded (the GT is upper-case).")
    out.append("")
    out.append("== targets")
    groups: dict[str, list[dict]] = {}
    for target in targets:
        groups.setdefault(target["target"], []).append(target)
    for name, items in groups.items():
        failed = [item for item in items if not item["pass"]]
        out.append(f"{'PASS' if not failed else 'FAIL'}  {name}: {len(items) - len(failed)}/{len(items)} folders")
        for item in failed:
            out.append(f"        {item['folder']}: {item['detail']}")
        for item in items:
            if item["folder"].startswith("all") or (item["pass"] and item["folder"].startswith("realdata/")):
                out.append(f"        {item['folder']}: {item['detail']}")
    out.append("")
    out.append("== time (total wall seconds per tool; process start included)")
    for tool in sorted(clock.seconds):
        out.append(f"  {tool:26s} {clock.seconds[tool]:8.1f} s  ({clock.runs.get(tool, 0)} runs)")
    out.append(f"  {'whole benchmark':26s} {wall:8.1f} s")
    missing = [name for name, path in (("ZXingReader", tools.zxing), ("zbarimg", tools.zbar),
                                       ("tesseract", tools.tesseract), ("dwebp", tools.dwebp)) if not path]
    if missing:
        out.append(f"  not installed (columns n/a): {', '.join(missing)}")
    return "\n".join(out) + "\n"


def format_table(rows: list[tuple]) -> list[str]:
    widths = [max(len(str(row[index])) for row in rows) for index in range(len(rows[0]))]
    lines = []
    for number, row in enumerate(rows):
        lines.append("  ".join(str(value).ljust(widths[index]) if index < 2 else str(value).rjust(widths[index])
                               for index, value in enumerate(row)).rstrip())
        if number == 0:
            lines.append("  ".join("-" * width for width in widths))
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bin", required=True, help="folder holding the livescan binary")
    parser.add_argument("--corpus", required=True, help="../shared/corpus")
    parser.add_argument("--out", required=True, help="output folder (summary.txt, accuracy.json, work/)")
    parser.add_argument("--timeout", type=float, default=20, help="seconds per barcode image per tool (20)")
    parser.add_argument("--text-timeout", type=float, default=180,
                        help="seconds per text page per tool (180: the UNLV pages are 300 dpi spreads)")
    parser.add_argument("--only", help="regex over corpus/folder (realdata/SET for the real photos): run only "
                        "those barcode folders, no text")
    parser.add_argument("--no-text", action="store_true", help="skip the text benchmark")
    parser.add_argument("--no-barcodes", action="store_true", help="skip the barcode folders (text only)")
    parser.add_argument("--quality", choices=QUALITY_LEVELS, default="balanced",
                        help="LiveScan's quality level for the main barcode column and the text (balanced)")
    parser.add_argument("--realdata", help="../shared/realdata: also score its barcode sets (absent: skipped)")
    parser.add_argument("--realdata-scorer", help="score_realdata.py (default: tools/score_realdata.py beside "
                        "--realdata)")
    parser.add_argument("--realdata-python", help="a Python with zxing-cpp 3.1.1 and pillow for the scorer "
                        "(Benchmarks/accuracy/requirements.txt; default: this one)")
    args = parser.parse_args()
    if args.realdata and not args.realdata_scorer:
        args.realdata_scorer = os.path.join(os.path.dirname(os.path.abspath(args.realdata)), "tools",
                                            "score_realdata.py")
    if args.realdata and not os.path.isfile(args.realdata_scorer):
        print(f"bench-accuracy: {args.realdata_scorer} not found: realdata skipped", file=sys.stderr)
        args.realdata = None
    os.makedirs(args.out, exist_ok=True)
    started = time.monotonic()
    clock = Clock()
    tools = Tools(args, clock)
    if not os.access(tools.livescan, os.X_OK):
        print(f"bench-accuracy: error: {tools.livescan} not found: build it first", file=sys.stderr)
        return 1

    def log(message: str):
        print(f"bench-accuracy: {message}", flush=True)

    rows = run_barcodes(args, tools, log) if not args.no_barcodes and os.path.isdir(args.corpus) else []
    realdata = run_realdata(args, tools, log) if not args.no_barcodes else []
    text = run_text(args, tools, log) if not args.no_text and os.path.isdir(args.corpus) \
        else {"pages": [], "receipts": [], "tools": []}
    realdata_text = run_realdata_text_levels(args, tools, log) if not args.no_text else None
    targets = (evaluate_realdata_targets(realdata) + evaluate_realdata_text_target(realdata_text)
               + evaluate_targets(rows))
    wall = time.monotonic() - started
    summary = render(rows, text, targets, clock, wall, tools, realdata, realdata_text)
    with open(os.path.join(args.out, "summary.txt"), "w", encoding="utf-8") as handle:
        handle.write(summary)
    report = {"folders": rows, "realdata": realdata, "realdata_text": realdata_text, "text": text, "targets": targets,
              "seconds": {tool: round(seconds, 3) for tool, seconds in clock.seconds.items()},
              "runs": clock.runs, "wall_seconds": round(wall, 3),
              "tools": {"livescan": tools.livescan, "ZXingReader": tools.zxing, "zbarimg": tools.zbar,
                        "tesseract": tools.tesseract, "dwebp": tools.dwebp}}
    with open(os.path.join(args.out, "accuracy.json"), "w", encoding="utf-8") as handle:
        json.dump(report, handle, indent=1, default=repr)
    print()
    print(summary, end="")
    print(f"bench-accuracy: summary.txt and accuracy.json are in {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
