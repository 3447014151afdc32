/// The one rule for "the same physical item", used by everything that has to decide it: the tracker pairs a
/// frame's observations with its tracks by it, the change-gated barcode reader knows by it which remembered code
/// a fresh read is, the text-reading cache which remembered line a region is, and one frame's readings are made
/// one per item by it.
///
/// - A code's identity is its symbology and payload. A later read is the same code when it lies where the
///   earlier one is expected to be by now, within `barcodeGate` of its diagonals. Pairing is one-to-one,
///   cheapest first, so twins (one payload printed side by side) stay two. Within one frame nothing has moved:
///   two reads are one code only where their boxes overlap, which two printed codes cannot.
/// - A line's identity is its place and its reading. A later reading is the same line when it overlaps where
///   the line is expected (`textOverlap`, whatever it reads: OCR flicker), or lies within `textGate` line
///   heights reading alike (`textSimilarity`), or reads the same (`sameReading`) within `textWidthGate` of its
///   width: two labels that read the same cannot overlap, so a matching reading within half its length is the
///   same line however a hand shakes the camera. The readings are compared near where the line is expected and
///   near where it was last seen: a shake goes back and forth, and its speed carried on over a blur misplaces a line
///   unseen for a while. A piece of a line (`isPiece`) is the line too: a line
///   entering from the frame's edge is read first as its last word, then grows to the whole line, one item.
///   A region not read yet has only its place: `isSamePlace`, else `isGrownOrShrunk`.
package struct SameItem: Sendable {
    /// An earlier sighting of an item, as the rule needs it.
    package struct Sighting {
        var observation: Observation
        /// Where it should be in the frame being paired: its last bounds carried on by its motion.
        var expected: Bounds
        /// The reading its transcript vote has settled on, if any.
        var settledReading: String? = nil

        package init(observation: Observation, expected: Bounds, settledReading: String? = nil) {
            self.observation = observation
            self.expected = expected
            self.settledReading = settledReading
        }
    }

    /// Transcript similarity of two readings of one line through OCR flicker (HELLO / HELL0 is 0.8).
    package static let sameReading = 0.8
    /// Overlap (IoU) above which two reads of one payload in one frame are one code. A code read from two sets
    /// of rows, or by two readers, overlaps itself far more; twins do not overlap at all.
    package static let oneCodeOverlap = 0.3
    /// The share of a box that lies inside another when it is part of what the other holds (`isMostlyCovered`):
    /// a text region on a decoded code is the code's, a detector's box inside a located line is that line's text,
    /// a piece of a line lies in the line.
    package static let partShare = 0.3
    /// The share of a box inside another when the one is the other grown or shrunk (`isGrownOrShrunk`).
    package static let withinShare = 0.8
    /// Overlap (IoU) above which a code a locator found but no reader decoded is a code that was decoded: guidance
    /// counts only the others as codes it could not read.
    package static let locatedCodeOverlap = 0.2

    package let configuration: TrackerConfiguration

    package init(configuration: TrackerConfiguration) {
        self.configuration = configuration
    }

    /// Pairs earlier sightings with this frame's observations, cheapest pair first; every index appears at most
    /// once.
    package func pairs(_ earlier: [Sighting], _ seen: [Observation]) -> [(earlier: Int, seen: Int)] {
        var candidates: [(earlier: Int, seen: Int, cost: Double)] = []
        for (earlierIndex, sighting) in earlier.enumerated() {
            for (seenIndex, observation) in seen.enumerated() where observation.kind == sighting.observation.kind {
                if let cost = cost(of: observation, as: sighting) {
                    candidates.append((earlierIndex, seenIndex, cost))
                }
            }
        }
        var usedEarlier = Set<Int>(), usedSeen = Set<Int>()
        var result: [(earlier: Int, seen: Int)] = []
        for pair in candidates.sorted(by: { $0.cost < $1.cost }) {
            if usedEarlier.contains(pair.earlier) || usedSeen.contains(pair.seen) {
                continue
            }
            usedEarlier.insert(pair.earlier)
            usedSeen.insert(pair.seen)
            result.append((pair.earlier, pair.seen))
        }
        return result
    }

    /// The cost of explaining `observation` as the item of `sighting` seen again; nil when it cannot be.
    package func cost(of observation: Observation, as sighting: Sighting) -> Double? {
        let expected = sighting.expected
        switch observation.kind {
        case .barcode:
            guard Self.hasSameIdentity(sighting.observation, observation) else { return nil }
            let distance = expected.center.distance(to: observation.bounds.center)
            let relative = distance / max(expected.diagonal, observation.bounds.diagonal, 1)
            return relative <= configuration.barcodeGate ? relative : nil
        case .text:
            // A line unseen for a while is looked for where its motion would take it and, by its reading, where it
            // was: the view's motion is the camera's, and a hand's shake goes back and forth (carried on at a
            // shake's speed over the frames a blur and a detector turn take, a sign's small word was looked for
            // 43 px from where it was read again, 11 px from where it was last).
            let last = sighting.observation.bounds
            let atExpected = TextPlace(observation.bounds, expected: expected, configuration: configuration)
            let atLast = last == expected ? nil
                : TextPlace(observation.bounds, expected: last, configuration: configuration)
            // Far from both places, the readings are not compared (a page's lines are many, and each pair's edit
            // distance was most of its tracking time); near either, they are compared once.
            guard atExpected.isNear || atLast?.isNear == true else { return nil }
            let reading = observation.transcript ?? ""
            var similarity = transcriptSimilarity(reading, sighting.observation.transcript ?? "")
            if let settled = sighting.settledReading {
                similarity = max(similarity, transcriptSimilarity(reading, settled))
            }
            let byPlace = atExpected.isNear
                ? textCost(of: observation, atExpected, reading: reading, similarity: similarity, as: sighting,
                           at: expected, byPlace: true) : nil
            let byLastPlace = atLast.flatMap {
                $0.isNear ? textCost(of: observation, $0, reading: reading, similarity: similarity, as: sighting,
                                     at: last, byPlace: false) : nil
            }
            return [byPlace, byLastPlace].compactMap { $0 }.min()
        }
    }

    /// Where an observed line lies against a place a line is looked for: how far, in line heights, and whether it is
    /// near enough there for the readings to be compared (the boxes overlap, or lie within the gates).
    private struct TextPlace {
        let distance: Double
        let relative: Double
        let width: Double
        let isNear: Bool

        init(_ observed: Bounds, expected: Bounds, configuration: TrackerConfiguration) {
            distance = expected.center.distance(to: observed.center)
            relative = distance / max(expected.height, observed.height, 1)
            width = max(expected.width, observed.width, 1)
            isNear = expected.overlaps(observed) || relative <= configuration.textGate
                || distance <= configuration.textWidthGate * width
        }
    }

    /// The cost of `observation`, reading `reading` (`similarity` to the line of `sighting`) and lying at `place`
    /// against `expected`, as that line; nil when it cannot be. `byPlace`: its overlapping `expected` counts (the
    /// same place, a piece); otherwise only a reading alike near it does.
    private func textCost(of observation: Observation, _ place: TextPlace, reading: String, similarity: Double,
                          as sighting: Sighting, at expected: Bounds, byPlace: Bool) -> Double? {
        let nearbyAndAlike = place.relative <= configuration.textGate && similarity >= configuration.textSimilarity
        let readsTheSame = similarity >= Self.sameReading && place.distance <= configuration.textWidthGate * place.width
        let cost = place.relative + (1 - similarity)
        guard byPlace else { return nearbyAndAlike || readsTheSame ? cost : nil }
        let samePlace = isSamePlace(observation.bounds, as: expected)
        let earlier = sighting.settledReading ?? sighting.observation.transcript ?? ""
        let pieceOfOne = Self.isPiece(reading, at: observation.bounds, of: earlier, at: expected)
            || Self.isPiece(earlier, at: expected, of: reading, at: observation.bounds)
        return samePlace || nearbyAndAlike || readsTheSame || pieceOfOne ? cost : nil
    }

    /// Two boxes of text are one place: they overlap by `textOverlap`.
    package func isSamePlace(_ region: Bounds, as remembered: Bounds) -> Bool {
        region.intersectionOverUnion(remembered) >= configuration.textOverlap
    }

    /// A text region that is not the same place as any remembered line may be one of them grown or shrunk:
    /// one box lies within the other (the line is coming into view or leaving it, or is partly hidden).
    package static func isGrownOrShrunk(_ region: Bounds, from remembered: Bounds) -> Bool {
        region.share(coveredBy: remembered) >= withinShare || remembered.share(coveredBy: region) >= withinShare
    }

    /// A reading that is a piece of a line: its box lies mostly inside the line's, on the same row (the next
    /// line of a page, whose box may overlap a little and whose words may repeat, is not), and it reads as a
    /// stretch of it (through flicker: `sameReading`). A word the locator also found on its own, a second crop
    /// of a label, a line half in view are pieces.
    package static func isPiece(_ reading: String, at bounds: Bounds, of line: String, at lineBounds: Bounds) -> Bool {
        let (piece, whole) = (bounds.boundingBox, lineBounds.boundingBox)
        let sharedRows = min(piece.maxY, whole.maxY) - max(piece.minY, whole.minY)
        guard !reading.isEmpty, bounds.share(coveredBy: lineBounds) > partShare, sharedRows >= 0.6 * bounds.height else {
            return false
        }
        return partSimilarity(reading, in: line) >= sameReading || transcriptSimilarity(reading, line) >= sameReading
    }

    /// A reading that holds only part of a line's text: a piece of it (`isPiece`) that does not read as the whole
    /// line through flicker (a line read again with a stray mark dropped is the line, not a piece of it).
    package static func isPart(_ reading: String, at bounds: Bounds, of line: String, at lineBounds: Bounds)
        -> Bool
    {
        isPiece(reading, at: bounds, of: line, at: lineBounds) && transcriptSimilarity(reading, line) < sameReading
    }

    /// More of a line came into view: `reading` holds `earlier` and more, and its box grew by at least half
    /// the width the extra characters take in `earlier`, so that the extra is text come into view, not a
    /// misreading of the same pixels.
    package static func isMoreOfLine(_ reading: String, at bounds: Bounds, than earlier: String, at earlierBounds: Bounds)
        -> Bool
    {
        guard reading.count > earlier.count, isPiece(earlier, at: earlierBounds, of: reading, at: bounds) else {
            return false
        }
        let characterWidth = earlierBounds.width / Double(earlier.count)
        return bounds.width - earlierBounds.width >= 0.5 * Double(reading.count - earlier.count) * characterWidth
    }

    /// Two reads of one frame are one code: the same identity, overlapping.
    package static func isOneCode(_ one: Observation, _ other: Observation) -> Bool {
        hasSameIdentity(one, other) && one.bounds.intersectionOverUnion(other.bounds) > oneCodeOverlap
    }

    /// A linear code's read that lies within a 2-D code read in the same frame (`withinShare` of its box inside):
    /// a run of that code's modules, not a code of its own, which no symbol's modules can hold (a moving QR code's
    /// modules read as two-digit ITF codes from slivers four pixels wide).
    package static func isInsideCode(_ read: Observation, _ code: Observation) -> Bool {
        read.kind == .barcode && code.kind == .barcode && read.symbology?.isTwoDimensional == false
            && code.symbology?.isTwoDimensional == true && read.bounds.share(coveredBy: code.bounds) >= withinShare
    }

    private static func hasSameIdentity(_ one: Observation, _ other: Observation) -> Bool {
        one.symbology == other.symbology && one.payloadData == other.payloadData
    }
}

extension Bounds {
    /// True when more than `SameItem.partShare` of this box lies inside one of `others`: it is part of what that
    /// one holds (a text region on a barcode).
    package func isMostlyCovered(by others: [Bounds]) -> Bool {
        others.contains { share(coveredBy: $0) > SameItem.partShare }
    }
}
