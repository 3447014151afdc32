import Foundation

/// One input of `livescan scan --out DIR` that could not be scanned, as a line of `DIR/failures.jsonl`. This type is
/// the one place that file's schema lives (the README documents it):
///
/// `{"v":1,"input":PATH,"log":NAME,"error":MESSAGE,"status":S,"time":ISO8601}`: `input` the file's absolute path,
/// `log` the name its event log would have in DIR, `error` what the scan said on stderr (its `Error:` lines), `status`
/// the scan's exit status (128 + N for a scan killed by signal N), `time` when it failed, UTC.
///
/// The file is only appended to, one line per failed attempt, each line in one write(2) to a file opened `O_APPEND`:
/// runs that share DIR (Slurm array tasks) add their lines without losing any. An input scanned later has a complete
/// log newer than its failure, and `ArchiveReport` counts it scanned, not failed.
public struct ArchiveFailure: Sendable, Equatable {
    /// The file's name in DIR.
    public static let fileName = "failures.jsonl"
    /// The schema version written in `v`.
    public static let version = 1

    public var input: String
    public var log: String
    public var error: String
    public var status: Int
    public var time: Date

    public init(input: String, log: String, error: String, status: Int, time: Date) {
        self.input = input
        self.log = log
        self.error = error
        self.status = status
        self.time = time
    }

    /// The line as written, without its newline.
    public var line: String {
        var line = JSONLine()
        line.add("v", Self.version)
        line.add("input", FileNameBytes.displayName(input))
        line.add("log", log)
        line.add("error", error)
        line.add("status", status)
        line.add("time", Self.timeFormat.string(from: time))
        return line.text
    }

    /// A line of the file read back; nil for one that is not such a record.
    public init?(line: Data) {
        guard let object = try? JSONSerialization.jsonObject(with: line) as? [String: Any],
              let input = object["input"] as? String, let log = object["log"] as? String,
              let text = object["time"] as? String, let time = Self.timeFormat.date(from: text)
        else { return nil }
        self.init(input: input, log: log, error: object["error"] as? String ?? "",
                  status: (object["status"] as? NSNumber)?.intValue ?? 1, time: time)
    }

    /// Every record of the file at `path`, in order; lines that are not records are skipped. Empty when there is no
    /// such file.
    public static func records(at path: String) -> [ArchiveFailure] {
        guard let data = FileManager.default.contents(atPath: path) else { return [] }
        return data.split(separator: UInt8(ascii: "\n")).compactMap { ArchiveFailure(line: Data($0)) }
    }

    /// ISO 8601 in UTC, to the millisecond: `2026-12-04T18:30:05.123Z`.
    nonisolated(unsafe) public static let timeFormat: ISO8601DateFormatter = {
        let format = ISO8601DateFormatter()
        format.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return format
    }()
}
