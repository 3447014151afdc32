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
    /// How its centre moves, in pixels per second of media time.
    var motion = Motion()
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
        motion.predicted(lastObservation.bounds, after: time - lastSeenTime)
    }

    /// The track as `SameItem` pairs it in the frame at `time`.
    func sighting(at time: Double) -> SameItem.Sighting {
        SameItem.Sighting(observation: lastObservation, expected: predictedBounds(at: time),
                          settledReading: voter.winner?.transcript)
    }

    mutating func absorb(_ observation: Observation, frame: Int, time: Double) {
        motion.observe(from: lastObservation.bounds.center, to: observation.bounds.center, elapsed: time - lastSeenTime)
        if let transcript = observation.transcript {
            vote(transcript, confidence: observation.confidence, at: observation.bounds)
        }
        hits += 1
        lastObservation = observation
        lastSeenFrame = frame
        lastSeenTime = time
    }

    /// A reading of more of the line than was read so far (it is entering the frame) starts the vote afresh:
    /// the earlier readings were of a piece. A reading of a piece of it (leaving, half hidden) says nothing
    /// about the whole line and is not counted.
    private mutating func vote(_ transcript: String, confidence: Double, at bounds: Bounds) {
        if let current = voter.winner?.transcript {
            let before = lastObservation.bounds
            if SameItem.isMoreOfLine(transcript, at: bounds, than: current, at: before) {
                voter = TranscriptVoter()
            } else if SameItem.isMoreOfLine(current, at: before, than: transcript, at: bounds) {
                return
            }
        }
        voter.vote(transcript, confidence: confidence)
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
