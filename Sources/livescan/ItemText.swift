import LiveScan

/// How the command names an item on a terminal. Everything from a payload or transcript goes through
/// `TerminalSafeText`: it is untrusted.
enum ItemText {
    /// The first 8 hex digits of the id: enough to tell items apart on one screen.
    static func shortID(_ item: RecognizedItem) -> String {
        String(item.id.uuidString.lowercased().prefix(8))
    }

    /// The symbology, or "text".
    static func kind(_ item: RecognizedItem) -> String {
        switch item {
        case let .barcode(barcode): return barcode.symbology.rawValue
        case .text: return "text"
        }
    }

    /// The payload or transcript, safe to print.
    static func value(_ item: RecognizedItem) -> String {
        TerminalSafeText.escape(item.value)
    }

    /// For the listing: what a structured payload means (a Wi-Fi password is never shown), else the value.
    static func meaning(_ item: RecognizedItem) -> String {
        guard case let .barcode(barcode) = item else { return value(item) }
        switch barcode.content {
        case .text, .url: return value(item)  // the value says it best
        case let content: return TerminalSafeText.escape(content.summary)
        }
    }
}
