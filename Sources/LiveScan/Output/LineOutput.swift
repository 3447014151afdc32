import Foundation

/// Writes whole lines to a file descriptor with write(2), so each line reaches the file (or pipe) as
/// soon as it is written: nothing waits in a buffer for a crash to lose.
public final class LineOutput: @unchecked Sendable {
    private let descriptor: Int32
    private let ownsDescriptor: Bool
    /// The path as given, or "-" for standard output.
    public let path: String
    private let lock = NSLock()

    /// Opens `path` for writing (created or truncated); "-" is standard output.
    public init(path: String) throws {
        self.path = path
        if path == "-" {
            descriptor = STDOUT_FILENO
            ownsDescriptor = false
        } else {
            let opened = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            guard opened >= 0 else {
                throw ScanError.outputFailed(path: path, reason: String(cString: strerror(errno)))
            }
            descriptor = opened
            ownsDescriptor = true
        }
    }

    /// Wraps an already open descriptor (not closed by this object).
    public init(descriptor: Int32, name: String) {
        self.descriptor = descriptor
        ownsDescriptor = false
        path = name
    }

    deinit {
        if ownsDescriptor {
            close(descriptor)
        }
    }

    /// Writes `line` and a newline. Throws `ScanError.outputClosed` when a pipe's reader has gone,
    /// `ScanError.outputFailed` on any other failure.
    public func write(_ line: String) throws {
        var bytes = Array(line.utf8)
        bytes.append(UInt8(ascii: "\n"))
        try lock.withLock {
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
