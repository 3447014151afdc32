import Foundation
import LiveScan

/// `livescan report DIR` or `livescan report LOG...`: one row per event log and the totals of them all
/// (`ArchiveReport`), with the inputs a folder's `failures.jsonl` lists that have no complete log since. Logs are read
/// one at a time, each streamed as `livescan report LOG` streams it. Exit status: 0 report printed (cut logs and bad
/// lines included), 1 a log or folder cannot be read (the report of the others is printed first) or nothing was
/// found to report.
enum ArchiveReportCommand {
    static func run(_ paths: [String], format: ReportCommand.Format) -> ExitCode {
        var logs: [ArchiveReport.Log] = []
        var failures: [ArchiveFailure] = []
        var unreadable = false
        for path in paths {
            var isFolder = false
            if FileNames.exists(path, isDirectory: &isFolder), isFolder {
                do {
                    for log in try ArchiveReport.logPaths(in: path) {
                        unreadable = !read(log, into: &logs) || unreadable
                    }
                } catch {
                    Diagnostics.report(ScanError.sourceUnavailable(source: path, reason: "cannot list it"))
                    unreadable = true
                }
                failures += ArchiveReport.outstandingFailures(in: path)
            } else {
                unreadable = !read(path, into: &logs) || unreadable
            }
        }
        guard !logs.isEmpty || !failures.isEmpty else {
            let reason = "holds no event log (*.jsonl, as `livescan scan --out` writes them)"
            return Diagnostics.fail(ScanError.sourceUnavailable(source: paths.joined(separator: ", "), reason: reason),
                                    code: .inputError)
        }
        let report = ArchiveReport(logs: logs, failures: failures)
        let standardOutput = LineOutput(descriptor: STDOUT_FILENO, name: "standard output")
        do {
            switch format {
            case .table:
                try standardOutput.write(text: ArchiveReportTable.render(report, width: ReportTable.outputWidth))
            case .csv:
                try standardOutput.write(text: ArchiveReportCSV.render(report, terminalSafe: Terminal.isInteractive))
            case .json:
                let json = try ArchiveReportJSON.render(report)
                try standardOutput.write(Terminal.isInteractive ? TerminalSafeText.escapeJSON(json) : json)
            }
        } catch ScanError.outputClosed {
            return unreadable ? .inputError : .found
        } catch {
            return Diagnostics.fail(error, code: .inputError)
        }
        return unreadable ? .inputError : .found
    }

    /// Reads the log at `path` into `logs`; false, with its error reported, when it cannot be read or holds no
    /// event-log line.
    private static func read(_ path: String, into logs: inout [ArchiveReport.Log]) -> Bool {
        var builder = EventLogReport.Builder()
        do {
            try EventLogReader.read(contentsOf: path) { builder.add($0) }
        } catch {
            Diagnostics.report(error)
            return false
        }
        guard builder.recordCount > 0 else {
            Diagnostics.report(ScanError.sourceUnavailable(source: path, reason: "holds no event-log line"))
            return false
        }
        logs.append(ArchiveReport.Log(path: path, report: builder.report))
        return true
    }
}

/// The several-log report as an aligned text table: a row per log, then the totals and the failed inputs.
/// Everything read from the logs is escaped through `TerminalSafeText`.
enum ArchiveReportTable {
    static let headers = ["SOURCE", "ITEMS", "BARCODES", "TEXT", "FRAMES", "DURATION (s)", "ENDED"]
    static let sourceColumn = 0
    static let narrowestSource = 12

    static func render(_ report: ArchiveReport, width: Int) -> String {
        let rows = report.logs.map { log in
            let totals = log.report.totals
            return [
                TerminalSafeText.escape(totals.source ?? log.path),
                String(log.report.items.count),
                String(totals.itemsPerKind["barcode"] ?? 0),
                String(totals.itemsPerKind["text"] ?? 0),
                totals.frameCount.map(String.init) ?? "-",
                ReportTable.seconds(totals.duration),
                ended(log.report),
            ]
        }
        let widths = TerminalColumns.tableWidths(headers: headers, rows: rows, width: width, flexible: sourceColumn,
                                                 narrowest: narrowestSource)
        var lines = [line(headers, widths)]
        for row in rows {
            var row = row
            // A path says most at its end: cut its start.
            let cell = row[sourceColumn]
            if TerminalColumns.width(cell) > widths[sourceColumn] {
                row[sourceColumn] = "…" + String(cell.suffix(max(0, widths[sourceColumn] - 1)))
            }
            lines.append(line(row, widths))
        }
        lines.append("")
        lines += totals(report)
        return lines.joined(separator: "\n") + "\n"
    }

    /// How a log ended: its end line's reason, or `cut` when it has none.
    static func ended(_ report: EventLogReport) -> String {
        guard report.totals.hasEndLine else { return "cut" }
        let reason = TerminalSafeText.escape(report.totals.endReason ?? "?")
        return report.totals.badLines.isEmpty ? reason : reason + ", \(report.totals.badLines.count) bad lines"
    }

    static func totals(_ report: ArchiveReport) -> [String] {
        let totals = report.totals
        let kinds = ReportTable.counts(totals.itemsPerKind)
        let symbologies = ReportTable.counts(totals.itemsPerSymbology)
        var lines = ["logs: \(totals.logs) (\(totals.completeLogs) complete)"]
        lines.append("items: \(totals.items)" + (kinds.isEmpty ? "" : " (\(kinds))"))
        if !symbologies.isEmpty {
            lines.append("barcodes: " + symbologies)
        }
        let events = ["add", "update", "remove"].map { "\($0) \(totals.eventsPerType[$0] ?? 0)" }
        lines.append("events: " + events.joined(separator: ", "))
        lines.append("frames: \(totals.frames), duration: " + ReportTable.seconds(totals.duration) + " s")
        if totals.badLines > 0 {
            lines.append("bad lines: \(totals.badLines)")
        }
        if !report.failures.isEmpty {
            lines.append("failed inputs: \(report.failures.count)")
            lines += report.failures.map { "  " + TerminalSafeText.escape("\($0.input): \($0.error)") }
        }
        return lines
    }

    /// The counts align right, the source and how it ended left.
    private static func line(_ cells: [String], _ widths: [Int]) -> String {
        TerminalColumns.tableRow(cells, widths: widths, rightAligned: Set(1..<headers.count - 1))
    }
}

/// The several-log report as RFC 4180 CSV, a row per log (its items are `livescan report LOG --csv`'s). Text fields
/// are defused against formula injection as `ReportCSV` does.
enum ArchiveReportCSV {
    static let header = ["log", "source", "complete", "items", "barcodes", "text", "frames", "duration", "end_reason",
                         "end_error", "bad_lines"]

    static func render(_ report: ArchiveReport, terminalSafe: Bool = false) -> String {
        var rows = [header]
        for log in report.logs {
            let totals = log.report.totals
            rows.append([
                ReportCSV.text(log.path), ReportCSV.text(totals.source), String(log.report.isComplete),
                String(log.report.items.count), String(totals.itemsPerKind["barcode"] ?? 0),
                String(totals.itemsPerKind["text"] ?? 0), totals.frameCount.map(String.init) ?? "",
                ReportCSV.number(totals.duration), ReportCSV.text(totals.endReason), ReportCSV.text(totals.endError),
                String(totals.badLines.count),
            ])
        }
        let fields = terminalSafe ? rows.map { $0.map(TerminalSafeText.escape) } : rows
        return fields.map { $0.map(ReportCSV.quoted).joined(separator: ",") + "\r\n" }.joined()
    }
}

/// The several-log report as one JSON object, `{"logs":[...],"totals":{...},"failures":[...]}`, keys sorted, absent
/// values as null.
enum ArchiveReportJSON {
    static func render(_ report: ArchiveReport) throws -> String {
        let logs: [[String: Any]] = report.logs.map { log in
            let totals = log.report.totals
            return [
                "log": log.path, "source": orNull(totals.source), "complete": log.report.isComplete,
                "items": log.report.items.count, "items_per_kind": totals.itemsPerKind,
                "items_per_symbology": totals.itemsPerSymbology, "events": totals.eventsPerType,
                "frames": orNull(totals.frameCount), "duration": orNull(totals.duration),
                "end_reason": orNull(totals.endReason), "end_error": orNull(totals.endError),
                "bad_lines": totals.badLines.count,
            ]
        }
        let totals = report.totals
        let totalsObject: [String: Any] = [
            "logs": totals.logs, "complete_logs": totals.completeLogs, "items": totals.items,
            "items_per_kind": totals.itemsPerKind, "items_per_symbology": totals.itemsPerSymbology,
            "events": totals.eventsPerType, "frames": totals.frames, "duration": totals.duration,
            "bad_lines": totals.badLines, "failed_inputs": totals.failedInputs,
        ]
        let failures: [[String: Any]] = report.failures.map { failure in
            ["input": FileNameBytes.displayName(failure.input), "log": failure.log, "error": failure.error,
             "status": failure.status, "time": ArchiveFailure.timeFormat.string(from: failure.time)]
        }
        let object: [String: Any] = ["logs": logs, "totals": totalsObject, "failures": failures]
        let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
        return String(decoding: data, as: UTF8.self)
    }

    private static func orNull(_ value: Any?) -> Any {
        value ?? NSNull()
    }
}
