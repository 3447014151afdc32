import Foundation
import Testing
@testable import LiveScanCore

@Suite struct EventLogTests {
    let id = UUID(uuidString: "6F1D3C1E-0000-4000-8000-000000000001")!

    func barcode(_ data: Data, string: String?) -> RecognizedItem {
        .barcode(.init(id: id, bounds: Bounds(x: 1, y: 2, width: 10, height: 20), payloadStringValue: string,
                       payloadData: data, symbology: .qr, frameIndex: 3, time: 0.1))
    }

    func parse(_ line: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }

    @Test func startLineCarriesVersionSourceAndConfig() throws {
        let line = EventLog.startLine(source: SourceInfo(name: "in \"q\".mp4", width: 1280, height: 720,
                                                         framesPerSecond: 29.97, frameCount: 10),
                                      config: EventLog.Config(types: ["qr", "text"], languages: ["e\"ng"],
                                                              quality: .fast, multipleItems: false,
                                                              tracker: TrackerConfiguration(),
                                                              regionOfInterest: Bounds(x: 10, y: 20, width: 100.5,
                                                                                       height: 1.0 / 3)))
        #expect(line.hasPrefix("{\"event\":\"start\",\"v\":1,"))
        let object = try parse(line)
        #expect(object["source"] as? String == "in \"q\".mp4")
        #expect(object["width"] as? Int == 1280)
        #expect((object["fps"] as? NSNumber)?.doubleValue == 29.97)
        let config = try #require(object["config"] as? [String: Any])
        #expect(config["quality"] as? String == "fast")
        #expect(config["types"] as? [String] == ["qr", "text"])
        #expect(config["languages"] as? [String] == ["e\"ng"])  // escaped, so the line stays JSON
        #expect(config["multiple_items"] as? Bool == false)
        #expect((config["tracker"] as? [String: Any])?["grace_period"] as? Double == 0.5)
        #expect((config["region_of_interest"] as? [Double]) == [10, 20, 100.5, 0.333333])
        #expect(line.contains(#""config":{"types":["qr","text"],"languages":["e\"ng"],"quality":"fast","#))
    }

    @Test func hostilePayloadKeepsItsExactBytes() throws {
        let payload = "\u{1B}]52;c;ZWNobyBoaQ==\u{07}\u{1B}[2J \"quoted\" \\ back\nnew\u{202E}"
        let changes = ScanChanges(frameIndex: 7, time: 0.25, added: [barcode(Data(payload.utf8), string: payload)],
                                  updated: [], removed: [], allItems: [])
        let lines = EventLog.changeLines(changes)
        #expect(lines.count == 1)
        #expect(!lines[0].contains("\u{1B}"))
        #expect(!lines[0].contains("\n"))
        let object = try parse(lines[0])
        #expect(object["event"] as? String == "add")
        #expect(object["frame"] as? Int == 7)
        #expect(object["payload"] as? String == payload)
        #expect(object["payload_b64"] == nil)
        #expect(object["id"] as? String == id.uuidString.lowercased())
        let bounds = try #require(object["bounds"] as? [[Double]])
        #expect(bounds == [[1, 2], [11, 2], [11, 22], [1, 22]])
    }

    @Test func barcodeLinesSayWhatThePayloadMeans() throws {
        let pix = "00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913"
            + "Fulano de Tal6008BRASILIA62070503***63041D3D"
        let broken = pix.replacingOccurrences(of: "Fulano", with: "Fulana")
        let wifi = #"WIFI:S:Shop\;Net;T:WPA;P:p\:ss;;"#
        var objects: [[String: Any]] = []
        for payload in [pix, broken, wifi] {
            let changes = ScanChanges(frameIndex: 0, time: 0, added: [barcode(Data(payload.utf8), string: payload)],
                                      updated: [], removed: [], allItems: [])
            let object = try parse(EventLog.changeLines(changes)[0])
            objects.append(try #require(object["content"] as? [String: Any]))
        }
        #expect(objects[0]["type"] as? String == "emvco")
        #expect(objects[0]["merchant"] as? String == "Fulano de Tal")
        #expect(objects[0]["city"] as? String == "BRASILIA")
        #expect(objects[0]["currency"] as? String == "BRL")
        #expect(objects[0]["crc_valid"] as? Bool == true)
        #expect(objects[1]["crc_valid"] as? Bool == false)
        #expect(objects[2]["type"] as? String == "wifi")
        #expect(objects[2]["ssid"] as? String == "Shop;Net")
        #expect(objects[2]["password"] as? String == "p:ss")
        // "type" comes first, as in every content object.
        let line = EventLog.changeLines(ScanChanges(frameIndex: 0, time: 0, added: [barcode(Data(wifi.utf8),
                                                                                            string: wifi)],
                                                    updated: [], removed: [], allItems: []))[0]
        #expect(line.contains(#""content":{"type":"wifi","#))
    }

    @Test func nonUTF8PayloadCarriesBase64() throws {
        let bytes = Data([0xFF, 0xFE, 0x00, 0x41])
        let changes = ScanChanges(frameIndex: 0, time: 0, added: [], updated: [],
                                  removed: [barcode(bytes, string: "ÿþ\u{0}A")], allItems: [])
        let object = try parse(EventLog.changeLines(changes)[0])
        #expect(object["event"] as? String == "remove")
        #expect(object["payload_b64"] as? String == bytes.base64EncodedString())
    }

    @Test func endLineNamesReasonAndError() throws {
        let outcome = ScanOutcome(reason: .error, error: .sourceDamaged(source: "a.mp4", reason: "cut"),
                                  lastFrameIndex: 41, lastTime: 1.4, framesProcessed: 40, framesDropped: 2)
        let object = try parse(EventLog.endLine(outcome))
        #expect(object["event"] as? String == "end")
        #expect(object["frame"] as? Int == 41)
        #expect(object["frames_processed"] as? Int == 40)
        #expect(object["frames_dropped"] as? Int == 2)
        #expect(object["reason"] as? String == "error")
        #expect(object["error"] as? String == "a.mp4: cut")
        #expect(object["frames_undecodable"] == nil)
    }

    /// Frames of a damaged video that did not decode are counted in the end line, present only when there were some
    /// (added within v1: a whole file's end line is as it was).
    @Test func endLineCountsTheFramesThatDidNotDecode() throws {
        let outcome = ScanOutcome(reason: .endOfSource, lastFrameIndex: 41, lastTime: 1.96, framesProcessed: 42,
                                  framesUndecodable: 6)
        let line = EventLog.endLine(outcome)
        #expect(line == #"{"event":"end","frame":41,"time":1.96,"reason":"eof","frames_processed":42,"#
                + #""frames_dropped":0,"frames_undecodable":6}"#)
        #expect(EventLog.version == 1)
    }

    /// `--reconnect`: the reopening of a camera or stream is a line of the log (added within v1), which the reader
    /// reads back and the report counts without taking it for a change of an item.
    @Test func reconnectLineSaysWhenHowLongAndWhy() throws {
        let line = EventLog.reconnectLine(frameIndex: 57, time: 1.9, outage: 1.62,
                                          reason: "the source stopped delivering frames")
        #expect(line == #"{"event":"reconnect","frame":57,"time":1.9,"outage":1.62,"#
                + #""reason":"the source stopped delivering frames"}"#)
        #expect(EventLog.version == 1)
        let log = #"{"event":"start","v":1,"source":"tcp://x","width":4,"height":4,"fps":30,"config":{}}"#
            + "\n" + line + "\n"
        let reader = EventLogReader(data: Data(log.utf8))
        #expect(reader.badLines.isEmpty && reader.records.map(\.event) == [.start, .reconnect])
        #expect(reader.records[1].outage == 1.62 && reader.records[1].frame == 57)
        #expect(reader.records[1].reason == "the source stopped delivering frames")
        let report = EventLogReport(reader)
        #expect(report.items.isEmpty && report.totals.eventsPerType["reconnect"] == 1)
    }

    /// A viewer's choice (VisionKit's tap) is a line with the item as a change line gives it (added within v1): read
    /// back, counted by the report, and no change to the item's row.
    @Test func tapLineNamesTheChosenItemAsItWas() throws {
        let item = barcode(Data("https://example.com".utf8), string: "https://example.com")
        let add = EventLog.changeLines(ScanChanges(frameIndex: 3, time: 0.1, added: [item], updated: [], removed: [],
                                                   allItems: [item]))[0]
        let line = EventLog.tapLine(item, frameIndex: 9, time: 0.3)
        #expect(line.hasPrefix(#"{"event":"tap","frame":9,"time":0.3,"id":""#))
        // From the id on, the same fields as the add line's.
        #expect(line[line.range(of: #""id""#)!.lowerBound...] == add[add.range(of: #""id""#)!.lowerBound...])
        let log = #"{"event":"start","v":1,"source":"x.mp4","width":4,"height":4,"fps":30,"config":{}}"#
            + "\n" + add + "\n" + line + "\n"
        let report = EventLogReport(EventLogReader(data: Data(log.utf8)))
        #expect(report.totals.eventsPerType["tap"] == 1)
        #expect(report.items.count == 1 && report.items[0].updates == 0 && report.items[0].lastFrame == 3)
    }

    /// `--serve`'s /items: the frame, its size and the items, each with the fields of a change line.
    @Test func itemsDocumentGivesTheFrameAndEachItemsFields() throws {
        let item = barcode(Data("A1".utf8), string: "A1")
        let document = try parse(EventLog.itemsDocument([item], frameIndex: 5, time: 0.2, width: 640, height: 360,
                                                        regionOfInterest: Bounds(x: 1, y: 2, width: 3, height: 4)))
        #expect(document["frame"] as? Int == 5 && document["width"] as? Int == 640)
        #expect(document["region_of_interest"] as? [Double] == [1, 2, 3, 4])
        let items = try #require(document["items"] as? [[String: Any]])
        #expect(items.count == 1 && items[0]["payload"] as? String == "A1" && items[0]["event"] == nil)
        #expect(items[0]["id"] as? String == id.uuidString.lowercased())
        #expect((items[0]["bounds"] as? [[Double]]) == [[1, 2], [11, 2], [11, 22], [1, 22]])
    }

    @Test func readerCountsGarbageAndATruncatedLastLine() {
        let log = """
        {"event":"start","v":1,"source":"x","width":4,"height":4,"fps":30,"config":{}}
        this is not json
        {"event":"add","frame":0,"time":0,"id":"a","kind":"barcode","symbology":"qr","payload":"P","confidence":1,"bounds":[[0,0],[1,0],[1,1],[0,1]]}
        {"event":"teleport","frame":1}
        {"event":"add","frame":1,"time":0.03
        """
        let reader = EventLogReader(data: Data(log.utf8))
        #expect(reader.records.map(\.event) == [.start, .add])
        #expect(reader.badLines == [2, 4, 5])
        #expect(reader.records[1].payload == "P")
        #expect(reader.records[1].bounds?.count == 4)
    }

    @Test func numbersAreWrittenWithoutExponents() {
        #expect(JSONLine.number(3) == "3")
        #expect(JSONLine.number(0.1) == "0.1")
        #expect(JSONLine.number(1e-7) == "0")
        #expect(JSONLine.number(.nan) == "0")
    }
}

@Suite struct TerminalSafeTextTests {
    @Test func escapeSequencesAreShownNotObeyed() {
        #expect(TerminalSafeText.escape("\u{1B}]52;c;aGk=\u{07}") == "\\e]52;c;aGk=\\x07")
        #expect(TerminalSafeText.escape("\u{1B}[2Jok") == "\\e[2Jok")
        #expect(TerminalSafeText.escape("a\u{9B}31m") == "a\\x9B31m")
        #expect(TerminalSafeText.escape("abc\u{202E}def") == "abc\\u{202E}def")
        #expect(TerminalSafeText.escape("line\nnext") == "line\\nnext")
        #expect(TerminalSafeText.escape("Grüße 東京 https://x.y/?a=1") == "Grüße 東京 https://x.y/?a=1")
    }

    /// NUL, and every format and separator character (Cf, Zl, Zp): each changes what a reader sees.
    @Test func nulFormatAndSeparatorCharactersAreEscaped() {
        #expect(TerminalSafeText.escape("good/\u{0}@evil") == "good/\\x00@evil")
        #expect(TerminalSafeText.escape("a\u{061C}b\u{2028}c\u{2029}d") == "a\\u{61C}b\\u{2028}c\\u{2029}d")
        #expect(TerminalSafeText.escape("pay\u{200B}pal\u{FEFF}") == "pay\\u{200B}pal\\u{FEFF}")
        #expect(TerminalSafeText.escape("\u{2066}x\u{2069}") == "\\u{2066}x\\u{2069}")
    }
}
