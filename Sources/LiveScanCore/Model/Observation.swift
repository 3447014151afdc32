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
    /// Barcodes only: the ISO/IEC 15424 symbology identifier (`]Q1`, `]C1` = GS1-128 ...), if known.
    public var symbologyIdentifier: String?
    /// Barcodes only: its place in a structured-append sequence, when it is one symbol of a message split across
    /// several (`StructuredAppendAssembly` puts them together).
    public var structuredAppend: StructuredAppendPart?
    /// Text only: the line as read.
    public var transcript: String?
    /// False for a code that was located but could not be decoded (it then has no payload): such
    /// observations are hints for guidance, never items.
    public var isReadable = true
    /// Text only: the line's pixels changed where it stands and fresh readings agree on this transcript (the
    /// text-reading cache decides it): it replaces what the line said (a slide, a display, a label replaced in
    /// place) instead of being one more vote among the line's earlier readings.
    public var isNewValue = false
    /// Text only: earlier frames in which this line was already seen where it now is, by whoever found it (a learned
    /// detector's box is found again frame after frame from the frame of its detector's turn: `TextDetectorCadence`).
    /// They count toward the tracker's confirmations as its own sightings do: such a line was seen in consecutive
    /// frames before it reached the tracker.
    public var earlierSightings = 0
    /// 0...1; decoded barcodes are 1 (their checksums passed).
    public var confidence: Double
    /// Where, in source pixels.
    public var bounds: Bounds

    /// A decoded barcode.
    public static func barcode(_ symbology: Symbology, data: Data, string: String?, bounds: Bounds,
                               symbologyIdentifier: String? = nil,
                               structuredAppend: StructuredAppendPart? = nil) -> Observation {
        Observation(kind: .barcode, symbology: symbology, payloadData: data, payloadStringValue: string,
                    symbologyIdentifier: symbologyIdentifier, structuredAppend: structuredAppend, transcript: nil,
                    confidence: 1, bounds: bounds)
    }

    /// A code located but not decoded.
    public static func unreadableBarcode(_ symbology: Symbology, bounds: Bounds) -> Observation {
        Observation(kind: .barcode, symbology: symbology, payloadData: nil, payloadStringValue: nil,
                    symbologyIdentifier: nil, transcript: nil, isReadable: false, confidence: 0, bounds: bounds)
    }

    /// A line of recognised text.
    public static func text(_ transcript: String, confidence: Double, bounds: Bounds) -> Observation {
        Observation(kind: .text, symbology: nil, payloadData: nil, payloadStringValue: nil, symbologyIdentifier: nil,
                    transcript: transcript, isReadable: true, confidence: confidence, bounds: bounds)
    }
}
