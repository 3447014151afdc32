import Foundation

/// What one frame changed: items that appeared, moved or changed, and left.
public struct TrackerChanges: Sendable, Equatable {
    public var added: [RecognizedItem] = []
    public var updated: [RecognizedItem] = []
    public var removed: [RecognizedItem] = []

    public init(added: [RecognizedItem] = [], updated: [RecognizedItem] = [], removed: [RecognizedItem] = []) {
        self.added = added
        self.updated = updated
        self.removed = removed
    }

    public var isEmpty: Bool { added.isEmpty && updated.isEmpty && removed.isEmpty }
}

/// Turns per-frame observations into items with stable ids (pure Swift: no OpenCV, no camera).
///
/// Each frame: predict every track forward, pair observations with tracks (`SameItem`), start a
/// tentative track for each unpaired observation, confirm tracks with enough sightings (added), report
/// confirmed tracks that moved beyond `updateDistance` or changed their value (updated), and end tracks
/// unseen for longer than `gracePeriod` (removed; tentative ones vanish silently).
/// IDs belong to this tracker instance.
public struct Tracker: Sendable {
    public let configuration: TrackerConfiguration
    private var tracks: [Track] = []

    public init(configuration: TrackerConfiguration = TrackerConfiguration()) throws {
        try configuration.validate()
        self.configuration = configuration
    }

    /// Every confirmed item, including those briefly unseen, in reading order.
    public var items: [RecognizedItem] {
        tracks.filter { $0.state == .confirmed }.map(\.item).sortedInReadingOrder()
    }

    /// Feeds the observations of the frame with index `frame` at media time `time`.
    public mutating func update(_ observations: [Observation], frame: Int, time: Double) -> TrackerChanges {
        var changes = TrackerChanges()
        let pairs = SameItem(configuration: configuration).pairs(tracks.map { $0.sighting(at: time) }, observations)
        var seen = Set<Int>()
        for (trackIndex, observationIndex) in pairs {
            tracks[trackIndex].absorb(observations[observationIndex], frame: frame, time: time)
            seen.insert(trackIndex)
        }
        let paired = Set(pairs.map(\.seen))
        for (index, observation) in observations.enumerated() where !paired.contains(index) {
            tracks.append(Track(id: UUID(), observation: observation, frame: frame, time: time))
            seen.insert(tracks.count - 1)
        }

        var survivors: [Track] = []
        for (index, var track) in tracks.enumerated() {
            if !seen.contains(index) {
                if time - track.lastSeenTime > configuration.gracePeriod {
                    if track.state == .confirmed {
                        changes.removed.append(track.item)
                    }
                    continue
                }
                survivors.append(track)
                continue
            }
            switch track.state {
            case .tentative:
                let needed = track.kind == .barcode ? configuration.barcodeConfirmations
                    : configuration.textConfirmations
                if track.hits >= needed {
                    track.state = .confirmed
                    track.reported = track.item
                    changes.added.append(track.item)
                }
            case .confirmed:
                let item = track.item
                if let reported = track.reported, hasChanged(from: reported, to: item) {
                    track.reported = item
                    changes.updated.append(item)
                }
            }
            survivors.append(track)
        }
        tracks = survivors
        changes.added = changes.added.sortedInReadingOrder()
        changes.updated = changes.updated.sortedInReadingOrder()
        changes.removed = changes.removed.sortedInReadingOrder()
        return changes
    }

    /// Ends every track: the confirmed ones come back as removed (DataScanner's stopScanning).
    public mutating func removeAll() -> TrackerChanges {
        let removed = tracks.filter { $0.state == .confirmed }.map(\.item)
        tracks.removeAll()
        return TrackerChanges(removed: removed.sortedInReadingOrder())
    }

    private func hasChanged(from reported: RecognizedItem, to current: RecognizedItem) -> Bool {
        reported.value != current.value
            || reported.bounds.largestCornerMove(to: current.bounds) > configuration.updateDistance
    }
}
