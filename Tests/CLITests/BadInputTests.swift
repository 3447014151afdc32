import Foundation
import Testing
import LiveScan
import LiveScanScenes

/// Every bad input gets one `Error: ...` line on stderr and its exit code: never a crash, a hang or a trace.
@Suite(.serialized) struct BadInputTests {
    let folder: URL
    /// Owns `folder`: it goes with this test.
    private let scratch: ScratchFolder

    init() throws {
        scratch = try ScratchFolder()
        folder = scratch.url
    }

    func expectOneErrorLine(_ result: CommandResult, status: Int32, mentioning words: [String],
                            sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(result.status == status, "stderr: \(result.standardError)", sourceLocation: sourceLocation)
        #expect(result.errorLines.count == 1, "stderr: \(result.standardError)", sourceLocation: sourceLocation)
        let line = result.errorLines.first ?? ""
        #expect(line.hasPrefix("Error: "), sourceLocation: sourceLocation)
        for word in words {
            #expect(line.contains(word), "\(line) lacks \(word)", sourceLocation: sourceLocation)
        }
    }

    @Test func missingFile() throws {
        let path = folder.appendingPathComponent("nope.mp4").path
        expectOneErrorLine(try Livescan.run(["scan", path]), status: 1, mentioning: [path, "no such file"])
    }

    @Test func folderWithoutImages() throws {
        try Data("notes".utf8).write(to: folder.appendingPathComponent("readme.txt"))
        expectOneErrorLine(try Livescan.run(["scan", folder.path]), status: 1, mentioning: ["no images"])
    }

    @Test func corruptImageInAFolderIsReportedAndTheRestScanned() throws {
        try SceneRenderer(scene: SceneRenderer.still(symbology: .qr, payload: "good image").scene)
            .writeImage(to: folder.appendingPathComponent("a.png").path)
        try Data(repeating: 0x42, count: 500).write(to: folder.appendingPathComponent("b.png"))
        let result = try Livescan.run(["scan", folder.path])
        expectOneErrorLine(result, status: 1, mentioning: ["b.png", "not a readable image"])
        #expect(result.outputLines == ["qr:good image"])
        expectOneErrorLine(try Livescan.run(["scan", folder.appendingPathComponent("b.png").path]), status: 1,
                           mentioning: ["b.png", "not a readable image"])
    }

    @Test func textFileNamedMP4() throws {
        let path = folder.appendingPathComponent("fake.mp4")
        try Data(String(repeating: "definitely not a video\n", count: 200).utf8).write(to: path)
        expectOneErrorLine(try Livescan.run(["scan", path.path]), status: 1, mentioning: ["fake.mp4", "not a video"])
    }

    @Test func zeroByteFile() throws {
        let path = folder.appendingPathComponent("empty.mp4")
        try Data().write(to: path)
        expectOneErrorLine(try Livescan.run(["scan", path.path]), status: 1, mentioning: ["empty"])
    }

    /// The first half of a real video whose index sits at the front: what decodes is scanned, then the
    /// damage is reported.
    @Test func truncatedVideoScansWhatDecodesThenReportsTheDamage() throws {
        let whole = folder.appendingPathComponent("whole.mp4")
        try SceneRenderer(scene: shortScene(frames: 60)).writeVideo(to: whole.path)
        let data = try MP4FastStart.rewrite(try Data(contentsOf: whole))
        // The rewritten file is whole and scans cleanly: the damage below is the cut alone.
        let fastStart = folder.appendingPathComponent("faststart.mp4")
        try data.write(to: fastStart)
        #expect(try Livescan.run(["scan", "--types", "qr", fastStart.path]).status == 0)
        let half = folder.appendingPathComponent("half.mp4")
        try data.prefix(data.count / 2).write(to: half)
        let events = folder.appendingPathComponent("half.jsonl")
        let result = try Livescan.run(["scan", "--types", "qr", half.path, "--events", events.path])
        expectOneErrorLine(result, status: 1, mentioning: ["half.mp4", "truncated"])
        #expect(result.outputLines.contains("qr:SHELF-B-0042"))
        let log = try eventLog(at: events)
        #expect(log.last?["event"] as? String == "end")
        #expect(log.last?["reason"] as? String == "error")
    }

    /// A stretch in the middle of a video overwritten: the frames that do not decode are skipped, the rest scanned to
    /// the end of the file; the end line counts them and one error line says so (exit 1, as for a bad image in a
    /// folder). Before, the scan ended in an error claiming decoding had stopped.
    @Test(.enabled(if: LocalStream.ffmpeg != nil)) func damagedVideoSkipsWhatDoesNotDecodeAndSaysSo() throws {
        let written = folder.appendingPathComponent("written.mp4")
        try SceneRenderer(scene: shortScene(frames: 48)).writeVideo(to: written.path)
        // A key frame every 8 frames: the frames after the damage decode whole again.
        let keyed = folder.appendingPathComponent("keyed.mp4")
        let encoded = try Shell.run("exec \"$0\" -nostdin -loglevel error -y \"$@\"",
                                    arguments: [try #require(LocalStream.ffmpeg), "-i", written.path, "-c:v", "libx264",
                                                "-g", "8", "-threads", "1", keyed.path])
        try #require(encoded.status == 0, "\(encoded.standardError)")
        var data = try Data(contentsOf: keyed)
        let stretch = data.count * 45 / 100..<data.count * 55 / 100  // frames' data: the index is at the end
        data.replaceSubrange(stretch, with: Data(repeating: 0xFF, count: stretch.count))
        let damaged = folder.appendingPathComponent("damaged.mp4")
        try data.write(to: damaged)
        let events = folder.appendingPathComponent("damaged.jsonl")
        let result = try Livescan.run(["scan", "--types", "qr", damaged.path, "--events", events.path])
        let end = try #require(try eventLog(at: events).last)
        #expect(end["event"] as? String == "end")
        #expect(end["reason"] as? String == "eof")
        let undecodable = try #require(end["frames_undecodable"] as? Int)
        #expect(undecodable > 0)
        #expect(end["frames_processed"] as? Int == 48 - undecodable)
        // The last frame, 47 at 30 fps, was reached.
        #expect(abs((end["time"] as? Double ?? 0) - 47.0 / 30) < 0.001)
        expectOneErrorLine(result, status: 1, mentioning: [
            damaged.path, "\(undecodable) frames did not decode and were skipped; the rest was scanned",
        ])
        #expect(result.outputLines.contains("qr:SHELF-B-0042"))
    }

    /// The same cut through a video whose index is at the end (OpenCV's default): nothing can decode.
    @Test func truncatedVideoWithoutItsIndexIsUnreadable() throws {
        let whole = folder.appendingPathComponent("whole.mp4")
        try SceneRenderer(scene: shortScene(frames: 30)).writeVideo(to: whole.path)
        let data = try Data(contentsOf: whole)
        let half = folder.appendingPathComponent("cut.mp4")
        try data.prefix(data.count / 2).write(to: half)
        expectOneErrorLine(try Livescan.run(["scan", half.path]), status: 1, mentioning: ["cut.mp4", "truncated"])
    }

    @Test func unknownType() throws {
        let result = try Livescan.run(["scan", "--types", "qr,barcodez", "x.png"])
        #expect(result.status == 2)
        #expect(result.errorLines.first == "Error: unknown type 'barcodez' in --types (known: qr, microqr, datamatrix, "
                + "aztec, pdf417, maxicode, ean13, ean8, upca, upce, code128, code39, code93, codabar, itf, itf14, "
                + "databar, databar-expanded, telepen, dxfilmedge, barcodes, text)")
        #expect(result.errorLines.dropFirst().first?.hasPrefix("Usage: livescan scan") == true)
        #expect(result.errorLines.last == "See 'livescan --help'.")
    }

    @Test func languageNotInstalled() throws {
        let image = folder.appendingPathComponent("text.png")
        try SceneRenderer(scene: SceneRenderer.still(text: "hello").scene).writeImage(to: image.path)
        expectOneErrorLine(try Livescan.run(["scan", "--languages", "klingon", image.path]), status: 2,
                           mentioning: ["unknown language 'klingon'", "klingon.traineddata"])
    }

    @Test func oneByOneImageIsValidAndEmpty() throws {
        let image = folder.appendingPathComponent("dot.png")
        try FrameImage(pixels: [255], width: 1, height: 1, channels: 1).write(to: image.path)
        let result = try Livescan.run(["scan", image.path])
        #expect(result.status == 4)
        #expect(result.standardError.isEmpty)
        #expect(result.standardOutput.isEmpty)
    }

    @Test func unknownOptionAndMissingSource() throws {
        #expect(try Livescan.run(["scan", "--frobnicate", "a.png"]).status == 2)
        let badKnob = try Livescan.run(["scan", "--tracker", "grace_period=-1", "a.png"])
        #expect(badKnob.status == 2)
        #expect(badKnob.errorLines.first == "Error: --tracker grace_period=-1: grace_period must be 0...86400 seconds")
        // No SOURCE means the first camera, and this machine has none.
        let noCamera = try Livescan.run(["scan"])
        #expect(noCamera.status == 1)
        #expect(noCamera.errorLines == ["Error: /dev/video0: no such camera (see 'livescan sources')"])
        #expect(try Livescan.run(["transmogrify"]).status == 2)
    }

    @Test func helpAndVersion() throws {
        let help = try Livescan.run(["--help"])
        #expect(help.status == 0)
        #expect(help.standardOutput.contains("Usage: livescan scan"))
        let version = try Livescan.run(["--version"])
        #expect(version.status == 0)
        #expect(version.standardOutput.hasPrefix("livescan "))
    }
}
