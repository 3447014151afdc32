import Foundation

/// Whether an event log on disk is whole. The writer's last line is always the `end` line (`EventLog`'s schema), and
/// every line is flushed as it is written, so a log whose last line is an `end` was finished; one cut by a crash, a
/// kill or a full disk is not. `livescan scan --out` keeps only such logs, and skips an input whose log is one.
public enum EventLogCompleteness {
    /// The most read from the end of the file: an end line is a few hundred bytes (its `error` a sentence).
    static let tailBytes = 64 * 1024

    /// Whether the last line of the file at `path` is an event log's `end` line. False when the file cannot be read.
    public static func endsWithEndLine(path: String) -> Bool {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG, status.st_size > 0 else {
            return false
        }
        let length = min(Int(status.st_size), tailBytes)
        var tail = [UInt8](repeating: 0, count: length)
        let count = tail.withUnsafeMutableBytes {
            pread(descriptor, $0.baseAddress, length, off_t(status.st_size) - off_t(length))
        }
        guard count == length else { return false }
        // The writer ends every line with a newline: a last line without one was cut mid-write.
        guard tail.last == UInt8(ascii: "\n") else { return false }
        let body = tail.dropLast()
        let lastLine = body.lastIndex(of: UInt8(ascii: "\n")).map { body[($0 + 1)...] } ?? body[...]
        return EventLogReader.record(from: Data(lastLine))?.event == .end
    }
}
