/// Votes over the readings of one text line, weighted by confidence: OCR flicker ("HELLO" in most
/// frames, "HELL0" in a few) never changes what the item says.
struct TranscriptVoter: Sendable {
    private struct Tally: Sendable {
        var weight = 0.0
        var readings = 0
        var lastVote = 0
    }

    private var tallies: [String: Tally] = [:]
    private var votesCast = 0

    mutating func vote(_ transcript: String, confidence: Double) {
        votesCast += 1
        tallies[transcript, default: Tally()].weight += max(confidence, 0.01)
        tallies[transcript]!.readings += 1
        tallies[transcript]!.lastVote = votesCast
    }

    /// The transcript with the most weight (the most recent on a tie), with its mean confidence.
    var winner: (transcript: String, confidence: Double)? {
        let best = tallies.max { a, b in
            a.value.weight != b.value.weight ? a.value.weight < b.value.weight : a.value.lastVote < b.value.lastVote
        }
        guard let best else { return nil }
        return (best.key, best.value.weight / Double(best.value.readings))
    }
}

/// 1 - (edit distance / length of the longer string), over characters: 1 is identical.
func transcriptSimilarity(_ a: String, _ b: String) -> Double {
    let longer = max(a.count, b.count)
    return longer == 0 ? 1 : 1 - Double(editDistance(a, b)) / Double(longer)
}

/// Levenshtein distance over characters: the fewest insertions, deletions and substitutions.
package func editDistance(_ a: String, _ b: String) -> Int {
    let left = Array(a), right = Array(b)
    guard !left.isEmpty, !right.isEmpty else { return max(left.count, right.count) }
    var previous = Array(0...right.count)
    var current = [Int](repeating: 0, count: right.count + 1)
    for i in 1...left.count {
        current[0] = i
        for j in 1...right.count {
            let substitution = previous[j - 1] + (left[i - 1] == right[j - 1] ? 0 : 1)
            current[j] = min(substitution, previous[j] + 1, current[j - 1] + 1)
        }
        swap(&previous, &current)
    }
    return previous[right.count]
}

/// How well `part` reads as some stretch of `whole`: 1 - (the fewest edits that make `part` a substring of
/// `whole`) / (length of `part`). "Gate 3." in "Gate 3 Dock 19" is 0.86: one character misread.
func partSimilarity(_ part: String, in whole: String) -> Double {
    let needle = Array(part), haystack = Array(whole)
    guard !needle.isEmpty else { return 1 }
    // Edit distance where the match may start and end anywhere in `whole` (the first row and the answer's
    // row are free of the skipped characters).
    var previous = [Int](repeating: 0, count: haystack.count + 1)
    var current = previous
    for i in 1...needle.count {
        current[0] = i
        for j in stride(from: 1, through: haystack.count, by: 1) {
            let substitution = previous[j - 1] + (needle[i - 1] == haystack[j - 1] ? 0 : 1)
            current[j] = min(substitution, previous[j] + 1, current[j - 1] + 1)
        }
        swap(&previous, &current)
    }
    return 1 - Double(previous.min() ?? needle.count) / Double(needle.count)
}
