/// Pairs this frame's observations with existing tracks, cheapest pair first.
///
/// Barcodes pair only with tracks of the same symbology and payload (the payload is the identity),
/// nearest predicted position first, so twin codes side by side stay two items. Text pairs by position
/// plus transcript similarity, so OCR flicker never makes a new item.
struct Association {
    struct Pair {
        let track: Int
        let observation: Int
        let cost: Double
    }

    let configuration: TrackerConfiguration
    /// Transcript similarity of two readings of one line through OCR flicker (HELLO / HELL0 is 0.8).
    static let sameReading = 0.8

    /// Returns (track index, observation index) pairs; every index appears at most once.
    func pairs(tracks: [Track], observations: [Observation], time: Double) -> [(track: Int, observation: Int)] {
        var candidates: [Pair] = []
        for (trackIndex, track) in tracks.enumerated() {
            let predicted = track.predictedBounds(at: time)
            for (observationIndex, observation) in observations.enumerated() where observation.kind == track.kind {
                if let cost = cost(of: track, predicted: predicted, observation) {
                    candidates.append(Pair(track: trackIndex, observation: observationIndex, cost: cost))
                }
            }
        }
        var usedTracks = Set<Int>(), usedObservations = Set<Int>()
        var result: [(track: Int, observation: Int)] = []
        for pair in candidates.sorted(by: { $0.cost < $1.cost }) {
            if usedTracks.contains(pair.track) || usedObservations.contains(pair.observation) {
                continue
            }
            usedTracks.insert(pair.track)
            usedObservations.insert(pair.observation)
            result.append((pair.track, pair.observation))
        }
        return result
    }

    /// The cost of explaining `observation` as `track` seen again; nil when it cannot be.
    private func cost(of track: Track, predicted: Bounds, _ observation: Observation) -> Double? {
        let distance = predicted.center.distance(to: observation.bounds.center)
        switch observation.kind {
        case .barcode:
            let last = track.lastObservation
            guard last.symbology == observation.symbology, last.payloadData == observation.payloadData else {
                return nil
            }
            let scale = max(predicted.diagonal, observation.bounds.diagonal, 1)
            let relative = distance / scale
            return relative <= configuration.barcodeGate ? relative : nil
        case .text:
            let scale = max(predicted.height, observation.bounds.height, 1)
            let relative = distance / scale
            let overlap = predicted.intersectionOverUnion(observation.bounds)
            let reading = observation.transcript ?? ""
            var similarity = transcriptSimilarity(reading, track.lastObservation.transcript ?? "")
            if let winner = track.voter.winner?.transcript {
                similarity = max(similarity, transcriptSimilarity(reading, winner))
            }
            let samePlace = overlap >= configuration.textOverlap
            let nearbyAndAlike = relative <= configuration.textGate && similarity >= configuration.textSimilarity
            let width = max(predicted.width, observation.bounds.width, 1)
            let readsTheSame = similarity >= Association.sameReading && distance <= configuration.textWidthGate * width
            guard samePlace || nearbyAndAlike || readsTheSame else { return nil }
            return relative + (1 - similarity)
        }
    }
}
