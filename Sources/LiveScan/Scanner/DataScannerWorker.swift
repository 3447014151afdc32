import Foundation

/// A scan's worker thread: its loop over the source's frames (`run`), and how it tracks, delivers changes and
/// taps, waits while paused and ends its items. `DataScanner` is the API an app holds; this is what one scan does.
extension DataScanner {
    /// The worker's loop: take a frame, recognise it, guide, track, deliver; until the source ends, a stop is
    /// asked for or something fails. How frames are read was decided once, by the `ScanPlan`.
    func run(_ source: FrameSource, engines: ScanEngines, tracker: inout Tracker) -> ScanOutcome {
        let plan = ScanPlan(source: source, engines: engines, qualityLevel: qualityLevel,
                            isHighFrameRateTrackingEnabled: isHighFrameRateTrackingEnabled,
                            sameItem: SameItem(configuration: tracker.configuration))
        lock.withLock { currentSource = source }
        defer {
            source.close()
            lock.withLock { currentSource = nil }
        }
        notify { $1.dataScanner($0, didStartWith: source.info) }
        var outcome = ScanOutcome(reason: .endOfSource)
        var selection = SingleItemSelection()
        var recognizer = FrameRecognizer(plan: plan, textContentTypes: textContentTypes)
        var guide = Guide(locator: engines.qrLocator)
        var clarity = ViewClarity()
        let feed = FrameFeed(source: source, plan: plan)
        while true {
            if let stop = waitWhilePaused() {
                (outcome.reason, outcome.error) = stop
                break
            }
            do {
                guard let (frame, decodedBarcodes) = try feed.next() else {
                    // A live source returns nil only when closed by requestStop.
                    if let stop = lock.withLock({ stopRequested ? (stopReason, stopError) : nil }) {
                        (outcome.reason, outcome.error) = stop
                    }
                    break
                }
                try recognizeAndTrack(frame, decodedBarcodes: decodedBarcodes,
                                      holdsStillImages: source.holdsStillImages, recognizer: &recognizer,
                                      tracker: &tracker, selection: &selection, guide: &guide, clarity: &clarity)
                outcome.lastFrameIndex = frame.index
                outcome.lastTime = frame.time
                outcome.framesProcessed += 1
            } catch {
                let failure = error as? ScanError ?? .engineFailure(String(describing: error))
                outcome.reason = .error
                outcome.error = failure
                notify { $1.dataScanner($0, becameUnavailableWithError: failure) }
                break
            }
        }
        feed.stop()  // before the source is asked anything more: its reader thread is done after this
        recognizer.stop()
        return finish(source, outcome: outcome, tracker: &tracker, selection: &selection)
    }

    /// One frame: the taps made while it was awaited, then its observations recognised in the region of interest,
    /// tracked (a video's frame blurred past reading taking no grace period off its items: `ViewClarity`) and
    /// delivered; a still image's items ended with it.
    private func recognizeAndTrack(_ frame: Frame, decodedBarcodes: [Observation]?, holdsStillImages: Bool,
                                   recognizer: inout FrameRecognizer, tracker: inout Tracker,
                                   selection: inout SingleItemSelection, guide: inout Guide,
                                   clarity: inout ViewClarity) throws {
        // Taps made while the frame was awaited come before its calls.
        deliverTaps()
        // Read once a frame: the app may change it meanwhile, and one frame is filtered and selected by one
        // region.
        let region = regionOfInterest
        // Judged once a frame, for the text reading (the learned detector looks again as the view clears) and the
        // tracker. A frame whose detail cannot be measured is taken as clear: items age as they always did.
        let viewObscured = !holdsStillImages && ((try? clarity.isObscured(frame)) ?? false)
        let observations = try recognizer.observations(in: frame, decodedBarcodes: decodedBarcodes,
                                                       regionOfInterest: region, viewObscured: viewObscured)
        let items = track(observations, in: frame, region: region, viewObscured: viewObscured, tracker: &tracker,
                          selection: &selection, guide: &guide)
        notify { $1.dataScanner($0, didProcess: frame, allItems: items) }
        if holdsStillImages {
            // The next image is another picture, of another thing: nothing in this one is in it, however
            // alike two labels of one template look (a line where this image had one is another line).
            endItems(tracker: &tracker, selection: &selection, frameIndex: frame.index, time: frame.time,
                     file: frame.file)
        }
    }

    /// The scan's end: what the source dropped and could not decode, the last taps, every item removed, and the
    /// delegate told.
    private func finish(_ source: FrameSource, outcome: ScanOutcome, tracker: inout Tracker,
                        selection: inout SingleItemSelection) -> ScanOutcome {
        var outcome = outcome
        outcome.framesDropped = source.droppedFrames
        outcome.framesUndecodable = source.undecodableFrames
        deliverTaps(last: true)
        endItems(tracker: &tracker, selection: &selection, frameIndex: max(outcome.lastFrameIndex, 0),
                 time: outcome.lastTime, file: nil)
        let finalOutcome = outcome
        notify { $1.dataScanner($0, didFinish: finalOutcome) }
        return outcome
    }

    /// Removes every item (those shown, with `--single` the selected one) in the frame with index `frameIndex`:
    /// the scan ended, or the still image that held them did.
    func endItems(tracker: inout Tracker, selection: inout SingleItemSelection, frameIndex: Int,
                          time: Double, file: String?) {
        var ended = tracker.removeAll()
        if !recognizesMultipleItems {
            ended.removed = ended.removed.filter { $0.id == selection.selected }
            selection = SingleItemSelection()
        }
        deliver(ended, items: [], frameIndex: frameIndex, time: time, file: file)
    }

    /// Blocks while the scan is paused, delivering the taps made before and meanwhile; the reason and error of a
    /// stop asked for, or nil to go on.
    func waitWhilePaused() -> (ScanOutcome.Reason, ScanError?)? {
        lock.lock()
        defer { lock.unlock() }
        while true {
            if stopRequested {
                return (stopReason, stopError)
            }
            if !pendingTaps.isEmpty {
                // The delegate is called without the lock, which its calls may need (`isPaused`, `tap(on:)`).
                lock.unlock()
                deliverTaps()
                lock.lock()
                continue
            }
            if !paused {
                return nil
            }
            lock.wait()
        }
    }

    /// Hands the taps made so far to the delegate, on the worker, in the order they came. With `last`, taps are
    /// refused from then on (`tap(on:)` returns false), so none is left undelivered when the scan ends.
    func deliverTaps(last: Bool = false) {
        let taps = lock.withLock {
            if last {
                acceptsTaps = false
            }
            defer { pendingTaps = [] }
            return pendingTaps
        }
        for item in taps {
            notify { $1.dataScanner($0, didTapOn: item) }
        }
    }

    /// One frame's observations through guidance, the tracker and the single-item selection (nearest the centre of
    /// `region`, the region of interest as the frame was recognised, else of the frame), its changes delivered;
    /// returns the items then current. `viewObscured`: the frame shows its view blurred past reading (`ViewClarity`).
    func track(_ observations: [Observation], in frame: Frame, region: Bounds?, viewObscured: Bool,
               tracker: inout Tracker, selection: inout SingleItemSelection, guide: inout Guide) -> [RecognizedItem] {
        // Codes a detector located but could not read are hints for guidance, never items.
        let readable = observations.filter(\.isReadable)
        if isGuidanceEnabled,
           let hint = guide.update(frame: frame, decoded: readable, located: observations.filter { !$0.isReadable }) {
            notify { $1.dataScanner($0, didChangeGuidance: hint.guidance) }
        }
        var changes = tracker.update(readable, frame: frame.index, time: frame.time, viewObscured: viewObscured)
        var items = tracker.items
        if !recognizesMultipleItems {
            let center = region?.center ?? Point(x: Double(frame.width) / 2, y: Double(frame.height) / 2)
            (changes, items) = selection.narrow(changes, allItems: items, center: center)
        }
        deliver(changes, items: items, frameIndex: frame.index, time: frame.time, file: frame.file)
        return items
    }

    func deliver(_ changes: TrackerChanges, items: [RecognizedItem], frameIndex: Int, time: Double,
                 file: String?) {
        guard !changes.isEmpty else { return }
        let scanChanges = ScanChanges(frameIndex: frameIndex, time: time, added: changes.added,
                                      updated: changes.updated, removed: changes.removed, allItems: items, file: file)
        notify { scanner, delegate in
            delegate.dataScanner(scanner, didChange: scanChanges)
            if !changes.removed.isEmpty {
                delegate.dataScanner(scanner, didRemove: changes.removed, allItems: items)
            }
            if !changes.added.isEmpty {
                delegate.dataScanner(scanner, didAdd: changes.added, allItems: items)
            }
            if !changes.updated.isEmpty {
                delegate.dataScanner(scanner, didUpdate: changes.updated, allItems: items)
            }
        }
        itemsContinuation.yield(items)
    }

    /// Calls the delegate, if there is one: on the worker, in order, or, with a `delegateQueue`, queued on it in
    /// the same order (the delegate taken as it is now, held until the call).
    func notify(_ call: @escaping @Sendable (DataScanner, any DataScannerDelegate) -> Void) {
        guard let delegate else { return }
        guard let queue = delegateQueue else { return call(self, delegate) }
        queue.async { call(self, delegate) }
    }
}
