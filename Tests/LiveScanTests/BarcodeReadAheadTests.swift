import Foundation
import Testing
@testable import LiveScan
import LiveScanTestSupport

@Suite struct BarcodeReadAheadTests {
    /// A detector slower on even frames, so frames decoded side by side finish out of order.
    struct UnevenDetector: BarcodeDetector {
        func detect(in frame: Frame) throws -> [Observation] {
            usleep(frame.index % 2 == 0 ? 4000 : 200)
            return [code("frame \(frame.index)", x: 10, y: 10)]
        }
    }

    /// Takes every frame of `readAhead`: `count` of them, in order, each with the one code its reading made of it.
    func expectEachFrameInOrderWithItsOwnCode(from readAhead: BarcodeReadAhead, count: Int) throws {
        var taken: [(Int, [String?])] = []
        while let (frame, barcodes) = try readAhead.next() {
            taken.append((frame.index, barcodes.map(\.payloadStringValue)))
        }
        #expect(taken.map(\.0) == Array(0..<count))
        #expect(taken.allSatisfy { $0.1 == ["frame \($0.0)"] })
    }

    @Test func framesComeBackInOrderWithTheirOwnBarcodes() throws {
        let readAhead = BarcodeReadAhead(source: BlankFrameSource(count: 40), reading: WholeFrameReading(UnevenDetector()), depth: 3)
        defer { readAhead.stop() }
        try expectEachFrameInOrderWithItsOwnCode(from: readAhead, count: 40)
        #expect(try readAhead.next() == nil, "the end stays the end")
    }

    @Test func framesReadBeforeAFailureArriveBeforeIt() throws {
        final class CutSource: FrameSource, @unchecked Sendable {
            let inner = BlankFrameSource(count: nil)
            var info: SourceInfo { inner.info }
            func nextFrame() throws -> Frame? {
                let frame = try inner.nextFrame()
                if let frame, frame.index == 5 {
                    throw ScanError.sourceDamaged(source: "cut.mp4", reason: "truncated")
                }
                return frame
            }
        }
        let readAhead = BarcodeReadAhead(source: CutSource(), reading: WholeFrameReading(UnevenDetector()), depth: 2)
        defer { readAhead.stop() }
        var indices: [Int] = []
        #expect(throws: ScanError.sourceDamaged(source: "cut.mp4", reason: "truncated")) {
            while let (frame, _) = try readAhead.next() {
                indices.append(frame.index)
            }
        }
        #expect(indices == [0, 1, 2, 3, 4])
    }

    /// A reading in order, slower on odd frames: each frame must still be read in order, one at a time.
    final class ReadInOrder: BarcodeReading, @unchecked Sendable {
        private let lock = NSLock()
        private(set) var readOrder: [Int] = []
        private var reading = false
        private(set) var overlapped = false

        var readsInOrder: Bool { true }

        func barcodes(in frame: Frame) throws -> [Observation] {
            lock.withLock {
                overlapped = overlapped || reading
                reading = true
                readOrder.append(frame.index)
            }
            usleep(frame.index % 2 == 1 ? 3000 : 200)
            lock.withLock { reading = false }
            return [code("frame \(frame.index)", x: 10, y: 10)]
        }
    }

    @Test func aReadingInOrderReadsEachFrameInOrderOneAtATime() throws {
        let reading = ReadInOrder()
        let readAhead = BarcodeReadAhead(source: BlankFrameSource(count: 30), reading: reading, depth: 4)
        defer { readAhead.stop() }
        try expectEachFrameInOrderWithItsOwnCode(from: readAhead, count: 30)
        #expect(reading.readOrder == Array(0..<30))
        #expect(!reading.overlapped)
    }

    /// Decoded frames waiting for a gated reading are bounded by memory, a tighter bound when the scan also holds
    /// text models, never fewer than 8 frames nor more than 128.
    @Test func gatedReadAheadIsBoundedByMemory() {
        #expect(ScanPlan.gatedReadAheadDepth(width: 1280, height: 720, readsText: false) == 92)
        #expect(ScanPlan.gatedReadAheadDepth(width: 1920, height: 1080, readsText: false) == 41)
        #expect(ScanPlan.gatedReadAheadDepth(width: 1280, height: 720, readsText: true) == 17)
        #expect(ScanPlan.gatedReadAheadDepth(width: 1920, height: 1080, readsText: true) == 8)
        #expect(ScanPlan.gatedReadAheadDepth(width: 3840, height: 2160, readsText: false) == 10)
        #expect(ScanPlan.gatedReadAheadDepth(width: 7680, height: 4320, readsText: false) == 8)
        #expect(ScanPlan.gatedReadAheadDepth(width: 320, height: 240, readsText: false) == 128)
    }

    @Test func stoppingAnEndlessSourceMidwayReturns() throws {
        let readAhead = BarcodeReadAhead(source: BlankFrameSource(count: nil), reading: WholeFrameReading(UnevenDetector()), depth: 2)
        _ = try readAhead.next()
        readAhead.stop()  // the reader is blocked on a full queue: stop must wake it, not hang
    }
}
