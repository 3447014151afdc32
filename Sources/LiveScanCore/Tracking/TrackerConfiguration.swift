/// Every knob of the tracker, with its default. `validate()` names the first bad value.
public struct TrackerConfiguration: Sendable, Equatable {
    /// Sightings a barcode needs before it is added (default 1: a decoded code has passed its checksum).
    public var barcodeConfirmations: Int
    /// Sightings of a text line needed before it is added (default 2: one reading can be noise).
    public var textConfirmations: Int
    /// Seconds of media time an item may go unseen before it is removed; it keeps its id through any
    /// shorter occlusion (default 0.5).
    public var gracePeriod: Double
    /// Pixels some corner must move before a move is reported as an update; jitter below it is not
    /// (default 4).
    public var updateDistance: Double
    /// How far from its predicted place a barcode may be seen again and keep its id, in diagonals of
    /// the item (default 3).
    public var barcodeGate: Double
    /// How far from its predicted place a text line may be seen again and keep its id, in line heights
    /// (default 1.5).
    public var textGate: Double
    /// How far from its predicted place a text line that reads as it did (similarity >= 0.8) may be seen again
    /// and keep its id, in widths of the line (default 0.5). Two labels that read the same cannot overlap, so a
    /// matching reading within half its own length is the same line, however a hand shakes the camera.
    public var textWidthGate: Double
    /// Least transcript similarity (1 - normalised edit distance) for two readings to be one line when
    /// their boxes overlap only a little (default 0.5). OCR flicker such as HELLO/HELL0 is 0.8.
    public var textSimilarity: Double
    /// Box overlap (intersection over union) above which two readings are one line whatever they say
    /// (default 0.5).
    public var textOverlap: Double

    public init(barcodeConfirmations: Int = 1, textConfirmations: Int = 2, gracePeriod: Double = 0.5,
                updateDistance: Double = 4, barcodeGate: Double = 3, textGate: Double = 1.5,
                textSimilarity: Double = 0.5, textOverlap: Double = 0.5, textWidthGate: Double = 0.5) {
        self.barcodeConfirmations = barcodeConfirmations
        self.textConfirmations = textConfirmations
        self.gracePeriod = gracePeriod
        self.updateDistance = updateDistance
        self.barcodeGate = barcodeGate
        self.textGate = textGate
        self.textSimilarity = textSimilarity
        self.textOverlap = textOverlap
        self.textWidthGate = textWidthGate
    }

    /// Throws `ScanError.invalidParameter` naming the first value out of range.
    public func validate() throws {
        func require(_ condition: Bool, _ parameter: String, _ reason: String) throws {
            if !condition {
                throw ScanError.invalidParameter(parameter: parameter, reason: reason)
            }
        }
        try require((1...100).contains(barcodeConfirmations), "barcodeConfirmations", "must be 1...100")
        try require((1...100).contains(textConfirmations), "textConfirmations", "must be 1...100")
        // Upper bounds too: a knob is turned into frame counts and pixel distances, and 1e20 of anything is
        // no setting anyone means (it overflowed an Int conversion).
        try require((0...86_400).contains(gracePeriod), "gracePeriod", "must be 0...86400 seconds")
        try require((0...100_000).contains(updateDistance), "updateDistance", "must be 0...100000 pixels")
        try require(barcodeGate > 0 && barcodeGate <= 1000, "barcodeGate", "must be in (0, 1000]")
        try require(textGate > 0 && textGate <= 1000, "textGate", "must be in (0, 1000]")
        try require((0...1).contains(textSimilarity), "textSimilarity", "must be 0...1")
        try require(textOverlap > 0 && textOverlap <= 1, "textOverlap", "must be in (0, 1]")
        try require((0...10).contains(textWidthGate), "textWidthGate", "must be 0...10 line widths")
    }

    /// Sets the knob named as in `fields` (`grace_period`, `text_confirmations`, ...); throws
    /// `ScanError.invalidParameter` for an unknown name or a count that is not a whole number. Ranges are
    /// checked by `validate()`.
    public mutating func set(_ name: String, to value: Double) throws {
        func count() throws -> Int {
            guard value.isFinite, value == value.rounded(), abs(value) < 1e6 else {
                throw ScanError.invalidParameter(parameter: name, reason: "must be a whole number")
            }
            return Int(value)
        }
        switch name {
        case "barcode_confirmations": barcodeConfirmations = try count()
        case "text_confirmations": textConfirmations = try count()
        case "grace_period": gracePeriod = value
        case "update_distance": updateDistance = value
        case "barcode_gate": barcodeGate = value
        case "text_gate": textGate = value
        case "text_similarity": textSimilarity = value
        case "text_overlap": textOverlap = value
        case "text_width_gate": textWidthGate = value
        default:
            throw ScanError.invalidParameter(
                parameter: name, reason: "unknown tracker setting (known: \(fields.map(\.0).joined(separator: ", ")))")
        }
    }

    /// The values as key/value pairs, for the event log's start line.
    public var fields: [(String, Double)] {
        [("barcode_confirmations", Double(barcodeConfirmations)), ("text_confirmations", Double(textConfirmations)),
         ("grace_period", gracePeriod), ("update_distance", updateDistance), ("barcode_gate", barcodeGate),
         ("text_gate", textGate), ("text_similarity", textSimilarity), ("text_overlap", textOverlap),
         ("text_width_gate", textWidthGate)]
    }
}
