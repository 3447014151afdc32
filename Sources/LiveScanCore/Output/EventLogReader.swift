import Foundation

/// One line of an event log, as read back.
public struct EventLogRecord: Sendable, Equatable {
    public var event: EventLog.EventName
    /// Start line: schema version, source and its size.
    public var version: Int?
    public var source: String?
    public var width: Int?
    public var height: Int?
    public var fps: Double?
    /// Change and end lines.
    public var frame: Int?
    public var time: Double?
    /// Change lines of a scan of several image files: the frame's file.
    public var file: String?
    /// Change lines.
    public var id: String?
    public var kind: String?
    public var symbology: String?
    public var payload: String?
    public var payloadBase64: String?
    public var transcript: String?
    public var confidence: Double?
    public var bounds: [Point]?
    /// The last frame that saw the item, and its media time.
    public var seenFrame: Int?
    public var seenTime: Double?
    /// `reconnect` lines: the seconds the source gave no frames before it was reopened.
    public var outage: Double?
    /// End line (and `reconnect` lines: why the source stopped).
    public var reason: String?
    public var error: String?

    /// The payload of a barcode or the transcript of text.
    public var value: String? { payload ?? transcript }
}

/// Reads an event log. Lines that are not JSON objects of a known event (garbage, or a last line cut
/// by a crash) are counted, never fatal. `read(descriptor:_:)` streams a log of any size in bounded memory;
/// `init(data:)` keeps every record of a small one.
public struct EventLogReader {
    public private(set) var records: [EventLogRecord] = []
    /// 1-based numbers of the lines that could not be read.
    public private(set) var badLines: [Int] = []

    /// One line of a log, as `read` hands it on.
    public enum Line: Sendable, Equatable {
        case record(EventLogRecord)
        /// A line that is not an event (its 1-based number): garbage, a cut last line, or one longer than
        /// `maxLineBytes`.
        case bad(lineNumber: Int)
    }

    /// The longest line read, 1 MiB: the writer's lines are a few KB at most (a payload and its base64), and
    /// a longer one (`/dev/zero`, a binary file) is counted bad and skipped without being held.
    public static let maxLineBytes = 1 << 20

    /// Every record of the log at `path`, read as `read(contentsOf:_:)` streams it.
    public init(contentsOf path: String) throws {
        var lines: [Line] = []
        try EventLogReader.read(contentsOf: path) { lines.append($0) }
        self.init(lines)
    }

    public init(data: Data) {
        var splitter = LineSplitter()
        var lines: [Line] = []
        data.withUnsafeBytes { splitter.feed($0) { lines.append($0) } }
        splitter.finish { lines.append($0) }
        self.init(lines)
    }

    private init(_ lines: [Line]) {
        for line in lines {
            switch line {
            case let .record(record): records.append(record)
            case let .bad(number): badLines.append(number)
            }
        }
    }

    /// Streams the log at `path` line by line, as `read(descriptor:name:_:)` does. Throws
    /// `ScanError.sourceUnavailable` for a folder, a file that does not exist or cannot be opened, or a read that
    /// fails.
    public static func read(contentsOf path: String, _ body: (Line) -> Void) throws {
        var status = stat()
        if stat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR {
            throw ScanError.sourceUnavailable(source: path, reason: "is a folder, not an event log")
        }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw ScanError.sourceUnavailable(source: path, reason: errno == ENOENT ? "no such file"
                : String(cString: strerror(errno)))
        }
        defer { close(descriptor) }
        try read(descriptor: descriptor, name: path, body)
    }

    /// Reads `descriptor` (a file or a pipe) to its end, 64 KiB at a time, and hands each line to `body` in
    /// order; memory stays bounded by `maxLineBytes` whatever the input. Throws `ScanError.sourceUnavailable`
    /// (named `name`) when a read fails.
    public static func read(descriptor: Int32, name: String, _ body: (Line) -> Void) throws {
        var splitter = LineSplitter()
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = buffer.withUnsafeMutableBytes { Foundation.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw ScanError.sourceUnavailable(source: name, reason: String(cString: strerror(errno)))
            }
            if count == 0 { break }
            buffer.withUnsafeBytes { splitter.feed(UnsafeRawBufferPointer(rebasing: $0[..<count]), body) }
        }
        splitter.finish(body)
    }

    /// Cuts bytes into lines as they come, holding at most one line of `maxLineBytes`.
    private struct LineSplitter {
        private var pending: [UInt8] = []
        private var pendingTooLong = false
        private var lineNumber = 0

        mutating func feed(_ bytes: UnsafeRawBufferPointer, _ body: (Line) -> Void) {
            var start = 0
            while let newline = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) {
                append(bytes[start..<newline])
                endLine(body)
                start = newline + 1
            }
            append(bytes[start...])
        }

        mutating func finish(_ body: (Line) -> Void) {
            if !pending.isEmpty || pendingTooLong {
                endLine(body)
            }
        }

        private mutating func append(_ bytes: Slice<UnsafeRawBufferPointer>) {
            guard !pendingTooLong else { return }
            if pending.count + bytes.count > EventLogReader.maxLineBytes {
                pendingTooLong = true
                pending = []
            } else {
                pending.append(contentsOf: bytes)
            }
        }

        private mutating func endLine(_ body: (Line) -> Void) {
            lineNumber += 1
            defer {
                pending.removeAll(keepingCapacity: pending.count <= 1 << 16)
                pendingTooLong = false
            }
            if pendingTooLong {
                body(.bad(lineNumber: lineNumber))
                return
            }
            if pending.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\r") }) {
                return
            }
            if let record = EventLogReader.record(from: Data(pending)) {
                body(.record(record))
            } else {
                body(.bad(lineNumber: lineNumber))
            }
        }
    }

    static func record(from line: Data) -> EventLogRecord? {
        guard let object = try? JSONSerialization.jsonObject(with: line) as? [String: Any],
              let name = object["event"] as? String, let event = EventLog.EventName(rawValue: name)
        else { return nil }
        func int(_ key: String) -> Int? { (object[key] as? NSNumber)?.intValue }
        func double(_ key: String) -> Double? { (object[key] as? NSNumber)?.doubleValue }
        func string(_ key: String) -> String? { object[key] as? String }
        var record = EventLogRecord(event: event)
        record.version = int("v")
        record.source = string("source")
        record.width = int("width")
        record.height = int("height")
        record.fps = double("fps")
        record.frame = int("frame")
        record.time = double("time")
        record.file = string("file")
        record.id = string("id")
        record.kind = string("kind")
        record.symbology = string("symbology")
        record.payload = string("payload")
        record.payloadBase64 = string("payload_b64")
        record.transcript = string("transcript")
        record.confidence = double("confidence")
        record.seenFrame = int("seen_frame")
        record.seenTime = double("seen_time")
        record.reason = string("reason")
        record.outage = double("outage")
        record.error = string("error")
        if let corners = object["bounds"] as? [[NSNumber]], corners.count == 4, corners.allSatisfy({ $0.count == 2 }) {
            record.bounds = corners.map { Point(x: $0[0].doubleValue, y: $0[1].doubleValue) }
        }
        // A change line without its identity cannot be analysed.
        if [.add, .update, .remove].contains(event), record.id == nil || record.frame == nil {
            return nil
        }
        return record
    }
}
