import Foundation
import Testing
import LiveScan
import LiveScanScenes

@Suite struct BarcodeBridgeTests {
    /// Symbologies zxing-cpp 1.4 can both write and read, with a payload valid for each (Codabar: below).
    static let encodable: [(SceneSymbology, Symbology, String)] = [
        (.qr, .qr, "https://livescan.example/item/4711?lot=A"),
        (.datamatrix, .datamatrix, "LOT 2024-88 SN 000123"),
        (.aztec, .aztec, "Aztec payload 12345"),
        (.pdf417, .pdf417, "PDF417 boarding pass 0042"),
        (.ean13, .ean13, "4006381333931"),
        (.ean8, .ean8, "96385074"),
        (.upca, .upca, "036000291452"),
        (.upce, .upce, "01234565"),
        (.code128, .code128, "PARCEL-0042-XY"),
        (.code39, .code39, "CODE39 TEST"),
        (.code93, .code93, "CODE93TEST"),
        (.itf, .itf, "00012345678905"),
    ]

    @Test(arguments: 0..<encodable.count)
    func generatedSymbolDecodesWithItsSymbologyPayloadAndPlace(index: Int) throws {
        let (sceneSymbology, symbology, payload) = Self.encodable[index]
        let still = try SceneRenderer.still(symbology: sceneSymbology, payload: payload,
                                            moduleSize: sceneSymbology.isLinear ? 3 : 4)
        let found = try ZXingBarcodeDetector().detect(in: frame(still.frame))
        let match = try #require(found.first { $0.symbology == symbology }, "\(symbology) not decoded")
        #expect(match.payloadStringValue == payload)
        #expect(match.payloadData == Data(payload.utf8))
        // The quad lies on the symbol: centres within a tenth of its size.
        let truth = bounds(still.bounds)
        #expect(match.bounds.center.distance(to: truth.center) < max(truth.width, truth.height) / 10 + 3)
    }

    /// zxing-cpp 1.4 reports Codabar without its start/stop letters. It misses this rendering at 3 pixels a
    /// module (bars of 3 and 6 pixels) and reads it at 2 and 4, so the symbol is drawn at 4.
    @Test func generatedCodabarDecodesWithoutItsStartAndStopLetters() throws {
        let still = try SceneRenderer.still(symbology: .codabar, payload: "A40156B", moduleSize: 4)
        let found = try ZXingBarcodeDetector().detect(in: frame(still.frame))
        #expect(found.map(\.symbology) == [.codabar])
        #expect(found.first?.payloadStringValue == "40156")
    }

    @Test func everySymbologyCrossesTheBoundaryAndBack() throws {
        // Asking for one symbology finds only that one in a frame holding two.
        let qr = try SceneRenderer.still(symbology: .qr, payload: "only-qr")
        let onlyLinear = ZXingBarcodeDetector(options: BarcodeDetectorOptions(symbologies: [.code128, .ean13]))
        #expect(try onlyLinear.detect(in: frame(qr.frame)).isEmpty)
        let onlyQR = ZXingBarcodeDetector(options: BarcodeDetectorOptions(symbologies: [.qr]))
        #expect(try onlyQR.detect(in: frame(qr.frame)).map(\.payloadStringValue) == ["only-qr"])
    }

    @Test func still720FrameDecodesAllFiveCodes() throws {
        let renderer = try SceneRenderer(scene: ScenePreset.still720.scene)
        let truth = renderer.groundTruth()
        let expected = Set(truth.items.filter { $0.kind == "barcode" }.compactMap(\.payload))
        #expect(expected.count == 5)
        let found = try ZXingBarcodeDetector().detect(in: frame(renderer.render(frame: 0)))
        #expect(Set(found.compactMap(\.payloadStringValue)) == expected)
    }

    /// zxing-cpp 1.4.0 abort()s on some 1080p multi-code frames when its own tryDownscale is on (issue 740);
    /// CBridge keeps it off. This frame would take the whole test process down if that ever regressed.
    @Test func multiCode1080pFrameDecodesWithoutAborting() throws {
        let renderer = try SceneRenderer(scene: ScenePreset.still1080.scene)
        let expected = renderer.groundTruth().items.filter { $0.kind == "barcode" }.compactMap(\.payload)
        #expect(expected.count >= 10)
        let found = try ZXingBarcodeDetector().detect(in: frame(renderer.render(frame: 0)))
        let decoded = Set(found.compactMap(\.payloadStringValue)).intersection(expected)
        #expect(decoded.count >= expected.count - 1, "decoded \(decoded.count) of \(expected.count)")
    }

    /// A real DataBar photo on which zxing-cpp 1.4.0 fails an assertion and abort()s (its
    /// `Result::operator==`, upstream issue 740). CBridge catches the abort and reads the image again
    /// another way: the process survives and the code is still decoded.
    @Test func zxingAssertionAbortIsSurvived() throws {
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Fixtures/databar-assert-abort.webp")
        let image = try FrameImage(contentsOf: fixture.path)
        let frame = Frame(image: image, index: 0, time: 0)
        for _ in 0..<3 {
            let found = try ZXingBarcodeDetector().detect(in: frame)
            #expect(found.map(\.symbology) == [.databar])
            #expect(found.first?.payloadStringValue == "02001234567893")
        }
    }

    /// Three QR symbols of one structured-append sequence (made with segno): one item, the whole message,
    /// bounds around all three with the top-left corner first. Two of the three stay two partial items.
    @Test func structuredAppendSequenceIsOneItemOnlyWhenComplete() throws {
        let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
        let message = "LiveScan structured append: this message is split across three QR symbols, read in order, "
            + "joined into one item."
        let complete = try FrameImage(contentsOf: fixtures.appendingPathComponent("structured-append-3of3.png").path)
        let merged = try ZXingBarcodeDetector().detect(in: Frame(image: complete, index: 0, time: 0))
        #expect(merged.map(\.payloadStringValue) == [message])
        #expect(merged.first?.payloadData == Data(message.utf8))
        let bounds = try #require(merged.first?.bounds)
        #expect(bounds.width > 380 && bounds.width < 460, "spans the three symbols: \(bounds)")
        #expect(bounds.topLeft.x < 60 && bounds.topLeft.y < 60, "top-left first: \(bounds)")

        let partial = try FrameImage(contentsOf: fixtures.appendingPathComponent("structured-append-2of3.png").path)
        let parts = try ZXingBarcodeDetector().detect(in: Frame(image: partial, index: 0, time: 0))
        #expect(Set(parts.compactMap(\.payloadStringValue)) == [
            "LiveScan structured append: this mess", "age is split across three QR symbols,"])
    }

    /// Two zxing phone photos that zxing-cpp 1.4 (and ZXingReader) cannot read as they are: a noisy one that
    /// reads once halved, and a small one whose modules are too fine until doubled and binarised globally.
    @Test(arguments: [
        ("qr-noisy-photo.png", "The 2005 USGS aerial photography of the Washington Monument is censored."),
        ("qr-fine-modules.png", "UI office hours signup\r\nhttp://www.corp.google.com/sparrow/ui_office_hours/ \r\n"),
    ])
    func qrSecondChancesReadWhatThePlainReadMisses(fixture: String, payload: String) throws {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Fixtures").appendingPathComponent(fixture).path
        let frame = Frame(image: try FrameImage(contentsOf: path), index: 0, time: 0)
        let balanced = try ZXingBarcodeDetector(options: QualityLevel.balanced.barcodeOptions(symbologies: []))
            .detect(in: frame)
        #expect(balanced.map(\.payloadData) == [Data(payload.utf8)])
        let corners = try #require(balanced.first?.bounds.corners)
        #expect(corners.allSatisfy { $0.x >= 0 && $0.x <= 256 && $0.y >= 0 && $0.y <= 256 }, "\(corners)")
        // The fast level keeps to one plain read: no second chances.
        let fast = try ZXingBarcodeDetector(options: QualityLevel.fast.barcodeOptions(symbologies: [])).detect(in: frame)
        #expect(fast.isEmpty)
    }

    /// zxing-cpp 1.4 drops 2-D symbols it cannot decode, even with returnErrors; OpenCV's locator finds them.
    @Test func aDamagedQRCodeIsReportedAsLocatedButUnreadable() throws {
        let still = try SceneRenderer.still(symbology: .qr, payload: "damaged in the middle", moduleSize: 6)
        var pixels = still.frame.pixels
        let box = still.bounds.boundingBox
        let (width, midX, midY) = (still.frame.width, (box.minX + box.maxX) / 2, (box.minY + box.maxY) / 2)
        let half = (box.maxX - box.minX) * 0.22
        // Wipe the data in the middle; the three finder patterns in the corners stay.
        for y in Int(midY - half)..<Int(midY + half) {
            for x in Int(midX - half)..<Int(midX + half) {
                for channel in 0..<3 {
                    pixels[(y * width + x) * 3 + channel] = 255
                }
            }
        }
        let damaged = try frame(RenderedFrame(width: width, height: still.frame.height, pixels: pixels))
        #expect(try ZXingBarcodeDetector().detect(in: damaged).isEmpty)
        let located = try OpenCVQRLocator().locate(in: damaged)
        #expect(located.count == 1)
        #expect(located.first?.isReadable == false)
        #expect(located.first?.symbology == .qr)
        #expect(located.first?.payloadData == nil)
    }

    @Test func lightOnDarkCodesNeedTheInvertedRead() throws {
        let still = try SceneRenderer.still(symbology: .qr, payload: "white on black")
        let negative = RenderedFrame(width: still.frame.width, height: still.frame.height,
                                     pixels: still.frame.pixels.map { 255 - $0 })
        #expect(try ZXingBarcodeDetector().detect(in: frame(negative)).isEmpty)
        var options = BarcodeDetectorOptions()
        options.triesInverted = true
        let found = try ZXingBarcodeDetector(options: options).detect(in: frame(negative))
        #expect(found.map(\.payloadStringValue) == ["white on black"])
        // A dark-on-light code is read once, not twice.
        #expect(try ZXingBarcodeDetector(options: options).detect(in: frame(still.frame)).count == 1)
    }

    @Test func openCVLocatorDecodesQRThroughZXing() throws {
        let still = try SceneRenderer.still(symbology: .qr, payload: "located by OpenCV", moduleSize: 6,
                                            rotation: 15, margin: 60)
        let found = try OpenCVQRCodeDetector().detect(in: frame(still.frame))
        #expect(found.map(\.payloadStringValue) == ["located by OpenCV"])
        #expect(found.first?.symbology == .qr)
    }

    /// A binary payload crosses the C boundary whole: its NUL bytes are data, not the end of the text.
    @Test func aPayloadWithNULBytesIsReadWhole() throws {
        let payload = "before\u{0}after\u{0}end"
        let still = try SceneRenderer.still(symbology: .qr, payload: payload)
        let found = try ZXingBarcodeDetector().detect(in: frame(still.frame))
        #expect(found.map(\.payloadStringValue) == [payload])
        #expect(found.first?.payloadData == Data(payload.utf8))
    }

    /// A thin image scaled down to a frame limit keeps a side of at least one pixel (cv::resize asserted).
    @Test func veryThinFramesAreReadNotRejected() throws {
        let tall = Frame(image: try FrameImage(pixels: [UInt8](repeating: 255, count: 5000), width: 1, height: 5000,
                                               channels: 1), index: 0, time: 0)
        #expect(try ZXingBarcodeDetector().detect(in: tall).isEmpty)
    }

    @Test func blankAndTinyFramesHoldNothing() throws {
        let tiny = try FrameImage(pixels: [255], width: 1, height: 1, channels: 1)
        #expect(try ZXingBarcodeDetector().detect(in: Frame(image: tiny, index: 0, time: 0)).isEmpty)
        #expect(try OpenCVQRCodeDetector().detect(in: Frame(image: tiny, index: 0, time: 0)).isEmpty)
    }
}
