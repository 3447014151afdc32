/// Payloads and transcripts come from whatever was scanned, so they are untrusted: a QR code holding
/// `ESC ] 52 ; ...` would write the clipboard, `ESC [ 2 J` would clear the screen. Before anything
/// scanned reaches a terminal, C0 and C1 control characters (NUL included), DEL, and every format and
/// separator character (Unicode categories Cf, Zl, Zp: bidirectional overrides, zero-width spaces, U+2028) are
/// shown escaped (`\e`, `\n`, `\x00`, `\u{202E}`); the event log keeps the exact bytes. A byte of a file name that
/// is not valid UTF-8 (`FileNameBytes`) is shown as the byte it is (`\xFF`).
public enum TerminalSafeText {
    public static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x1B: out += "\\e"
            case 0x0A: out += "\\n"
            case 0x0D: out += "\\r"
            case 0x09: out += "\\t"
            case 0x5C: out += "\\\\"
            case 0x00..<0x20, 0x7F, 0x80..<0xA0:
                out += "\\x" + String(scalar.value, radix: 16, uppercase: true).leftPadded(to: 2)
            default:
                if FileNameBytes.byte(scalar) != nil {
                    out += FileNameBytes.displayName(String(scalar))
                    continue
                }
                switch scalar.properties.generalCategory {
                // Format characters (bidirectional marks and overrides, U+061C, zero-width spaces and joiners,
                // U+FEFF) and line and paragraph separators change how, or where, the rest is shown.
                case .format, .lineSeparator, .paragraphSeparator:
                    out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
                default:
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }
}

private extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
