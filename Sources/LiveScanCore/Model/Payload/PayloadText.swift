import Foundation

/// Text helpers shared by the payload parsers. None of them traps, whatever the input.
enum PayloadText {
    /// Whether `text` starts with the ASCII `prefix`, ignoring ASCII case: QR codes in alphanumeric mode carry
    /// upper-case text, so `HTTP://EXAMPLE.COM` and `wifi:` turn up as often as their usual spellings.
    static func hasPrefix(_ text: String, ignoringCase prefix: String) -> Bool {
        var bytes = text.utf8.makeIterator()
        for expected in prefix.utf8 {
            guard let byte = bytes.next(), asciiLowercased(byte) == asciiLowercased(expected) else { return false }
        }
        return true
    }

    /// `text` after its first `count` Unicode scalars. Counted in scalars rather than characters so that a
    /// combining mark right after an ASCII prefix is not swallowed with it.
    static func dropping(_ count: Int, from text: String) -> String {
        String(Substring(text.unicodeScalars.dropFirst(count)))
    }

    /// The `prefix` that `text` starts with (ignoring ASCII case), and the rest.
    static func afterPrefix(_ text: String, _ prefixes: [String]) -> String? {
        for prefix in prefixes where hasPrefix(text, ignoringCase: prefix) {
            return dropping(prefix.unicodeScalars.count, from: text)
        }
        return nil
    }

    static func asciiLowercased(_ byte: UInt8) -> UInt8 {
        (0x41...0x5A).contains(byte) ? byte + 0x20 : byte
    }

    /// Percent-decoded text; a malformed escape leaves the text as it was rather than losing it.
    static func percentDecoded<S: StringProtocol>(_ text: S) -> String {
        let string = String(text)
        return string.removingPercentEncoding ?? string
    }

    /// `name=value&...` pairs of a URI query, percent-decoded, names lower-cased.
    static func queryItems(_ query: Substring) -> [(name: String, value: String)] {
        query.split(separator: "&").map { item in
            let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = percentDecoded(parts.first ?? "").lowercased()
            return (name, parts.count > 1 ? percentDecoded(parts[1]) : "")
        }
    }

    /// A string of one or more ASCII digits.
    static func isDigits<S: StringProtocol>(_ text: S) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy { (0x30...0x39).contains($0) }
    }

    static func hasWhitespaceOrControl<S: StringProtocol>(_ text: S) -> Bool {
        text.unicodeScalars.contains { $0.properties.isWhitespace || $0.properties.generalCategory == .control }
    }

    /// A loose check that `text` is one e-mail address: something, `@`, a dotted domain, no spaces. It decides
    /// whether a payload is an address, not whether a mail server would accept it.
    static func isPlausibleEmailAddress(_ text: String) -> Bool {
        guard text.utf8.count <= 254, !hasWhitespaceOrControl(text), let at = text.lastIndex(of: "@") else {
            return false
        }
        let local = text[..<at]
        let domain = text[text.index(after: at)...]
        let forbidden = Set("<>(),;:\"[]\\@")
        return !local.isEmpty && !local.contains { "<>(),;:\"[]\\".contains($0) }
            && domain.contains(".") && !domain.hasPrefix(".") && !domain.hasSuffix(".")
            && !domain.contains { forbidden.contains($0) }
    }

    /// A loose check that `text` is a telephone number: digits with the usual visual separators, optionally
    /// followed by `;parameters` (`;ext=12`) or DTMF (`p`, `w`, `*`, `#`).
    static func isPlausiblePhoneNumber(_ text: String) -> Bool {
        guard text.utf8.count <= 64 else { return false }
        let number = text.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        let allowed = Set("0123456789+-.() /*#pwPW")
        let digits = number.filter(\.isASCII).filter(\.isNumber).count
        return digits >= 2 && number.allSatisfy { allowed.contains($0) }
    }

    /// Text from a slice of scalars.
    static func string(_ scalars: ArraySlice<Unicode.Scalar>) -> String {
        var text = ""
        text.unicodeScalars.append(contentsOf: scalars)
        return text
    }

    /// Non-empty text or nil, so that `NOTE:` with nothing after it counts as no note.
    static func nonEmpty(_ text: String?) -> String? {
        guard let text else { return nil }
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.isEmpty ? nil : trimmed
    }
}
