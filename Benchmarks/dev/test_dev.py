"""Tests for silver.py, report.py, scene_text_video.py and shaken_signs.py on handmade labels, event logs and
figures (bare Python 3.11).

    python3 -m unittest discover -s Benchmarks/dev
"""
import json
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import report  # noqa: E402
import scene_text_video  # noqa: E402
import shaken_signs  # noqa: E402
import silver  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tracking"))
import score_tracking as st  # noqa: E402


def quad(x, y, size=50):
    return [[x, y], [x + size, y], [x + size, y + size], [x, y + size]]


def labels(frames, total):
    """Silver labels: frames[i] = [(text, x, y)]."""
    return silver.parse_silver({
        "frames_total": total,
        "frames": [{"frame": index, "codes": [{"format": "QR Code", "text": text, "corners": quad(x, y)}
                                               for text, x, y in codes]}
                   for index, codes in enumerate(frames)]})


def change(event, frame, item_id, x, y, payload=None, transcript=None, seen_frame=None):
    line = {"event": event, "frame": frame, "id": item_id, "bounds": quad(x, y),
            "seen_frame": frame if seen_frame is None else seen_frame}
    if transcript is None:
        line.update({"kind": "barcode", "symbology": "qr", "payload": payload})
    else:
        line.update({"kind": "text", "transcript": transcript})
    return json.dumps(line)


def event_log(changes, last_frame):
    lines = [json.dumps({"event": "start", "v": 1, "source": "x.mp4", "width": 640, "height": 480, "fps": 30,
                         "config": {}}), *changes,
             json.dumps({"event": "end", "frame": last_frame, "reason": "eof", "frames_processed": last_frame + 1})]
    return st.parse_event_log(lines)


class SilverTests(unittest.TestCase):
    def setUp(self):
        # "A" at (0, 0) in frames 0-9, "B" at (200, 0) in frames 5-9, "rare" once in frame 3.
        frames = [[("A", 0, 0)] + ([("B", 200, 0)] if index >= 5 else []) + ([("rare", 400, 0)] if index == 3
                                                                              else [])
                  for index in range(10)]
        self.labels = labels(frames, 10)

    def test_trusted_payloads_need_five_frames(self):
        self.assertEqual(self.labels.trusted, {b"A", b"B"})
        self.assertEqual(self.labels.payload_frames[b"rare"], 1)

    def test_perfect_log(self):
        log = event_log([change("add", 0, "a", 0, 0, "A"), change("add", 5, "b", 200, 0, "B")], 9)
        figures = silver.score(self.labels, log)
        self.assertEqual((figures["payloads_found"], figures["trusted_payloads"]), (2, 2))
        self.assertEqual(figures["payload_recall"], 1.0)
        self.assertEqual(figures["false_payloads"], [])
        self.assertEqual((figures["decodes_matched"], figures["silver_decodes"]), (15, 15))
        self.assertEqual(figures["first_report_lag_median"], 0)

    def test_missing_false_and_rare_payloads(self):
        log = event_log([change("add", 2, "a", 0, 0, "A"), change("add", 3, "r", 400, 0, "rare"),
                         change("add", 4, "x", 300, 300, "X")], 9)
        figures = silver.score(self.labels, log)
        self.assertEqual(figures["payload_recall"], 0.5)
        self.assertEqual(figures["missing_payloads"], ["B"])
        self.assertEqual(figures["false_payloads"], [{"payload": "X", "silver_frames": 0},
                                                     {"payload": "rare", "silver_frames": 1}])
        self.assertEqual(figures["decodes_matched"], 8)  # A in frames 2-9; the rare code is not counted
        self.assertEqual(figures["first_report_lag_median"], 2)

    def test_frame_recall_needs_payload_box_and_life(self):
        # "A" reported in the wrong place until frame 4, then moved onto it; removed at 9, last seen at 7.
        # "B" reported with A's payload: it may not stand in for B, nor match A twice in a frame.
        log = event_log([change("add", 0, "a", 300, 300, "A"), change("update", 4, "a", 0, 0, "A"),
                         change("remove", 9, "a", 0, 0, "A", seen_frame=7), change("add", 5, "b", 200, 0, "A"),
                         change("add", 0, "t", 0, 0, transcript="A")], 9)
        figures = silver.score(self.labels, log)
        self.assertEqual(figures["decodes_matched"], 4)  # A in frames 4-7
        self.assertAlmostEqual(figures["frame_recall"], 4 / 15)
        self.assertEqual(figures["missing_payloads"], ["B"])

    def test_two_identical_codes_need_two_items(self):
        twins = labels([[("A", 0, 0), ("A", 200, 0)]] * 5, 5)
        one = silver.score(twins, event_log([change("add", 0, "a", 0, 0, "A")], 4))
        two = silver.score(twins, event_log([change("add", 0, "a", 0, 0, "A"), change("add", 0, "b", 200, 0, "A")], 4))
        self.assertEqual((one["decodes_matched"], two["decodes_matched"]), (5, 10))

    def test_bad_labels_raise(self):
        with self.assertRaises(silver.SilverError):
            silver.parse_silver({"frames_total": 1, "frames": [{"frame": 3, "codes": []}]})
        with self.assertRaises(silver.SilverError):
            silver.parse_silver({"frames": []})

    def test_shown_escapes_terminal_controls(self):
        self.assertEqual(silver.shown("a\x1b]52;x\u202e".encode()), "a\\u001b]52;x\\u202e")
        self.assertEqual(silver.shown(b"\xff"), "\\xff")
        self.assertEqual(len(silver.shown(b"x" * 100)), 48)


def figures(**overrides):
    base = {"idf1": 1.0, "mota": 1.0, "id_switches": 0, "ghost_tracks": 0, "content": 1.0, "add_latency_median": 0.0}
    base.update(overrides)
    return base


def run(scores, error=None):
    return {"fps": 30.0, "error": error, "warnings": [], "scores": scores}


class ReportTests(unittest.TestCase):
    def test_barcode_targets(self):
        self.assertTrue(all(ok for *_, ok in report.evaluate("barcode", figures())))
        failed = {figure for figure, _, _, ok in report.evaluate(
            "barcode", figures(idf1=0.969, id_switches=1, ghost_tracks=1, content=0.99, add_latency_median=2.5))
            if not ok}
        self.assertEqual(failed, {"idf1", "id_switches", "ghost_tracks", "content", "add_latency_median"})

    def test_text_targets(self):
        verdicts = report.evaluate("text", figures(idf1=0.90, content=0.98, id_switches=3, add_latency_median=10))
        self.assertTrue(all(ok for *_, ok in verdicts))  # thresholds are inclusive; text ID switches are not judged
        self.assertFalse(dict((f, ok) for f, _, _, ok in report.evaluate("text", figures(content=0.979)))["content"])

    def test_missing_figures_fail(self):
        self.assertFalse(any(ok for *_, ok in report.evaluate("barcode", None)))
        self.assertFalse(dict((f, ok) for f, _, _, ok in report.evaluate(
            "barcode", figures(add_latency_median=None)))["add_latency_median"])

    def test_reference_gap(self):
        self.assertEqual(report.reference_gap(figures(idf1=0.99), figures(idf1=1.0))[1], True)
        self.assertEqual(report.reference_gap(figures(idf1=0.989), figures(idf1=1.0))[1], False)
        gap, ok = report.reference_gap(figures(idf1=1.0), figures(idf1=0.9))
        self.assertAlmostEqual(gap, 0.1)
        self.assertTrue(ok)
        self.assertEqual(report.reference_gap(None, figures()), (None, False))

    def test_only_the_default_level_is_judged(self):
        scene = {"name": "s", "kinds": ["barcode"],
                 "runs": {"fast": run({"barcode": figures(idf1=0.5)}), "balanced": run({"barcode": figures()}),
                          "accurate": run({"barcode": figures(idf1=0.995)})}}
        rows, notes, verdicts = report.scene_rows(scene)
        self.assertEqual([row[1] for row in rows], ["fast", "balanced", "accurate", "vs accurate"])
        self.assertNotIn("PASS", " ".join(rows[0] + rows[2]))
        self.assertEqual(rows[1][3], "1.000 PASS")
        self.assertEqual(rows[3][3], "+0.005 PASS")
        self.assertEqual(len(verdicts), len(report.TARGETS["barcode"]) + 1)
        self.assertTrue(all(ok for _, ok, _ in verdicts))
        self.assertEqual(notes, [])

    def test_failed_scan_fails_its_targets(self):
        scene = {"name": "s", "kinds": ["text"],
                 "runs": {"balanced": run({}, error="livescan exited with -6"), "accurate": run({"text": figures()})}}
        rows, notes, verdicts = report.scene_rows(scene)
        self.assertEqual(rows[0][3], "n/a FAIL")
        self.assertEqual(rows[-1][3], "n/a FAIL")
        self.assertFalse(any(ok for _, ok, _ in verdicts))
        self.assertIn("livescan exited with -6", notes[0])

    def test_videos_table(self):
        result = {"frames_labelled": 10, "frames_scanned": 10, "trusted_payloads": 2, "payloads_found": 1,
                  "payload_recall": 0.5, "missing_payloads": ["B"], "false_payloads": [{"payload": "X",
                                                                                        "silver_frames": 0}],
                  "frame_recall": 0.25, "first_report_lag_median": 1.5, "first_report_lag_max": 2}
        text = report.render_videos([{"name": "qrcode", "fps": 40.0, "error": None, "figures": result}])
        self.assertIn("1/2 FAIL", text)
        self.assertIn("1 FAIL", text)
        self.assertIn("1.5/2", text)
        self.assertIn("never reported: 'B'", text)
        self.assertIn("false payload 'X'", text)




class SceneTextVideoTests(unittest.TestCase):
    ENTRIES = [{"file": "images/a.jpg", "regions": [{"text": "Grand Hotel", "dont_care": False},
                                                    {"text": "###", "dont_care": True}]},
               {"file": "images/b.jpg", "regions": [{"text": "EXIT", "dont_care": False}]}]

    def test_each_photos_items_count_for_that_photo_only(self):
        events = [{"event": "add", "kind": "text", "id": "1", "file": "/x/images/a.jpg", "transcript": "Grand Hote"},
                  {"event": "update", "kind": "text", "id": "1", "file": "/x/images/a.jpg", "transcript": "Grand Hotel"},
                  {"event": "add", "kind": "text", "id": "2", "file": "/x/images/a.jpg", "transcript": "EXIT"},
                  {"event": "remove", "kind": "text", "id": "1", "file": "/x/images/a.jpg"},
                  {"event": "add", "kind": "barcode", "id": "3", "file": "/x/images/b.jpg", "payload": "EXIT"}]
        # a.jpg: grand, hotel found (the last transcript); exit is b.jpg's word, read in a.jpg: not b's, and long
        # words grand, hotel correct, exit wrong for a.jpg. The barcode is no text.
        self.assertEqual(scene_text_video.still_words(self.ENTRIES, events), (2, 2, 3))

    def test_the_video_must_keep_the_stills_recall_and_precision(self):
        stills = {"recall": 0.6, "precision": 0.8}
        ok = scene_text_video.verdicts({"recall": 0.58, "precision": 0.8}, stills)
        self.assertEqual([passed for _, passed, _ in ok], [True, True])
        low = scene_text_video.verdicts({"recall": 0.56, "precision": 0.85}, stills)
        self.assertEqual([passed for _, passed, _ in low], [False, True])
        self.assertIn("0.93x", low[0][2])
        imprecise = scene_text_video.verdicts({"recall": 0.6, "precision": 0.7}, stills)
        self.assertEqual([passed for _, passed, _ in imprecise], [True, False])
        self.assertEqual([passed for _, passed, _ in scene_text_video.verdicts(None, stills)], [False])
        late = scene_text_video.verdicts({"recall": 0.6, "precision": 0.8}, stills,
                                         {"latency_p90": 11, "latency_median": 11})
        self.assertEqual([passed for _, passed, _ in late], [True, True, False])
        self.assertTrue(scene_text_video.verdicts({"recall": 0.6, "precision": 0.8}, stills,
                                                  {"latency_p90": 10, "latency_median": 9})[2][1])

    def test_the_scans_end_does_not_remove_the_last_photos_items(self):
        log = [{"event": "start", "v": 1},
               {"event": "add", "frame": 3, "id": "1", "kind": "text", "transcript": "Grand Hotel"},
               {"event": "remove", "frame": 40, "id": "1", "kind": "text"},
               {"event": "add", "frame": 50, "id": "2", "kind": "text", "transcript": "EXIT"},
               {"event": "remove", "frame": 89, "id": "2", "kind": "text"},
               {"event": "end", "frame": 89, "reason": "eof"}]
        events = scene_text_video.icdar_video.text_events(json.dumps(line) for line in log)
        self.assertEqual([(e["event"], e["id"]) for e in events], [("add", "1"), ("remove", "1"), ("add", "2")])
        totals, _ = scene_text_video.icdar_video.score(self.ENTRIES, events, 45)
        self.assertEqual(totals["settled"][0], 1)  # exit, alive at b.jpg's last frame; a.jpg's item had left

    def test_items_holding_no_labelled_word_are_counted(self):
        # Video: a.jpg's segment ends with "Grand Hotel" and "oe" alive; b.jpg's with "EXIT" and "Hotel" (a word of
        # a.jpg's labels, none of b.jpg's) alive. Stills, all for a.jpg: "Grand", "ae =" and "EXIT" (b.jpg's word).
        video = [{"event": "add", "frame": 1, "id": "1", "kind": "text", "transcript": "Grand Hotel"},
                 {"event": "add", "frame": 2, "id": "2", "kind": "text", "transcript": "oe"},
                 {"event": "remove", "frame": 46, "id": "1"}, {"event": "remove", "frame": 46, "id": "2"},
                 {"event": "add", "frame": 50, "id": "3", "kind": "text", "transcript": "EXIT"},
                 {"event": "add", "frame": 51, "id": "4", "kind": "text", "transcript": "Hotel"}]
        totals, _ = scene_text_video.icdar_video.score(self.ENTRIES, video, 45)
        self.assertEqual(totals["items"], [4, 2])
        stills = [{"event": "add", "kind": "text", "id": str(k), "file": "/x/images/a.jpg", "transcript": text}
                  for k, text in enumerate(["Grand", "ae =", "EXIT"])]
        self.assertEqual(scene_text_video.still_items(self.ENTRIES, stills), (3, 2))
        table = scene_text_video.render({"video": {**scene_text_video.figures(1, 3, 1, 1, (4, 2)), "fps": 30,
                                                   "latency_median": 1, "latency_p90": 2}})
        self.assertIn("| 4 / 2 | 1 / 2 |", table)

    def test_each_fold_counts_its_photos_only(self):
        # Photo 0 (a.jpg) is read in its segment of the video, photo 1 (b.jpg) is not; the stills read both.
        video = [{"event": "add", "frame": 1, "id": "1", "kind": "text", "transcript": "Grand Hotel"},
                 {"event": "remove", "frame": 50, "id": "1"}]
        stills = [{"event": "add", "kind": "text", "id": "1", "file": "/x/images/a.jpg", "transcript": "Grand Hotel"},
                  {"event": "add", "kind": "text", "id": "2", "file": "/x/images/b.jpg", "transcript": "EXIT"}]
        folds = scene_text_video.fold_figures(self.ENTRIES, video + [{"event": "add", "frame": 46, "id": "3",
                                                                      "kind": "text", "transcript": "Gate"}], stills)
        self.assertEqual(sum(fold["photos"] for fold in folds), 2)
        for fold in folds:
            files = [entry["file"] for entry in self.ENTRIES if scene_text_video.icdar_video.fold(entry["file"]) == fold["fold"]]
            want_video = 2 if "images/a.jpg" in files else 0
            want_stills = 2 * ("images/a.jpg" in files) + ("images/b.jpg" in files)
            self.assertEqual(fold["video"]["words_found"], want_video, fold)
            self.assertEqual(fold["stills"]["words_found"], want_stills, fold)


class ShakenSignsTests(unittest.TestCase):
    # Two photos: one with a tall word labelled once (and a second, shorter one), one whose only tall word is
    # labelled twice (two signs say it: their items are not one sign's).
    ENTRIES = [{"file": "images/a.jpg", "regions": [
                   {"text": "DOME", "dont_care": False, "quad": [[600, 300], [700, 300], [700, 350], [600, 350]]},
                   {"text": "exit", "dont_care": False, "quad": [[100, 10], [140, 10], [140, 30], [100, 30]]},
                   {"text": "###", "dont_care": True, "quad": [[0, 0], [400, 0], [400, 90], [0, 90]]}]},
               {"file": "images/b.jpg", "regions": [
                   {"text": "SALE", "dont_care": False, "quad": [[10, 10], [90, 10], [90, 60], [10, 60]]},
                   {"text": "SALE", "dont_care": False, "quad": [[10, 90], [90, 90], [90, 140], [10, 140]]}]}]

    def test_one_clip_per_photo_around_its_tallest_word_labelled_once(self):
        self.assertEqual(shaken_signs.clips(self.ENTRIES), [(0, "dome", 451)])

    def test_a_sign_held_through_the_shakes_is_one_item_in_every_stretch(self):
        chosen = [(0, "dome", 451), (1, "exit", 0)]
        events = [{"event": "add", "frame": 10, "id": "1", "transcript": "DOME"},
                  # The second clip: its word read, removed in the first blur, read again by another item.
                  {"event": "add", "frame": 83 + 5, "id": "2", "transcript": "EXIT"},
                  {"event": "remove", "frame": 83 + 30, "id": "2"},
                  {"event": "remove", "frame": 83 + 30, "id": "1"},
                  {"event": "add", "frame": 83 + 70, "id": "3", "transcript": "EXIT"}]
        result = shaken_signs.score(chosen, events)
        self.assertEqual(result["words"], [{"clip": 0, "word": "dome", "items": 1, "stretches": [0, 1, 2]},
                                           {"clip": 1, "word": "exit", "items": 2, "stretches": [0, 2]}])
        summary = shaken_signs.summary(result)
        self.assertEqual((summary["words"], summary["one_item"], summary["every_stretch"]), (2, 1, 1))
        self.assertEqual(shaken_signs.verdicts({**summary, "error": None})[0][1], False)
        self.assertEqual(shaken_signs.verdicts(None)[0][1], False)

    def test_the_still_frames_read_are_what_the_video_is_held_to(self):
        chosen = [(0, "dome", 451), (1, "exit", 0), (7, "sale", 10)]
        stills = [{"event": "add", "id": "a", "file": "/x/stills/000_45.png", "transcript": "DOME"},
                  {"event": "add", "id": "b", "file": "/x/stills/001_10.png", "transcript": "no exit"},
                  # Another clip's frame, and a frame that is not one of the stills: neither counts for clip 2.
                  {"event": "add", "id": "c", "file": "/x/stills/000_75.png", "transcript": "SALE"},
                  {"event": "add", "id": "d", "file": "/x/stills/007_44.png", "transcript": "SALE"}]
        read = shaken_signs.still_signs(chosen, stills)
        self.assertEqual(read, {0, 1})
        video = {"clips": 3, "words": [{"clip": 0, "word": "dome", "items": 1, "stretches": [0, 1, 2]}]}
        summary = shaken_signs.summary(video, read)
        self.assertEqual((summary["stills_read"], summary["missed_by_video"]), (2, 1))
        self.assertIsNone(shaken_signs.summary(video)["stills_read"])


if __name__ == "__main__":
    unittest.main()
