import Foundation
import Testing
@testable import LiveScan
import LiveScanScenes

@Suite final class AnnotatorTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("livescan-annotator-\(UUID())")

    init() throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: folder)
    }

    /// A QR code drifting right on paper, and a Code 128 standing still: 20 frames.
    static let scene = Scene(
        name: "annotate", width: 480, height: 320, fps: 25, frameCount: 20, background: .paper,
        items: [
            .barcode("qr-1", .qr, "https://livescan.example/annotate", moduleSize: 4,
                     at: ScenePoint(x: 110, y: 150), velocity: SceneVector(dx: 2, dy: 0)),
            .barcode("c128-1", .code128, "PARCEL-0042", moduleSize: 2, barHeight: 50,
                     at: ScenePoint(x: 320, y: 250)),
        ])

    /// What the scanner would deliver for `frame`: each decoded code as an item with a fixed id per payload.
    static func items(in frame: Frame) throws -> [RecognizedItem] {
        try ZXingBarcodeDetector().detect(in: frame).map { found in
            let id = UUID(uuidString: found.symbology == .qr
                ? "0B7F3C2A-0000-4000-8000-000000000001" : "5D1CAA00-0000-4000-8000-000000000002")!
            return .barcode(.init(id: id, bounds: found.bounds, payloadStringValue: found.payloadStringValue,
                                  payloadData: found.payloadData ?? Data(), symbology: found.symbology ?? .qr,
                                  frameIndex: frame.index, time: frame.time))
        }
    }

    static func readAll(_ source: VideoSource) throws -> [Frame] {
        var frames: [Frame] = []
        while let next = try source.nextFrame() {
            frames.append(next)
        }
        return frames
    }

    /// Largest gray-level difference between two same-sized pictures inside `rows` x `columns`.
    static func largestDifference(_ a: [UInt8], _ b: [UInt8], width: Int, rows: Range<Int>,
                                  columns: Range<Int>) -> Int {
        var largest = 0
        for y in rows {
            for x in columns {
                largest = max(largest, abs(Int(a[y * width + x]) - Int(b[y * width + x])))
            }
        }
        return largest
    }

    @Test func annotatedVideoKeepsFramesSizeAndReadableCodes() throws {
        let input = folder.appendingPathComponent("input.mp4").path
        try SceneRenderer(scene: Self.scene).writeVideo(to: input)
        let source = try VideoSource(path: input)
        let output = folder.appendingPathComponent("annotated.mp4").path
        let annotator = try Annotator(path: output, fps: source.info.framesPerSecond, width: source.info.width,
                                      height: source.info.height)
        let inputFrames = try Self.readAll(source)
        #expect(inputFrames.count == 20)
        var delivered: [[RecognizedItem]] = []
        for frame in inputFrames {
            let items = try Self.items(in: frame)
            delivered.append(items)
            try annotator.add(frame: frame, items: items)
        }
        try annotator.finish()

        let annotated = try VideoSource(path: output)
        #expect(annotated.info.width == 480)
        #expect(annotated.info.height == 320)
        #expect(annotated.info.frameCount == 20)
        let outputFrames = try Self.readAll(annotated)
        #expect(outputFrames.count == 20)

        var readable = 0
        for (index, (before, after)) in zip(inputFrames, outputFrames).enumerated() {
            let qr = try #require(delivered[index].first { $0.value == "https://livescan.example/annotate" })
            let box = qr.bounds.boundingBox
            let (beforeGray, afterGray) = (try before.image.grayPixels(), try after.image.grayPixels())
            // The outline runs a few pixels left of the code: something was drawn there...
            let left = Int(box.minX) - 16..<Int(box.minX) - 1
            let middle = Int(box.minY + 20)..<Int(box.maxY - 20)
            #expect(Self.largestDifference(beforeGray, afterGray, width: 480, rows: middle, columns: left) > 60,
                    "no outline left of the QR code in frame \(index)")
            // ...but nothing over the code itself (only compression noise).
            let inside = Int(box.minX)..<Int(box.maxX)
            let insideRows = Int(box.minY)..<Int(box.maxY)
            #expect(Self.largestDifference(beforeGray, afterGray, width: 480, rows: insideRows, columns: inside) < 60,
                    "drawn over the QR code in frame \(index)")
            let payloads = Set(try ZXingBarcodeDetector().detect(in: after).compactMap(\.payloadStringValue))
            if payloads == ["https://livescan.example/annotate", "PARCEL-0042"] {
                readable += 1
            }
        }
        #expect(readable >= 19, "both codes read back in \(readable) of 20 annotated frames")
    }

    @Test func imageModeWritesTheLastAnnotatedFrame() throws {
        let renderer = try SceneRenderer(scene: Self.scene)
        let path = folder.appendingPathComponent("last.png").path
        #expect(Annotator.isImagePath(path))
        let annotator = try Annotator.image(path: path)
        let last = try frame(renderer.render(frame: 19), index: 19)
        for picture in [try frame(renderer.render(frame: 0)), last] {
            try annotator.add(frame: picture, items: try Self.items(in: picture))
        }
        #expect(!FileManager.default.fileExists(atPath: path), "written before finish()")
        try annotator.finish()
        try annotator.finish()

        let written = try FrameImage(contentsOf: path)
        #expect(written.width == 480 && written.height == 320)
        // PNG is lossless: exactly the annotated last frame.
        let expected = try Annotator.annotatedImage(frame: last, items: try Self.items(in: last))
        #expect(try written.grayPixels() == expected.grayPixels())
        #expect(try written.grayPixels() != last.image.grayPixels())
        #expect(throws: ScanError.self) { try annotator.add(frame: last, items: []) }
    }

    @Test func snapshotWritesOneAnnotatedImage() throws {
        let picture = try frame(SceneRenderer(scene: Self.scene).render(frame: 5))
        let path = folder.appendingPathComponent("snapshot.jpg").path
        try Annotator.snapshot(frame: picture, items: try Self.items(in: picture), to: path)
        let written = try FrameImage(contentsOf: path)
        #expect(written.width == 480 && written.height == 320)
    }

    @Test func labelIsShortIDKindAndValue() {
        let id = UUID(uuidString: "0B7F3C2A-1111-4000-8000-000000000000")!
        let code = RecognizedItem.barcode(.init(id: id, bounds: Bounds(x: 0, y: 0, width: 10, height: 10),
                                                payloadStringValue: "https://example.com",
                                                payloadData: Data("https://example.com".utf8), symbology: .qr,
                                                frameIndex: 0, time: 0))
        #expect(Annotator.label(for: code) == "0b7f3c2a qr https://example.com")
        let line = RecognizedItem.text(.init(id: id, bounds: Bounds(x: 0, y: 0, width: 10, height: 10),
                                             transcript: "Aisle 7", confidence: 0.9, frameIndex: 0, time: 0))
        #expect(Annotator.label(for: line) == "0b7f3c2a text Aisle 7")
    }

    @Test func untrustedLabelsAndOddGeometryDrawWithoutCrashing() throws {
        let picture = try frame(SceneRenderer(scene: Self.scene).render(frame: 0))
        let hostile = "\u{1B}]52;c;ZXZpbA==\u{07}\u{1B}[2J Grüße 日本語 \u{202E}txt.exe\n\t\u{0}after-nul"
            + String(repeating: "long ", count: 200)
        func text(_ transcript: String, _ bounds: Bounds) -> RecognizedItem {
            .text(.init(id: UUID(), bounds: bounds, transcript: transcript, confidence: 1, frameIndex: 0, time: 0))
        }
        let items = [
            text(hostile, Bounds(x: 200, y: 40, width: 200, height: 20)),
            text("", Bounds(x: 10, y: 10, width: 50, height: 12)),
            // At the top-left corner, beyond the right edge, larger than the image, and a single point.
            text("corner", Bounds(x: 0, y: 0, width: 30, height: 10)),
            text("outside", Bounds(x: 470, y: 300, width: 400, height: 300)),
            text("huge", Bounds(x: -1e7, y: -1e7, width: 2e7, height: 2e7)),
            text("point", Bounds(x: 100, y: 100, width: 0, height: 0)),
        ]
        let annotated = try Annotator.annotatedImage(frame: picture, items: items)
        #expect(annotated.width == 480 && annotated.height == 320)
        #expect(try annotated.grayPixels() != picture.image.grayPixels())

        // Hershey fonts have ASCII only: each control character or non-ASCII character is drawn as one '?',
        // and labels longer than 40 characters end in "...".
        func drawn(_ transcript: String) throws -> [UInt8] {
            // Drawn as "0b7f3c2a text <transcript>": 14 characters before the transcript.
            let item = RecognizedItem.text(.init(id: UUID(uuidString: "0B7F3C2A-0000-4000-8000-000000000000")!,
                                                 bounds: Bounds(x: 60, y: 150, width: 90, height: 20),
                                                 transcript: transcript, confidence: 1, frameIndex: 0, time: 0))
            return try Annotator.annotatedImage(frame: picture, items: [item]).grayPixels()
        }
        #expect(try drawn("Gr\u{FC}\u{DF}e \u{65E5}\u{1B}[2J\t") == drawn("Gr??e ??[2J?"))
        #expect(try drawn(String(repeating: "a", count: 60)) == drawn(String(repeating: "a", count: 23) + "..."))
        #expect(try drawn(String(repeating: "a", count: 26)) != drawn(String(repeating: "a", count: 23) + "..."))
        #expect(try drawn("Gruesse") != drawn("Gr??e"))

        let broken = text("nan", Bounds(x: .nan, y: 0, width: 10, height: 10))
        #expect(throws: ScanError.self) { _ = try Annotator.annotatedImage(frame: picture, items: [broken]) }
    }

    @Test func badPathsAndSizesFailWithScanError() throws {
        let unknown = folder.appendingPathComponent("out.xyz").path
        #expect {
            _ = try Annotator(path: unknown, fps: 25, width: 480, height: 320)
        } throws: { error in
            guard case ScanError.invalidParameter(parameter: "path", let reason) = error else { return false }
            return reason.contains(".mp4")
        }
        #expect(throws: ScanError.self) { _ = try Annotator.image(path: unknown) }
        #expect(!Annotator.isImagePath(unknown))

        let missingFolder = folder.appendingPathComponent("no-such-folder")
        #expect {
            _ = try Annotator(path: missingFolder.appendingPathComponent("out.mp4").path, fps: 25, width: 480,
                              height: 320)
        } throws: { error in
            if case ScanError.outputFailed = error { return true }
            return false
        }
        #expect {
            _ = try Annotator.image(path: missingFolder.appendingPathComponent("out.png").path)
        } throws: { error in
            if case ScanError.outputFailed = error { return true }
            return false
        }
        let picture = try frame(SceneRenderer(scene: Self.scene).render(frame: 0))
        #expect(throws: ScanError.self) {
            try Annotator.snapshot(frame: picture, items: [], to: missingFolder.appendingPathComponent("s.png").path)
        }
        #expect(throws: ScanError.self) {
            _ = try Annotator(path: folder.appendingPathComponent("zero.mp4").path, fps: 0, width: 480, height: 320)
        }

    }

    /// A frame of another size than the video's (a stream that changed resolution) is fitted in, its aspect kept,
    /// on black: 480 x 320 into 320 x 240 is 320 x 213 with bands of 13 rows above and below.
    @Test func aFrameOfAnotherSizeIsLetterboxed() throws {
        let path = folder.appendingPathComponent("small.mp4").path
        let small = try Annotator(path: path, fps: 25, width: 320, height: 240)
        let white = Frame(image: try FrameImage(pixels: [UInt8](repeating: 255, count: 480 * 320), width: 480,
                                                height: 320, channels: 1), index: 0, time: 0)
        try small.add(frame: white, items: [])
        try small.finish()
        let written = try #require(try VideoSource(path: path).nextFrame())
        #expect(written.width == 320 && written.height == 240)
        let gray = try written.image.grayPixels()
        func level(row: Int) -> Int { Int(gray[row * 320 + 160]) }
        #expect(level(row: 4) < 30)
        #expect(level(row: 235) < 30)
        #expect(level(row: 120) > 225)
    }

    /// H.264 (.mkv) and Motion JPEG (.avi) both need even sizes: odd frames gain one replicated row and column.
    @Test(arguments: ["odd.mkv", "odd.avi"])
    func oddSizedFramesArePaddedToEvenVideo(name: String) throws {
        let path = folder.appendingPathComponent(name).path
        let annotator = try Annotator(path: path, fps: 10, width: 161, height: 121)
        let pixels = [UInt8](repeating: 200, count: 161 * 121 * 3)
        for index in 0..<5 {
            let image = try FrameImage(pixels: pixels, width: 161, height: 121, channels: 3)
            try annotator.add(frame: Frame(image: image, index: index, time: Double(index) / 10),
                              items: [.text(.init(id: UUID(), bounds: Bounds(x: 40, y: 50, width: 80, height: 20),
                                                  transcript: "odd", confidence: 1, frameIndex: index,
                                                  time: 0))])
        }
        try annotator.finish()
        let source = try VideoSource(path: path)
        #expect(source.info.width == 162 && source.info.height == 122)
        #expect(try Self.readAll(source).count == 5)
    }
}
