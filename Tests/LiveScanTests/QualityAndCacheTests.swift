import Foundation
import Testing
@testable import LiveScan

@Suite struct TextReadingCacheTests {
    /// Frames in which `cache` asks for a reading of one steady line over `frames` frames; `transcript`
    /// gives what the line reads as in each frame.
    func readFrames(_ cache: inout TextReadingCache, frames: Int, transcript: (Int) -> String = { _ in "Dock 4" })
        -> [Int]
    {
        let region = Bounds(x: 100, y: 100, width: 300, height: 40)
        var reads: [Int] = []
        for frame in 0..<frames {
            let lines = cache.lines(in: [region], frame: frame) { bounds in
                reads.append(frame)
                return .text(transcript(frame), confidence: 0.9, bounds: bounds)
            }
            #expect(lines.map(\.transcript) == [transcript(reads.last ?? 0)])
        }
        return reads
    }

    @Test func agreeingReadingsRestLongerAndLongerUpToTheLongestRest() {
        var cache = TextReadingCache(rereadInterval: 15)
        // Read, confirmed, then rests of 15, 30, 60, 120, 240 and 240 frames.
        #expect(readFrames(&cache, frames: 1000) == [0, 1, 16, 46, 106, 226, 466, 706, 946])
    }

    /// A line is read surely when its last reading is at Tesseract's sure confidence: printed text the learned
    /// reader would not read better. Read unsurely however often, it is not; nor is a place no line was read at.
    @Test func aLineIsReadSurelyAtASureConfidence() {
        let line = Bounds(x: 100, y: 100, width: 300, height: 40)
        let elsewhere = Bounds(x: 100, y: 300, width: 300, height: 40)
        func cache(confidence: Double, frames: Int) -> TextReadingCache {
            var cache = TextReadingCache(rereadInterval: 15)
            for frame in 0..<frames {
                _ = cache.lines(in: [line], frame: frame) { .text("Lot 88", confidence: confidence, bounds: $0) }
            }
            return cache
        }
        let sure = DetectedLineReading.tesseractSureConfidence
        #expect(cache(confidence: sure, frames: 2).readsSurely(line))
        #expect(!cache(confidence: sure, frames: 2).readsSurely(elsewhere))
        #expect(cache(confidence: sure, frames: 1).readsSurely(line))
        #expect(!cache(confidence: sure - 0.05, frames: 10).readsSurely(line))
    }

    /// A line entering the frame: its region grows by a character every few frames, and each growth is read,
    /// rest or not; a region that only shrank (leaving, or found as two pieces) keeps what the line said.
    @Test func aRegionThatGrewIsReadAgain() {
        var cache = TextReadingCache(rereadInterval: 15)
        var reads: [Int] = []
        for frame in 0..<40 {
            let width = frame < 20 ? 200 : 200 + Double(frame - 19) * 4
            _ = cache.lines(in: [Bounds(x: 100, y: 100, width: width, height: 40)], frame: frame) { bounds in
                reads.append(frame)
                return .text("Lot 88", confidence: 0.9, bounds: bounds)
            }
        }
        // Read, confirmed, rest from frame 1 on; then the region grows 4 px a frame: 20 px (half its 40 px height)
        // more than was read at frames 24, 29, 34, 39.
        #expect(reads == [0, 1, 16, 24, 29, 34, 39])

        var shrinking = TextReadingCache(rereadInterval: 15)
        var shrunkReads: [Int] = []
        for frame in 0..<14 {
            let width = 300 - Double(frame) * 10
            let region = Bounds(x: 100, y: 100, width: width, height: 40)
            let lines = shrinking.lines(in: [region], frame: frame) { bounds in
                shrunkReads.append(frame)
                return .text("Batch 2024 Lot 88", confidence: 0.9, bounds: bounds)
            }
            #expect(lines.map(\.transcript) == ["Batch 2024 Lot 88"])
        }
        #expect(shrunkReads == [0, 1])
    }

    /// A line found in pieces (the locator split it at a word, an occluder cut it) keeps its reading where the line
    /// is: a piece holds part of the line, not the line moved. Found as its first third, its middle or its last third
    /// between frames that found it whole, while it stands still, its reading stays put; moving 3 px a frame with its region a pixel longer or shorter
    /// from frame to frame, its reading follows it.
    @Test func aLineFoundInPiecesKeepsItsReadingWhereTheLineIs() {
        var cache = TextReadingCache(rereadInterval: 15)
        let whole = Bounds(x: 100, y: 100, width: 300, height: 40)
        let pieces = [Bounds(x: 100, y: 100, width: 100, height: 40), Bounds(x: 200, y: 100, width: 100, height: 40),
                      Bounds(x: 300, y: 100, width: 100, height: 40)]
        var readings: [Bounds] = []
        // Whole, then each piece in turn with the whole line between them, as the locator found it frame by frame.
        for (frame, region) in ([whole, whole] + pieces.flatMap { [$0, whole] }).enumerated() {
            let lines = cache.lines(in: [region], frame: frame) { .text("model receipt care fragile", confidence: 0.9, bounds: $0) }
            readings += lines.map(\.bounds)
        }
        #expect(readings.count == 8)
        for bounds in readings {
            #expect(abs(bounds.center.x - whole.center.x) <= 1, "read at \(bounds.center.x), the line at 250")
        }

        var moving = TextReadingCache(rereadInterval: 15)
        for frame in 0..<30 {
            let x = 100 + 3 * Double(frame)
            let region = Bounds(x: x, y: 100, width: frame.isMultiple(of: 2) ? 300 : 301, height: 40)
            let line = moving.lines(in: [region], frame: frame) { .text("Dock 4", confidence: 0.9, bounds: $0) }.first
            #expect(abs((line?.bounds.center.x ?? 0) - region.center.x) <= 1, "frame \(frame)")
        }
    }

    /// Each frame's regions given to a fresh cache: the bounds it asked to have read, and the transcripts it gave,
    /// frame by frame. `reads` says what a region reads as (nil: nothing).
    func replay(_ frames: [[Bounds]], rereadInterval: Int = 15, reads: (Bounds) -> String?)
        -> (read: [[Bounds]], lines: [[String]])
    {
        var cache = TextReadingCache(rereadInterval: rereadInterval)
        var read: [[Bounds]] = []
        var lines: [[String]] = []
        for (frame, regions) in frames.enumerated() {
            var readNow: [Bounds] = []
            lines.append(cache.lines(in: regions, frame: frame) { bounds in
                readNow.append(bounds)
                return reads(bounds).map { .text($0, confidence: 0.9, bounds: bounds) }
            }.compactMap(\.transcript))
            read.append(readNow)
        }
        return (read, lines)
    }

    /// A line found whole and then in pieces in one frame (split at a word of other height) is one line: the piece
    /// found again carries the line's reading, the other piece is neither read nor made a line of its own (an item
    /// beside the line with one of its words). A new region outside the line is read as before.
    @Test func thePiecesOfALineFoundAgainAreNotLinesOfTheirOwn() {
        let whole = Bounds(x: 100, y: 100, width: 300, height: 40)
        let frames = [[whole], [whole],
                      [Bounds(x: 100, y: 100, width: 200, height: 40), Bounds(x: 300, y: 100, width: 100, height: 40)],
                      [Bounds(x: 100, y: 100, width: 200, height: 40), Bounds(x: 300, y: 100, width: 100, height: 40),
                       Bounds(x: 100, y: 300, width: 200, height: 40)]]
        let (read, lines) = replay(frames) { $0.topLeft.y == 100 ? "model receipt care" : "Dock 4" }
        #expect(read[2].isEmpty, "read \(read[2])")
        #expect(lines[2] == ["model receipt care"])
        #expect(read[3] == [Bounds(x: 100, y: 300, width: 200, height: 40)])
        #expect(lines[3].sorted() == ["Dock 4", "model receipt care"])
    }

    /// A line the locator finds whole, then as its first word, then as its first two words (shelf-pan at fast: the
    /// two-word piece is not where the one-word piece was, by place or by growth) is one line where it was read: it
    /// keeps its reading and is not read as a line of its own; due, the piece is read, and reading as a stretch of
    /// the line, the line keeps its reading.
    @Test func aLineFoundAsOtherPiecesFrameByFrameStaysOneLine() {
        let whole = Bounds(x: 100, y: 100, width: 300, height: 42)
        let frames = [[whole], [whole], [Bounds(x: 100, y: 100, width: 80, height: 42)],
                      [Bounds(x: 103, y: 101, width: 151, height: 32)]]
        let reads: (Bounds) -> String? = { $0.width > 250 ? "model receipt care fragile" : "model receipt" }
        let resting = replay(frames, reads: reads)
        #expect(resting.read[2].isEmpty && resting.read[3].isEmpty, "read \(resting.read)")
        #expect(resting.lines[3] == ["model receipt care fragile"])

        let due = replay(frames, rereadInterval: 1, reads: reads)
        #expect(!due.read[2...].joined().isEmpty)
        #expect(due.lines[2...].allSatisfy { $0 == ["model receipt care fragile"] }, "\(due.lines)")
    }

    /// Two lines read apart that the locator joins into one region (side by side on a shelf) are not one of them
    /// grown: the region is not read (Tesseract reads such a crop as one of the lines, and the other would take its
    /// value), and each line keeps its reading, found apart again.
    @Test func twoLinesJoinedByTheLocatorKeepTheirReadings() {
        let left = Bounds(x: 100, y: 100, width: 300, height: 40)
        let right = Bounds(x: 420, y: 100, width: 300, height: 40)
        let (read, lines) = replay([[left, right], [left, right], [Bounds(x: 95, y: 95, width: 630, height: 50)],
                                    [left, right]]) { bounds in
            bounds.topLeft.x < 400 ? "service amount" : "batch coach order invoice"
        }
        #expect(read[2].isEmpty, "read \(read[2])")
        #expect(lines[3].sorted() == ["batch coach order invoice", "service amount"])
    }

    /// A line read again in a region that holds it and more (the locator joined a label's border to it) that reads
    /// as nothing keeps its reading: the crop was spoiled, not the line.
    @Test func aLineReadInARegionGrownPastItKeepsItsReading() {
        let whole = Bounds(x: 100, y: 100, width: 300, height: 44)
        let (_, lines) = replay([[whole], [whole], [Bounds(x: 95, y: 80, width: 345, height: 72)], [whole]]) {
            $0.height > 60 ? nil : "model receipt care fragile"
        }
        #expect(lines[2] == ["model receipt care fragile"])
        #expect(lines[3] == ["model receipt care fragile"])
    }

    /// A line that read as text and then reads as nothing (leaving the frame, blur) is tried again 1, 2, 4 ...
    /// frames later, not left unseen for a whole rest (as long as a tracker waits before it calls an item
    /// gone); a region that never read as text rests as before.
    @Test func aLineThatStopsReadingIsTriedAgainSoon() {
        func reads(readsAsText: (Int) -> Bool) -> [Int] {
            var cache = TextReadingCache(rereadInterval: 15)
            var reads: [Int] = []
            for frame in 0..<60 {
                _ = cache.lines(in: [Bounds(x: 100, y: 100, width: 300, height: 40)], frame: frame) { bounds in
                    reads.append(frame)
                    return readsAsText(frame) ? .text("Dock 4", confidence: 0.9, bounds: bounds) : nil
                }
            }
            return reads
        }
        // Read and confirmed at 0 and 1, re-read at 16 and 46; nothing from then on: 46 and 47 agree on nothing,
        // then rests of 1, 2 and 4 frames.
        #expect(reads { $0 < 40 } == [0, 1, 16, 46, 47, 48, 50, 54])
        #expect(reads { _ in false } == [0, 1, 16, 46])
    }

    @Test func aReadingThatChangesIsReadAgainAtOnce() {
        var cache = TextReadingCache(rereadInterval: 15)
        // The line reads differently from frame 100 on (a display that changed): the re-read at 106 sees it,
        // the next frame confirms it, and the rests start over.
        let reads = readFrames(&cache, frames: 200) { $0 < 100 ? "Gate 12" : "Gate 14" }
        #expect(reads == [0, 1, 16, 46, 106, 107, 122, 152])
    }

    /// A texture the locator takes for a line, read unsurely, drifting 2 px a frame, and a sign beside it: the
    /// detector's turn on frame 4, judged in frame 10, found text only where the sign was in frame 4. From then on
    /// the texture is neither read nor given; the sign is. A later turn that finds text there gives it back, and a
    /// texture that grows by a character (text coming into view) is read again at once.
    @Test func aLineWhereTheDetectorFoundNoTextIsNoLongerRead() {
        var cache = TextReadingCache(rereadInterval: 15)
        func texture(_ frame: Int, grownBy growth: Double = 0) -> Bounds {
            Bounds(x: 100 + 2 * Double(frame), y: 100, width: 200 + growth, height: 40)
        }
        func sign(_ frame: Int) -> Bounds { Bounds(x: 100 + 2 * Double(frame), y: 300, width: 300, height: 40) }
        var reads: [String: [Int]] = [:]
        var given: [Int: [String]] = [:]
        func scan(_ frames: Range<Int>, growth: (Int) -> Double = { _ in 0 }) {
            for frame in frames {
                let lines = cache.lines(in: [texture(frame, grownBy: growth(frame)), sign(frame)], frame: frame) {
                    let text = $0.center.y < 200 ? "oe" : "EXIT"
                    reads[text, default: []].append(frame)
                    return .text(text, confidence: text == "oe" ? 0.6 : 0.8, bounds: $0)
                }
                given[frame] = lines.compactMap(\.transcript).sorted()
            }
        }
        scan(0..<10)
        let signAtTurn = sign(4)
        cache.judge(frame: 4) { $0.intersectionOverUnion(signAtTurn) > 0.5 }
        scan(10..<40)
        #expect(reads["oe"] == [0, 1])
        #expect(given[9] == ["EXIT", "oe"])
        #expect(given[10] == ["EXIT"] && given[39] == ["EXIT"])
        // A turn on frame 39 finds text at the texture's place: its rest long over, it is read again, and given.
        let boxes = [texture(39), sign(39)]
        cache.judge(frame: 39) { region in boxes.contains { $0.intersectionOverUnion(region) > 0.5 } }
        scan(40..<50)
        #expect(reads["oe"] == [0, 1, 40] && given[40] == ["EXIT", "oe"])
        // Judged textless again, then grown by half its height: read at once.
        let signNow = sign(49)
        cache.judge(frame: 49) { $0.intersectionOverUnion(signNow) > 0.5 }
        scan(50..<60) { $0 >= 55 ? 20 : 0 }
        #expect(given[54] == ["EXIT"])
        #expect(reads["oe"]?.contains(55) == true && given[55] == ["EXIT", "oe"])
    }

    /// A line read surely (printed text Tesseract reads best) stays, whatever a detector's turn found; a line that
    /// appeared after the turn's frame, before the turn was taken, is judged where it is when it is.
    @Test func aSurelyReadLineStaysAndOneNewerThanTheTurnIsJudged() {
        var cache = TextReadingCache(rereadInterval: 15)
        let printed = Bounds(x: 100, y: 100, width: 300, height: 40)
        let late = Bounds(x: 100, y: 300, width: 300, height: 40)
        for frame in 0..<10 {
            _ = cache.lines(in: frame < 6 ? [printed] : [printed, late], frame: frame) {
                .text($0 == printed ? "Platform 2" : "wk", confidence: $0 == printed ? 0.95 : 0.6, bounds: $0)
            }
        }
        var judged: [Bounds] = []
        cache.judge(frame: 4) { region in
            judged.append(region)
            return false
        }
        #expect(judged == [late])
        let lines = cache.lines(in: [printed, late], frame: 10) { .text("?", confidence: 0.5, bounds: $0) }
        #expect(lines.compactMap(\.transcript) == ["Platform 2"])
    }

    /// Lines the locator finds after the detector's turn was taken, where it found no text (a texture's edges come
    /// and go as the camera drifts): one read unsurely gives nothing, and stays textless when its region grows; one
    /// read surely is given; where the turn found text (`holdsNoText` false), a line is given, and a textless line
    /// that grows there is read again.
    @Test func aLineFoundAfterTheTurnIsJudgedByIt() {
        var cache = TextReadingCache(rereadInterval: 15)
        let texture = Bounds(x: 100, y: 100, width: 200, height: 40)
        let printed = Bounds(x: 100, y: 300, width: 300, height: 40)
        let entering = Bounds(x: 0, y: 500, width: 120, height: 40)
        var noTextAt: [Bounds] = [texture, printed]
        var reads: [Int] = []
        func scan(_ frame: Int, _ regions: [Bounds]) -> [String] {
            cache.lines(in: regions, frame: frame, holdsNoText: { region in
                noTextAt.contains { $0.intersectionOverUnion(region) > 0.5 }
            }) { region in
                if region.center.y < 200 {
                    reads.append(frame)
                }
                let sure = region.center.y > 200 && region.center.y < 400
                return .text(sure ? "Platform 2" : "oe", confidence: sure ? 0.95 : 0.6, bounds: region)
            }.compactMap(\.transcript).sorted()
        }
        #expect(scan(0, [texture, printed, entering]) == ["Platform 2", "oe"])
        #expect(scan(1, [texture, printed, entering]) == ["Platform 2", "oe"])
        // Grown by a character where no text was found: read, and still nothing given.
        let grown = Bounds(x: 100, y: 100, width: 230, height: 40)
        #expect(scan(2, [grown, printed, entering]) == ["Platform 2", "oe"] && reads == [0, 2])
        #expect(scan(3, [grown, printed, entering]) == ["Platform 2", "oe"] && reads == [0, 2])
        // The entering line is textless once the detector says so there too, and read again when it grows.
        noTextAt.append(entering)
        cache.judge(frame: 3) { _ in false }
        #expect(scan(4, [grown, printed]) == ["Platform 2"])
        noTextAt.removeLast()
        #expect(scan(5, [grown, printed, Bounds(x: 0, y: 500, width: 160, height: 40)]) == ["Platform 2", "oe"])
    }

    /// Where the detector's turn found no text, a region found after it is read only when the turn did not see its
    /// pixels (`turnSaw`): a texture's region that comes and goes, or grows, as the camera drifts is not read; a
    /// label put down since is read and, read surely, given.
    @Test func aRegionWhosePixelsTheTurnSawIsNotRead() {
        var cache = TextReadingCache(rereadInterval: 15)
        let texture = Bounds(x: 100, y: 100, width: 200, height: 40)
        let label = Bounds(x: 100, y: 300, width: 300, height: 40)
        var reads: [Bounds] = []
        func scan(_ frame: Int, _ regions: [Bounds]) -> [String] {
            cache.lines(in: regions, frame: frame, holdsNoText: { _ in true },
                        turnSaw: { $0.center.y < 200 }) { region in
                reads.append(region)
                let sure = region.center.y > 200
                return .text(sure ? "Platform 2" : "oe", confidence: sure ? 0.95 : 0.6, bounds: region)
            }.compactMap(\.transcript)
        }
        #expect(scan(0, [texture]).isEmpty && reads.isEmpty)
        // Gone for longer than the cache remembers a line, found again, and grown by a character: still not read.
        #expect(scan(7, [texture]).isEmpty)
        #expect(scan(8, [Bounds(x: 100, y: 100, width: 240, height: 40)]).isEmpty && reads.isEmpty)
        #expect(scan(9, [label]) == ["Platform 2"] && reads == [label])
    }

    /// Another view (a cut): every remembered line is forgotten, and a line at one's place is read afresh.
    @Test func forgottenLinesAreReadAfresh() {
        var cache = TextReadingCache(rereadInterval: 15)
        let region = Bounds(x: 100, y: 100, width: 300, height: 40)
        var reads: [Int] = []
        for frame in 0..<8 {
            if frame == 5 {
                cache.forgetLines()
            }
            _ = cache.lines(in: [region], frame: frame) {
                reads.append(frame)
                return .text("Lot 88", confidence: 0.8, bounds: $0)
            }
        }
        #expect(reads == [0, 1, 5, 6])
    }
}

@Suite struct QualityLevelTests {
    @Test func levelsTurnRealKnobsInOrder() {
        let codes: Set<Symbology> = [.qr, .ean13]
        let (fast, balanced, accurate) = (QualityLevel.fast.barcodeOptions(symbologies: codes),
                                          QualityLevel.balanced.barcodeOptions(symbologies: codes),
                                          QualityLevel.accurate.barcodeOptions(symbologies: codes))
        #expect([fast.tryHarder, balanced.tryHarder, accurate.tryHarder] == [false, true, true])
        #expect([fast.tryRotate, balanced.tryRotate, accurate.tryRotate] == [false, true, true])
        #expect([fast.triesInverted, balanced.triesInverted, accurate.triesInverted] == [false, false, true])
        // 0 = frames of any size are decoded at full resolution.
        #expect([fast.maxDimension, balanced.maxDimension, accurate.maxDimension] == [Int]([1280, 1920, 0]))
        #expect(QualityLevel.allCases.map(\.usesQRLocator) == [false, false, true])
        #expect([fast, balanced, accurate].allSatisfy { !$0.triesDownscaled })
        // A still image has no frame budget: from balanced up, full size, zxing-cpp's downscaled passes and the
        // inverted read too.
        let stills = QualityLevel.allCases.map { $0.barcodeOptions(symbologies: codes, stillImages: true) }
        #expect(stills.map(\.maxDimension) == [Int]([1280, 0, 0]))
        #expect(stills.map(\.triesDownscaled) == [false, true, true])
        #expect(stills.map(\.triesInverted) == [false, true, true])
        #expect(zip(stills, [fast, balanced, accurate]).allSatisfy { still, frame in
            still.tryHarder == frame.tryHarder && still.readsAnyAngle == frame.readsAnyAngle
        })

        let text = QualityLevel.allCases.map { $0.textOptions(languages: ["eng"]) }
        #expect(text.map(\.maxDimension) == [Int]([960, 1280, 1920]))
        #expect(text.map(\.cropHeight) == [Double]([32, 40, 48]))
        #expect(text.allSatisfy { $0.languages == ["eng"] })
        #expect(QualityLevel.allCases.map(\.textRereadInterval) == [Int]([30, 15, 8]))
        #expect(QualityLevel.allCases.map(\.barcodeWholeReadInterval) == [nil, 30, nil])
    }
}

/// A box's words joined as their reader spaced them: Tesseract's words in Chinese, Japanese and Korean are runs of a
/// word's characters, which joined at every word read `서 울 역 에 서`.
@Suite struct WordSpacingTests {
    func words(_ texts: [String]) -> [DetectedLineReading.Word] {
        texts.enumerated().map { index, text in
            DetectedLineReading.Word(text: text, confidence: 0.9,
                                     bounds: Bounds(x: Double(index) * 40, y: 0, width: 36, height: 30))
        }
    }

    @Test func wordsAreJoinedWhereTheirLineHasASpace() {
        var korean = words(["서울", "역", "에서", "만나요"])
        DetectedLineReading.Word.markSpaces(&korean, asIn: "서울역에서 만나요")
        #expect(DetectedLineReading.line(korean) == "서울역에서 만나요")
        var english = words(["Order", "4711", "ships"])
        DetectedLineReading.Word.markSpaces(&english, asIn: "Order  4711 ships")
        #expect(DetectedLineReading.line(english) == "Order 4711 ships")
        // A word the line's text does not hold keeps its space; the first word never leans on another reader's.
        var odd = words(["東京", "駅", "の"])
        DetectedLineReading.Word.markSpaces(&odd, asIn: "東京X駅")
        #expect(odd.map(\.spaceBefore) == [true, false, true])
    }
}
