import Foundation
import LiveScan

/// What an archive scan says on stderr as it goes. When stderr is a terminal, one line redrawn in place: files done
/// of the total, failures, skipped, running, time left; otherwise (a log file, a Slurm task's output) a plain line
/// per input finished and one at the start and the end. `-q` keeps it silent; errors are reported anyway, by
/// `Diagnostics`, after this erases its line.
final class ArchiveProgress {
    private let total: Int
    private let skipped: Int
    private let isTerminal: Bool
    private let isQuiet: Bool
    private let start = Date()
    private var scanned = 0
    private var failed = 0
    private var lineShown = false
    /// The line last drawn: it is drawn again only when it changed (or was erased), not at every tick.
    private var lastLine = ""

    init(total: Int, skipped: Int, jobs: Int, quiet: Bool, isTerminal: Bool = Terminal.isStandardErrorInteractive) {
        self.total = total
        self.skipped = skipped
        self.isTerminal = isTerminal
        isQuiet = quiet
        if !isTerminal {
            let skips = skipped == 0 ? "" : ", \(skipped) skipped (their logs are complete)"
            say("livescan: \(total) input\(total == 1 ? "" : "s")\(skips), \(jobs) at a time")
        }
    }

    /// Inputs finished, scanned or failed, skipped included: the "done" of "done of total".
    private var done: Int { skipped + scanned + failed }

    /// Seconds left at the rate inputs have been finishing in this run; nil before the first.
    private var secondsLeft: Double? {
        let finished = scanned + failed
        guard finished > 0 else { return nil }
        return Date().timeIntervalSince(start) / Double(finished) * Double(total - done)
    }

    /// Redraws the terminal's line when what it says changed.
    func tick(running: Int) {
        guard isTerminal && !isQuiet else { return }
        let left = secondsLeft.map { ", " + Self.duration($0) + " left" } ?? ""
        let failures = failed == 0 ? "" : ", \(failed) failed"
        let line = "\(done)/\(total) files\(failures), \(running) running" + left
        guard !lineShown || line != lastLine else { return }
        FileHandle.standardError.write(Data(("\r\u{1B}[K" + line).utf8))
        lineShown = true
        lastLine = line
    }

    func finished(_ input: ArchiveInput, logName: String, seconds: Double) {
        scanned += 1
        if !isTerminal {
            say("livescan: \(done)/\(total) scanned \(input.path) in \(String(format: "%.1f", seconds)) s: \(logName)")
        }
    }

    /// An input failed; its `Error:` line is for the caller to report, after `eraseLine()`.
    func failed(_ input: ArchiveInput) {
        failed += 1
        if !isTerminal {
            say("livescan: \(done)/\(total) failed \(input.path)")
        }
    }

    /// Clears the terminal's line so that a line printed next starts clean; the next tick draws it again.
    func eraseLine() {
        if lineShown {
            FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
            lineShown = false
        }
    }

    /// The closing line, on terminals and elsewhere alike.
    func close() {
        eraseLine()
        let took = Self.duration(Date().timeIntervalSince(start))
        say("livescan: \(scanned) scanned, \(failed) failed, \(skipped) skipped, in \(took)")
    }

    private func say(_ line: String) {
        if !isQuiet {
            Diagnostics.printError(TerminalSafeText.escape(line))
        }
    }

    /// `42 s`, `3 min 05 s`, `2 h 07 min`.
    static func duration(_ seconds: Double) -> String {
        let whole = Int(seconds.rounded())
        if whole < 60 { return "\(whole) s" }
        if whole < 3600 { return String(format: "%d min %02d s", whole / 60, whole % 60) }
        return String(format: "%d h %02d min", whole / 3600, whole % 3600 / 60)
    }
}
