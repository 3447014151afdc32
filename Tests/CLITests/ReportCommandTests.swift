import Foundation
import Testing

/// `livescan report` on event logs written by the test: the table, CSV and JSON, bad logs and bad usage.
@Suite(.serialized) struct ReportCommandTests {
    let folder: URL
    /// Owns `folder`: it goes with this test.
    private let scratch: ScratchFolder
    static let codeID = "0b7f3c1e-0000-4000-8000-000000000001"
    static let lineID = "5d1c3c1e-0000-4000-8000-000000000002"
    static let hostileID = "9a9a3c1e-0000-4000-8000-000000000003"
    /// A value with a comma and a quote: CSV must quote it and double the quote.
    static let tricky = #"Aisle 7, "Shelf" B"#
    static let hostile = "\u{1B}]52;c;ZWNobyBoaQ==\u{07}\u{1B}[2Jgone"

    init() throws {
        scratch = try ScratchFolder()
        folder = scratch.url
    }

    static func json(_ object: [String: Any]) -> String {
        let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
        return String(decoding: data ?? Data(), as: UTF8.self)
    }

    static func change(_ event: String, frame: Int, id: String, symbology: String? = "qr", value: String,
                       seenFrame: Int? = nil) -> String {
        var object: [String: Any] = [
            "event": event, "frame": frame, "time": Double(frame) / 10, "id": id, "confidence": 1,
            "bounds": [[0, 0], [10, 0], [10, 10], [0, 10]], "seen_frame": seenFrame ?? frame,
            "seen_time": Double(seenFrame ?? frame) / 10,
        ]
        if let symbology {
            object["kind"] = "barcode"
            object["symbology"] = symbology
            object["payload"] = value
        } else {
            object["kind"] = "text"
            object["transcript"] = value
        }
        return json(object)
    }

    static let wholeLog = [
        json(["event": "start", "v": 1, "source": "shelf.mp4", "width": 640, "height": 480, "fps": 10,
              "config": [String: Any]()]),
        change("add", frame: 2, id: codeID, value: "https://example.com/parcel/4711"),
        change("add", frame: 3, id: lineID, symbology: nil, value: tricky),
        change("update", frame: 6, id: lineID, symbology: nil, value: tricky),
        change("remove", frame: 12, id: codeID, value: "https://example.com/parcel/4711", seenFrame: 7),
        change("remove", frame: 15, id: lineID, symbology: nil, value: tricky, seenFrame: 10),
        json(["event": "end", "frame": 19, "time": 1.9, "reason": "eof"]),
    ]

    func write(_ lines: [String], named name: String = "events.jsonl") throws -> String {
        let url = folder.appendingPathComponent(name)
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: url)
        return url.path
    }

    @Test func tableListsEachItemWithItsTimesAndTotals() throws {
        let result = try Livescan.run(["report", try write(Self.wholeLog)])
        #expect(result.status == 0, "stderr: \(result.standardError)")
        #expect(result.standardError.isEmpty)
        let lines = result.outputLines
        let header = try #require(lines.first)
        #expect(header.hasPrefix("ID") && header.contains("KIND") && header.contains("VALUE")
                    && header.contains("DWELL (s)") && header.hasSuffix("UPDATES"))
        let code = try #require(lines.first { $0.hasPrefix("0b7f3c1e ") })
        #expect(code.contains("qr") && code.contains("https://example.com/parcel/4711"))
        // First seen at the add (0.2 s), last seen at frame 7 (0.7 s), not at the remove (1.2 s).
        #expect(code.split(separator: " ").suffix(4) == ["0.20", "0.70", "0.50", "0"])
        let text = try #require(lines.first { $0.hasPrefix("5d1c3c1e ") })
        #expect(text.contains("text") && text.contains(Self.tricky))
        #expect(text.split(separator: " ").suffix(4) == ["0.30", "1.00", "0.70", "1"])
        #expect(lines.contains("items: 2 (barcode 1, text 1)"))
        #expect(lines.contains("events: add 2, update 1, remove 2"))
        #expect(lines.contains("frames: 20, duration: 1.90 s, ended: eof"))
        #expect(!result.standardOutput.contains("bad lines"))
        #expect(!result.standardOutput.contains("no end line"))
    }

    /// Images have no media time: the log numbers them one second apart, and the report printed that as a
    /// duration (`duration: 2.00 s` for three images). It counts the images instead, and JSON has no duration.
    @Test func aLogOfImagesHasNoDuration() throws {
        let images = try (1...3).map { try scratch.qrStill("\($0).png", payload: "image \($0)") }
        let events = folder.appendingPathComponent("images.jsonl").path
        #expect(try Livescan.run(["scan", "--types", "qr", "--events", events] + images).status == 0)
        let table = try Livescan.run(["report", events])
        #expect(table.status == 0, "\(table.standardError)")
        #expect(table.outputLines.contains("images: 3, ended: eof"), "\(table.outputLines)")
        #expect(!table.standardOutput.contains("duration"))
        let json = try Livescan.run(["report", "--json", events])
        let object = try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any]
        let totals = try #require(object?["totals"] as? [String: Any])
        #expect(totals["duration"] is NSNull && totals["images"] as? Int == 3, "\(totals)")
    }

    @Test func tableStaysWithinColumnsAndEscapesHostilePayloads() throws {
        let long = String(repeating: "x", count: 300)
        let log = [
            Self.change("add", frame: 0, id: Self.hostileID, value: Self.hostile),
            Self.change("add", frame: 1, id: Self.codeID, value: long),
            // A hostile id and symbology too: anything in the log is untrusted.
            Self.change("add", frame: 2, id: "\u{1B}[31mred", symbology: "\u{1B}[2J", value: "v"),
        ]
        let path = try write(log)
        for (columns, fromStandardInput) in [(nil, false), (72, true)] as [(Int?, Bool)] {
            let result = try runThroughShell(["report", fromStandardInput ? "-" : path], columns: columns,
                                             standardInput: fromStandardInput ? path : nil)
            #expect(result.status == 0, "stderr: \(result.standardError)")
            #expect(!result.standardOutput.contains("\u{1B}"))
            #expect(!result.standardOutput.contains("\u{07}"))
            #expect(result.standardOutput.contains(#"\e[31mre"#))
            let width = columns ?? 100
            // At 72 columns the value column is 13 wide: the escaped payload is cut, never unescaped.
            let shown = width == 100 ? #"\e]52;c;ZWNobyBoaQ==\x07\e[2Jgone"# : #"\e]52;c;ZWNo…"#
            #expect(result.standardOutput.contains(shown))
            #expect(result.outputLines.allSatisfy { $0.count <= width }, "\(result.outputLines)")
            #expect(result.outputLines.contains { $0.count == width && $0.contains("xxx…") })
            #expect(result.outputLines.contains("log has no end line: cut short?"))
        }
    }

    /// Runs livescan through sh, to set COLUMNS (unset when nil) and redirect a file to standard input.
    func runThroughShell(_ arguments: [String], columns: Int?, standardInput: String?) throws -> CommandResult {
        let executable = try #require(Livescan.executable).path
        var script = columns.map { "export COLUMNS=\($0); " } ?? "unset COLUMNS; "
        script += "exec " + ([executable] + arguments).map(Shell.quote).joined(separator: " ")
        script += standardInput.map { " < " + Shell.quote($0) } ?? ""
        return try Shell.run(script, arguments: [])
    }

    @Test func csvParsesBackWithFullIDsAndExactValues() throws {
        var log = Self.wholeLog
        log.insert(Self.change("add", frame: 4, id: Self.hostileID, value: "=HYPERLINK(\"http://x\")"), at: 3)
        let result = try Livescan.run(["report", "--csv", try write(log)])
        #expect(result.status == 0, "stderr: \(result.standardError)")
        let rows = try parseCSV(result.standardOutput)
        let header = try #require(rows.first)
        #expect(header.prefix(4) == ["id", "kind", "symbology", "value"])
        #expect(rows.count == 4)
        let column = { (name: String) in header.firstIndex(of: name) ?? -1 }
        let byID = Dictionary(uniqueKeysWithValues: rows.dropFirst().map { ($0[column("id")], $0) })
        #expect(byID[Self.lineID]?[column("value")] == Self.tricky)
        #expect(byID[Self.lineID]?[column("kind")] == "text")
        #expect(byID[Self.lineID]?[column("updates")] == "1")
        #expect(byID[Self.codeID]?[column("symbology")] == "qr")
        #expect(byID[Self.codeID]?[column("last_frame")] == "7")
        // A formula is defused, not run by a spreadsheet.
        #expect(byID[Self.hostileID]?[column("value")] == "'=HYPERLINK(\"http://x\")")
        #expect(result.standardOutput.hasSuffix("\r\n"))
    }

    @Test func jsonParsesWithItemsTotalsAndBadLines() throws {
        var log = Self.wholeLog
        log.insert("garbage", at: 2)
        let result = try Livescan.run(["report", "--json", try write(log)])
        #expect(result.status == 0, "stderr: \(result.standardError)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8))
            as? [String: Any])
        let items = try #require(object["items"] as? [[String: Any]])
        #expect(items.map { $0["id"] as? String } == [Self.codeID, Self.lineID])
        #expect(items[1]["value"] as? String == Self.tricky)
        #expect(items[0]["last_frame"] as? Int == 7)
        #expect((items[0]["dwell_time"] as? NSNumber)?.doubleValue == 0.5)
        let totals = try #require(object["totals"] as? [String: Any])
        #expect(totals["items"] as? Int == 2)
        #expect(totals["frames"] as? Int == 20)
        #expect(totals["end_reason"] as? String == "eof")
        #expect(totals["has_end"] as? Bool == true)
        #expect(object["bad_lines"] as? [Int] == [3])
        #expect(object["complete"] as? Bool == false)
    }

    @Test func garbageAndACutLastLineAreCountedNotFatal() throws {
        var log = Array(Self.wholeLog.dropLast(2))
        log.insert("not json at all", at: 1)
        log.append(String(Self.change("update", frame: 16, id: Self.lineID, symbology: nil, value: "x").prefix(30)))
        let path = folder.appendingPathComponent("cut.jsonl")
        // No newline after the cut line: the writer died mid-line.
        try Data(log.joined(separator: "\n").utf8).write(to: path)
        let result = try Livescan.run(["report", path.path])
        #expect(result.status == 0, "stderr: \(result.standardError)")
        #expect(result.outputLines.contains("bad lines: 2 (lines 2, 7)"))
        #expect(result.outputLines.contains("log has no end line: cut short?"))
        #expect(result.outputLines.contains("still in view when the log was cut: 1 item"))
        #expect(result.outputLines.contains { $0.hasPrefix("0b7f3c1e ") })

        let csv = try Livescan.run(["report", "--csv", path.path])
        #expect(csv.status == 0)
        #expect(try parseCSV(csv.standardOutput).count == 3)
        #expect(csv.errorLines.contains("Warning: bad lines: 2 (lines 2, 7)"))
    }

    @Test func unreadableOrEmptyLogsExitOne() throws {
        let missing = folder.appendingPathComponent("nope.jsonl").path
        for path in [missing, try write(["just text", "more"], named: "notes.txt"), try write([], named: "empty")] {
            let result = try Livescan.run(["report", path])
            #expect(result.status == 1, "\(path): \(result.standardError)")
            #expect(result.errorLines.count == 1 && result.errorLines.first?.hasPrefix("Error: ") == true,
                    "\(result.standardError)")
            #expect(result.errorLines.first?.contains(path) == true)
            #expect(result.standardOutput.isEmpty)
        }
    }

    @Test func badUsageExitsTwoWithTheReportUsageLine() throws {
        let path = try write(Self.wholeLog)
        for arguments in [["report", "--xml", path], ["report"], ["report", "--csv", "--json", path],
                          ["report", path, path]] {
            let result = try Livescan.run(arguments)
            #expect(result.status == 2, "\(arguments): \(result.standardError)")
            #expect(result.errorLines.count == 3)
            #expect(result.errorLines.first?.hasPrefix("Error: ") == true)
            #expect(result.errorLines.dropFirst().first
                        == "Usage: livescan report [--csv | --json] EVENTS.jsonl | DIR | LOG...")
            #expect(result.errorLines.last == "See 'livescan --help'.")
            #expect(result.standardOutput.isEmpty)
        }
        let help = try Livescan.run(["report", "--help"])
        #expect(help.status == 0 && help.standardOutput.contains("Usage: livescan report"))
    }
}

/// RFC 4180: fields separated by commas, records by CRLF; a quoted field may hold commas, CR, LF and `""`.
func parseCSV(_ text: String) throws -> [[String]] {
    var rows: [[String]] = []
    var row: [String] = []
    var field = ""
    var quoted = false
    var scalars = Array(text.unicodeScalars)[...]
    while let scalar = scalars.popFirst() {
        if quoted {
            if scalar == "\"" {
                if scalars.first == "\"" {
                    field.unicodeScalars.append(scalars.removeFirst())
                } else {
                    quoted = false
                }
            } else {
                field.unicodeScalars.append(scalar)
            }
        } else if scalar == "\"" && field.isEmpty {
            quoted = true
        } else if scalar == "," {
            row.append(field)
            field = ""
        } else if scalar == "\r" && scalars.first == "\n" {
            scalars.removeFirst()
            row.append(field)
            rows.append(row)
            row = []
            field = ""
        } else if scalar == "\"" || scalar == "\n" || scalar == "\r" {
            throw CocoaError(.propertyListReadCorrupt, userInfo: [NSLocalizedDescriptionKey: "bare \(scalar) in CSV"])
        } else {
            field.unicodeScalars.append(scalar)
        }
    }
    if quoted { throw CocoaError(.propertyListReadCorrupt, userInfo: [NSLocalizedDescriptionKey: "open quote"]) }
    if !field.isEmpty || !row.isEmpty {
        row.append(field)
        rows.append(row)
    }
    #expect(rows.allSatisfy { $0.count == rows.first?.count }, "ragged CSV: \(rows)")
    return rows
}
