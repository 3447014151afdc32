import Foundation

/// One physical item followed across frames: its identity, what it was last seen as, and its state, whose
/// transitions it decides itself (the tracker pairs, then tells each track whether it was seen):
///
///     tentative --enough sightings--> confirmed <--seen again-- lost
///         |                              \--unseen--> lost --unseen past the grace period--> removed
///         \--unseen past the grace period--> removed (never reported)
struct Track: Sendable {
    enum State: Sendable {
        /// Seen, not yet reported: waiting for enough sightings.
        case tentative
        /// Reported with an add, and seen in the last frame.
        case confirmed
        /// Reported, not seen in the last frame, for less than the grace period: it is still an item (briefly
        /// hidden or missed) and keeps its id if it is seen again.
        case lost
        /// Ended: removed if it was reported, never shown if it was tentative. The tracker drops it.
        case removed
    }

    /// What a transition tells the scanner.
    enum Event: Sendable, Equatable {
        case added(RecognizedItem)
        case updated(RecognizedItem)
        case removed(RecognizedItem)
    }

    let id: UUID
    var state: State = .tentative
    var hits = 1
    var lastObservation: Observation
    var lastSeenFrame: Int
    var lastSeenTime: Double
    /// Media time since it was last seen during which the view was obscured (blurred past reading): it does not
    /// count against the grace period, since nothing could be seen then.
    var obscuredTime = 0.0
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
        hits += observation.earlierSightings
        if let transcript = observation.transcript {
            voter.vote(transcript, confidence: observation.confidence)
        }
    }

    var kind: Observation.Kind { lastObservation.kind }

    /// Whether the scanner shows it: added, and not yet removed.
    var isReported: Bool { state == .confirmed || state == .lost }

    /// It was seen in this frame (after `absorb`): a tentative track with enough sightings is added; a reported
    /// one is updated when its value changed or a corner moved beyond `updateDistance`.
    mutating func wasSeen(_ configuration: TrackerConfiguration) -> Event? {
        switch state {
        case .tentative:
            let needed = kind == .barcode ? configuration.barcodeConfirmations : configuration.textConfirmations
            guard hits >= needed else { return nil }
            state = .confirmed
            let added = item
            reported = added
            return .added(added)
        case .confirmed, .lost:
            state = .confirmed
            let current = item
            guard let reported, reported.value != current.value
                || reported.bounds.largestCornerMove(to: current.bounds) > configuration.updateDistance
            else { return nil }
            self.reported = current
            return .updated(current)
        case .removed:
            return nil
        }
    }

    /// It was not seen in the frame at `time`: it is lost, and removed once unseen for longer than the grace
    /// period (silently if it was never reported), the time the view was obscured left out.
    mutating func wasMissed(at time: Double, _ configuration: TrackerConfiguration) -> Event? {
        guard state != .removed else { return nil }
        guard time - lastSeenTime - obscuredTime > configuration.gracePeriod else {
            if state == .confirmed {
                state = .lost
            }
            return nil
        }
        return end().map(Event.removed)
    }

    /// It ended (unseen past the grace period, or its line now says another text: `isAnotherText`): removed, and
    /// given back to be reported as such if it was reported.
    mutating func end() -> RecognizedItem? {
        let wasReported = isReported
        state = .removed
        return wasReported ? item : nil
    }

    /// Whether `observation`, paired with this line, is another text where it stands (the next slide): a new
    /// value (`Observation.isNewValue`) that is not alike what the line said (`TrackerConfiguration.textSimilarity`,
    /// the tracker's own rule for "alike"). A new value alike it (`Batch 2024` turned `Batch 2025`) updates the line.
    func isAnotherText(_ observation: Observation, _ configuration: TrackerConfiguration) -> Bool {
        guard observation.isNewValue, let transcript = observation.transcript, let current = voter.winner?.transcript,
              !isPieceOfCurrent(transcript)
        else { return false }
        return transcriptSimilarity(transcript, current) < configuration.textSimilarity
    }

    /// Where the item should be at `time`, moving on at its last velocity: not through the time the view was
    /// obscured, in which a hand's shake moved the view and took it back (carried on at a shake's speed through a
    /// second of blur, the lines of a sign were looked for far off and paired with their neighbours' tracks).
    func predictedBounds(at time: Double) -> Bounds {
        motion.predicted(lastObservation.bounds, after: time - lastSeenTime - obscuredTime)
    }

    /// The track as `SameItem` pairs it in the frame at `time`.
    func sighting(at time: Double) -> SameItem.Sighting {
        SameItem.Sighting(observation: lastObservation, expected: predictedBounds(at: time),
                          settledReading: voter.winner?.transcript)
    }

    mutating func absorb(_ observation: Observation, frame: Int, time: Double) {
        motion.observe(from: lastObservation.bounds.center, to: observation.bounds.center, elapsed: time - lastSeenTime)
        if let transcript = observation.transcript {
            vote(transcript, confidence: observation.confidence, at: observation.bounds,
                 isNewValue: observation.isNewValue)
        }
        hits += 1
        lastObservation = observation
        lastSeenFrame = frame
        lastSeenTime = time
        obscuredTime = 0
    }

    /// A reading of more of the line than was read so far (it is entering the frame) starts the vote afresh:
    /// the earlier readings were of a piece. A reading of a piece of it (leaving, half hidden) says nothing
    /// about the whole line and is not counted.
    private mutating func vote(_ transcript: String, confidence: Double, at bounds: Bounds, isNewValue: Bool) {
        if isNewValue && !isPieceOfCurrent(transcript) {
            // The line's text changed in place: what it said before is no vote on what it says now.
            voter = TranscriptVoter()
        } else if let current = voter.winner?.transcript {
            let before = lastObservation.bounds
            if SameItem.isMoreOfLine(transcript, at: bounds, than: current, at: before) {
                voter = TranscriptVoter()
            } else if SameItem.isMoreOfLine(current, at: before, than: transcript, at: bounds) {
                return
            }
        }
        voter.vote(transcript, confidence: confidence)
    }

    /// A reading shorter than the settled one and a stretch of it: a piece of the line (leaving, cut), which says
    /// nothing new about the whole.
    private func isPieceOfCurrent(_ transcript: String) -> Bool {
        guard let current = voter.winner?.transcript, transcript.count < current.count else { return false }
        return partSimilarity(transcript, in: current) >= SameItem.sameReading
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
