/// Payloads and transcripts come from whatever was scanned, so they are untrusted: a QR code holding
/// `ESC ] 52 ; ...` would write the clipboard, `ESC [ 2 J` would clear the screen. Before anything
/// scanned reaches a terminal, C0 and C1 control characters, DEL and bidirectional overrides are shown
/// escaped (`\e`, `\n`, `\x07`, `\u{202E}`); the event log keeps the exact bytes.
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
            case 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069:
                out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            default:
                out.unicodeScalars.append(scalar)
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
