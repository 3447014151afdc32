import Foundation
import Testing
import LiveScan
import LiveScanScenes

@Suite final class SourceBridgeTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("livescan-source-\(UUID())")

    init() throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    // A suite instance per test: its folder goes with it.
    deinit {
        try? FileManager.default.removeItem(at: folder)
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

    /// A file read as a live source arrives as fast as it decodes, as a stream hands over the frames it buffered
    /// while connecting: their media times still lie at least the file's frame interval apart, so motion measured
    /// between them is the motion in the picture, and after a reopening they go on, never back.
    @Test func liveMediaTimeKeepsTheSourcesFrameSpacing() throws {
        let scene = Scene(name: "burst", width: 320, height: 240, fps: 25, frameCount: 20,
                          items: [.barcode("qr-1", .qr, "burst", moduleSize: 4, at: ScenePoint(x: 160, y: 120))])
        let path = folder.appendingPathComponent("burst.mp4").path
        try SceneRenderer(scene: scene).writeVideo(to: path)
        let opened = OpeningCount()
        let source = try LiveFrameSource(reconnect: .init(giveUpAfter: 1, firstPause: 0.01)) {
            guard opened.next() <= 2 else { throw ScanError.sourceUnavailable(source: path, reason: "gone") }
            return try VideoSource(path: path)
        }
        var frames: [Frame] = []
        do {
            while let frame = try source.nextFrame() {
                frames.append(frame)
            }
        } catch {}
        #expect(frames.contains { $0.index < 20 } && frames.contains { $0.index >= 20 }, "opened twice")
        let pairs = zip(frames, frames.dropFirst())
        #expect(pairs.allSatisfy { $0.time <= $1.time }, "\(frames.map(\.time))")
        // Within one opening (indices 0..<20), frames taken k decoded frames apart are at least k / 25 s apart.
        let firstOpening = pairs.filter { $1.index < 20 }
        #expect(firstOpening.allSatisfy { $1.time - $0.time >= Double($1.index - $0.index) / 25 - 1e-6 },
                "\(frames.map { ($0.index, $0.time) })")
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
@Suite final class ImageFileTests {
    let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("livescan-image-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    // A suite instance per test: its folder goes with it.
    deinit {
        try? FileManager.default.removeItem(at: folder)
    }

    @Test func theHeaderSizeIsCheckedBeforeDecoding() throws {
        let path = folder.appendingPathComponent("four.png").path
        try FrameImage(pixels: [UInt8](repeating: 200, count: 40 * 30), width: 40, height: 30, channels: 1)
            .write(to: path)
        #expect(try FrameImage(contentsOf: path, maxPixels: 1200).width == 40)
        // Under a megapixel the limit is said in pixels ("0.0 megapixels" would say nothing).
        #expect(throws: ScanError.imageTooLarge(source: path, reason: "40 x 30 pixels (1200), over the limit of "
                                                + "1199 pixels")) {
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

    /// A phone held upright stores its sensor's landscape pixels and an Exif orientation that turns them to be
    /// shown: a quarter clockwise (6), anticlockwise (8), or half a turn (3). Positions are the stored pixels' (as
    /// barcode readers and labelled sets give them); the text, sideways in those pixels, is read upright.
    @Test(arguments: [UInt8(6), 8, 3])
    func aPhotoTurnedByItsExifOrientationIsReadUprightAndPlacedInItsStoredPixels(orientation: UInt8) throws {
        let recognizer = try #require(sharedTextRecognizer)
        let line = SceneItem.text("line", "Keep dry and cool", pixelHeight: 32, at: ScenePoint(x: 230, y: 50))
        let code = SceneItem.barcode("qr", .qr, "EXIF-\(orientation)", moduleSize: 5, at: ScenePoint(x: 230, y: 210))
        let renderer = try SceneRenderer(scene: Scene(name: "upright", width: 460, height: 300, items: [line, code]))
        let upright = try renderer.render(frame: 0)
        let (plain, turned, place) = try Self.storeTurned(upright.pixels, width: upright.width, height: upright.height,
                                                          orientation: orientation, in: folder)
        let (width, height) = orientation != 3 ? (upright.height, upright.width) : (upright.width, upright.height)
        // Where the upright picture's corners are in the stored pixels.
        let toStored = { (quad: SceneQuad) -> Bounds in
            let corners = [quad.topLeft, quad.topRight, quad.bottomRight, quad.bottomLeft].map(place)
            return Bounds(topLeft: corners[0], topRight: corners[1], bottomRight: corners[2], bottomLeft: corners[3])
        }

        let photo = Frame(image: try FrameImage(contentsOf: turned), index: 0, time: 0)
        #expect(photo.width == width && photo.height == height)
        let codes = try ZXingBarcodeDetector().detect(in: photo)
        #expect(codes.map(\.payloadStringValue) == ["EXIF-\(orientation)"])
        let codeTruth = toStored(renderer.bounds(of: code, frame: 0))
        #expect(try #require(codes.first).bounds.intersectionOverUnion(codeTruth) > 0.7)
        let text = try recognizer.recognize(in: photo, excluding: codes.map(\.bounds))
        #expect(text.count == 1)
        let read = try #require(text.first?.transcript)
        #expect(characterErrorRate(read, truth: "Keep dry and cool") < 0.1, "read \(read)")  // JPEG's ringing aside
        let textTruth = toStored(renderer.bounds(of: line, frame: 0))
        #expect(try #require(text.first).bounds.intersectionOverUnion(textTruth) > 0.5, "\(text)")
        // The same stored pixels without the orientation: the line is sideways or upside down; nothing reads it.
        let sideways = Frame(image: try FrameImage(contentsOf: plain), index: 0, time: 0)
        #expect(try recognizer.recognize(in: sideways, excluding: codes.map(\.bounds)).isEmpty)
    }

    /// The upright BGR picture `pixels` stored as a phone stores it for `orientation` (6, 8 or 3): `plain`, a JPEG
    /// of the stored pixels alone, and `turned`, the same with the Exif orientation that shows them upright; and
    /// where a point of the upright picture lies in the stored pixels.
    static func storeTurned(_ pixels: [UInt8], width: Int, height: Int, orientation: UInt8, in folder: URL) throws
        -> (plain: String, turned: String, place: (ScenePoint) -> Point)
    {
        let (storedWidth, storedHeight) = orientation != 3 ? (height, width) : (width, height)
        // Which upright pixel each stored one shows (Exif 2.32's orientation table), and where an upright point
        // is in the stored pixels.
        let shown: (Int, Int) -> (Int, Int) = switch orientation {
        case 6: { x, y in (storedHeight - 1 - y, x) }
        case 8: { x, y in (y, storedWidth - 1 - x) }
        default: { x, y in (storedWidth - 1 - x, storedHeight - 1 - y) }
        }
        let place: (ScenePoint) -> Point = switch orientation {
        case 6: { Point(x: $0.y, y: Double(storedHeight) - $0.x) }
        case 8: { Point(x: Double(storedWidth) - $0.y, y: $0.x) }
        default: { Point(x: Double(storedWidth) - $0.x, y: Double(storedHeight) - $0.y) }
        }
        var stored = [UInt8](repeating: 0, count: storedWidth * storedHeight * 3)
        for y in 0..<storedHeight {
            for x in 0..<storedWidth {
                let (u, v) = shown(x, y)
                for channel in 0..<3 {
                    stored[(y * storedWidth + x) * 3 + channel] = pixels[(v * width + u) * 3 + channel]
                }
            }
        }
        let plain = folder.appendingPathComponent("plain-\(orientation).jpg").path
        try FrameImage(pixels: stored, width: storedWidth, height: storedHeight, channels: 3).write(to: plain)
        let turned = folder.appendingPathComponent("turned-\(orientation).jpg").path
        try withExifOrientation(orientation, jpeg: Data(contentsOf: URL(fileURLWithPath: plain)))
            .write(to: URL(fileURLWithPath: turned))
        return (plain, turned, place)
    }

    /// `jpeg` with an Exif block (APP1: a little-endian TIFF header, IFD0 holding only Orientation) after its
    /// start marker, as cameras write it.
    static func withExifOrientation(_ orientation: UInt8, jpeg: Data) -> Data {
        let tiff: [UInt8] = [0x49, 0x49, 0x2A, 0x00, 0x08, 0x00, 0x00, 0x00,  // "II", 42, IFD0 at 8
                             0x01, 0x00,  // one entry
                             0x12, 0x01, 0x03, 0x00, 0x01, 0x00, 0x00, 0x00, orientation, 0x00, 0x00, 0x00,
                             0x00, 0x00, 0x00, 0x00]  // no next IFD
        let body = Array("Exif".utf8) + [0, 0] + tiff
        let length = body.count + 2
        return jpeg.prefix(2) + Data([0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + body) + jpeg.dropFirst(2)
    }
}

extension RenderedFrame {
    /// Saves the picture through LiveScan's own image writer.
    func write(to path: String) throws {
        try FrameImage(pixels: pixels, width: width, height: height, channels: 3).write(to: path)
    }
}

/// How many times a source was opened, counted from the reading thread.
private final class OpeningCount: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    func next() -> Int {
        lock.withLock {
            count += 1
            return count
        }
    }
}
