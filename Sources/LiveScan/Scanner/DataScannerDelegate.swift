/// Receives what a `DataScanner` recognizes, as VisionKit's `DataScannerViewControllerDelegate`.
/// Every call comes on the scanner's own worker thread, in frame order, never on the thread that set the
/// delegate: hence `Sendable`, so the compiler checks that what the delegate holds may be touched from there
/// (VisionKit's calls come on the main actor, which Linux apps without a run loop do not have). Hand work to
/// another thread or actor from inside a call as the app needs. All methods have empty defaults.
public protocol DataScannerDelegate: AnyObject, Sendable {
    /// Items that appeared; `allItems` is every current item in reading order.
    func dataScanner(_ dataScanner: DataScanner, didAdd addedItems: [RecognizedItem], allItems: [RecognizedItem])
    /// Items that moved beyond the update distance or whose value changed.
    func dataScanner(_ dataScanner: DataScanner, didUpdate updatedItems: [RecognizedItem], allItems: [RecognizedItem])
    /// Items that left (unseen for longer than the grace period, or removed by `stopScanning`).
    func dataScanner(_ dataScanner: DataScanner, didRemove removedItems: [RecognizedItem], allItems: [RecognizedItem])
    /// The user chose an item (the terminal listing's Enter key; `DataScanner.tap(on:)`, whichever thread called it):
    /// between frames, before the calls of the next frame the scanner takes.
    func dataScanner(_ dataScanner: DataScanner, didTapOn item: RecognizedItem)
    /// The source failed (a camera unplugged, a stream cut, a file corrupt half-way); scanning has stopped.
    func dataScanner(_ dataScanner: DataScanner, becameUnavailableWithError error: ScanError)

    /// LiveScan's own, for logs: scanning began on a source (before the first frame).
    func dataScanner(_ dataScanner: DataScanner, didStartWith source: SourceInfo)
    /// LiveScan's own, for logs: one frame's changes with the frame that decided them. Called before the
    /// didAdd/didUpdate/didRemove calls of that frame, only when something changed.
    func dataScanner(_ dataScanner: DataScanner, didChange changes: ScanChanges)
    /// LiveScan's own, for outputs that draw or show every frame (annotated video, the live listing):
    /// called once per processed frame, after that frame's change calls, with the items then current.
    func dataScanner(_ dataScanner: DataScanner, didProcess frame: Frame, allItems: [RecognizedItem])
    /// The hint for the user changed (nil: none needed). Only with `isGuidanceEnabled`.
    func dataScanner(_ dataScanner: DataScanner, didChangeGuidance guidance: ScanGuidance?)
    /// LiveScan's own, for logs: scanning ended; every item has had its didRemove.
    func dataScanner(_ dataScanner: DataScanner, didFinish outcome: ScanOutcome)
}

extension DataScannerDelegate {
    public func dataScanner(_ dataScanner: DataScanner, didAdd addedItems: [RecognizedItem],
                            allItems: [RecognizedItem]) {}
    public func dataScanner(_ dataScanner: DataScanner, didUpdate updatedItems: [RecognizedItem],
                            allItems: [RecognizedItem]) {}
    public func dataScanner(_ dataScanner: DataScanner, didRemove removedItems: [RecognizedItem],
                            allItems: [RecognizedItem]) {}
    public func dataScanner(_ dataScanner: DataScanner, didTapOn item: RecognizedItem) {}
    public func dataScanner(_ dataScanner: DataScanner, becameUnavailableWithError error: ScanError) {}
    public func dataScanner(_ dataScanner: DataScanner, didStartWith source: SourceInfo) {}
    public func dataScanner(_ dataScanner: DataScanner, didChange changes: ScanChanges) {}
    public func dataScanner(_ dataScanner: DataScanner, didProcess frame: Frame, allItems: [RecognizedItem]) {}
    public func dataScanner(_ dataScanner: DataScanner, didChangeGuidance guidance: ScanGuidance?) {}
    public func dataScanner(_ dataScanner: DataScanner, didFinish outcome: ScanOutcome) {}
}
