import Foundation

/// One content line of a vCard (RFC 6350, and the 2.1 and 3.0 forms before it) or an iCalendar object
/// (RFC 5545), after unfolding: `[group.]NAME[;PARAMETER=value...]:value`.
struct ContentLine {
    /// The property name, upper-cased, without its group (`item1.TEL` is `TEL`).
    let name: String
    /// Parameters by upper-cased name, quotes removed. vCard 2.1's bare types (`TEL;CELL:`) go under `TYPE`.
    let parameters: [String: String]
    /// The value as written, backslash escapes still in place.
    let rawValue: String

    /// The value as text: `\n` and `\N` are line breaks, `\,` `\;` `\:` `\\` the characters themselves.
    var text: String { ContentLine.unescape(Substring(rawValue)) }

    /// The value's components, split at unescaped `;`, each unescaped (`N` and `ADR` are structured so).
    var components: [String] {
        var parts: [Substring] = []
        var start = rawValue.startIndex
        var escaping = false
        for index in rawValue.indices {
            let character = rawValue[index]
            if escaping {
                escaping = false
            } else if character == "\\" {
                escaping = true
            } else if character == ";" {
                parts.append(rawValue[start..<index])
                start = rawValue.index(after: index)
            }
        }
        parts.append(rawValue[start...])
        return parts.map(ContentLine.unescape)
    }

    static func unescape(_ value: Substring) -> String {
        var out = ""
        var escaping = false
        for scalar in value.unicodeScalars {
            if escaping {
                switch scalar {
                case "n", "N": out += "\n"
                case ",", ";", ":", "\\": out.unicodeScalars.append(scalar)
                default:
                    // Not an escape these formats define: keep it as written, backslash and all.
                    out += "\\"
                    out.unicodeScalars.append(scalar)
                }
                escaping = false
            } else if scalar == "\\" {
                escaping = true
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return escaping ? out + "\\" : out
    }
}

/// Splits a vCard or iCalendar text into content lines.
enum ContentLines {
    /// The content lines of `text`, in order. Lines end in CRLF, LF or CR; a line starting with a space or a
    /// tab continues the one before (folding). A line with no `:` (one cut off in its name) is skipped.
    static func parse(_ text: String) -> [ContentLine] {
        var logical: [String] = []
        var current = ""
        var atLineStart = true
        for scalar in text.unicodeScalars {
            // CRLF, LF and CR all end a line; the LF of a CRLF just ends it again.
            if scalar == "\r" || scalar == "\n" {
                atLineStart = true
                continue
            }
            if atLineStart {
                atLineStart = false
                if scalar == " " || scalar == "\t", !current.isEmpty {
                    continue  // the one whitespace character that marks a folded line is not content
                }
                if !current.isEmpty {
                    logical.append(current)
                }
                current = ""
            }
            current.unicodeScalars.append(scalar)
        }
        if !current.isEmpty {
            logical.append(current)
        }
        return logical.compactMap(contentLine)
    }

    private static func contentLine(_ line: String) -> ContentLine? {
        // The name ends at the first `:` outside a quoted parameter value (`TZID="A:B"` is legal).
        var inQuotes = false
        var colon: String.Index?
        for index in line.indices {
            let character = line[index]
            if character == "\"" {
                inQuotes.toggle()
            } else if character == ":", !inQuotes {
                colon = index
                break
            }
        }
        guard let colon else { return nil }
        let head = line[..<colon].split(separator: ";", omittingEmptySubsequences: false)
        let qualifiedName = head.first ?? ""
        let name = (qualifiedName.split(separator: ".").last ?? qualifiedName)
            .trimmingCharacters(in: .whitespaces).uppercased()
        guard !name.isEmpty else { return nil }
        var parameters: [String: String] = [:]
        for parameter in head.dropFirst() {
            let parts = parameter.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let key = parts.count > 1 ? String(parts[0]).uppercased() : "TYPE"
            let value = String(parts.count > 1 ? parts[1] : parts[0]).replacingOccurrences(of: "\"", with: "")
            parameters[key] = parameters[key].map { $0 + "," + value } ?? value
        }
        return ContentLine(name: name, parameters: parameters, rawValue: String(line[line.index(after: colon)...]))
    }
}
