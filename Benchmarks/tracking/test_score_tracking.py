"""Tests for score_tracking.py on handmade ground truth and event logs.

    python3 -m unittest discover -s Benchmarks/tracking

Parsing, track reconstruction, don't-care handling, CER and latency run on a bare Python; the tests that need
py-motmetrics (IDF1, ID switches, the command line) are skipped when it is not importable.
"""
import importlib.util
import json
import os
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import score_tracking as st  # noqa: E402

HAVE_MOTMETRICS = importlib.util.find_spec("motmetrics") is not None
FRAMES = 10


def quad(x, y, w, h):
    return [[x, y], [x + w, y], [x + w, y + h], [x, y + h]]


def make_truth():
    """Two QR codes and one text line over 10 frames; qr-2 enters fully at frame 2; text-1 is occluded in 8-9."""
    frames = []
    for i in range(FRAMES):
        frame = [{"item": "qr-1", "bounds": quad(100 + 2 * i, 100, 80, 80), "visible": True},
                 {"item": "qr-2", "bounds": quad(-40 + 30 * i, 300, 80, 80), "visible": i >= 2}]
        frame.append({"item": "text-1", "bounds": quad(400, 500, 200, 30), "visible": i < 8})
        frames.append(frame)
    return {"width": 640, "height": 640, "fps": 30, "frame_count": FRAMES,
            "items": [{"id": "qr-1", "kind": "barcode", "symbology": "qr", "payload": "alpha"},
                      {"id": "qr-2", "kind": "barcode", "symbology": "qr", "payload": "beta"},
                      {"id": "text-1", "kind": "text", "transcript": "Aisle 7"}],
            "frames": frames}


def change(event, frame, item_id, kind, bounds, seen_frame=None, **values):
    line = {"event": event, "frame": frame, "time": frame / 30, "id": item_id, "kind": kind}
    if kind == "barcode":
        line.update({"symbology": "qr", "payload": values.get("payload", "")})
        if "payload_b64" in values:
            line["payload_b64"] = values["payload_b64"]
    else:
        line["transcript"] = values.get("transcript", "")
    line.update({"confidence": 1.0, "bounds": bounds, "seen_frame": frame if seen_frame is None else seen_frame,
                 "seen_time": 0})
    return json.dumps(line)


def start_line():
    return json.dumps({"event": "start", "v": 1, "source": "x.mp4", "width": 640, "height": 640, "fps": 30,
                       "config": {}})


def end_line(frame=FRAMES - 1):
    return json.dumps({"event": "end", "frame": frame, "time": frame / 30, "reason": "eof"})


def perfect_lines(qr1_id="a", qr1_id_from_5=None, text="Aisle 7"):
    """A log that reports every visible object in the frame it becomes visible, moving with it."""
    truth = make_truth()
    lines = [start_line()]
    lines.append(change("add", 0, qr1_id, "barcode", quad(100, 100, 80, 80), payload="alpha"))
    lines.append(change("add", 0, "t", "text", quad(400, 500, 200, 30), transcript=text))
    for i in range(1, FRAMES):
        if qr1_id_from_5 and i == 5:
            lines.append(change("remove", 5, qr1_id, "barcode", quad(108, 100, 80, 80), seen_frame=4,
                                payload="alpha"))
            lines.append(change("add", 5, qr1_id_from_5, "barcode", quad(110, 100, 80, 80), payload="alpha"))
        else:
            current = qr1_id_from_5 if qr1_id_from_5 and i > 5 else qr1_id
            lines.append(change("update", i, current, "barcode", quad(100 + 2 * i, 100, 80, 80), payload="alpha"))
        if i == 2:
            lines.append(change("add", 2, "b", "barcode", truth["frames"][2][1]["bounds"], payload="beta"))
        elif i > 2:
            lines.append(change("update", i, "b", "barcode", truth["frames"][i][1]["bounds"], payload="beta"))
    lines.append(end_line())
    return lines


class ParsingTests(unittest.TestCase):
    def test_garbage_and_cut_lines_are_counted_and_skipped(self):
        lines = perfect_lines()
        lines.insert(3, "this is not json")
        lines.insert(5, '{"event":"update","frame":3,"id":"a","kind":"barc')  # cut mid-line
        lines.insert(6, '{"event":"update","frame":3,"id":"a","kind":"barcode"}')  # no bounds
        lines.insert(7, "")  # blank lines are not garbage
        log = st.parse_event_log(lines)
        self.assertEqual(log.skipped, 3)
        self.assertEqual(log.lines, len(lines) - 1)
        self.assertEqual(len(log.changes), len(perfect_lines()) - 2)
        self.assertEqual(log.end_reason, "eof")

    def test_reconstruction_ends_at_the_remove_seen_frame_and_keeps_the_last_bounds(self):
        lines = [start_line(),
                 change("add", 2, "a", "barcode", quad(0, 0, 10, 10), payload="x"),
                 change("update", 4, "a", "barcode", quad(20, 0, 10, 10), payload="x"),
                 change("remove", 9, "a", "barcode", quad(20, 0, 10, 10), seen_frame=6, payload="x"),
                 change("add", 3, "t", "text", quad(0, 50, 10, 10), transcript="hi"),
                 end_line(12)]
        items = st.reconstruct(st.parse_event_log(lines))
        a, t = items["a"], items["t"]
        self.assertIsNone(a.box_at(1))
        self.assertEqual(a.box_at(3), (0, 0, 10, 10))
        self.assertEqual(a.box_at(6), (20, 0, 30, 10))
        self.assertIsNone(a.box_at(7))
        self.assertEqual((t.add_frame, t.last_frame), (3, 12))

    def test_payload_b64_is_compared_as_bytes(self):
        log = st.parse_event_log([change("add", 0, "a", "barcode", quad(0, 0, 1, 1), payload="\ufffd",
                                         payload_b64="/w==")])
        self.assertEqual(log.changes[0].payload, b"\xff")

    def test_truth_bounds_become_axis_aligned_boxes_clipped_to_the_image(self):
        truth = st.parse_truth(make_truth())
        self.assertEqual(truth.frames[0][0].box, (100, 100, 180, 180))
        self.assertEqual(truth.frames[0][1].box, (0, 300, 40, 380))
        self.assertEqual(truth.first_visible_frame(), {"qr-1": 0, "qr-2": 2, "text-1": 0})


class MatchingInputTests(unittest.TestCase):
    def test_prediction_on_a_dont_care_box_is_dropped_not_a_false_positive(self):
        truth = st.parse_truth(make_truth())
        # "b" reports the visible part of qr-2 from frame 0, while it is still partly outside the frame (don't care):
        # IoU 0.5 with the clipped box, only 0.25 with the whole one.
        lines = [start_line(), change("add", 0, "b", "barcode", quad(0, 300, 20, 80), payload="beta"), end_line()]
        inputs = st.frame_inputs(truth, st.reconstruct(st.parse_event_log(lines)), "barcode", 0.5)
        self.assertEqual((inputs[0].dropped, inputs[2].dropped), (1, 0))
        self.assertEqual(inputs[0].hypotheses, [])
        self.assertEqual(inputs[0].objects, ["qr-1"])
        self.assertEqual(inputs[2].hypotheses, ["b"])  # visible from frame 2: now a false positive

    def test_kinds_never_match_each_other(self):
        truth = st.parse_truth(make_truth())
        lines = [start_line(), change("add", 0, "x", "text", quad(100, 100, 80, 80), transcript="alpha"), end_line()]
        inputs = st.frame_inputs(truth, st.reconstruct(st.parse_event_log(lines)), None, 0.5)
        row = inputs[0].objects.index("qr-1")
        self.assertEqual(inputs[0].distances[row], [None])


class FigureTests(unittest.TestCase):
    def setUp(self):
        self.truth = st.parse_truth(make_truth())

    def test_levenshtein(self):
        self.assertEqual(st.edit_distance("Aisle 7", "Aisle 7"), 0)
        self.assertEqual(st.edit_distance("Aisle 1", "Aisle 7"), 1)
        self.assertEqual(st.edit_distance("", "abc"), 3)
        self.assertEqual(st.edit_distance("kitten", "sitting"), 3)

    def test_cer_counts_an_unmatched_line_as_all_wrong_and_uses_the_most_matched_prediction(self):
        lines = [start_line(), change("add", 0, "t1", "text", quad(400, 500, 200, 30), transcript="Aisle 1"),
                 change("add", 0, "t2", "text", quad(400, 500, 200, 30), transcript="Aisle 7"), end_line()]
        predictions = st.reconstruct(st.parse_event_log(lines))
        matches = [(0, "text-1", "t2"), (1, "text-1", "t1"), (2, "text-1", "t1")]
        figures = st.transcript_figures(self.truth, predictions, matches)
        self.assertEqual((figures["edits"], figures["characters"]), (1, 7))
        self.assertEqual(st.transcript_figures(self.truth, predictions, [])["cer"], 1.0)

    def test_latency_is_add_frame_minus_first_visible_frame(self):
        lines = [start_line(), change("add", 5, "b", "barcode", quad(110, 300, 80, 80), payload="beta"), end_line()]
        predictions = st.reconstruct(st.parse_event_log(lines))
        figures = st.latency_figures(self.truth, predictions, [(5, "qr-2", "b")], "barcode")
        self.assertEqual(figures["per_item"], {"qr-2": 3})
        self.assertEqual(figures["never_reported"], 1)  # qr-1

    def test_an_item_added_before_it_is_fully_visible_has_latency_zero(self):
        lines = [start_line(), change("add", 1, "b", "barcode", quad(0, 300, 70, 80), payload="beta"), end_line()]
        predictions = st.reconstruct(st.parse_event_log(lines))
        figures = st.latency_figures(self.truth, predictions, [(2, "qr-2", "b")], "barcode")
        self.assertEqual((figures["median"], figures["per_item"], figures["added_before_visible"]),
                         (0, {"qr-2": -1}, 1))

    def test_misreads_are_payloads_no_ground_truth_item_carries(self):
        lines = [start_line(), change("add", 0, "a", "barcode", quad(100, 100, 80, 80), payload="alpha"),
                 change("update", 1, "a", "barcode", quad(102, 100, 80, 80), payload="alpah"), end_line()]
        predictions = st.reconstruct(st.parse_event_log(lines))
        figures = st.payload_figures(self.truth, predictions, [(0, "qr-1", "a"), (1, "qr-1", "a")])
        self.assertEqual((figures["exact"], figures["total"], figures["misreads"]), (0, 2, 1))


@unittest.skipUnless(HAVE_MOTMETRICS, "py-motmetrics is not installed (scripts/bench-tracking.sh installs it)")
class MotMetricsTests(unittest.TestCase):
    def setUp(self):
        self.truth = st.parse_truth(make_truth())

    def test_perfect_log_scores_idf1_one_and_no_switches(self):
        result = st.score(self.truth, st.parse_event_log(perfect_lines()))
        for kind in ("barcode", "text", "overall"):
            figures = result["kinds"][kind]
            self.assertAlmostEqual(figures["idf1"], 1.0, msg=kind)
            self.assertAlmostEqual(figures["mota"], 1.0, msg=kind)
            self.assertEqual(figures["num_switches"], 0, msg=kind)
            self.assertEqual(figures["num_false_positives"], 0, msg=kind)
        barcode = result["kinds"]["barcode"]
        self.assertEqual((barcode["payload"]["exact"], barcode["payload"]["total"]), (2, 2))
        self.assertEqual(barcode["add_latency"]["median"], 0)
        self.assertEqual(result["kinds"]["text"]["transcript"]["cer"], 0)
        self.assertTrue(result["pass"])
        # text-1 is occluded in frames 8-9 yet still reported: don't care, so no false positive.
        self.assertEqual(result["kinds"]["text"]["dropped_dont_care"], 2)

    def test_an_identity_change_midway_is_one_switch(self):
        result = st.score(self.truth, st.parse_event_log(perfect_lines(qr1_id_from_5="a2")))
        barcode = result["kinds"]["barcode"]
        self.assertEqual(barcode["num_switches"], 1)
        self.assertLess(barcode["idf1"], 1.0)
        self.assertEqual(barcode["predicted_items"], 3)
        self.assertEqual(result["kinds"]["overall"]["num_switches"], 1)
        failed = [target["target"] for target in result["targets"] if not target["pass"]]
        self.assertIn("barcode ID switches == 0", failed)

    def test_command_line_check_exit_codes_and_json(self):
        with tempfile.TemporaryDirectory() as directory:
            truth = os.path.join(directory, "scene.truth.json")
            with open(truth, "w") as file:
                json.dump(make_truth(), file)
            script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "score_tracking.py")
            for lines, expected in ((perfect_lines(), 0), (perfect_lines(text="Aisle 1"), 1)):
                events = os.path.join(directory, "scene.events.jsonl")
                with open(events, "w") as file:
                    file.write("\n".join(lines) + "\n")
                out = os.path.join(directory, "score.json")
                run = subprocess.run([sys.executable, script, truth, events, "--check", "--json", out],
                                     capture_output=True, text=True)
                self.assertEqual(run.returncode, expected, run.stdout + run.stderr)
                self.assertIn("FAIL" if expected else "PASS", run.stdout)
                with open(out) as file:
                    self.assertEqual(json.load(file)["pass"], expected == 0)


if __name__ == "__main__":
    unittest.main()
