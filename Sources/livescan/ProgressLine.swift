import Foundation
import LiveScan

/// A one-line progress report on stderr while a file is scanned without the listing: percent, fps,
/// ETA. Shown only when stderr is a terminal, redrawn at most 4 times a second, erased at the end. It must
/// be told of changes before the presenters that print them: it erases itself first, so that a line printed
/// on standard output, the same terminal as a rule, starts on a clean line, and is redrawn with the next
/// frame.
final class ProgressLine: ScanPresenter {
    private let total: Int?
    private let start = Date()
    private var lastDrawn = Date.distantPast
    private var shown = false
    private var erased = false

    init(source: SourceInfo) {
        total = source.frameCount
    }

    static var isWanted: Bool { Terminal.isStandardErrorInteractive }

    func changed(_ changes: ScanChanges) throws {
        let printsSomething = !(changes.added.isEmpty && changes.updated.isEmpty && changes.removed.isEmpty)
        if shown && !erased && printsSomething {
            FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
            erased = true
        }
    }

    func processed(_ frame: Frame, items: [RecognizedItem]) throws {
        let now = Date()
        guard erased || now.timeIntervalSince(lastDrawn) >= 0.25 else { return }
        lastDrawn = now
        let done = frame.index + 1
        let elapsed = max(now.timeIntervalSince(start), 0.001)
        let fps = Double(done) / elapsed
        var line = "\(done) frames, \(String(format: "%.1f", fps)) fps, \(items.count) items"
        if let progress = Self.progress(done: done, total: total, fps: fps) {
            line = "\(progress.percent)% " + line + ", ETA \(progress.secondsLeft) s"
        }
        draw(line)
    }

    /// How far a file's scan is: `done` of its `total` frames, and the seconds left at `fps` frames a second; nil
    /// when its length is not known (a camera, a stream, a container that does not say).
    static func progress(done: Int, total: Int?, fps: Double) -> (percent: Int, secondsLeft: Int)? {
        guard let total, total > 0 else { return nil }
        let remaining = fps > 0 ? Double(max(total - done, 0)) / fps : 0
        return (min(100, done * 100 / total), Int(remaining.rounded()))
    }

    func finished(_ outcome: ScanOutcome) {
        if shown {
            draw("")
        }
    }

    private func draw(_ text: String) {
        shown = true
        erased = false
        // \r and "erase to end of line": the line is rewritten in place, never scrolled.
        FileHandle.standardError.write(Data(("\r\u{1B}[K" + text).utf8))
    }
}
