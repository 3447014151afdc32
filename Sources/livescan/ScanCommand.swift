import Foundation
import LiveScan

/// `livescan scan SOURCE...`: scans images, folders of images and video files, prints one line per item
/// found (`symbology:payload`, `text:transcript`) and optionally writes the event log. Image arguments given one
/// after another are one scan (`ScanOptions.scans`).
final class ScanCommand: DataScannerDelegate, @unchecked Sendable {
    // What is not private here is the delegate's too (ScanCommandDelegate.swift, called on the scanner's worker).
    let options: ScanOptions
    private let standardOutput = LineOutput(descriptor: STDOUT_FILENO, name: "standard output")
    var eventLog: EventLogWriter?
    private var outputError: ScanError?
    var itemsFound = 0
    /// Whether the scan's text lines settle before they are printed (`FindingLines.settled`): a video's do, a
    /// still image's are read once.
    var settlesText = false
    /// `--once`: the first settled item has been printed.
    var printedOnce = false
    /// What the scans found, for the closing line on a terminal's standard error.
    var summary = ScanSummary()
    /// The source being scanned, for its reconnections; and how many of them were reported.
    var scannedSource: FrameSource?
    var reconnectionsReported = 0
    /// Whether the listing has the terminal: nothing else may then write to it.
    var showsListing = false
    /// The size of the frames so far, to log a change of resolution.
    var pictureSize = (width: 0, height: 0)
    /// The tracker's knobs the current scan runs with, for the event log's start line.
    var scanTracker = TrackerConfiguration()
    private var activeScanner: DataScanner?
    var presenters: [ScanPresenter] = []
    /// `--serve`: the live view of the current scan.
    private var liveView: LiveView?
    /// The last frame delivered, where a tap made after it is logged.
    var lastFrame: (index: Int, time: Double, file: String?) = (0, 0, nil)
    private let lock = NSLock()

    init(options: ScanOptions) {
        self.options = options
    }

    func run() -> ExitCode {
        do {
            try OutputConflicts.check(options)
        } catch let error as UsageError {
            return Diagnostics.usage(error)
        } catch {
            return Diagnostics.fail(error, code: .usage)
        }
        let interruption = SignalWatcher { [weak self] in self?.interrupt() }
        var failed = false
        for sources in options.scans {
            switch scan(sources, interruption: interruption) {
            case .ok: break
            case .failed: failed = true
            case let .stopped(code): return code
            }
            if interruption.caughtSignal != nil {
                break
            }
        }
        if !options.quiet && ScanSummary.isWanted {
            Diagnostics.printError(summary.line(barcodesWanted: options.wantsBarcodes, textWanted: options.wantsText))
        }
        if let signal = interruption.caughtSignal {
            return ExitCode(signal: signal)
        }
        if failed {
            return .inputError
        }
        return itemsFound > 0 ? .found : .nothingFound
    }

    private enum SourceResult {
        case ok, failed, stopped(ExitCode)
    }

    /// One scan of `paths`: its source opened, its scanner and outputs configured, run to its end, and finished.
    private func scan(_ paths: [String], interruption: SignalWatcher) -> SourceResult {
        let opened: OpenedSource
        switch open(paths, interruption: interruption) {
        case let .opened(source):
            opened = source
        case let .ended(result):
            return result
        }
        let scan = configure(opened)
        do {
            try scan.scanner.startScanning(opened.source)
        } catch let error as ScanError {
            if case .modelMissing = error {
                return .stopped(Diagnostics.fail(error, code: .usage))
            }
            return .stopped(Diagnostics.fail(error, code: .inputError))
        } catch {
            return .stopped(Diagnostics.fail(error, code: .inputError))
        }
        lock.withLock { activeScanner = scan.scanner }
        if interruption.caughtSignal != nil {
            // The signal came before there was a scanner to stop.
            scan.scanner.requestStop(.interrupted)
        }
        scan.listing?.start()
        let outcome = scan.scanner.waitUntilFinished()
        lock.withLock { activeScanner = nil }
        summary.scanned(outcome?.framesProcessed ?? 0, isImages: opened.isImages)
        return finish(scan, source: opened.source, outcome: outcome)
    }

    /// A source open to scan, with the region of interest in its frame's pixels.
    private struct OpenedSource {
        let source: FrameSource
        let kind: SourceKind
        let region: Bounds?

        var isImages: Bool { kind == .image }
    }

    /// What opening gave: a source to scan, or the result of a scan that ends before it starts.
    private enum Opening {
        case opened(OpenedSource)
        case ended(SourceResult)
    }

    /// Opens `paths`, places `--roi` in its frame and, with the source open, the event log.
    private func open(_ paths: [String], interruption: SignalWatcher) -> Opening {
        let source: FrameSource
        let kind: SourceKind
        switch openSource(paths, interruption: interruption) {
        case let .success(opened):
            (source, kind) = opened
        case let .failure(error):
            Diagnostics.report(error)
            return .ended(.failed)
        case nil:
            return .ended(.stopped(ExitCode(signal: interruption.caughtSignal ?? SIGINT)))
        }
        var region: Bounds?
        if let roi = options.regionOfInterest {
            guard let inFrame = roi.bounds(frameWidth: source.info.width, frameHeight: source.info.height) else {
                source.close()
                let size = "\(source.info.width)x\(source.info.height)"
                let error = UsageError(message: "--roi lies outside the \(size) frame of \(source.info.name)")
                return .ended(.stopped(Diagnostics.usage(error)))
            }
            region = inFrame
        }
        if let serve = options.serve, liveView == nil {
            do {
                liveView = try LiveView(settings: serve, regionOfInterest: region) { [weak self] item in
                    self?.tap(on: item) ?? false
                }
            } catch {
                // A port in use or a host not this machine's: one line, exit 2 (no usage: the options were right).
                source.close()
                return .ended(.stopped(Diagnostics.fail(error, code: error is UsageError ? .usage : .inputError)))
            }
        }
        // Only now, with the source open: a source that fails to open leaves the previous log as it was.
        if eventLog == nil, options.eventsPath != nil || liveView != nil {
            do {
                var file: LineOutput?
                if let eventsPath = options.eventsPath {
                    file = try LineOutput(eventLogAt: eventsPath, replacingAnyFile: options.replacesAnyFile)
                }
                var copy: (@Sendable (String) -> Void)?
                if let liveView {
                    copy = { line in liveView.logLine(line) }
                }
                eventLog = EventLogWriter(output: file, escapesForTerminal: options.eventsPath == "-"
                    && Terminal.isInteractive, copy: copy)
            } catch {
                return .ended(.stopped(Diagnostics.fail(error, code: .inputError)))
            }
        }
        return .opened(OpenedSource(source: source, kind: kind, region: region))
    }

    /// A scan ready to start: its scanner, and the outputs that show it beside `presenters`.
    private struct ConfiguredScan {
        let scanner: DataScanner
        let listing: LiveListing?
        let annotated: AnnotatedOutput?
    }

    /// The scanner for `opened`, as the options ask, with this command as its delegate, and the presenters.
    private func configure(_ opened: OpenedSource) -> ConfiguredScan {
        let (source, region) = (opened.source, opened.region)
        // Guidance is shown by the listing only; elsewhere its locator and blur measure would be wasted.
        showsListing = wantsListing(isImages: opened.isImages)
        settlesText = !opened.isImages
        scannedSource = source
        reconnectionsReported = 0
        let scanner = DataScanner(recognizedDataTypes: options.recognizedDataTypes, qualityLevel: options.quality,
                                  recognizesMultipleItems: !options.singleItem, isGuidanceEnabled: showsListing)
        scanner.trackerConfiguration = options.tracker
        scanner.regionOfInterest = region
        scanTracker = scanner.trackerConfiguration(for: source)
        scanner.delegate = self
        let listing = showsListing
            ? LiveListing(scanner: scanner, source: source, opensURLs: options.opensURLs, regionOfInterest: region,
                          preview: options.preview)
            : nil
        presenters = makePresenters(listing: listing, source: source.info, kind: opened.kind)
        let annotated = options.annotatePath.map {
            AnnotatedOutput(path: $0, source: source.info, regionOfInterest: region)
        }
        if let annotated {
            presenters.append(annotated)
        }
        if let liveView, let serve = options.serve {
            presenters.append(liveView)
            liveView.start()
            if !options.quiet {
                Diagnostics.printError("Serving the live view at \(serve.url(port: liveView.port))")
            }
        }
        return ConfiguredScan(scanner: scanner, listing: listing, annotated: annotated)
    }

    /// After the scan: the listing's record of what it found, the annotated output closed, and every failure and
    /// damage reported; the scan's result.
    private func finish(_ scan: ConfiguredScan, source: FrameSource, outcome: ScanOutcome?) -> SourceResult {
        if let listing = scan.listing {
            // The listing's screen is gone: leave zbarimg's record of what was found behind.
            try? FindingLines(output: standardOutput, raw: options.raw, names: names(source.info))
                .print(listing.found, file: nil)
        }
        // Viewers get the log to its end line before the command exits.
        liveView?.close()
        do {
            try scan.annotated?.finish()
        } catch {
            recordOutputError(error, scanner: scan.scanner)
        }
        if case .outputClosed = outputError {
            // `livescan scan ... | head`: the reader has what it wanted; end quietly.
            return .stopped(itemsFound > 0 ? .found : .nothingFound)
        }
        if let outputError {
            return .stopped(Diagnostics.fail(outputError, code: .inputError))
        }
        // What the source skipped is damage to report, as an error that ends the scan is: each an `Error:` line,
        // exit 1. Frames skipped in a scan that then failed (a file cut short: its last frame is cut too) are in
        // the end line; the failure is the one line that says what happened.
        var damage = source.unreadableImages
        if let undecodable = outcome?.framesUndecodable, undecodable > 0, outcome?.error == nil {
            let frames = undecodable == 1 ? "1 frame did not decode and was skipped"
                : "\(undecodable) frames did not decode and were skipped"
            damage.append(.sourceDamaged(source: source.info.name, reason: frames + "; the rest was scanned"))
        }
        damage.forEach(Diagnostics.report)
        if let error = outcome?.error {
            Diagnostics.report(error)
            return .failed
        }
        return damage.isEmpty ? .ok : .failed
    }

    /// The listing takes the screen when stdout is a terminal and a video is scanned, unless line output
    /// was asked for.
    private func wantsListing(isImages: Bool) -> Bool {
        Terminal.canShowListing && !isImages && options.listingTurnedOffBy == nil
    }

    private func makePresenters(listing: LiveListing?, source: SourceInfo, kind: SourceKind) -> [ScanPresenter] {
        let isImages = kind == .image, isLive = kind == .camera || kind == .stream
        // A log on standard output owns it: nothing else is printed there.
        if options.eventsPath == "-" || options.quiet {
            return []
        }
        if let listing {
            return [listing]
        }
        // Live sources never end, so what matters is what changes, as zbarcam prints; files and images
        // get zbarimg's one line per item found, unless --changes asks for the events. A file is no live source
        // even when its container gives no frame count (a PDF of one JPEG page, which FFmpeg reads as MJPEG).
        let eventLines = options.changes || (isLive && !options.raw && !options.once)
        let writing = ValueWriting.forStandardOutput(raw: options.raw)
        let lines: ScanPresenter = eventLines
            ? ChangeLines(output: standardOutput, raw: options.raw, names: names(source), writing: writing)
            : FindingLines(output: standardOutput, raw: options.raw, names: names(source),
                           settlesText: settlesText && !options.once, writing: writing)
        // The progress line first: it erases itself before the lines are printed.
        return (!isImages && ProgressLine.isWanted ? [ProgressLine(source: source)] : []) + [lines]
    }

    /// `--names`: how lines name where they were found.
    private func names(_ source: SourceInfo) -> SourceNames? {
        options.names ? SourceNames(source: source.name) : nil
    }

    /// Opens `paths` on a thread of its own, so that a signal is not kept waiting by what cannot be interrupted:
    /// a stream that has not answered yet (up to `--timeout`), an image that takes seconds to decode. nil when a
    /// signal came first. Nothing is written before a source is open, so nothing is left half done when a
    /// signal ends the process while the opening is still stuck.
    private func openSource(_ paths: [String], interruption: SignalWatcher)
        -> Result<(FrameSource, SourceKind), Error>? {
        let opening = OpeningResult()
        let opened = DispatchSemaphore(value: 0)
        let opener = Thread { [self] in
            opening.result = Result {
                // Several are images (`ScanOptions.scans`): one scan of them all.
                paths.count == 1 ? try openSource(paths[0])
                    : (try ImageFilesSource(paths: paths, maxPixels: options.maxPixels), .image)
            }
            opened.signal()
        }
        opener.stackSize = 8 << 20
        opener.start()
        while opened.wait(timeout: .now() + 0.05) == .timedOut {
            guard let signal = interruption.caughtSignal else { continue }
            if opened.wait(timeout: .now() + 0.4) == .timedOut {
                // exit() would run the C++ libraries' static destructors under the thread still inside them.
                _exit(ExitCode(signal: signal).rawValue)
            }
            return nil
        }
        return opening.result
    }

    private func openSource(_ path: String) throws -> (FrameSource, SourceKind) {
        let policy = options.reconnect ? LiveFrameSource.ReconnectPolicy() : nil
        switch SourceKind.of(path) {
        case .stream:
            let (timeout, maxPixels) = (options.streamTimeout, options.maxPixels)
            let source = try LiveFrameSource(reconnect: policy) {
                try VideoSource(url: path, timeout: timeout, maxPixels: maxPixels)
            }
            return (source, .stream)
        case .camera:
            let (camera, size, fps) = (SourceKind.cameraIndex(path) ?? 0, options.cameraSize, options.cameraFPS)
            let source = try LiveFrameSource(reconnect: policy) {
                try VideoSource(cameraIndex: camera, width: size?.width, height: size?.height, fps: fps)
            }
            return (source, .camera)
        case .image where path == SourceKind.standardInput:
            guard isatty(STDIN_FILENO) != 1 else {
                throw ScanError.sourceUnavailable(source: path, reason: "standard input is a terminal; give it an "
                    + "image (livescan scan - < photo.png)")
            }
            let data = FileHandle.standardInput.readDataToEndOfFile()
            return (try ImageSource(encoded: data, name: path, maxPixels: options.maxPixels), .image)
        case .image:
            return (try ImageSource(path: path, maxPixels: options.maxPixels), .image)
        case .video:
            var video: FrameSource = try VideoSource(path: path, maxPixels: options.maxPixels)
            if options.every > 1 {
                video = try EveryNthFrameSource(video, interval: options.every)
            }
            if options.realtime {
                video = RealTimeFrameSource(video)
            }
            return (video, .video)
        }
    }

    private func interrupt() {
        lock.withLock { activeScanner }?.requestStop(.interrupted)
    }

    /// A viewer chose `item`: VisionKit's tap, on the running scan; false when none runs.
    private func tap(on item: RecognizedItem) -> Bool {
        lock.withLock { activeScanner }?.tap(on: item) ?? false
    }

    /// An output failed: the scan stops, `stopped` when a reader went away (it had what it wanted), `error`
    /// otherwise, and the command reports it.
    func recordOutputError(_ error: Error, scanner: DataScanner) {
        let failure = error as? ScanError ?? .outputFailed(path: "output", reason: "\(error)")
        if outputError == nil {
            outputError = failure
        }
        if case .outputClosed = failure {
            scanner.requestStop(.stopped)
        } else {
            scanner.requestStop(.error, error: failure)
        }
    }
}

/// What the opening thread produced, read by the waiting one after the semaphore.
private final class OpeningResult: @unchecked Sendable {
    var result: Result<(FrameSource, SourceKind), Error>?
}
