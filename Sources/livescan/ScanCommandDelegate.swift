import Foundation
import LiveScan

/// The command as the scanner's delegate, called on its worker thread: the start line, the changes printed and
/// logged, each frame handed to the presenters, reconnections said, guidance and the end. It shares the command's
/// state (`ScanCommand.swift`, what is not private there).
extension ScanCommand {

    func dataScanner(_ dataScanner: DataScanner, didStartWith source: SourceInfo) {
        pictureSize = (source.width, source.height)
        do {
            let config = options.eventLogConfig(tracker: scanTracker,
                                                region: dataScanner.regionOfInterest)
            try eventLog?.start(source: source, config: config)
        } catch {
            recordOutputError(error, scanner: dataScanner)
        }
    }

    func dataScanner(_ dataScanner: DataScanner, didChange changes: ScanChanges) {
        // Counted first: what was found stays found even if the output below has gone (`| head`).
        itemsFound += changes.added.count
        summary.count(changes)
        do {
            try eventLog?.write(changes)
            var shown = changes
            if options.once {
                // zbarcam --oneshot: the first item found, as line output would print it (a text line once it
                // has settled, not its first piece), then stop.
                let first = printedOnce ? nil : FindingLines.settled(changes, settlesText: settlesText).first
                shown.added = first.map { [$0] } ?? []
                shown.updated = []
                shown.removed = []
                if first != nil {
                    printedOnce = true
                    dataScanner.requestStop()
                }
            }
            for presenter in presenters {
                try presenter.changed(shown)
            }
        } catch {
            recordOutputError(error, scanner: dataScanner)
        }
    }

    func dataScanner(_ dataScanner: DataScanner, didProcess frame: Frame, allItems: [RecognizedItem]) {
        do {
            lastFrame = (frame.index, frame.time, frame.file)
            if pictureSize.width != frame.width || pictureSize.height != frame.height {
                // A stream changed resolution: bounds from here on are in the new size's pixels.
                pictureSize = (frame.width, frame.height)
                try eventLog?.resized(frameIndex: frame.index, time: frame.time, width: frame.width,
                                      height: frame.height)
            }
            try reportReconnections(upTo: frame)
            for presenter in presenters {
                try presenter.processed(frame, items: allItems)
            }
        } catch {
            recordOutputError(error, scanner: dataScanner)
        }
    }

    /// `--reconnect`: each reopening of the source whose first frame is `frame` or earlier, once: a line in the
    /// event log and, unless `-q` or the listing has the terminal, a note on stderr.
    func reportReconnections(upTo frame: Frame) throws {
        guard let reconnections = scannedSource?.reconnections, reconnectionsReported < reconnections.count else {
            return
        }
        for reconnection in reconnections[reconnectionsReported...] where reconnection.firstFrameIndex <= frame.index {
            reconnectionsReported += 1
            try eventLog?.reconnected(frameIndex: frame.index, time: frame.time, outage: reconnection.outage,
                                      reason: reconnection.reason)
            if !options.quiet && !showsListing {
                let name = TerminalSafeText.escape(scannedSource?.info.name ?? "")
                let outage = String(format: "%.1f", reconnection.outage)
                // On a terminal the progress line may stand where this goes: erase it first; it is drawn again.
                let erase = ProgressLine.isWanted ? "\r\u{1B}[K" : ""
                Diagnostics.printError(erase + "Note: \(name): reconnected after \(outage) s without frames ("
                    + TerminalSafeText.escape(reconnection.reason) + ")")
            }
        }
    }

    /// A viewer's choice (the listing's Enter, a click in the live view): logged after the frame it was made in.
    func dataScanner(_ dataScanner: DataScanner, didTapOn item: RecognizedItem) {
        do {
            try eventLog?.tapped(item, frameIndex: lastFrame.index, time: lastFrame.time, file: lastFrame.file)
        } catch {
            recordOutputError(error, scanner: dataScanner)
        }
    }

    func dataScanner(_ dataScanner: DataScanner, didChangeGuidance guidance: ScanGuidance?) {
        presenters.forEach { $0.guidanceChanged(guidance) }
    }

    func dataScanner(_ dataScanner: DataScanner, didFinish outcome: ScanOutcome) {
        presenters.forEach { $0.finished(outcome) }
        do {
            try eventLog?.finish(outcome)
        } catch {
            recordOutputError(error, scanner: dataScanner)
        }
    }
}
