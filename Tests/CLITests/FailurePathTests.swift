import Foundation
import Testing
import LiveScan
import LiveScanScenes

/// The failure paths users hit: nothing an option names is lost, nothing hangs, nothing from a file name or
/// payload reaches the terminal raw.
@Suite(.serialized) struct FailurePathTests {
    let folder: URL
    /// Owns `folder`: it goes with this test.
    private let scratch: ScratchFolder

    init() throws {
        scratch = try ScratchFolder()
        folder = scratch.url
    }

    private func video(_ name: String, frames: Int = 30) throws -> String {
        let video = scratch.path(name)
        try SceneRenderer(scene: shortScene(frames: frames)).writeVideo(to: video)
        return video
    }

    // MARK: - Data loss

    @Test func eventsNeverOverwritesAFileThatIsNotAnEventLog() throws {
        let source = try video("v.mp4")
        let mistaken = scratch.path("t.mp4")
        try FileManager.default.copyItem(atPath: source, toPath: mistaken)
        let original = try Data(contentsOf: URL(fileURLWithPath: mistaken))
        // The source forgotten: `--events t.mp4` with an image to scan.
        let image = try scratch.qrStill("s.png")
        let refused = try Livescan.run(["scan", "--events", mistaken, image])
        #expect(refused.status == 1)
        #expect(refused.errorLines == ["Error: cannot write \(mistaken): it exists and is not an event log; "
                                       + "not overwriting it (--force replaces it)"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: mistaken)) == original)
        // No source at all: the camera that is not there fails first, and the file is untouched.
        #expect(try Livescan.run(["scan", "--events", mistaken]).status == 1)
        #expect(try Data(contentsOf: URL(fileURLWithPath: mistaken)) == original)
        // --force replaces it.
        #expect(try Livescan.run(["scan", "--force", "--events", mistaken, image]).status == 0)
        #expect(try eventLog(at: URL(fileURLWithPath: mistaken)).first?["event"] as? String == "start")
    }

    @Test func eventsThatIsTheSourceIsRefused() throws {
        let source = try video("same.mp4")
        let original = try Data(contentsOf: URL(fileURLWithPath: source))
        let result = try Livescan.run(["scan", "--events", source, source])
        #expect(result.status == 2)
        #expect(result.errorLines.first == "Error: --events \(source) is the SOURCE being scanned; give another "
                + "output file")
        // Through a link too.
        let link = scratch.path("link.mp4")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: source)
        #expect(try Livescan.run(["scan", "--events", link, source]).status == 2)
        #expect(try Data(contentsOf: URL(fileURLWithPath: source)) == original)
    }

    @Test func aSourceThatFailsToOpenLeavesThePreviousLogAsItWas() throws {
        let log = scratch.path("previous.jsonl")
        #expect(try Livescan.run(["scan", "--events", log, try scratch.qrStill("ok.png")]).status == 0)
        let previous = try Data(contentsOf: URL(fileURLWithPath: log))
        #expect(try Livescan.run(["scan", "--events", log, scratch.path("missing.mp4")]).status == 1)
        #expect(try Data(contentsOf: URL(fileURLWithPath: log)) == previous)
        // A log of an earlier scan is an event log: a new scan replaces it without --force.
        #expect(try Livescan.run(["scan", "--events", log, try scratch.qrStill("other.png", payload: "other")]).status == 0)
        #expect(try String(contentsOfFile: log, encoding: .utf8).contains("\"payload\":\"other\""))
    }

    /// The engines are made when the scan starts, after the log is opened: a language whose data is not installed
    /// (or a model not fetched) stops it there. The log was emptied when it was opened, and a 92-line log of an
    /// earlier scan was lost; now it is emptied at the first line, and a log made for the scan is removed.
    @Test func aScanThatFailsToStartLeavesThePreviousLogAsItWas() throws {
        let log = scratch.path("earlier.jsonl")
        let image = try scratch.qrStill("start.png")
        #expect(try Livescan.run(["scan", "--events", log, image]).status == 0)
        let previous = try Data(contentsOf: URL(fileURLWithPath: log))
        let failed = try Livescan.run(["scan", "--types", "text", "--languages", "zzz", "--events", log, image])
        #expect(failed.status == 2)
        #expect(try Data(contentsOf: URL(fileURLWithPath: log)) == previous)
        let fresh = scratch.path("fresh.jsonl")
        #expect(try Livescan.run(["scan", "--types", "text", "--languages", "zzz", "--events", fresh, image]).status == 2)
        #expect(!FileManager.default.fileExists(atPath: fresh))
    }

    @Test func aClosedStandardOutputIsAnErrorNotTheLog() throws {
        let image = try scratch.qrStill("closed.png")
        let log = scratch.path("closed.jsonl")
        let executable = try #require(Livescan.executable).path
        // `exec ... >&-`: the command starts with descriptor 1 closed.
        let result = try Shell.run("exec \"$0\" scan --events \"$1\" \"$2\" >&-", arguments: [executable, log, image])
        #expect(result.status == 1)
        #expect(result.errorLines == ["Error: cannot write standard output: Bad file descriptor"])
        let text = try String(contentsOfFile: log, encoding: .utf8)
        #expect(!text.contains("qr:"))
        let lines = try eventLog(at: URL(fileURLWithPath: log))
        #expect(lines.first?["event"] as? String == "start")
        #expect(lines.last?["event"] as? String == "end")
        #expect(lines.last?["reason"] as? String == "error")
    }

    @Test func aSecondScanOntoTheSameLogFailsAndLeavesItWhole() throws {
        let long = try video("long.mp4", frames: 600)
        let log = URL(fileURLWithPath: scratch.path("shared.jsonl"))
        var second: CommandResult?
        let first = try Livescan.run(["scan", "--types", "qr", "--events", log.path, long]) { _ in
            waitForLines(containing: "\"start\"", in: log)
            second = try? Livescan.run(["scan", "--types", "qr", "--events", log.path, long])
        }
        #expect(first.status == 0)
        #expect(second?.status == 1)
        #expect(second?.errorLines == ["Error: cannot write \(log.path): another scan is writing this event log"])
        let lines = try String(contentsOf: log, encoding: .utf8).split(separator: "\n")
        #expect(lines.filter { $0.contains("\"event\":\"start\"") }.count == 1)
        #expect(lines.last?.contains("\"reason\":\"eof\"") == true)
        #expect(try eventLog(at: log).allSatisfy { $0["event"] != nil })
    }

    @Test func annotateNeverWritesOverItsInput() throws {
        let source = try video("c.mp4")
        let original = try Data(contentsOf: URL(fileURLWithPath: source))
        let result = try Livescan.run(["scan", "--annotate", source, source])
        #expect(result.status == 2)
        #expect(result.errorLines.first == "Error: --annotate \(source) is the SOURCE being scanned; give another "
                + "output file")
        #expect(try Data(contentsOf: URL(fileURLWithPath: source)) == original)
        let log = scratch.path("both.jsonl")
        #expect(try Livescan.run(["scan", "--annotate", log + ".mp4", "--events", log + ".mp4", source]).status == 2)
    }

    /// The annotated video is written under a hidden name and renamed at the end: while the scan runs, the
    /// file the user named is the one that was there before.
    @Test func annotateReplacesItsOutputOnlyWhenFinished() throws {
        let source = try video("long-annotate.mp4", frames: 300)
        let output = scratch.path("annotated.mp4")
        let before = Data("the previous file".utf8)
        try before.write(to: URL(fileURLWithPath: output))
        let log = URL(fileURLWithPath: scratch.path("annotate.jsonl"))
        var duringScan: Data?
        var partialFiles: [String] = []
        let arguments = ["scan", "--types", "qr", "--annotate", output, "--events", log.path, source]
        let result = try Livescan.run(arguments) { _ in
            waitForLines(containing: "\"update\"", count: 20, in: log)
            duringScan = try? Data(contentsOf: URL(fileURLWithPath: output))
            partialFiles = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        }
        #expect(result.status == 0)
        #expect(duringScan == before)
        #expect(partialFiles.contains { $0.hasPrefix(".annotated.livescan-") && $0.hasSuffix(".mp4") })
        let written = try VideoSource(path: output)
        #expect(written.info.frameCount == 300)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).allSatisfy { !$0.hasPrefix(".") })
    }

    // MARK: - Crash, hang, memory

    @Test func trackerValuesBeyondTheirRangeAreUsageErrors() throws {
        for setting in ["grace_period=1e20", "update_distance=1e20", "barcode_gate=1e20", "text_gate=1e20",
                        "grace_period=inf", "text_gate=nan"] {
            let result = try Livescan.run(["scan", "--tracker", setting, "x.png"])
            #expect(result.status == 2, "\(setting): \(result.standardError)")
            #expect(result.errorLines.first?.hasPrefix("Error: --tracker \(setting): ") == true, "\(setting)")
        }
    }

    /// A server that accepts the connection and never sends: Ctrl-C ends the command at once, not when the
    /// 30 s timeout is up, and no log is begun.
    @Test func aSignalStopsAStreamThatIsStillOpening() throws {
        let server = try SilentServer()
        let log = scratch.path("silent.jsonl")
        try Data("{\"event\":\"start\"}\n".utf8).write(to: URL(fileURLWithPath: log))
        var signalled = Date()
        let arguments = ["scan", "--timeout", "30", "--events", log, server.url]
        let result = try Livescan.run(arguments, timeout: 20) { process in
            // Once it has connected, the command is past its start-up and waiting for the stream.
            server.waitForConnection(seconds: 15)
            usleep(200_000)
            signalled = Date()
            kill(process.processIdentifier, SIGINT)
        }
        #expect(result.status == 130)
        #expect(Date().timeIntervalSince(signalled) < 2)
        #expect(try String(contentsOfFile: log, encoding: .utf8) == "{\"event\":\"start\"}\n")
    }

    @Test func anImageAnnouncingTooManyPixelsIsRefusedBeforeDecoding() throws {
        // 150 KB of PNG that says 30000 x 30000: decoded it would take 3.6 GB.
        let huge = scratch.path("huge.png")
        try PNGFile.write(width: 30000, height: 30000, rows: 64, to: huge)
        let started = Date()
        let result = try Livescan.run(["scan", huge])
        #expect(result.status == 1)
        #expect(result.errorLines == ["Error: \(huge): 30000 x 30000 pixels (900.0 megapixels), over the limit of "
                                      + "100.0 megapixels (--max-pixels raises the limit)"])
        #expect(Date().timeIntervalSince(started) < 5)
        // The limit is the user's: a 1280 x 720 image is over a limit of 100 pixels.
        let small = try scratch.qrStill("small.png")
        #expect(try Livescan.run(["scan", "--max-pixels", "100", small]).status == 1)
        #expect(try Livescan.run(["scan", "--max-pixels", "1000000", small]).status == 0)
        #expect(try Livescan.run(["scan", "--max-pixels", "0", small]).status == 2)
    }

    /// `report - </dev/zero` is one endless line: it is skipped as it streams, never held.
    @Test func reportStreamsALogInBoundedMemory() throws {
        let process = Process()
        process.executableURL = try #require(Livescan.executable)
        process.arguments = ["report", "-"]
        process.standardInput = FileHandle(forReadingAtPath: "/dev/zero")
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        sleep(3)
        let peak = ProcessMemory.peakKilobytes(of: process.processIdentifier)
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(peak != nil)
        #expect((peak ?? .max) < 200_000, "peak \(peak ?? -1) kB after 3 s of /dev/zero")

        // A log with a 3 MB line of garbage in the middle: the line is counted bad, the rest reported.
        let log = scratch.path("garbage.jsonl")
        #expect(try Livescan.run(["scan", "--events", log, try scratch.qrStill("g.png", payload: "kept")]).status == 0)
        var lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").map(String.init)
        lines.insert(String(repeating: "x", count: 3 << 20), at: 1)
        try (lines.joined(separator: "\n") + "\n").write(toFile: log, atomically: true, encoding: .utf8)
        let report = try Livescan.run(["report", log])
        #expect(report.status == 0)
        #expect(report.standardOutput.contains("kept"))
        #expect(report.standardOutput.contains("bad lines: 1 (lines 2)"))
    }

    // MARK: - Terminal injection and unclear errors

    @Test func fileNamesNeverReachTheTerminalRaw() throws {
        let hostile = "\u{1B}]52;c;aGk=\u{07}"
        let image = scratch.path("bad\(hostile).png")
        try Data(repeating: 0x42, count: 500).write(to: URL(fileURLWithPath: image))
        let imageResult = try Livescan.run(["scan", image])
        #expect(imageResult.status == 1)
        #expect(!imageResult.standardError.contains("\u{1B}"))
        #expect(imageResult.errorLines.count == 1)
        let video = scratch.path("bad\(hostile).mp4")
        try Data(String(repeating: "not a video\n", count: 100).utf8).write(to: URL(fileURLWithPath: video))
        let videoResult = try Livescan.run(["scan", video])
        #expect(videoResult.status == 1)
        #expect(!videoResult.standardError.contains("\u{1B}"))
        #expect(videoResult.errorLines.count == 1)
    }

    @Test func csvOnATerminalIsEscapedAndExactInAPipe() throws {
        let payload = "ab\u{1B}[2J\u{07}cd"
        let image = scratch.path("csv.png")
        try SceneRenderer(scene: SceneRenderer.still(symbology: .qr, payload: payload).scene).writeImage(to: image)
        let log = scratch.path("csv.jsonl")
        #expect(try Livescan.run(["scan", "--events", log, image]).status == 0)
        let piped = try Livescan.run(["report", "--csv", log])
        #expect(piped.standardOutput.contains(payload))
        let executable = try #require(Livescan.executable).path
        let onTerminal = try Shell.runInTerminal([executable, "report", "--csv", log])
        #expect(!onTerminal.contains("\u{1B}[2J"))
        #expect(onTerminal.contains("ab\\e[2J\\x07cd"))
    }

    @Test func nulBytesAreKeptAndShownEscaped() throws {
        let payload = "https://good.example/\u{0}@evil.example/steal"
        let image = scratch.path("nul.png")
        try SceneRenderer(scene: SceneRenderer.still(symbology: .qr, payload: payload).scene).writeImage(to: image)
        let log = scratch.path("nul.jsonl")
        let result = try Livescan.run(["scan", "--events", log, image])
        #expect(result.status == 0)
        #expect(result.outputLines == ["qr:https://good.example/\\x00@evil.example/steal"])
        let add = try #require(try eventLog(at: URL(fileURLWithPath: log)).first { $0["event"] as? String == "add" })
        #expect(add["payload"] as? String == payload)
        // Not a URL: a NUL has no place in one, and the host after it must not be shown as the address.
        let content = add["content"] as? [String: Any]
        #expect(content?["type"] as? String == "text")
    }

    @Test func endReasonSaysStoppedForStopsWithoutASignal() throws {
        let long = try video("once.mp4", frames: 90)
        let log = scratch.path("once.jsonl")
        #expect(try Livescan.run(["scan", "--once", "--types", "qr", "--events", log, long]).status == 0)
        #expect(try eventLog(at: URL(fileURLWithPath: log)).last?["reason"] as? String == "stopped")
    }

    @Test func eachFailureSaysWhatItIs() throws {
        // A JPEG cut in half: what decoded is scanned, then the cut is reported, exit 1.
        let whole = scratch.path("whole.jpg")
        try FrameImage(contentsOf: try scratch.qrStill("jpeg-source.png")).write(to: whole)
        let data = try Data(contentsOf: URL(fileURLWithPath: whole))
        let cut = scratch.path("cut.jpg")
        try data.prefix(data.count / 2).write(to: URL(fileURLWithPath: cut))
        let truncated = try Livescan.run(["scan", cut])
        #expect(truncated.status == 1)
        #expect(truncated.errorLines == ["Error: \(cut): the file is truncated (cut short); what decoded was scanned"])
        // Very thin images are valid and empty.
        for (name, width, height) in [("tall.png", 1, 100_000), ("wide.png", 5000, 1)] {
            try PNGFile.write(width: width, height: height, rows: height, to: scratch.path(name))
            let result = try Livescan.run(["scan", scratch.path(name)])
            #expect(result.status == 4, "\(name): \(result.standardError)")
            #expect(result.standardError.isEmpty, "\(name)")
        }
        // Streams: a refused port is not a timeout.
        let refused = try Livescan.run(["scan", "tcp://127.0.0.1:9"])
        #expect(refused.errorLines == ["Error: tcp://127.0.0.1:9: the stream did not open: Connection refused"])
        let server = try SilentServer()
        let silent = try Livescan.run(["scan", "--timeout", "0.5", server.url])
        #expect(silent.errorLines == ["Error: \(server.url): the stream did not open: nothing arrived within 0.5 s "
                                      + "(no server answered, or it sent no video)"])
        // Links, pipes and devices.
        let loop = scratch.path("loop.mp4")
        try FileManager.default.createSymbolicLink(atPath: loop, withDestinationPath: scratch.path("loop2.mp4"))
        try FileManager.default.createSymbolicLink(atPath: scratch.path("loop2.mp4"), withDestinationPath: loop)
        #expect(try Livescan.run(["scan", loop]).errorLines == ["Error: \(loop): a loop of symbolic links, not a file"])
        let fifo = scratch.path("fifo.mp4")
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(try Livescan.run(["scan", fifo], timeout: 10).errorLines
                == ["Error: \(fifo): is a named pipe (FIFO), not a file; give a file, or a stream URL"])
        #expect(try Livescan.run(["scan", "/dev/zero"], timeout: 10).errorLines
                == ["Error: /dev/zero: is a device, not a file"])
    }

    /// A stream whose resolution changes mid-way: the annotation goes on at the first size, and the log says
    /// when frames changed size.
    @Test func aResolutionChangeIsAnnotatedAndLogged() throws {
        let ffmpeg = try #require(LocalStream.ffmpeg)
        let source = try video("720.mp4", frames: 30)
        let large = scratch.path("a.ts"), small = scratch.path("b.ts")
        for (output, filter) in [(large, "null"), (small, "scale=640:360")] {
            let result = try Shell.run("\"$0\" -nostdin -loglevel error -y -i \"$1\" -vf \"$2\" -f mpegts \"$3\"",
                                       arguments: [ffmpeg, source, filter, output])
            #expect(result.status == 0, "\(result.standardError)")
        }
        let joined = scratch.path("joined.ts")
        var bytes = try Data(contentsOf: URL(fileURLWithPath: large))
        bytes.append(try Data(contentsOf: URL(fileURLWithPath: small)))
        try bytes.write(to: URL(fileURLWithPath: joined))
        let log = URL(fileURLWithPath: scratch.path("joined.jsonl"))
        let annotated = scratch.path("joined-annotated.mp4")
        let result = try Livescan.run(["scan", "--types", "qr", "--annotate", annotated, "--events", log.path, joined])
        #expect(result.status == 0, "\(result.standardError)")
        let lines = try eventLog(at: log)
        let resizes = lines.filter { $0["event"] as? String == "resize" }
        #expect(resizes.count == 1)
        // The decoder may drop the frame it held back when the stream's parameters change.
        #expect((28...30).contains(resizes.first?["frame"] as? Int ?? 0))
        #expect(resizes.first?["width"] as? Int == 640)
        #expect(resizes.first?["height"] as? Int == 360)
        let processed = try #require(lines.last?["frames_processed"] as? Int)
        #expect(processed >= 58)
        let written = try VideoSource(path: annotated)
        #expect(written.info.width == 1280)
        #expect(written.info.frameCount == processed)
    }
}

/// A TCP server on 127.0.0.1 that accepts connections and never sends a byte: a stream that hangs.
final class SilentServer {
    let url: String
    private let socket: Int32

    init() throws {
        let listener = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let size = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, size) }
        }
        guard bound == 0, listen(listener, 8) == 0 else {
            close(listener)
            throw CocoaError(.fileWriteUnknown)
        }
        var length = size
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        socket = listener
        url = "tcp://127.0.0.1:\(UInt16(bigEndian: address.sin_port))"
    }

    private var accepted: [Int32] = []

    /// Waits up to `seconds` for a client to connect, and keeps the connection open without a word.
    func waitForConnection(seconds: Double) {
        var waiting = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
        if poll(&waiting, 1, Int32(seconds * 1000)) == 1 {
            let client = accept(socket, nil, nil)
            if client >= 0 {
                accepted.append(client)
            }
        }
    }

    deinit {
        accepted.forEach { close($0) }
        close(socket)
    }
}

/// A PNG of one grey level written directly (zlib through Foundation is not on Linux): the header says
/// `width` x `height`, and `rows` rows of pixels follow, so a small file can announce a huge picture.
enum PNGFile {
    static func write(width: Int, height: Int, rows: Int, to path: String) throws {
        var file = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        var header = Data()
        header.append(bigEndian: UInt32(width))
        header.append(bigEndian: UInt32(height))
        header.append(contentsOf: [8, 0, 0, 0, 0])
        file.append(chunk("IHDR", header))
        // Stored (uncompressed) deflate blocks: a filter byte and `width` grey pixels a row.
        var raw = Data()
        for _ in 0..<rows {
            raw.append(0)
            raw.append(Data(repeating: 0x80, count: width))
        }
        file.append(chunk("IDAT", zlibStored(raw)))
        file.append(chunk("IEND", Data()))
        try file.write(to: URL(fileURLWithPath: path))
    }

    private static func chunk(_ type: String, _ data: Data) -> Data {
        var chunk = Data()
        chunk.append(bigEndian: UInt32(data.count))
        let typed = Data(type.utf8) + data
        chunk.append(typed)
        chunk.append(bigEndian: crc32(typed))
        return chunk
    }

    private static func zlibStored(_ data: Data) -> Data {
        var out = Data([0x78, 0x01])
        var offset = 0
        repeat {
            let count = min(65_535, data.count - offset)
            let last: UInt8 = offset + count >= data.count ? 1 : 0
            out.append(last)
            let complement = ~count & 0xFFFF
            out.append(contentsOf: [UInt8(count & 0xFF), UInt8(count >> 8), UInt8(complement & 0xFF),
                                    UInt8(complement >> 8)])
            out.append(data[offset..<(offset + count)])
            offset += count
        } while offset < data.count
        out.append(bigEndian: adler32(data))
        return out
    }

    private static func crc32(_ data: Data) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in data {
            crc ^= UInt32(byte)
            for _ in 0..<8 {
                crc = (crc >> 1) ^ (crc & 1 == 1 ? 0xEDB8_8320 : 0)
            }
        }
        return ~crc
    }

    private static func adler32(_ data: Data) -> UInt32 {
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in data {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        return (b << 16) | a
    }
}

private extension Data {
    mutating func append(bigEndian value: UInt32) {
        Swift.withUnsafeBytes(of: value.bigEndian) { append(contentsOf: $0) }
    }
}

/// The peak resident memory of a running process (VmHWM in /proc), in kilobytes.
enum ProcessMemory {
    static func peakKilobytes(of pid: Int32) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") }
        return line.flatMap { Int($0.split(separator: " ").dropFirst().first ?? "") }
    }
}
