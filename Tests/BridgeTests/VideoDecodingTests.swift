import Foundation
import Testing
@testable import LiveScan
import LiveScanScenes
import LiveScanTestSupport

/// Video files and streams as CBridge's own FFmpeg decoder (MediaDecoder) hands them out: every frame, in order,
/// with the pixels that were rendered into it, the times and counts cv::VideoCapture reported, and the stream
/// timeouts. The variants (MPEG-TS, rotated, 4:4:4 at an odd size, streams) are made by the ffmpeg command.
@Suite final class VideoDecodingTests {
    /// A QR code moving 3 px a frame (so neighbouring frames differ) beside a Code 128 standing still.
    static let scene = Scene(
        name: "decoding", width: 320, height: 240, fps: 24, frameCount: 48, background: .paper,
        items: [
            .barcode("qr-moving", .qr, "DECODED-EVERY-FRAME", moduleSize: 4, at: ScenePoint(x: 90, y: 110),
                     velocity: SceneVector(dx: 3, dy: 0)),
            .barcode("c128-still", .code128, "STILL-128", moduleSize: 2, barHeight: 40, at: ScenePoint(x: 160, y: 205)),
        ],
        seed: 5)

    static var ffmpeg: String? {
        ["/usr/bin/ffmpeg", "/usr/local/bin/ffmpeg"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("livescan-decoding-\(UUID())")
    let renderer: SceneRenderer
    let video: String

    init() throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        renderer = try SceneRenderer(scene: Self.scene)
        video = folder.appendingPathComponent("scene.mp4").path
        try renderer.writeVideo(to: video)
    }

    // A suite instance per test: its folder goes with it.
    deinit {
        try? FileManager.default.removeItem(at: folder)
    }

    /// H.264 as LiveScan's writer makes it has B-frames: the last frames come out only when the decoder is
    /// flushed at the end of the file.
    @Test func everyFrameDecodesInOrderWithItsOwnPixelsAndTime() throws {
        let source = try VideoSource(path: video)
        #expect(source.info.width == 320 && source.info.height == 240)
        #expect(source.info.framesPerSecond == 24)
        #expect(source.info.frameCount == 48)
        let frames = try readAll(source)
        #expect(frames.map(\.index) == Array(0..<48))
        for frame in frames {
            #expect(abs(frame.time - Double(frame.index) / 24) < 0.001, "frame \(frame.index): \(frame.time) s")
        }
        let truths = try (0..<48).map { try truthGray(renderer.render(frame: $0)) }
        for frame in frames {
            let decoded = try frame.image.grayPixels()
            let own = fit(decoded, to: truths[frame.index])
            // Luma may be kept in video range (16...235): a gain near 219/255 is as right as 1.
            #expect(own.gain > 0.8 && own.gain < 1.2, "frame \(frame.index): gain \(own.gain)")
            #expect(own.residual < 2.5, "frame \(frame.index): \(own.residual) levels off its rendered frame")
            for neighbour in [frame.index - 1, frame.index + 1] where truths.indices.contains(neighbour) {
                #expect(own.residual < fit(decoded, to: truths[neighbour]).residual,
                        "frame \(frame.index) looks more like rendered frame \(neighbour)")
            }
        }
    }

    @Test func barcodesDecodeInEveryFrame() throws {
        let detector = ZXingBarcodeDetector()
        let frames = try readAll(try VideoSource(path: video))
        #expect(frames.count == 48)
        for frame in frames {
            let payloads = Set(try detector.detect(in: frame).compactMap(\.payloadStringValue))
            #expect(payloads == ["DECODED-EVERY-FRAME", "STILL-128"], "frame \(frame.index)")
        }
    }

    /// A frame holds the decoder's own buffer, not a copy: its pixels stay its own, grey and colour, after its source
    /// and decoder are gone and while later frames are decoded.
    @Test func framesKeepTheirPixelsAfterTheirSourceIsGone() throws {
        let frames = try readAll(try VideoSource(path: video))  // the source goes with this statement
        #expect(frames.count == 48)
        for index in [0, 1, 24, 47] {
            let truth = try truthGray(renderer.render(frame: index))
            #expect(fit(try frames[index].image.grayPixels(), to: truth).residual < 2.5, "frame \(index)")
            // The colour conversion packs the planes when first asked for, here after the decoder is gone.
            let png = folder.appendingPathComponent("frame-\(index).png").path
            try frames[index].bridgeImage().write(to: png)
            #expect(fit(try FrameImage(contentsOf: png).grayPixels(), to: truth).residual < 2.5, "frame \(index), BGR")
        }
    }

    /// A source dropped after a few frames frees the decoder while its threads still hold frames.
    @Test func sourceDroppedMidFileFreesCleanly() throws {
        for _ in 0..<3 {
            let source = try VideoSource(path: video)
            for _ in 0..<5 {
                _ = try #require(try source.nextFrame())
            }
        }
    }

    /// A stretch in the middle of the file overwritten, as a bad sector or a broken copy leaves it: the frames whose
    /// data it held, and those that depended on them, do not decode and are skipped and counted (as ffmpeg skips
    /// them), and the frames after it are still read, with their own pixels and times, to the end of the file.
    @Test(.enabled(if: Self.ffmpeg != nil)) func framesThatDoNotDecodeAreSkippedAndCountedAndTheRestRead() throws {
        // A key frame every 8 frames, so that the frames after the damage decode whole again.
        let keyed = folder.appendingPathComponent("keyed.mp4").path
        try runFFmpeg(["-i", video, "-c:v", "libx264", "-g", "8", "-threads", "1", keyed])
        let damaged = folder.appendingPathComponent("damaged.mp4").path
        try Self.overwriteMiddle(of: keyed, into: damaged)
        let source = try VideoSource(path: damaged)
        let frames = try readAll(source)  // to the end: nothing is thrown
        #expect(source.undecodableFrames > 0)
        #expect(frames.count + source.undecodableFrames == 48, "\(frames.count) + \(source.undecodableFrames)")
        #expect(frames.map(\.index) == Array(0..<frames.count))
        // The last group of pictures, from the key frame at 40, lies well past the damage.
        let lastGroup = frames.filter { $0.time > 39.5 / 24 }
        #expect(lastGroup.map { Int(($0.time * 24).rounded()) } == Array(40..<48))
        let detector = ZXingBarcodeDetector()
        for frame in lastGroup {
            let rendered = Int((frame.time * 24).rounded())
            let truth = try truthGray(renderer.render(frame: rendered))
            #expect(fit(try frame.image.grayPixels(), to: truth).residual < 2.5,
                    "frame \(frame.index) (rendered \(rendered))")
            let payloads = Set(try detector.detect(in: frame).compactMap(\.payloadStringValue))
            #expect(payloads == ["DECODED-EVERY-FRAME", "STILL-128"], "frame \(frame.index)")
        }
    }

    /// Copies `path` to `destination` with the middle tenth of its bytes overwritten: in a file whose index is at its
    /// end (as LiveScan's writer and ffmpeg write MP4), frames' data.
    static func overwriteMiddle(of path: String, into destination: String) throws {
        var data = try Data(contentsOf: URL(fileURLWithPath: path))
        let stretch = data.count * 45 / 100..<data.count * 55 / 100
        data.replaceSubrange(stretch, with: Data(repeating: 0xFF, count: stretch.count))
        try data.write(to: URL(fileURLWithPath: destination))
    }

    /// MPEG-TS starts its clock at 1.4 s: times count from the stream's first timestamp, and the frame count,
    /// which MPEG-TS does not store, comes from the duration and rate.
    @Test(.enabled(if: Self.ffmpeg != nil)) func transportStreamTimesStartAtZero() throws {
        let transport = folder.appendingPathComponent("scene.ts").path
        try runFFmpeg(["-i", video, "-c", "copy", "-f", "mpegts", transport])
        let source = try VideoSource(path: transport)
        #expect(source.info.framesPerSecond == 24)
        #expect(source.info.frameCount == 48)
        let frames = try readAll(source)
        #expect(frames.count == 48)
        #expect(frames.allSatisfy { abs($0.time - Double($0.index) / 24) < 0.001 },
                "\(frames.prefix(3).map(\.time)) ... \(frames.suffix(2).map(\.time))")
    }

    /// Phone videos store their orientation as a display matrix; frames come out turned upright as ffmpeg's
    /// autorotate turns them (here a quarter turn counter-clockwise; OpenCV 4.6 turned them clockwise).
    @Test(.enabled(if: Self.ffmpeg != nil)) func rotatedVideoComesOutUpright() throws {
        let rotated = folder.appendingPathComponent("rotated.mp4").path
        try runFFmpeg(["-i", video, "-c", "copy", "-metadata:s:v:0", "rotate=90", rotated])
        let source = try VideoSource(path: rotated)
        #expect(source.info.width == 240 && source.info.height == 320)
        let frames = try readAll(source)
        #expect(frames.count == 48)
        let first = try #require(frames.first)
        #expect(first.image.width == 240 && first.image.height == 320)
        let truth = try truthGray(renderer.render(frame: 0))
        let decoded = try first.image.grayPixels()
        let counterClockwise = fit(decoded, to: quarterTurn(truth, width: 320, height: 240, clockwise: false))
        let clockwise = fit(decoded, to: quarterTurn(truth, width: 320, height: 240, clockwise: true))
        #expect(counterClockwise.residual < 2.5)
        #expect(clockwise.residual > 10)
        #expect(try ZXingBarcodeDetector().detect(in: first).count == 2)
    }

    /// Not 4:2:0 or an odd size: the frame is converted to BGR by swscale, at full range, and turned as the
    /// I420 planes are.
    @Test(.enabled(if: Self.ffmpeg != nil)) func oddSizedFourFourFourVideoIsConvertedToBGR() throws {
        let odd = folder.appendingPathComponent("odd.mp4").path
        let turned = folder.appendingPathComponent("odd-turned.mp4").path
        // 4:4:4 first: cropping 4:2:0 rounds the size down to even.
        try runFFmpeg(["-i", video, "-vf", "format=yuv444p,crop=319:239:0:0", "-c:v", "libx264", "-qp", "0", odd])
        try runFFmpeg(["-i", odd, "-c", "copy", "-metadata:s:v:0", "rotate=90", turned])
        let truth = try truthGray(renderer.render(frame: 47))
        let cropped = (0..<239).flatMap { row in truth[(row * 320)..<(row * 320 + 319)] }
        let upright = quarterTurn(cropped, width: 319, height: 239, clockwise: false)
        for (path, expected, width, height) in [(odd, cropped, 319, 239), (turned, upright, 239, 319)] {
            let source = try VideoSource(path: path)
            #expect(source.info.width == width && source.info.height == height)
            let frames = try readAll(source)
            #expect(frames.count == 48)
            let last = try #require(frames.last)
            #expect(last.image.width == width)
            // Lossless from the lossy 4:2:0 file: what is left is that file's own loss, as in the other tests.
            let matched = fit(try last.image.grayPixels(), to: expected)
            #expect(matched.gain > 0.95 && matched.gain < 1.05, "\(path): swscale's BGR is full range: \(matched.gain)")
            #expect(matched.residual < 2.5, "\(path)")
        }
    }

    /// The first key frame is handed out, not dropped while probing (the stream starts at time 0); a server
    /// that stops sending ends the stream after the read timeout instead of blocking for ever.
    @Test(.enabled(if: Self.ffmpeg != nil)) func streamStartsAtItsFirstFrameAndEndsWhenTheServerStalls() throws {
        let server = try StreamServer(video: video)
        defer { server.stop() }
        let source = try VideoSource(url: server.url, timeout: 1)
        #expect(source.info.width == 320 && source.info.height == 240)
        let first = try #require(try source.nextFrame())
        #expect(abs(first.time) < 0.5 / 24, "the first frame handed out is at \(first.time) s")
        var last = first
        for _ in 0..<12 {
            last = try #require(try source.nextFrame())
        }
        #expect(last.time > first.time)
        #expect(try ZXingBarcodeDetector().detect(in: last).count == 2)

        kill(server.processIdentifier, SIGSTOP)
        let stalled = Date()
        var ending: Error?
        while ending == nil && Date().timeIntervalSince(stalled) < 10 {
            do {
                _ = try source.nextFrame()
            } catch {
                ending = error
            }
        }
        let waited = Date().timeIntervalSince(stalled)
        #expect(ending is ScanError)
        #expect(waited > 0.9 && waited < 4, "the stream ended \(waited) s after the server stalled")
    }

    /// A server that accepts the connection and never sends: opening gives up after the timeout.
    @Test func silentServerTimesOutWhileOpening() throws {
        let listener = try SilentListener()
        defer { listener.close() }
        let started = Date()
        #expect(throws: ScanError.self) { _ = try VideoSource(url: "tcp://127.0.0.1:\(listener.port)", timeout: 0.5) }
        let waited = Date().timeIntervalSince(started)
        #expect(waited > 0.45 && waited < 3, "opening gave up after \(waited) s")
    }

    // MARK: - Helpers

    func readAll(_ source: VideoSource) throws -> [Frame] {
        var frames: [Frame] = []
        while let frame = try source.nextFrame() {
            frames.append(frame)
        }
        return frames
    }

    func truthGray(_ rendered: RenderedFrame) throws -> [UInt8] {
        try FrameImage(pixels: rendered.pixels, width: rendered.width, height: rendered.height, channels: 3)
            .grayPixels()
    }

    /// `truth` (width x height) turned a quarter.
    func quarterTurn(_ truth: [UInt8], width: Int, height: Int, clockwise: Bool) -> [UInt8] {
        var turned = [UInt8](repeating: 0, count: truth.count)
        for row in 0..<width {  // the turned picture is `height` wide and `width` tall
            for column in 0..<height {
                let source = clockwise ? (height - 1 - column) * width + row : column * width + (width - 1 - row)
                turned[row * height + column] = truth[source]
            }
        }
        return turned
    }

    /// The least-squares gain and offset mapping `truth` onto `decoded`, and the mean absolute grey-level
    /// residual left after them.
    func fit(_ decoded: [UInt8], to truth: [UInt8]) -> (gain: Double, residual: Double) {
        let count = Double(truth.count)
        let meanTruth = truth.reduce(0.0) { $0 + Double($1) } / count
        let meanDecoded = decoded.reduce(0.0) { $0 + Double($1) } / count
        var covariance = 0.0, variance = 0.0
        for (d, t) in zip(decoded, truth) {
            covariance += (Double(t) - meanTruth) * (Double(d) - meanDecoded)
            variance += (Double(t) - meanTruth) * (Double(t) - meanTruth)
        }
        let gain = variance > 0 ? covariance / variance : 0
        let offset = meanDecoded - gain * meanTruth
        let residual = zip(decoded, truth).reduce(0.0) { $0 + abs(Double($1.0) - (gain * Double($1.1) + offset)) }
        return (gain, residual / count)
    }

    func runFFmpeg(_ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(Self.ffmpeg))
        process.arguments = ["-nostdin", "-v", "error", "-y"] + arguments
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "ffmpeg \(arguments.joined(separator: " "))")
    }
}

/// ffmpeg serving a video over TCP on 127.0.0.1 at its real rate, looped, as Benchmarks/realtime does.
private final class StreamServer {
    let url: String
    private let process = Process()

    var processIdentifier: Int32 { process.processIdentifier }

    init(video: String) throws {
        let port = Int.random(in: 20_000...45_000)
        url = "tcp://127.0.0.1:\(port)"
        process.executableURL = URL(fileURLWithPath: try #require(VideoDecodingTests.ffmpeg))
        process.arguments = ["-nostdin", "-v", "error", "-re", "-stream_loop", "-1", "-i", video, "-map", "0:v:0",
                             "-c", "copy", "-f", "mpegts", "-flush_packets", "1", "\(url)?listen=1"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        _ = waitUntilListening(port: port)
    }

    /// SIGKILL: it works on a stopped process too, and a process started from a test thread inherits its blocked
    /// signals, SIGTERM among them.
    func stop() {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }
}

/// A TCP socket on 127.0.0.1 that listens and never accepts: the kernel completes the handshake, so a client's
/// connect succeeds and then its reads wait for ever.
private final class SilentListener {
    let port: Int
    private let descriptor: Int32

    init() throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.descriptor = descriptor
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                bind(descriptor, generic, length) == 0 && listen(descriptor, 4) == 0
                    && getsockname(descriptor, generic, &length) == 0
            }
        }
        try #require(descriptor >= 0 && bound, "could not listen on 127.0.0.1")
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    func close() {
        _ = Glibc.close(descriptor)
    }
}
