import Foundation
import LiveScan

/// One input's scan in an archive scan: a child `livescan scan` of this same binary, started with posix_spawn.
///
/// A process per input rather than a scanner per thread: a crash in a C++ library (zxing-cpp 1.4's assertion aborts,
/// FACTS.md) or a runaway input then costs that input alone; every scan frees all it held when it ends, so thousands
/// of inputs do not grow one heap; Tesseract's one-instance-per-thread rule and OpenMP's `OMP_THREAD_LIMIT` hold as
/// they do for any scan. What it costs, a process start (0.1-0.2 s with the modules linked on demand), is small
/// against a video's scan. posix_spawn and not Foundation's `Process`: the arguments are passed as bytes, so a file
/// name that is not UTF-8 reaches the child as it is (`FileNameBytes`).
final class ChildScan: @unchecked Sendable {
    let input: ArchiveInput
    /// The log's name in the archive folder.
    let logName: String
    let processID: pid_t
    let started = Date()
    private let errorOutput = CollectedOutput()
    private let errorRead = DispatchSemaphore(value: 0)

    /// How a child ended.
    enum Ending: Equatable {
        case exited(Int32)
        case killed(signal: Int32)

        /// The exit status a shell would report: the code, or 128 + the signal.
        var status: Int32 {
            switch self {
            case let .exited(code): return code
            case let .killed(signal): return 128 + signal
            }
        }
    }

    /// Starts `executable arguments...` with standard input and output on /dev/null and standard error on a pipe that
    /// this object reads to its end.
    init(executable: String, arguments: [String], input: ArchiveInput, logName: String) throws {
        self.input = input
        self.logName = logName
        var pipeEnds: [Int32] = [0, 0]
        guard pipe(&pipeEnds) == 0 else {
            throw ScanError.outputFailed(path: "a pipe", reason: String(cString: strerror(errno)))
        }
        // Close-on-exec (pipe2 is not imported): the next child must not hold this one's pipe open. Only this thread
        // starts children, so none can start between pipe and fcntl.
        pipeEnds.forEach { _ = fcntl($0, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], STDERR_FILENO)
        let argumentBytes = ([executable] + arguments).map {
            FileNameBytes.bytes(of: $0).map(CChar.init(bitPattern:)) + [0]
        }
        let argumentPointers: [UnsafeMutablePointer<CChar>?] = argumentBytes.map { bytes in
            let pointer = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count)
            pointer.initialize(from: bytes, count: bytes.count)
            return pointer
        } + [nil]
        defer { argumentPointers.forEach { $0?.deallocate() } }
        var child: pid_t = 0
        let spawned = posix_spawn(&child, executable, &actions, nil, argumentPointers, environ)
        close(pipeEnds[1])
        guard spawned == 0 else {
            close(pipeEnds[0])
            throw ScanError.outputFailed(path: executable,
                                         reason: "cannot start a scan: " + String(cString: strerror(spawned)))
        }
        processID = child
        let (readEnd, collected, done) = (pipeEnds[0], errorOutput, errorRead)
        DispatchQueue.global().async {
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(readEnd, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { break }
                collected.append(buffer[..<count])
            }
            close(readEnd)
            done.signal()
        }
    }

    /// How it ended, once it has; nil while it runs. Reaps it: call until it answers, then no more.
    func ending() -> Ending? {
        var status: Int32 = 0
        let result = waitpid(processID, &status, WNOHANG)
        guard result == processID else { return nil }
        // <sys/wait.h>'s WIFEXITED / WEXITSTATUS / WTERMSIG, which Swift does not import (they are macros).
        let signal = status & 0x7F
        return signal == 0 ? .exited((status >> 8) & 0xFF) : .killed(signal: signal)
    }

    /// What it printed on standard error: its `Error:` lines. Waits for the pipe's end (the child has exited).
    var errorText: String {
        errorRead.wait()
        errorRead.signal()
        return String(decoding: errorOutput.bytes, as: UTF8.self)
    }

    func signal(_ number: Int32) {
        kill(processID, number)
    }
}

/// Bytes a reading thread appends, read by another once it is done.
private final class CollectedOutput: @unchecked Sendable {
    private let lock = NSLock()
    private var data: [UInt8] = []
    /// Beyond this the rest is dropped: a scan prints a line or two; a runaway one must not fill memory.
    private let limit = 64 * 1024

    func append(_ bytes: ArraySlice<UInt8>) {
        lock.withLock { data += bytes.prefix(max(0, limit - data.count)) }
    }

    var bytes: [UInt8] { lock.withLock { data } }
}
