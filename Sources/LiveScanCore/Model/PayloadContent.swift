import Foundation

/// What a barcode payload means, as `PayloadParser.parse(_:symbologyIdentifier:)` reads it: a web address,
/// a Wi-Fi network, a contact card, a GS1 element string, an EMVCo merchant-presented payment code, and so on.
/// Anything that is not clearly one of these, including a malformed structured payload, is `.text`.
///
/// Every string in here comes from a scanned code and is untrusted: escape it before it reaches a terminal.
public enum PayloadContent: Sendable, Equatable {
    /// An `http://` or `https://` address, or a scheme-less `www.` one.
    case url(URLContent)
    /// A `mailto:` URI, a DoCoMo `MATMSG:` message, or a bare e-mail address.
    case email(EmailContent)
    /// A `tel:` URI; the number as written, percent-decoded.
    case phone(number: String)
    /// An `sms:` URI or an `SMSTO:`/`MMSTO:` message.
    case sms(SMSContent)
    /// A `geo:` URI (RFC 5870), with the Android `?q=` query.
    case geo(GeoContent)
    /// A `WIFI:` network configuration (the ZXing format).
    case wifi(WiFiContent)
    /// A vCard or a DoCoMo `MECARD:`.
    case contact(ContactContent)
    /// An iCalendar `VEVENT`, alone or inside a `VCALENDAR`.
    case event(EventContent)
    /// A GS1 element string: application identifiers and their values.
    case gs1(GS1Content)
    /// An EMVCo merchant-presented QR code (bank QR payments: PIX, SGQR, PayNow, UPI-EMV, ...).
    case emvco(EMVCoContent)
    /// None of the above.
    case text

    /// The name of the kind, as the event log's `content.type` writes it: `url`, `email`, `phone`, `sms`,
    /// `geo`, `wifi`, `contact`, `event`, `gs1`, `emvco` or `text`.
    public var typeName: String {
        switch self {
        case .url: return "url"
        case .email: return "email"
        case .phone: return "phone"
        case .sms: return "sms"
        case .geo: return "geo"
        case .wifi: return "wifi"
        case .contact: return "contact"
        case .event: return "event"
        case .gs1: return "gs1"
        case .emvco: return "emvco"
        case .text: return "text"
        }
    }

    /// One short line for the terminal listing, e.g. `Wi-Fi "HomeNet" (WPA, password hidden)` or
    /// `EMVCo: Coffee Shop, Singapore, 12.50 SGD (CRC ok)`; just `Text` for plain text, whose payload the listing
    /// shows anyway. A Wi-Fi password never appears here. Escape it before printing: it holds payload text.
    public var summary: String {
        switch self {
        case let .url(content): return content.summaryText
        case let .email(content): return content.summaryText
        case let .phone(number): return "Phone: " + number
        case let .sms(content): return content.summaryText
        case let .geo(content): return content.summaryText
        case let .wifi(content): return content.summaryText
        case let .contact(content): return content.summaryText
        case let .event(content): return content.summaryText
        case let .gs1(content): return content.summaryText
        case let .emvco(content): return content.summaryText
        case .text: return "Text"
        }
    }

    /// The event log's `content` object, field by field in a fixed order, `type` first, snake_case keys.
    /// Optional fields that are absent are left out rather than written as `null`. Unlike `summary`, this keeps
    /// a Wi-Fi password: the log is data for programs, the listing is for people looking over a shoulder.
    public var logFields: [LogField] {
        var fields = LogFieldList()
        fields.add("type", typeName)
        switch self {
        case let .url(content): content.addLogFields(to: &fields)
        case let .email(content): content.addLogFields(to: &fields)
        case let .phone(number): fields.add("number", number)
        case let .sms(content): content.addLogFields(to: &fields)
        case let .geo(content): content.addLogFields(to: &fields)
        case let .wifi(content): content.addLogFields(to: &fields)
        case let .contact(content): content.addLogFields(to: &fields)
        case let .event(content): content.addLogFields(to: &fields)
        case let .gs1(content): content.addLogFields(to: &fields)
        case let .emvco(content): content.addLogFields(to: &fields)
        case .text: break
        }
        return fields.fields
    }

    /// A JSON value in the event log's `content` object. Objects are ordered lists of fields, so a
    /// hand-written writer keeps the key order; numbers are finite.
    public enum LogValue: Sendable, Equatable {
        /// A JSON string.
        case string(String)
        /// A JSON number; always finite.
        case number(Double)
        /// `true` or `false`.
        case bool(Bool)
        /// A JSON array.
        case array([LogValue])
        /// A JSON object, its fields in order.
        case object([LogField])
    }

    /// One key and its value in a `LogValue.object` or in `logFields`.
    public struct LogField: Sendable, Equatable {
        /// The JSON key, snake_case.
        public let key: String
        /// The JSON value.
        public let value: LogValue

        /// A field `key: value`.
        public init(_ key: String, _ value: LogValue) {
            self.key = key
            self.value = value
        }
    }
}

/// Builds a list of log fields, leaving out the absent and the empty ones so that each content type
/// states only what its payload holds.
struct LogFieldList {
    private(set) var fields: [PayloadContent.LogField] = []

    mutating func add(_ key: String, _ value: String?) {
        if let value {
            fields.append(.init(key, .string(value)))
        }
    }

    mutating func add(_ key: String, _ value: Bool?) {
        if let value {
            fields.append(.init(key, .bool(value)))
        }
    }

    mutating func add(_ key: String, number value: Double?) {
        if let value, value.isFinite {
            fields.append(.init(key, .number(value)))
        }
    }

    mutating func add(_ key: String, _ values: [String]) {
        if !values.isEmpty {
            fields.append(.init(key, .array(values.map { .string($0) })))
        }
    }

    mutating func add(_ key: String, objects: [[PayloadContent.LogField]]) {
        if !objects.isEmpty {
            fields.append(.init(key, .array(objects.map { .object($0) })))
        }
    }
}
