import Foundation
import Testing
@testable import LiveScan
import LiveScanTestSupport

/// A camera's blank frames, `count` of them, that holds frame `heldFrame` back until `release()`: the worker then
/// waits between frame `heldFrame - 1` and frame `heldFrame`, where a test can act. Live, so the worker reads it
/// itself, one frame at a time (nothing reads ahead).
private final class GatedCamera: FrameSource, @unchecked Sendable {
    private let frames: BlankFrameSource
    private let heldFrame: Int
    private let reached = DispatchSemaphore(value: 0)
    private let gate = DispatchSemaphore(value: 0)

    init(count: Int, heldFrame: Int) {
        frames = BlankFrameSource(count: count)
        self.heldFrame = heldFrame
    }

    var info: SourceInfo { frames.info }
    var isLive: Bool { true }

    func nextFrame() throws -> Frame? {
        let frame = try frames.nextFrame()
        if frame?.index == heldFrame {
            reached.signal()
            gate.wait()
        }
        return frame
    }

    /// Blocks until the worker asks for the held frame.
    func waitUntilHeld() {
        reached.wait()
    }

    func release() {
        gate.signal()
    }
}

/// Records frames, changes and taps in the order the delegate hears them, and whether each tap came on the
/// scanner's worker thread (the one that said the scan started).
private final class TapRecorder: DataScannerDelegate, @unchecked Sendable {
    private let lock = NSLock()
    private var storedEvents: [String] = []
    private var storedItems: [RecognizedItem] = []
    private var worker: pthread_t?
    /// Signalled at each tap delivered.
    let tapped = DispatchSemaphore(value: 0)
    /// Called on the worker after a frame's calls were recorded.
    var afterFrame: (@Sendable (DataScanner, Int) -> Void)?

    var events: [String] { lock.withLock { storedEvents } }
    /// The items current after the last frame.
    var items: [RecognizedItem] { lock.withLock { storedItems } }

    private func record(_ event: String) {
        lock.withLock { storedEvents.append(event) }
    }

    func dataScanner(_ dataScanner: DataScanner, didStartWith source: SourceInfo) {
        lock.withLock { worker = pthread_self() }
    }

    func dataScanner(_ dataScanner: DataScanner, didAdd addedItems: [RecognizedItem], allItems: [RecognizedItem]) {
        record("add " + addedItems.map(\.value).joined(separator: ","))
    }

    func dataScanner(_ dataScanner: DataScanner, didRemove removedItems: [RecognizedItem],
                     allItems: [RecognizedItem]) {
        record("remove " + removedItems.map(\.value).joined(separator: ","))
    }

    func dataScanner(_ dataScanner: DataScanner, didProcess frame: Frame, allItems: [RecognizedItem]) {
        lock.withLock { storedItems = allItems }
        record("frame \(frame.index)")
        afterFrame?(dataScanner, frame.index)
    }

    func dataScanner(_ dataScanner: DataScanner, didTapOn item: RecognizedItem) {
        let onWorker = lock.withLock { worker.map { pthread_equal($0, pthread_self()) != 0 } ?? false }
        record("tap \(item.value) on " + (onWorker ? "the worker" : "another thread"))
        tapped.signal()
    }

    func dataScanner(_ dataScanner: DataScanner, didFinish outcome: ScanOutcome) {
        record("finish")
    }
}

/// `DataScanner.tap(on:)` is called from the app's own thread (the listing's key reader); the delegate hears of it
/// as of every other call, on the worker thread and in frame order.
@Suite struct DataScannerTapTests {
    private func scanner(_ recorder: TapRecorder) -> DataScanner {
        let detector = ScriptedBarcodeDetector { _ in [code("A", x: 10, y: 10)] }
        let scanner = DataScanner(recognizedDataTypes: [.barcode()], barcodeDetector: detector, textRecognizer: nil,
                                  recognizesMultipleItems: true)
        scanner.delegate = recorder
        return scanner
    }

    @Test func aTapComesOnTheWorkerBeforeTheNextFramesCalls() throws {
        let recorder = TapRecorder()
        let scanner = scanner(recorder)
        let camera = GatedCamera(count: 4, heldFrame: 2)
        try scanner.startScanning(camera)
        camera.waitUntilHeld()  // frames 0 and 1 are done; the worker waits for frame 2
        let item = try #require(recorder.items.first)
        scanner.tap(on: item)
        camera.release()
        scanner.waitUntilFinished()
        #expect(recorder.events == ["add A", "frame 0", "frame 1", "tap A on the worker", "frame 2", "frame 3",
                                    "remove A", "finish"])
    }

    @Test func aTapWhilePausedComesAtOnce() throws {
        let recorder = TapRecorder()
        let scanner = scanner(recorder)
        let camera = GatedCamera(count: 4, heldFrame: 2)
        try scanner.startScanning(camera)
        camera.waitUntilHeld()
        let item = try #require(recorder.items.first)
        scanner.isPaused = true
        camera.release()  // frame 2 is taken; then the worker waits, paused
        scanner.tap(on: item)
        #expect(recorder.tapped.wait(timeout: .now() + 10) == .success)
        #expect(recorder.events.contains("tap A on the worker"))
        #expect(!recorder.events.contains("frame 3"), "\(recorder.events)")
        scanner.isPaused = false
        scanner.waitUntilFinished()
        #expect(recorder.events.suffix(3) == ["frame 3", "remove A", "finish"])
    }

    /// A tap taken while the scan is ending is delivered before the final removes, never lost.
    @Test func aTapAsTheScanStopsComesBeforeItsRemoves() throws {
        let recorder = TapRecorder()
        let scanner = scanner(recorder)
        recorder.afterFrame = { scanner, index in
            guard index == 1 else { return }
            scanner.requestStop()
            // The app's thread taps while the worker is still in this frame's call: the scan is stopping.
            let done = DispatchSemaphore(value: 0)
            let item = recorder.items[0]
            Thread {
                scanner.tap(on: item)
                done.signal()
            }.start()
            done.wait()
        }
        try scanner.startScanning(GatedCamera(count: 100, heldFrame: 100))
        scanner.waitUntilFinished()
        #expect(recorder.events == ["add A", "frame 0", "frame 1", "tap A on the worker", "remove A", "finish"])
    }

    /// With no scan running there is no item to choose and no worker to deliver in order: the tap is refused.
    @Test func aTapWithNoScanRunningIsRefused() throws {
        let recorder = TapRecorder()
        let scanner = scanner(recorder)
        let item = RecognizedItem.barcode(.init(id: UUID(), bounds: Bounds(x: 10, y: 10, width: 80, height: 80),
                                                payloadStringValue: "A", payloadData: Data("A".utf8), symbology: .qr,
                                                frameIndex: 0, time: 0))
        #expect(!scanner.tap(on: item))
        try scanner.startScanning(GatedCamera(count: 2, heldFrame: 2))
        scanner.waitUntilFinished()
        #expect(!scanner.tap(on: item))
        #expect(recorder.events == ["add A", "frame 0", "frame 1", "remove A", "finish"])
    }
}
