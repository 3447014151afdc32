import Foundation

/// Kinds of text content, as VisionKit's `DataScannerViewController.TextContentType`, with its case names. With
/// `.text(textContentType: kind)` the scanner reports only lines holding that kind of content.
public enum TextContentType: String, Sendable, Hashable, CaseIterable {
    case URL = "url"
    case emailAddress, telephoneNumber, dateTimeDuration, currency, shipmentTrackingNumber, flightNumber
    case fullStreetAddress

    /// LiveScan 0.1's name for `URL`.
    @available(*, deprecated, renamed: "URL")
    public static var url: TextContentType { .URL }

    /// Whether `transcript` holds content of this kind somewhere in it.
    public func matches(_ transcript: String) -> Bool {
        let range = NSRange(transcript.startIndex..., in: transcript)
        return TextContentType.patterns[self]!.contains { $0.firstMatch(in: transcript, range: range) != nil }
    }

    // Deliberately plain patterns: they decide which OCR'd lines to keep, not whether content is valid.
    private static let sources: [TextContentType: [String]] = [
        .URL: [
            #"(?i)\b(https?://|www\.)[^\s]+"#,
            #"(?i)\b[a-z0-9-]+(\.[a-z0-9-]+)*\.(com|org|net|io|dev|app|de|fr|uk|eu|info)(/[^\s]*)?\b"#,
        ],
        .emailAddress: [#"(?i)\b[a-z0-9._%+-]+@[a-z0-9-]+(\.[a-z0-9-]+)*\.[a-z]{2,}\b"#],
        .telephoneNumber: [#"(?<![\w])(\+|00)?\(?\d{1,4}\)?[\s./-]?\d{2,4}[\s./-]?\d{3,4}[\s./-]?\d{0,4}(?![\w])"#],
        .dateTimeDuration: [
            #"\b\d{1,4}[./-]\d{1,2}[./-]\d{1,4}\b"#,
            #"(?i)\b\d{1,2}\.?\s+(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d{2,4}\b"#,
            #"(?i)\b(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d{1,2},?\s+\d{2,4}\b"#,
            #"\b\d{1,2}:\d{2}(:\d{2})?\s?([aApP][mM])?\b"#,
            #"(?i)\b\d+\s?(min|mins|minutes|hours|hrs|days)\b"#,
        ],
        .currency: [#"[$€£¥]\s?\d+([.,]\d{2})?"#, #"(?i)\b\d+([.,]\d{2})\s?(usd|eur|gbp|chf|jpy|€|\$)"#],
        .shipmentTrackingNumber: [
            #"\b1Z[0-9A-Z]{16}\b"#,           // UPS
            #"\b[A-Z]{2}\d{9}[A-Z]{2}\b"#,   // UPU S10 (postal services)
            #"\b\d{12,22}\b"#,                // FedEx, USPS, DHL numeric
        ],
        // An IATA airline designator (two letters, or a letter and a digit), then 1-4 digits: "LH 400", "U2 8123".
        .flightNumber: [#"\b(?:[A-Z]{2}|[A-Z]\d|\d[A-Z])\s?\d{1,4}[A-Z]?\b"#],
        // A house number, then a street and its kind ("221B Baker Street", "1600 Pennsylvania Ave"); or, as German
        // writes it, the kind joined to the name and the number after ("Hauptstraße 5", "Lindenweg 12a").
        .fullStreetAddress: [
            #"(?i)\b\d{1,5}[a-z]?\s+(?:[a-z][\w.'-]*\s+){1,4}(?:street|st|avenue|ave|road|rd|boulevard|blvd|lane|ln|drive|dr|way|court|ct|place|pl|square|sq|terrace|parkway|pkwy|highway|hwy)\b\.?"#,
            #"(?i)\b[a-zäöüß-]+(?:straße|strasse|str\.|weg|gasse|platz|allee|ring|damm)\s+\d{1,4}[a-z]?\b"#,
        ],
    ]

    private static let patterns: [TextContentType: [NSRegularExpression]] = sources.mapValues { list in
        list.compactMap { try? NSRegularExpression(pattern: $0) }
    }
}
