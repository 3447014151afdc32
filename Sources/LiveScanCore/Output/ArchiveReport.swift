import Foundation

/// A summary of many event logs, as `livescan scan --out DIR` leaves them: each log's totals, the totals of them
/// all, and the inputs that failed and have no log since. Pure but for `outstandingFailures(in:)`, which looks at
/// DIR. `livescan report DIR` (or `LOG...`) prints it as a table, CSV or JSON.
public struct ArchiveReport: Sendable {
    /// One log: where it is, and its report.
    public struct Log: Sendable {
        /// The log's path, as given or found in a folder.
        public var path: String
        public var report: EventLogReport

        public init(path: String, report: EventLogReport) {
            self.path = path
            self.report = report
        }
    }

    /// Sums over every log.
    public struct Totals: Sendable, Equatable {
        public var logs = 0
        /// Logs with start and end lines and no bad line (`EventLogReport.isComplete`).
        public var completeLogs = 0
        public var items = 0
        public var itemsPerKind: [String: Int] = [:]
        public var itemsPerSymbology: [String: Int] = [:]
        /// Lines by `event`, start and end included.
        public var eventsPerType: [String: Int] = [:]
        /// Frames decoded, summed over the logs that say (`EventLogReport.Totals.frameCount`).
        public var frames = 0
        /// Media time scanned, summed: each log's `duration`.
        public var duration = 0.0
        public var badLines = 0
        /// Inputs that failed and have no complete log since (`failures`).
        public var failedInputs = 0
    }

    /// Every log, in the order given (a folder's in name order).
    public var logs: [Log]
    /// The failures that still stand: for each input, its latest failure, when no complete log of it is newer.
    public var failures: [ArchiveFailure]
    public var totals: Totals

    public init(logs: [Log], failures: [ArchiveFailure] = []) {
        self.logs = logs
        self.failures = failures
        var totals = Totals()
        totals.logs = logs.count
        for log in logs {
            let report = log.report
            totals.completeLogs += report.isComplete ? 1 : 0
            totals.items += report.items.count
            for (kind, count) in report.totals.itemsPerKind {
                totals.itemsPerKind[kind, default: 0] += count
            }
            for (symbology, count) in report.totals.itemsPerSymbology {
                totals.itemsPerSymbology[symbology, default: 0] += count
            }
            for (event, count) in report.totals.eventsPerType {
                totals.eventsPerType[event, default: 0] += count
            }
            // A log is untrusted: an absurd frame number must not overflow the sum.
            totals.frames = totals.frames.addingReportingOverflow(report.totals.frameCount ?? 0).partialValue
            totals.duration += report.totals.duration ?? 0
            totals.badLines += report.totals.badLines.count
        }
        totals.failedInputs = failures.count
        self.totals = totals
    }

    /// The failures of `DIR/failures.jsonl` that still stand: per log name the latest, unless DIR holds that log
    /// complete (`EventLogCompleteness`) and modified after the failure (a later run scanned the input).
    public static func outstandingFailures(in folder: String) -> [ArchiveFailure] {
        let records = ArchiveFailure.records(at: (folder as NSString).appendingPathComponent(ArchiveFailure.fileName))
        var latest: [String: ArchiveFailure] = [:]
        var order: [String] = []
        for record in records {
            if latest[record.log] == nil {
                order.append(record.log)
            }
            if latest[record.log].map({ $0.time <= record.time }) ?? true {
                latest[record.log] = record
            }
        }
        return order.compactMap { latest[$0] }.filter { failure in
            let log = (folder as NSString).appendingPathComponent(failure.log)
            guard let modified = (try? FileManager.default.attributesOfItem(atPath: log))?[.modificationDate]
                as? Date else { return true }
            return !(modified > failure.time && EventLogCompleteness.endsWithEndLine(path: log))
        }
    }

    /// The event logs in `folder`: its `*.jsonl` files but `failures.jsonl` and hidden ones (partial logs), in name
    /// order. Not recursive: an archive scan writes its logs side by side.
    public static func logPaths(in folder: String) throws -> [String] {
        let names = try FileManager.default.contentsOfDirectory(atPath: folder)
        return names.filter { $0.hasSuffix(".jsonl") && !$0.hasPrefix(".") && $0 != ArchiveFailure.fileName }
            .sorted().map { (folder as NSString).appendingPathComponent($0) }
    }
}
