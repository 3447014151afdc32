import Foundation
internal import CBridge

/// LiveScan's symbologies, read by zxing-cpp 3.1 through `ZXing::ReadBarcodes` (`CB_Barcode_read`).
public struct ZXingBarcodeDetector: RegionBarcodeDetector {
    public let options: BarcodeDetectorOptions

    public init(options: BarcodeDetectorOptions = BarcodeDetectorOptions()) {
        self.options = options
    }

    public func detect(in frame: Frame) throws -> [Observation] {
        try detect(in: frame, region: nil)
    }

    /// A read of part of a frame is a video's change-gated read of what changed (`ChangeGatedBarcodeReader`), between
    /// whole reads of its frames, and is read as such: its linear codes along the rows and columns a whole read of
    /// the frame scans (`CB_BarcodeOptions.along_picture_lines`), so a code keeps its lines and its bounds whichever
    /// region holds it; its 2-D codes without the second chances (`try_second_chances`) the whole reads give them,
    /// which cost the bench video's region reads 0.15-0.17 s of CPU a minute and read nothing there. A region that
    /// holds the whole frame (or is empty, which CBridge reads as the whole frame) is a whole read.
    public func detect(in frame: Frame, region: PixelRect?) throws -> [Observation] {
        var raw = CB_BarcodeOptions()
        raw.formats = Int32(options.symbologies.reduce(0) { $0 | $1.formatFlag.rawValue })
        raw.try_harder = options.tryHarder ? 1 : 0
        raw.try_second_chances = options.tryHarder ? 1 : 0
        if let region, Self.isPart(region, of: frame) {
            raw.region = CB_Rect(region)
            raw.along_picture_lines = 1
            raw.try_second_chances = 0
        }
        raw.try_rotate = options.tryRotate ? 1 : 0
        raw.max_dimension = Int32(options.maxDimension)
        raw.try_downscale = options.triesDownscaled ? 1 : 0
        raw.try_inverted = options.triesInverted ? 1 : 0
        raw.try_any_angle = options.readsAnyAngle ? 1 : 0
        raw.try_equalised = options.triesEqualised ? 1 : 0
        var barcodes: UnsafeMutablePointer<CB_Barcode>?
        var count = 0
        try frame.withBridgeImage { pixels in
            try check(CB_Barcode_read(pixels, &raw, &barcodes, &count)) { .engineFailure("zxing-cpp: \($0)") }
        }
        defer { CB_Barcodes_free(barcodes, count) }
        // zxing-cpp has one ITF reader for both: what it read is narrowed to what was asked for.
        let requested = options.symbologies.isEmpty ? Set(Symbology.readByDefault) : options.symbologies
        return observations(from: barcodes, count: count).compactMap { found in
            var observation = found
            guard let read = found.symbology else { return found }
            observation.symbology = Symbology.reported(read, payload: found.payloadStringValue, requested: requested)
            return observation.symbology == nil ? nil : observation
        }
    }

    /// Whether `region` leaves some of the frame out, as CBridge reads it: clipped to the frame, and all of the frame
    /// when it is empty.
    private static func isPart(_ region: PixelRect, of frame: Frame) -> Bool {
        let whole = PixelRect(x: 0, y: 0, width: frame.width, height: frame.height)
        return region.width > 0 && region.height > 0
            && region.clipped(toWidth: frame.width, height: frame.height) != whole
    }
}

/// Turns a CBridge barcode array into observations (the array stays the caller's to free).
func observations(from barcodes: UnsafeMutablePointer<CB_Barcode>?, count: Int) -> [Observation] {
    guard let barcodes else { return [] }
    return (0..<count).compactMap { index in
        let barcode = barcodes[index]
        guard let symbology = Symbology(formatFlag: barcode.format) else { return nil }
        let data = barcode.bytes.map { Data(bytes: $0, count: barcode.byte_count) } ?? Data()
        // Not String(cString:): a payload may hold NUL bytes, and everything after the first would be lost.
        let text = barcode.text.map { String(decoding: UnsafeRawBufferPointer(start: $0, count: barcode.text_length),
                                             as: UTF8.self) }
        let identifier = withUnsafeBytes(of: barcode.symbology_identifier) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        let part = barcode.sequence_id.map { id in
            StructuredAppendPart(index: Int(barcode.sequence_index), count: Int(barcode.sequence_size),
                                 sequenceID: String(cString: id))
        }
        return .barcode(symbology, data: data, string: text, bounds: Bounds(barcode.quad),
                        symbologyIdentifier: identifier.isEmpty ? nil : identifier, structuredAppend: part)
    }
}

extension Symbology {
    var formatFlag: CB_Format {
        switch self {
        case .qr: return CB_FORMAT_QRCODE
        case .microqr: return CB_FORMAT_MICROQRCODE
        case .datamatrix: return CB_FORMAT_DATAMATRIX
        case .aztec: return CB_FORMAT_AZTEC
        case .pdf417: return CB_FORMAT_PDF417
        case .maxicode: return CB_FORMAT_MAXICODE
        case .ean13: return CB_FORMAT_EAN13
        case .ean8: return CB_FORMAT_EAN8
        case .upca: return CB_FORMAT_UPCA
        case .upce: return CB_FORMAT_UPCE
        case .code128: return CB_FORMAT_CODE128
        case .code39: return CB_FORMAT_CODE39
        case .code93: return CB_FORMAT_CODE93
        case .codabar: return CB_FORMAT_CODABAR
        case .itf, .itf14: return CB_FORMAT_ITF
        case .databar: return CB_FORMAT_DATABAR
        case .databarExpanded: return CB_FORMAT_DATABAR_EXPANDED
        case .telepen: return CB_FORMAT_TELEPEN
        case .dxfilmedge: return CB_FORMAT_DXFILMEDGE
        }
    }

    /// Whether asking for every symbology (an empty set: `RecognizedDataType.barcode(symbologies: [])`,
    /// `BarcodeDetectorOptions.symbologies`, `--types barcodes`) reads this one: every symbology but the opt-in
    /// `telepen` and `dxfilmedge`, which are read only when named. CBridge decides it (`CB_FORMAT_DEFAULT`, what
    /// `CB_Barcode_read` reads for formats 0).
    public var isReadByDefault: Bool {
        formatFlag.rawValue & CB_FORMAT_DEFAULT.rawValue != 0
    }

    /// The symbologies an empty set stands for (`isReadByDefault`), in `allCases` order.
    public static var readByDefault: [Symbology] { allCases.filter(\.isReadByDefault) }

    init?(formatFlag: Int32) {
        guard let match = Symbology.allCases.first(where: { Int32($0.formatFlag.rawValue) == formatFlag }) else {
            return nil
        }
        self = match
    }
}
