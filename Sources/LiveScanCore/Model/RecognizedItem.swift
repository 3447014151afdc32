import Foundation

/// An item the scanner recognized and tracks, as VisionKit's `RecognizedItem`: its `id` stays the same
/// for as long as the physical item stays in view (or hides for less than the tracker's grace period).
public enum RecognizedItem: Identifiable, Sendable, Equatable {
    case text(Text)
    case barcode(Barcode)

    /// A line of text. `transcript` is the current winner of the votes over every reading.
    public struct Text: Sendable, Equatable {
        public var id: UUID
        public var bounds: Bounds
        public var transcript: String
        /// Confidence of the winning transcript, 0...1.
        public var confidence: Double
        /// 0-based index of the frame that last saw the item (VisionKit gives none).
        public var frameIndex: Int
        /// Media time in seconds of that frame.
        public var time: Double

        public init(id: UUID, bounds: Bounds, transcript: String, confidence: Double, frameIndex: Int, time: Double) {
            self.id = id
            self.bounds = bounds
            self.transcript = transcript
            self.confidence = confidence
            self.frameIndex = frameIndex
            self.time = time
        }
    }

    /// A barcode. Its payload is its identity.
    public struct Barcode: Sendable, Equatable {
        public var id: UUID
        public var bounds: Bounds
        public var payloadStringValue: String?
        public var payloadData: Data
        public var symbology: Symbology
        /// The ISO/IEC 15424 symbology identifier zxing-cpp reported (`]C1` marks GS1-128), if any.
        public var symbologyIdentifier: String?
        public var frameIndex: Int
        public var time: Double

        /// What the payload means: a URL, Wi-Fi credentials, an EMVCo payment code, GS1 data ... or `.text`.
        public var content: PayloadContent {
            PayloadParser.parse(payloadStringValue ?? "", symbologyIdentifier: symbologyIdentifier)
        }

        public init(id: UUID, bounds: Bounds, payloadStringValue: String?, payloadData: Data, symbology: Symbology,
                    symbologyIdentifier: String? = nil, frameIndex: Int, time: Double) {
            self.id = id
            self.bounds = bounds
            self.payloadStringValue = payloadStringValue
            self.payloadData = payloadData
            self.symbology = symbology
            self.symbologyIdentifier = symbologyIdentifier
            self.frameIndex = frameIndex
            self.time = time
        }
    }

    public var id: UUID {
        switch self {
        case let .text(text): return text.id
        case let .barcode(barcode): return barcode.id
        }
    }

    public var bounds: Bounds {
        switch self {
        case let .text(text): return text.bounds
        case let .barcode(barcode): return barcode.bounds
        }
    }

    /// The item with other bounds.
    package func withBounds(_ bounds: Bounds) -> RecognizedItem {
        switch self {
        case var .text(text):
            text.bounds = bounds
            return .text(text)
        case var .barcode(barcode):
            barcode.bounds = bounds
            return .barcode(barcode)
        }
    }

    /// The frame index of the last sighting.
    public var frameIndex: Int {
        switch self {
        case let .text(text): return text.frameIndex
        case let .barcode(barcode): return barcode.frameIndex
        }
    }

    /// The media time of the last sighting.
    public var time: Double {
        switch self {
        case let .text(text): return text.time
        case let .barcode(barcode): return barcode.time
        }
    }

    /// The first 8 hex digits of the id, lowercased: enough to tell items apart on one screen or frame.
    public var shortID: String {
        String(id.uuidString.lowercased().prefix(8))
    }

    /// The symbology's name (as `--types` spells it), or "text".
    public var kindName: String {
        switch self {
        case let .barcode(barcode): return barcode.symbology.rawValue
        case .text: return "text"
        }
    }

    /// The payload string of a barcode or the transcript of text.
    public var value: String {
        switch self {
        case let .text(text): return text.transcript
        case let .barcode(barcode): return barcode.payloadStringValue ?? barcode.payloadData.base64EncodedString()
        }
    }
}
