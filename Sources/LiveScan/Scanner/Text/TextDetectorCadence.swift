import Foundation
import Glibc

/// The learned text detector in a video or live scan (`TextBoxReader`). It finds scene text the edge locator misses,
/// but costs hundreds of milliseconds a frame (about 280 ms at 1312x736 on one core: 250 ms whole, and the overlap of
/// its strips), so it runs every `interval` frames, on a thread of its own, on the frame of its turn; in between,
/// and while it runs, each of its boxes is followed from frame to frame: its pixels are found again near where they
/// were (`FollowedPixels`), so that its bounds stay where its text is, as the edge locator's lines do. A box leaving
/// the frame is followed by its part still in view while at least half its short side is (its bounds then reach
/// past the frame's edge), and keeps the reading it had while whole; a box whose pixels are not found again (it left
/// the frame, was hidden, blurred) is dropped until a later turn finds it. The boxes of each turn replace the last
/// turn's, but for a line read surely that the turn did not box where it is still followed: the detector's miss.
///
/// The turn reads its boxes too, on its thread (`TextBoxReader.readBox`, both readers: about 36 ms a box),
/// and each box carries its reading as it is followed: on the frame loop those reads held up a live scan (22 in
/// 25 s of the 720p30 benchmark, 1.6 s in which frames were dropped). A box whose line the edge locator found in the
/// turn's frame and reads there (`MotionTextReading.keepsLine`) is left to it and not followed. A box where a followed box of an earlier turn
/// is in the turn's frame (`SameItem.isSamePlace`) is read again until its readings are confirmed (`ReadingVotes`), then keeps
/// that reading for `rereadTurns` turns (as the frame loop's `TextReadingCache` confirms and rests a line; a box
/// read once and kept lost ICDAR's panned photos 0.450 -> 0.411 word recall, confirmed 0.429).
///
/// A video file's scan takes a turn's boxes `fileLag` frames after that turn (waiting for them if need be), so that
/// its event log does not depend on how fast the machine is; a live scan takes them in the first frame after they
/// are ready, and its turns come less often while the source drops frames (the frame budget comes first). A turn
/// comes early, after a quarter of the interval, when most of the edge locator's lines became new since the last
/// (text came into view or into focus, even while that turn ran); and at once when the view changed (`ViewChange`: a
/// cut, a turn to something else), the boxes of a turn started before that change dropped (they are the old view's);
/// and at once when the view is clear again after a shake's blur (`ViewClarity`), which lost the followed boxes.
/// A turn still running when the view changes, or when twice its frame's lines came into view, is ended
/// (`DetectionCancellation`) and the next begun at once, on the frame that shows them. While turns find nothing the
/// scan did not have (`idleTurns`), the regular turns come at twice the interval, until one finds news, a box is lost
/// or the view changes.
final class TextDetectorCadence {
    /// A box being followed: where it is now, what it read, and its pixels as they were cut.
    private struct FollowedBox {
        var line: DetectedLine
        var pixels: FollowedPixels
        /// Its move in the last frame followed: where to look first in the next.
        var step: (dx: Double, dy: Double) = (0, 0)
    }

    /// The detector's turn in progress, on a thread of its own, joined when its boxes are taken (and by `stop`).
    private struct Turn {
        let frame: Frame
        /// Its number among the turns started (`turns`).
        let number: Int
        /// The edge locator's lines in its frame.
        let located: Int
        /// Whether it ended a turn begun on a view since left (`lines`): it is not ended in its turn.
        let replacedAnother: Bool
        let result: TurnResult
        let cancellation: DetectionCancellation
        let thread: JoinableThread

        /// Its boxes, once its thread has ended (waiting for it if need be).
        func boxes() throws -> TurnBoxes {
            thread.join()
            return try result.finished()
        }
    }

    private let boxReader: any TextBoxReader
    /// Frames from one turn to the next (at the least, for a live scan).
    let interval: Int
    /// Frames after a turn at which a video file's scan waits for its boxes; nil for a live scan.
    private let fileLag: Int?
    private var turn: Turn?
    /// Turns ended early (`endTurn`), their threads maybe still stopping: joined once stopped, and by `stop`.
    private var endedTurns: [Turn] = []
    private var lastTurnFrame: Int?
    private var followed: [FollowedBox] = []
    /// Turns started: the next turn's number.
    private var turns = 0
    /// Whether a box is where a followed box is: the tracker's rule for text.
    private let sameItem: SameItem
    /// The edge locator's lines in the frame before.
    private var lastLocated: [Bounds] = []
    /// Frames between turns now: `interval`, doubled (up to `maxBackoff` times) for each turn after which a live
    /// source dropped more than `droppedShare` of its frames (the cores cannot keep up with the frames and the
    /// detector both), halved back for each after which it did not.
    private var currentInterval: Int
    private let droppedFrames: (() -> Int)?
    /// The live source's dropped frames when the last turn started.
    private var droppedAtTurn = 0
    private var viewChange = ViewChange()
    /// The last frame that showed another view than the frame before it.
    private(set) var newViewFrame: Int?
    /// Whether the frame before showed its view blurred past reading (`ViewClarity`), and the last frame that showed
    /// it clear again after such frames: the boxes followed into the blur were lost in it.
    private var wasObscured = false
    private var clearedFrame: Int?
    /// The last frame in which most of the edge locator's lines were new.
    private var newSceneFrame: Int?
    /// Turns in a row that found no text the scan did not have, since the view last changed and every box was
    /// followed (`lines`): each doubles the frames to the next regular turn, up to `idleDoublings` times. (The early
    /// turns of a new view or a new scene do not wait for it.)
    private var idleTurns = 0
    /// The turn whose boxes the last call of `lines` took, if it took one of the view in front: the frame it looked
    /// at and every box it found there, those left to the edge locator too. Where it found none, the locator's lines
    /// are no text (`TextReadingCache.judge`).
    private(set) var takenTurn: (frame: Int, boxes: [Bounds])?
    /// The latest turn taken of the view in front (nil from a view change until one is): the frame it looked at and
    /// every box it found there. The detector looked at the whole frame, so what it did not box there is no text.
    private(set) var viewTurn: (frame: Frame, boxes: [Bounds])?

    /// A turn's boxes are taken this many frames after it in a video file: about what a live scan at 30 fps sees of
    /// a turn on this machine (ICDAR's photos as a drifting video: detection at 1312x736 290 ms, its boxes' reads
    /// 110 ms, medians of 102 turns; 12 frames in all), so that a file's log does not depend on the machine's speed.
    /// A file's scan that gets to this frame before the turn is done waits for it (16 s of that video's 75).
    static let fileLag = 10
    /// The least normalised correlation at which a box's pixels count as found again. A line's pixels moved by a
    /// hand-held camera correlate above 0.9 from one frame to the next; half a line hidden or gone, below 0.7.
    static let minFollowScore = 0.8
    static let maxBackoff = 8
    /// Turns a box's reading is kept before it is read again: a display or a label's text can change in place.
    static let rereadTurns = 4
    /// A live scan on a loaded machine drops a few frames whatever the detector does (19 of 740 in the 720p30
    /// benchmark without it: 2.6 %); more than this is the detector's doing.
    static let droppedShare = 0.05
    /// At most twice the interval between regular turns while turns find nothing new (`idleTurns`): 2 s at
    /// `balanced`, 30 fps, the longest that text the locator cannot read, coming into view without a new scene,
    /// waits for a turn (make bench's 720p / 1080p video: 3.55 / 4.88 s with a turn every interval, 2.78 / 4.02 s at
    /// twice it, 2.84 / 3.69 s at 4 times; the same event log).
    static let idleDoublings = 1

    /// `droppedFrames`: a live source's count of frames it dropped; with it, each turn's boxes are taken as soon as
    /// they are ready (the newest frame matters, not the order), and turns come less often while frames are dropped.
    /// `sameItem`: the tracker's rule, by which a box is one an earlier turn read.
    init(boxReader: any TextBoxReader, interval: Int, droppedFrames: (() -> Int)? = nil,
         sameItem: SameItem = SameItem(configuration: TrackerConfiguration())) {
        self.boxReader = boxReader
        self.sameItem = sameItem
        self.interval = max(interval, 1)
        currentInterval = self.interval
        self.droppedFrames = droppedFrames
        fileLag = droppedFrames == nil ? min(Self.fileLag, self.interval) : nil
    }

    /// The detector's boxes in `frame`, read: the last turn's, followed to where their text is now. `located`: the
    /// edge locator's lines in this frame, which tell when the scene changed; `surelyRead`: those of them Tesseract
    /// reads surely (a turn leaves the boxes of the lines the locator keeps to it: `MotionTextReading.keepsLine`);
    /// `viewObscured`: the frame shows its view blurred past reading (`ViewClarity`).
    func lines(in frame: Frame, located: [Bounds], surelyRead: [Bounds] = [], viewObscured: Bool = false) throws
        -> [DetectedLine]
    {
        if try viewChange.isNewView(frame) {
            newViewFrame = frame.index
            viewTurn = nil
            idleTurns = 0
        }
        // Noted in every frame, a turn running or not: text that comes into view (or into focus) while a turn reads
        // an earlier frame is looked for when that turn is done.
        if isNewScene(located) {
            newSceneFrame = frame.index
        }
        // A view clear again after a shake's blur is looked at at once: the boxes followed into the blur were lost
        // there, and the items they were wait a grace period for them (a second's blur left a sign's lines to the
        // next regular turn, 45 frames on, and they became new items).
        if wasObscured && !viewObscured {
            clearedFrame = frame.index
        }
        wasObscured = viewObscured
        // A turn reading a frame whose view has since been left is ended, and one begun on this frame: its boxes
        // would be dropped (another view) or miss most of the text now in view (twice the lines it had: text came
        // into view or into focus), and the turn on the new view would wait for it (ICDAR's photos coming into
        // focus: a turn begun on the blurred frames held the sharp frames' back 5-8 frames). A turn that ended
        // another runs to its end, so that views that keep changing still get the detector's boxes.
        let replaces = turn.map { turn in
            !turn.replacedAnother && !isReady(turn, at: frame.index) && (newViewFrame == frame.index
                || newSceneFrame == frame.index && located.count >= 2 * turn.located)
        } ?? false
        if replaces {
            endTurn()
        }
        joinEndedTurns(waiting: false)
        takenTurn = nil
        let followedBefore = followed.count
        followed = try followed.compactMap { try follow($0, into: frame) }
        if followed.count < followedBefore {
            // A box lost (it left, was hidden or blurred) is found again only by a turn.
            idleTurns = 0
        }
        if let turn, isReady(turn, at: frame.index) {
            self.turn = nil
            let boxes = try turn.boxes()
            if Self.isLater(newViewFrame, than: turn.frame.index) {
                followed = []  // the view before's boxes, which tell nothing of this view's
            } else {
                // A turn that found boxes, each of them the locator's line, read as nothing, or read as the box at
                // its place read before, found nothing the scan did not have: on a scene whose text the locator reads
                // (make bench's video: most boxes are its rendered lines) or whose boxes are read and confirmed, turns
                // come less often until one finds news, a box is lost or the view changes. A turn that found no box
                // at all is no sign that the scan has all the text (a line hidden or blurred, to be looked for again).
                let foundNews = boxes.found.isEmpty || boxes.lines.contains { $0.readsNews(inTurn: turn.number) }
                idleTurns = foundNews ? 0 : idleTurns + 1
                let carried = try boxes.lines.compactMap { try carry($0, from: turn.frame, into: frame) }
                // A line read surely that this turn did not box where it is still followed onto its pixels is the
                // detector's miss (its boxes of small text come and go from turn to turn), not text gone.
                let missed = followed.filter { old in
                    (old.line.reading?.confidence ?? 0) >= DetectedLineReading.learnedSureConfidence
                        && !carried.contains { new in
                            sameItem.isSamePlace(new.line.bounds, as: old.line.bounds)
                                || SameItem.isGrownOrShrunk(new.line.bounds, from: old.line.bounds)
                        }
                }
                followed = carried + missed
                takenTurn = (turn.frame.index, boxes.found)
                viewTurn = (turn.frame, boxes.found)
            }
        }
        let sinceTurn = lastTurnFrame.map { frame.index - $0 } ?? Int.max
        let lastTurn = lastTurnFrame ?? -1
        let regularInterval = min(currentInterval << min(idleTurns, Self.idleDoublings), interval * Self.maxBackoff)
        if turn == nil, replaces || sinceTurn >= regularInterval || Self.isLater(newViewFrame, than: lastTurn)
            || Self.isLater(clearedFrame, than: lastTurn)
            || sinceTurn >= currentInterval / 4 && Self.isLater(newSceneFrame, than: lastTurn)
        {
            if let droppedFrames, sinceTurn != Int.max {
                let dropped = droppedFrames()
                let keptUp = Double(dropped - droppedAtTurn) <= Self.droppedShare * Double(sinceTurn)
                currentInterval = keptUp ? max(currentInterval / 2, interval)
                    : min(currentInterval * 2, interval * Self.maxBackoff)
                droppedAtTurn = dropped
            }
            try start(on: frame, located: located, surelyRead: surelyRead, replacingAnother: replaces)
        }
        lastLocated = located
        return followed.map(\.line)
    }

    /// Whether `frame` (nil: none) came after the frame `index`.
    private static func isLater(_ frame: Int?, than index: Int) -> Bool {
        frame.map { $0 > index } ?? false
    }

    /// Whether most of this frame's lines (at least 2) are new, touching none of the frame before's: the camera
    /// turned to something else, or something new came into view, and the detector need not wait for its turn.
    private func isNewScene(_ located: [Bounds]) -> Bool {
        let new = located.count { region in !lastLocated.contains { $0.overlaps(region) } }
        return new >= 2 && 2 * new > located.count
    }

    /// Ends a turn in progress and waits for every turn's thread: after this, the detector is not running.
    func stop() {
        endTurn()
        joinEndedTurns(waiting: true)
    }

    /// Ends the turn in progress, if any: its detector run stops within milliseconds, its box reads at the next box,
    /// and its boxes are never taken. Its number is the next turn's. Not waited for: the frame loop goes on.
    private func endTurn() {
        guard let turn else { return }
        turn.cancellation.cancel()
        endedTurns.append(turn)
        self.turn = nil
        turns -= 1
    }

    /// Joins the threads of the ended turns that have stopped (all of them, waiting for them, with `waiting`).
    private func joinEndedTurns(waiting: Bool) {
        endedTurns.removeAll { turn in
            guard waiting || turn.result.isReady else { return false }
            turn.thread.join()
            return true
        }
    }

    private func isReady(_ turn: Turn, at frameIndex: Int) -> Bool {
        if let fileLag {
            return frameIndex - turn.frame.index >= fileLag
        }
        return turn.result.isReady
    }

    /// Starts a turn on `frame`, where the edge locator found the lines `located` and Tesseract read `surelyRead`
    /// of them surely.
    private func start(on frame: Frame, located: [Bounds], surelyRead: [Bounds], replacingAnother: Bool) throws {
        let result = TurnResult()
        let cancellation = try DetectionCancellation()
        let isLive = fileLag == nil
        let turnNumber = turns
        turns += 1
        // The boxes followed into this frame, where the turn's boxes are found.
        let known = followed.map(\.line)
        let thread = try JoinableThread(name: "LiveScan.text") { [boxReader, sameItem, cancellation] in
            // In a live scan the detector takes what the frame loop leaves of the cores: its thread runs at the
            // lowest priority, so that the scan keeps its frame rate and the detector's turns come late instead. (Not
            // in a file's scan, which waits for the turn: there a busy machine would starve it.) On Linux a nice
            // value is the calling thread's own (who 0 is this thread), not the process's.
            if isLive {
                _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 19)
            }
            result.finish(Result {
                let found = try boxReader.boxes(in: frame, cancellation: cancellation)
                let boxes = found.filter { box in
                    !located.contains { MotionTextReading.keepsLine($0, over: box, surelyRead: surelyRead) }
                }
                let lines = try Self.read(boxes, in: frame, turn: turnNumber, known: known, boxReader: boxReader,
                                          sameItem: sameItem, cancellation: cancellation)
                return TurnBoxes(lines: lines, found: found)
            })
        }
        turn = Turn(frame: frame, number: turnNumber, located: located.count, replacedAnother: replacingAnother,
                    result: result, cancellation: cancellation, thread: thread)
        lastTurnFrame = frame.index
    }

    /// `boxes` of the turn `turn` on `frame`, each with its reading: that of the `known` box at its place (the
    /// nearest by `sameItem`) while it is confirmed and fresh, or read; `CancellationError` once the turn is ended.
    private static func read(_ boxes: [Bounds], in frame: Frame, turn: Int, known: [DetectedLine],
                             boxReader: any TextBoxReader, sameItem: SameItem,
                             cancellation: DetectionCancellation) throws -> [DetectedLine] {
        try boxes.map { box in
            try cancellation.throwIfCancelled()
            let same = known.filter { sameItem.isSamePlace(box, as: $0.bounds) }
                .max { $0.bounds.intersectionOverUnion(box) < $1.bounds.intersectionOverUnion(box) }
            if let same, Self.leftTheFrame(same.bounds, width: frame.width, height: frame.height) {
                // The box is the part of that line still in view: the line reads as it did while whole.
                return same
            }
            if let same, same.votes.isConfirmed, turn - same.turnRead < rereadTurns {
                var line = same
                line.move(dx: box.center.x - same.bounds.center.x, dy: box.center.y - same.bounds.center.y)
                line.bounds = box
                return line
            }
            let reading = try boxReader.readBox(in: frame, region: box)
            if let same, let text = same.reading?.transcript, let piece = reading?.transcript,
               Self.isPart(box, reading: piece, of: same.bounds, text: text)
            {
                // The turn found part of that line (cut at the frame's edge, where the detector finds text by
                // less ground around it): the line says what it said.
                return same
            }
            var votes = same?.votes ?? ReadingVotes()
            if let same {
                votes.count(agrees: same.reading?.transcript == reading?.transcript)
            }
            return DetectedLine(bounds: box, reading: reading, turnRead: turn, votes: votes)
        }
    }

    /// Whether a followed box `bounds` reaches past the edge of a `width` x `height` frame by more than half its
    /// short side (about a character): its line is leaving the view, and a box found at its place is its part still
    /// in view, which reads only part of it (ICDAR's img_14: `ntelligence` as `gence`). Less is a hand's shake at the
    /// edge.
    static func leftTheFrame(_ bounds: Bounds, width: Int, height: Int) -> Bool {
        let box = bounds.boundingBox, margin = bounds.shortSide / 2
        return box.minX < -margin || box.minY < -margin
            || box.maxX > Double(width) + margin || box.maxY > Double(height) + margin
    }

    /// Whether a turn's `box`, reading `reading`, holds only part of the followed line at `line` read as `text`:
    /// shorter along its line by more than half its short side (a character), read as fewer characters, and as a
    /// stretch of its text (`SameItem.isPiece`, as a located line's piece is known: `TextReadingCache.showsPart`).
    /// ICDAR's img_401: the standing `TOKYO` near the frame's top edge, boxed without its `T` by the next turn and
    /// read `OKYO`. A tighter box that reads as many characters or more is news: the line was read short before.
    static func isPart(_ box: Bounds, reading: String, of line: Bounds, text: String) -> Bool {
        box.longSide < line.longSide - 0.5 * box.shortSide && reading.count < text.count
            && SameItem.isPiece(reading, at: box, of: text, at: line)
    }

    /// Whether the latest turn of the view in front saw the pixels of `region` in `frame`: they are found in the
    /// turn's frame, as far away as the frames between allow a hand-held camera to move them (as `carry` looks for a
    /// box). Pixels not found there are news to the turn, which cannot have judged them: text that appeared in place
    /// or came out from behind something since.
    func turnSaw(_ region: Bounds, in frame: Frame) throws -> Bool {
        guard let viewTurn, var pixels = try FollowedPixels(region, in: frame), pixels.shortSide >= 4 else {
            return false
        }
        let frames = frame.index - viewTurn.frame.index
        return try pixels.find(in: viewTurn.frame, step: (0, 0),
                               radius: Self.reach(overFrames: frames),
                               minScore: Self.minFollowScore) != nil
    }

    /// A box found in `earlier`, looked for in `frame`, as far away as its frames apart allow a hand-held camera
    /// to move it; nil when not found.
    private func carry(_ line: DetectedLine, from earlier: Frame, into frame: Frame) throws -> FollowedBox? {
        guard let pixels = try FollowedPixels(line.bounds, in: earlier), pixels.shortSide >= 4 else { return nil }
        let box = FollowedBox(line: line, pixels: pixels)
        let frames = frame.index - earlier.index
        return try locate(box, in: frame, radius: Self.reach(overFrames: frames))
    }

    /// How far a hand-held camera may move a box's pixels over `frames` frames: the search around a box's place
    /// grows by `searchRadius` a frame, up to 16 frames (a box unseen longer is looked for no farther).
    static func reach(overFrames frames: Int) -> Int {
        searchRadius + searchRadius * min(max(frames, 0), 16)
    }

    /// `box` from the frame before, looked for where its last step would take it.
    private func follow(_ box: FollowedBox, into frame: Frame) throws -> FollowedBox? {
        try locate(box, in: frame, radius: Self.searchRadius + Int(max(abs(box.step.dx), abs(box.step.dy)).rounded(.up)))
    }

    /// Pixels around the expected place searched for a box: a few, more for a fast box.
    private static let searchRadius = 4

    private func locate(_ box: FollowedBox, in frame: Frame, radius: Int) throws -> FollowedBox? {
        var box = box
        guard let move = try box.pixels.find(in: frame, step: box.step, radius: radius, minScore: Self.minFollowScore,
                                             partlyOutOfFrame: true)
        else { return nil }
        box.step = move
        box.line.move(dx: move.dx, dy: move.dy)
        // Found again: it was seen in the frame it was found in before this one.
        box.line.reading?.earlierSightings += 1
        return box
    }
}

/// A box of the learned detector and what it reads (nil: nothing).
struct DetectedLine: Sendable, Equatable {
    var bounds: Bounds
    var reading: Observation?
    /// The detector's turn that read it.
    var turnRead = 0
    /// Its readings, turn after turn, up to that one.
    var votes = ReadingVotes()

    /// Whether the turn `turn` read it as text that the box at its place before did not say (or where no box was).
    func readsNews(inTurn turn: Int) -> Bool {
        reading != nil && turnRead == turn && !votes.isAgreeing
    }

    mutating func move(dx: Double, dy: Double) {
        bounds = bounds.offsetBy(dx: dx, dy: dy)
        if var moved = reading {
            moved.bounds = moved.bounds.offsetBy(dx: dx, dy: dy)
            reading = moved
        }
    }
}

/// A detector turn's boxes: those it keeps, read (the boxes of lines the locator keeps left out), and all it found.
private struct TurnBoxes: Sendable {
    var lines: [DetectedLine]
    var found: [Bounds]
}

/// What one detector turn found, written by its thread, taken by the scan's once that thread has ended (`Turn.boxes`).
private final class TurnResult: @unchecked Sendable {
    private let lock = NSLock()
    private var result: Result<TurnBoxes, Error>?

    var isReady: Bool { lock.withLock { result != nil } }

    func finish(_ result: Result<TurnBoxes, Error>) {
        lock.withLock { self.result = result }
    }

    /// The result, which the turn's thread always leaves before it ends.
    func finished() throws -> TurnBoxes {
        try lock.withLock { result }!.get()
    }
}
