import Foundation

/// One detection in one frame, before tracking gives it an identity.
public struct Observation: Sendable, Equatable {
    public enum Kind: String, Sendable {
        case barcode, text
    }

    public var kind: Kind
    /// Barcodes only.
    public var symbology: Symbology?
    /// Barcodes only: the payload bytes exactly as encoded.
    public var payloadData: Data?
    /// Barcodes only: the payload as text (zxing-cpp applies ECI / character set), nil if it has none.
    public var payloadStringValue: String?
    /// Text only: the line as read.
    public var transcript: String?
    /// 0...1; decoded barcodes are 1 (their checksums passed).
    public var confidence: Double
    /// Where, in source pixels.
    public var bounds: Bounds

    /// A decoded barcode.
    public static func barcode(_ symbology: Symbology, data: Data, string: String?, bounds: Bounds) -> Observation {
        Observation(kind: .barcode, symbology: symbology, payloadData: data, payloadStringValue: string,
                    transcript: nil, confidence: 1, bounds: bounds)
    }

    /// A line of recognised text.
    public static func text(_ transcript: String, confidence: Double, bounds: Bounds) -> Observation {
        Observation(kind: .text, symbology: nil, payloadData: nil, payloadStringValue: nil,
                    transcript: transcript, confidence: confidence, bounds: bounds)
    }
}
