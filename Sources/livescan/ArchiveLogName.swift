import Foundation
import LiveScan

/// The name of an input's event log in the archive folder: `cam-03_day1.mp4.1f0c8e2a9b3d.jsonl`, a readable slug of
/// the input's last two path components and 12 hex digits of a hash of its absolute path. The slug is for people;
/// the hash keeps two inputs with the same slug (`a/b/x.mp4` and `c/b/x.mp4`, `x y.mp4` and `x_y.mp4`) apart, and it
/// is the same in every run, from every working folder and on every node that sees the file at the same path, which
/// is what lets a run skip what an earlier one (or another array task) finished.
enum ArchiveLogName {
    /// The longest slug kept (its end: a file's name says more than its folder's).
    static let slugLength = 60

    /// The log's file name for the input at `absolutePath`.
    static func name(forInputAt absolutePath: String) -> String {
        slug(absolutePath) + "." + hash(absolutePath) + ".jsonl"
    }

    /// The hidden name a log is written under until its scan ends well; then it is renamed to `name`.
    static func partialName(of name: String) -> String {
        "." + name + ".partial"
    }

    /// The last two components, joined by `_`, every character but ASCII letters, digits, `.` and `-` as `_`
    /// (one for a run of them), without a leading `.` (a hidden log would not be listed).
    static func slug(_ absolutePath: String) -> String {
        let lastTwo = absolutePath.split(separator: "/").suffix(2).joined(separator: "_")
        var slug = ""
        for scalar in lastTwo.unicodeScalars {
            let kept = scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || scalar == "." || scalar == "-")
            if kept {
                slug.unicodeScalars.append(scalar)
            } else if !slug.hasSuffix("_") {
                slug += "_"
            }
        }
        while slug.hasPrefix(".") || slug.hasPrefix("_") {
            slug.removeFirst()
        }
        slug = String(slug.suffix(slugLength))
        return slug.isEmpty ? "input" : slug
    }

    /// FNV-1a (64 bits) of the path's bytes, its first 48 bits in hex: fixed by the algorithm, unlike Swift's
    /// `Hasher`, which is seeded anew in every process. 48 bits make a clash among 2,000 inputs with one slug about one
    /// in 10^8.
    static func hash(_ absolutePath: String) -> String {
        var value: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in FileNameBytes.bytes(of: absolutePath) {
            value ^= UInt64(byte)
            value = value &* 0x0000_0100_0000_01B3
        }
        let hex = String(value >> 16, radix: 16)
        return String(repeating: "0", count: 12 - hex.count) + hex
    }
}
