import Foundation
import LiveScan

/// `livescan report [--csv | --json] EVENTS.jsonl`: a table per item of an event log, and totals. Given a folder or
/// several logs, a row per log and the totals of them all instead (`ArchiveReportCommand`).
/// A log with garbage lines, or cut mid-line by a crash, is still reported with its bad lines counted.
/// Exit status: 0 report printed (bad lines included), 1 the log cannot be read or holds no event-log line,
/// 2 usage error.
enum ReportCommand {
    static let usageLine = "Usage: livescan report [--csv | --json] EVENTS.jsonl | DIR | LOG..."

    static let help = """
    \(usageLine)

    Summarises an event log written by `livescan scan --events` (- reads standard input): one row per item
    (id, kind, value, first and last seen, dwell time, updates), then totals. Lines that cannot be read
    are counted and listed, never fatal.

    Given a folder (the DIR of `livescan scan --out DIR`: its *.jsonl logs) or several logs: one row per log
    (source, items, barcodes, text, frames, duration, how it ended), the totals of them all, and the inputs
    listed in DIR/failures.jsonl that have no complete log since. --csv: a row per log; --json:
    {"logs":[...],"totals":{...},"failures":[...]}.

    Options:
      --csv       RFC 4180 CSV, full ids and values; a value starting with = + - @ (or a tab or carriage
                  return) gets a leading ' so that a spreadsheet shows it instead of running it as a formula
      --json      one JSON object: {"items":[...],"totals":{...},"bad_lines":[...],"complete":bool}
      -h, --help  show this help

    Exit status: 0 report printed (even with bad lines), 1 the log cannot be read or holds no event-log
    line, 2 usage error.
    """

    enum Format {
        case table, csv, json
    }

    static func run(_ arguments: [String]) -> ExitCode {
        if arguments.contains("-h") || arguments.contains("--help") {
            print(help)
            return .found
        }
        let format: Format
        let paths: [String]
        do {
            (format, paths) = try parse(arguments)
        } catch let error as UsageError {
            return Diagnostics.usage(error, usageLine: usageLine)
        } catch {
            return Diagnostics.usage(UsageError(message: "\(error)"), usageLine: usageLine)
        }
        var isFolder = false
        guard paths.count == 1, !(FileNames.exists(paths[0], isDirectory: &isFolder) && isFolder) else {
            return ArchiveReportCommand.run(paths, format: format)
        }
        let path = paths[0]

        let source = path == "-" ? "standard input" : path
        var builder = EventLogReport.Builder()
        do {
            try readLog(path, name: source) { builder.add($0) }
        } catch {
            return Diagnostics.fail(error, code: .inputError)
        }
        guard builder.recordCount > 0 else {
            let reason = "holds no event-log line (is it a log written by `livescan scan --events`?)"
            return Diagnostics.fail(ScanError.sourceUnavailable(source: source, reason: reason), code: .inputError)
        }
        do {
            try writeReport(builder.report, as: format)
        } catch ScanError.outputClosed {
            // `livescan report log | head` with SIGPIPE ignored: the reader had what it wanted, as for scan.
            return .found
        } catch {
            return Diagnostics.fail(error, code: .inputError)
        }
        return .found
    }

    /// Writes the report to standard output; every write is checked (a full disk, a closed descriptor, a reader
    /// gone), and its failure thrown as the `ScanError` that `LineOutput` gives.
    private static func writeReport(_ report: EventLogReport, as format: Format) throws {
        let standardOutput = LineOutput(descriptor: STDOUT_FILENO, name: "standard output")
        switch format {
        case .table:
            try standardOutput.write(text: ReportTable.render(report, width: ReportTable.outputWidth))
        case .csv:
            try standardOutput.write(text: ReportCSV.render(report, terminalSafe: Terminal.isInteractive))
            // CSV is data: the notes that the table prints below itself go to stderr, out of the data's way.
            for note in ReportTable.notes(report) {
                Diagnostics.printError("Warning: " + note)
            }
        case .json:
            let json = try ReportJSON.render(report)
            // On a terminal, C1 controls and bidirectional overrides in values are written as JSON escapes: the
            // same JSON, nothing for the terminal to obey.
            try standardOutput.write(Terminal.isInteractive ? TerminalSafeText.escapeJSON(json) : json)
        }
    }

    static func parse(_ arguments: [String]) throws -> (Format, [String]) {
        let parsed = try CommandLineArguments(arguments, valued: [], switches: ["--csv", "--json"])
        if parsed.has("--csv") && parsed.has("--json") {
            throw UsageError(message: "--csv and --json cannot be combined")
        }
        let paths = parsed.positional
        guard !paths.isEmpty else {
            throw UsageError(message: "no event log given")
        }
        guard paths.count == 1 || !paths.contains("-") else {
            throw UsageError(message: "- (standard input) is one log, read alone")
        }
        if let repeated = paths.first(where: { path in paths.filter { $0 == path }.count > 1 }) {
            throw UsageError(message: "\(repeated) is given twice")
        }
        return (parsed.has("--csv") ? .csv : parsed.has("--json") ? .json : .table, paths)
    }

    /// Streams the log at `path` ("-": standard input) line by line: a log of any size, or an endless
    /// `/dev/zero`, is read in bounded memory.
    private static func readLog(_ path: String, name: String, _ body: (EventLogReader.Line) -> Void) throws {
        if path == "-" {
            try EventLogReader.read(descriptor: STDIN_FILENO, name: name, body)
        } else {
            try EventLogReader.read(contentsOf: path, body)
        }
    }

}

/// The report as an aligned text table for a terminal. Everything read from the log (ids and kinds as well as
/// values: the log is only a file, anyone can write it) is escaped through `TerminalSafeText`.
enum ReportTable {
    static let headers = ["ID", "KIND", "VALUE", "FIRST (s)", "LAST (s)", "DWELL (s)", "UPDATES"]
    static let valueColumn = 2
    /// Below this the value column stays this wide and the table overflows a very narrow terminal.
    static let narrowestValue = 8

    /// The width a report table is laid out in on standard output: COLUMNS first (scripts set it), then the
    /// terminal's own width, then 100 for pipes.
    static var outputWidth: Int {
        let columns = ProcessInfo.processInfo.environment["COLUMNS"].flatMap { Int($0) }.flatMap { $0 > 0 ? $0 : nil }
        return columns ?? (Terminal.isInteractive ? Terminal.size.width : 100)
    }

    static func render(_ report: EventLogReport, width: Int) -> String {
        let rows = report.items.map { item in
            [
                TerminalSafeText.escape(String(item.id.prefix(8))),
                TerminalSafeText.escape(item.label),
                TerminalSafeText.escape(item.value ?? ""),
                seconds(item.firstTime),
                seconds(item.lastTime),
                seconds(item.dwellTime),
                String(item.updates),
            ]
        }
        // The value column takes what the others leave.
        let widths = TerminalColumns.tableWidths(headers: headers, rows: rows, width: width, flexible: valueColumn,
                                                 narrowest: max(narrowestValue, TerminalColumns.width(headers[2])))

        var lines = [line(headers, widths)]
        for row in rows {
            var row = row
            row[valueColumn] = TerminalColumns.cut(row[valueColumn], to: widths[valueColumn])
            lines.append(line(row, widths))
        }
        lines.append("")
        lines += totals(report)
        lines += notes(report)
        return lines.joined(separator: "\n") + "\n"
    }

    /// The totals lines.
    static func totals(_ report: EventLogReport) -> [String] {
        let totals = report.totals
        let kinds = counts(totals.itemsPerKind)
        let symbologies = counts(totals.itemsPerSymbology)
        var lines = ["items: \(report.items.count)" + (kinds.isEmpty ? "" : " (\(kinds))")]
        if !symbologies.isEmpty {
            lines.append("barcodes: " + symbologies)
        }
        let events = ["add", "update", "remove"].map { "\($0) \(totals.eventsPerType[$0] ?? 0)" }
        lines.append("events: " + events.joined(separator: ", "))
        var frames: String
        if totals.holdsStillImages {
            // Images have no media time: the one second between them in the log is no duration.
            frames = "images: " + (totals.frameCount.map(String.init) ?? "-")
        } else {
            frames = "frames: " + (totals.frameCount.map(String.init) ?? "-")
            frames += ", duration: " + seconds(totals.duration) + " s"
        }
        if let reason = totals.endReason {
            frames += ", ended: " + TerminalSafeText.escape(reason)
            if let error = totals.endError {
                frames += " (" + TerminalSafeText.escape(error) + ")"
            }
        }
        lines.append(frames)
        return lines
    }

    /// What is wrong with the log, one line each: bad lines, a missing start or end line.
    static func notes(_ report: EventLogReport) -> [String] {
        let totals = report.totals
        var notes: [String] = []
        if !totals.badLines.isEmpty {
            // A log of thousands of garbage lines should not print thousands of numbers.
            let shown = totals.badLines.prefix(20).map(String.init).joined(separator: ", ")
            let more = totals.badLines.count > 20 ? ", ..." : ""
            notes.append("bad lines: \(totals.badLines.count) (lines \(shown)\(more))")
        }
        if !totals.hasStartLine {
            notes.append("log has no start line: started mid-way?")
        }
        if !totals.hasEndLine {
            notes.append("log has no end line: cut short?")
            let inView = report.itemsInViewWhenCut.count
            if inView > 0 {
                notes.append("still in view when the log was cut: \(inView) item\(inView == 1 ? "" : "s")")
            }
        }
        return notes
    }

    static func seconds(_ value: Double?) -> String {
        value.map { String(format: "%.2f", $0) } ?? "-"
    }

    static func counts(_ counts: [String: Int]) -> String {
        counts.sorted { $0.key < $1.key }.map { "\(TerminalSafeText.escape($0.key)) \($0.value)" }
            .joined(separator: ", ")
    }

    /// Numbers align right, words left.
    private static func line(_ cells: [String], _ widths: [Int]) -> String {
        TerminalColumns.tableRow(cells, widths: widths, rightAligned: Set(3..<headers.count))
    }
}

/// The report as RFC 4180 CSV: a header row, one row per item, CRLF line ends, full ids and values.
///
/// CSV is data, not terminal output, so values keep their exact text, with one exception: a spreadsheet
/// runs a cell starting with `=`, `+`, `-` or `@` (and, in some, a tab or carriage return) as a formula,
/// so such a text field gets a leading `'` (OWASP's advice against CSV injection). A payload that starts
/// so is thus shown with one more `'` than it has; `--json` keeps it exact.
enum ReportCSV {
    static let header = ["id", "kind", "symbology", "value", "value_b64", "first_frame", "first_time", "last_frame",
                         "last_time", "dwell_time", "updates", "distinct_values", "added", "removed"]

    /// The CSV text: the exact values for a file or a pipe; on a terminal (`terminalSafe`) each field is escaped
    /// through `TerminalSafeText` first, so that a payload's escape sequences are shown, not obeyed.
    static func render(_ report: EventLogReport, terminalSafe: Bool = false) -> String {
        var rows = [header]
        for item in report.items {
            rows.append([
                text(item.id), text(item.kind), text(item.symbology), text(item.value), text(item.valueBase64),
                String(item.firstFrame), number(item.firstTime), String(item.lastFrame), number(item.lastTime),
                number(item.dwellTime), String(item.updates), String(item.distinctValues), String(item.wasAdded),
                String(item.removed),
            ])
        }
        let fields = terminalSafe ? rows.map { $0.map(TerminalSafeText.escape) } : rows
        return fields.map { $0.map(quoted).joined(separator: ",") + "\r\n" }.joined()
    }

    /// A text field from the log, defused against formula injection.
    static func text(_ value: String?) -> String {
        guard let value, let first = value.unicodeScalars.first else { return "" }
        return "=+-@\t\r".unicodeScalars.contains(first) ? "'" + value : value
    }

    static func number(_ value: Double?) -> String {
        value.map { "\($0)" } ?? ""
    }

    /// RFC 4180: a field holding a comma, quote or line break is quoted, its quotes doubled.
    static func quoted(_ field: String) -> String {
        guard field.unicodeScalars.contains(where: { ",\"\r\n".unicodeScalars.contains($0) }) else { return field }
        return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}

/// The report as one JSON object: `{"items":[...],"totals":{...},"bad_lines":[...],"complete":bool}`, keys
/// sorted, absent values as null. JSONSerialization escapes control characters, so it is safe on a terminal.
enum ReportJSON {
    static func render(_ report: EventLogReport) throws -> String {
        let items: [[String: Any]] = report.items.map { item in
            [
                "id": item.id, "kind": orNull(item.kind), "symbology": orNull(item.symbology),
                "value": orNull(item.value), "value_b64": orNull(item.valueBase64),
                "first_frame": item.firstFrame, "first_time": orNull(item.firstTime),
                "last_frame": item.lastFrame, "last_time": orNull(item.lastTime), "dwell_time": orNull(item.dwellTime),
                "updates": item.updates, "distinct_values": item.distinctValues, "added": item.wasAdded,
                "removed": item.removed,
            ]
        }
        let totals = report.totals
        let totalsObject: [String: Any] = [
            "items": report.items.count, "items_per_kind": totals.itemsPerKind,
            "items_per_symbology": totals.itemsPerSymbology, "events": totals.eventsPerType,
            "frames": orNull(totals.frameCount), "last_frame": orNull(totals.lastFrame),
            "duration": orNull(totals.duration), "images": orNull(totals.holdsStillImages ? totals.frameCount : nil),
            "bad_lines": totals.badLines.count,
            "has_start": totals.hasStartLine, "has_end": totals.hasEndLine,
            "end_reason": orNull(totals.endReason), "end_error": orNull(totals.endError),
            "in_view_when_cut": report.itemsInViewWhenCut.count,
        ]
        let object: [String: Any] = [
            "items": items, "totals": totalsObject, "bad_lines": totals.badLines, "complete": report.isComplete,
        ]
        let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
        return String(decoding: data, as: UTF8.self)
    }

    private static func orNull(_ value: Any?) -> Any {
        value ?? NSNull()
    }
}
