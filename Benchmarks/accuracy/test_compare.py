"""Unit tests of the accuracy benchmark's comparison logic: python3 -m unittest (run from Benchmarks/accuracy)."""

import base64
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import compare  # noqa: E402


def barcode_event(kind, frame, item, payload, seen_frame=None, raw=None):
    event = {"event": kind, "frame": frame, "id": item, "kind": "barcode", "symbology": "qr", "payload": payload}
    if raw is not None:
        event["payload_b64"] = base64.b64encode(raw).decode("ascii")
    if seen_frame is not None:
        event["seen_frame"] = seen_frame
    return event


class MatchingTests(unittest.TestCase):
    def test_bytes_compared_exactly_crlf_kept(self):
        decode = compare.Decode(text=b"line one\r\nline two")
        self.assertTrue(compare.matches(decode, b"line one\r\nline two", "QRCode"))
        self.assertFalse(compare.matches(decode, b"line one\nline two", "QRCode"))
        self.assertFalse(compare.matches(decode, b"line one\r\nline two\r\n", "QRCode"))

    def test_raw_bytes_or_text_may_match(self):
        shift_jis = "日本".encode("shift_jis")
        decode = compare.Decode(text="日本".encode("utf-8"), raw=shift_jis)
        self.assertTrue(compare.matches(decode, "日本".encode("utf-8"), "QRCode"))   # .txt: the text
        self.assertTrue(compare.matches(decode, shift_jis, "QRCode"))               # .bin: the bytes

    def test_an_add_on_the_truth_leaves_out_is_no_misread(self):
        self.assertTrue(compare.matches(compare.Decode(text=b"978039305867352595"), b"9780393058673", "EAN13"))
        self.assertTrue(compare.matches(compare.Decode(text=b"03600029145212"), b"036000291452", "UPCA"))
        self.assertFalse(compare.matches(compare.Decode(text=b"978039305867452595"), b"9780393058673", "EAN13"))
        self.assertFalse(compare.matches(compare.Decode(text=b"9780393058673"), b"978039305867352595", "EAN13"))
        self.assertFalse(compare.matches(compare.Decode(text=b"9780393058673525"), b"9780393058673", "EAN13"))

    def test_upc_forms_are_one_payload(self):
        self.assertEqual(compare.expand_upce("05096893"), "050968000093")
        self.assertEqual(compare.canonical("UPCE", b"05096893"), b"0050968000093")
        self.assertEqual(compare.canonical("UPCA", b"890444000335"), b"0890444000335")
        # With an add-on: UPC-A's 12 digits + 5 are the 13-digit EAN-13 form + 5.
        self.assertEqual(compare.canonical("UPCA", b"02701100695102601"), b"002701100695102601")
        self.assertEqual(compare.canonical("UPCA", b"002701100695102601"), b"002701100695102601")
        self.assertTrue(compare.matches(compare.Decode(text=b"0050968000093"), b"05096893", "UPCE"))
        self.assertFalse(compare.matches(compare.Decode(text=b"0050968000094"), b"05096893", "UPCE"))
        # EAN-8 payloads are never expanded.
        self.assertEqual(compare.canonical("EAN8", b"12345670"), b"12345670")

    def test_codabar_guards_dropped_only_for_codabar(self):
        self.assertTrue(compare.matches(compare.Decode(text=b"A1234567890A"), b"1234567890", "Codabar"))
        self.assertFalse(compare.matches(compare.Decode(text=b"A1234567890A"), b"1234567890", "Code39"))

    def test_databar_human_readable_form_is_the_element_string(self):
        hri = b"(01)98898765432106(15)991231(3103)001750(10)12A(422)123(21)123456(423)012345678901"
        raw = b"01988987654321061599123131030017501012A\x1d422123\x1d21123456\x1d423012345678901"
        self.assertEqual(compare.gs1_element_string(hri), raw)
        self.assertTrue(compare.matches(compare.Decode(text=hri), raw, "DataBarExp"))
        self.assertTrue(compare.matches(compare.Decode(text=b"04412345678909"), b"0104412345678909", "DataBarOmni"))
        self.assertFalse(compare.matches(compare.Decode(text=b"(10)12A"), b"10 12A", "DataBarExp"))
        self.assertIsNone(compare.gs1_element_string(b"no (01) hri"))
        self.assertEqual(compare.canonical("QRCode", b"(01)12345678901231"), b"(01)12345678901231")

    def test_telepen_and_dx_film_edge_are_named_and_compared_as_stored(self):
        self.assertEqual(compare.FORMATS["Telepen"].livescan, "telepen")
        self.assertEqual(compare.FORMATS["DXFilmEdge"].livescan, "dxfilmedge")
        # Opt-in: not among the symbologies of a scan for "anything" (the negative folders').
        self.assertNotIn("telepen", compare.LIVESCAN_BARCODES.split(","))
        self.assertNotIn("dxfilmedge", compare.LIVESCAN_BARCODES.split(","))
        # Telepen Numeric's digits are text, never padded or expanded as EAN/UPC's are.
        self.assertTrue(compare.matches(compare.Decode(text=b"01234567"), b"01234567", "Telepen"))
        self.assertFalse(compare.matches(compare.Decode(text=b"1234567"), b"01234567", "Telepen"))
        self.assertTrue(compare.matches(compare.Decode(text=b"TELEPEN BARCODE"), b"TELEPEN BARCODE", "Telepen"))
        self.assertTrue(compare.matches(compare.Decode(text=b"36-2/21"), b"36-2/21", "DXFilmEdge"))
        self.assertFalse(compare.matches(compare.Decode(text=b"36-2/20A"), b"36-2/21", "DXFilmEdge"))

    def test_score_single_code_image(self):
        right, wrong = compare.Decode(text=b"4711"), compare.Decode(text=b"4712")
        self.assertEqual(vars(compare.score_image([right], [b"4711"], "QRCode")),
                         {"expected": 1, "correct": 1, "wrong": 0, "decodes": 1})
        self.assertEqual(compare.score_image([wrong], [b"4711"], "QRCode").wrong, 1)
        self.assertEqual(compare.score_image([wrong], [b"4711"], "QRCode").correct, 0)
        self.assertEqual(compare.score_image([], [b"4711"], "QRCode").correct, 0)

    def test_score_multi_code_image_counts_each_code_once(self):
        decodes = [compare.Decode(text=b"a"), compare.Decode(text=b"a"), compare.Decode(text=b"c")]
        score = compare.score_image(decodes, [b"a", b"b", b"c"], "QRCode")
        self.assertEqual((score.correct, score.wrong), (2, 0))

    def test_negative_image_every_decode_is_wrong(self):
        score = compare.score_image([compare.Decode(text=b"x")], [], None)
        self.assertEqual((score.correct, score.wrong), (0, 1))

    def test_structured_append_groups(self):
        parts = [[compare.Decode(text=b"Hello ")], [compare.Decode(text=b"world")]]
        self.assertTrue(compare.structured_group_correct(parts, b"Hello world", "QRCode"))
        self.assertFalse(compare.structured_group_correct(parts[:1] + [[]], b"Hello world", "QRCode"))
        merged = [[compare.Decode(text=b"Hello world")], []]
        self.assertTrue(compare.structured_group_correct(merged, b"Hello world", "QRCode"))


class GroundTruthTests(unittest.TestCase):
    def test_names_and_order(self):
        with tempfile.TemporaryDirectory() as folder:
            for name in ("b.png", "a.webp", "gs1-4.15.1-2.png", "c.TIF", "a.txt", "gs1-4.15.1-2.txt", "x.bin",
                         "x.jpg", "notes.md"):
                with open(os.path.join(folder, name), "wb") as handle:
                    handle.write(b"GT\r\n")
            self.assertEqual(compare.image_files(folder), ["a.webp", "b.png", "c.TIF", "gs1-4.15.1-2.png", "x.jpg"])
            self.assertTrue(compare.ground_truth_path(folder, "a.webp").endswith("a.txt"))
            self.assertTrue(compare.ground_truth_path(folder, "gs1-4.15.1-2.png").endswith("gs1-4.15.1-2.txt"))
            self.assertTrue(compare.ground_truth_path(folder, "x.jpg").endswith("x.bin"))
            self.assertIsNone(compare.ground_truth_path(folder, "b.png"))
            self.assertEqual(compare.read_bytes(os.path.join(folder, "a.txt")), b"GT\r\n")

    def test_structured_groups(self):
        with tempfile.TemporaryDirectory() as folder:
            groups = compare.structured_groups(folder, ["01-02.png", "01-01.png", "02-01.png"])
        self.assertEqual(groups, {"01": ["01-01.png", "01-02.png"], "02": ["02-01.png"]})


class ToolOutputTests(unittest.TestCase):
    def test_livescan_items_span_their_frames(self):
        events = [
            {"event": "start"},
            barcode_event("add", 0, "A", "one"),
            barcode_event("update", 1, "A", "one", seen_frame=1),
            barcode_event("remove", 3, "A", "one", seen_frame=2),   # seen in 0, 1 and 2 (2 had no event)
            barcode_event("add", 3, "B", "two"),
            barcode_event("add", 5, "C", "\ufffd", raw=b"\xff\x00"),
            barcode_event("remove", 5, "B", "two", seen_frame=4),
            barcode_event("remove", 5, "C", "\ufffd", seen_frame=5, raw=b"\xff\x00"),
            {"event": "end", "frame": 5, "reason": "eof"},
        ]
        frames = compare.livescan_frames(events)
        payloads = {frame: [decode.raw for decode in decodes] for frame, decodes in frames.items()}
        self.assertEqual(payloads, {0: [b"one"], 1: [b"one"], 2: [b"one"], 3: [b"two"], 4: [b"two"],
                                    5: [b"\xff\x00"]})

    def test_livescan_cut_log_credits_open_items_to_the_last_frame(self):
        frames = compare.livescan_frames([barcode_event("add", 2, "A", "x"), barcode_event("update", 4, "A", "x")])
        self.assertEqual(sorted(frames), [2, 3, 4])

    def test_zxing_reader_output(self):
        stdout = (b'Text:       "a\r\nb"\nBytes:      61 0D 0A 62\nBytesECI:   5D 51 31 61 0D 0A 62\n'
                  b'Format:     QRCode\nIdentifier: ]Q1\n\nText:       "123"\nBytes:      31 32 33\n'
                  b'Format:     Code128\n')
        decodes = compare.parse_zxing_reader(stdout)
        self.assertEqual([(d.text, d.raw, d.symbology) for d in decodes],
                         [(b"a\r\nb", b"a\r\nb", "QRCode"), (b"123", b"123", "Code128")])
        self.assertEqual(compare.parse_zxing_reader(b"No barcode found\n"), [])

    def test_zbar_xml(self):
        stdout = (b"<barcodes xmlns='http://zbar.sourceforge.net/2008/barcode'>\n<source href='x.png'>\n"
                  b"<index num='0'>\n<symbol type='QR-Code' quality='1'><data><![CDATA[a\r\nb]]></data></symbol>\n"
                  b"<symbol type='QR-Code' quality='1'><data format='base64' length='2'><![CDATA[\n/wA=\n]]>"
                  b"</data></symbol>\n</index>\n</source>\n</barcodes>\n")
        decodes = compare.parse_zbar_xml(stdout)
        self.assertEqual([d.text for d in decodes], [b"a\r\nb", b"\xff\x00"])   # CR kept
        split = b"<symbol type='QR-Code'><data><![CDATA[x]]]]><![CDATA[>y]]></data></symbol>"
        self.assertEqual([d.text for d in compare.parse_zbar_xml(split)], [b"x]]>y"])
        self.assertEqual(compare.parse_zbar_xml(b"<barcodes xmlns='x'>"), [])   # nothing found, no closing tag


class TextTests(unittest.TestCase):
    def test_edit_distance_and_cer(self):
        self.assertEqual(compare.edit_distance("kitten", "sitting"), 3)
        self.assertEqual(compare.edit_distance("", "abc"), 3)
        self.assertAlmostEqual(compare.cer("HELL0", "HELLO"), 0.2)
        self.assertEqual(compare.cer("", ""), 0.0)
        self.assertEqual(compare.normalise_whitespace(" a \n\tb  c\r\n"), "a b c")

    def test_word_recall_ignores_line_order_and_counts_repeats(self):
        reference = "the cat sat\non the mat"
        self.assertEqual(compare.word_recall("on the mat the cat sat", reference), 1.0)
        # "the" twice in the reference, once here; "dog" is not in it and costs nothing.
        self.assertAlmostEqual(compare.word_recall("the cat sat dog", reference), 3 / 6)
        self.assertEqual(compare.word_recall("The Cat", "the cat"), 0.0)
        self.assertEqual(compare.word_recall("", ""), 1.0)

    def test_iou(self):
        self.assertAlmostEqual(compare.iou((0, 0, 10, 10), (5, 0, 15, 10)), 50 / 150)
        self.assertEqual(compare.iou((0, 0, 10, 10), (10, 0, 20, 10)), 0.0)
        self.assertEqual(compare.box_of([[1, 2], [5, 2], [5, 8], [1, 8]]), (1, 2, 5, 8))
        self.assertEqual(compare.box_of([1, 2, 5, 2, 5, 8, 1, 8]), (1, 2, 5, 8))

    def test_line_scoring_matches_by_overlap_and_counts_misses(self):
        truth = [((0, 0, 100, 20), "TOTAL 10.00"), ((0, 30, 100, 50), "THANK YOU")]
        recognised = [((2, 1, 98, 21), "Total 10.00"), ((0, 200, 100, 220), "THANK YOU")]
        score = compare.score_lines(truth, recognised)
        # Line 1 matches (case folded: 0 errors); line 2's reading is elsewhere: 9 errors.
        self.assertEqual((score.matched, score.lines, score.errors, score.reference_chars), (1, 2, 9, 20))
        self.assertAlmostEqual(score.cer, 9 / 20)

    def test_sroie_boxes_keep_commas_in_transcripts(self):
        with tempfile.NamedTemporaryFile("w", suffix=".csv", delete=False, newline="") as handle:
            handle.write("1,2,9,2,9,8,1,8,LOT 1, JALAN 6,\r\nbad line\r\n")
        try:
            self.assertEqual(compare.read_sroie_boxes(handle.name), [((1, 2, 9, 8), "LOT 1, JALAN 6,")])
        finally:
            os.unlink(handle.name)

    def test_tesseract_tsv_lines(self):
        tsv = ("level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext\n"
               "4\t1\t1\t1\t1\t0\t10\t20\t100\t15\t-1\t\n"
               "5\t1\t1\t1\t1\t1\t10\t20\t40\t15\t96\tHello\n"
               "5\t1\t1\t1\t1\t2\t60\t20\t50\t15\t95\tworld\n"
               "4\t1\t1\t1\t2\t0\t10\t40\t100\t15\t-1\t\n"
               "5\t1\t1\t1\t2\t1\t10\t40\t40\t15\t-1\t \n")
        self.assertEqual(compare.parse_tesseract_tsv(tsv), [((10, 20, 110, 35), "Hello world")])

    def test_livescan_text_lines_last_state_in_add_order(self):
        events = [{"event": "add", "kind": "text", "id": "1", "transcript": "HELL0", "bounds": [[0, 0], [9, 0],
                                                                                               [9, 5], [0, 5]]},
                  {"event": "add", "kind": "text", "id": "2", "transcript": "next", "bounds": [[0, 9], [9, 9],
                                                                                              [9, 14], [0, 14]]},
                  {"event": "update", "kind": "text", "id": "1", "transcript": "HELLO", "bounds": [[0, 0], [9, 0],
                                                                                                 [9, 5], [0, 5]]}]
        self.assertEqual([text for _, text in compare.livescan_text_lines(events)], ["HELLO", "next"])

    def test_box_file_text(self):
        with tempfile.TemporaryDirectory() as folder:
            line, glyphs = os.path.join(folder, "l.box"), os.path.join(folder, "g.box")
            with open(line, "w") as handle:
                handle.write("WordStr 131 4670 850 4709 0 #T o s i m p l e\n")
            with open(glyphs, "w") as handle:
                handle.write("T 1 2 3 4 0\no 5 2 7 4 0\n")
            self.assertEqual(compare.box_file_text(line), "T o s i m p l e")
            self.assertEqual(compare.box_file_text(glyphs), "To")


if __name__ == "__main__":
    unittest.main()
