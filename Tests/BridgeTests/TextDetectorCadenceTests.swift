import Foundation
import Testing
@testable import LiveScan
import LiveScanScenes

/// A line turned 40 degrees (the edge locator groups upright lines), on a 640x360 canvas of paper grey, drifting
/// right and down by (2, 1) pixels a frame as under a hand-held camera; `hiddenFrom` on, the canvas is blank. A
/// video's frames, one scene.
final class DriftingTurnedLine: FrameSource, @unchecked Sendable {
    static let text = "Order 4711 ships today"
    let info: SourceInfo
    let isVideo = true
    private let line: [UInt8]
    private let lineWidth: Int, lineHeight: Int
    /// The ink box of the line in frame 0.
    let ink: Bounds
    private let count: Int
    private let hiddenFrom: Int
    private var next = 0

    init(count: Int, hiddenFrom: Int = .max) throws {
        let (picture, ink) = try turnedLine(Self.text, pixelHeight: 24, degrees: 40, margin: 20)
        let image = try picture.bridgeImage()
        line = try image.grayPixels()
        (lineWidth, lineHeight) = (picture.width, picture.height)
        self.ink = ink.offsetBy(dx: Double(Self.origin.x), dy: Double(Self.origin.y))
        self.count = count
        self.hiddenFrom = hiddenFrom
        info = SourceInfo(name: "drifting turned line", width: 640, height: 360, framesPerSecond: 30, frameCount: count)
    }

    private static let origin = (x: 120, y: 20)

    /// Where the line's ink is in frame `index`.
    func ink(inFrame index: Int) -> Bounds { ink.offsetBy(dx: Double(2 * index), dy: Double(index)) }

    func frame(_ index: Int) throws -> Frame {
        var pixels = [UInt8](repeating: 255, count: info.width * info.height)
        if index < hiddenFrom {
            let (left, top) = (Self.origin.x + 2 * index, Self.origin.y + index)
            for row in 0..<lineHeight where top + row < info.height {
                for column in 0..<lineWidth where left + column < info.width {
                    pixels[(top + row) * info.width + left + column] = line[row * lineWidth + column]
                }
            }
        }
        let image = try FrameImage(pixels: pixels, width: info.width, height: info.height, channels: 1)
        return Frame(image: image, index: index, time: Double(index) / 30)
    }

    func nextFrame() throws -> Frame? {
        guard next < count else { return nil }
        defer { next += 1 }
        return try frame(next)
    }
}

@Suite struct TextDetectorCadenceTests {
    /// The detector and its boxes' readers as a video at the default level runs them.
    private func boxReader() throws -> DetectedTextReader {
        try #require(try TextEngines(options: QualityLevel.balanced.textOptions(languages: ["eng"])).detected)
    }

    /// A video file's scan takes a turn's boxes `fileLag` frames after it, whatever the machine's speed, read by the
    /// turn; from then on the box and its reading are followed onto the line's pixels as they drift, and dropped
    /// once they are gone.
    @Test func aTurnsBoxIsTakenAfterItsLagAndFollowsItsText() throws {
        let video = try DriftingTurnedLine(count: 30, hiddenFrom: 24)
        let cadence = TextDetectorCadence(boxReader: try boxReader(), interval: 30)
        defer { cadence.stop() }
        for index in 0..<30 {
            let lines = try cadence.lines(in: video.frame(index), located: [])
            let boxes = lines.map(\.bounds)
            if index < TextDetectorCadence.fileLag {
                #expect(boxes.isEmpty, "frame \(index): \(boxes)")
            } else if index < 24 {
                let ink = video.ink(inFrame: index)
                #expect(boxes.count == 1, "frame \(index): \(boxes)")
                let box = try #require(boxes.first)
                #expect(box.center.distance(to: ink.center) <= 4, "frame \(index): box \(box), ink \(ink)")
                #expect(ink.share(coveredBy: box) > 0.95)
                let reading = try #require(lines.first?.reading, "frame \(index): the box read nothing")
                #expect(characterErrorRate(reading.transcript ?? "", truth: DriftingTurnedLine.text) <= 0.1,
                        "frame \(index): read \(reading.transcript ?? "")")
                #expect(reading.bounds.center.distance(to: ink.center) <= 6, "frame \(index): reading at \(reading.bounds)")
                // Seen in the turn's frame and found again in each frame since: the tracker's confirmations.
                #expect(reading.earlierSightings == index - TextDetectorCadence.fileLag + 1, "frame \(index)")
            } else {
                #expect(boxes.isEmpty, "frame \(index), the line gone: \(boxes)")
            }
        }
    }

    /// A line the camera turns away from is still there while part of it is in view: its box is followed by the
    /// part of its pixels left in the frame, and a later turn, whose box holds only that part, does not cut its
    /// reading short. Here the line drifts out through the frame's right and bottom edges, a turn every 30 frames.
    @Test func aLineLeavingTheFrameKeepsItsBoxAndItsWholeReading() throws {
        let video = try DriftingTurnedLine(count: 130)
        let cadence = TextDetectorCadence(boxReader: try boxReader(), interval: 30)
        defer { cadence.stop() }
        var partlyOut = 0
        for index in 0..<130 {
            let lines = try cadence.lines(in: video.frame(index), located: [])
            let ink = video.ink(inFrame: index).boundingBox
            // Ink reaching 20 pixels past the frame's edge, more than half of it in view.
            let outside = max(ink.maxX - 640, ink.maxY - 360)
            guard index >= TextDetectorCadence.fileLag, outside > 20,
                  video.ink(inFrame: index).share(coveredBy: Bounds(x: 0, y: 0, width: 640, height: 360)) > 0.6
            else { continue }
            partlyOut += 1
            #expect(lines.count == 1, "frame \(index), ink past the edge by \(outside): \(lines.map(\.bounds))")
            let box = try #require(lines.first)
            #expect(box.bounds.center.distance(to: video.ink(inFrame: index).center) <= 6, "frame \(index)")
            #expect(characterErrorRate(box.reading?.transcript ?? "", truth: DriftingTurnedLine.text) <= 0.1,
                    "frame \(index): read \(box.reading?.transcript ?? "")")
        }
        try #require(partlyOut >= 10, "the line was partly out of view in \(partlyOut) frames")
    }

    /// The detector's boxes read by the default level's readers, each turn's boxes first changed by `change` (the
    /// turn's number among those started, its boxes): a detector that misses or cuts what it found before.
    private final class ChangedTurns: TextBoxReader, @unchecked Sendable {
        let reader: DetectedTextReader
        let change: @Sendable (Int, [Bounds]) -> [Bounds]
        let lock = NSLock()
        var turns = 0
        init(_ reader: DetectedTextReader, change: @escaping @Sendable (Int, [Bounds]) -> [Bounds]) {
            self.reader = reader
            self.change = change
        }
        func boxes(in frame: Frame, cancellation: DetectionCancellation?) throws -> [Bounds] {
            let found = try reader.boxes(in: frame, cancellation: cancellation)
            let turn = lock.withLock { defer { turns += 1 }; return turns }
            return change(turn, found)
        }
        func readBox(in frame: Frame, region: Bounds) throws -> Observation? {
            try reader.readBox(in: frame, region: region)
        }
    }

    /// The line held still, a turn every 30 frames whose boxes `change` changes: the lines followed once the second
    /// turn's boxes are taken.
    private func linesAfterTheSecondTurn(change: @escaping @Sendable (Int, [Bounds]) -> [Bounds]) throws
        -> [DetectedLine]
    {
        let changed = ChangedTurns(try boxReader(), change: change)
        let cadence = TextDetectorCadence(boxReader: changed, interval: 30)
        defer { cadence.stop() }
        let line = try DriftingTurnedLine(count: 1).frame(0)
        var lines: [DetectedLine] = []
        for index in 0...(30 + TextDetectorCadence.fileLag) {
            lines = try cadence.lines(in: Frame(image: line.image, index: index, time: 0), located: [])
        }
        #expect(changed.lock.withLock { changed.turns } == 2)
        return lines
    }

    /// Whether `lines` are the test line, whole: one, read as it is, its box over its ink.
    private func isTheWholeLine(_ lines: [DetectedLine]) throws {
        #expect(lines.count == 1, "\(lines.map(\.bounds))")
        let kept = try #require(lines.first)
        #expect(characterErrorRate(kept.reading?.transcript ?? "", truth: DriftingTurnedLine.text) <= 0.1,
                "read \(kept.reading?.transcript ?? "")")
        let ink = try DriftingTurnedLine(count: 1).ink(inFrame: 0)
        #expect(ink.share(coveredBy: kept.bounds) > 0.95, "box \(kept.bounds), ink \(ink)")
    }

    /// A turn that finds part of a followed line (the detector boxed it short) does not cut the line: it keeps its
    /// box and the reading it had, where taking the turn's box and reading would cut the line's end off.
    @Test func aTurnThatBoxesPartOfALineKeepsTheLineWhole() throws {
        // Every turn after the first finds the box cut short along its line to its first 80 %, as DB cut a line
        // near the frame's edge.
        @Sendable func along(_ from: Point, _ to: Point) -> Point {
            Point(x: from.x + 0.8 * (to.x - from.x), y: from.y + 0.8 * (to.y - from.y))
        }
        try isTheWholeLine(try linesAfterTheSecondTurn { turn, boxes in
            turn == 0 ? boxes : boxes.map { box in
                Bounds(topLeft: box.topLeft, topRight: along(box.topLeft, box.topRight),
                       bottomRight: along(box.bottomLeft, box.bottomRight), bottomLeft: box.bottomLeft)
            }
        })
    }

    /// A turn that does not box a line read surely, still there and followed onto its pixels, missed it (DB's boxes
    /// of small text come and go from turn to turn): the line stays, where it was dropped with the turn's boxes.
    @Test func aTurnThatMissesASurelyReadLineKeepsIt() throws {
        try isTheWholeLine(try linesAfterTheSecondTurn { turn, boxes in turn == 0 ? boxes : [] })
    }

    /// A new scene does not wait for the detector's next turn: a line that appears in view is looked for within a
    /// quarter of the interval.
    @Test func aNewSceneStartsATurnBeforeItsTime() throws {
        let video = try DriftingTurnedLine(count: 1)
        let cadence = TextDetectorCadence(boxReader: try boxReader(), interval: 40)
        defer { cadence.stop() }
        let blank = try FrameImage(pixels: [UInt8](repeating: 255, count: 640 * 360), width: 640, height: 360,
                                   channels: 1)
        for index in 0..<10 {
            #expect(try cadence.lines(in: Frame(image: blank, index: index, time: 0), located: []).isEmpty)
        }
        // Two lines of the locator where there were none: the scene changed at frame 10.
        let located = [Bounds(x: 100, y: 50, width: 200, height: 30), Bounds(x: 100, y: 120, width: 200, height: 30)]
        let line = try video.frame(0)
        var firstFound: Int?
        for index in 10..<40 where firstFound == nil {
            let frame = Frame(image: line.image, index: index, time: 0)
            if try !cadence.lines(in: frame, located: located).isEmpty {
                firstFound = index
            }
        }
        #expect(firstFound == 10 + TextDetectorCadence.fileLag)
    }

    /// A cut to another view starts a turn at once, not at the interval, even where the edge locator finds nothing;
    /// and a turn still reading the view before the cut is ended: its boxes are the old view's. Here a grey frame
    /// cuts to the line on white paper at frame 12 (a turn at 12), which cuts at 17 to the same line on grey paper
    /// (the turn of 12, taken at 22, would follow onto it: normalised correlation does not see the paper's grey). The
    /// turn of 12 is ended at 17 and the line found by the turn begun there, at 27 (waiting for it: 32).
    @Test func aCutEndsTheTurnBeforeItAndStartsOneAtOnce() throws {
        let onWhite = try turnedLine(DriftingTurnedLine.text, pixelHeight: 32, degrees: 0).frame
        let onGrey = try turnedLine(DriftingTurnedLine.text, pixelHeight: 32, degrees: 0, paper: 110).frame
        let grey = try FrameImage(pixels: [UInt8](repeating: 110, count: onWhite.width * onWhite.height),
                                  width: onWhite.width, height: onWhite.height, channels: 1)
        let cadence = TextDetectorCadence(boxReader: try boxReader(), interval: 40)
        defer { cadence.stop() }
        var firstFound: Int?
        for index in 0..<60 where firstFound == nil {
            let image = index < 12 ? grey : index < 17 ? onWhite.image : onGrey.image
            if try !cadence.lines(in: Frame(image: image, index: index, time: 0), located: []).isEmpty {
                firstFound = index
            }
        }
        #expect(firstFound == 17 + TextDetectorCadence.fileLag)
    }

    /// Text that comes into view while a turn reads an earlier frame (too few cells change for a new view): when the
    /// edge locator finds most of its lines new and at least twice as many as in the turn's frame, the turn is ended
    /// and the next begun at once (a blank page, then two lines at frame 3: found at 13, not when the turn of frame 0
    /// is done, at 20). The turn that ended another runs to its end: five other lines at frame 5 wait for it.
    @Test func textComingIntoViewDuringATurnEndsItAndStartsOneAtOnce() throws {
        let twoLines = [Bounds(x: 100, y: 50, width: 200, height: 30), Bounds(x: 100, y: 120, width: 200, height: 30)]
        let fiveOthers = (0..<5).map { Bounds(x: 350, y: 20 + 60 * Double($0), width: 150, height: 30) }
        let firstFound = try firstFoundOnAPageWithALineFromFrame3 { index in
            index < 3 ? [] : index < 5 ? twoLines : fiveOthers
        }
        #expect(firstFound == 3 + TextDetectorCadence.fileLag)
    }

    /// A scene that becomes new while a turn reads an earlier frame, with fewer than twice its lines, is looked for as
    /// soon as that turn is done, not at the next interval, and the turn is not ended: here two lines give way to
    /// three others at frame 3 while the turn of frame 0 runs; the turn of frame 10, when that one is taken, finds the
    /// line.
    @Test func aNewSceneDuringATurnStartsTheNextWhenItIsDone() throws {
        let before = [Bounds(x: 400, y: 50, width: 100, height: 30), Bounds(x: 400, y: 120, width: 100, height: 30)]
        let after = [Bounds(x: 100, y: 50, width: 200, height: 30), Bounds(x: 100, y: 120, width: 200, height: 30),
                     Bounds(x: 100, y: 190, width: 200, height: 30)]
        let firstFound = try firstFoundOnAPageWithALineFromFrame3 { index in index < 3 ? before : after }
        #expect(firstFound == 10 + TextDetectorCadence.fileLag)
    }

    /// The first frame in which a cadence (a turn every 40 frames) gives a box, over a blank page that shows a line
    /// from frame 3 on, the edge locator finding `located(index)` in frame `index`; nil when none by frame 59.
    private func firstFoundOnAPageWithALineFromFrame3(located: (Int) -> [Bounds]) throws -> Int? {
        let line = try turnedLine(DriftingTurnedLine.text, pixelHeight: 32, degrees: 0, margin: 200).frame
        let page = try FrameImage(pixels: [UInt8](repeating: 255, count: line.width * line.height), width: line.width,
                                  height: line.height, channels: 1)
        let cadence = TextDetectorCadence(boxReader: try boxReader(), interval: 40)
        defer { cadence.stop() }
        for index in 0..<60 {
            let frame = Frame(image: index < 3 ? page : line.image, index: index, time: 0)
            if try !cadence.lines(in: frame, located: located(index)).isEmpty {
                return index
            }
        }
        return nil
    }

    /// A box whose line the edge locator found and Tesseract read surely in the turn's frame is left to the locator:
    /// the turn neither reads nor follows it. Where that line is not read surely, or beside a located region
    /// elsewhere, the same box is read and followed.
    @Test func aTurnLeavesALineTheLocatorReadSurelyToIt() throws {
        let (picture, _) = try turnedLine(DriftingTurnedLine.text, pixelHeight: 24, degrees: 0)
        func lines(surely: Bool = true, located: (Bounds) -> Bounds) throws -> [DetectedLine] {
            // The box the detector finds, from a turn beside no located line.
            let probe = TextDetectorCadence(boxReader: try boxReader(), interval: 30)
            defer { probe.stop() }
            var box: Bounds?
            for index in 0...TextDetectorCadence.fileLag {
                box = try probe.lines(in: Frame(image: picture.image, index: index, time: 0), located: []).first?.bounds
            }
            let found = try #require(box)
            let cadence = TextDetectorCadence(boxReader: try boxReader(), interval: 30)
            defer { cadence.stop() }
            var result: [DetectedLine] = []
            for index in 0...TextDetectorCadence.fileLag {
                let region = located(found)
                result = try cadence.lines(in: Frame(image: picture.image, index: index, time: 0),
                                           located: [region], surelyRead: surely ? [region] : [])
            }
            return result
        }
        let aroundTheLine = try lines { box in
            Bounds(x: box.boundingBox.minX - 3, y: box.boundingBox.minY - 3, width: box.width + 6, height: box.height + 6)
        }
        #expect(aroundTheLine.isEmpty, "\(aroundTheLine)")
        let unsure = try lines(surely: false) { box in
            Bounds(x: box.boundingBox.minX - 3, y: box.boundingBox.minY - 3, width: box.width + 6, height: box.height + 6)
        }
        #expect(unsure.count == 1 && unsure.first?.reading != nil, "\(unsure)")
        let elsewhere = try lines { _ in Bounds(x: 0, y: 0, width: 40, height: 20) }
        #expect(elsewhere.count == 1 && elsewhere.first?.reading != nil, "\(elsewhere)")
    }

    /// The detector's boxes read by the default level's readers, counting its turns and its reads.
    private final class CountingTurns: TextBoxReader, @unchecked Sendable {
        let reader: DetectedTextReader
        let lock = NSLock()
        var turnFrames: [Int] = []
        var reads = 0
        init(_ reader: DetectedTextReader) { self.reader = reader }
        func boxes(in frame: Frame, cancellation: DetectionCancellation?) throws -> [Bounds] {
            lock.withLock { turnFrames.append(frame.index) }
            return try reader.boxes(in: frame, cancellation: cancellation)
        }
        func readBox(in frame: Frame, region: Bounds) throws -> Observation? {
            lock.withLock { reads += 1 }
            return try reader.readBox(in: frame, region: region)
        }
    }

    /// A view clear again after a shake's blur is looked at at once, not at the next regular turn: the boxes
    /// followed into the blur were lost there. A desk shaking, sharp to frame 11, blurred past reading (as
    /// `ViewClarity` judges it, as the scan's worker does) to 21, sharp from 22: turns at 0 and at 22, where the
    /// interval would have waited to 40.
    @Test func aViewClearAgainAfterABlurStartsATurnAtOnce() throws {
        let turns = CountingTurns(try boxReader())
        let cadence = TextDetectorCadence(boxReader: turns, interval: 40)
        defer { cadence.stop() }
        let sharp = try shakenDesk(), blurred = try shakenDesk(blur: 8)
        var clarity = ViewClarity()
        for index in 0..<36 {
            let shown = try frame(((12..<22).contains(index) ? blurred : sharp).render(frame: index), index: index)
            _ = try cadence.lines(in: shown, located: [], viewObscured: clarity.isObscured(shown))
        }
        cadence.stop()
        #expect(turns.lock.withLock { turns.turnFrames } == [0, 22])
    }

    /// A turn reads a new box, the next turn reads it again, and once two readings agree the box keeps its reading
    /// for `rereadTurns` turns before it is read again: a line held still is read 3 times in 7 turns, not 7.
    @Test func aBoxIsReadUntilTwoReadingsAgreeThenRests() throws {
        let counting = CountingTurns(try boxReader())
        // A turn every 5 frames, each taken 5 frames on; turns that find nothing new come after 10 frames.
        let cadence = TextDetectorCadence(boxReader: counting, interval: 5)
        defer { cadence.stop() }
        let line = try DriftingTurnedLine(count: 1).frame(0)
        var lines: [DetectedLine] = []
        for index in 0...60 {
            lines = try cadence.lines(in: Frame(image: line.image, index: index, time: 0), located: [])
        }
        #expect(lines.count == 1 && lines.first?.reading != nil, "\(lines)")
        cadence.stop()
        #expect(counting.lock.withLock { counting.turnFrames } == [0, 5, 15, 25, 35, 45, 55])
        // Turns 0 and 1 read it (they agree), 2-4 keep the reading, 5 reads it again (its rest over), 6 keeps it.
        #expect(counting.lock.withLock { counting.reads } == 3)
    }

    /// Turns that find no text the scan did not have (the second reads what the first read, the next keep it) come
    /// less often, twice the interval apart; a box lost (the line hidden) brings back the interval, as does a turn
    /// that finds no box, and the line found again is news.
    @Test func turnsThatFindNothingNewComeLessOftenUntilABoxIsLost() throws {
        let counting = CountingTurns(try boxReader())
        let cadence = TextDetectorCadence(boxReader: counting, interval: 5)
        defer { cadence.stop() }
        let line = try DriftingTurnedLine(count: 1).frame(0)
        let blank = try FrameImage(pixels: [UInt8](repeating: 255, count: 640 * 360), width: 640, height: 360,
                                   channels: 1)
        // The line from frame 0 to 60, hidden at 61 and 62, back from 63 on.
        for index in 0...90 {
            let image = (61...62).contains(index) ? blank : line.image
            _ = try cadence.lines(in: Frame(image: image, index: index, time: 0), located: [])
        }
        cadence.stop()
        // 0 news, 5 the same (next after 10), 15 to 55 kept or the same; the box lost at 61: 61 finds no box (the
        // line hidden), 66 finds it again (news), 71 reads it the same (next after 10), 81 keeps it.
        #expect(counting.lock.withLock { counting.turnFrames } == [0, 5, 15, 25, 35, 45, 55, 61, 66, 71, 81])
    }

    /// Where the locator and the detector found the same text, one region is read: a located line about as tall as
    /// the box in it is the locator's when Tesseract reads it surely, else the box's; a located blob much taller
    /// than the box gives way to it; a box the locator missed is read beside its lines.
    @Test func aSurelyReadLineKeepsItsTextButABlobGivesWayToTheBoxInIt() {
        let line = Bounds(x: 100, y: 100, width: 300, height: 30)
        // The box holds the whole line; a line longer than its box by a character (entering the frame) keeps it.
        let box = DetectedLine(bounds: Bounds(x: 104, y: 102, width: 292, height: 26), reading: nil)
        let entering = DetectedLine(bounds: Bounds(x: 200, y: 102, width: 196, height: 26), reading: nil)
        #expect(MotionTextReading.oneRegionPerText(located: [line], surelyRead: [], detected: [entering])
            == ([line], []))
        var (located, detected) = MotionTextReading.oneRegionPerText(located: [line], surelyRead: [line],
                                                                     detected: [box])
        #expect(located == [line] && detected.isEmpty)
        (located, detected) = MotionTextReading.oneRegionPerText(located: [line], surelyRead: [], detected: [box])
        #expect(located.isEmpty && detected == [box])
        let blob = Bounds(x: 80, y: 60, width: 400, height: 120)
        (located, detected) = MotionTextReading.oneRegionPerText(located: [blob], surelyRead: [blob], detected: [box])
        #expect(located.isEmpty && detected == [box])
        let elsewhere = DetectedLine(bounds: Bounds(x: 500, y: 300, width: 120, height: 24), reading: nil)
        (located, detected) = MotionTextReading.oneRegionPerText(located: [line], surelyRead: [line],
                                                                 detected: [elsewhere])
        #expect(located == [line] && detected == [elsewhere])
    }

    /// Where the detector's turn of this view found no text: not where its boxes were, nor where the boxes followed
    /// from it are now; at the frame's edge as anywhere else (a line come into view since the turn is cut by the edge,
    /// and the next turn boxes it where it is text).
    @Test func theDetectorFoundNoTextWhereItLookedAndBoxedNothing() {
        let atTurn = Bounds(x: 100, y: 100, width: 300, height: 30)
        let now = Bounds(x: 140, y: 120, width: 300, height: 30)
        let texture = Bounds(x: 600, y: 400, width: 200, height: 30)
        #expect(MotionTextReading.holdsNoText(texture, turnBoxes: [atTurn], followed: [now]))
        #expect(!MotionTextReading.holdsNoText(atTurn, turnBoxes: [atTurn], followed: [now]))
        #expect(!MotionTextReading.holdsNoText(now, turnBoxes: [atTurn], followed: [now]))
        for atEdge in [Bounds(x: 0, y: 400, width: 80, height: 30), Bounds(x: 1200, y: 400, width: 80, height: 30),
                       Bounds(x: 600, y: 0, width: 200, height: 30), Bounds(x: 600, y: 690, width: 200, height: 30)] {
            #expect(MotionTextReading.holdsNoText(atEdge, turnBoxes: [atTurn], followed: [now]))
            #expect(!MotionTextReading.holdsNoText(atEdge, turnBoxes: [atTurn, atEdge], followed: [now]))
        }
    }

    /// A detector that finds no text anywhere: its turns judge every pixel they look at.
    private struct NoText: TextBoxReader {
        func boxes(in frame: Frame, cancellation: DetectionCancellation?) throws -> [Bounds] { [] }
        func readBox(in frame: Frame, region: Bounds) throws -> Observation? { nil }
    }

    /// A turn saw the pixels it looked at, wherever a hand-held camera has since moved them: a grainy wall drifting
    /// by (2, 1) pixels a frame is found in the turn's frame 14 frames on. A patch that appeared after the turn's
    /// frame (a label put down at frame 6) was not seen, nor, before the view's first turn is taken (a file's scan
    /// takes it `fileLag` frames on), was anything.
    @Test func aTurnSawThePixelsInViewThenNotThoseThatCameLater() throws {
        let (width, height) = (480, 270)
        var seed: UInt32 = 12345
        func grain() -> UInt8 {
            seed = seed &* 1_664_525 &+ 1_013_904_223
            return UInt8(truncatingIfNeeded: seed >> 24)
        }
        // A wall of grain blurred into blotches (a texture's edges), larger than the frame by the drift.
        let wallWidth = width + 64
        let raw = (0..<(wallWidth * (height + 32))).map { _ in Int(grain()) }
        let wall = raw.indices.map { index -> UInt8 in
            let (x, y) = (index % wallWidth, index / wallWidth)
            let x1 = min(x + 1, wallWidth - 1), y1 = min(y + 1, height + 31)
            return UInt8((raw[index] + raw[y * wallWidth + x1] + raw[y1 * wallWidth + x] + raw[y1 * wallWidth + x1]) / 4)
        }
        let label = PixelRect(x: 300, y: 180, width: 120, height: 30)
        let labelGrain = (0..<(label.width * label.height)).map { _ in grain() }
        func frame(_ index: Int) throws -> Frame {
            var pixels = [UInt8](repeating: 0, count: width * height)
            for y in 0..<height {
                for x in 0..<width {
                    let inLabel = index >= 6 && label.x..<(label.x + label.width) ~= x
                        && label.y..<(label.y + label.height) ~= y
                    pixels[y * width + x] = inLabel ? labelGrain[(y - label.y) * label.width + x - label.x]
                        : wall[(y + index) * wallWidth + x + 2 * index]
                }
            }
            let image = try FrameImage(pixels: pixels, width: width, height: height, channels: 1)
            return Frame(image: image, index: index, time: Double(index) / 30)
        }
        let cadence = TextDetectorCadence(boxReader: NoText(), interval: 30)
        defer { cadence.stop() }
        let onWall = Bounds(x: 100, y: 60, width: 140, height: 30)
        let labelBounds = Bounds(x: Double(label.x), y: Double(label.y), width: Double(label.width),
                                 height: Double(label.height))
        for index in 0..<15 {
            let shown = try frame(index)
            _ = try cadence.lines(in: shown, located: [])
            if index == 5 {
                #expect(try !cadence.turnSaw(onWall, in: shown))
            }
        }
        let last = try frame(14)
        #expect(try cadence.turnSaw(onWall, in: last))
        #expect(try !cadence.turnSaw(labelBounds, in: last))
    }

    /// End to end at the default level: the turned line is read from the detector's box, one item that stays one
    /// item as it drifts. At `fast`, which runs no detector, the edge locator does not read it.
    @Test func aScanReadsATurnedLineOnlyTheDetectorFinds() throws {
        final class Items: DataScannerDelegate, @unchecked Sendable {
            let lock = NSLock()
            var added: [RecognizedItem] = []
            var last: [RecognizedItem] = []
            func dataScanner(_ dataScanner: DataScanner, didAdd addedItems: [RecognizedItem],
                             allItems: [RecognizedItem]) {
                lock.withLock { added += addedItems }
            }
            func dataScanner(_ dataScanner: DataScanner, didProcess frame: Frame, allItems: [RecognizedItem]) {
                lock.withLock { last = allItems }
            }
        }
        func scan(_ level: QualityLevel) throws -> Items {
            let items = Items()
            let scanner = DataScanner(recognizedDataTypes: [.text()], qualityLevel: level, recognizesMultipleItems: true)
            scanner.delegate = items
            try scanner.startScanning(DriftingTurnedLine(count: 45))
            #expect(scanner.waitUntilFinished()?.reason == .endOfSource)
            return items
        }
        let balanced = try scan(.balanced)
        let added = balanced.lock.withLock { balanced.added }
        #expect(added.count == 1, "added \(added.map(\.value))")
        let item = try #require(balanced.lock.withLock { balanced.last }.first)
        #expect(characterErrorRate(item.value, truth: DriftingTurnedLine.text) <= 0.1, "read \(item.value)")
        let ink = try DriftingTurnedLine(count: 45).ink(inFrame: 44)
        #expect(item.bounds.center.distance(to: ink.center) <= 6, "item at \(item.bounds), ink \(ink)")

        let fast = try scan(.fast)
        let readByFast = fast.lock.withLock { fast.added }.map(\.value)
        #expect(!readByFast.contains { characterErrorRate($0, truth: DriftingTurnedLine.text) <= 0.1 },
                "fast read \(readByFast)")
    }
}
