import Foundation

/// Writes whole lines to a file descriptor with write(2), so each line reaches the file (or pipe) as
/// soon as it is written: nothing waits in a buffer for a crash to lose.
public final class LineOutput: @unchecked Sendable {
    private let descriptor: Int32
    private let ownsDescriptor: Bool
    /// The path as given, or "-" for standard output.
    public let path: String
    private let lock = NSLock()
    /// The event log this replaces is emptied at the first line, not before: a scan that fails to start (a
    /// model not installed, a language missing) leaves the previous log as it was.
    private var emptiesAtFirstLine = false
    /// This object made the file, so if it never wrote to it, it removes it again.
    private var madeTheFile = false

    /// Opens `path` to write an event log into, with every check that keeps a file from being lost: an
    /// exclusive lock (`flock`) held until this object goes, so that a second scan onto the same log fails
    /// instead of interleaving its lines; and a regular file that already holds something other than an
    /// event log (a video given as `--events` by mistake) is refused unless `replacingAnyFile`. The file is
    /// emptied only after both checks passed, when the first line is written; one made here and never written
    /// to is removed when this object goes. "-" is standard output; a pipe or device is written as it is.
    public init(eventLogAt path: String, replacingAnyFile: Bool = false) throws {
        self.path = path
        if path == "-" {
            descriptor = STDOUT_FILENO
            ownsDescriptor = false
            return
        }
        var opened = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        madeTheFile = opened >= 0
        if opened < 0 && errno == EEXIST {
            opened = open(path, O_RDWR | O_CLOEXEC)
        }
        guard opened >= 0 else {
            throw ScanError.outputFailed(path: path, reason: String(cString: strerror(errno)))
        }
        descriptor = opened
        ownsDescriptor = true  // from here on deinit closes it, also when a check below throws
        var status = stat()
        guard fstat(opened, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return }
        guard flock(opened, LOCK_EX | LOCK_NB) == 0 else {
            throw ScanError.outputFailed(path: path, reason: errno == EWOULDBLOCK
                ? "another scan is writing this event log" : String(cString: strerror(errno)))
        }
        if status.st_size > 0 && !replacingAnyFile && !LineOutput.startsLikeAnEventLog(opened) {
            throw ScanError.outputFailed(
                path: path, reason: "it exists and is not an event log; not overwriting it (--force replaces it)")
        }
        emptiesAtFirstLine = status.st_size > 0
    }

    /// Whether the file's first bytes are those of a JSON Lines event log (`{"event":...`): one this
    /// command wrote before, which a new scan may replace.
    private static func startsLikeAnEventLog(_ descriptor: Int32) -> Bool {
        var head = [UInt8](repeating: 0, count: 64)
        let count = head.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return false }
        let text = String(decoding: head[..<count], as: UTF8.self).filter { !$0.isWhitespace }
        return text.hasPrefix("{\"event\":")
    }

    /// Wraps an already open descriptor (not closed by this object).
    public init(descriptor: Int32, name: String) {
        self.descriptor = descriptor
        ownsDescriptor = false
        path = name
    }

    deinit {
        if madeTheFile {
            // Still locked by this object: no other scan has taken the name over.
            var status = stat()
            if fstat(descriptor, &status) == 0 && status.st_size == 0 {
                unlink(path)
            }
        }
        if ownsDescriptor {
            close(descriptor)
        }
    }

    /// Writes `line` and a newline. Throws `ScanError.outputClosed` when a pipe's reader has gone,
    /// `ScanError.outputFailed` on any other failure.
    public func write(_ line: String) throws {
        var bytes = Array(line.utf8)
        bytes.append(UInt8(ascii: "\n"))
        try write(bytes: bytes)
    }

    /// Writes `bytes` and a newline: a line that carries a payload's exact bytes (`--raw` into a pipe), which need
    /// not be UTF-8; with `write(_:)`'s errors.
    public func write(lineBytes bytes: [UInt8]) throws {
        try write(bytes: bytes + [UInt8(ascii: "\n")])
    }

    /// Writes `text` as it is (a whole report: its lines end in their own newlines), with `write(_:)`'s errors.
    public func write(text: String) throws {
        try write(bytes: Array(text.utf8))
    }

    private func write(bytes: [UInt8]) throws {
        try lock.withLock {
            if emptiesAtFirstLine {
                guard ftruncate(descriptor, 0) == 0 else {
                    throw ScanError.outputFailed(path: path, reason: String(cString: strerror(errno)))
                }
                emptiesAtFirstLine = false
            }
            var offset = 0
            while offset < bytes.count {
                let written = bytes[offset...].withUnsafeBytes {
                    Foundation.write(descriptor, $0.baseAddress, $0.count)
                }
                if written < 0 {
                    if errno == EINTR {
                        continue
                    }
                    if errno == EPIPE {
                        throw ScanError.outputClosed(path: path)
                    }
                    throw ScanError.outputFailed(path: path, reason: String(cString: strerror(errno)))
                }
                offset += written
            }
        }
    }
}
