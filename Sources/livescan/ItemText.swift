import LiveScan

/// How the command names an item on a terminal. Everything from a payload or transcript goes through
/// `TerminalSafeText`: it is untrusted.
enum ItemText {
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
