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
    /// End line.
    public var reason: String?
    public var error: String?

    /// The payload of a barcode or the transcript of text.
    public var value: String? { payload ?? transcript }
}

/// Reads an event log. Lines that are not JSON objects of a known event (garbage, or a last line cut
/// by a crash) are counted, never fatal.
public struct EventLogReader {
    public private(set) var records: [EventLogRecord] = []
    /// 1-based numbers of the lines that could not be read.
    public private(set) var badLines: [Int] = []

    public init(contentsOf path: String) throws {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ScanError.sourceUnavailable(source: path, reason: "no such file, or it cannot be read")
        }
        self.init(data: data)
    }

    public init(data: Data) {
        var lineNumber = 0
        for line in data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            lineNumber += 1
            if line.isEmpty || line.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\r") }) {
                continue
            }
            if let record = EventLogReader.record(from: Data(line)) {
                records.append(record)
            } else {
                badLines.append(lineNumber)
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
