import Foundation
import Testing
@testable import LiveScan
import LiveScanTestSupport

@Suite struct RegionOfInterestTests {
    /// The app moves the region of interest while each frame is being recognised (here from inside the frame's text
    /// read, and back once the frame is processed): each frame is filtered and selected by one region, the one it
    /// started with. Filtered by the whole frame and selected by the moved region's centre, a frame would show
    /// `right`, which neither region alone shows (the whole frame's centre is nearer `left`; the moved region holds
    /// neither line).
    @Test func oneFrameIsFilteredAndSelectedByOneRegion() throws {
        let whole = Bounds(x: 0, y: 0, width: 640, height: 480)
        let moved = Bounds(x: 300, y: 0, width: 100, height: 480)
        final class MovingRegion: TextRecognizer, DataScannerDelegate, @unchecked Sendable {
            weak var scanner: DataScanner?
            let lines = [line("left", x: 20, y: 200), line("right", x: 330, y: 200)]
            let whole: Bounds, moved: Bounds
            let recorded = RecordingDelegate()

            init(whole: Bounds, moved: Bounds) {
                (self.whole, self.moved) = (whole, moved)
            }

            func lineRegions(in frame: Frame) throws -> [Bounds] {
                scanner?.regionOfInterest = moved
                return lines.map(\.bounds)
            }

            func readLine(in frame: Frame, region: Bounds) throws -> Observation? {
                lines.first { $0.bounds == region }
            }

            func dataScanner(_ dataScanner: DataScanner, didProcess frame: Frame, allItems: [RecognizedItem]) {
                dataScanner.regionOfInterest = whole
            }

            func dataScanner(_ dataScanner: DataScanner, didAdd addedItems: [RecognizedItem],
                             allItems: [RecognizedItem]) {
                recorded.dataScanner(dataScanner, didAdd: addedItems, allItems: allItems)
            }
        }
        let app = MovingRegion(whole: whole, moved: moved)
        let scanner = DataScanner(recognizedDataTypes: [.text()], barcodeDetector: nil, textRecognizer: app,
                                  recognizesMultipleItems: false)
        app.scanner = scanner
        scanner.regionOfInterest = whole
        scanner.delegate = app
        try scanner.startScanning(BlankFrameSource(count: 5))
        scanner.waitUntilFinished()
        #expect(app.recorded.calls == ["add left"])
    }
}
