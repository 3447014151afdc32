"""Tests for score_realtime.py on handmade ground truth, outputs and time stamps (no tools needed).

    python3 -m unittest discover -s Benchmarks/realtime
"""
import json
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import score_realtime as sr  # noqa: E402
from score_realtime import st  # noqa: E402

FRAMES = 10


def quad(x, y, w, h):
    return [[x, y], [x + w, y], [x + w, y + h], [x, y + h]]


def make_truth():
    """10 frames: qr-1 visible throughout; twin QRs with one payload; text-1 visible in 0-3 and 6-9 (hidden 4-5);
    text-2 visible in 5-8 only."""
    frames = []
    for i in range(FRAMES):
        frame = [{"item": "qr-1", "bounds": quad(100 + i, 100, 80, 80), "visible": True},
                 {"item": "twin-a", "bounds": quad(300, 100, 50, 50), "visible": True},
                 {"item": "twin-b", "bounds": quad(500, 100, 50, 50), "visible": True},
                 {"item": "text-1", "bounds": quad(100, 400, 200, 30), "visible": i not in (4, 5)}]
        if 5 <= i <= 8:
            frame.append({"item": "text-2", "bounds": quad(100, 500, 200, 30), "visible": True})
        frames.append(frame)
    return st.parse_truth({
        "width": 640, "height": 640, "fps": 30, "frame_count": FRAMES,
        "items": [{"id": "qr-1", "kind": "barcode", "symbology": "qr", "payload": "alpha"},
                  {"id": "twin-a", "kind": "barcode", "symbology": "qr", "payload": "twin"},
                  {"id": "twin-b", "kind": "barcode", "symbology": "qr", "payload": "twin"},
                  {"id": "text-1", "kind": "text", "transcript": "Aisle 7"},
                  {"id": "text-2", "kind": "text", "transcript": "Gate 3"}],
        "frames": frames})


def change(frame, kind, bounds, event="add", item_id="x", **values):
    line = {"event": event, "frame": frame, "time": frame / 30, "id": item_id, "kind": kind, "bounds": bounds,
            "seen_frame": frame}
    if kind == "barcode":
        line["payload"] = values.get("payload", "")
    else:
        line["transcript"] = values.get("transcript", "")
    return st.parse_change(line)


class CERTests(unittest.TestCase):
    def test_exact_line_costs_nothing(self):
        self.assertEqual(sr.frame_cer(["Aisle 7"], ["junk", "Aisle 7"]), (0, 7, 1))

    def test_best_matching_line_is_used(self):
        self.assertEqual(sr.frame_cer(["Aisle 7"], ["Aisle 1", "Aisle 7 Shelf B"]), (1, 7, 0))

    def test_missing_line_costs_its_length(self):
        self.assertEqual(sr.frame_cer(["Aisle 7", "Gate"], []), (11, 11, 0))

    def test_cost_is_capped_at_the_line_length(self):
        self.assertEqual(sr.frame_cer(["ab"], ["a completely different and long line"]), (2, 2, 0))

    def test_whitespace_is_collapsed(self):
        self.assertEqual(sr.frame_cer(["Aisle  7 "], ["  Aisle 7", "", "   "]), (0, 7, 1))

    def test_one_output_line_serves_one_expected_line(self):
        # "Gate 3" would be 5 edits from "Aisle 1", but that line is taken by "Aisle 7".
        self.assertEqual(sr.frame_cer(["Aisle 7", "Gate 3"], ["Aisle 1"]), (1 + 6, 13, 0))
        self.assertEqual(sr.frame_cer(["Gate 3", "Aisle 7"], ["Aisle 1", "Gate 3"]), (1, 13, 1))

    def test_extra_output_lines_are_free(self):
        self.assertEqual(sr.frame_cer([], ["junk"]), (0, 0, 0))

    def test_cer_over_frames_uses_visible_lines_and_weights_by_characters(self):
        truth = make_truth()
        # Frame 4: text-1 hidden, nothing expected. Frame 6: "Aisle 7" read with 1 edit, "Gate 3" missing.
        figures = sr.cer_figures(truth, {4: ["whatever"], 6: ["Aisle 1"], 7: ["Aisle 7", "Gate 3"]})
        self.assertEqual(figures["lines"], 4)
        self.assertEqual(figures["exact_lines"], 2)
        self.assertEqual((figures["edits"], figures["characters"]), (1 + 6, 26))
        self.assertAlmostEqual(figures["cer"], 7 / 26)

    def test_no_expected_text_has_no_cer(self):
        truth = make_truth()
        self.assertIsNone(sr.cer_figures(truth, {4: []})["cer"])

    def test_livescan_transcripts_as_of_the_frame(self):
        log = st.parse_event_log([
            json.dumps({"event": "add", "frame": 2, "id": "t", "kind": "text", "transcript": "Aisle 1",
                        "bounds": quad(100, 400, 200, 30)}),
            json.dumps({"event": "update", "frame": 5, "id": "t", "kind": "text", "transcript": "Aisle 7",
                        "bounds": quad(100, 400, 200, 30)}),
            json.dumps({"event": "remove", "frame": 9, "id": "t", "kind": "text", "transcript": "Aisle 7",
                        "bounds": quad(100, 400, 200, 30), "seen_frame": 7}),
            json.dumps({"event": "add", "frame": 3, "id": "b", "kind": "barcode", "payload": "alpha",
                        "bounds": quad(0, 0, 10, 10)}),
            json.dumps({"event": "end", "frame": 9}),
        ])
        predictions = st.reconstruct(log)
        self.assertEqual(sr.livescan_transcripts(predictions, 1), [])
        self.assertEqual(sr.livescan_transcripts(predictions, 4), ["Aisle 1"])
        self.assertEqual(sr.livescan_transcripts(predictions, 5), ["Aisle 7"])
        self.assertEqual(sr.livescan_transcripts(predictions, 8), [])  # last seen in frame 7

    def test_tesseract_pages(self):
        self.assertEqual(sr.tesseract_pages("a\nb\n\f\fc\n\f", 3), [["a", "b"], [], ["c"]])
        with self.assertRaises(ValueError):
            sr.tesseract_pages("a\f", 2)

    def test_sampled_frames_avoid_frame_zero(self):
        self.assertEqual(sr.sampled_frames(30, 10), [5, 15, 25])
        self.assertEqual(sr.sampled_frames(3, 10), [2])
        self.assertEqual(sr.sampled_frames(5, 1), [0, 1, 2, 3, 4])


class PayloadTests(unittest.TestCase):
    def test_yield_counts_distinct_payloads_and_misreads(self):
        truth = make_truth()
        expected = sr.truth_payloads(truth)
        self.assertEqual(expected, {b"alpha", b"twin"})
        figures = sr.payload_yield(expected, [b"alpha", b"alpha", b"alphx"])
        self.assertEqual(figures, {"correct": 1, "total": 2, "misreads": ["alphx"]})


class LatencyTests(unittest.TestCase):
    def test_runs_bridge_gaps_up_to_the_grace_period(self):
        truth = make_truth()
        self.assertEqual(sr.visible_runs(truth, 2)["text-1"], [(0, 9)])
        self.assertEqual(sr.visible_runs(truth, 1)["text-1"], [(0, 3), (6, 9)])
        self.assertEqual(sr.visible_runs(truth, 1)["text-2"], [(5, 8)])

    def test_appearances_repeat_per_loop_and_mark_the_seam(self):
        truth = make_truth()
        appearances = sr.stream_appearances(truth, 1, 16)
        qr = [(a.start, a.end, a.continued) for a in appearances if a.item == "qr-1"]
        self.assertEqual(qr, [(0, 9, False), (10, 19, True)])
        text = [(a.start, a.end, a.continued) for a in appearances if a.item == "text-1"]
        self.assertEqual(text, [(0, 3, False), (6, 9, False), (10, 13, True)])  # (16, 19) starts after frame 15
        self.assertEqual([a.start for a in sr.stream_appearances(truth, 1, 15) if a.item == "text-2"], [5])

    def test_owning_appearance(self):
        appearances = [sr.Appearance("a", "text", 10, 20, 0), sr.Appearance("a", "text", 40, 50, 0)]
        self.assertIs(sr.owning_appearance(appearances, 15, 5), appearances[0])  # under way
        self.assertIs(sr.owning_appearance(appearances, 24, 5), appearances[0])  # within the grace period
        self.assertIs(sr.owning_appearance(appearances, 30, 5), appearances[1])  # partly in view, before it starts
        self.assertIs(sr.owning_appearance(appearances, 5, 5), appearances[0])
        self.assertIsNone(sr.owning_appearance(appearances, 60, 5))
        # Entering only if the item is in the picture from the add to the start.
        self.assertIsNone(sr.owning_appearance(appearances, 30, 5, lambda frame, start: start - frame < 5))
        self.assertIs(sr.owning_appearance(appearances, 37, 5, lambda frame, start: start - frame < 5),
                      appearances[1])

    def test_present_runs(self):
        truth = make_truth()
        self.assertEqual(sr.present_runs(truth)["text-1"], [(0, 9)])  # hidden in 4-5 but in the picture
        self.assertEqual(sr.present_runs(truth)["text-2"], [(5, 8)])

    def test_entering_and_leaving_lines(self):
        # "leaver" is wholly in view in 0-3, then partly out in 4-9; "enterer" partly in 2-4, wholly in 5-9.
        frames = []
        for i in range(FRAMES):
            frame = [{"item": "leaver", "bounds": quad(100, 100, 200, 30), "visible": i <= 3}]
            if i >= 2:
                frame.append({"item": "enterer", "bounds": quad(100, 300, 200, 30), "visible": i >= 5})
            frames.append(frame)
        truth = st.parse_truth({"width": 640, "height": 640, "fps": 10, "frame_count": FRAMES, "frames": frames,
                                "items": [{"id": "leaver", "kind": "text", "transcript": "Going"},
                                          {"id": "enterer", "kind": "text", "transcript": "Coming"}]})
        sent = sr.sent_time_function([(100 + k / 10, k + 1) for k in range(40)], 10)
        adds = [(100.1, change(0, "text", quad(100, 100, 200, 30))),
                # the part still in view of the line leaving, reported as a new item: not the next loop's appearance
                (100.7, change(6, "text", quad(100, 100, 200, 30), item_id="remnant")),
                # the part in view of the line entering: its appearance about to start, 0 ms
                (100.4, change(3, "text", quad(100, 300, 200, 30), item_id="early"))]
        figures = sr.latency_figures(truth, adds, sent, grace_frames=1, frames=20, steady_from=0)  # 2 loops
        self.assertEqual(figures["unmatched_adds"], 1)
        self.assertEqual((figures["text"]["added"], figures["text"]["missed"]), (2, 2))
        self.assertEqual(figures["text"]["before_in_view"], 1)
        self.assertEqual(sorted(sample["ms"] for sample in figures["text"]["samples"]), [0.0, 100.0])

    def test_sent_time_interpolates_and_extrapolates(self):
        sent = sr.sent_time_function([(10.0, 3), (10.1, 6), (10.1, 6), (10.2, 9)], 30)
        self.assertAlmostEqual(sent(2), 10.0)  # frame 2 is the 3rd written
        self.assertAlmostEqual(sent(3), 10.0 + 0.1 / 3)
        self.assertAlmostEqual(sent(8), 10.2)
        self.assertAlmostEqual(sent(0), 10.0 - 2 / 30)
        self.assertAlmostEqual(sent(11), 10.2 + 3 / 30)
        with self.assertRaises(ValueError):
            sr.sent_time_function([], 30)

    def test_barcodes_match_by_payload_and_twins_by_box(self):
        truth = make_truth()
        self.assertEqual(sr.match_add(truth, change(12, "barcode", quad(101, 100, 80, 80), payload="alpha")), "qr-1")
        self.assertEqual(sr.match_add(truth, change(3, "barcode", quad(495, 100, 50, 50), payload="twin")), "twin-b")
        self.assertIsNone(sr.match_add(truth, change(3, "barcode", quad(100, 100, 80, 80), payload="beta")))

    def test_text_matches_by_overlap(self):
        truth = make_truth()
        self.assertEqual(sr.match_add(truth, change(6, "text", quad(110, 500, 180, 30))), "text-2")
        self.assertIsNone(sr.match_add(truth, change(6, "text", quad(400, 200, 100, 30))))
        self.assertIsNone(sr.match_add(truth, change(2, "text", quad(110, 500, 180, 30))))  # text-2 not there yet

    def test_latency_figures(self):
        truth = make_truth()
        # One frame every 0.1 s from t = 100: frame k sent at 100 + k / 10.
        sent = sr.sent_time_function([(100 + k / 10, k + 1) for k in range(40)], 10)
        adds = [
            # start-up: items visible from frame 0, added when LiveScan began (steady from frame 2)
            (100.35, change(1, "barcode", quad(101, 100, 80, 80), payload="alpha")),
            (100.35, change(1, "text", quad(100, 400, 200, 30))),
            # text-2 appears at 5, added at frame 6, arriving 0.25 s after frame 5 was sent
            (100.75, change(6, "text", quad(100, 500, 200, 30))),
            # text-2 added again in the same appearance: a duplicate
            (100.85, change(7, "text", quad(100, 500, 200, 30), item_id="y")),
            # second loop: qr-1 re-added at frame 11 (its appearance at 10 continues over the seam), 0.15 s
            (101.15, change(11, "barcode", quad(101, 100, 80, 80), payload="alpha")),
            # second loop: twin-a added before its appearance's frame was sent (clamped to 0)
            (100.95, change(10, "barcode", quad(300, 100, 50, 50), payload="twin")),
            # nothing like this in the truth
            (101.0, change(10, "barcode", quad(0, 0, 9, 9), payload="nope")),
        ]
        figures = sr.latency_figures(truth, adds, sent, grace_frames=1, frames=20, steady_from=2)
        barcode, text = figures["barcode"], figures["text"]
        self.assertEqual(figures["unmatched_adds"], 1)
        self.assertEqual(figures["duplicate_adds"], 1)
        # Barcodes: in loop 2 (appearances continued over the seam) qr-1 re-added after 150 ms, twin-a before its
        # frame was sent (0 ms); twin-b kept its item (no add owed); in loop 1 only start-up.
        self.assertEqual((barcode["appearances"], barcode["added"], barcode["missed"]), (2, 2, 0))
        self.assertEqual(barcode["continued_readded"], 2)
        self.assertEqual(barcode["before_in_view"], 1)
        self.assertAlmostEqual(barcode["median_ms"], 75)
        self.assertAlmostEqual(barcode["max_ms"], 150)
        self.assertEqual(len(barcode["startup_ms"]), 1)
        self.assertAlmostEqual(barcode["startup_ms"][0], 350)
        # Text: text-2 at 5 added after 250 ms; text-1 at 6 and 16 and text-2 at 15 missed; text-1 at 0 is start-up
        # and text-1 at 10 continues over the seam.
        self.assertAlmostEqual(text["median_ms"], 250)
        self.assertEqual(text["median_frames"], 1)
        self.assertEqual(text["added"], 1)
        self.assertEqual((text["appearances"], text["missed"]), (4, 3))
        self.assertEqual(len(text["startup_ms"]), 1)
        self.assertEqual(text["samples"][0], {"item": "text-2", "start": 5, "add_frame": 6, "ms": 250.0})

    def test_lag(self):
        sent = sr.sent_time_function([(100 + k / 10, k + 1) for k in range(40)], 10)
        figures = sr.lag_figures({0: 100.5, 3: 100.35, 4: 100.45, 5: 100.7}, sent, steady_from=3)
        self.assertEqual(figures["frames"], 3)
        self.assertAlmostEqual(figures["median_ms"], 50)
        self.assertAlmostEqual(figures["max_ms"], 200)


class ProcessedTests(unittest.TestCase):
    def test_lower_bound_from_frames_with_lines(self):
        figures = sr.processed_figures({0, 5, 10, 11, 12, 14, 20}, decoded=20, steady_from=10, fps=30,
                                       end_line={"event": "end", "frame": 19})
        self.assertEqual((figures["window"], figures["processed"], figures["dropped"]), (10, 4, 6))
        self.assertAlmostEqual(figures["fps"], 12)

    def test_end_line_counts_win(self):
        figures = sr.processed_figures({1}, decoded=100, steady_from=10, fps=30,
                                       end_line={"frame": 99, "frames_processed": 97, "frames_dropped": 3})
        self.assertEqual((figures["processed"], figures["window"], figures["method"]), (97, 100, "end line"))
        self.assertAlmostEqual(figures["fps"], 29.1)


class MemoryTests(unittest.TestCase):
    def test_slope(self):
        self.assertAlmostEqual(sr.slope([(0, 1), (1, 3), (2, 5)]), 2)
        self.assertIsNone(sr.slope([(1, 1)]))

    def test_rss_trend_uses_the_second_half(self):
        samples = [(10, 100), (20, 150), (30, 150), (40, 151), (50, 152), (60, 153)]
        trend = sr.rss_trend(samples, 60)
        self.assertEqual((trend["start"], trend["peak"], trend["end"]), (100, 153, 153))
        self.assertAlmostEqual(trend["slope_mb_per_min"], 6)  # 1 MB per 10 s from 30 s on
        self.assertIsNone(sr.rss_trend([], 60)["peak"])


def video(fps, cer_livescan=0.01, cer_tesseract=0.3, rss=150):
    runs = {tool: {"fps": value, "peak_rss_mb": rss if tool.startswith("livescan") else 50}
            for tool, value in fps.items()}
    result = {"runs": runs, "cer": {"livescan-text": {"cer": cer_livescan}, "tesseract": {"cer": cer_tesseract}}}
    result["ratios"] = sr.video_ratios(result)
    return result


def live(fps=30.0, barcode_ms=80, text_ms=300, rss=160):
    return {"processed": {"fps": fps, "dropped": 0, "window": 100},
            "latency": {"barcode": {"median_ms": barcode_ms, "added": 5, "missed": 0},
                        "text": {"median_ms": text_ms, "added": 5, "missed": 0}},
            "run": {"peak_rss_mb": rss}}


GOOD = {"decode": 100, "livescan-barcodes": 90, "zbarimg": 10, "zxingreader": 30, "livescan-text": 40,
        "tesseract": 3}


def speed(ratio: float, rss: float = 200) -> dict:
    """A speed run (bench_realtime.speed_run) whose median ratio is `ratio`."""
    return {"frames": 1800, "rounds": 3, "decode_seconds": [4.0, 4.5, 5.0], "barcodes_seconds": [4.5 / ratio] * 3,
            "barcodes_peak_rss_mb": rss, "decode_fps": 400.0, "barcodes_fps": 400.0 * ratio, "ratio": ratio}


class TargetTests(unittest.TestCase):
    def verdicts(self, results):
        return {target["target"]: target["verdict"] for target in sr.evaluate_targets(results)}

    def test_ratios(self):
        ratios = video(GOOD)["ratios"]
        self.assertAlmostEqual(ratios["barcodes_vs_decode"], 0.9)
        self.assertAlmostEqual(ratios["barcodes_vs_zbarimg"], 9)
        self.assertAlmostEqual(ratios["barcodes_vs_zxingreader"], 3)
        self.assertAlmostEqual(ratios["text_vs_tesseract"], 40 / 3)
        self.assertIsNone(video(dict(GOOD, zbarimg=None))["ratios"]["barcodes_vs_zbarimg"])

    def test_all_pass(self):
        soak = {"seconds": 600, "rss": {"slope_mb_per_min": -0.1, "start": 150, "end": 150},
                "run": {"peak_rss_mb": 170}}
        verdicts = self.verdicts({"videos": {"720p": video(GOOD), "1080p": video(GOOD)}, "live": live(),
                                  "soak": soak, "speed": speed(0.85)})
        self.assertEqual(set(verdicts.values()), {"PASS"}, verdicts)
        self.assertEqual(len(verdicts), 12)

    def test_failures_and_skip(self):
        results = {"videos": {"720p": video(dict(GOOD, **{"livescan-text": 29, "decode": 200}), cer_livescan=0.4),
                              "1080p": video(dict(GOOD, zbarimg=None))},
                   "live": live(fps=28.9, barcode_ms=None, text_ms=500, rss=401), "speed": speed(0.45, rss=301)}
        verdicts = self.verdicts(results)
        self.assertEqual(verdicts["1800-frame 720p: LiveScan barcodes-only >= 0.8x `ffmpeg -threads 1` decode-only "
                                  "(medians of 3 alternating runs)"], "FAIL")
        self.assertEqual(verdicts["720p: LiveScan text+barcodes >= 30 fps"], "FAIL")
        # 9.7x, and a higher CER than tesseract: fails on both counts.
        self.assertEqual(verdicts["720p: LiveScan text+barcodes >= 10x per-frame tesseract at equal or lower CER"],
                         "FAIL")
        self.assertEqual(verdicts["1080p: LiveScan barcodes-only >= 5x zbarimg"], "FAIL")  # not measured
        self.assertEqual(verdicts["1080p: LiveScan text+barcodes >= 10x per-frame tesseract at equal or lower CER"],
                         "PASS")
        self.assertEqual(verdicts["live 720p30: held at 30 fps (processed >= 29 fps)"], "FAIL")
        self.assertEqual(verdicts["live: median barcode add latency <= 100 ms"], "FAIL")
        self.assertEqual(verdicts["live: median text add latency <= 500 ms"], "PASS")
        # The speed runs read barcodes only: 300 MB; the live run reads text too: 400 MB.
        self.assertEqual(verdicts["RSS <= 300 MB in every barcodes-only LiveScan run"], "FAIL")
        self.assertEqual(verdicts["RSS <= 400 MB in every LiveScan run that reads text"], "FAIL")
        self.assertEqual(verdicts["soak: RSS flat"], "SKIP")

    def test_a_text_scan_is_held_to_400_mb_and_a_barcodes_only_one_to_300(self):
        verdicts = self.verdicts({"videos": {"720p": video(GOOD, rss=350)}, "live": live(rss=350)})
        self.assertEqual(verdicts["RSS <= 300 MB in every barcodes-only LiveScan run"], "FAIL")
        self.assertEqual(verdicts["RSS <= 400 MB in every LiveScan run that reads text"], "PASS")

    def test_soak_trend(self):
        def soak_verdict(seconds, slope):
            soak = {"seconds": seconds, "rss": {"slope_mb_per_min": slope, "start": 150, "end": 151},
                    "run": {"peak_rss_mb": 160}}
            verdicts = self.verdicts({"videos": {}, "soak": soak})
            return next(verdict for target, verdict in verdicts.items() if target.startswith("soak"))

        self.assertEqual(soak_verdict(600, 0.4), "PASS")
        self.assertEqual(soak_verdict(600, -0.6), "FAIL")  # shrinking that fast is not flat either
        self.assertEqual(soak_verdict(600, None), "FAIL")
        self.assertEqual(soak_verdict(60, 6.0), "SKIP")  # warm-up dominates a minute

    def test_lower_cer_alone_does_not_pass_a_slow_text_path(self):
        slow = dict(GOOD, **{"livescan-text": 20})
        verdicts = self.verdicts({"videos": {"720p": video(slow)}})
        self.assertEqual(verdicts["720p: LiveScan text+barcodes >= 10x per-frame tesseract at equal or lower CER"],
                         "FAIL")

    def test_render_does_not_fail_on_missing_figures(self):
        results = {"videos": {"720p": {**video(dict(GOOD, zbarimg=None)), "runs": {
            "zbarimg": {"frames": None, "seconds": 1.0, "fps": None, "peak_rss_mb": 20, "exit": 1, "note": "failed"}}}},
            "notes": ["a note"]}
        results["targets"] = sr.evaluate_targets(results)
        text = sr.render(results)
        self.assertIn("zbarimg", text)
        self.assertIn("FAIL  720p: LiveScan barcodes-only >= 5x zbarimg", text)
        self.assertIn("FAIL  RSS <= 300 MB in every barcodes-only LiveScan run  (got n/a)", text)

    def test_a_live_view_more_than_5_percent_slower_fails(self):
        def run(fps, processed):
            return {"processed": processed, "dropped": 900 - processed, "fps": fps, "cpu_cores": 1.5, "wall": 30,
                    "end": "interrupted"}
        runs = {"plain": run(30.0, 900), "serve": dict(run(29.0, 870), pictures_per_second=14.0,
                                                       log_lines_streamed=500),
                "preview": run(28.0, 840)}
        for view in ("serve", "preview"):
            runs[view]["slower"] = (30.0 - runs[view]["fps"]) / 30.0
        results = {"videos": {}, "view_cost": {"seconds": 30, "cores": 2, "runs": runs, "target_slower": 0.05}}
        verdicts = self.verdicts(results)
        self.assertEqual(verdicts["live 720p30 with --serve <= 5% slower"], "PASS")  # 3.3 %
        self.assertEqual(verdicts["live 720p30 with --preview <= 5% slower"], "FAIL")  # 6.7 %
        results["targets"] = sr.evaluate_targets(results)
        text = sr.render(results)
        self.assertIn("--serve, 1 viewer", text)
        self.assertIn("14.0 pictures/s", text)
        self.assertIn("+6.7% slower", text)


if __name__ == "__main__":
    unittest.main()
