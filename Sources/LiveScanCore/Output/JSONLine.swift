import Foundation

/// A JSON object built field by field in a fixed order, so that every line of the event log reads the
/// same way ("event" first). Strings are escaped per RFC 8259; control characters become \u00XX.
struct JSONLine {
    private var body = ""

    mutating func add(_ key: String, _ value: String) {
        append(key, JSONLine.quoted(value))
    }

    mutating func add(_ key: String, _ value: Int) {
        append(key, String(value))
    }

    mutating func add(_ key: String, _ value: Double) {
        append(key, JSONLine.number(value))
    }

    mutating func add(_ key: String, _ value: Bool) {
        append(key, value ? "true" : "false")
    }

    mutating func add(_ key: String, _ values: [String]) {
        append(key, "[" + values.map(JSONLine.quoted).joined(separator: ",") + "]")
    }

    mutating func add(_ key: String, numbers values: [Double]) {
        append(key, "[" + values.map(JSONLine.number).joined(separator: ",") + "]")
    }

    mutating func add(_ key: String, raw json: String) {
        append(key, json)
    }

    var text: String { "{" + body + "}" }

    private mutating func append(_ key: String, _ json: String) {
        if !body.isEmpty {
            body += ","
        }
        body += JSONLine.quoted(key) + ":" + json
    }

    /// Numbers with at most 6 decimals and no exponent; non-finite values (never expected) become 0.
    static func number(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        if value == value.rounded(), abs(value) < 1e15 {
            return String(Int64(value))
        }
        var text = String(format: "%.6f", value)
        while text.hasSuffix("0") {
            text.removeLast()
        }
        if text.hasSuffix(".") {
            text.removeLast()
        }
        return text == "-0" ? "0" : text
    }

    static func quoted(_ value: String) -> String {
        var out = "\""
        out.reserveCapacity(value.utf8.count + 2)
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    out += String(format: "\\u%04x", scalar.value)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }

    static func array(_ elements: [String]) -> String {
        "[" + elements.joined(separator: ",") + "]"
    }
}
