import Foundation
import Testing
@testable import LiveScan
import LiveScanScenes

/// Reading barcodes only where frames changed (files, balanced and fast levels) must find what reading every
/// frame whole finds, while reading much less.
@Suite struct ChangeGatedBarcodeTests {
    /// A QR code drifting right, a Code 128 standing still, and a QR code hidden under an occluder until
    /// frame 12, then standing still: it appears without anything moving.
    static let scene = Scene(
        name: "gated", width: 640, height: 360, fps: 30, frameCount: 30, background: .paper,
        items: [
            .barcode("qr-moving", .qr, "https://livescan.example/moving", moduleSize: 4,
                     at: ScenePoint(x: 110, y: 110), velocity: SceneVector(dx: 2, dy: 0.5)),
            .barcode("c128-still", .code128, "PARCEL-0042", moduleSize: 2, barHeight: 50,
                     at: ScenePoint(x: 420, y: 290)),
            .barcode("qr-revealed", .qr, "REVEALED-AT-12", moduleSize: 4, at: ScenePoint(x: 500, y: 110)),
        ],
        occluders: [SceneOccluder(rect: SceneRect(x: 420, y: 30, width: 170, height: 170), frames: 0..<12)],
        noiseSigma: 2, blurSigma: 0.5, seed: 3)

    static func payloads(_ observations: [Observation]) -> Set<String> {
        Set(observations.compactMap(\.payloadStringValue))
    }

    @Test func gatedReadingFindsWhatWholeReadingFindsInEveryFrame() throws {
        let renderer = try SceneRenderer(scene: Self.scene)
        let whole = ZXingBarcodeDetector()
        // No periodic whole read after the first: everything later is found by region reads alone.
        let gated = ChangeGatedBarcodeReader(detector: whole, configuration: .init(fullReadInterval: 1_000))
        var cellsPerFrame = 0
        for index in 0..<Self.scene.frameCount {
            let picture = try frame(renderer.render(frame: index), index: index)
            let expected = try whole.detect(in: picture)
            let found = try gated.barcodes(in: picture)
            #expect(Self.payloads(found) == Self.payloads(expected), "frame \(index)")
            #expect(found.count == expected.count, "frame \(index): \(found.count) vs \(expected.count)")
            for observation in found {
                let match = expected.first { $0.payloadStringValue == observation.payloadStringValue }
                let overlap = match.map { observation.bounds.intersectionOverUnion($0.bounds) } ?? 0
                #expect(overlap > 0.8, "frame \(index) \(observation.payloadStringValue ?? ""): IoU \(overlap)")
            }
            cellsPerFrame = (picture.width / 16) * (picture.height / 16)
        }
        #expect(Self.payloads(try whole.detect(in: frame(renderer.render(frame: 12)))).contains("REVEALED-AT-12"))
        #expect(gated.wholeReads == 1)
        #expect(gated.regionReads + gated.framesNotRead == Self.scene.frameCount - 1)
        // The moving QR code is followed between reads: at most 10 frames in a row, then read again.
        #expect(gated.codesFollowed >= 15, "followed \(gated.codesFollowed) times")
        // The moving code and the occluder's edge are what changes: a small part of each frame.
        let share = Double(gated.cellsRead) / Double(cellsPerFrame * (Self.scene.frameCount - 1))
        #expect(share < 0.3, "region reads covered \(share) of the frames")
    }

    /// A QR code crossing the frame at 40 px a frame, more than half its width: consecutive reads hardly overlap.
    /// A fresh read is paired with the code it was as the tracker pairs them (`SameItem`), so its motion is
    /// handed on and the code is followed where it is going instead of read in every frame.
    @Test func aFastCodeIsFollowedWhereItIsGoing() throws {
        let scene = Scene(
            name: "fast", width: 1280, height: 240, fps: 30, frameCount: 26, background: .paper,
            items: [.barcode("qr-fast", .qr, "FAST-40", moduleSize: 3, at: ScenePoint(x: 100, y: 120),
                             velocity: SceneVector(dx: 40, dy: 0))],
            noiseSigma: 2, blurSigma: 0.5, seed: 5)
        let renderer = try SceneRenderer(scene: scene)
        let whole = ZXingBarcodeDetector()
        let gated = ChangeGatedBarcodeReader(detector: whole, configuration: .init(fullReadInterval: 1_000))
        for index in 0..<scene.frameCount {
            let picture = try frame(renderer.render(frame: index), index: index)
            let expected = try #require(whole.detect(in: picture).first)
            let found = try gated.barcodes(in: picture)
            #expect(found.count == 1, "frame \(index): \(found.count) codes")
            let overlap = found.first.map { $0.bounds.intersectionOverUnion(expected.bounds) } ?? 0
            #expect(overlap > 0.8, "frame \(index): IoU \(overlap)")
            if index == 1 {
                let step = expected.bounds.intersectionOverUnion(expected.bounds.offsetBy(dx: -40, dy: 0))
                #expect(step < 0.3, "consecutive reads overlap by \(step)")
            }
        }
        // Read in frames 0 and 1 (no motion known yet), then followed up to 10 frames at a time.
        #expect(gated.codesFollowed >= 18, "followed \(gated.codesFollowed) times")
    }

    /// A Code 128 of 2-pixel modules moving 1.5 px a frame: at every half-pixel position its bars blur together and
    /// no read finds it. The frame after, the cells that changed as it moved leave a gap across it; the region read
    /// must still hold the whole code, as a whole read does, though the frame before lost it.
    @Test func aCodeLostForAFrameIsReadWholeInTheNext() throws {
        let scene = Scene(
            name: "half-pixel", width: 640, height: 360, fps: 30, frameCount: 30,
            background: SceneBackground(color: SceneColor(gray: 80), contrast: 30, blotchCount: 40),
            items: [.barcode("c128-half", .code128, "CARRIED-0042", moduleSize: 2, barHeight: 50,
                             at: ScenePoint(x: 380, y: 260), velocity: SceneVector(dx: -1.5, dy: 0))],
            noiseSigma: 2, blurSigma: 0.5, seed: 11)
        let renderer = try SceneRenderer(scene: scene)
        let whole = ZXingBarcodeDetector()
        let gated = ChangeGatedBarcodeReader(detector: whole, configuration: .init(fullReadInterval: 1_000))
        var framesRead = 0
        for index in 0..<scene.frameCount {
            let picture = try frame(renderer.render(frame: index), index: index)
            let expected = Self.payloads(try whole.detect(in: picture))
            #expect(Self.payloads(try gated.barcodes(in: picture)) == expected, "frame \(index)")
            framesRead += expected.isEmpty ? 0 : 1
        }
        // Only every other frame reads at all: the scene shows what it means to.
        #expect((12...18).contains(framesRead), "whole reads found the code in \(framesRead) frames")
    }

    @Test func unchangedFrameIsNotReadAgain() throws {
        let picture = try frame(SceneRenderer(scene: ScenePreset.still720.scene).render(frame: 0))
        let gated = ChangeGatedBarcodeReader(detector: ZXingBarcodeDetector(), configuration: .init(fullReadInterval: 30))
        let first = try gated.barcodes(in: picture)
        #expect(first.count == 5)
        #expect(try gated.barcodes(in: picture) == first)
        #expect(gated.wholeReads == 1 && gated.framesNotRead == 1 && gated.cellsRead == 0)
    }

    @Test func wholeReadComesBackAtItsInterval() throws {
        let picture = try frame(SceneRenderer(scene: ScenePreset.still720.scene).render(frame: 0))
        let gated = ChangeGatedBarcodeReader(detector: ZXingBarcodeDetector(), configuration: .init(fullReadInterval: 4))
        for _ in 0..<9 {
            #expect(try gated.barcodes(in: picture).count == 5)
        }
        // Frames 0, 4 and 8 are read whole.
        #expect(gated.wholeReads == 3 && gated.framesNotRead == 6)
    }

    @Test func regionReadKeepsWholeFramePixels() throws {
        let picture = try frame(SceneRenderer(scene: ScenePreset.still720.scene).render(frame: 0))
        let detector = ZXingBarcodeDetector()
        let all = try detector.detect(in: picture)
        for code in all {
            let box = code.bounds.boundingBox
            let region = PixelRect(x: Int(box.minX) - 20, y: Int(box.minY) - 20, width: Int(box.maxX - box.minX) + 40,
                                   height: Int(box.maxY - box.minY) + 40)
            let inRegion = try detector.detect(in: picture, region: region)
            #expect(inRegion.map(\.payloadStringValue) == [code.payloadStringValue])
            #expect(inRegion.first.map { $0.bounds.largestCornerMove(to: code.bounds) < 2 } == true)
        }
        // Clipped to the frame; nothing readable in a corner strip.
        #expect(try detector.detect(in: picture, region: PixelRect(x: -50, y: -50, width: 60, height: 60)).isEmpty)
    }

    @Test func patchIsFoundWhereItMovedAndNotInAnotherCode() throws {
        let picture = try frame(SceneRenderer(scene: ScenePreset.still720.scene).render(frame: 0))
        let gray = try picture.image.grayPixels()
        let (width, height) = (picture.width, picture.height)
        // The same picture moved 3 px right and 2 px down.
        var moved = [UInt8](repeating: 200, count: gray.count)
        for y in 2..<height {
            for x in 3..<width {
                moved[y * width + x] = gray[(y - 2) * width + (x - 3)]
            }
        }
        let movedImage = try FrameImage(pixels: moved, width: width, height: height, channels: 1)
        let codes = try ZXingBarcodeDetector(options: BarcodeDetectorOptions(symbologies: [.qr])).detect(in: picture)
        #expect(codes.count == 3)
        let boxes = codes.map { PixelRect(enclosing: $0.bounds) }
        // Each box, and grown to odd sides: its coarse search at half size drops a last row and column.
        let oddBoxes = boxes.map { PixelRect(x: $0.x, y: $0.y, width: ($0.width | 1) + 2,
                                              height: ($0.height | 1) + 2) }
        #expect(oddBoxes.allSatisfy { $0.width % 2 == 1 && $0.height % 2 == 1 })
        for box in boxes + oddBoxes {
            let patch = try picture.bridgeImage().copyPatch(box)
            let found = try movedImage.locate(patch, corners: PixelRect(x: box.x - 6, y: box.y - 6, width: 13, height: 13))
            #expect(found.score > 0.95)
            #expect(abs(found.x - Double(box.x + 3)) < 0.75 && abs(found.y - Double(box.y + 2)) < 0.75,
                    "found at \(found.x), \(found.y) for \(box.x + 3), \(box.y + 2)")
        }
        // The first code's pixels where the second code is: no match a reader could mistake.
        let patch = try picture.bridgeImage().copyPatch(boxes[0])
        let elsewhere = try picture.bridgeImage().locate(patch, corners: PixelRect(x: boxes[1].x - 6, y: boxes[1].y - 6,
                                                                          width: 13, height: 13))
        #expect(elsewhere.score < 0.5, "score \(elsewhere.score)")
    }

    /// A linear code's patch can be a few rows tall: too thin to look for at half size, it is looked for whole.
    @Test func thinPatchIsLocated() throws {
        let picture = try frame(SceneRenderer(scene: ScenePreset.still720.scene).render(frame: 0))
        let linear = try ZXingBarcodeDetector(options: BarcodeDetectorOptions(symbologies: [.ean13])).detect(in: picture)
        let box = try #require(linear.first).bounds.boundingBox
        let strip = PixelRect(x: Int(box.minX), y: Int((box.minY + box.maxY) / 2), width: Int(box.maxX - box.minX), height: 5)
        let found = try picture.bridgeImage().locate(picture.bridgeImage().copyPatch(strip),
                                             corners: PixelRect(x: strip.x - 4, y: strip.y - 4, width: 9, height: 9))
        // Bars look the same a row up or down: only the position across them is defined.
        #expect(found.score > 0.99 && abs(found.x - Double(strip.x)) < 0.5)
    }

    @Test func cellMeansAreBlockAverages() throws {
        // 40 x 20, left 16 columns black, the rest white; the right 8 columns and the bottom 4 rows are cut.
        var pixels = [UInt8](repeating: 255, count: 40 * 20)
        for y in 0..<20 {
            for x in 0..<16 {
                pixels[y * 40 + x] = 0
            }
            pixels[y * 40 + 20] = 0  // one black column in the second cell: mean 255 * 15 / 16
        }
        let image = try FrameImage(pixels: pixels, width: 40, height: 20, channels: 1)
        let (means, columns, rows) = try image.cellMeans(cell: 16)
        #expect(columns == 2 && rows == 1)
        #expect(means == [0, 239])
        #expect(try FrameImage(pixels: pixels, width: 40, height: 20, channels: 1).cellMeans(cell: 32).means.isEmpty)
    }

    /// CBridge keeps a frame's means for the first cell size asked (the read-ahead makes them before the frame's
    /// turn); another size asked of the same frame still gets means of its own size, on a rendered frame's pixels.
    @Test func cellMeansOfAnotherSizeAreNotTheKeptOnes() throws {
        let picture = try frame(SceneRenderer(scene: ScenePreset.still720.scene).render(frame: 0)).bridgeImage()
        let gray = try picture.grayPixels()
        func blockMeans(cell: Int) -> [UInt8] {
            var means: [UInt8] = []
            for row in 0..<(picture.height / cell) {
                for column in 0..<(picture.width / cell) {
                    var sum = 0
                    for y in row * cell..<(row + 1) * cell {
                        for x in column * cell..<(column + 1) * cell {
                            sum += Int(gray[y * picture.width + x])
                        }
                    }
                    means.append(UInt8((Double(sum) / Double(cell * cell)).rounded(.toNearestOrEven)))
                }
            }
            return means
        }
        let first = try picture.cellMeans(cell: 16)
        #expect(first.columns == picture.width / 16 && first.means == blockMeans(cell: 16))
        let other = try picture.cellMeans(cell: 10)
        #expect(other.columns == picture.width / 10 && other.rows == picture.height / 10)
        #expect(other.means == blockMeans(cell: 10))
        #expect(try picture.cellMeans(cell: 16).means == first.means)
    }
}
