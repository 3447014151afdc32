import Foundation
import Testing
@testable import LiveScan
import LiveScanTestSupport

/// Blank 640x480 still images, one frame each, named `1.png`, `2.png`, ... as a folder's are.
final class NamedStillsSource: FrameSource, @unchecked Sendable {
    let info: SourceInfo
    private let count: Int
    private var next = 0

    init(count: Int) {
        self.count = count
        info = SourceInfo(name: "labels", width: 640, height: 480, framesPerSecond: 0, frameCount: count)
    }

    func nextFrame() throws -> Frame? {
        guard next < count else { return nil }
        defer { next += 1 }
        return Frame(image: BlankPixels(width: 640, height: 480), index: next, time: Double(next),
                     file: "labels/\(next + 1).png")
    }
}

/// Each still image has its own items: the scanner ends them with it, whatever the next image shows where.
@Suite struct PerImageItemsScannerTests {
    @Test func theSameCodeAtTheSamePlaceInEachImageIsAnItemOfEach() throws {
        let detector = ScriptedBarcodeDetector { _ in [code("PARCEL", x: 100, y: 100)] }
        let scanner = DataScanner(recognizedDataTypes: [.barcode()], barcodeDetector: detector, textRecognizer: nil,
                                  recognizesMultipleItems: true)
        let delegate = RecordingDelegate()
        scanner.delegate = delegate
        try scanner.startScanning(NamedStillsSource(count: 3))
        scanner.waitUntilFinished()
        #expect(delegate.calls == ["start", "add PARCEL", "remove PARCEL", "add PARCEL", "remove PARCEL",
                                   "add PARCEL", "remove PARCEL", "finish eof"])
        let changes = delegate.changes
        // Added and removed in the image's own frame, named by its file.
        #expect(changes.map(\.frameIndex) == [0, 0, 1, 1, 2, 2])
        #expect(changes.map(\.file) == ["labels/1.png", "labels/1.png", "labels/2.png", "labels/2.png",
                                        "labels/3.png", "labels/3.png"])
        #expect(changes.allSatisfy { $0.updated.isEmpty })
        #expect(Set(changes.flatMap(\.added).map(\.id)).count == 3)
        #expect(changes.filter { !$0.removed.isEmpty }.allSatisfy { $0.allItems.isEmpty })
    }

    @Test func singleItemModePicksTheNearestItemOfEachImage() throws {
        // 640x480: "near" is at the centre in image 1 only; image 2 has only "far".
        let detector = ScriptedBarcodeDetector { index in
            index == 0 ? [code("near", x: 280, y: 200), code("far", x: 0, y: 0)] : [code("far", x: 0, y: 0)]
        }
        let scanner = DataScanner(recognizedDataTypes: [.barcode()], barcodeDetector: detector, textRecognizer: nil,
                                  recognizesMultipleItems: false)
        let delegate = RecordingDelegate()
        scanner.delegate = delegate
        try scanner.startScanning(NamedStillsSource(count: 2))
        scanner.waitUntilFinished()
        #expect(delegate.calls == ["start", "add near", "remove near", "add far", "remove far", "finish eof"])
    }

    @Test func aVideosItemStaysOneItemAcrossFrames() throws {
        let detector = ScriptedBarcodeDetector { _ in [code("PARCEL", x: 100, y: 100)] }
        let scanner = DataScanner(recognizedDataTypes: [.barcode()], barcodeDetector: detector, textRecognizer: nil,
                                  recognizesMultipleItems: true)
        let delegate = RecordingDelegate()
        scanner.delegate = delegate
        try scanner.startScanning(BlankFrameSource(count: 3))
        scanner.waitUntilFinished()
        #expect(delegate.calls == ["start", "add PARCEL", "remove PARCEL", "finish eof"])
        #expect(delegate.changes.allSatisfy { $0.file == nil })
    }

    @Test func severalImageArgumentsAreNamedAfterTheFolderHoldingThemAll() {
        #expect(ImageFilesSource.commonFolder(of: ["labels/1.png", "labels/2.png"]) == "labels")
        #expect(ImageFilesSource.commonFolder(of: ["a.png", "b.png"]) == ".")
        #expect(ImageFilesSource.commonFolder(of: ["./a.png", "sub/b.png"]) == ".")
        #expect(ImageFilesSource.commonFolder(of: ["/srv/in/a/1.png", "/srv/in/b/2.png"]) == "/srv/in")
        #expect(ImageFilesSource.commonFolder(of: ["/a.png", "/b.png"]) == "/")
        let here = FileManager.default.currentDirectoryPath
        #expect(ImageFilesSource.commonFolder(of: ["x.png", here + "/y.png"]) == here)
    }
}
