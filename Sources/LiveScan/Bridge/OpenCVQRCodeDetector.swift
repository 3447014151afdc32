internal import CBridge

/// QR codes located by OpenCV's `cv::QRCodeDetector::detectMulti` and decoded by zxing-cpp from the
/// rectified quad (`CB_QR_locate_and_decode`): Debian's OpenCV 4.6 lacks QUIRC and cannot decode.
/// Slow (about 60-110 ms at 720p); it finds tilted or perspective-distorted codes zxing-cpp alone misses.
public struct OpenCVQRCodeDetector: BarcodeDetector {
    public init() {}

    public func detect(in frame: Frame) throws -> [Observation] {
        var barcodes: UnsafeMutablePointer<CB_Barcode>?
        var count = 0
        try frame.withBridgeImage { pixels in
            try check(CB_QR_locate_and_decode(pixels, &barcodes, &count)) { .engineFailure("OpenCV: \($0)") }
        }
        defer { CB_Barcodes_free(barcodes, count) }
        return observations(from: barcodes, count: count)
    }
}

/// Where QR codes are, decoded or not (`CB_QR_locate`, OpenCV's detectMulti; about 30 ms at 720p),
/// as unreadable observations: the scanner's "move closer" guidance.
public struct OpenCVQRLocator: Sendable {
    public init() {}

    public func locate(in frame: Frame) throws -> [Observation] {
        var quads: UnsafeMutablePointer<CB_Quad>?
        var count = 0
        try frame.withBridgeImage { pixels in
            try check(CB_QR_locate(pixels, &quads, &count)) { .engineFailure("OpenCV: \($0)") }
        }
        defer { CB_Quads_free(quads) }
        guard let quads else { return [] }
        return (0..<count).map { .unreadableBarcode(.qr, bounds: Bounds(quads[$0])) }
    }
}

/// Runs detectors in order; a later detector's finding counts only where no earlier one found the same
/// payload at an overlapping place.
public struct CombinedBarcodeDetector: BarcodeDetector {
    public let detectors: [any BarcodeDetector]

    public init(_ detectors: [any BarcodeDetector]) {
        self.detectors = detectors
    }

    public func detect(in frame: Frame) throws -> [Observation] {
        try detectors.flatMap { try $0.detect(in: frame) }.withoutRepeatedCodes()
    }
}
