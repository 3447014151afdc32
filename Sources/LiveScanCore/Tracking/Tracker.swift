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
/// tentative track for each unpaired observation, then tell every track whether it was seen; the track
/// decides its own transition (`Track.wasSeen`, `wasMissed`: added, updated, lost, removed) and the tracker
/// collects what they report.
/// IDs belong to this tracker instance.
public struct Tracker: Sendable {
    public let configuration: TrackerConfiguration
    private var tracks: [Track] = []
    /// The media time of the frame before.
    private var lastTime: Double?

    public init(configuration: TrackerConfiguration = TrackerConfiguration()) throws {
        try configuration.validate()
        self.configuration = configuration
    }

    /// Every confirmed item, including those briefly unseen, in reading order.
    public var items: [RecognizedItem] {
        tracks.filter(\.isReported).map(\.item).sortedInReadingOrder()
    }

    /// Feeds the observations of the frame with index `frame` at media time `time`. `viewObscured`: the frame shows
    /// its view blurred past reading (`ViewClarity`: a camera shake, a refocus); the time since the frame before then
    /// does not count against the grace period of the items not seen in it, which were hidden, not gone.
    public mutating func update(_ observations: [Observation], frame: Int, time: Double, viewObscured: Bool = false)
        -> TrackerChanges
    {
        var changes = TrackerChanges()
        let sinceLastFrame = max(time - (lastTime ?? time), 0)
        lastTime = time
        let pairs = SameItem(configuration: configuration).pairs(tracks.map { $0.sighting(at: time) }, observations)
        var seen = Set<Int>()
        for (trackIndex, observationIndex) in pairs {
            let observation = observations[observationIndex]
            if tracks[trackIndex].isAnotherText(observation, configuration) {
                // Its line says another text where it stands now (the next slide): the item it was ends, and the
                // new text is an item of its own, confirmed as any new line is.
                if let ended = tracks[trackIndex].end() {
                    changes.removed.append(ended)
                }
                tracks.append(Track(id: UUID(), observation: observation, frame: frame, time: time))
                seen.insert(tracks.count - 1)
                continue
            }
            tracks[trackIndex].absorb(observation, frame: frame, time: time)
            seen.insert(trackIndex)
        }
        let paired = Set(pairs.map(\.seen))
        for (index, observation) in observations.enumerated() where !paired.contains(index) {
            tracks.append(Track(id: UUID(), observation: observation, frame: frame, time: time))
            seen.insert(tracks.count - 1)
        }

        for index in tracks.indices {
            if viewObscured && !seen.contains(index) {
                tracks[index].obscuredTime += sinceLastFrame
            }
            let event = seen.contains(index) ? tracks[index].wasSeen(configuration)
                : tracks[index].wasMissed(at: time, configuration)
            switch event {
            case .added(let item): changes.added.append(item)
            case .updated(let item): changes.updated.append(item)
            case .removed(let item): changes.removed.append(item)
            case nil: break
            }
        }
        tracks.removeAll { $0.state == .removed }
        changes.added = changes.added.sortedInReadingOrder()
        changes.updated = changes.updated.sortedInReadingOrder()
        changes.removed = changes.removed.sortedInReadingOrder()
        return changes
    }

    /// Ends every track: the reported ones come back as removed. DataScanner calls it when the scan ends, and
    /// after each still image: what another picture shows is never the same physical item, wherever it lies.
    public mutating func removeAll() -> TrackerChanges {
        let removed = tracks.filter(\.isReported).map(\.item)
        tracks.removeAll()
        return TrackerChanges(removed: removed.sortedInReadingOrder())
    }
}
