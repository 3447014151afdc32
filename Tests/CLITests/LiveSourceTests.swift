import Foundation
import Testing
import LiveScan
import LiveScanScenes
import LiveScanTestSupport

/// An MPEG-TS stream served by ffmpeg on 127.0.0.1, looping a generated video at its real rate.
final class LocalStream {
    let url: String
    private let video: String
    private let port: Int
    private var server: Process?

    init(video: String) {
        self.video = video
        port = Int.random(in: 20_000...45_000)
        url = "tcp://127.0.0.1:\(port)"
    }

    static var ffmpeg: String? {
        ["/usr/bin/ffmpeg", "/usr/local/bin/ffmpeg"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    func start() throws {
        guard let ffmpeg = LocalStream.ffmpeg else { throw CocoaError(.fileNoSuchFile) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ffmpeg)
        process.arguments = ["-nostdin", "-loglevel", "quiet", "-re", "-stream_loop", "-1", "-i", video, "-c", "copy",
                             "-f", "mpegts", "\(url)?listen=1"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        server = process
        _ = waitUntilListening(port: port)  // before the scanner connects; a stream that never listens fails there
    }

    /// SIGKILL: a process started from a test thread inherits its blocked signals, SIGTERM among them.
    func stop() {
        if let server, server.isRunning {
            kill(server.processIdentifier, SIGKILL)
            server.waitUntilExit()
        }
        server = nil
    }

    deinit {
        stop()
    }
}

/// Waits until `path` holds `count` lines containing `needle`, or `seconds` pass.
func waitForLines(containing needle: String, count: Int = 1, in path: URL, seconds: Double = 30) {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        let text = (try? String(contentsOf: path, encoding: .utf8)) ?? ""
        if text.components(separatedBy: "\n").filter({ $0.contains(needle) }).count >= count {
            return
        }
        usleep(50_000)
    }
}

@Suite(.serialized) struct LiveSourceTests {
    let folder: URL
    /// Owns `folder`: it goes with this test.
    private let scratch: ScratchFolder
    let video: URL

    init() throws {
        scratch = try ScratchFolder()
        folder = scratch.url
        video = folder.appendingPathComponent("loop.mp4")
        try SceneRenderer(scene: shortScene(frames: 60)).writeVideo(to: video.path)
    }

    @Test(.enabled(if: LocalStream.ffmpeg != nil))
    func streamScannedLiveThenInterruptedLeavesACompleteLog() throws {
        let stream = LocalStream(video: video.path)
        try stream.start()
        let events = folder.appendingPathComponent("live.jsonl")
        let result = try Livescan.run(["scan", stream.url, "--types", "qr", "--events", events.path, "--timeout", "3"]) {
            waitForLines(containing: "\"add\"", count: 2, in: events)
            usleep(300_000)
            kill($0.processIdentifier, SIGINT)
        }
        stream.stop()
        #expect(result.status == 130, "stderr: \(result.standardError)")
        // A live source prints events: two adds, their updates, and the removes when stopped.
        let adds = result.outputLines.filter { $0.hasPrefix("+ ") }.map { $0.split(separator: " ").dropFirst(2) }
        #expect(Set(adds.map { $0.joined(separator: " ") }) == ["qr https://livescan.example/a", "qr SHELF-B-0042"])
        #expect(result.outputLines.filter { $0.hasPrefix("- ") }.count == 2)
        let log = try eventLog(at: events)
        #expect(log.first?["source"] as? String == stream.url)
        #expect(log.last?["reason"] as? String == "interrupted")
        let added = log.filter { $0["event"] as? String == "add" }.compactMap { $0["id"] as? String }
        let removed = log.filter { $0["event"] as? String == "remove" }.compactMap { $0["id"] as? String }
        // The loop restarts the codes at their first place; the payload keeps their identity.
        #expect(added.count == 2)
        #expect(Set(added) == Set(removed))
    }

    /// A library user scans a stream opened as the README shows (`VideoSource(url:)`) with a delegate slower
    /// than the stream: the frames it sees are the newest, not a queue falling ever further behind (it fell
    /// 12.7 s behind a 15 s stream).
    @Test(.enabled(if: LocalStream.ffmpeg != nil))
    func aSlowDelegateSeesTheNewestFramesOfAStream() throws {
        let stream = LocalStream(video: video.path)
        try stream.start()
        defer { stream.stop() }
        final class SlowDelegate: DataScannerDelegate, @unchecked Sendable {
            private let lock = NSLock()
            private var first: (wall: Double, media: Double)?
            private(set) var lag = 0.0
            var largestLag: Double { lock.withLock { lag } }

            func dataScanner(_ dataScanner: DataScanner, didProcess frame: Frame, allItems: [RecognizedItem]) {
                let now = ProcessInfo.processInfo.systemUptime
                lock.withLock {
                    let start = first ?? (now, frame.time)
                    first = start
                    lag = max(lag, (now - start.wall) - (frame.time - start.media))
                }
                usleep(250_000)
            }
        }
        let scanner = DataScanner(recognizedDataTypes: [.barcode(symbologies: [.qr])], qualityLevel: .fast)
        let delegate = SlowDelegate()
        scanner.delegate = delegate
        try scanner.startScanning(try VideoSource(url: stream.url, timeout: 5))
        Thread.sleep(forTimeInterval: 4)
        scanner.stopScanning()
        // Newest first, a frame is at most one delegate call (0.25 s) and one read old; in order, 4 s of
        // 30 fps at 4 frames a second would have left it over 3 s behind.
        #expect(delegate.largestLag < 1.0, "the delegate fell \(delegate.largestLag) s behind")
    }

    @Test(.enabled(if: LocalStream.ffmpeg != nil))
    func serverKilledMidStreamEndsWithAnErrorAndRemovesEveryItem() throws {
        let stream = LocalStream(video: video.path)
        try stream.start()
        let events = folder.appendingPathComponent("killed.jsonl")
        let result = try Livescan.run(["scan", stream.url, "--types", "qr", "--events", events.path, "--timeout", "1"]) {
            _ in
            waitForLines(containing: "\"add\"", count: 2, in: events)
            stream.stop()
        }
        #expect(result.status == 1)
        #expect(result.errorLines.count == 1)
        #expect(result.errorLines.first?.hasPrefix("Error: \(stream.url): ") == true)
        let log = try eventLog(at: events)
        #expect(log.last?["event"] as? String == "end")
        #expect(log.last?["reason"] as? String == "error")
        let added = Set(log.filter { $0["event"] as? String == "add" }.compactMap { $0["id"] as? String })
        let removed = Set(log.filter { $0["event"] as? String == "remove" }.compactMap { $0["id"] as? String })
        #expect(added.count == 2)
        #expect(added == removed)
    }

    @Test(.enabled(if: LocalStream.ffmpeg != nil))
    func reconnectKeepsIdentitiesAcrossAShortGap() throws {
        let stream = LocalStream(video: video.path)
        try stream.start()
        let events = folder.appendingPathComponent("reconnect.jsonl")
        let result = try Livescan.run(["scan", stream.url, "--types", "qr", "--events", events.path, "--timeout", "1",
                                       "--reconnect"]) { process in
            waitForLines(containing: "\"add\"", count: 2, in: events)
            stream.stop()
            usleep(1_500_000)
            try? stream.start()
            // Frames flow again once the scanner has reopened the stream and updated an item.
            let before = (try? String(contentsOf: events, encoding: .utf8))?.count ?? 0
            let deadline = Date().addingTimeInterval(20)
            while Date() < deadline, ((try? String(contentsOf: events, encoding: .utf8))?.count ?? 0) <= before + 2000 {
                usleep(100_000)
            }
            kill(process.processIdentifier, SIGINT)
        }
        stream.stop()
        #expect(result.status == 130, "stderr: \(result.standardError)")
        let log = try eventLog(at: events)
        #expect(log.filter { $0["event"] as? String == "add" }.count == 2)
        #expect(log.last?["reason"] as? String == "interrupted")
        // The reopening is said: one log line, at the first frame from the reopened stream, and a note on stderr.
        let reconnects = log.filter { $0["event"] as? String == "reconnect" }
        #expect(reconnects.count == 1, "\(reconnects)")
        #expect((reconnects.first?["outage"] as? Double ?? 0) > 1 && (reconnects.first?["frame"] as? Int ?? 0) > 0)
        #expect(result.errorLines.contains { $0.hasPrefix("Note: \(stream.url): reconnected after ") },
                "\(result.errorLines)")
    }

    @Test func missingCameraIsOneClearError() throws {
        let result = try Livescan.run(["scan", "/dev/video7"])
        #expect(result.status == 1)
        #expect(result.errorLines == ["Error: /dev/video7: no such camera (see 'livescan sources')"])
    }

    @Test func streamThatNeverOpensTimesOut() throws {
        let started = Date()
        let result = try Livescan.run(["scan", "tcp://127.0.0.1:9", "--timeout", "1"])
        #expect(result.status == 1)
        #expect(result.errorLines.count == 1)
        #expect(Date().timeIntervalSince(started) < 15)
    }
}
