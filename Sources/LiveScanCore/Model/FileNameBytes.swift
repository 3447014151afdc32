/// File names as Linux has them: bytes, not necessarily UTF-8 (`q\xFF.png`). A Swift `String` cannot hold a byte
/// that is not part of valid UTF-8, and Swift's own conversions (`CommandLine.arguments`, `FileManager`) replace
/// it with U+FFFD, after which the file cannot be opened. LiveScan keeps such a name as a `String` all the same,
/// each stray byte 0x80...0xFF carried by one scalar of its own, U+10FF80...U+10FFFF (the top of the last
/// private-use plane, as Python's `surrogateescape` carries them in lone surrogates, which a Swift `String` cannot
/// hold). `bytes(of:)` gives the name back exactly, to open it; `TerminalSafeText` shows each such byte as `\xFF`.
/// A name that really holds one of those 128 private-use characters is read as the byte it stands for.
public enum FileNameBytes {
    /// The first scalar that stands for a byte: U+10FF80 is 0x80, U+10FFFF is 0xFF.
    static let firstByteScalar: UInt32 = 0x10_FF80

    /// `bytes` as a `String`: valid UTF-8 as it is, each other byte as the scalar that stands for it.
    public static func string<Bytes: Collection>(fromBytes bytes: Bytes) -> String where Bytes.Element == UInt8 {
        if let valid = String(validating: bytes, as: UTF8.self) {
            return valid
        }
        let bytes = Array(bytes)
        var scalars = String.UnicodeScalarView()
        var index = 0
        while index < bytes.count {
            // The longest valid sequence (1-4 bytes) starting here, or the byte alone.
            var length = 1
            var decoded: Unicode.Scalar?
            for candidate in 1...4 where index + candidate <= bytes.count {
                if let text = String(validating: bytes[index..<index + candidate], as: UTF8.self),
                   text.unicodeScalars.count == 1 {
                    decoded = text.unicodeScalars.first
                    length = candidate
                    break
                }
            }
            scalars.append(decoded ?? Unicode.Scalar(firstByteScalar - 0x80 + UInt32(bytes[index]))!)
            index += length
        }
        return String(scalars)
    }

    /// `name` for a line of text that is not shown on a terminal (the event log's `source`): each byte that is not
    /// UTF-8 as `\xFF`, the rest as it is.
    public static func displayName(_ name: String) -> String {
        guard carriesBytes(name) else { return name }
        var out = ""
        for scalar in name.unicodeScalars {
            if let byte = byte(scalar) {
                out += "\\x" + String(byte, radix: 16, uppercase: true)
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// The file name `name` stands for: its UTF-8, each scalar that stands for a byte as that byte.
    public static func bytes(of name: String) -> [UInt8] {
        guard carriesBytes(name) else { return Array(name.utf8) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(name.utf8.count)
        for scalar in name.unicodeScalars {
            if let byte = byte(scalar) {
                bytes.append(byte)
            } else {
                bytes.append(contentsOf: String(scalar).utf8)
            }
        }
        return bytes
    }

    /// Whether `name` holds any byte that is not valid UTF-8.
    public static func carriesBytes(_ name: String) -> Bool {
        name.unicodeScalars.contains { byte($0) != nil }
    }

    /// The byte `scalar` stands for, nil for an ordinary scalar.
    public static func byte(_ scalar: Unicode.Scalar) -> UInt8? {
        scalar.value >= firstByteScalar ? UInt8(scalar.value - firstByteScalar + 0x80) : nil
    }

    /// Calls `body` with the file name as a NUL-terminated C string of its own bytes, for open(2), stat(2),
    /// fopen and FFmpeg.
    public static func withCName<Result>(_ name: String, _ body: (UnsafePointer<CChar>) throws -> Result) rethrows
        -> Result {
        guard carriesBytes(name) else { return try name.withCString(body) }
        let bytes = Self.bytes(of: name).map { CChar(bitPattern: $0) } + [0]
        return try bytes.withUnsafeBufferPointer { try body($0.baseAddress!) }
    }
}
