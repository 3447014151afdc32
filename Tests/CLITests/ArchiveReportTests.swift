import Foundation
import Testing
import LiveScan
import LiveScanScenes
@testable import livescan

/// `livescan report DIR` and `livescan report LOG...`: a row per log, the totals of all, the failures that stand;
/// and docs/archives.md's reading of the folder as one table.
@Suite(.serialized) struct ArchiveReportTests {
    let folder: URL
    /// Owns `folder`: it goes with this test.
    private let scratch: ScratchFolder

    init() throws {
        scratch = try ScratchFolder()
        folder = scratch.url
    }

    /// Two rendered clips and a corrupt file scanned into `logs`; the logs folder.
    func scannedArchive() throws -> String {
        let videos = scratch.path("videos")
        try FileManager.default.createDirectory(atPath: videos, withIntermediateDirectories: true)
        try SceneRenderer(scene: archiveClip("ONE", frames: 20)).writeVideo(to: videos + "/one.mp4")
        try SceneRenderer(scene: archiveClip("TWO", frames: 30)).writeVideo(to: videos + "/two.mp4")
        try Data(repeating: 0, count: 3000).write(to: URL(fileURLWithPath: videos + "/broken.mp4"))
        let logs = scratch.path("logs")
        let scan = try Livescan.run(["scan", "--out", logs, "--types", "qr", videos])
        #expect(scan.status == 1, "stderr: \(scan.standardError)")
        return logs
    }

    /// `livescan report PATHS...` 200 columns wide, so that a scratch folder's long paths are not cut.
    func wideReport(_ paths: String...) throws -> CommandResult {
        try Shell.run("COLUMNS=200 exec \"$0\" report \"$@\"",
                      arguments: [try #require(Livescan.executable).path] + paths)
    }

    /// A long path in a narrow table is cut at its start, keeping the file's name.
    @Test func aLongSourceIsCutAtItsStart() throws {
        let log = scratch.path("long.jsonl")
        let lines = ReportCommandTests.wholeLog.map {
            $0.replacingOccurrences(of: "\"shelf.mp4\"", with: "\"/very/long/folder/of/recordings/day-12/shelf.mp4\"")
        }
        try (lines.joined(separator: "\n") + "\n").write(toFile: log, atomically: false, encoding: .utf8)
        let table = ArchiveReportTable.render(ArchiveReport(logs: [
            ArchiveReport.Log(path: log, report: EventLogReport(try EventLogReader(contentsOf: log))),
        ]), width: 70)
        let row = try #require(table.split(separator: "\n").dropFirst().first.map(String.init))
        #expect(row.hasPrefix("…") && row.contains("day-12/shelf.mp4 "), "\(table)")
        #expect(TerminalColumns.width(row) <= 70, "\(table)")
    }

    func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "\(text)")
    }

    @Test func aFolderIsReportedLogByLogWithTotalsAndItsFailures() throws {
        let logs = try scannedArchive()
        let (one, two, broken) = (scratch.path("videos/one.mp4"), scratch.path("videos/two.mp4"),
                                  scratch.path("videos/broken.mp4"))
        let table = try wideReport(logs)
        #expect(table.status == 0, "stderr: \(table.standardError)")
        let lines = table.outputLines
        #expect(lines.first?.hasPrefix("SOURCE") == true && lines.first?.hasSuffix("ENDED") == true, "\(lines)")
        let rowOne = try #require(lines.first { $0.hasPrefix(one + " ") }, "\(lines)")
        // One QR, no text; 20 frames of 30 fps end at 0.63 s.
        #expect(rowOne.split(separator: " ").suffix(6) == ["1", "1", "0", "20", "0.63", "eof"], "\(rowOne)")
        #expect(lines.contains { $0.hasPrefix(two + " ") && $0.hasSuffix(" 30          0.97  eof") }, "\(lines)")
        #expect(lines.contains("logs: 2 (2 complete)"))
        #expect(lines.contains("items: 2 (barcode 2)"))
        #expect(lines.contains("barcodes: qr 2"))
        #expect(lines.contains("frames: 50, duration: 1.60 s"))
        #expect(lines.contains("failed inputs: 1"))
        #expect(lines.contains { $0.hasPrefix("  " + broken + ": ") }, "\(lines)")

        let report = try json(try Livescan.run(["report", "--json", logs]).standardOutput)
        let perLog = try #require(report["logs"] as? [[String: Any]])
        #expect(perLog.map { $0["source"] as? String } == [one, two])
        #expect(perLog.allSatisfy { $0["complete"] as? Bool == true && $0["items"] as? Int == 1 })
        let totals = try #require(report["totals"] as? [String: Any])
        #expect(totals["logs"] as? Int == 2 && totals["items"] as? Int == 2 && totals["frames"] as? Int == 50)
        #expect(totals["failed_inputs"] as? Int == 1)
        let failures = try #require(report["failures"] as? [[String: Any]])
        #expect(failures.count == 1 && failures.first?["input"] as? String == broken)

        let csv = try parseCSV(try Livescan.run(["report", "--csv", logs]).standardOutput)
        #expect(csv.first == ArchiveReportCSV.header)
        #expect(csv.dropFirst().map { $0[1] } == [one, two] && csv.dropFirst().allSatisfy { $0[2] == "true" })

        // The broken input replaced by a good one and scanned: its failure no longer stands.
        try SceneRenderer(scene: archiveClip("FIXED", frames: 20)).writeVideo(to: broken)
        let rescan = try Livescan.run(["scan", "--out", logs, "--types", "qr", scratch.path("videos")])
        #expect(rescan.status == 0, "stderr: \(rescan.standardError)")
        let after = try wideReport(logs).outputLines
        #expect(after.contains("logs: 3 (3 complete)") && !after.contains { $0.hasPrefix("failed inputs") }, "\(after)")
    }

    @Test func severalLogsAreReportedTogetherACutOneSaysSo() throws {
        let whole = scratch.path("whole.jsonl")
        try (ReportCommandTests.wholeLog.joined(separator: "\n") + "\n").write(toFile: whole, atomically: false,
                                                                              encoding: .utf8)
        let cut = scratch.path("cut.jsonl")
        try (ReportCommandTests.wholeLog.dropLast(2).joined(separator: "\n") + "\n").write(toFile: cut,
                                                                                          atomically: false,
                                                                                          encoding: .utf8)
        let result = try Livescan.run(["report", whole, cut])
        #expect(result.status == 0, "stderr: \(result.standardError)")
        let rows = result.outputLines.filter { $0.hasPrefix("shelf.mp4 ") }
        #expect(rows.count == 2 && rows[0].hasSuffix(" eof") && rows[1].hasSuffix(" cut"), "\(result.outputLines)")
        #expect(result.outputLines.contains("logs: 2 (1 complete)"))
        #expect(result.outputLines.contains("items: 4 (barcode 2, text 2)"))

        // A log that cannot be read is an error line and exit 1, after the others' report.
        let missing = scratch.path("nope.jsonl")
        let partly = try Livescan.run(["report", whole, missing])
        #expect(partly.status == 1 && partly.outputLines.contains("logs: 1 (1 complete)"))
        #expect(partly.errorLines.count == 1 && partly.errorLines[0].hasPrefix("Error: ")
                    && partly.errorLines[0].contains(missing), "\(partly.standardError)")

        let empty = scratch.path("empty")
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        let nothing = try Livescan.run(["report", empty])
        #expect(nothing.status == 1 && nothing.errorLines.count == 1 && nothing.errorLines[0].contains("no event log"))

        let stdinAmongOthers = try Livescan.run(["report", "-", whole])
        #expect(stdinAmongOthers.status == 2 && stdinAmongOthers.errorLines.first?.contains("read alone") == true)
    }

    /// docs/archives.md's Python blocks (the README points there) read the folder as one table of changes: the json-module one always (python3 is
    /// there: `make setup` installs python3-pip), the pandas one where pandas is installed. Each prints items per
    /// source and kind, which must be what `livescan report --json` counts.
    @Test func theReadmeReadsTheFolderOfLogsAsOneTable() throws {
        let readmeURL = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/archives.md")
        let readme = try String(contentsOf: readmeURL, encoding: .utf8)
        let blocks = readme.components(separatedBy: "```python\n").dropFirst()
            .compactMap { $0.components(separatedBy: "```").first }
        let plain = try #require(blocks.first { $0.contains("import glob, json, sys") }, "no json block in docs/archives.md")
        let withPandas = try #require(blocks.first { $0.contains("import pandas as pd") }, "no pandas block in docs/archives.md")

        let logs = try scannedArchive()
        let report = try json(try Livescan.run(["report", "--json", logs]).standardOutput)
        var expected: [String] = []
        for log in try #require(report["logs"] as? [[String: Any]]) {
            for (kind, count) in (log["items_per_kind"] as? [String: Int] ?? [:]).sorted(by: { $0.key < $1.key }) {
                expected.append("\(log["source"] as? String ?? "")\t\(kind)\t\(count)")
            }
        }
        #expect(expected.count == 2)
        let python = "exec /usr/bin/python3 -c \"$0\" \"$1\""
        let fromJSON = try Shell.run(python, arguments: [plain, logs])
        #expect(fromJSON.status == 0, "stderr: \(fromJSON.standardError)")
        #expect(fromJSON.outputLines == expected.sorted())
        let hasPandas = try Shell.run("exec /usr/bin/python3 -c 'import pandas'", arguments: []).status == 0
        if hasPandas {
            let fromPandas = try Shell.run(python, arguments: [withPandas, logs])
            #expect(fromPandas.status == 0, "stderr: \(fromPandas.standardError)")
            #expect(fromPandas.outputLines == expected.sorted())
        }
    }
}
