import Foundation

/// What Tesseract, and the learned recogniser when it ran, read in one of the learned detector's boxes, before
/// their confidence is judged (`DetectedLineJudge`, in the scanner).
struct DetectedLineReading: Equatable {
    struct Word: Equatable {
        var text: String
        /// Its reader's confidence in it, 0...1.
        var confidence: Double
        /// Where it was read, in the frame's pixels.
        var bounds: Bounds
    }

    /// The detector's box.
    var region: Bounds
    /// Tesseract's words; none when it read none.
    var words: [Word]
    /// The learned recogniser's reading of the same box, when it ran (no words when it read none).
    var learned: LearnedReading?

    /// The mean of the words' confidences. Tesseract's own line confidence sits below it when one word is poor
    /// ("THEORY g"), and dropped such lines whole (Benchmarks/text-detector-study.md).
    var confidence: Double { Self.meanConfidence(words) }

    /// The mean of the words' confidences; 0 for none.
    static func meanConfidence(_ words: [Word]) -> Double {
        mean(words.map(\.confidence))
    }

    /// The mean of `confidences`; 0 for none.
    static func mean(_ confidences: [Double]) -> Double {
        confidences.reduce(0, +) / Double(max(confidences.count, 1))
    }
}
