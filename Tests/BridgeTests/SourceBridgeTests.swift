import Foundation
import Testing
import LiveScan
import LiveScanScenes

@Suite struct SourceBridgeTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("livescan-source-\(UUID())")

    init() throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    @Test func videoFramesComeBackInOrderWithMediaTime() throws {
        let scene = Scene(name: "short", width: 320, height: 240, fps: 25, frameCount: 10,
                          items: [.barcode("qr-1", .qr, "frame source", moduleSize: 4,
                                           at: ScenePoint(x: 160, y: 120))])
        let path = folder.appendingPathComponent("short.mp4").path
        try SceneRenderer(scene: scene).writeVideo(to: path)
        let source = try VideoSource(path: path)
        #expect(source.info.width == 320)
        #expect(source.info.height == 240)
        #expect(source.info.framesPerSecond == 25)
        #expect(source.info.frameCount == 10)
        var frames: [Frame] = []
        while let next = try source.nextFrame() {
            frames.append(next)
        }
        #expect(frames.map(\.index) == Array(0..<10))
        #expect(abs(frames[4].time - 4.0 / 25) < 0.001)
        let decoded = try ZXingBarcodeDetector().detect(in: frames[9])
        #expect(decoded.map(\.payloadStringValue) == ["frame source"])
    }

    /// A live source whose reader outpaces the scanner: every frame decoded is either taken or counted as
    /// dropped, the newest always wins, and the end of the source arrives after its last frame.
    @Test func liveSourceCountsEveryFrameItDrops() throws {
        let scene = Scene(name: "drops", width: 320, height: 240, fps: 30, frameCount: 90,
                          items: [.barcode("qr-1", .qr, "drops", moduleSize: 4, at: ScenePoint(x: 160, y: 120))])
        let path = folder.appendingPathComponent("drops.mp4").path
        try SceneRenderer(scene: scene).writeVideo(to: path)
        let source = try LiveFrameSource { try VideoSource(path: path) }
        var taken: [Int] = []
        var ending: Error?
        do {
            while let frame = try source.nextFrame() {
                taken.append(frame.index)
                Thread.sleep(forTimeInterval: 0.01)  // a scanner slower than the file decodes
            }
        } catch {
            ending = error
        }
        #expect(ending is ScanError, "a source that stops is an error for a live source")
        #expect(taken == taken.sorted() && Set(taken).count == taken.count)
        #expect(taken.last == 89, "the newest frame wins, the last one included")
        #expect(source.droppedFrames > 0)
        #expect(taken.count + source.droppedFrames == 90)
    }

    @Test func imageFolderReadsImagesInNameOrderAndSkipsOthers() throws {
        for (name, payload) in [("b.png", "second"), ("a.png", "first")] {
            try SceneRenderer.still(symbology: .qr, payload: payload).frame.write(
                to: folder.appendingPathComponent(name).path)
        }
        try Data("not an image".utf8).write(to: folder.appendingPathComponent("notes.txt"))
        let source = try ImageSource(path: folder.path)
        #expect(source.paths.map { URL(fileURLWithPath: $0).lastPathComponent } == ["a.png", "b.png"])
        let first = try #require(try source.nextFrame())
        #expect(try ZXingBarcodeDetector().detect(in: first).map(\.payloadStringValue) == ["first"])
    }

    @Test func unreadableInputsFailWithAReason() throws {
        let missing = folder.appendingPathComponent("missing.mp4").path
        #expect(throws: ScanError.sourceUnavailable(source: missing, reason: "no such file")) {
            _ = try VideoSource(path: missing)
        }
        let empty = folder.appendingPathComponent("empty.mp4").path
        try Data().write(to: URL(fileURLWithPath: empty))
        #expect(throws: ScanError.sourceUnavailable(source: empty, reason: "the file is empty (0 bytes)")) {
            _ = try VideoSource(path: empty)
        }
        let text = folder.appendingPathComponent("text.mp4").path
        try Data(String(repeating: "this is not a video\n", count: 100).utf8).write(to: URL(fileURLWithPath: text))
        #expect(throws: ScanError.self) { _ = try VideoSource(path: text) }
        #expect(throws: ScanError.self) { _ = try FrameImage(contentsOf: text) }
        #expect(throws: ScanError.self) { _ = try ImageSource(path: folder.path + "/nothing-here") }
    }
}

/// Image files are read header first: a picture too large is refused before decoding, a cut one is flagged.
@Suite struct ImageFileTests {
    let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("livescan-image-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    @Test func theHeaderSizeIsCheckedBeforeDecoding() throws {
        let path = folder.appendingPathComponent("four.png").path
        try FrameImage(pixels: [UInt8](repeating: 200, count: 40 * 30), width: 40, height: 30, channels: 1)
            .write(to: path)
        #expect(try FrameImage(contentsOf: path, maxPixels: 1200).width == 40)
        #expect(throws: ScanError.imageTooLarge(source: path, reason: "40 x 30 pixels (0.0 megapixels), over the "
                                                + "limit of 0.0 megapixels")) {
            _ = try FrameImage(contentsOf: path, maxPixels: 1199)
        }
        // Every format whose header is read: JPEG, BMP, TIFF, WebP, PNM.
        for format in ["jpg", "bmp", "tiff", "webp", "ppm"] {
            let other = folder.appendingPathComponent("four.\(format)").path
            try FrameImage(contentsOf: path).write(to: other)
            #expect(try FrameImage(contentsOf: other, maxPixels: 1200).height == 30, "\(format)")
            #expect(throws: ScanError.self, "\(format)") { _ = try FrameImage(contentsOf: other, maxPixels: 1000) }
        }
    }

    @Test func aCutJPEGDecodesWhatItHasAndSaysItIsCut() throws {
        let path = folder.appendingPathComponent("whole.jpg").path
        let pixels = (0..<(320 * 240)).map { UInt8(($0 % 320) / 2) }
        try FrameImage(pixels: pixels, width: 320, height: 240, channels: 1).write(to: path)
        #expect(try FrameImage(contentsOf: path).isTruncated == false)
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let cut = folder.appendingPathComponent("cut.jpg").path
        try data.prefix(data.count * 2 / 3).write(to: URL(fileURLWithPath: cut))
        let image = try FrameImage(contentsOf: cut)
        #expect(image.isTruncated)
        #expect(image.width == 320)
    }
}

extension RenderedFrame {
    /// Saves the picture through LiveScan's own image writer.
    func write(to path: String) throws {
        try FrameImage(pixels: pixels, width: width, height: height, channels: 3).write(to: path)
    }
}
