import Foundation
import Testing
import LiveScan
import LiveScanScenes

/// Telepen and DX film edge, read from zxing-cpp's own samples (the legacy writer LiveScan builds cannot make them):
/// each is read when named, and only then. Every symbology (an empty set: CB_Barcode_read's formats 0,
/// `RecognizedDataType.barcode(symbologies: [])`) leaves them out (`Symbology.isReadByDefault`, CB_FORMAT_DEFAULT).
@Suite struct OptInSymbologyTests {
    static let samples: [(fixture: String, symbology: Symbology, payload: String, identifier: String)] = [
        ("telepen-alpha.png", .telepen, "TELEPEN", "]B0"),       // full ASCII
        ("telepen-numeric.png", .telepen, "01234567", "]B1"),    // digit pairs, one codeword each
        // A valid DX code with a frame number beside an invalid one (its parity is wrong): only the first reads.
        ("dxfilmedge-frame-number.png", .dxfilmedge, "80-11/23", "]XF"),
        ("dxfilmedge.webp", .dxfilmedge, "10-3", "]XF"),         // no frame number, turned 180 degrees
    ]

    static func fixture(_ name: String) throws -> Frame {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Fixtures").appendingPathComponent(name).path
        return Frame(image: try FrameImage(contentsOf: path), index: 0, time: 0)
    }

    @Test(arguments: 0..<samples.count)
    func anOptInSymbologyIsReadWhenNamedAndOnlyThen(index: Int) throws {
        let sample = Self.samples[index]
        let image = try Self.fixture(sample.fixture)
        let named = ZXingBarcodeDetector(options: BarcodeDetectorOptions(symbologies: [sample.symbology]))
        let found = try named.detect(in: image)
        #expect(found.map(\.symbology) == [sample.symbology])
        #expect(found.map(\.payloadStringValue) == [sample.payload])
        #expect(found.first?.payloadData == Data(sample.payload.utf8))
        #expect(found.first?.symbologyIdentifier == sample.identifier)
        // Every symbology asked for as an empty set (formats 0), at each quality level: nothing.
        #expect(try ZXingBarcodeDetector().detect(in: image).isEmpty)
        for quality in QualityLevel.allCases {
            let every = quality.barcodeOptions(symbologies: [], stillImages: true)
            #expect(try ZXingBarcodeDetector(options: every).detect(in: image).isEmpty, "\(quality)")
        }
        // Every other symbology named, the other opt-in one too: nothing either.
        let others = ZXingBarcodeDetector(options: BarcodeDetectorOptions(
            symbologies: Set(Symbology.allCases).subtracting([sample.symbology])))
        #expect(try others.detect(in: image).isEmpty)
    }

    /// Telepen is a linear code (bars the same all along their height, a checksum): named, it is also read turned,
    /// by the any-angle search. (DX film edge is not: its two tracks differ.)
    @Test func aTurnedTelepenIsReadByTheAnyAngleSearch() throws {
        let image = try Self.fixture("telepen-numeric.png").image
        let grey = try image.grayPixels()
        let margin = 60
        let (width, height) = (image.width + 2 * margin, image.height + 2 * margin)
        var pixels = [UInt8](repeating: 255, count: width * height * 3)
        for y in 0..<image.height {
            for x in 0..<image.width {
                let value = grey[y * image.width + x]
                for channel in 0..<3 {
                    pixels[((y + margin) * width + x + margin) * 3 + channel] = value
                }
            }
        }
        let turned = try frame(RenderedFrame(width: width, height: height, pixels: pixels).turned(by: 35))
        var options = BarcodeDetectorOptions(symbologies: [.telepen])
        #expect(try ZXingBarcodeDetector(options: options).detect(in: turned).isEmpty)
        options.readsAnyAngle = true
        let found = try ZXingBarcodeDetector(options: options).detect(in: turned)
        #expect(found.map(\.payloadStringValue) == ["01234567"])
        #expect(found.map(\.symbology) == [.telepen])
    }

    @Test func everySymbologyIsAllButTheOptInOnes() {
        #expect(Symbology.allCases.filter { !$0.isReadByDefault } == [.telepen, .dxfilmedge])
        #expect(Symbology.readByDefault == Symbology.allCases.filter { $0 != .telepen && $0 != .dxfilmedge })
        #expect(!Symbology.telepen.isTwoDimensional && !Symbology.dxfilmedge.isTwoDimensional)
        #expect(Symbology(name: "Telepen") == .telepen && Symbology(name: "DXFilmEdge") == .dxfilmedge)
    }

    /// The scanner: `.barcode()` (every symbology) adds no item for a Telepen symbol; `.barcode(symbologies:
    /// [.telepen])` adds it.
    @Test func theScannerReadsTelepenOnlyWhenItIsNamed() throws {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Fixtures/telepen-alpha.png").path
        #expect(try valuesAdded(scanning: path, for: [.barcode()]).isEmpty)
        #expect(try valuesAdded(scanning: path, for: [.barcode(symbologies: [.telepen])]) == ["TELEPEN"])
        let everyOneAndTelepen = Symbology.readByDefault + [.telepen]
        #expect(try valuesAdded(scanning: path, for: [.barcode(symbologies: everyOneAndTelepen)]) == ["TELEPEN"])
    }
}
