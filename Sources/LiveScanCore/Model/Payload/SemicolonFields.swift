import Foundation

/// Reads the NTT DoCoMo field syntax of `WIFI:`, `MECARD:` and `MATMSG:` payloads: `KEY:value;KEY:value;;`,
/// where a backslash makes the next character literal (`\;` `\,` `\:` `\\` `\"`). Keys are upper-cased and
/// trimmed; an unescaped `:` inside a value is kept, since many generators do not escape it.
enum SemicolonFields {
    struct Field: Equatable {
        let key: String
        let value: String
    }

    /// The fields in order, and whether the last one was closed by a `;` (false when the payload was cut off
    /// in the middle of a value; that value is kept as far as it goes).
    static func parse(_ body: String) -> (fields: [Field], isTerminated: Bool) {
        var fields: [Field] = []
        var key = ""
        var value = ""
        var inValue = false
        var escaping = false
        for scalar in body.unicodeScalars {
            if !inValue {
                switch scalar {
                case ":": inValue = true
                case ";": key = ""  // an empty segment, as in the closing `;;`
                default: key.unicodeScalars.append(scalar)
                }
            } else if escaping {
                value.unicodeScalars.append(scalar)
                escaping = false
            } else {
                switch scalar {
                case "\\": escaping = true
                case ";":
                    fields.append(field(key, value))
                    key = ""
                    value = ""
                    inValue = false
                default: value.unicodeScalars.append(scalar)
                }
            }
        }
        if escaping {
            value += "\\"  // a lone trailing backslash is literal
        }
        if inValue {
            fields.append(field(key, value))
        }
        return (fields, !inValue)
    }

    private static func field(_ key: String, _ value: String) -> Field {
        Field(key: key.trimmingCharacters(in: .whitespacesAndNewlines).uppercased(), value: value)
    }
}
