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
        /// Whether its reader put a space before it. Tesseract's words in Chinese and Japanese are runs of a few
        /// characters, and a Korean word's syllables can be words of their own: its line reads `東京駅の南口`, its
        /// words `東京` `駅` `の` `南口`, which joined with spaces read as no one writes.
        var spaceBefore = true
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

    /// `words` as one line, each after a space where its reader put one.
    static func line(_ words: [Word]) -> String {
        words.enumerated().map { index, word in (index > 0 && word.spaceBefore ? " " : "") + word.text }.joined()
    }

    /// The mean of the words' confidences; 0 for none.
    static func meanConfidence(_ words: [Word]) -> Double {
        mean(words.map(\.confidence))
    }

    /// The mean of `confidences`; 0 for none.
    static func mean(_ confidences: [Double]) -> Double {
        confidences.reduce(0, +) / Double(max(confidences.count, 1))
    }
}

extension DetectedLineReading.Word {
    /// Sets each word's `spaceBefore` as `line`, its reader's text of the whole line, has it: whether there is
    /// white space between the word before and this one. The first word, and a word not found in it, keep their
    /// space: what comes before them on the line is another reader's word, or unknown.
    static func markSpaces(_ words: inout [Self], asIn line: String) {
        var rest = line[...]
        for index in words.indices {
            guard let found = rest.range(of: words[index].text) else { continue }
            words[index].spaceBefore = index == 0 || rest[..<found.lowerBound].contains { $0.isWhitespace }
            rest = rest[found.upperBound...]
        }
    }
}
