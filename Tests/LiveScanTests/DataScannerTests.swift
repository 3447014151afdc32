import Foundation
import Testing
@testable import LiveScan
import LiveScanTestSupport

/// Blank 640x480 frames at 30 fps; `count` nil means endless (until the scanner stops). A video's frames, one
/// scene; with `isVideo` false, a folder's images instead.
final class BlankFrameSource: FrameSource, @unchecked Sendable {
    let info: SourceInfo
    let isVideo: Bool
    private let count: Int?
    private var next = 0

    init(count: Int?, isVideo: Bool = true) {
        self.count = count
        self.isVideo = isVideo
        info = SourceInfo(name: "blank", width: 640, height: 480, framesPerSecond: 30, frameCount: count)
    }

    func nextFrame() throws -> Frame? {
        if let count, next >= count {
            return nil
        }
        defer { next += 1 }
        if count == nil {
            usleep(1000)  // an endless live source paces itself
        }
        return Frame(image: BlankPixels(width: info.width, height: info.height), index: next, time: Double(next) / 30)
    }
}

/// Returns scripted observations for each frame index; the same every frame by default.
struct ScriptedBarcodeDetector: BarcodeDetector {
    let script: @Sendable (Int) -> [Observation]

    func detect(in frame: Frame) throws -> [Observation] {
        script(frame.index)
    }
}

/// Records every delegate call in order.
final class RecordingDelegate: DataScannerDelegate, @unchecked Sendable {
    private let lock = NSLock()
    private var storedCalls: [String] = []
    private var storedChanges: [ScanChanges] = []
    private(set) var outcome: ScanOutcome?

    var calls: [String] { lock.withLock { storedCalls } }
    var changes: [ScanChanges] { lock.withLock { storedChanges } }

    func dataScanner(_ dataScanner: DataScanner, didStartWith source: SourceInfo) {
        lock.withLock { storedCalls.append("start") }
    }

    func dataScanner(_ dataScanner: DataScanner, didChange changes: ScanChanges) {
        lock.withLock { storedChanges.append(changes) }
    }

    func dataScanner(_ dataScanner: DataScanner, didAdd addedItems: [RecognizedItem], allItems: [RecognizedItem]) {
        lock.withLock { storedCalls.append("add " + addedItems.map(\.value).joined(separator: ",")) }
    }

    func dataScanner(_ dataScanner: DataScanner, didRemove removedItems: [RecognizedItem],
                     allItems: [RecognizedItem]) {
        lock.withLock { storedCalls.append("remove " + removedItems.map(\.value).sorted().joined(separator: ",")) }
    }

    func dataScanner(_ dataScanner: DataScanner, didFinish outcome: ScanOutcome) {
        lock.withLock {
            storedCalls.append("finish \(outcome.reason.rawValue)")
            self.outcome = outcome
        }
    }
}

/// Records each call with the label of the queue it came on ("worker" when none is labelled).
final class QueueRecordingDelegate: DataScannerDelegate, @unchecked Sendable {
    static let label = DispatchSpecificKey<String>()
    private let lock = NSLock()
    private var storedCalls: [String] = []
    var calls: [String] { lock.withLock { storedCalls } }

    private func record(_ call: String) {
        let queue = DispatchQueue.getSpecific(key: Self.label) ?? "worker"
        lock.withLock { storedCalls.append(call + "@" + queue) }
    }

    func dataScanner(_ dataScanner: DataScanner, didStartWith source: SourceInfo) { record("start") }
    func dataScanner(_ dataScanner: DataScanner, didAdd addedItems: [RecognizedItem], allItems: [RecognizedItem]) {
        record("add " + addedItems.map(\.value).joined(separator: ","))
    }
    func dataScanner(_ dataScanner: DataScanner, didRemove removedItems: [RecognizedItem],
                     allItems: [RecognizedItem]) {
        record("remove " + removedItems.map(\.value).sorted().joined(separator: ","))
    }
    func dataScanner(_ dataScanner: DataScanner, didFinish outcome: ScanOutcome) {
        record("finish \(outcome.reason.rawValue)")
    }
}

@Suite struct DataScannerTests {
    @Test func scanToTheEndRemovesEverythingAndFinishes() throws {
        let detector = ScriptedBarcodeDetector { _ in [code("A", x: 10, y: 10), code("B", x: 300, y: 10)] }
        let scanner = DataScanner(recognizedDataTypes: [.barcode()], barcodeDetector: detector, textRecognizer: nil, recognizesMultipleItems: true)
        let delegate = RecordingDelegate()
        scanner.delegate = delegate
        try scanner.startScanning(BlankFrameSource(count: 5))
        let outcome = try #require(scanner.waitUntilFinished())
        #expect(outcome.reason == .endOfSource)
        #expect(outcome.framesProcessed == 5)
        #expect(delegate.calls == ["start", "add A,B", "remove A,B", "finish eof"])
        // The final removes are decided in the last frame processed.
        #expect(delegate.changes.last?.frameIndex == 4)
        #expect(delegate.changes.last?.allItems.isEmpty == true)
    }

    /// With a `delegateQueue`, every call comes on that queue, in the worker's order.
    @Test func aDelegateQueueGetsEveryCallInOrder() throws {
        let detector = ScriptedBarcodeDetector { _ in [code("A", x: 10, y: 10), code("B", x: 300, y: 10)] }
        let scanner = DataScanner(recognizedDataTypes: [.barcode()], barcodeDetector: detector, textRecognizer: nil,
                                  recognizesMultipleItems: true)
        let queue = DispatchQueue(label: "app.delegate")
        queue.setSpecific(key: QueueRecordingDelegate.label, value: "app.delegate")
        let delegate = QueueRecordingDelegate()
        scanner.delegate = delegate
        scanner.delegateQueue = queue
        try scanner.startScanning(BlankFrameSource(count: 5))
        _ = try #require(scanner.waitUntilFinished())
        queue.sync {}  // the calls queued before this one have run
        #expect(delegate.calls == ["start@app.delegate", "add A,B@app.delegate", "remove A,B@app.delegate",
                                   "finish eof@app.delegate"])
    }

    @Test func stopScanningRemovesEveryItem() async throws {
        let detector = ScriptedBarcodeDetector { _ in [code("A", x: 10, y: 10), code("B", x: 300, y: 10)] }
        let scanner = DataScanner(recognizedDataTypes: [.barcode()], barcodeDetector: detector, textRecognizer: nil, recognizesMultipleItems: true)
        let delegate = RecordingDelegate()
        scanner.delegate = delegate
        try scanner.startScanning(BlankFrameSource(count: nil))
        var iterator = scanner.recognizedItems.makeAsyncIterator()
        let firstItems = await iterator.next()
        #expect(firstItems?.map(\.value) == ["A", "B"])
        let outcome = try #require(scanner.stopScanning())
        #expect(outcome.reason == .stopped)
        #expect(delegate.calls.suffix(2) == ["remove A,B", "finish stopped"])
        #expect(!scanner.isScanning)
    }

    /// The outcome says why the scan stopped, as the first request to stop gave it: a signal is `interrupted`,
    /// an output that failed is `error` with its error, and a later request does not change either.
    @Test func theFirstStopRequestGivesTheReason() throws {
        let detector = ScriptedBarcodeDetector { _ in [code("A", x: 10, y: 10)] }
        let scanner = DataScanner(recognizedDataTypes: [.barcode()], barcodeDetector: detector, textRecognizer: nil, recognizesMultipleItems: true)
        try scanner.startScanning(BlankFrameSource(count: nil))
        scanner.requestStop(.interrupted)
        scanner.requestStop(.stopped)
        #expect(scanner.waitUntilFinished()?.reason == .interrupted)
        let failure = ScanError.outputFailed(path: "out.mp4", reason: "disk full")
        try scanner.startScanning(BlankFrameSource(count: nil))
        scanner.requestStop(.error, error: failure)
        let outcome = scanner.waitUntilFinished()
        #expect(outcome?.reason == .error)
        #expect(outcome?.error == failure)
    }

    @Test func streamTakenBeforeStartingSeesTheScanAndEachScanGetsItsOwn() async throws {
        let detector = ScriptedBarcodeDetector { _ in [code("A", x: 10, y: 10)] }
        let scanner = DataScanner(recognizedDataTypes: [.barcode()], barcodeDetector: detector, textRecognizer: nil, recognizesMultipleItems: true)
        let early = scanner.recognizedItems
        try scanner.startScanning(BlankFrameSource(count: 3))
        var snapshots: [[String]] = []
        for await items in early {
            snapshots.append(items.map(\.value))
        }
        // A reader that starts late may have missed ["A"] (the stream keeps the newest list only).
        #expect(snapshots == [["A"], []] || snapshots == [[]])
        try scanner.startScanning(BlankFrameSource(count: 2))
        var second: [[String]] = []
        for await items in scanner.recognizedItems {
            second.append(items.map(\.value))
        }
        #expect(second == [["A"], []] || second == [[]])
    }

    @Test func aStreamNobodyReadsHoldsOnlyTheNewestItems() async throws {
        // A code moving across 200 frames: dozens of changes, none of them read while the scan runs.
        let detector = ScriptedBarcodeDetector { index in [code("A", x: 10 + Double(index) * 2, y: 10)] }
        let scanner = DataScanner(recognizedDataTypes: [.barcode()], barcodeDetector: detector, textRecognizer: nil, recognizesMultipleItems: true)
        let delegate = RecordingDelegate()
        scanner.delegate = delegate
        let stream = scanner.recognizedItems
        try scanner.startScanning(BlankFrameSource(count: 200))
        _ = try #require(scanner.waitUntilFinished())
        #expect(delegate.changes.count > 50)
        var buffered: [[String]] = []
        for await items in stream {
            buffered.append(items.map(\.value))
        }
        #expect(buffered == [[]])
    }

    @Test func singleItemModeShowsTheItemNearestTheCentreUntilItLeaves() throws {
        // 640x480 frame: "near" sits at the centre until frame 10, then leaves; "far" stays in a corner.
        let detector = ScriptedBarcodeDetector { index in
            var seen = [code("far", x: 0, y: 0), code("mid", x: 400, y: 300)]
            if index < 10 {
                seen.append(code("near", x: 280, y: 200))
            }
            return seen
        }
        let scanner = DataScanner(recognizedDataTypes: [.barcode()], barcodeDetector: detector, textRecognizer: nil,
                                  recognizesMultipleItems: false)
        let delegate = RecordingDelegate()
        scanner.delegate = delegate
        try scanner.startScanning(BlankFrameSource(count: 40))
        scanner.waitUntilFinished()
        #expect(delegate.calls == ["start", "add near", "remove near", "add mid", "remove mid", "finish eof"])
        #expect(delegate.changes.allSatisfy { $0.allItems.count <= 1 })
    }

    @Test func regionOfInterestDropsItemsOutsideIt() throws {
        let detector = ScriptedBarcodeDetector { _ in [code("in", x: 10, y: 10), code("out", x: 500, y: 400)] }
        let scanner = DataScanner(recognizedDataTypes: [.barcode()], barcodeDetector: detector, textRecognizer: nil, recognizesMultipleItems: true)
        scanner.regionOfInterest = Bounds(x: 0, y: 0, width: 320, height: 240)
        let delegate = RecordingDelegate()
        scanner.delegate = delegate
        try scanner.startScanning(BlankFrameSource(count: 3))
        scanner.waitUntilFinished()
        #expect(delegate.calls == ["start", "add in", "remove in", "finish eof"])
    }

    @Test func aFailingSourceEndsWithAnErrorAfterRemovingItems() throws {
        final class FailingSource: FrameSource, @unchecked Sendable {
            let inner = BlankFrameSource(count: nil)
            var info: SourceInfo { inner.info }
            /// A camera: one scene, whose item lives on from frame to frame (still images end theirs each frame).
            var isLive: Bool { true }
            var reads = 0
            func nextFrame() throws -> Frame? {
                reads += 1
                if reads > 3 {
                    throw ScanError.sourceDamaged(source: "cam", reason: "unplugged")
                }
                return try inner.nextFrame()
            }
        }
        let detector = ScriptedBarcodeDetector { _ in [code("A", x: 10, y: 10)] }
        let scanner = DataScanner(recognizedDataTypes: [.barcode()], barcodeDetector: detector, textRecognizer: nil, recognizesMultipleItems: true)
        let delegate = RecordingDelegate()
        scanner.delegate = delegate
        try scanner.startScanning(FailingSource())
        let outcome = try #require(scanner.waitUntilFinished())
        #expect(outcome.reason == .error)
        #expect(outcome.error == .sourceDamaged(source: "cam", reason: "unplugged"))
        #expect(delegate.calls == ["start", "add A", "remove A", "finish error"])
    }

    @Test func startingTwiceIsRefused() throws {
        let scanner = DataScanner(recognizedDataTypes: [.barcode()], barcodeDetector: ScriptedBarcodeDetector { _ in [] },
                                  textRecognizer: nil, recognizesMultipleItems: true)
        try scanner.startScanning(BlankFrameSource(count: nil))
        #expect(throws: ScanError.self) { try scanner.startScanning(BlankFrameSource(count: 1)) }
        scanner.stopScanning()
    }
}

/// Finds the same lines of text every frame and counts how often it is asked to read one.
final class ScriptedTextRecognizer: TextRecognizer, @unchecked Sendable {
    let lines: [Observation]
    private let lock = NSLock()
    private var storedReads = 0

    init(lines: [Observation]) {
        self.lines = lines
    }

    var reads: Int { lock.withLock { storedReads } }

    func lineRegions(in frame: Frame) throws -> [Bounds] {
        lines.map(\.bounds)
    }

    func readLine(in frame: Frame, region: Bounds) throws -> Observation? {
        lock.withLock { storedReads += 1 }
        return lines.first { $0.bounds == region }
    }
}

@Suite struct TextContentTypeTests {
    @Test func contentTypesRecogniseTheirKind() {
        #expect(TextContentType.URL.matches("see https://livescan.example/docs"))
        #expect(TextContentType.URL.matches("www.example.com"))
        #expect(!TextContentType.URL.matches("Aisle 7 Shelf B"))
        #expect(TextContentType.emailAddress.matches("mail ops@example.org today"))
        #expect(!TextContentType.emailAddress.matches("ops at example"))
        #expect(TextContentType.telephoneNumber.matches("Call +49 30 1234567"))
        #expect(TextContentType.dateTimeDuration.matches("Best before 12 Dec 2025"))
        #expect(TextContentType.dateTimeDuration.matches("Departs 14:35"))
        #expect(!TextContentType.dateTimeDuration.matches("Keep dry and cool"))
        #expect(TextContentType.currency.matches("Total $12.99"))
        #expect(TextContentType.currency.matches("9,50 EUR"))
        #expect(TextContentType.shipmentTrackingNumber.matches("1Z999AA10123456784"))
        #expect(TextContentType.shipmentTrackingNumber.matches("RA123456789DE"))
        #expect(!TextContentType.shipmentTrackingNumber.matches("Order 4711"))
        #expect(TextContentType.flightNumber.matches("Boarding LH 400 gate B12"))
        #expect(TextContentType.flightNumber.matches("U28123 to Berlin"))
        #expect(!TextContentType.flightNumber.matches("Keep dry and cool"))
        #expect(TextContentType.fullStreetAddress.matches("221B Baker Street, London"))
        #expect(TextContentType.fullStreetAddress.matches("1600 Pennsylvania Ave NW"))
        #expect(TextContentType.fullStreetAddress.matches("Hauptstraße 5, Berlin"))
        #expect(!TextContentType.fullStreetAddress.matches("Aisle 7 Shelf B"))
        // VisionKit's case names; the raw values the event log and options use are LiveScan's.
        #expect(TextContentType.URL.rawValue == "url")
        #expect(TextContentType.allCases.count == 8)
    }

    @Test func settledLinesAreNotReadEveryFrame() throws {
        let lines = [line("Aisle 7 Shelf B", x: 0, y: 0), line("Keep dry and cool", x: 0, y: 100)]
        let recognizer = ScriptedTextRecognizer(lines: lines)
        let scanner = DataScanner(recognizedDataTypes: [.text()], barcodeDetector: nil, textRecognizer: recognizer, recognizesMultipleItems: true)
        let delegate = RecordingDelegate()
        scanner.delegate = delegate
        try scanner.startScanning(BlankFrameSource(count: 60))
        scanner.waitUntilFinished()
        // Each line: read in frames 0 and 1 (they agree), then after rests of 15 and 30 frames: 16 and 46.
        #expect(recognizer.reads == 2 * 4)
        #expect(delegate.calls == ["start", "add Aisle 7 Shelf B,Keep dry and cool",
                                   "remove Aisle 7 Shelf B,Keep dry and cool", "finish eof"])

        let everyFrame = ScriptedTextRecognizer(lines: lines)
        let uncached = DataScanner(recognizedDataTypes: [.text()], barcodeDetector: nil, textRecognizer: everyFrame,
                                   recognizesMultipleItems: true, isHighFrameRateTrackingEnabled: false)
        try uncached.startScanning(BlankFrameSource(count: 60))
        uncached.waitUntilFinished()
        #expect(everyFrame.reads == 2 * 60)

        // Images are not a scene: each is read whole, though its lines sit where the last image's did.
        let images = ScriptedTextRecognizer(lines: lines)
        let folder = DataScanner(recognizedDataTypes: [.text()], barcodeDetector: nil, textRecognizer: images, recognizesMultipleItems: true)
        try folder.startScanning(BlankFrameSource(count: 20, isVideo: false))
        folder.waitUntilFinished()
        #expect(images.reads == 2 * 20)
    }

    @Test func scannerKeepsOnlyLinesOfTheWantedType() throws {
        let lines = [line("Best before 12 Dec 2025", x: 0, y: 0), line("Keep dry and cool", x: 0, y: 100)]
        let scanner = DataScanner(recognizedDataTypes: [.text(textContentType: .dateTimeDuration)],
                                  barcodeDetector: nil, textRecognizer: ScriptedTextRecognizer(lines: lines), recognizesMultipleItems: true)
        let delegate = RecordingDelegate()
        scanner.delegate = delegate
        try scanner.startScanning(BlankFrameSource(count: 3))
        scanner.waitUntilFinished()
        #expect(delegate.calls == ["start", "add Best before 12 Dec 2025", "remove Best before 12 Dec 2025",
                                   "finish eof"])
    }
}

@Suite struct GuidanceTests {
    @Test func blurIsJudgedAgainstTheScenesOwnRecentBest() {
        var monitor = GuidanceMonitor()
        #expect(monitor.guidance(undecodedCodes: 0, sharpness: 600) == nil)
        #expect(monitor.guidance(undecodedCodes: 0, sharpness: 500) == nil)
        #expect(monitor.guidance(undecodedCodes: 0, sharpness: 90) == .holdStill)
        #expect(monitor.guidance(undecodedCodes: 1, sharpness: 600) == .moveCloser)
        // A plain scene (little detail) is never called blurred.
        var plain = GuidanceMonitor()
        #expect(plain.guidance(undecodedCodes: 0, sharpness: 10) == nil)
        #expect(plain.guidance(undecodedCodes: 0, sharpness: 1) == nil)
    }

    @Test func scannerReportsAGuidanceChangeWhenACodeCannotBeRead() throws {
        final class GuidanceRecorder: DataScannerDelegate, @unchecked Sendable {
            var hints: [ScanGuidance?] = []
            func dataScanner(_ dataScanner: DataScanner, didChangeGuidance guidance: ScanGuidance?) {
                hints.append(guidance)
            }
        }
        let detector = ScriptedBarcodeDetector { index in
            index < 5 ? [.unreadableBarcode(.qr, bounds: Bounds(x: 10, y: 10, width: 40, height: 40))]
                : [code("A", x: 10, y: 10, size: 40)]
        }
        let scanner = DataScanner(recognizedDataTypes: [.barcode()], barcodeDetector: detector, textRecognizer: nil, recognizesMultipleItems: true)
        let recorder = GuidanceRecorder()
        scanner.delegate = recorder
        try scanner.startScanning(BlankFrameSource(count: 10))
        scanner.waitUntilFinished()
        #expect(recorder.hints == [.moveCloser, nil])
    }
}

/// Records the regions it is asked to read (nil: the whole frame) and reads one code wherever it is asked.
final class RecordingRegionDetector: RegionBarcodeDetector, @unchecked Sendable {
    private let lock = NSLock()
    private var storedRegions: [(frame: Int, region: PixelRect?)] = []
    var regions: [(frame: Int, region: PixelRect?)] { lock.withLock { storedRegions } }

    func detect(in frame: Frame) throws -> [Observation] {
        try detect(in: frame, region: nil)
    }

    func detect(in frame: Frame, region: PixelRect?) throws -> [Observation] {
        lock.withLock { storedRegions.append((frame.index, region)) }
        return [code("STILL", x: 200, y: 150, size: 120)]
    }
}

@Suite struct ScanPlanTests {
    /// The plan is chosen from the source and the engines, injected or not: a video read with a detector that
    /// can read regions is read where it changed, whole only every `barcodeWholeReadInterval` frames.
    @Test func aVideoIsReadWholeOnlyEveryIntervalWithInjectedEngines() throws {
        let detector = RecordingRegionDetector()
        let scanner = DataScanner(recognizedDataTypes: [.barcode()], barcodeDetector: detector, textRecognizer: nil)
        let delegate = RecordingDelegate()
        scanner.delegate = delegate
        try scanner.startScanning(BlankFrameSource(count: 61))
        scanner.waitUntilFinished()
        let whole = detector.regions.filter { $0.region == nil }.map(\.frame)
        #expect(whole == [0, 30, 60])
        #expect(delegate.calls.first { $0.hasPrefix("add") } == "add STILL")
    }

    /// A file's scan waits for its learned networks, which run on two threads (one on a single core); a live
    /// scan's detector takes only what its frame loop leaves, on one.
    @Test func learnedNetworksShareTheCoresOnlyInAFilesScan() throws {
        let cores = ProcessorCores.usable()
        for (stillImages, isLive, threads) in [(false, false, min(2, cores)), (true, false, min(2, cores)),
                                               (false, true, 1)] {
            let engines = try ScanEngines.make(for: [.text()], qualityLevel: .balanced, isGuidanceEnabled: false,
                                               stillImages: stillImages, isLive: isLive)
            #expect(engines.text?.detected?.detector.threads == threads)
        }
    }

    /// Images are not a scene: each is read whole, whatever the detector can do.
    @Test func imagesAreEachReadWhole() throws {
        let detector = RecordingRegionDetector()
        let scanner = DataScanner(recognizedDataTypes: [.barcode()], barcodeDetector: detector, textRecognizer: nil)
        try scanner.startScanning(BlankFrameSource(count: 5, isVideo: false))
        scanner.waitUntilFinished()
        #expect(detector.regions.map(\.frame).sorted() == [0, 1, 2, 3, 4])
        #expect(detector.regions.allSatisfy { $0.region == nil })
    }
}
