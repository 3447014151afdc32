/// When a line's readings are confirmed: the one rule of the frame loop's reading cache (`TextReadingCache`) and
/// the detector's turns (`TextDetectorCadence`). A fresh reading that agrees with the one before it (the same
/// transcript) adds a vote; one that does not starts the count again. Two agreeing readings in a row confirm a line:
/// one reading can be a blurred frame's or a half-hidden line's.
struct ReadingVotes: Sendable, Equatable {
    /// Readings in a row, up to the last, that agreed.
    private(set) var agreeing = 1

    /// Agreeing readings in a row that confirm a line.
    static let confirming = 2

    var isConfirmed: Bool { agreeing >= Self.confirming }

    /// Whether the last reading agreed with the one before it.
    var isAgreeing: Bool { agreeing > 1 }

    /// Agreeing readings past the confirming ones: how long a confirmed line has held.
    var agreeingSinceConfirmed: Int { max(agreeing - Self.confirming, 0) }

    /// Counts a fresh reading: `agrees` when it says what the reading before it said.
    mutating func count(agrees: Bool) {
        agreeing = agrees ? agreeing + 1 : 1
    }

}
