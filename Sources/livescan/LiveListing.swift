import Foundation
import LiveScan

/// The full-screen listing shown while scanning when stdout is a terminal: redrawn in place (only
/// the lines that changed), resized on SIGWINCH, driven by keys: arrows select, Enter acts on the
/// selected item, `s` saves a snapshot, `p` pauses, `q` quits. With `--preview`, the picture above it
/// (`TerminalPreview`), made and drawn off the scan's thread.
final class LiveListing: ScanPresenter, @unchecked Sendable {
    private let terminal = Terminal()
    private let scanner: DataScanner
    private let source: FrameSource
    private let opensURLs: Bool
    private let color = ProcessInfo.processInfo.environment["NO_COLOR"].map(\.isEmpty) ?? true
    private let previewColors = PreviewColorMode(environment: ProcessInfo.processInfo.environment)
    /// Keeps `state` and what else the threads share; held only to read or change them.
    private let lock = NSLock()
    /// Keeps the terminal and what it shows (`drawn`, `drawnTop`, `drawnPreview`, `lastDraw`): held while a screen is
    /// worked out and written. Taken before `lock` when both are, never after.
    private let outputLock = NSLock()
    private var state: ListingState
    private var drawn: [String] = []
    private var drawnTop = 0
    /// `--preview`: the picture the screen shows (`PreviewPicture.identity`), where, and its cells as shown (nil: not
    /// known, all to be drawn).
    private var drawnPreview: (picture: [Int]?, area: PreviewArea, grid: PreviewGrid)?
    private var lastDraw = Date.distantPast
    private var lastPreview = Date.distantPast
    /// `--preview`'s pictures are made and drawn on a thread of their own (`drawPreviews`), one at a time
    /// (`previewPending`), woken by this.
    private let previewWanted = DispatchSemaphore(value: 0)
    private var previewPending = false
    private var started = Date()
    private var latestFrame: Frame?
    private var keyReader: Thread?
    private var resizeSource: DispatchSourceSignal?
    private var suspendSource: DispatchSourceSignal?
    private var continueSource: DispatchSourceSignal?
    private var running = true
    /// Items added while the listing was up, with their latest values, printed zbarimg-style once the screen is
    /// restored.
    private(set) var found: [RecognizedItem] = []

    /// `preview`: `--preview`, the picture drawn above the listing.
    init(scanner: DataScanner, source: FrameSource, opensURLs: Bool, regionOfInterest: Bounds?, preview: Bool = false) {
        self.scanner = scanner
        self.source = source
        self.opensURLs = opensURLs
        state = ListingState(source: source.info)
        state.regionOfInterest = regionOfInterest
        state.showsPreview = preview
    }

    func start() {
        if state.showsPreview {
            let thread = Thread { [self] in drawPreviews() }
            thread.name = "LiveScan.preview"
            thread.start()
        }
        terminal.enter()
        signal(SIGWINCH, SIG_IGN)
        let resize = DispatchSource.makeSignalSource(signal: SIGWINCH, queue: .global())
        resize.setEventHandler { [weak self] in
            // The picture at its new size, from the frame already there (the scan may be paused), drawn with the rest.
            self?.refreshPreview(draws: false)
            self?.redraw(force: true)
        }
        resize.resume()
        resizeSource = resize
        signal(SIGTSTP, SIG_IGN)
        let suspend = DispatchSource.makeSignalSource(signal: SIGTSTP, queue: .global())
        suspend.setEventHandler { [weak self] in self?.suspend() }
        suspend.resume()
        suspendSource = suspend
        // SIGCONT continues the process whatever its disposition; the source hears of it afterwards.
        signal(SIGCONT, SIG_IGN)
        let proceed = DispatchSource.makeSignalSource(signal: SIGCONT, queue: .global())
        proceed.setEventHandler { [weak self] in self?.proceed() }
        proceed.resume()
        continueSource = proceed
        if isatty(STDIN_FILENO) == 1 {
            let reader = Thread { [weak self] in self?.readKeys() }
            reader.name = "LiveScan.keys"
            reader.start()
            keyReader = reader
        }
        redraw(force: true)
    }

    func changed(_ changes: ScanChanges) throws {
        lock.withLock {
            for item in changes.added {
                state.addedAt[item.id] = changes.time
                found.append(item)
            }
            for item in changes.updated + changes.removed {
                if let index = found.firstIndex(where: { $0.id == item.id }) {
                    found[index] = item
                }
            }
            for item in changes.removed {
                state.addedAt[item.id] = nil
            }
            state.items = changes.allItems
            if let selected = state.selected, !state.items.contains(where: { $0.id == selected }) {
                state.selected = state.items.first?.id
            } else if state.selected == nil {
                state.selected = state.items.first?.id
            }
        }
    }

    func processed(_ frame: Frame, items: [RecognizedItem]) throws {
        lock.withLock {
            latestFrame = frame
            state.framesProcessed += 1
            state.framesDropped = source.droppedFrames
            state.currentTime = frame.time
            state.items = items
            state.processingRate = Double(state.framesProcessed) / max(Date().timeIntervalSince(started), 0.001)
        }
        schedulePreview()
        redraw(force: false)
    }

    /// `--preview`: a picture of the newest frame, at most 10 times a second (more than a person follows), made and
    /// drawn by `drawPreviews` so that the scan's thread never waits for the downscale or the drawing; one at a
    /// time, the frames that come meanwhile passed over.
    private func schedulePreview() {
        let now = Date()
        let due: Bool = lock.withLock {
            guard state.showsPreview, running, !previewPending, now.timeIntervalSince(lastPreview) >= 0.1 else {
                return false
            }
            previewPending = true
            lastPreview = now
            return true
        }
        guard due else { return }
        previewWanted.signal()
    }

    /// Makes `--preview`'s picture: the latest frame downscaled in CBridge to the size the terminal gives it now,
    /// with the items at that frame; and with `draws`, puts it on the screen at once (the cells that changed).
    private func refreshPreview(draws: Bool) {
        let latest: (frame: Frame, items: [RecognizedItem])? = lock.withLock {
            guard state.showsPreview, running, let frame = latestFrame else { return nil }
            return (frame, state.items)
        }
        guard let latest else { return }
        let size = Terminal.size
        guard case let .shown(columns, rows) = TerminalPreview.layout(
            terminalWidth: size.width, terminalHeight: size.height, frameWidth: latest.frame.width,
            frameHeight: latest.frame.height, color: color) else { return }
        do {
            let rgb = try latest.frame.bridgeImage().resizedRGBPixels(width: columns, height: 2 * rows)
            let picture = PreviewPicture(width: columns, height: 2 * rows, rgb: rgb, frameIndex: latest.frame.index,
                                         frameWidth: latest.frame.width, frameHeight: latest.frame.height,
                                         items: latest.items)
            guard draws else {
                lock.withLock { state.preview = picture }
                return
            }
            // Stored only with the terminal held, so that the picture is drawn here, not by the scan's thread.
            outputLock.lock()
            defer { outputLock.unlock() }
            guard let shown = lock.withLock({ () -> ListingState? in
                state.preview = picture
                return running ? state : nil
            }) else { return }
            let area = ListingRenderer.previewArea(shown, width: size.width, height: size.height, color: color)
            terminal.write(previewUpdate(shown, area: area, force: false))
        } catch {
            lock.withLock { state.message = "preview failed: \(error)" }
        }
    }

    func guidanceChanged(_ guidance: ScanGuidance?) {
        lock.withLock { state.guidance = guidance?.message }
        redraw(force: false)
    }

    /// `--preview`'s thread: each picture asked for, made and drawn, until the listing ends. It runs at the lowest
    /// priority (nice 19; Linux sets it per thread): the picture is a view, and on a busy machine its few
    /// milliseconds each tenth of a second made a live source drop a frame each time (6.4 % of a 720p30 stream's
    /// frames, against 1 % without the preview, at normal priority).
    private func drawPreviews() {
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), id_t(threadID()), 19)
        while true {
            previewWanted.wait()
            guard lock.withLock({ running }) else { return }
            refreshPreview(draws: true)
            lock.withLock { previewPending = false }
        }
    }

    func finished(_ outcome: ScanOutcome) {
        // With the terminal held: a screen being written is finished first, and none is written after.
        outputLock.withLock { lock.withLock { running = false } }
        previewWanted.signal()  // the preview's thread ends
        resizeSource?.cancel()
        suspendSource?.cancel()
        continueSource?.cancel()
        terminal.restore()
    }

    /// Ctrl-Z, as `top` and `less` take it: the terminal is given back (main screen, cursor, line editing)
    /// before the process stops, and taken again and redrawn when the shell continues it (`proceed`). SIGSTOP
    /// stops it: it cannot be blocked on the thread that sends it, as SIGTSTP can, nor caught. It may take
    /// effect only after `kill` has returned, so taking the terminal again waits for SIGCONT, not for `kill`.
    private func suspend() {
        outputLock.withLock { terminal.restore() }
        kill(getpid(), SIGSTOP)
    }

    /// Continued (fg, or SIGCONT): the listing takes the terminal again, if it still runs and had given it back.
    private func proceed() {
        guard lock.withLock({ running }) else { return }
        outputLock.withLock { terminal.enter() }
        redraw(force: true)
    }

    // MARK: - Drawing

    private func redraw(force: Bool) {
        // The scan's thread redraws after every frame: it does not wait while a picture is written (`refreshPreview`,
        // perhaps to a terminal at the end of a slow link), and leaves the redraw to a later frame. A key, a resize or
        // a continue waits.
        if force {
            outputLock.lock()
        } else if !outputLock.try() {
            return
        }
        defer { outputLock.unlock() }
        guard let state = lock.withLock({ running ? state : nil }) else { return }
        let now = Date()
        // A file decodes faster than a person reads: 15 redraws a second are plenty.
        guard force || now.timeIntervalSince(lastDraw) >= 1.0 / 15 else { return }
        lastDraw = now
        let size = Terminal.size
        let screen = ListingRenderer.screen(state, width: size.width, height: size.height, color: color)
        var output = previewUpdate(state, area: screen.preview, force: force)
        let lines = screen.lines
        if force || drawn.count != lines.count || drawnTop != screen.listingTop {
            drawn = Array(repeating: "\u{0}", count: lines.count)
        }
        for (row, line) in lines.enumerated() where drawn[row] != line {
            output += "\u{1B}[\(screen.listingTop + row + 1);1H" + line + "\u{1B}[K"
        }
        drawn = lines
        drawnTop = screen.listingTop
        terminal.write(output)
    }

    /// What brings `--preview`'s picture on the screen up to date, for `state` and `outputLock` held: nothing when
    /// neither the picture nor its place changed (the listing's redraws, after `refreshPreview` drew it), else the
    /// cells that changed (all of them after `force`).
    private func previewUpdate(_ state: ListingState, area: PreviewArea?, force: Bool) -> String {
        guard let area else {
            drawnPreview = nil
            return ""
        }
        let picture = state.preview
        if !force, let drawnPreview, drawnPreview.area == area, drawnPreview.picture == picture?.identity {
            return ""
        }
        let grid = TerminalPreview.grid(picture, regionOfInterest: state.regionOfInterest, columns: area.columns,
                                        rows: area.rows)
        let known = force || drawnPreview?.area != area ? nil : drawnPreview?.grid
        let update = grid.updates(from: known, mode: previewColors, top: 0, left: area.left)
        drawnPreview = (picture?.identity, area, update.shown)
        return update.output
    }

    // MARK: - Keys

    private func readKeys() {
        while lock.withLock({ running }) {
            terminal.readKeys(timeout: 0.2).forEach(handle)
        }
    }

    func handle(_ key: Terminal.Key) {
        switch key {
        case .up, .down, .pageUp, .pageDown, .home, .end:
            lock.withLock {
                let size = Terminal.size
                let height = ListingRenderer.listingHeight(state, width: size.width, height: size.height, color: color)
                let page = ListingRenderer.itemRows(height: height, items: state.items.count)
                state.selected = ListingState.selection(after: key, in: state.items.map(\.id), selected: state.selected,
                                                        page: page)
            }
        case .enter:
            act()
        case .character("p"):
            scanner.isPaused.toggle()
            lock.withLock {
                state.isPaused = scanner.isPaused
                state.message = state.isPaused ? "paused" : "resumed"
            }
        case .character("q"):
            scanner.requestStop()
            scanner.isPaused = false
        case .character("s"):
            snapshot()
        default:
            return
        }
        redraw(force: true)
    }

    /// Enter: the value goes to the clipboard via OSC 52, whole (the footer shows it cut to the width); a URL is
    /// opened too with `--open`.
    private func act() {
        guard let item = lock.withLock({ state.items.first { $0.id == state.selected } }) else { return }
        scanner.tap(on: item)
        let value = item.value
        // OSC 52 asks the terminal to set its clipboard; the value travels base64-encoded, so nothing in it can
        // act on the terminal.
        let clipboard = "\u{1B}]52;c;\(Data(value.utf8).base64EncodedString())\u{07}"
        outputLock.withLock { terminal.write(clipboard) }
        var message = "copied to the clipboard (OSC 52): \(value)"
        if let url = URL(string: value), ["http", "https"].contains(url.scheme?.lowercased() ?? ""), opensURLs {
            message = "URL copied" + (open(value) ? " and opened: " : " (xdg-open not available): ") + value
        }
        lock.withLock { state.message = message }
    }

    private func open(_ url: String) -> Bool {
        guard let opener = ["/usr/bin/xdg-open", "/usr/local/bin/xdg-open"].first(where: {
            FileManager.default.isExecutableFile(atPath: $0)
        }) else { return false }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: opener)
        process.arguments = [url]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        return (try? process.run()) != nil
    }

    private func snapshot() {
        let (frame, items, region) = lock.withLock { (latestFrame, state.items, state.regionOfInterest) }
        guard let frame else { return }
        let path = "livescan-snapshot-\(frame.index).png"
        let message: String
        do {
            try Annotator.snapshot(frame: frame, items: items, regionOfInterest: region, to: path)
            message = "saved \(path)"
        } catch {
            message = "snapshot failed: \(error)"
        }
        lock.withLock { state.message = message }
    }
}

/// glibc's gettid(2) (glibc 2.30 and later), which Swift's Glibc module does not import: the calling thread's id,
/// which setpriority takes to set one thread's nice value on Linux.
@_silgen_name("gettid") private func threadID() -> Int32
