import Foundation

/// One physical item followed across frames: its identity, its state and what it was last seen as.
struct Track: Sendable {
    enum State: Sendable {
        /// Seen, not yet reported: waiting for enough sightings.
        case tentative
        /// Reported with an add; stays so while unseen for less than the grace period.
        case confirmed
    }

    let id: UUID
    var state: State = .tentative
    var hits = 1
    var lastObservation: Observation
    var lastSeenFrame: Int
    var lastSeenTime: Double
    /// Pixels per second of the centre, smoothed.
    var velocity = Point(x: 0, y: 0)
    var voter = TranscriptVoter()
    /// What the last add/update event said, to tell real changes from jitter.
    var reported: RecognizedItem?

    init(id: UUID, observation: Observation, frame: Int, time: Double) {
        self.id = id
        lastObservation = observation
        lastSeenFrame = frame
        lastSeenTime = time
        if let transcript = observation.transcript {
            voter.vote(transcript, confidence: observation.confidence)
        }
    }

    var kind: Observation.Kind { lastObservation.kind }

    /// Where the item should be at `time`, moving on at its last velocity.
    func predictedBounds(at time: Double) -> Bounds {
        let elapsed = max(0, time - lastSeenTime)
        return lastObservation.bounds.offsetBy(dx: velocity.x * elapsed, dy: velocity.y * elapsed)
    }

    mutating func absorb(_ observation: Observation, frame: Int, time: Double) {
        let elapsed = time - lastSeenTime
        if elapsed > 0 {
            let old = lastObservation.bounds.center, new = observation.bounds.center
            let measured = Point(x: (new.x - old.x) / elapsed, y: (new.y - old.y) / elapsed)
            // Smoothed so that one jittery quad does not throw the prediction off.
            velocity = hits == 1 ? measured
                : Point(x: 0.5 * velocity.x + 0.5 * measured.x, y: 0.5 * velocity.y + 0.5 * measured.y)
        }
        hits += 1
        lastObservation = observation
        lastSeenFrame = frame
        lastSeenTime = time
        if let transcript = observation.transcript {
            voter.vote(transcript, confidence: observation.confidence)
        }
    }

    /// The item as the scanner shows it now.
    var item: RecognizedItem {
        let observation = lastObservation
        switch observation.kind {
        case .barcode:
            return .barcode(RecognizedItem.Barcode(
                id: id, bounds: observation.bounds, payloadStringValue: observation.payloadStringValue,
                payloadData: observation.payloadData ?? Data(), symbology: observation.symbology ?? .qr,
                symbologyIdentifier: observation.symbologyIdentifier, frameIndex: lastSeenFrame, time: lastSeenTime))
        case .text:
            let winner = voter.winner ?? (observation.transcript ?? "", observation.confidence)
            return .text(RecognizedItem.Text(
                id: id, bounds: observation.bounds, transcript: winner.transcript, confidence: winner.confidence,
                frameIndex: lastSeenFrame, time: lastSeenTime))
        }
    }
}
