import Foundation
import Testing
import LiveScan
import LiveScanScenes

/// A short moving scene: two QR codes, a Code 128 and a text line, 2 s at 30 fps.
func shortScene(frames: Int = 60, extraPayload: String? = nil) -> Scene {
    var items: [SceneItem] = [
        .barcode("qr-1", .qr, "https://livescan.example/a", moduleSize: 5, at: ScenePoint(x: 200, y: 200),
                 velocity: SceneVector(dx: 2, dy: 0)),
        .barcode("qr-2", .qr, "SHELF-B-0042", moduleSize: 5, at: ScenePoint(x: 520, y: 200),
                 velocity: SceneVector(dx: 1, dy: 1)),
        .barcode("code128-1", .code128, "PARCEL-77", moduleSize: 3, barHeight: 70, at: ScenePoint(x: 980, y: 220)),
        .text("text-1", "Order 4711 ships today", pixelHeight: 40, at: ScenePoint(x: 640, y: 560),
              velocity: SceneVector(dx: -1, dy: 0)),
    ]
    if let extraPayload {
        items.append(.barcode("qr-3", .qr, extraPayload, moduleSize: 5, at: ScenePoint(x: 1050, y: 520)))
    }
    return Scene(name: "cli", width: 1280, height: 720, fps: 30, frameCount: frames, background: .paper,
                 items: items, noiseSigma: 2, seed: 7)
}

@Suite(.serialized) struct ScanCommandTests {
    let folder: URL
    /// Owns `folder`: it goes with this test.
    private let scratch: ScratchFolder

    init() throws {
        scratch = try ScratchFolder()
        folder = scratch.url
    }

    /// A line entering from the frame's left edge is read first as its last characters. Line output prints the
    /// line once, as it finally reads, under the one id the log gives it.
    @Test func aLineEnteringTheFrameIsPrintedAsItSettles() throws {
        let scene = Scene(
            name: "entering", width: 640, height: 200, fps: 30, frameCount: 120, background: .paper,
            items: [.text("text-1", "Batch 2024 Lot 88", pixelHeight: 34, at: ScenePoint(x: -120, y: 100),
                          velocity: SceneVector(dx: 4, dy: 0))],
            noiseSigma: 2, seed: 11)
        let video = folder.appendingPathComponent("entering.mp4")
        try SceneRenderer(scene: scene).writeVideo(to: video.path)
        let events = folder.appendingPathComponent("entering.jsonl")
        let result = try Livescan.run(["scan", "--types", "text", "--events", events.path, video.path])
        #expect(result.status == 0, "stderr: \(result.standardError)")
        #expect(result.outputLines == ["text:Batch 2024 Lot 88"])
        let adds = try eventLog(at: events).filter { $0["event"] as? String == "add" }
        #expect(adds.count == 1, "\(adds.map { $0["transcript"] ?? "" })")
    }

    /// stdout and stderr on one terminal: the progress line is erased before an event line is printed, so no
    /// line shows progress text run into an event (`...ETA 85 s+ 51e450c7 text ...`).
    @Test func theProgressLineLeavesNoResidueInEventLines() throws {
        let video = folder.appendingPathComponent("progress.mp4")
        try SceneRenderer(scene: shortScene(frames: 90)).writeVideo(to: video.path)
        let screen = try Shell.runInTerminal([try #require(Livescan.executable).path, "scan", "--changes",
                                              "--no-listing", video.path])
        let rendered = renderedLines(screen)
        // The closing summary line ("scanned 3 barcode symbols and 1 text line ...") is no event line.
        let events = rendered.filter { $0.contains(" qr ") || $0.contains(" text ") || $0.contains(" code128 ") }
            .filter { !$0.hasPrefix("scanned ") }
        #expect(events.filter { $0.hasPrefix("+ ") }.count == 4 && events.filter { $0.hasPrefix("- ") }.count == 4,
                "\(rendered)")
        for line in events {
            #expect(line.wholeMatch(of: /[+~-] [0-9a-f]{8} (qr|code128|text) .+/) != nil, "garbled: \(line)")
        }
        #expect(screen.contains("fps"), "no progress line was drawn: \(rendered)")
    }

    /// Ctrl-Z under the listing: before the process stops, the terminal is given back (main screen, cursor
    /// shown); when the shell continues it, the listing takes the screen again and still answers keys.
    @Test func ctrlZGivesTheTerminalBackAndFgTakesItAgain() throws {
        let video = folder.appendingPathComponent("suspend.mp4")
        try SceneRenderer(scene: shortScene(frames: 300)).writeVideo(to: video.path)
        let relay = """
            import base64, json, os, pty, select, signal, sys, time
            pid, fd = pty.fork()
            if pid == 0:
                os.execv(sys.argv[1], sys.argv[1:])
            out = bytearray()
            def pump(seconds):
                end = time.time() + seconds
                while time.time() < end:
                    if select.select([fd], [], [], 0.05)[0]:
                        try:
                            chunk = os.read(fd, 65536)
                        except OSError:
                            return
                        if not chunk:
                            return
                        out.extend(chunk)
            def state():
                with open("/proc/%d/stat" % pid) as stat:
                    return stat.read().rsplit(")", 1)[1].split()[0]
            pump(2.0)
            before = len(out)
            os.kill(pid, signal.SIGTSTP)
            pump(1.0)
            stopped, at_stop = state(), len(out)
            os.kill(pid, signal.SIGCONT)
            pump(1.0)
            running = state()
            os.write(fd, b"q")
            pump(10.0)
            status = os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])
            print(json.dumps({"stopped": stopped, "running": running, "status": status,
                              "suspended": base64.b64encode(bytes(out[before:at_stop])).decode(),
                              "resumed": base64.b64encode(bytes(out[at_stop:])).decode()}))
            """
        let result = try Shell.run("exec /usr/bin/python3 -c \"$0\" \"$@\"",
                                   arguments: [relay, try #require(Livescan.executable).path, "scan", "--realtime",
                                               video.path])
        let report = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8))
            as? [String: Any], "\(result.standardOutput) \(result.standardError)")
        #expect(report["stopped"] as? String == "T", "\(report)")
        #expect(report["running"] as? String != "T", "\(report)")
        let suspended = String(decoding: Data(base64Encoded: report["suspended"] as? String ?? "") ?? Data(),
                               as: UTF8.self)
        let resumed = String(decoding: Data(base64Encoded: report["resumed"] as? String ?? "") ?? Data(), as: UTF8.self)
        #expect(suspended.contains("\u{1B}[?1049l") && suspended.contains("\u{1B}[?25h"),
                "\(suspended.debugDescription)")
        #expect(resumed.contains("\u{1B}[?1049h"), "\(resumed.debugDescription)")
        // q after fg still stops the scan: the keys work again.
        #expect(report["status"] as? Int == 0, "\(report)")
    }

    /// `TERM=dumb` cannot move its cursor: a video on such a terminal gets lines, not the full-screen listing.
    @Test func aDumbTerminalGetsLines() throws {
        let video = folder.appendingPathComponent("dumb.mp4")
        try SceneRenderer(scene: shortScene(frames: 30)).writeVideo(to: video.path)
        let executable = try #require(Livescan.executable).path
        let dumb = try Shell.runInTerminal(["/usr/bin/env", "TERM=dumb", executable, "scan", "--types", "qr", video.path])
        #expect(!dumb.contains("\u{1B}[?1049h"), "\(dumb.debugDescription)")
        #expect(dumb.contains("qr:SHELF-B-0042"), "\(dumb.debugDescription)")
        let xterm = try Shell.runInTerminal(["/usr/bin/env", "TERM=xterm", executable, "scan", "--types", "qr",
                                             video.path])
        #expect(xterm.contains("\u{1B}[?1049h"), "the full-screen listing did not show on xterm")
    }

    /// What a terminal shows of `output`: `\r` returns to the line's start, ESC [ K erases to its end. (The
    /// terminal ends lines with \r\n, which Swift counts as one character: they are made \n first.)
    func renderedLines(_ output: String) -> [String] {
        output.replacingOccurrences(of: "\r\n", with: "\n").components(separatedBy: "\n").map { raw in
            var line: [Character] = [], cursor = 0
            var characters = Array(raw)[...]
            while let character = characters.popFirst() {
                if character == "\r" {
                    cursor = 0
                } else if character == "\u{1B}", characters.starts(with: "[K") {
                    characters = characters.dropFirst(2)
                    line.removeSubrange(min(cursor, line.count)...)
                } else {
                    if cursor < line.count {
                        line[cursor] = character
                    } else {
                        line.append(character)
                    }
                    cursor += 1
                }
            }
            return String(line)
        }
    }

    @Test func generatedVideoIsScannedEndToEnd() throws {
        let video = folder.appendingPathComponent("short.mp4")
        try SceneRenderer(scene: shortScene()).writeVideo(to: video.path)
        let events = folder.appendingPathComponent("events.jsonl")
        let result = try Livescan.run(["scan", video.path, "--events", events.path])
        #expect(result.status == 0, "stderr: \(result.standardError)")
        #expect(result.standardError.isEmpty)
        #expect(Set(result.outputLines) == ["qr:https://livescan.example/a", "qr:SHELF-B-0042", "code128:PARCEL-77",
                                            "text:Order 4711 ships today"])

        let log = try eventLog(at: events)
        let first = try #require(log.first), last = try #require(log.last)
        #expect(first["event"] as? String == "start")
        #expect(first["v"] as? Int == 1)
        #expect(first["width"] as? Int == 1280)
        #expect(first["fps"] as? Int == 30)
        #expect(last["event"] as? String == "end")
        #expect(last["reason"] as? String == "eof")
        #expect(last["frame"] as? Int == 59)
        // Every item is added once and removed once, under one id, and keeps its value.
        let changes = log.dropFirst().dropLast()
        let adds = changes.filter { $0["event"] as? String == "add" }
        let removes = changes.filter { $0["event"] as? String == "remove" }
        #expect(adds.count == 4)
        #expect(Set(adds.compactMap { $0["id"] as? String }) == Set(removes.compactMap { $0["id"] as? String }))
        for change in changes {
            let bounds = change["bounds"] as? [[Double]]
            #expect(bounds?.count == 4)
        }
        // Barcodes are added in the first frame that shows them.
        let barcodeAdds = adds.filter { $0["kind"] as? String == "barcode" }
        #expect(barcodeAdds.allSatisfy { ($0["frame"] as? Int ?? 99) <= 1 })
        // The moving QR code produced updates under its add's id.
        let movingID = try #require(adds.first { $0["payload"] as? String == "https://livescan.example/a" }?["id"])
        let updates = changes.filter { $0["event"] as? String == "update" && $0["id"] as? String == movingID as? String }
        #expect(updates.count >= 10)
    }

    @Test func changesPrintOneLinePerEventAndOnceStopsAtTheFirstItem() throws {
        let video = folder.appendingPathComponent("changes.mp4")
        try SceneRenderer(scene: shortScene(frames: 30)).writeVideo(to: video.path)
        let events = folder.appendingPathComponent("changes.jsonl")
        let changes = try Livescan.run(["scan", "--changes", "--types", "qr", video.path, "--events", events.path])
        #expect(changes.status == 0)
        let log = try eventLog(at: events).filter { ["add", "update", "remove"].contains($0["event"] as? String) }
        // Same events, same order, as the log: "+ id8 qr payload".
        #expect(changes.outputLines.count == log.count)
        let marks = ["add": "+", "update": "~", "remove": "-"]
        let expectedLines = log.map { event -> String in
            let id = String((event["id"] as? String ?? "").prefix(8))
            return "\(marks[event["event"] as? String ?? ""]!) \(id) qr \(event["payload"] as? String ?? "")"
        }
        #expect(Set(changes.outputLines) == Set(expectedLines))
        #expect(changes.outputLines.first?.hasPrefix("+ ") == true)
        #expect(changes.outputLines.last?.hasPrefix("- ") == true)

        let once = try Livescan.run(["scan", "--once", "--raw", "--types", "qr", video.path])
        #expect(once.status == 0)
        #expect(once.outputLines.count == 1)
        #expect(["https://livescan.example/a", "SHELF-B-0042"].contains(once.outputLines.first ?? ""))
    }

    @Test func annotatedVideoHasTheInputsFramesAndStillDecodes() throws {
        let video = folder.appendingPathComponent("plain.mp4")
        try SceneRenderer(scene: shortScene(frames: 24)).writeVideo(to: video.path)
        let annotated = folder.appendingPathComponent("annotated.mp4")
        let result = try Livescan.run(["scan", "--types", "qr", video.path, "--annotate", annotated.path])
        #expect(result.status == 0, "stderr: \(result.standardError)")
        let source = try VideoSource(path: annotated.path)
        #expect(source.info.frameCount == 24)
        #expect(source.info.width == 1280 && source.info.height == 720)
        var frames = 0
        var decoded = 0
        while let frame = try source.nextFrame() {
            frames += 1
            decoded += try ZXingBarcodeDetector().detect(in: frame).count
        }
        #expect(frames == 24)
        #expect(decoded >= 2 * 22, "the highlights must not hide the codes: \(decoded) decodes in 24 frames")
        let still = folder.appendingPathComponent("annotated.png")
        #expect(try Livescan.run(["scan", "--types", "qr", video.path, "--annotate", still.path]).status == 0)
        #expect(try FrameImage(contentsOf: still.path).width == 1280)
    }

    /// OpenCV's image-file and video I/O modules (and GDAL and GStreamer with them) are loaded when first needed,
    /// not at every start: a video scan never loads them; an image scan loads the image-file module as it opens
    /// the image and reads it.
    @Test func imageAndVideoIOModulesLoadOnlyWhenNeeded() throws {
        let video = folder.appendingPathComponent("modules.mp4"), image = folder.appendingPathComponent("modules.png")
        try SceneRenderer(scene: shortScene(frames: 4)).writeVideo(to: video.path)
        try SceneRenderer(scene: SceneRenderer.still(symbology: .qr, payload: "on demand").scene)
            .writeImage(to: image.path)
        let executable = try #require(Livescan.executable)
        // The dynamic loader names every library it loads on standard error, at start and on dlopen.
        let loads = "LD_DEBUG=files \"$0\" scan --types qr --raw \"$1\" 2>&1 | grep -E 'file=.*(imgcodecs|videoio|gdal)'"
        let videoScan = try Shell.run(loads, arguments: [executable.path, video.path])
        #expect(videoScan.standardOutput.isEmpty, "\(videoScan.standardOutput)")
        let imageScan = try Shell.run(loads, arguments: [executable.path, image.path])
        #expect(imageScan.standardOutput.contains("libopencv_imgcodecs"), "\(imageScan.standardOutput)")
        #expect(!imageScan.standardOutput.contains("videoio"), "\(imageScan.standardOutput)")
        let read = try Livescan.run(["scan", "--types", "qr", "--raw", image.path])
        #expect(read.outputLines == ["on demand"], "stderr: \(read.standardError)")
    }

    @Test func everyNthFrameAndRealTimePacing() throws {
        let video = folder.appendingPathComponent("paced.mp4")
        try SceneRenderer(scene: shortScene(frames: 30)).writeVideo(to: video.path)
        let every = folder.appendingPathComponent("every.jsonl")
        #expect(try Livescan.run(["scan", "--types", "qr", "--every", "3", video.path, "--events", every.path])
            .status == 0)
        let frames = try eventLog(at: every).dropFirst().compactMap { $0["frame"] as? Int }
        #expect(!frames.isEmpty)
        #expect(frames.allSatisfy { $0 % 3 == 0 })
        #expect(frames.last == 27)
        // The end line accounts for every frame of the file: 10 processed, the 20 between them dropped.
        let end = try #require(try eventLog(at: every).last)
        #expect(end["frames_processed"] as? Int == 10)
        #expect(end["frames_dropped"] as? Int == 20)

        let started = Date()
        let paced = try Livescan.run(["scan", "--types", "qr", "--realtime", video.path])
        // 30 frames at 30 fps: about a second of media time, however fast the scan.
        #expect(paced.status == 0)
        #expect(Date().timeIntervalSince(started) >= 0.9)
        #expect(try Livescan.run(["scan", "--every", "0", video.path]).status == 2)
    }

    @Test func rawPrintsPayloadsOnlyAndTypesFilter() throws {
        let image = folder.appendingPathComponent("two.png")
        let renderer = try SceneRenderer(scene: shortScene(frames: 1))
        try renderer.writeImage(to: image.path)
        let result = try Livescan.run(["scan", "--types", "qr", "--raw", image.path])
        #expect(result.status == 0)
        #expect(result.outputLines == ["https://livescan.example/a", "SHELF-B-0042"])
        let linear = try Livescan.run(["scan", "--types=code128,ean13", image.path])
        #expect(linear.outputLines == ["code128:PARCEL-77"])
    }

    @Test func hostilePayloadIsEscapedOnTheTerminalAndExactInTheLog() throws {
        let hostile = "\u{1B}]52;c;aGVsbG8=\u{07}\u{1B}[2Jpwned"
        let image = folder.appendingPathComponent("hostile.png")
        try SceneRenderer(scene: shortScene(frames: 1, extraPayload: hostile)).writeImage(to: image.path)
        let events = folder.appendingPathComponent("hostile.jsonl")
        let result = try Livescan.run(["scan", "--types", "qr", image.path, "--events", events.path])
        #expect(result.status == 0)
        #expect(!result.standardOutput.contains("\u{1B}"))
        #expect(result.outputLines.contains("qr:\\e]52;c;aGVsbG8=\\x07\\e[2Jpwned"))
        let payloads = try eventLog(at: events).compactMap { $0["payload"] as? String }
        #expect(payloads.contains(hostile))
    }

    @Test func interruptedScanLeavesACompleteLog() throws {
        let video = folder.appendingPathComponent("long.mp4")
        try SceneRenderer(scene: shortScene(frames: 900)).writeVideo(to: video.path)
        let events = folder.appendingPathComponent("interrupted.jsonl")
        let result = try Livescan.run(["scan", video.path, "--types", "qr", "--events", events.path]) { process in
            // Wait for the first add, then interrupt as Ctrl-C would.
            let deadline = Date().addingTimeInterval(30)
            while Date() < deadline,
                  !((try? String(contentsOf: events, encoding: .utf8))?.contains("\"add\"") ?? false) {
                usleep(20_000)
            }
            kill(process.processIdentifier, SIGINT)
        }
        #expect(result.status == 130)
        let log = try eventLog(at: events)
        #expect(log.last?["event"] as? String == "end")
        #expect(log.last?["reason"] as? String == "interrupted")
        let added = Set(log.filter { $0["event"] as? String == "add" }.compactMap { $0["id"] as? String })
        let removed = Set(log.filter { $0["event"] as? String == "remove" }.compactMap { $0["id"] as? String })
        #expect(!added.isEmpty)
        #expect(added == removed)
        #expect((log.last?["frame"] as? Int ?? 900) < 899)
    }
}
