import Foundation

// What "the same item" means (`SameItem`) applied to the observations of one frame, before the tracker sees them:
// here in Tracking, beside that rule, so that Model needs nothing from Tracking.
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
