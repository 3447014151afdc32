import LiveScan

/// How the command names an item. On a terminal everything from a payload or transcript goes through
/// `TerminalSafeText`: it is untrusted. `--raw` into a pipe or file writes it exactly (`ValueWriting`).
enum ItemText {
    /// The payload or transcript, safe to print.
    static func value(_ item: RecognizedItem) -> String {
        TerminalSafeText.escape(item.value)
    }

    /// The payload or transcript as `writing` writes it: escaped, or its exact bytes (a barcode's text as decoded,
    /// or its bytes when it has no text, as zbarimg --raw writes them; a transcript as read).
    static func bytes(_ item: RecognizedItem, _ writing: ValueWriting) -> [UInt8] {
        switch (writing, item) {
        case (.escaped, _): Array(value(item).utf8)
        case let (.exact, .barcode(barcode)): barcode.payloadStringValue.map { Array($0.utf8) }
            ?? Array(barcode.payloadData)
        case let (.exact, .text(text)): Array(text.transcript.utf8)
        }
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

/// How lines carry values: escaped for a terminal (always, unless `--raw` writes into a pipe or file), or as the
/// exact bytes, which only `--raw` asks for and only where no terminal reads them (zbarimg's `--raw`).
enum ValueWriting {
    case escaped, exact

    /// `--raw` (`raw`) into standard output that is not a terminal: exact; anything else: escaped.
    static func forStandardOutput(raw: Bool) -> ValueWriting {
        raw && !Terminal.isInteractive ? .exact : .escaped
    }
}
