import Foundation
import LiveScan

/// A one-line progress report on stderr while a file is scanned without the listing: percent, fps,
/// ETA. Shown only when stderr is a terminal, redrawn at most 4 times a second, erased at the end.
final class ProgressLine: ScanPresenter {
    private let total: Int?
    private let start = Date()
    private var lastDrawn = Date.distantPast
    private var shown = false

    init(source: SourceInfo) {
        total = source.frameCount
    }

    static var isWanted: Bool { isatty(STDERR_FILENO) == 1 }

    func changed(_ changes: ScanChanges) throws {}

    func processed(_ frame: Frame, items: [RecognizedItem]) throws {
        let now = Date()
        guard now.timeIntervalSince(lastDrawn) >= 0.25 else { return }
        lastDrawn = now
        let done = frame.index + 1
        let elapsed = max(now.timeIntervalSince(start), 0.001)
        let fps = Double(done) / elapsed
        var line = "\(done) frames, \(String(format: "%.1f", fps)) fps, \(items.count) items"
        if let total, total > 0 {
            let percent = min(100, done * 100 / total)
            let remaining = fps > 0 ? Double(max(total - done, 0)) / fps : 0
            line = "\(percent)% " + line + ", ETA \(Int(remaining.rounded())) s"
        }
        draw(line)
    }

    func finished(_ outcome: ScanOutcome) {
        if shown {
            draw("")
        }
    }

    private func draw(_ text: String) {
        shown = true
        // \r and "erase to end of line": the line is rewritten in place, never scrolled.
        FileHandle.standardError.write(Data(("\r\u{1B}[K" + text).utf8))
    }
}
