import Foundation

/// A summary of one event log: what was seen, for how long, how often it changed, and how whole the log is.
/// Pure: built from an `EventLogReader`, so a log with garbage lines or cut mid-line by a crash is still
/// summarised, its bad lines counted. `livescan report` prints it as a table, CSV or JSON.
public struct EventLogReport: Sendable, Equatable {
    /// One item of the log (every line with its `id`), as last seen.
    public struct Item: Sendable, Equatable {
        /// The item's UUID as written in the log.
        public var id: String
        /// `barcode` or `text` (the latest `kind` written; nil if no line of it had one).
        public var kind: String?
        /// Barcodes: the symbology (names as `--types`).
        public var symbology: String?
        /// The latest payload (barcodes) or transcript (text).
        public var value: String?
        /// Barcodes whose payload is not valid UTF-8: the latest exact bytes, base64 (`value` is then
        /// zxing-cpp's best reading of them).
        public var valueBase64: String?
        /// The frame and media time of its first sighting: its `add`, or for an item whose add is not in
        /// the log (it started mid-way), the sighting of its first line.
        public var firstFrame: Int
        public var firstTime: Double?
        /// The frame and media time of its last sighting: `seen_frame`/`seen_time` of its last line (on a
        /// remove, one grace period before the remove), or that line's `frame`/`time` when absent.
        public var lastFrame: Int
        public var lastTime: Double?
        /// `update` lines.
        public var updates: Int
        /// How many different values it showed (more than 1: its transcript changed as votes came in).
        public var distinctValues: Int
        /// Whether its `add` is in the log; false when the log starts after the item appeared.
        public var wasAdded: Bool
        /// Whether its last line is a `remove`. An item never removed in a log without an end line was
        /// still in view when the log was cut.
        public var removed: Bool
        /// The image file it was in (its lines' `file`), in a scan of several images; nil otherwise.
        public var file: String?

        /// Media time between its first and last sighting, in seconds, to the microsecond; nil when a line lacks
        /// its time.
        public var dwellTime: Double? {
            guard let firstTime, let lastTime else { return nil }
            // Rounded so that 0.7 - 0.2 reads 0.5 in CSV and JSON, not 0.49999999999999994.
            return ((lastTime - firstTime) * 1_000_000).rounded() / 1_000_000
        }

        /// What the item is called in a listing: the symbology for barcodes, `text` for text.
        public var label: String { symbology ?? kind ?? "?" }
    }

    /// Counts over the whole log.
    public struct Totals: Sendable, Equatable {
        /// Items by `kind` (items without one under `unknown`).
        public var itemsPerKind: [String: Int] = [:]
        /// Barcodes by symbology.
        public var itemsPerSymbology: [String: Int] = [:]
        /// Lines by `event`, start and end included.
        public var eventsPerType: [String: Int] = [:]
        /// The 0-based index of the last frame: the end line's `frame`, or the highest frame of any line.
        /// nil when no line carries a frame.
        public var lastFrame: Int?
        /// The media time of the last frame, in seconds: the end line's `time`, or the highest time seen. nil for a
        /// log of still images, whose times only number them (`holdsStillImages`).
        public var duration: Double?
        /// Whether the log is of still images (its start line's `fps` is 0: images and folders of them), which have
        /// no media time: each image's `time` is its place in the scan, one second apart, not a time anyone spent.
        public var holdsStillImages = false
        /// 1-based numbers of the lines that could not be read (garbage, or a line cut by a crash).
        public var badLines: [Int] = []
        /// Whether the log has its start line (false: it was started or copied mid-way).
        public var hasStartLine = false
        /// The start line's `source`: what was scanned, as the user gave it.
        public var source: String?
        /// Whether the log has its end line (false: the writer was killed, or the log is still growing).
        public var hasEndLine = false
        /// The end line's `reason` (`eof`, `interrupted`, `error`) and `error`.
        public var endReason: String?
        public var endError: String?

        /// Frames decoded: `lastFrame + 1`. An end line written before any frame decoded also says frame 0,
        /// so a log of no frames counts 1.
        public var frameCount: Int? { lastFrame.map { $0 == Int.max ? $0 : $0 + 1 } }  // a log is untrusted
    }

    /// Every item, in order of first appearance in the log.
    public var items: [Item]
    public var totals: Totals

    /// Whether the log is whole: start and end lines present and no bad line.
    public var isComplete: Bool { totals.hasStartLine && totals.hasEndLine && totals.badLines.isEmpty }

    /// Items never removed in a log without an end line: still in view when the log was cut.
    public var itemsInViewWhenCut: [Item] { totals.hasEndLine ? [] : items.filter { !$0.removed } }

    /// Summarises the records and bad lines of `reader`.
    public init(_ reader: EventLogReader) {
        var builder = Builder()
        reader.records.forEach { builder.add(.record($0)) }
        reader.badLines.forEach { builder.add(.bad(lineNumber: $0)) }
        self = builder.report
    }

    /// Builds a report line by line, as `EventLogReader.read` streams a log: what it holds grows with the
    /// items, not with the lines.
    public struct Builder {
        private var items: [Item] = []
        private var indexByID: [String: Int] = [:]
        private var valuesByID: [String: Set<String>] = [:]
        private var totals = Totals()
        private var highestFrame: Int?
        private var highestTime: Double?
        private var endLine: EventLogRecord?
        /// Event lines read so far (bad lines not counted).
        public private(set) var recordCount = 0

        public init() {}

        public mutating func add(_ line: EventLogReader.Line) {
            switch line {
            case let .bad(number):
                totals.badLines.append(number)
            case let .record(record):
                recordCount += 1
                add(record)
            }
        }

        private mutating func add(_ record: EventLogRecord) {
            totals.eventsPerType[record.event.rawValue, default: 0] += 1
            if let frame = record.frame { highestFrame = max(highestFrame ?? frame, frame) }
            if let time = record.time { highestTime = max(highestTime ?? time, time) }
            switch record.event {
            case .start:
                totals.hasStartLine = true
                totals.holdsStillImages = record.fps == 0
                totals.source = record.source
                return
            case .end:
                // Logs joined end to end: the last end line is the one that closes the report.
                endLine = record
                return
            case .resize, .reconnect, .tap:
                // A tap repeats an item's state as the user chose it: it changes nothing the report counts.
                return
            case .add, .update, .remove:
                break
            }
            // The reader drops change lines without an id or frame, so both are here.
            guard let id = record.id, let frame = record.frame else { return }
            let index = itemIndex(id: id, firstSeenIn: record, frame: frame)
            items[index].absorb(record, frame: frame)
            if let value = record.value {
                // Two non-UTF-8 payloads can share a best reading: the bytes tell them apart.
                valuesByID[id, default: []].insert(record.payloadBase64.map { "b64:" + $0 } ?? "text:" + value)
                items[index].distinctValues = valuesByID[id]?.count ?? 0
            }
        }

        /// The index of item `id` in `items`, appended with what `record`, its first line, says of its start.
        private mutating func itemIndex(id: String, firstSeenIn record: EventLogRecord, frame: Int) -> Int {
            if let known = indexByID[id] {
                return known
            }
            indexByID[id] = items.count
            // An add is decided in the frame that first saw the item; any other first line means the log began
            // after the item appeared, and its sighting is the earliest we know.
            let isAdd = record.event == .add
            let seenFrame = record.seenFrame ?? frame
            let seenTime = record.seenTime ?? record.time
            items.append(Item(id: id, kind: nil, symbology: nil, value: nil, valueBase64: nil,
                              firstFrame: isAdd ? frame : seenFrame, firstTime: isAdd ? record.time : seenTime,
                              lastFrame: seenFrame, lastTime: seenTime, updates: 0, distinctValues: 0,
                              wasAdded: isAdd, removed: false))
            return items.count - 1
        }

        /// The report of every line added so far.
        public var report: EventLogReport {
            var totals = totals
            for item in items {
                totals.itemsPerKind[item.kind ?? "unknown", default: 0] += 1
                if let symbology = item.symbology {
                    totals.itemsPerSymbology[symbology, default: 0] += 1
                }
            }
            totals.badLines.sort()
            totals.hasEndLine = endLine != nil
            totals.endReason = endLine?.reason
            totals.endError = endLine?.error
            totals.lastFrame = endLine?.frame ?? highestFrame
            totals.duration = totals.holdsStillImages ? nil : endLine?.time ?? highestTime
            return EventLogReport(items: items, totals: totals)
        }
    }

    private init(items: [Item], totals: Totals) {
        self.items = items
        self.totals = totals
    }
}

extension EventLogReport.Item {
    /// One more change line of this item (`frame`: the line's frame).
    fileprivate mutating func absorb(_ record: EventLogRecord, frame: Int) {
        kind = record.kind ?? kind
        symbology = record.symbology ?? symbology
        file = record.file ?? file
        if let value = record.value {
            self.value = value
            valueBase64 = record.payloadBase64
        }
        // A remove's own frame is the grace period after the last sighting; seen_frame is the sighting.
        lastFrame = record.seenFrame ?? frame
        lastTime = record.seenTime ?? record.time
        switch record.event {
        case .add:
            wasAdded = true
            removed = false
        case .update:
            updates += 1
        case .remove:
            removed = true
        case .start, .resize, .reconnect, .tap, .end:
            break
        }
    }
}
