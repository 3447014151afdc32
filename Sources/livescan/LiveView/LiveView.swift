import Foundation
import LiveScan

/// `--serve`: the scan as a web page shows it (LiveViewPage), served while it runs (LiveViewServer). The event
/// log's lines reach it through the log writer's copy (`logLine`); each processed frame's items are published at
/// once, and its picture only when a viewer asks for one, encoded on a thread of the view's own: the scan's worker
/// never encodes, and never waits for a viewer.
final class LiveView: ScanPresenter, @unchecked Sendable {
    /// Pictures are scaled to at most this wide: a browser window's worth, and a 1080p frame's JPEG at a quarter of
    /// its bytes.
    static let pictureMaxWidth = 960
    static let pictureQuality = 75

    private let server: LiveViewServer
    private let regionOfInterest: Bounds?
    /// The current items as the tap handler, on a viewer's thread, looks them up.
    private let itemsInView: ItemsInView
    private let condition = NSCondition()
    // Under `condition`:
    private var latestFrame: Frame?
    private var running = true
    // The command's thread's own:
    private var picturesStarted = false
    /// Signalled when the picture thread ends.
    private let pictureThreadDone = DispatchSemaphore(value: 0)

    /// Starts serving. `tap` is the scanner's: a viewer's choice reaches the delegate as the listing's does.
    init(settings: ServeSettings, regionOfInterest: Bounds?, tap: @escaping @Sendable (RecognizedItem) -> Bool)
        throws {
        self.regionOfInterest = regionOfInterest
        let items = ItemsInView()
        server = try LiveViewServer(settings: settings, page: LiveViewPage.html) { id in
            guard let item = items.item(id: id) else { return false }
            return tap(item)
        }
        itemsInView = items
    }

    var port: Int { server.port }

    /// Starts encoding pictures for viewers who ask.
    func start() {
        let thread = Thread { [self] in servePictures() }
        thread.name = "LiveScan.live-view"
        thread.start()
        picturesStarted = true
    }

    /// One line of the event log, as it is written.
    func logLine(_ line: String) {
        server.addLogLine(line)
    }

    func changed(_ changes: ScanChanges) throws {
        itemsInView.set(changes.allItems)
    }

    func processed(_ frame: Frame, items: [RecognizedItem]) throws {
        itemsInView.set(items)
        server.setItems(EventLog.itemsDocument(items, frameIndex: frame.index, time: frame.time, width: frame.width,
                                               height: frame.height, regionOfInterest: regionOfInterest))
        condition.withLock {
            latestFrame = frame
            condition.broadcast()
        }
    }

    func finished(_ outcome: ScanOutcome) {
        itemsInView.set([])
    }

    /// Ends the view once the log's end line is written: the picture thread is stopped, viewers of the log are
    /// given up to `drainingFor` seconds to read it to its end line, and the server stops.
    func close(drainingFor timeout: Double = 2) {
        server.endLog()
        condition.withLock {
            running = false
            condition.broadcast()
        }
        if picturesStarted {
            pictureThreadDone.wait()
            pictureThreadDone.signal()  // a second close does not wait
        }
        server.stop(drainingFor: timeout)
    }

    /// The picture thread: whenever a viewer asks and there is a frame newer than the last sent, its JPEG.
    private func servePictures() {
        defer { pictureThreadDone.signal() }
        var lastSent = -1
        while condition.withLock({ running }) {
            guard server.waitForPictureRequest(timeout: 0.25) else { continue }
            let frame: Frame? = condition.withLock {
                // Wait briefly for a newer frame: a viewer faster than the scan gets each frame once.
                while running, (latestFrame?.index ?? -1) <= lastSent {
                    if !condition.wait(until: Date().addingTimeInterval(0.25)) { break }
                }
                return latestFrame
            }
            guard let frame, frame.index != lastSent,
                  let jpeg = try? frame.bridgeImage().jpegData(maxWidth: Self.pictureMaxWidth,
                                                               quality: Self.pictureQuality)
            else { continue }
            server.setPicture(jpeg, frame: frame.index)
            lastSent = frame.index
        }
    }
}

/// The items in view, shared between the scan's worker (which sets them) and the viewers' threads (which look up
/// the one a viewer chose).
private final class ItemsInView: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [RecognizedItem] = []

    func set(_ items: [RecognizedItem]) {
        lock.withLock { self.items = items }
    }

    func item(id: String) -> RecognizedItem? {
        let wanted = id.lowercased()
        return lock.withLock { items.first { $0.id.uuidString.lowercased() == wanted } }
    }
}
