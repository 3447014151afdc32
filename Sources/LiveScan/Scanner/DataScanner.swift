import Foundation

/// A live scanner of barcodes and text, as VisionKit's `DataScannerViewController` without the view:
/// give it a `FrameSource` and it reports tracked `RecognizedItem`s to its delegate and to
/// `recognizedItems`. Frames are read, recognised and tracked on one worker thread per scan.
public final class DataScanner: @unchecked Sendable {
    /// What to look for.
    public let recognizedDataTypes: Set<RecognizedDataType>
    /// How much work to spend a frame (default `.balanced`).
    public let qualityLevel: QualityLevel
    /// Report every item (true) or only the one nearest the centre of the region of interest
    /// (false, VisionKit's default).
    public let recognizesMultipleItems: Bool
    /// Keep text bounds current between OCR runs (default true): lines are located in every frame
    /// (cheap) but a line that has read the same twice is re-read only twice a second (`TextReadingCache`).
    /// When false, every line is read in every frame.
    public let isHighFrameRateTrackingEnabled: Bool
    /// Whether the scanner says what would help when it cannot read (`didChangeGuidance`; default true).
    public let isGuidanceEnabled: Bool
    /// Only items whose centre lies inside this rectangle are recognised; nil = the whole frame.
    public var regionOfInterest: Bounds? {
        get { lock.withLock { storedRegionOfInterest } }
        set { lock.withLock { storedRegionOfInterest = newValue } }
    }
    /// The tracker's knobs (validated when scanning starts).
    public var trackerConfiguration = TrackerConfiguration()

    /// The tracker's knobs a scan of `source` runs with: `trackerConfiguration`, except that each still image
    /// stands alone: one reading of a line is enough (an image has no second frame to confirm it in), and no
    /// item outlives its image (the scanner ends them all after its frame, so a remove's `seen_frame` is its own).
    public func trackerConfiguration(for source: FrameSource) -> TrackerConfiguration {
        var configuration = trackerConfiguration
        if source.holdsStillImages {
            configuration.textConfirmations = 1
            configuration.gracePeriod = 0
        }
        return configuration
    }

    /// Receives add/update/remove calls on the worker thread, or on `delegateQueue`.
    public weak var delegate: DataScannerDelegate?
    /// Where the delegate is called: nil (the default), on the scan's worker, each call before the next frame is
    /// taken; a serial queue the app chooses (`.main` for a UI, one that hops to its actor), queued there in the
    /// same order, the scan going on meanwhile (`waitUntilFinished` does not wait for the calls still queued).
    public var delegateQueue: DispatchQueue? {
        get { lock.withLock { storedDelegateQueue } }
        set { lock.withLock { storedDelegateQueue = newValue } }
    }

    // The scan's state, guarded by `lock`; what is not private is its worker's too (DataScannerWorker.swift).
    let lock = NSCondition()
    private var storedRegionOfInterest: Bounds?
    private var storedDelegateQueue: DispatchQueue?
    /// nil = every line of text; otherwise only lines holding one of these kinds of content.
    let textContentTypes: Set<TextContentType>?
    /// The app's own engines; nil: made for each scan from `recognizedDataTypes` and `qualityLevel`.
    private var injectedEngines: ScanEngines?
    var stopRequested = false
    /// Why the scan was asked to stop, for its outcome: the first request's reason and error.
    var stopReason = ScanOutcome.Reason.stopped
    var stopError: ScanError?
    var paused = false
    /// True while a scan's worker will still deliver taps: from `startScanning` until the worker's last delivery
    /// of them, before the scan's final removes.
    var acceptsTaps = false
    /// Taps not yet delivered, in the order they came.
    var pendingTaps: [RecognizedItem] = []
    var currentSource: FrameSource?
    private var running = false
    private var finished = DispatchSemaphore(value: 0)
    /// The thread of the current or last scan.
    private var worker: JoinableThread?
    var outcome: ScanOutcome?
    private var itemsStream: AsyncStream<[RecognizedItem]>
    var itemsContinuation: AsyncStream<[RecognizedItem]>.Continuation
    /// The stream of a finished scan is over; the next scan needs a new one.
    private var itemsStreamFinished = false

    /// VisionKit's initialiser and defaults. Engines are made when scanning starts.
    public init(recognizedDataTypes: Set<RecognizedDataType>, qualityLevel: QualityLevel = .balanced,
                recognizesMultipleItems: Bool = false, isHighFrameRateTrackingEnabled: Bool = true,
                isGuidanceEnabled: Bool = true) {
        self.recognizedDataTypes = recognizedDataTypes
        self.qualityLevel = qualityLevel
        self.recognizesMultipleItems = recognizesMultipleItems
        self.isHighFrameRateTrackingEnabled = isHighFrameRateTrackingEnabled
        self.isGuidanceEnabled = isGuidanceEnabled
        var contentTypes: Set<TextContentType>? = []
        for case let .text(_, contentType) in recognizedDataTypes {
            if let contentType {
                contentTypes?.insert(contentType)
            } else {
                contentTypes = nil  // some text type wants every line
            }
        }
        textContentTypes = contentTypes?.isEmpty == true ? nil : contentTypes
        (itemsStream, itemsContinuation) = Self.makeItemsStream()
    }

    /// A scanner with engines of the caller's choosing (test doubles, a different detector). `textRecognizer`
    /// locates and reads every line, in stills and video alike (read as the scan's `TextReading` reads lines: in
    /// video, remembered while `isHighFrameRateTrackingEnabled`); LiveScan's learned detector does not run beside it.
    public convenience init(recognizedDataTypes: Set<RecognizedDataType>, barcodeDetector: (any BarcodeDetector)?,
                            textRecognizer: (any TextRecognizer)?, recognizesMultipleItems: Bool = false,
                            isHighFrameRateTrackingEnabled: Bool = true) {
        self.init(recognizedDataTypes: recognizedDataTypes, recognizesMultipleItems: recognizesMultipleItems,
                  isHighFrameRateTrackingEnabled: isHighFrameRateTrackingEnabled)
        injectedEngines = ScanEngines(barcodeDetector: barcodeDetector,
                                      text: textRecognizer.map { TextEngines(recognizer: $0) })
    }

    /// The current items after every change, in reading order. The stream finishes when the scan ends;
    /// after that, a new one serves the next scan. A reader slower than the changes sees the newest list
    /// (every change reaches the delegate): nothing piles up for a stream that nobody reads.
    public var recognizedItems: AsyncStream<[RecognizedItem]> { lock.withLock { itemsStream } }

    /// Unbounded buffering kept every list of a scan whose stream nobody read: ~1 KB a frame, for ever.
    private static func makeItemsStream()
        -> (AsyncStream<[RecognizedItem]>, AsyncStream<[RecognizedItem]>.Continuation) {
        AsyncStream.makeStream(of: [RecognizedItem].self, bufferingPolicy: .bufferingNewest(1))
    }

    /// While true the worker takes no new frame (a file waits where it is; a live source's frames are
    /// left unread). Items stay as they are: pausing is not leaving.
    public var isPaused: Bool {
        get { lock.withLock { paused } }
        set {
            lock.withLock {
                paused = newValue
                lock.broadcast()
            }
        }
    }

    /// `source`, or for a live `VideoSource` a `LiveFrameSource` reading it.
    private static func newestFirst(_ source: FrameSource) -> FrameSource {
        guard let video = source as? VideoSource, video.isLive else { return source }
        return LiveFrameSource(reading: video)
    }

    /// True from `startScanning` until the scan has finished.
    public var isScanning: Bool { lock.withLock { running } }

    /// Starts scanning `source` on a worker thread. Throws when an engine cannot start (a missing
    /// Tesseract language) or the tracker configuration is invalid; source failures later arrive as
    /// `becameUnavailableWithError`. A camera or stream opened as a `VideoSource` is read through a
    /// `LiveFrameSource`: read at the scanner's pace, its frames would queue in the capture and a slow
    /// delegate would see ever older ones; this way the newest frame wins and stale ones are dropped.
    public func startScanning(_ source: FrameSource) throws {
        let configuredTracker = try Tracker(configuration: trackerConfiguration(for: source))
        let source = Self.newestFirst(source)
        let (engines, finished, itemsContinuation) = try lock.withLock {
            guard !running else {
                throw ScanError.invalidParameter(parameter: "startScanning", reason: "already scanning")
            }
            let engines = try injectedEngines ?? ScanEngines.make(
                for: recognizedDataTypes, qualityLevel: qualityLevel, isGuidanceEnabled: isGuidanceEnabled,
                stillImages: source.holdsStillImages, isLive: source.isLive)
            running = true
            acceptsTaps = true
            stopRequested = false
            stopReason = .stopped
            stopError = nil
            outcome = nil
            self.finished = DispatchSemaphore(value: 0)
            if itemsStreamFinished {
                (self.itemsStream, self.itemsContinuation) = Self.makeItemsStream()
                itemsStreamFinished = false
            }
            return (engines, self.finished, self.itemsContinuation)
        }
        // Joined when the scan is waited for: its body holds the scan's engines, released as it ends, and those must
        // be gone before the app goes on (and perhaps exits: `JoinableThread`).
        do {
            let worker = try JoinableThread(name: "LiveScan.worker", stackSize: 8 << 20) { [self] in
                var tracker = configuredTracker
                let outcome = run(source, engines: engines, tracker: &tracker)
                lock.withLock {
                    self.outcome = outcome
                    running = false
                    itemsStreamFinished = true
                }
                // This scan's own stream and semaphore, taken when it started: once `running` is false, a next scan may
                // already have made new ones, which this worker must not finish or signal.
                itemsContinuation.finish()
                finished.signal()
            }
            lock.withLock { self.worker = worker }
        } catch {
            lock.withLock { (running, acceptsTaps) = (false, false) }
            throw error
        }
    }

    /// Stops after the frame in progress; every item is removed (with didRemove) before it returns.
    @discardableResult
    public func stopScanning() -> ScanOutcome? {
        requestStop()
        return waitUntilFinished()
    }

    /// Asks the scan to stop without waiting (safe from a signal-handling thread). `reason` is what the
    /// outcome and the event log's end line say (default `.stopped`; `.interrupted` for a signal, `.error`
    /// with `error` when an output of the app's failed); the first request's reason stands.
    public func requestStop(_ reason: ScanOutcome.Reason = .stopped, error: ScanError? = nil) {
        let source = lock.withLock {
            if !stopRequested {
                stopReason = reason
                stopError = error
            }
            stopRequested = true
            lock.broadcast()
            return currentSource
        }
        // A live source may be waiting for a frame that is slow to come: do not wait for it.
        source?.close()
    }

    /// Blocks until the current scan ends; nil if none was started.
    @discardableResult
    public func waitUntilFinished() -> ScanOutcome? {
        let (semaphore, wasRunning, worker): (DispatchSemaphore, Bool, JoinableThread?) = lock.withLock {
            (finished, running || outcome != nil, self.worker)
        }
        guard wasRunning else { return nil }
        semaphore.wait()
        semaphore.signal()  // let later waiters through too
        worker?.join()
        return lock.withLock { outcome }
    }

    /// Reports the user's choice of `item` to the delegate (VisionKit's tap), from any thread. The delegate hears
    /// of it as of every other call, on the worker thread and in frame order: before the calls of the next frame
    /// taken (at once while the scan is paused), and at the latest before the scan's final removes. Returns false,
    /// and nothing is delivered, when no scan is running: its items have all been removed, so no item is there to
    /// choose (and no worker to deliver it in order).
    @discardableResult
    public func tap(on item: RecognizedItem) -> Bool {
        lock.withLock {
            guard acceptsTaps else { return false }
            pendingTaps.append(item)
            lock.broadcast()  // a paused worker delivers it now
            return true
        }
    }
}
