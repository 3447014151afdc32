import Foundation
import Testing
import LiveScanCore

@Suite struct EventLogReportTests {
    static let start = #"{"event":"start","v":1,"source":"x.mp4","width":640,"height":480,"fps":10,"config":{}}"#
    static let box = #""bounds":[[0,0],[10,0],[10,10],[0,10]]"#

    /// A change line; `seen` defaults to the line's own frame and time.
    static func change(_ event: String, frame: Int, time: Double, id: String, value: String,
                       seen: (Int, Double)? = nil, kind: String = "barcode", extra: String = "") -> String {
        let (seenFrame, seenTime) = seen ?? (frame, time)
        let valueField = kind == "barcode"
            ? #""symbology":"qr","payload":"\#(value)""# : #""transcript":"\#(value)""#
        return #"{"event":"\#(event)","frame":\#(frame),"time":\#(time),"id":"\#(id)","kind":"\#(kind)",\#(valueField)"#
            + #"\#(extra),"confidence":1,\#(box),"seen_frame":\#(seenFrame),"seen_time":\#(seenTime)}"#
    }

    static func report(_ lines: [String]) -> EventLogReport {
        EventLogReport(EventLogReader(data: Data(lines.joined(separator: "\n").utf8)))
    }

    @Test func dwellUpdatesAndLastSightingFromSeenFrame() throws {
        let report = Self.report([
            Self.start,
            Self.change("add", frame: 2, time: 0.2, id: "code", value: "P"),
            Self.change("add", frame: 3, time: 0.3, id: "line", value: "Aisle 7", kind: "text"),
            Self.change("update", frame: 5, time: 0.5, id: "code", value: "P"),
            Self.change("update", frame: 6, time: 0.6, id: "line", value: "Aisle 7 Shelf B", kind: "text"),
            Self.change("update", frame: 8, time: 0.8, id: "line", value: "Aisle 7", kind: "text"),
            // Removed one grace period (0.5 s) after it was last seen at frame 9.
            Self.change("remove", frame: 14, time: 1.4, id: "code", value: "P", seen: (9, 0.9)),
            Self.change("remove", frame: 20, time: 2.0, id: "line", value: "Aisle 7", seen: (15, 1.5), kind: "text"),
            #"{"event":"end","frame":29,"time":2.9,"reason":"eof"}"#,
        ])
        #expect(report.items.map(\.id) == ["code", "line"])
        let code = report.items[0], line = report.items[1]
        #expect(code.kind == "barcode" && code.symbology == "qr" && code.label == "qr")
        #expect(code.firstFrame == 2 && code.firstTime == 0.2)
        #expect(code.lastFrame == 9 && code.lastTime == 0.9)
        #expect(code.dwellTime == 0.7)
        #expect(code.updates == 1 && code.distinctValues == 1)
        #expect(code.wasAdded && code.removed)
        #expect(line.label == "text" && line.value == "Aisle 7")
        #expect(line.updates == 2 && line.distinctValues == 2)
        #expect(line.lastFrame == 15 && line.dwellTime == 1.2)

        #expect(report.totals.itemsPerKind == ["barcode": 1, "text": 1])
        #expect(report.totals.itemsPerSymbology == ["qr": 1])
        #expect(report.totals.eventsPerType == ["start": 1, "add": 2, "update": 3, "remove": 2, "end": 1])
        #expect(report.totals.lastFrame == 29 && report.totals.frameCount == 30 && report.totals.duration == 2.9)
        #expect(report.totals.endReason == "eof" && report.totals.endError == nil)
        #expect(report.totals.badLines.isEmpty)
        #expect(report.isComplete)
        #expect(report.itemsInViewWhenCut.isEmpty)
    }

    @Test func garbageAndATruncatedLastLineAreCountedAndTheRestReported() {
        let report = Self.report([
            Self.start,
            Self.change("add", frame: 0, time: 0, id: "a", value: "A"),
            "this is not json",
            Self.change("add", frame: 1, time: 0.1, id: "b", value: "B"),
            Self.change("update", frame: 4, time: 0.4, id: "a", value: "A"),
            "",
            #"{"event":"teleport","frame":5}"#,
            Self.change("update", frame: 6, time: 0.6, id: "b", value: "B"),
            // The writer was killed mid-line: no end line, and "a" and "b" never removed.
            String(Self.change("update", frame: 7, time: 0.7, id: "a", value: "A").prefix(40)),
        ])
        #expect(report.totals.badLines == [3, 7, 9])
        #expect(report.items.map(\.id) == ["a", "b"])
        #expect(report.items.map(\.updates) == [1, 1])
        #expect(report.items.allSatisfy { !$0.removed })
        #expect(!report.totals.hasEndLine && report.totals.hasStartLine)
        #expect(!report.isComplete)
        #expect(report.itemsInViewWhenCut.map(\.id) == ["a", "b"])
        // No end line: the last frame and time are the highest any line carries.
        #expect(report.totals.lastFrame == 6 && report.totals.duration == 0.6)
        #expect(report.totals.endReason == nil)
    }

    @Test func idsNeverAddedStillMakeItemsFromTheirFirstSighting() {
        // A log that starts mid-way: no start line, and the first lines of both items are not adds.
        let report = Self.report([
            Self.change("update", frame: 40, time: 4.0, id: "moving", value: "M"),
            Self.change("remove", frame: 45, time: 4.5, id: "leaving", value: "L", seen: (40, 4.0)),
            Self.change("add", frame: 46, time: 4.6, id: "new", value: "N"),
            Self.change("remove", frame: 50, time: 5.0, id: "moving", value: "M", seen: (45, 4.5)),
            #"{"event":"end","frame":60,"time":6.0,"reason":"error","error":"x.mp4: truncated"}"#,
        ])
        #expect(report.items.map(\.id) == ["moving", "leaving", "new"])
        let moving = report.items[0], leaving = report.items[1], new = report.items[2]
        #expect(!moving.wasAdded && moving.updates == 1 && moving.firstFrame == 40 && moving.lastFrame == 45)
        // A remove as the first line: first and last sighting are both its seen_frame, not the remove's frame.
        #expect(!leaving.wasAdded && leaving.removed && leaving.firstFrame == 40 && leaving.lastFrame == 40)
        #expect(leaving.dwellTime == 0)
        #expect(new.wasAdded && !new.removed)
        #expect(!report.totals.hasStartLine && report.totals.hasEndLine)
        #expect(report.totals.endReason == "error" && report.totals.endError == "x.mp4: truncated")
        // The end line closes the log, so nothing counts as cut off in view.
        #expect(report.itemsInViewWhenCut.isEmpty)
        #expect(!report.isComplete)
    }

    @Test func missingSeenFieldsFallBackToTheLineFrameAndTime() {
        let report = Self.report([
            #"{"event":"add","frame":3,"time":0.3,"id":"old","kind":"barcode","symbology":"ean13","payload":"1"}"#,
            #"{"event":"remove","frame":9,"time":0.9,"id":"old","kind":"barcode","symbology":"ean13","payload":"1"}"#,
        ])
        #expect(report.items.count == 1)
        #expect(report.items[0].firstFrame == 3 && report.items[0].lastFrame == 9 && report.items[0].lastTime == 0.9)
        #expect(report.totals.itemsPerSymbology == ["ean13": 1])
    }

    @Test func nonUTF8PayloadKeepsItsBytesAndTheirBestReading() {
        let bytes = Data([0xFF, 0xFE, 0x00, 0x41]).base64EncodedString()
        let report = Self.report([
            Self.start,
            Self.change("add", frame: 0, time: 0, id: "bin", value: "ÿþ\\u0000A",
                        extra: #","payload_b64":"\#(bytes)""#),
            Self.change("update", frame: 1, time: 0.1, id: "bin", value: "ÿþ\\u0000A",
                        extra: #","payload_b64":"\#(bytes)""#),
        ])
        #expect(report.totals.badLines.isEmpty)
        #expect(report.items.count == 1)
        #expect(report.items[0].value == "ÿþ\u{0}A")
        #expect(report.items[0].valueBase64 == bytes)
        #expect(report.items[0].distinctValues == 1)
    }

    @Test func anEmptyLogReportsNothing() {
        let report = EventLogReport(EventLogReader(data: Data("\n\n".utf8)))
        #expect(report.items.isEmpty && report.totals.badLines.isEmpty)
        #expect(report.totals.lastFrame == nil && report.totals.duration == nil)
        #expect(!report.isComplete)
    }
}
