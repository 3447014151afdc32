import Foundation
import Testing
import LiveScan
import LiveScanScenes

/// What footage from another generator showed LiveScan getting wrong, each on frames rendered here: linear codes'
/// bounds that jumped with the rows a read scanned, and labels whose edges, frames and neighbours were read as text.
@Suite struct SceneMechanismTests {
    /// A Code 128 with 70 px bars: read whole, or as the gated reader reads it, a band at the top of the bars or at
    /// their bottom, its bounds are the bars' full height, in the same place within a few pixels.
    @Test func linearBoundsCoverTheBarsWhicheverRowsWereRead() throws {
        let still = try SceneRenderer.still(symbology: .code128, payload: "LOT-7731", moduleSize: 3, barHeight: 70)
        let picture = try frame(still.frame)
        let truthTop = still.bounds.topLeft.y, truthBottom = still.bounds.bottomLeft.y
        let width = picture.width
        let bands = [nil, PixelRect(x: 0, y: Int(truthTop) - 10, width: width, height: 40),
                     PixelRect(x: 0, y: Int(truthBottom) - 30, width: width, height: 40)]
        for band in bands {
            let found = try ZXingBarcodeDetector().detect(in: picture, region: band)
            let code = try #require(found.first { $0.payloadStringValue == "LOT-7731" }, "\(String(describing: band))")
            let box = code.bounds.boundingBox
            #expect(abs(box.minY - truthTop) <= 3, "top \(box.minY) for \(String(describing: band))")
            #expect(abs(box.maxY - truthBottom) <= 3, "bottom \(box.maxY) for \(String(describing: band))")
        }
    }

    /// The labels of `handheld-labels`: one framed, one pale behind monospace, two side by side on one row. Each
    /// line reads exactly as printed, without its label's frame or edge and without its neighbour.
    @Test func labelsAreReadAsTheirLinesAlone() throws {
        let renderer = try SceneRenderer(scene: ScenePreset.handheldLabels.scene)
        let picture = try frame(renderer.render(frame: 0))
        let recognizer = try TesseractTextRecognizer()
        let lines = try recognizer.lineRegions(in: picture).compactMap {
            try recognizer.readLine(in: picture, region: $0)
        }
        let read = Set(lines.compactMap(\.transcript))
        let printed = Set(renderer.groundTruth().items.compactMap(\.transcript))
        #expect(printed == ["WAREHOUSE CARD", "batch 2024 lot 88", "fragile handle", "due today"])
        #expect(printed.isSubset(of: read), "read \(read)")
        #expect(!read.contains { $0.contains("|") }, "read \(read)")
    }
}
