import Foundation
import Testing
import LiveScan
import LiveScanScenes

/// Videos, animations and image sequences held to what stills already were: a full disk under `--annotate` loses
/// nothing, every decoded picture is held to the pixel limit, and a bad or blocking frame of an image sequence is
/// named and skipped, never passed over in silence or waited on.
@Suite(.serialized) struct VideoInputLimitsTests {
    let folder: URL
    /// Owns `folder`: it goes with this test.
    private let scratch: ScratchFolder

    init() throws {
        scratch = try ScratchFolder()
        folder = scratch.url
    }

    /// `livescan ARGUMENTS...` with writes limited to `blocks` of 512 bytes a file (`ulimit -f`), as a full disk
    /// would stop them: past the limit a write fails with EFBIG.
    private func runWithFileSizeLimit(blocks: Int, _ arguments: [String]) throws -> CommandResult {
        let livescan = try #require(Livescan.executable).path
        return try Shell.run("ulimit -f \(blocks); exec \"$0\" \"$@\"", arguments: [livescan] + arguments)
    }

    /// What is in `folder` besides `kept`: partial files left behind.
    private func leftovers(besides kept: [String]) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { !kept.contains($0) }
    }

    /// `ffmpeg -nostdin -loglevel error -y ARGUMENTS...`, which `make setup` installs for the stream tests.
    private func ffmpeg(_ arguments: [String]) throws {
        let ffmpeg = try #require(LocalStream.ffmpeg)
        let result = try Shell.run("exec \"$0\" -nostdin -loglevel error -y \"$@\"", arguments: [ffmpeg] + arguments)
        try #require(result.status == 0, "\(result.standardError)")
    }

    // MARK: - A full disk under --annotate

    @Test func anAnnotatedVideoThatCannotBeWrittenWholeKeepsTheEarlierOne() throws {
        let source = scratch.path("in.mp4")
        try SceneRenderer(scene: shortScene(frames: 30)).writeVideo(to: source)
        let output = scratch.path("out.mp4")
        let earlier = Data("an earlier annotated video".utf8)
        try earlier.write(to: URL(fileURLWithPath: output))
        // 32 KB a file: the 30 annotated 720p frames take several times that.
        let result = try runWithFileSizeLimit(blocks: 64, ["scan", "--types", "qr", "--annotate", output, source])
        #expect(result.status == 1)
        #expect(result.errorLines.count == 1, "\(result.errorLines)")
        #expect(result.errorLines.first?.hasPrefix("Error: cannot write \(output): ") == true, "\(result.errorLines)")
        #expect(result.errorLines.first?.hasSuffix("File too large") == true, "\(result.errorLines)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: output)) == earlier)
        #expect(try leftovers(besides: ["in.mp4", "out.mp4"]).isEmpty)
        // With room, the same scan replaces it.
        let written = try runWithFileSizeLimit(blocks: 1 << 20, ["scan", "--types", "qr", "--annotate", output, source])
        #expect(written.status == 0, "\(written.standardError)")
        #expect(try VideoSource(path: output).info.frameCount == 30)
    }

    @Test func anAnnotatedImageThatCannotBeWrittenWholeKeepsTheEarlierOne() throws {
        let source = try scratch.qrStill("in.png", payload: "annotated still")
        let output = scratch.path("out.png")
        let earlier = Data("an earlier annotated image".utf8)
        try earlier.write(to: URL(fileURLWithPath: output))
        let result = try runWithFileSizeLimit(blocks: 8, ["scan", "--types", "qr", "--annotate", output, source])
        #expect(result.status == 1)
        #expect(result.errorLines == ["Error: cannot write \(output): File too large"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: output)) == earlier)
        #expect(try leftovers(besides: ["in.png", "out.png"]).isEmpty)
    }

    // MARK: - The pixel limit for every decoded picture

    @Test func animationsAndVideosOverThePixelLimitAreRefusedBeforeDecoding() throws {
        let gif = scratch.path("small.gif"), avi = scratch.path("small.avi")
        try ffmpeg(["-f", "lavfi", "-i", "testsrc=size=320x240:rate=10", "-frames:v", "10", gif])
        try ffmpeg(["-f", "lavfi", "-i", "testsrc=size=320x240:rate=10", "-frames:v", "10", "-c:v", "mjpeg", avi])
        for source in [gif, avi] {
            let refused = try Livescan.run(["scan", "--types", "qr", "--max-pixels", "10000", source])
            #expect(refused.status == 1)
            #expect(refused.errorLines == ["Error: \(source): 320 x 240 pixels (76800), over the limit of 10000 "
                                           + "pixels (--max-pixels raises the limit)"])
            // Within the limit it is scanned (nothing to find in a test pattern).
            #expect(try Livescan.run(["scan", "--types", "qr", "--max-pixels", "76800", source]).status == 4)
        }
        // The default limit holds for videos too: 144 megapixels a frame, 1.7 MB of Motion JPEG.
        let huge = scratch.path("huge.avi")
        try ffmpeg(["-f", "lavfi", "-i", "color=white:size=12000x12000:rate=10", "-frames:v", "1", "-c:v", "mjpeg",
                    "-pix_fmt", "yuvj420p", huge])
        let started = Date()
        let result = try Livescan.run(["scan", "--types", "qr", huge])
        #expect(result.status == 1)
        #expect(result.errorLines == ["Error: \(huge): 12000 x 12000 pixels (144.0 megapixels), over the limit of "
                                      + "100.0 megapixels (--max-pixels raises the limit)"])
        #expect(Date().timeIntervalSince(started) < 3)
    }

    @Test func aFrameFoundLargerMidStreamIsRefused() throws {
        // 160 x 120 frames, then 640 x 480 ones: the container announced only the first size.
        let first = scratch.path("a.ts"), second = scratch.path("b.ts")
        for (output, size) in [(first, "160x120"), (second, "640x480")] {
            try ffmpeg(["-f", "lavfi", "-i", "testsrc=size=\(size):rate=10", "-frames:v", "10", "-c:v", "libx264",
                        "-pix_fmt", "yuv420p", "-f", "mpegts", output])
        }
        let joined = scratch.path("joined.ts")
        var bytes = try Data(contentsOf: URL(fileURLWithPath: first))
        bytes.append(try Data(contentsOf: URL(fileURLWithPath: second)))
        try bytes.write(to: URL(fileURLWithPath: joined))
        let result = try Livescan.run(["scan", "--types", "qr", "--max-pixels", "50000", joined])
        #expect(result.status == 1)
        #expect(result.errorLines.count == 1, "\(result.errorLines)")
        #expect(result.errorLines.first?.hasPrefix("Error: \(joined): frame ") == true, "\(result.errorLines)")
        #expect(result.errorLines.first?.hasSuffix(": 640 x 480 pixels (307200), over the limit of 50000 pixels "
                                                   + "(--max-pixels raises the limit)") == true)
        #expect(try Livescan.run(["scan", "--types", "qr", joined]).status == 4)
    }

    @Test func aCorruptTinyGIFIsAnInputError() throws {
        let gif = scratch.path("whole.gif")
        try ffmpeg(["-f", "lavfi", "-i", "testsrc=size=320x240:rate=10", "-frames:v", "2", gif])
        // Its header and colour table announce a picture; no frame follows.
        let cut = scratch.path("cut.gif")
        try Data(try Data(contentsOf: URL(fileURLWithPath: gif)).prefix(35)).write(to: URL(fileURLWithPath: cut))
        let result = try Livescan.run(["scan", cut])
        #expect(result.status == 1)
        #expect(result.errorLines == ["Error: \(cut): no frame of it decodes: the file is truncated or corrupt"])
    }

    // MARK: - Image sequences

    /// s_0001.png ... s_0005.png, each a QR code of its own ("frame N").
    private func sequence() throws -> String {
        for number in 1...5 {
            _ = try scratch.qrStill(String(format: "s_%04d.png", number), payload: "frame \(number)")
        }
        return scratch.path("s_%04d.png")
    }

    @Test func aBadFrameOfAnImageSequenceIsNamedAndTheOthersScanned() throws {
        let pattern = try sequence()
        let bad = scratch.path("s_0003.png")
        for (damage, reason) in [("garbage", "not a readable image (corrupt or not an image)"),
                                 ("/dev/zero", "is a device, not a file")] {
            try? FileManager.default.removeItem(atPath: bad)
            if damage.hasPrefix("/") {
                try FileManager.default.createSymbolicLink(atPath: bad, withDestinationPath: damage)
            } else {
                try Data(damage.utf8).write(to: URL(fileURLWithPath: bad))
            }
            let log = URL(fileURLWithPath: scratch.path("sequence.jsonl"))
            let result = try Livescan.run(["scan", "--types", "qr", "--events", log.path, pattern], timeout: 60)
            #expect(result.status == 1, "\(damage)")
            #expect(result.errorLines == ["Error: \(bad): \(reason)"])
            try expectFramesScanned(4, log: log, output: result)
        }
    }

    @Test func aNamedPipeInAnImageSequenceIsRefusedWithoutWaiting() throws {
        let pattern = try sequence()
        let pipe = scratch.path("s_0002.png")
        try FileManager.default.removeItem(atPath: pipe)
        #expect(mkfifo(pipe, 0o644) == 0)
        let started = Date()
        let log = URL(fileURLWithPath: scratch.path("sequence.jsonl"))
        let result = try Livescan.run(["scan", "--types", "qr", "--events", log.path, pattern], timeout: 30)
        #expect(Date().timeIntervalSince(started) < 20)
        #expect(result.status == 1)
        #expect(result.errorLines
                    == ["Error: \(pipe): is a named pipe (FIFO), not a file; give a file, or a stream URL"])
        try expectFramesScanned(4, log: log, output: result)
    }

    /// The scan went on past the bad frame: `count` frames processed, the last one's code among those printed.
    private func expectFramesScanned(_ count: Int, log: URL, output result: CommandResult) throws {
        #expect(try eventLog(at: log).last?["frames_processed"] as? Int == count)
        #expect(result.outputLines.contains("qr:frame 5"), "\(result.outputLines)")
    }
}
