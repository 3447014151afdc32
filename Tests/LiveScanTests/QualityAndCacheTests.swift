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

    @Test func aReadingThatChangesIsReadAgainAtOnce() {
        var cache = TextReadingCache(rereadInterval: 15)
        // The line reads differently from frame 100 on (a display that changed): the re-read at 106 sees it,
        // the next frame confirms it, and the rests start over.
        let reads = readFrames(&cache, frames: 200) { $0 < 100 ? "Gate 12" : "Gate 14" }
        #expect(reads == [0, 1, 16, 46, 106, 107, 122, 152])
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

        let text = QualityLevel.allCases.map { $0.textOptions(languages: ["eng"]) }
        #expect(text.map(\.maxDimension) == [Int]([960, 1280, 1920]))
        #expect(text.map(\.cropHeight) == [Double]([32, 40, 48]))
        #expect(text.allSatisfy { $0.languages == ["eng"] })
        #expect(QualityLevel.allCases.map(\.textRereadInterval) == [Int]([30, 15, 8]))
        #expect(QualityLevel.allCases.map(\.barcodeWholeReadInterval) == [nil, 30, nil])
    }
}
