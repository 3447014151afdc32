import Foundation
import Glibc
import Testing
import LiveScan
import LiveScanScenes

@Suite struct BarcodeBridgeTests {
    /// Symbologies zxing-cpp's writer can write and its reader read, with a payload valid for each (Codabar: below).
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
        // Code 93 at exactly 3 pixels a module, centred half a pixel off (bars alternately 2 and 4 pixels wide),
        // is one zxing-cpp 3.1 misses (it reads it at 2, 2.5, 3.5 and 4; Codabar likewise): drawn at 4.
        let moduleSize: Double = sceneSymbology == .code93 ? 4 : sceneSymbology.isLinear ? 3 : 4
        let still = try SceneRenderer.still(symbology: sceneSymbology, payload: payload, moduleSize: moduleSize)
        let found = try ZXingBarcodeDetector().detect(in: frame(still.frame))
        let match = try #require(found.first { $0.symbology == symbology }, "\(symbology) not decoded")
        #expect(match.payloadStringValue == payload)
        #expect(match.payloadData == Data(payload.utf8))
        // The quad lies on the symbol: centres within a tenth of its size.
        let truth = bounds(still.bounds)
        #expect(match.bounds.center.distance(to: truth.center) < max(truth.width, truth.height) / 10 + 3)
    }

    /// zxing-cpp 3 reports Codabar with its start/stop letters (1.4 dropped them).
    @Test func generatedCodabarDecodesWithItsStartAndStopLetters() throws {
        let still = try SceneRenderer.still(symbology: .codabar, payload: "A40156B", moduleSize: 4)
        let found = try ZXingBarcodeDetector().detect(in: frame(still.frame))
        #expect(found.map(\.symbology) == [.codabar])
        #expect(found.first?.payloadStringValue == "A40156B")
    }

    /// The format crosses the C boundary both ways: a symbology asked for alone (CB_Format flag -> zxing-cpp 3
    /// formats) is found and reported as itself (zxing-cpp format -> flag), and asking for every other one finds
    /// nothing, except that a UPC-A symbol is the EAN-13 of its digits with a leading 0 and an ITF of 14 digits
    /// with a valid check digit is an ITF-14.
    @Test(arguments: 0...encodable.count)
    func eachWritableSymbologyIsFoundAloneAndOnlyAsItself(index: Int) throws {
        let (sceneSymbology, symbology, payload) =
            index < Self.encodable.count ? Self.encodable[index] : (.codabar, .codabar, "A40156B")
        let still = try SceneRenderer.still(symbology: sceneSymbology, payload: payload, moduleSize: 4)
        let alone = ZXingBarcodeDetector(options: BarcodeDetectorOptions(symbologies: [symbology]))
        let found = try alone.detect(in: frame(still.frame))
        #expect(found.map(\.symbology) == [symbology])
        #expect(found.map(\.payloadStringValue) == [payload])
        let others = ZXingBarcodeDetector(options: BarcodeDetectorOptions(
            symbologies: Set(Symbology.allCases).subtracting([symbology])))
        let elsewhere = try others.detect(in: frame(still.frame))
        if symbology == .upca {
            #expect(elsewhere.map(\.symbology) == [.ean13])
            #expect(elsewhere.map(\.payloadStringValue) == ["0" + payload])
        } else if symbology == .itf {
            #expect(elsewhere.map(\.symbology) == [.itf14])
            #expect(elsewhere.map(\.payloadStringValue) == [payload])
        } else {
            #expect(elsewhere.isEmpty, "\(symbology) read as \(elsewhere.map(\.symbology))")
        }
    }

    @Test func askingForOneSymbologyFindsOnlyThatOne() throws {
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

    /// zxing-cpp 1.4.0 abort()ed on some 1080p multi-code frames (its upstream issue 740); this one held 12 codes.
    @Test func multiCode1080pFrameDecodes() throws {
        let renderer = try SceneRenderer(scene: ScenePreset.still1080.scene)
        let expected = renderer.groundTruth().items.filter { $0.kind == "barcode" }.compactMap(\.payload)
        #expect(expected.count >= 10)
        let found = try ZXingBarcodeDetector().detect(in: frame(renderer.render(frame: 0)))
        let decoded = Set(found.compactMap(\.payloadStringValue)).intersection(expected)
        #expect(decoded.count >= expected.count - 1, "decoded \(decoded.count) of \(expected.count)")
    }

    /// The DataBar photo on which zxing-cpp 1.4.0 failed an assertion and abort()ed (`Result::operator==`, its
    /// upstream issue 740; CBridge used to catch the abort with a SIGABRT handler). 3.1 simply reads it, as the GS1
    /// element string (AI 01 and the GTIN), and reading leaves the process's SIGABRT disposition alone: whatever
    /// handler there is (the Swift runtime's backtracer, say) is not in this executable, where CBridge is linked.
    @Test func theDataBarPhotoThatAborted14ReadsAndNoSignalHandlerIsInstalled() throws {
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Fixtures/databar-assert-abort.webp")
        let frame = Frame(image: try FrameImage(contentsOf: fixture.path), index: 0, time: 0)
        let found = try ZXingBarcodeDetector().detect(in: frame)
        #expect(found.map(\.symbology) == [.databar])
        #expect(found.first?.payloadStringValue == "0102001234567893")
        #expect(found.first?.symbologyIdentifier == "]e0")

        var action = sigaction()
        #expect(sigaction(SIGABRT, nil, &action) == 0)
        let handler = UInt(bitPattern: unsafeBitCast(action.__sigaction_handler.sa_handler, to: UnsafeRawPointer?.self))
        if handler > 1 {  // neither SIG_DFL nor SIG_IGN
            let handlerImage = try mappedFile(containing: handler)
            let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
            #expect(handlerImage != executable, "a SIGABRT handler of this executable's is installed")
        }
    }

    /// A UPC-E photo whose bars zxing-cpp 3.1.1 reads two ways: 01264904 on 10 scan lines, and 14761809, its
    /// checksum passing, on 2 lines across the same bars. One printed code has one payload: the reading of most
    /// lines stands, the outvoted one is not reported (zxing-cpp alone reports both). `fast` (no tryHarder) scans
    /// too few lines to read the label's at all, so there is nothing there to outvote its one misread.
    @Test func theSameBarsReadTwoWaysGiveTheReadingOfMostLines() throws {
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Fixtures/upce-outvoted.png")
        let frame = Frame(image: try FrameImage(contentsOf: fixture.path), index: 0, time: 0)
        for quality in [QualityLevel.balanced, .accurate] {
            let found = try ZXingBarcodeDetector(options: quality.barcodeOptions(symbologies: [.upce])).detect(in: frame)
            #expect(found.map(\.payloadStringValue) == ["01264904"], "at \(quality)")
        }
    }

    /// An EAN-13 photo whose bars zxing-cpp 3.1.1 reads two ways on about as many scan lines: 5030159003930 on 5
    /// lines spread over its bars, and 7034759003930, its checksum passing, on 4 adjacent lines at the bars'
    /// blurred end. Line counts this close decide nothing; read band by band across the bars' height, the bars
    /// carry the printed code, and only it is reported (zxing-cpp alone reports both).
    @Test func theSameBarsReadTwoWaysOnAsManyLinesGiveTheReadingOfMostOfTheirHeight() throws {
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Fixtures/ean13-two-readings.webp")
        let frame = Frame(image: try FrameImage(contentsOf: fixture.path), index: 0, time: 0)
        for quality in [QualityLevel.balanced, .accurate] {
            let found = try ZXingBarcodeDetector(options: quality.barcodeOptions(symbologies: [.ean13])).detect(in: frame)
            #expect(found.map(\.payloadStringValue) == ["5030159003930"], "at \(quality)")
        }
    }

    /// The file mapped at `address` in this process (/proc/self/maps), nil for an anonymous mapping.
    private func mappedFile(containing address: UInt) throws -> String? {
        // Not String(contentsOfFile:): /proc files have size 0, and Foundation would read nothing.
        let maps = try FileHandle(forReadingFrom: URL(fileURLWithPath: "/proc/self/maps")).readToEnd() ?? Data()
        for line in String(decoding: maps, as: UTF8.self).split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            let range = fields.first?.split(separator: "-").compactMap { UInt($0, radix: 16) } ?? []
            if range.count == 2, address >= range[0], address < range[1] {
                return fields.count > 5 ? fields[5...].joined(separator: " ") : nil
            }
        }
        return nil
    }

    /// zxing-cpp 1.4 found at most one Data Matrix or Aztec symbol in an image; 3.1 finds every one.
    @Test(arguments: [SceneSymbology.datamatrix, .aztec])
    func twoMatrixSymbolsOfOneKindInAFrameBothDecode(symbology: SceneSymbology) throws {
        let scene = Scene(name: "two-\(symbology.rawValue)", width: 640, height: 360, items: [
            .barcode("a", symbology, "FIRST \(symbology.rawValue) 1", moduleSize: 6, at: ScenePoint(x: 170, y: 180)),
            .barcode("b", symbology, "SECOND \(symbology.rawValue) 2", moduleSize: 6, at: ScenePoint(x: 470, y: 180)),
        ])
        let found = try ZXingBarcodeDetector().detect(in: frame(try SceneRenderer(scene: scene).render(frame: 0)))
        #expect(Set(found.compactMap(\.payloadStringValue)) == [
            "FIRST \(symbology.rawValue) 1", "SECOND \(symbology.rawValue) 2"])
        #expect(found.count == 2)
    }

    /// An EAN-13 with a 5-digit add-on (the price of a book: USD 24.95) is one barcode: the 13 digits, then the
    /// add-on's, symbology identifier ]E3.
    @Test func anEAN13WithItsFiveDigitAddOnDecodesWithIt() throws {
        let (picture, addOnStart) = try Self.bookCode(moduleSize: 3)
        let found = try ZXingBarcodeDetector().detect(in: frame(picture))
        #expect(found.map(\.symbology) == [.ean13])
        #expect(found.map(\.payloadStringValue) == ["978054466825652495"])
        #expect(found.first?.symbologyIdentifier == "]E3")
        // The add-on is part of the barcode's place.
        #expect((found.first?.bounds.corners.map(\.x).max() ?? 0) > Double(addOnStart))
    }

    /// An add-on whose bars are the lower third of the main ones, as printed under its digits: zxing-cpp reads the
    /// code twice, alone on the rows that miss the add-on and with it on those that cross it. It is one code, with
    /// its add-on (`dropPartialReads`, CBridge's BarHeight.cpp).
    @Test func anAddOnShorterThanTheMainBarsIsReadWithIt() throws {
        let (picture, _) = try Self.bookCode(moduleSize: 3, addOnHeight: 0.35)
        let found = try ZXingBarcodeDetector().detect(in: frame(picture))
        #expect(found.map(\.payloadStringValue) == ["978054466825652495"])
        // The code alone, the add-on cut off: no add-on is made up.
        let cropped = RenderedFrame(width: picture.width, height: picture.height,
                                    pixels: picture.pixels.enumerated().map { index, value in
                                        (index / 3) % picture.width > picture.width - 80 ? 255 : value
                                    })
        #expect(try ZXingBarcodeDetector().detect(in: frame(cropped)).map(\.payloadStringValue) == ["9780544668256"])
    }

    /// A book's EAN-13 with its EAN-5 add-on (52495: USD 24.95), and the column where the add-on starts. zxing-cpp's
    /// writer cannot write add-ons: its bars are drawn here, 9 modules after the main symbol's last bar (the
    /// standard asks for 7 to 12), as tall as the main bars or, as printed under the add-on's digits, only their
    /// lower `addOnHeight` share.
    static func bookCode(moduleSize: Int, addOnHeight: Double = 1) throws -> (picture: RenderedFrame, addOnStart: Int) {
        let still = try SceneRenderer.still(symbology: .ean13, payload: "9780544668256", moduleSize: Double(moduleSize),
                                            barHeight: 30 * Double(moduleSize), margin: 0)
        // A wider picture: the EAN-13 still (quiet zones included) on the left, the add-on right of it.
        let addOn = ean5Modules("52495")
        let (oldWidth, height) = (still.frame.width, still.frame.height)
        let width = oldWidth + (addOn.count + 10) * moduleSize
        var pixels = [UInt8](repeating: 255, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<oldWidth * 3 {
                pixels[(y * width) * 3 + x] = still.frame.pixels[(y * oldWidth) * 3 + x]
            }
        }
        let box = still.bounds.boundingBox
        let start = Int(box.maxX.rounded()) + 9 * moduleSize
        let addOnTop = box.maxY - (box.maxY - box.minY) * addOnHeight
        for (index, isBar) in addOn.enumerated() where isBar {
            for y in Int(addOnTop.rounded())..<Int(box.maxY.rounded()) {
                for x in (start + index * moduleSize)..<(start + (index + 1) * moduleSize) {
                    for channel in 0..<3 {
                        pixels[(y * width + x) * 3 + channel] = 20
                    }
                }
            }
        }
        return (RenderedFrame(width: width, height: height, pixels: pixels), start)
    }

    /// The modules of an EAN-5 add-on, true = bar: start guard 1011, then each digit as 7 modules in the L or
    /// G set that the checksum picks, with 01 between digits (GS1 General Specifications 5.2.2.6).
    private static func ean5Modules(_ digits: String) -> [Bool] {
        let values = digits.compactMap(\.wholeNumberValue)
        let left = ["0001101", "0011001", "0010011", "0111101", "0100011", "0110001", "0101111", "0111011",
                    "0110111", "0001011"]
        let even = ["0100111", "0110011", "0011011", "0100001", "0011101", "0111001", "0000101", "0010001",
                    "0001001", "0010111"]
        // Digits 1, 3, 5 weigh 3, digits 2, 4 weigh 9; per checksum, G (1) or L (0) for each digit, first first.
        let parities = [0b11000, 0b10100, 0b10010, 0b10001, 0b01100, 0b00110, 0b00011, 0b01010, 0b01001, 0b00101]
        let checksum = (3 * (values[0] + values[2] + values[4]) + 9 * (values[1] + values[3])) % 10
        var modules = "1011"
        for (position, value) in values.enumerated() {
            if position > 0 {
                modules += "01"
            }
            let isEven = parities[checksum] & (1 << (4 - position)) != 0
            modules += isEven ? even[value] : left[value]
        }
        return modules.map { $0 == "1" }
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
        #expect(parts.map { $0.structuredAppend?.index }.sorted { ($0 ?? -1) < ($1 ?? -1) } == [0, 1])
        #expect(parts.allSatisfy { $0.structuredAppend?.count == 3 })
        #expect(Set(parts.compactMap(\.structuredAppend?.sequenceID)).count == 1, "one sequence")
        #expect(merged.first?.structuredAppend == nil, "a merged sequence is no part")
    }

    /// The same sequence printed on two pictures, its first two symbols on one and the third on the other: a scan
    /// of the two reports the parts of the first as they are, then, once the third is seen, the whole message.
    @Test func aStructuredAppendSequenceSpreadOverTwoPicturesIsPutTogether() throws {
        let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("livescan-sequence-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.copyItem(at: fixtures.appendingPathComponent("structured-append-2of3.png"),
                                         to: folder.appendingPathComponent("1.png"))
        try FileManager.default.copyItem(at: fixtures.appendingPathComponent("structured-append-3rd.png"),
                                         to: folder.appendingPathComponent("2.png"))
        let values = try valuesAdded(scanning: folder.path, for: [.barcode()], recognizesMultipleItems: true)
        #expect(values == [
            "LiveScan structured append: this mess", "age is split across three QR symbols,",
            "LiveScan structured append: this message is split across three QR symbols, read in order, "
                + "joined into one item.",
        ])
        // The third symbol alone is one part of three, not a message.
        let third = try FrameImage(contentsOf: fixtures.appendingPathComponent("structured-append-3rd.png").path)
        let alone = try ZXingBarcodeDetector().detect(in: Frame(image: third, index: 0, time: 0))
        #expect(alone.map(\.payloadStringValue) == [" read in order, joined into one item."])
    }

    /// Three zxing phone photos that zxing-cpp 3.1 cannot read as they are: a QR code that reads once halved, and a
    /// small QR code and a PDF417 at 2 pixels a module, too fine until doubled and binarised globally. (Those of
    /// 1.4's days, a noisy photo and another small one, 3.1 reads plainly or not at all.)
    @Test(arguments: [
        ("qr-halved-photo.webp", "http://www.webtech.co.jp/k/", 339.0, 233.0),
        ("qr-fine-modules.webp", "Google Print Ads - T.G.I.A.F. - January 31, 2008", 240.0, 240.0),
        ("pdf417-fine-modules.png", "A larger PDF 417 barcode with a greater amount of text. This is a more difficult "
            + "test for mobile devices to resolve.", 480.0, 240.0),
    ])
    func matrixSecondChancesReadWhatThePlainReadMisses(fixture: String, payload: String, width: Double,
                                                       height: Double) throws {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Fixtures").appendingPathComponent(fixture).path
        let frame = Frame(image: try FrameImage(contentsOf: path), index: 0, time: 0)
        let balanced = try ZXingBarcodeDetector(options: QualityLevel.balanced.barcodeOptions(symbologies: []))
            .detect(in: frame)
        #expect(balanced.map(\.payloadData) == [Data(payload.utf8)])
        let corners = try #require(balanced.first?.bounds.corners)
        #expect(corners.allSatisfy { $0.x >= 0 && $0.x <= width && $0.y >= 0 && $0.y <= height }, "\(corners)")
        // The fast level keeps to one plain read: no second chances.
        let fast = try ZXingBarcodeDetector(options: QualityLevel.fast.barcodeOptions(symbologies: [])).detect(in: frame)
        #expect(fast.isEmpty)
    }

    /// A QR code photographed in dim light: its modules differ by 20 grey levels, fewer than zxing-cpp's local
    /// binariser takes for an edge (24), so no read of the picture as it is finds it. A still image at `balanced`
    /// is also read contrast-equalised, and that read finds it where it is.
    @Test func aDimQRCodeIsReadContrastEqualised() throws {
        let still = try SceneRenderer.still(symbology: .qr, payload: "https://example.com/dim/42", moduleSize: 4)
        let (paper, ink) = (70.0, 50.0)
        let dim = RenderedFrame(width: still.frame.width, height: still.frame.height,
                                pixels: still.frame.pixels.map { UInt8(ink + Double($0) / 255 * (paper - ink)) })
        var options = QualityLevel.balanced.barcodeOptions(symbologies: [], stillImages: true)
        #expect(options.triesEqualised)
        let found = try ZXingBarcodeDetector(options: options).detect(in: frame(dim))
        #expect(found.map(\.payloadStringValue) == ["https://example.com/dim/42"])
        let read = try #require(found.first).bounds
        #expect(read.intersectionOverUnion(bounds(still.bounds)) > 0.8, "\(read) against \(still.bounds)")
        options.triesEqualised = false
        #expect(try ZXingBarcodeDetector(options: options).detect(in: frame(dim)).isEmpty)
    }

    /// A region read is a video's change-gated read of what changed: it gives 2-D codes no second chances, which the
    /// frame's whole reads (every `barcodeWholeReadInterval` frames) give. A QR photo that reads only halved, pasted
    /// into a 1280 x 720 frame, is read by a whole read of the frame and not by a read of a region around it (on the
    /// bench video the region reads' second chances cost 0.15-0.17 s of CPU a minute and read nothing).
    @Test func aRegionReadLeavesSecondChancesToTheWholeRead() throws {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Fixtures").appendingPathComponent("qr-halved-photo.webp").path
        let photo = try FrameImage(contentsOf: path)
        let detector = ZXingBarcodeDetector(options: QualityLevel.balanced.barcodeOptions(symbologies: []))
        let alone = Frame(image: photo, index: 0, time: 0)
        #expect(try detector.detect(in: alone).map(\.payloadStringValue) == ["http://www.webtech.co.jp/k/"])

        let (width, height, left, top) = (1280, 720, 400, 240)
        let photoGray = try photo.grayPixels()
        var canvas = [UInt8](repeating: 255, count: width * height)
        for y in 0..<photo.height {
            for x in 0..<photo.width {
                canvas[(top + y) * width + left + x] = photoGray[y * photo.width + x]
            }
        }
        let frame = Frame(image: try FrameImage(pixels: canvas, width: width, height: height, channels: 1), index: 0,
                          time: 0)
        #expect(try detector.detect(in: frame, region: nil).map(\.payloadStringValue) == ["http://www.webtech.co.jp/k/"])
        let region = PixelRect(x: left - 16, y: top - 16, width: photo.width + 32, height: photo.height + 32)
        #expect(try detector.detect(in: frame, region: region).isEmpty)
    }

    /// A region of a video frame is read along the lines zxing-cpp scans across the whole frame (every row and every
    /// other column of a 720p frame, every other row and every third column of a 1080p one), not along every line
    /// of the region. Codes upright (read along rows) and on end (along columns: a Code 128, a book's EAN-13 with
    /// its EAN-5 add-on) read in a region of the frame as in the whole frame: the same text, their bounds on the
    /// same bars.
    @Test(arguments: [(1280, 720), (1920, 1080)])
    func aRegionOfAFrameIsReadAlongTheFramesLines(width: Int, height: Int) throws {
        let upright = try SceneRenderer.still(symbology: .code128, payload: "UPRIGHT-128", moduleSize: 2, barHeight: 50)
            .frame
        let onEnd = try SceneRenderer.still(symbology: .code128, payload: "ON-END-128", moduleSize: 2, barHeight: 50,
                                            rotation: 90).frame
        let book = try BarcodeBridgeTests.bookCode(moduleSize: 2).picture.turned(by: 90)
        var canvas = [UInt8](repeating: 255, count: width * height)
        let placed = [(upright, 150, 450), (onEnd, 200, 60), (book, 700, 150)]
        for (picture, left, top) in placed {
            for y in 0..<picture.height {
                for x in 0..<picture.width {
                    canvas[(top + y) * width + left + x] = picture.pixels[(y * picture.width + x) * 3]
                }
            }
        }
        let frame = Frame(image: try FrameImage(pixels: canvas, width: width, height: height, channels: 1), index: 0,
                          time: 0)
        let detector = ZXingBarcodeDetector(options: QualityLevel.balanced.barcodeOptions(symbologies: []))
        let whole = try detector.detect(in: frame, region: nil)
        #expect(Set(whole.compactMap(\.payloadStringValue)) == ["UPRIGHT-128", "ON-END-128", "978054466825652495"])
        for (picture, left, top) in placed {
            let region = PixelRect(x: left - 16, y: top - 16, width: picture.width + 32, height: picture.height + 32)
            let inRegion = try detector.detect(in: frame, region: region)
            let centre = Point(x: Double(left) + Double(picture.width) / 2, y: Double(top) + Double(picture.height) / 2)
            let expected = try #require(whole.min {
                $0.bounds.center.distance(to: centre) < $1.bounds.center.distance(to: centre)
            })
            #expect(inRegion.map(\.payloadStringValue) == [expected.payloadStringValue])
            let read = try #require(inRegion.first).bounds
            #expect(read.intersectionOverUnion(expected.bounds) > 0.9, "\(read) against \(expected.bounds)")
        }
    }

    /// What a read of a region does is the caller's to say (`CB_BarcodeOptions.try_second_chances`,
    /// `along_picture_lines`), not implied by the region: in a 1280 x 720 frame, a QR photo that reads only halved
    /// is read in a region around it given second chances, and not by a whole read given none; a Code 128 on end,
    /// read along columns, is read in a region around it on the frame's every other column, as the whole read reads
    /// it, or on every column of the region when the lines are the region's own: about twice as many lines read it.
    @Test func aRegionReadDoesWhatItsOptionsSay() throws {
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Fixtures").appendingPathComponent("qr-halved-photo.webp").path
        let photo = try FrameImage(contentsOf: fixture)
        let photoGray = try photo.grayPixels()
        let onEnd = try SceneRenderer.still(symbology: .code128, payload: "ON-END-128", moduleSize: 2, barHeight: 50,
                                            rotation: 90).frame
        let (width, height) = (1280, 720)
        var canvas = [UInt8](repeating: 255, count: width * height)
        let (photoLeft, photoTop, codeLeft, codeTop) = (400, 240, 900, 100)
        for y in 0..<photo.height {
            for x in 0..<photo.width {
                canvas[(photoTop + y) * width + photoLeft + x] = photoGray[y * photo.width + x]
            }
        }
        for y in 0..<onEnd.height {
            for x in 0..<onEnd.width {
                canvas[(codeTop + y) * width + codeLeft + x] = onEnd.pixels[(y * onEnd.width + x) * 3]
            }
        }
        let image = try FrameImage(pixels: canvas, width: width, height: height, channels: 1)
        let qr = "http://www.webtech.co.jp/k/"

        let aroundPhoto = PixelRect(x: photoLeft - 16, y: photoTop - 16, width: photo.width + 32,
                                    height: photo.height + 32)
        let inRegion = readThroughCAPI(image, region: aroundPhoto, secondChances: true, alongPictureLines: true)
        #expect(inRegion.status == 0 && inRegion.reads.map(\.text) == [qr])
        let wholeWithout = readThroughCAPI(image, region: nil, secondChances: false, alongPictureLines: false)
        #expect(wholeWithout.status == 0 && wholeWithout.reads.map(\.text) == ["ON-END-128"])

        let whole = try #require(wholeWithout.reads.first)
        let aroundCode = PixelRect(x: codeLeft - 16, y: codeTop - 16, width: onEnd.width + 32, height: onEnd.height + 32)
        let alongFramesLines = readThroughCAPI(image, region: aroundCode, secondChances: false, alongPictureLines: true)
        let alongOwnLines = readThroughCAPI(image, region: aroundCode, secondChances: false, alongPictureLines: false)
        #expect(alongFramesLines.reads.map(\.text) == ["ON-END-128"])
        #expect(alongOwnLines.reads.map(\.text) == ["ON-END-128"])
        let framesLines = try #require(alongFramesLines.reads.first).lineCount
        let ownLines = try #require(alongOwnLines.reads.first).lineCount
        // Not the very same count: zxing-cpp's binariser lays its 8 x 8 blocks from the corner of what it reads,
        // and the region's (884, 84) is not on the frame's grid (here 25 lines against 27; the region's own, 50).
        #expect(abs(Double(framesLines) / Double(whole.lineCount) - 1) < 0.15,
                "\(framesLines) lines, the whole read's \(whole.lineCount)")
        #expect(Double(ownLines) > 1.7 * Double(framesLines), "\(ownLines) lines against \(framesLines)")
    }

    /// A 4000-pixel-wide still of a QR code at 2 pixels a module: the 1920-pixel frame budget would leave under a
    /// pixel a module; a scan of the image reads it at its full size.
    @Test func aLargeStillIsReadAtItsFullSize() throws {
        let code = SceneItem.barcode("qr", .qr, "FULL SIZE", moduleSize: 2, at: ScenePoint(x: 3000, y: 300))
        let picture = try frame(SceneRenderer(scene: Scene(name: "wide", width: 4000, height: 600, items: [code]))
            .render(frame: 0))
        let asFrame = QualityLevel.balanced.barcodeOptions(symbologies: [.qr])
        #expect(try ZXingBarcodeDetector(options: asFrame).detect(in: picture).isEmpty)
        let asStill = QualityLevel.balanced.barcodeOptions(symbologies: [.qr], stillImages: true)
        #expect(try ZXingBarcodeDetector(options: asStill).detect(in: picture).map(\.payloadStringValue) == ["FULL SIZE"])

        // The scanner reads an image file as a still.
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("livescan-wide-\(UUID()).png").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try picture.bridgeImage().write(to: path)
        #expect(try valuesAdded(scanning: path, for: [.barcode(symbologies: [.qr])]) == ["FULL SIZE"])
    }

    /// zxing-cpp reports only symbols it decoded (CBridge leaves returnErrors off); OpenCV's locator finds the others.
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

    /// A light-on-dark QR code is read with `triesInverted` (zxing-cpp's tryInvert), and only with it.
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

/// Linear codes turned away from rows and columns (`BarcodeDetectorOptions.readsAnyAngle`, CBridge's
/// TurnedLinear.cpp): hand-held photos hold them at 20-70 degrees, where no row crosses all their bars.
@Suite struct TurnedLinearCodeTests {
    static let turned: [(SceneSymbology, Symbology, String, Double)] = [
        (.code128, .code128, "PARCEL-0042-XY", 35),
        (.code128, .code128, "PARCEL-0042-XY", 60),
        (.ean13, .ean13, "4006381333931", 35),
        (.ean13, .ean13, "4006381333931", -60),
        // The shortest Code 128 (start, one symbol, check, stop: 25 bars and spaces, 26 edges): a cut is read only
        // when a line across it crosses 20 edges, and this one must still be.
        (.code128, .code128, "7", 35),
    ]

    static func anyAngle() -> ZXingBarcodeDetector {
        var options = BarcodeDetectorOptions()
        options.readsAnyAngle = true
        return ZXingBarcodeDetector(options: options)
    }

    @Test(arguments: 0..<turned.count)
    func aTurnedLinearCodeIsReadAndItsBoundsCoverItsBars(index: Int) throws {
        let (sceneSymbology, symbology, payload, degrees) = Self.turned[index]
        let still = try SceneRenderer.still(symbology: sceneSymbology, payload: payload, moduleSize: 3, barHeight: 60,
                                            rotation: degrees)
        // Rows and columns alone (tryHarder, tryRotate) do not read it: the test is of the turned read.
        #expect(try ZXingBarcodeDetector().detect(in: frame(still.frame)).isEmpty)
        let found = try Self.anyAngle().detect(in: frame(still.frame))
        #expect(found.map(\.symbology) == [symbology])
        #expect(found.map(\.payloadStringValue) == [payload])
        // The bounds are the bars, turned as they are: not a thin scan line, not an upright box around them.
        let truth = bounds(still.bounds)
        let read = try #require(found.first).bounds
        #expect(read.intersectionOverUnion(truth) > 0.7, "\(read) against \(truth)")
        let side = read.topLeft.distance(to: read.topRight)
        let edgeAngle = atan2(read.topRight.y - read.topLeft.y, read.topRight.x - read.topLeft.x) * 180 / .pi
        let turn = abs(remainder(edgeAngle - degrees, 180))
        #expect(turn < 3, "bounds turned by \(edgeAngle) degrees, the code by \(degrees)")
        #expect(side > truth.topLeft.distance(to: truth.topRight) * 0.8)
    }

    /// A turned code whose bars reach the picture's edge (a tight crop, a phone photo filled by its label) is still
    /// read: the search passes over candidates cut off at an end by the edge of a region read inside a frame
    /// (TurnedLinear.cpp's `endsAtCut`: their code goes on beyond it), not by the picture's own edge. Passing over
    /// those too lost 11 of quagga2's 48 phone photos of 1-D codes.
    @Test(arguments: [(SceneSymbology.code128, "PARCEL-0042-XY"), (.ean13, "4006381333931")])
    func aTurnedCodeAtThePicturesEdgeIsRead(code: (SceneSymbology, String)) throws {
        let still = try SceneRenderer.still(symbology: code.0, payload: code.1, moduleSize: 3, barHeight: 60,
                                            rotation: 35)
        let leftmostBar = [still.bounds.topLeft, still.bounds.topRight, still.bounds.bottomRight,
                           still.bounds.bottomLeft].map(\.x).min() ?? 0
        let tight = still.frame.cut(fromColumn: Int(leftmostBar.rounded(.down)))
        #expect(try ZXingBarcodeDetector().detect(in: frame(tight)).isEmpty)
        let found = try Self.anyAngle().detect(in: frame(tight))
        #expect(found.map(\.payloadStringValue) == [code.1])
    }

    /// A vehicle's VIN label: a Code 39 of 17 characters at 1.8 to 2.5 px a module, turned. Its bars and spaces,
    /// 1 or 3 modules, are 2 to 8 px wide: measured in whole pixels, a narrow one can read as a wide one. A cut
    /// that reads nothing is read again enlarged (3.5 px a module); without that, none of these six was read.
    @Test(arguments: [1.8, 2.0, 2.5], [25.0, 60.0])
    func aTurnedCode39OfNarrowModulesIsReadEnlarged(moduleSize: Double, degrees: Double) throws {
        let still = try SceneRenderer.still(symbology: .code39, payload: "JM1BK32G071773697", moduleSize: moduleSize,
                                            barHeight: 50, rotation: degrees)
        let found = try Self.anyAngle().detect(in: frame(still.frame))
        #expect(found.map(\.symbology) == [.code39])
        #expect(found.map(\.payloadStringValue) == ["JM1BK32G071773697"])
        let truth = bounds(still.bounds)
        let read = try #require(found.first).bounds
        #expect(read.intersectionOverUnion(truth) > 0.5, "\(read) against \(truth)")
    }

    /// A book's EAN-13 turned 35 degrees is read with its EAN-5 add-on: the add-on's bars, a candidate of their own
    /// past the main symbol's quiet zone, are joined to it and cut upright with it.
    @Test(arguments: [2, 3])
    func aTurnedEAN13IsReadWithItsAddOn(moduleSize: Int) throws {
        let turned = try BarcodeBridgeTests.bookCode(moduleSize: moduleSize).picture.turned(by: 35)
        let found = try Self.anyAngle().detect(in: frame(turned))
        #expect(found.map(\.payloadStringValue) == ["978054466825652495"])
        #expect(found.first?.symbologyIdentifier == "]E3")
    }

    /// The same through the C boundary itself: status, count, text, quad and the array's release.
    @Test func aTurnedCode128IsReadThroughTheCAPI() throws {
        let still = try SceneRenderer.still(symbology: .code128, payload: "C-API 35", moduleSize: 3, barHeight: 60,
                                            rotation: 35)
        let read = try readThroughCAPI(still.frame, anyAngle: true)
        #expect(read.status == 0)
        #expect(read.texts == ["C-API 35"])
        #expect(read.symbologies == [.code128])
        let plain = try readThroughCAPI(still.frame, anyAngle: false)
        #expect(plain.status == 0 && plain.texts.isEmpty)
    }

    /// Images too thin to hold a turned code are read, not failed (the search reduced them to a side of 0 pixels).
    @Test func veryThinImagesAreReadWithTheSearch() throws {
        for (width, height) in [(1, 5000), (5000, 3), (20, 20)] {
            let thin = Frame(image: try FrameImage(pixels: [UInt8](repeating: 255, count: width * height),
                                                   width: width, height: height, channels: 1), index: 0, time: 0)
            #expect(try Self.anyAngle().detect(in: thin).isEmpty)
        }
    }

    /// Noise, and stripes turned at many angles (coherent gradients, as bars have: they become candidates), hold
    /// no code: nothing is reported.
    @Test func noiseAndStripesGiveNoFalseCode() throws {
        let width = 960, height = 720
        var generator = SplitMix(seed: 14)
        var pixels = [UInt8](repeating: 0, count: width * height)
        for y in 0..<height {
            for x in 0..<width {
                let block = (x / 160) + 6 * (y / 180)
                let angle = Double(block) * 0.7
                let along = Double(x) * cos(angle) + Double(y) * sin(angle)
                // A varying pitch, as wood grain or a fabric has, plus grain noise.
                let stripe = sin(along * (0.4 + 0.05 * Double(block % 7)) + sin(along * 0.03) * 3)
                let noise = Double(generator.next() % 64) - 32
                let value = block % 4 == 3 ? 128 + noise * 3 : 128 + stripe * 90 + noise
                pixels[y * width + x] = UInt8(max(0, min(255, value)))
            }
        }
        let image = try FrameImage(pixels: pixels, width: width, height: height, channels: 1)
        let found = try Self.anyAngle().detect(in: Frame(image: image, index: 0, time: 0))
        #expect(found.isEmpty, "\(found.map { "\($0.symbology) \($0.payloadStringValue ?? "")" })")
    }
}

/// A small deterministic generator (SplitMix64), so the test image is the same on every run.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
