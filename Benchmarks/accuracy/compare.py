"""Comparison logic of the accuracy benchmark: ground truth, payload matching, tool-output parsing, CER.

Standard library only; no process is started here, so `test_compare.py` covers all of it.

Conventions (see ../shared/corpus/*/MANIFEST.md):
  * `NAME.txt` is the exact expected text (bytes, CRLF kept), `NAME.bin` the expected bytes.
  * A decode carries up to two byte strings: its text as UTF-8 and its raw bytes. It matches the ground truth
    when either equals it (after `canonical`): `.txt` holds the decoded *text* (e.g. Shift-JIS turned into
    UTF-8), `.bin` the raw bytes.
  * `canonical` only bridges the two corpora's spelling of the same payload: EAN/UPC in 13-digit EAN-13 form
    (UPC-E expanded; an add-on's digits follow), Codabar without its start/stop letters. Nothing else is
    normalised.
"""

from __future__ import annotations

import base64
import collections
import dataclasses
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from measures import edit_distance, iou  # noqa: E402,F401 (both used here and by accuracy.py as compare.*)

# Image extensions livescan reads (Sources/LiveScan/Bridge/ImageSource.swift).
IMAGE_EXTENSIONS = {"png", "jpg", "jpeg", "bmp", "tif", "tiff", "webp", "pbm", "pgm", "ppm", "pnm"}


@dataclasses.dataclass(frozen=True)
class FormatSupport:
    """How each tool is told to look for one format; None = the tool cannot read it."""
    livescan: str | None      # livescan --types value
    zxing: str | None         # ZXingReader 1.4 -format value
    zbar: tuple[str, ...] | None   # zbarimg symbologies to enable


# The symbologies `--types barcodes` reads: every one livescan knows but the opt-in `telepen` and `dxfilmedge`,
# which are read only when named (Symbology.isReadByDefault).
LIVESCAN_BARCODES = ("qr,microqr,datamatrix,aztec,pdf417,maxicode,ean13,ean8,upca,upce,code128,code39,code93,"
                     "codabar,itf,databar,databar-expanded")

# Folder format (zxing-cpp's BarcodeFormat names, as in expected_pass_counts.json) -> tools.
# zxing-cpp 1.4 (ZXingReader) has no DXFilmEdge, Telepen, rMQR, MicroPDF417 or DataBar Limited reader; LiveScan
# (zxing-cpp 3.1) reads DataBar Limited as `databar`, MicroPDF417 as `pdf417` and rMQR as `qr`, their
# symbologies, and DX film edge and Telepen (Alpha and Numeric) as the opt-in `dxfilmedge` and `telepen`. Their
# payloads compare as zxing-cpp's samples store them: Telepen's text as decoded (numeric pairs as digits), DX film
# edge's `DX1-DX2/FRAME` (`36-2/21`).
FORMATS: dict[str, FormatSupport] = {
    "Aztec": FormatSupport("aztec", "Aztec", None),
    "Codabar": FormatSupport("codabar", "Codabar", ("codabar",)),
    "Code39": FormatSupport("code39", "Code39", ("code39",)),
    "Code39Ext": FormatSupport("code39", "Code39", ("code39",)),
    "Code93": FormatSupport("code93", "Code93", ("code93",)),
    "Code128": FormatSupport("code128", "Code128", ("code128",)),
    "DataBarOmni": FormatSupport("databar", "DataBar", ("databar",)),
    "DataBarStk": FormatSupport("databar", "DataBar", ("databar",)),
    "DataBarExp": FormatSupport("databar-expanded", "DataBarExpanded", ("databar-exp",)),
    "DataBarExpStk": FormatSupport("databar-expanded", "DataBarExpanded", ("databar-exp",)),
    "DataBarLtd": FormatSupport("databar", None, None),
    "DataMatrix": FormatSupport("datamatrix", "DataMatrix", None),
    "DXFilmEdge": FormatSupport("dxfilmedge", None, None),
    "EAN8": FormatSupport("ean8", "EAN-8", ("ean8",)),
    "EAN13": FormatSupport("ean13", "EAN-13", ("ean13",)),
    "ITF": FormatSupport("itf", "ITF", ("i25",)),
    "MaxiCode": FormatSupport("maxicode", "MaxiCode", None),
    "MicroPDF417": FormatSupport("pdf417", None, None),
    "MicroQRCode": FormatSupport("microqr", "MicroQRCode", None),
    "PDF417": FormatSupport("pdf417", "PDF417", None),   # zbar 0.23's PDF417 decoder returns nothing
    "QRCode": FormatSupport("qr", "QRCode", ("qrcode",)),
    "RMQRCode": FormatSupport("qr", None, None),
    "Telepen": FormatSupport("telepen", None, None),
    "UPCA": FormatSupport("upca", "UPC-A", ("upca", "ean13")),
    "UPCE": FormatSupport("upce", "UPC-E", ("upce",)),
    # Negative folders: every barcode format, as a user scanning "anything" would.
    None: FormatSupport(LIVESCAN_BARCODES, "", ()),
}

# zxing/zxing (Java) format names used by zxing-blackbox/expected_pass_counts.json.
JAVA_FORMATS = {
    "AZTEC": "Aztec", "CODABAR": "Codabar", "CODE_128": "Code128", "CODE_39": "Code39", "CODE_93": "Code93",
    "DATA_MATRIX": "DataMatrix", "EAN_13": "EAN13", "EAN_8": "EAN8", "ITF": "ITF", "PDF_417": "PDF417",
    "QR_CODE": "QRCode", "UPC_A": "UPCA", "UPC_E": "UPCE", "MAXICODE": "MaxiCode",
}


@dataclasses.dataclass
class Decode:
    """One symbol a tool reported: its text as UTF-8 and/or its raw bytes (either may be None)."""
    text: bytes | None
    raw: bytes | None = None
    symbology: str = ""

    def candidates(self) -> list[bytes]:
        return [value for value in (self.text, self.raw) if value is not None]


# --- Ground truth -----------------------------------------------------------------------------------------------------

def image_files(folder: str) -> list[str]:
    """Image file names of a folder in livescan's order (Swift sorts the names; the corpora's names are ASCII)."""
    names = [name for name in os.listdir(folder)
             if os.path.splitext(name)[1][1:].lower() in IMAGE_EXTENSIONS and not os.path.isdir(
                 os.path.join(folder, name))]
    return sorted(names)


def ground_truth_path(folder: str, image_name: str) -> str | None:
    """NAME.txt, else NAME.bin; NAME is the name minus its extension (zxing-cpp) or before its first dot (zxing)."""
    stems = [os.path.splitext(image_name)[0], image_name.split(".", 1)[0]]
    for stem in stems:
        for extension in (".txt", ".bin"):
            path = os.path.join(folder, stem + extension)
            if os.path.isfile(path):
                return path
    return None


def read_bytes(path: str) -> bytes:
    with open(path, "rb") as handle:   # binary: CRLF must survive
        return handle.read()


_STRUCTURED_PART = re.compile(r"^(?P<group>.+)-(?P<index>\d+)$")


def structured_groups(folder: str, images: list[str]) -> dict[str, list[str]]:
    """Structured-append folders: images `GG-II.ext` grouped by `GG` (the GT is `GG.txt`), parts in II order."""
    groups: dict[str, list[tuple[int, str]]] = {}
    for name in images:
        match = _STRUCTURED_PART.match(os.path.splitext(name)[0])
        if match:
            groups.setdefault(match["group"], []).append((int(match["index"]), name))
    return {group: [name for _, name in sorted(parts)] for group, parts in sorted(groups.items())}


# --- Matching ---------------------------------------------------------------------------------------------------------

_CODABAR_GUARDS = set(b"ABCDTNE*abcdtne")


def expand_upce(digits: str) -> str:
    """8-digit UPC-E (number system, 6 digits, check) -> 12-digit UPC-A."""
    system, data, check = digits[0], digits[1:7], digits[7]
    last = data[5]
    if last in "012":
        body = data[0:2] + last + "0000" + data[2:5]
    elif last == "3":
        body = data[0:3] + "00000" + data[3:5]
    elif last == "4":
        body = data[0:4] + "00000" + data[4]
    else:
        body = data[0:5] + "0000" + last
    return system + body + check


# GS1 AIs whose first two digits fix the element's length (GS1 General Specifications, figure 7.8.5-2): no FNC1
# separator follows them in the element string.
_GS1_FIXED_LENGTH = {"00", "01", "02", "03", "04", "11", "12", "13", "14", "15", "16", "17", "18", "19", "20", "31",
                     "32", "33", "34", "35", "36", "41"}
_GS1_ELEMENT = re.compile(rb"\((\d{2,4})\)([^(]*)")


def gs1_element_string(human_readable: bytes) -> bytes | None:
    """`(01)9501...(10)12A(21)7` (GS1 HRI, as zxing-cpp 1.4 prints DataBar) -> `01950...1012A<GS>217`
    (the raw element string zxing-cpp's samples store); None when it is not HRI."""
    elements = _GS1_ELEMENT.findall(human_readable)
    if not elements or b"".join(b"(" + ai + b")" + data for ai, data in elements) != human_readable:
        return None
    out = b""
    for index, (ai, data) in enumerate(elements):
        out += ai + data
        if index < len(elements) - 1 and ai[:2].decode("ascii") not in _GS1_FIXED_LENGTH:
            out += b"\x1d"
    return out


def canonical(folder_format: str | None, payload: bytes) -> bytes:
    """The spelling both corpora share: EAN/UPC as 13-digit EAN-13, Codabar without start/stop letters, DataBar
    as the GS1 element string (HRI parentheses turned into FNC1 separators; a bare 14-digit GTIN gets AI 01)."""
    if folder_format is not None and folder_format.startswith("DataBar"):
        if payload.isdigit() and len(payload) == 14:
            return b"01" + payload
        return gs1_element_string(payload) or payload
    if folder_format in ("EAN13", "UPCA", "UPCE") and payload.isdigit():
        digits = payload.decode("ascii")
        if folder_format == "UPCE" and len(digits) == 8:
            digits = expand_upce(digits)
        if len(digits) == 12 or (folder_format == "UPCA" and len(digits) in (14, 17)):   # UPC-A [+ add-on]
            digits = "0" + digits
        return digits.encode("ascii")
    if folder_format == "Codabar" and len(payload) >= 2 and payload[0] in _CODABAR_GUARDS \
            and payload[-1] in _CODABAR_GUARDS:
        return payload[1:-1]
    return payload


def matches(decode: Decode, expected: bytes, folder_format: str | None) -> bool:
    """True when the decode's text or raw bytes equal the expected payload (canonical forms). An EAN-13 / UPC-A
    expected without an add-on also matches the decode of it with a 2- or 5-digit add-on: upstream reads those
    folders with add-ons ignored (zxing-cpp's default), so their truth leaves out the add-ons printed beside some
    codes, which LiveScan reads."""
    want = canonical(folder_format, expected)
    for candidate in decode.candidates():
        got = canonical(folder_format, candidate)
        if got == want or (folder_format in ("EAN13", "UPCA") and len(want) == 13 and got.isdigit()
                           and len(got) in (15, 18) and got.startswith(want)):
            return True
    return False


@dataclasses.dataclass
class ImageScore:
    expected: int = 0        # codes expected in the image (0 for a negative image)
    correct: int = 0         # expected codes found exactly
    wrong: int = 0           # decodes that match no expected code
    decodes: int = 0


def score_image(decodes: list[Decode], expected: list[bytes], folder_format: str | None) -> ImageScore:
    """Each expected code counts once; every decode that matches none is a misread (or, with nothing expected,
    a false positive)."""
    score = ImageScore(expected=len(expected), decodes=len(decodes))
    for want in expected:
        if any(matches(decode, want, folder_format) for decode in decodes):
            score.correct += 1
    for decode in decodes:
        if not any(matches(decode, want, folder_format) for want in expected):
            score.wrong += 1
    return score


def structured_group_correct(parts: list[list[Decode]], expected: bytes, folder_format: str | None) -> bool:
    """A structured-append group is read when one decode is the whole message (a tool that merges) or the parts'
    first decodes, concatenated in part order, are (no tool here merges)."""
    if any(matches(decode, expected, folder_format) for decodes in parts for decode in decodes):
        return True
    if not parts or any(not decodes for decodes in parts):
        return False
    text = b"".join(decodes[0].text or b"" for decodes in parts)
    raw = b"".join(decodes[0].raw or decodes[0].text or b"" for decodes in parts)
    return matches(Decode(text=text, raw=raw), expected, folder_format)


# --- Tool outputs -----------------------------------------------------------------------------------------------------

def livescan_decode(event: dict) -> Decode:
    """An event-log barcode item: `payload_b64` holds the exact bytes when they are not UTF-8; `payload` is then
    zxing-cpp's text (e.g. Shift-JIS converted), otherwise the bytes themselves."""
    text = event.get("payload", "").encode("utf-8")
    raw = base64.b64decode(event["payload_b64"]) if "payload_b64" in event else text
    return Decode(text=text, raw=raw, symbology=event.get("symbology", ""))


def livescan_frames(events: list[dict]) -> dict[int, list[Decode]]:
    """Frame index -> barcodes present in it, from an image-folder scan's event log.

    Over an image folder livescan's tracker runs with a zero grace period: an item unseen in a frame is removed
    in that frame. So an item was seen in every frame from its `add` to the `seen_frame` of its `remove`, and
    items that stay (same payload in consecutive images) are credited to every image in between.
    """
    present: dict[int, list[Decode]] = {}
    open_items: dict[str, tuple[int, dict]] = {}
    spans: list[tuple[int, int, dict]] = []
    last_frame = -1
    for event in events:
        kind = event.get("event")
        if kind in ("add", "update", "remove") and event.get("kind") == "barcode":
            item = event["id"]
            if kind == "add":
                open_items[item] = (event["frame"], event)
            elif kind == "update" and item in open_items:
                start, previous = open_items[item]
                if livescan_decode(previous).candidates() != livescan_decode(event).candidates():
                    spans.append((start, event["frame"] - 1, previous))
                    open_items[item] = (event["frame"], event)
            elif kind == "remove" and item in open_items:
                start, state = open_items.pop(item)
                spans.append((start, event.get("seen_frame", event["frame"]), state))
        if isinstance(event.get("frame"), int):
            last_frame = max(last_frame, event["frame"])
    for start, state in open_items.values():   # a log cut short by a crash: credit up to its last frame
        spans.append((start, last_frame, state))
    for start, end, state in spans:
        for frame in range(start, end + 1):
            present.setdefault(frame, []).append(livescan_decode(state))
    return present


_ZXING_RESULT = re.compile(rb'(?ms)^Text:[ \t]*"(.*?)"\nBytes:[ \t]*([0-9A-Fa-f ]*?)[ \t]*\n(?:.*?)^Format:[ \t]*(\S+)')


def parse_zxing_reader(stdout: bytes) -> list[Decode]:
    """ZXingReader 1.4's default output: per symbol `Text: "..."` (raw, may span lines), `Bytes: hex`, `Format:`."""
    decodes = []
    for match in _ZXING_RESULT.finditer(stdout):
        raw = bytes.fromhex(match.group(2).decode("ascii")) if match.group(2).strip() else b""
        decodes.append(Decode(text=match.group(1), raw=raw, symbology=match.group(3).decode("ascii", "replace")))
    return decodes


_ZBAR_SYMBOL = re.compile(rb"<symbol\b([^>]*)>\s*<data\b([^>]*)>")
_ZBAR_ATTRIBUTE = rb"%s=['\"]([^'\"]*)['\"]"
_CDATA = re.compile(rb"\s*<!\[CDATA\[(.*?)\]\]>", re.S)


def parse_zbar_xml(stdout: bytes) -> list[Decode]:
    """zbarimg --xml: one <symbol> per code, its data in CDATA sections (`]]>` split across two sections);
    <data format='base64'> when the text is not printable. Parsed by hand: an XML parser turns CRLF into LF."""
    decodes = []
    for symbol in _ZBAR_SYMBOL.finditer(stdout):
        position, chunks = symbol.end(), []
        while (section := _CDATA.match(stdout, position)) is not None:
            chunks.append(section.group(1))
            position = section.end()
        payload = b"".join(chunks)
        data_format = re.search(_ZBAR_ATTRIBUTE % b"format", symbol.group(2))
        if data_format and data_format.group(1) == b"base64":
            payload = base64.b64decode(b"".join(payload.split()))
        kind = re.search(_ZBAR_ATTRIBUTE % b"type", symbol.group(1))
        decodes.append(Decode(text=payload, raw=None, symbology=kind.group(1).decode("ascii", "replace") if kind
                              else ""))
    return decodes


# --- Text -------------------------------------------------------------------------------------------------------------

def normalise_whitespace(text: str) -> str:
    return " ".join(text.split())


def cer(hypothesis: str, reference: str) -> float:
    """Character error rate: edit distance / reference length (whitespace-normalised by the caller)."""
    if not reference:
        return 0.0 if not hypothesis else 1.0
    return edit_distance(hypothesis, reference) / len(reference)


def word_recall(hypothesis: str, reference: str) -> float:
    """Share of the reference's words (letters and digits, case kept, each occurrence counted once) found anywhere
    in the hypothesis. CER over a page depends on the order its lines come out in; this does not."""
    words = lambda text: collections.Counter(re.findall(r"[^\W_]+", text))
    wanted = words(reference)
    if not wanted:
        return 1.0
    return sum((words(hypothesis) & wanted).values()) / sum(wanted.values())


def box_of(points: list[list[float]] | list[float]) -> tuple[float, float, float, float]:
    """Axis-aligned box (x0, y0, x1, y1) around corner points [[x,y],...] or a flat [x1,y1,x2,y2,...]."""
    if points and not isinstance(points[0], (list, tuple)):
        points = [points[i:i + 2] for i in range(0, len(points), 2)]
    xs = [float(p[0]) for p in points]
    ys = [float(p[1]) for p in points]
    return min(xs), min(ys), max(xs), max(ys)


def read_sroie_boxes(path: str) -> list[tuple[tuple[float, float, float, float], str]]:
    """box/NNN.csv: `x1,y1,...,x4,y4,TRANSCRIPT` per line; the transcript is everything after the 8th comma."""
    lines = []
    with open(path, encoding="utf-8", errors="replace", newline="") as handle:
        for row in handle.read().splitlines():
            fields = row.split(",", 8)
            if len(fields) < 9:
                continue
            try:
                coordinates = [float(value) for value in fields[:8]]
            except ValueError:
                continue
            lines.append((box_of(coordinates), fields[8]))
    return lines


@dataclasses.dataclass
class LineScore:
    errors: int = 0
    reference_chars: int = 0
    lines: int = 0
    matched: int = 0

    @property
    def cer(self) -> float:
        return self.errors / self.reference_chars if self.reference_chars else 0.0


def score_lines(truth: list[tuple[tuple, str]], recognised: list[tuple[tuple, str]], threshold: float = 0.3,
                fold_case: bool = True) -> LineScore:
    """Per GT line: the recognised line with the best IoU (> threshold) is its reading, else the reading is empty.
    SROIE's GT is upper-case even where the print is not, so case is folded by default."""
    score = LineScore()
    for box, reference in truth:
        reference = normalise_whitespace(reference)
        if not reference:
            continue
        best, best_iou = "", threshold
        for candidate_box, text in recognised:
            overlap = iou(box, candidate_box)
            if overlap > best_iou:
                best, best_iou = text, overlap
        score.lines += 1
        if best_iou > threshold:
            score.matched += 1
        hypothesis = normalise_whitespace(best)
        if fold_case:
            reference, hypothesis = reference.upper(), hypothesis.upper()
        score.errors += edit_distance(hypothesis, reference)
        score.reference_chars += len(reference)
    return score


def parse_tesseract_tsv(tsv: str) -> list[tuple[tuple[float, float, float, float], str]]:
    """`tesseract IMG - tsv`: level-4 rows are lines (box), level-5 rows their words; returns lines in output order."""
    lines: dict[tuple, list] = {}
    order: list[tuple] = []
    for row in tsv.splitlines()[1:]:
        fields = row.split("\t")
        if len(fields) < 12:
            continue
        level = fields[0]
        key = tuple(fields[1:5])   # page, block, paragraph, line
        left, top, width, height = (float(value) for value in fields[6:10])
        if level == "4":
            lines[key] = [(left, top, left + width, top + height), []]
            order.append(key)
        elif level == "5" and key in lines and fields[11].strip():
            lines[key][1].append(fields[11])
    return [(lines[key][0], " ".join(lines[key][1])) for key in order if lines[key][1]]


def livescan_text_lines(events: list[dict]) -> list[tuple[tuple[float, float, float, float], str]]:
    """Text items of a one-image scan in the order they were added (reading order), each with its last state."""
    order: list[str] = []
    state: dict[str, dict] = {}
    for event in events:
        if event.get("kind") != "text" or event.get("event") not in ("add", "update", "remove"):
            continue
        if event["id"] not in state:
            order.append(event["id"])
        state[event["id"]] = event
    return [(box_of(state[item]["bounds"]), state[item].get("transcript", "")) for item in order]


def box_file_text(path: str) -> str:
    """Tesseract .box ground truth: a `WordStr ... #text` line, else the glyphs concatenated (spaces are not
    recorded in glyph boxes, so callers compare such pages without whitespace)."""
    glyphs = []
    with open(path, encoding="utf-8") as handle:
        for row in handle.read().splitlines():
            if row.startswith("WordStr ") and "#" in row:
                return row.split("#", 1)[1]
            if row.strip():
                glyphs.append(row.split(" ", 1)[0])
    return "".join(glyphs)
