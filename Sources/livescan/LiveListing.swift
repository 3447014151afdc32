import Foundation
import LiveScan

/// The full-screen listing shown while scanning when stdout is a terminal: redrawn in place (only
/// the lines that changed), resized on SIGWINCH, driven by keys: arrows select, Enter acts on the
/// selected item, `s` saves a snapshot, `p` pauses, `q` quits.
final class LiveListing: ScanPresenter, @unchecked Sendable {
    private let terminal = Terminal()
    private let scanner: DataScanner
    private let source: FrameSource
    private let opensURLs: Bool
    private let color = ProcessInfo.processInfo.environment["NO_COLOR"].map(\.isEmpty) ?? true
    private let lock = NSLock()
    private var state: ListingState
    private var drawn: [String] = []
    private var lastDraw = Date.distantPast
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

    init(scanner: DataScanner, source: FrameSource, opensURLs: Bool, regionOfInterest: Bounds?) {
        self.scanner = scanner
        self.source = source
        self.opensURLs = opensURLs
        state = ListingState(source: source.info)
        state.regionOfInterest = regionOfInterest
    }

    func start() {
        terminal.enter()
        signal(SIGWINCH, SIG_IGN)
        let resize = DispatchSource.makeSignalSource(signal: SIGWINCH, queue: .global())
        resize.setEventHandler { [weak self] in self?.redraw(force: true) }
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
        redraw(force: false)
    }

    func guidanceChanged(_ guidance: ScanGuidance?) {
        lock.withLock { state.guidance = guidance?.message }
        redraw(force: false)
    }

    func finished(_ outcome: ScanOutcome) {
        lock.withLock { running = false }
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
        terminal.restore()
        kill(getpid(), SIGSTOP)
    }

    /// Continued (fg, or SIGCONT): the listing takes the terminal again, if it still runs and had given it back.
    private func proceed() {
        guard lock.withLock({ running }) else { return }
        terminal.enter()
        redraw(force: true)
    }

    // MARK: - Drawing

    private func redraw(force: Bool) {
        lock.lock()
        defer { lock.unlock() }
        guard running else { return }
        let now = Date()
        // A file decodes faster than a person reads: 15 redraws a second are plenty.
        guard force || now.timeIntervalSince(lastDraw) >= 1.0 / 15 else { return }
        lastDraw = now
        let size = Terminal.size
        let lines = ListingRenderer.render(state, width: size.width, height: size.height, color: color)
        if force || drawn.count != lines.count {
            drawn = Array(repeating: "\u{0}", count: lines.count)
        }
        var output = ""
        for (row, line) in lines.enumerated() where drawn[row] != line {
            output += "\u{1B}[\(row + 1);1H" + line + "\u{1B}[K"
        }
        drawn = lines
        terminal.write(output)
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
                let page = ListingRenderer.itemRows(height: Terminal.size.height, items: state.items.count)
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
        terminal.write("\u{1B}]52;c;\(Data(value.utf8).base64EncodedString())\u{07}")
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
