import Foundation

/// A calendar event: the first `BEGIN:VEVENT` … `END:VEVENT` of an iCalendar text (RFC 5545), alone or inside
/// `BEGIN:VCALENDAR`.
public struct EventContent: Sendable, Equatable {
    /// The event's title (`SUMMARY`).
    public let title: String?
    /// When it starts (`DTSTART`).
    public let start: EventTime?
    /// When it ends (`DTEND`).
    public let end: EventTime?
    /// Where (`LOCATION`).
    public let location: String?
    /// The description (`DESCRIPTION`).
    public let notes: String?
    /// False when the payload ends before `END:VEVENT`.
    public let isComplete: Bool

    /// Creates an event from its parts; `parse` is the usual way in.
    public init(title: String?, start: EventTime?, end: EventTime? = nil, location: String? = nil,
                notes: String? = nil, isComplete: Bool = true) {
        self.title = title
        self.start = start
        self.end = end
        self.location = location
        self.notes = notes
        self.isComplete = isComplete
    }

    /// An event with a title or a start time; nil for anything else.
    static func parse(_ text: String) -> EventContent? {
        var title: String?
        var start: EventTime?
        var end: EventTime?
        var location: String?
        var notes: String?
        var inEvent = false
        var isComplete = false
        for line in ContentLines.parse(text) {
            let value = line.text
            if !inEvent {
                inEvent = line.name == "BEGIN" && value.uppercased() == "VEVENT"
                continue
            }
            if line.name == "END", value.uppercased() == "VEVENT" {
                isComplete = true
                break
            }
            switch line.name {
            case "SUMMARY": title = title ?? PayloadText.nonEmpty(value)
            case "DTSTART": start = start ?? EventTime(value, timeZone: line.parameters["TZID"])
            case "DTEND": end = end ?? EventTime(value, timeZone: line.parameters["TZID"])
            case "LOCATION": location = location ?? PayloadText.nonEmpty(value)
            case "DESCRIPTION": notes = notes ?? PayloadText.nonEmpty(value)
            default: break
            }
        }
        guard title != nil || start != nil else { return nil }
        return EventContent(title: title, start: start, end: end, location: location, notes: notes,
                            isComplete: isComplete)
    }

    var summaryText: String {
        var parts = [title, start?.readable, location].compactMap { $0 }
        if !isComplete {
            parts.append("truncated")
        }
        return "Event: " + parts.joined(separator: ", ")
    }

    func addLogFields(to fields: inout LogFieldList) {
        fields.add("title", title)
        fields.add("start", start?.iso8601)
        fields.add("end", end?.iso8601)
        fields.add("all_day", start.map(\.isAllDay))
        fields.add("time_zone", start?.timeZone)
        fields.add("location", location)
        fields.add("description", notes)
        fields.add("complete", isComplete)
    }
}

/// An iCalendar date or date-time as written: `20240315` (a whole day), `20240315T090000` (local time, or the
/// `TZID` zone's), `20240315T090000Z` (UTC). Kept as fields rather than a `Date`, because a local time without
/// a zone names no single instant.
public struct EventTime: Sendable, Equatable {
    /// The year, four digits.
    public let year: Int
    /// The month, 1-12.
    public let month: Int
    /// The day of the month, 1-31.
    public let day: Int
    /// The hour, 0-23; nil for a whole-day date.
    public let hour: Int?
    /// The minute, 0-59; nil for a whole-day date.
    public let minute: Int?
    /// The second, 0-60 (a leap second); 0 when the payload gives only hours and minutes; nil for a whole day.
    public let second: Int?
    /// Whether the time is UTC (a trailing `Z`).
    public let isUTC: Bool
    /// The `TZID` parameter, if any (`Europe/Berlin`).
    public let timeZone: String?

    /// Whether this is a date without a time of day.
    public var isAllDay: Bool { hour == nil }

    /// ISO 8601: `2024-03-15`, `2024-03-15T09:00:00` or `2024-03-15T09:00:00Z`.
    public var iso8601: String {
        let date = String(format: "%04d-%02d-%02d", year, month, day)
        guard let hour, let minute, let second else { return date }
        return date + String(format: "T%02d:%02d:%02d", hour, minute, second) + (isUTC ? "Z" : "")
    }

    /// For the listing: `2024-03-15 09:00 UTC`, `2024-03-15 09:00 Europe/Berlin`, `2024-03-15`.
    var readable: String {
        let date = String(format: "%04d-%02d-%02d", year, month, day)
        guard let hour, let minute else { return date }
        let zone = isUTC ? " UTC" : timeZone.map { " " + $0 } ?? ""
        return date + String(format: " %02d:%02d", hour, minute) + zone
    }

    /// Reads `YYYYMMDD`, `YYYYMMDDTHHMM[SS][Z]`; nil for anything else or an impossible date or time.
    init?(_ text: String, timeZone: String? = nil) {
        let digits = Array(text.utf8)
        func number(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= digits.count else { return nil }
            var value = 0
            for byte in digits[range] {
                guard (0x30...0x39).contains(byte) else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            return value
        }
        guard digits.count <= 16, let year = number(0..<4), let month = number(4..<6), let day = number(6..<8),
              (1...12).contains(month), (1...31).contains(day)
        else { return nil }
        self.year = year
        self.month = month
        self.day = day
        self.timeZone = PayloadText.nonEmpty(timeZone)
        if digits.count == 8 {
            (hour, minute, second, isUTC) = (nil, nil, nil, false)
            return
        }
        let isUTC = digits.last == UInt8(ascii: "Z") || digits.last == UInt8(ascii: "z")
        let timeLength = digits.count - 9 - (isUTC ? 1 : 0)
        guard digits[8] == UInt8(ascii: "T") || digits[8] == UInt8(ascii: "t"), timeLength == 4 || timeLength == 6,
              let hour = number(9..<11), let minute = number(11..<13), hour < 24, minute < 60
        else { return nil }
        let second = timeLength == 6 ? number(13..<15) : 0
        guard let second, second <= 60 else { return nil }
        (self.hour, self.minute, self.second, self.isUTC) = (hour, minute, second, isUTC)
    }
}
