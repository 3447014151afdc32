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

extension [Observation] {
    /// One observation per code: a reader can return a code twice (zxing-cpp 1.4 did, from two rows of a linear
    /// code it did not merge, which the bar-height bounds then made identical), and two readers of one frame can
    /// both read it. Twins (the same payload side by side) do not overlap and stay two.
    package func withoutRepeatedCodes() -> [Observation] {
        var kept: [Observation] = []
        for observation in self {
            let repeated = observation.kind == .barcode && kept.contains { SameItem.isOneCode($0, observation) }
            if !repeated {
                kept.append(observation)
            }
        }
        return kept
    }

    /// The codes of one frame without the linear reads that lie inside a 2-D code (`SameItem.isInsideCode`).
    package func withoutReadsInsideCodes() -> [Observation] {
        filter { read in !contains { SameItem.isInsideCode(read, $0) } }
    }

    /// The text lines of one frame with the pieces of each line left out: a word that the locator also found on
    /// its own, or a second crop of the same label, lies mostly inside the whole line's box and reads as part of
    /// it. Of such readings the widest is the line; neighbouring lines of a page, which may overlap a little but
    /// read differently, all stay.
    package func withoutPiecesOfLines() -> [Observation] {
        var kept: [Observation] = []
        for line in sorted(by: { $0.bounds.width > $1.bounds.width }) {
            let isPiece = kept.contains { whole in
                SameItem.isPiece(line.transcript ?? "", at: line.bounds, of: whole.transcript ?? "", at: whole.bounds)
            }
            if !isPiece {
                kept.append(line)
            }
        }
        return filter { line in kept.contains { $0 == line } }
    }
}
