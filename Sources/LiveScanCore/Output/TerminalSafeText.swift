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
                // Format characters (bidirectional marks and overrides, U+061C, zero-width spaces and joiners,
                // U+FEFF) and line and paragraph separators change how, or where, the rest is shown.
                if isUnsafe(scalar) {
                    out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }

    /// JSON text (an event-log line, a report) made safe for a terminal without changing what it says: the
    /// characters `escape(_:)` would escape that JSON may carry raw (C1 controls, format and separator
    /// characters, DEL; C0 controls are escaped by every JSON writer) are written as `\uXXXX` escapes,
    /// which a JSON reader decodes to the same strings. Only strings can hold such characters, so replacing
    /// them anywhere in the text keeps it valid JSON.
    public static func escapeJSON(_ json: String) -> String {
        var out = ""
        out.reserveCapacity(json.utf8.count)
        for scalar in json.unicodeScalars {
            if scalar.value >= 0x7F && isUnsafe(scalar) {
                for unit in String(scalar).utf16 {
                    out += "\\u" + String(unit, radix: 16).leftPadded(to: 4)
                }
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// Control characters (C0, DEL, C1) and the format and separator characters that change how or where the
    /// rest of a line is shown.
    private static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00..<0x20, 0x7F, 0x80..<0xA0:
            return true
        default:
            switch scalar.properties.generalCategory {
            case .format, .lineSeparator, .paragraphSeparator: return true
            default: return false
            }
        }
    }
}

private extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
