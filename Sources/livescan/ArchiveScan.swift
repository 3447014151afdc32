import Foundation
import LiveScan

/// `livescan scan --out DIR SOURCE...`: an event log per input in DIR, `--jobs` inputs at a time, each scanned by a
/// child `livescan scan` (`ChildScan`) into a hidden partial log that is renamed to its name (`ArchiveLogName`) only
/// when the scan ended well: every log in DIR is whole. An input whose complete log is there and newer than it is
/// skipped unless `--redo`, so a run that was killed, or that failed on some inputs, resumes where it stopped. A
/// failed input is reported on stderr and appended to `DIR/failures.jsonl` (`ArchiveFailure`); the others go on.
///
/// Exit status: 0 every input has its log, 1 any failed, 2 usage error, 129/130/143 stopped by a signal (the scans
/// running then are stopped, and their partial logs removed).
final class ArchiveScan {
    private let options: ScanOptions
    private let settings: ArchiveSettings
    /// How often the loop looks at its children and redraws the progress line.
    private static let pollInterval: useconds_t = 100_000

    init(options: ScanOptions, settings: ArchiveSettings) {
        self.options = options
        self.settings = settings
    }

    func run() -> ExitCode {
        let inputs: [ArchiveInput]
        do {
            try prepareFolder()
            inputs = try ArchiveInputs.expand(settings.sources)
            guard !inputs.isEmpty else {
                throw UsageError(message: "no video or image files in " + settings.sources.joined(separator: ", "))
            }
            try ScanOptions.checkOptionsApply(options.givenOptions, to: inputs.map(\.path))
        } catch let error as UsageError {
            return Diagnostics.usage(error)
        } catch {
            return Diagnostics.fail(error, code: .inputError)
        }
        let pending = settings.redo ? inputs : inputs.filter { !hasCompleteLog($0) }
        let jobs = settings.jobs ?? ArchiveJobs.defaultCount(quality: options.quality)
        let progress = ArchiveProgress(total: inputs.count, skipped: inputs.count - pending.count, jobs: jobs,
                                       quiet: settings.quiet)
        let interruption = SignalWatcher {}
        let failed = scan(pending, jobs: jobs, progress: progress, interruption: interruption)
        progress.close()
        if let signal = interruption.caughtSignal {
            return ExitCode(signal: signal)
        }
        return failed > 0 ? .inputError : .found
    }

    /// Creates DIR when it is missing; a DIR that is a file, or cannot be made, is an error.
    private func prepareFolder() throws {
        var isFolder = false
        if FileNames.exists(settings.folder, isDirectory: &isFolder) {
            guard isFolder else {
                throw UsageError(message: "--out \(settings.folder) is a file, not a folder")
            }
            return
        }
        do {
            try FileManager.default.createDirectory(atPath: settings.folder, withIntermediateDirectories: true)
        } catch {
            throw ScanError.outputFailed(path: settings.folder, reason: "cannot make the folder: "
                + ((error as NSError).localizedFailureReason ?? "\(error.localizedDescription)"))
        }
    }

    private func logPath(_ name: String) -> String {
        (settings.folder as NSString).appendingPathComponent(name)
    }

    /// Whether `input` has its log in DIR: complete (`EventLogCompleteness`) and modified no earlier than the input.
    /// An input that cannot be read has none: it is scanned again, and fails again, saying why.
    private func hasCompleteLog(_ input: ArchiveInput) -> Bool {
        let log = logPath(ArchiveLogName.name(forInputAt: input.absolutePath))
        guard let logStatus = FileNames.status(log), let inputStatus = FileNames.status(input.path) else {
            return false
        }
        let (logTime, inputTime) = (logStatus.st_mtim, inputStatus.st_mtim)
        let isNewer = (logTime.tv_sec, logTime.tv_nsec) >= (inputTime.tv_sec, inputTime.tv_nsec)
        return isNewer && EventLogCompleteness.endsWithEndLine(path: log)
    }

    /// Scans `pending`, `jobs` at a time, until all are done or a signal comes; the number that failed.
    private func scan(_ pending: [ArchiveInput], jobs: Int, progress: ArchiveProgress,
                      interruption: SignalWatcher) -> Int {
        var queue = pending[...]
        var running: [ChildScan] = []
        var failures = 0
        var signalled = false
        while !queue.isEmpty || !running.isEmpty {
            if let signal = interruption.caughtSignal, !signalled {
                // Ctrl-C reached the children too (one process group); `kill` from elsewhere did not.
                signalled = true
                queue = []
                running.forEach { $0.signal(signal) }
            }
            while running.count < jobs, let input = queue.popFirst() {
                switch start(input) {
                case let .success(child):
                    running.append(child)
                case let .failure(error):
                    failures += 1
                    record(input, logName: ArchiveLogName.name(forInputAt: input.absolutePath), status: 1,
                           error: "\(error)", progress: progress)
                }
            }
            var stillRunning: [ChildScan] = []
            for child in running {
                guard let ending = child.ending() else {
                    stillRunning.append(child)
                    continue
                }
                if !finish(child, ending: ending, progress: progress, interrupted: signalled) {
                    failures += 1
                }
            }
            running = stillRunning
            progress.tick(running: running.count)
            if !running.isEmpty {
                usleep(Self.pollInterval)
            }
        }
        return failures
    }

    /// The child scan of `input`: `livescan scan --quiet --force --events DIR/.NAME.partial OPTIONS -- INPUT`.
    /// `--force` because a partial log left by a run that was killed is this input's own to replace. INPUT is the
    /// absolute path, so that the log's `source` says which file it is from wherever the log is read.
    private func start(_ input: ArchiveInput) -> Result<ChildScan, Error> {
        let name = ArchiveLogName.name(forInputAt: input.absolutePath)
        let arguments = ["scan", "--quiet", "--force", "--events", logPath(ArchiveLogName.partialName(of: name))]
            + settings.scanArguments + ["--", input.absolutePath]
        return Result {
            try ChildScan(executable: Self.executable, arguments: arguments, input: input, logName: name)
        }
    }

    /// This binary: the children are the same build as their parent.
    private static let executable: String = {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }()

    /// A child that ended: its partial log renamed into place when its scan ended well (exit 0 or 4: something or
    /// nothing found, every frame read) and the log is whole; otherwise the partial removed and the failure recorded.
    /// Whether it succeeded. A child stopped by our signal is neither: its partial goes, nothing is recorded.
    private func finish(_ child: ChildScan, ending: ChildScan.Ending, progress: ArchiveProgress,
                        interrupted: Bool) -> Bool {
        let partial = logPath(ArchiveLogName.partialName(of: child.logName))
        let scannedWell = [ExitCode.found, .nothingFound].map { ChildScan.Ending.exited($0.rawValue) }
            .contains(ending)
        if scannedWell && EventLogCompleteness.endsWithEndLine(path: partial)
            && rename(partial, logPath(child.logName)) == 0 {
            progress.finished(child.input, logName: child.logName, seconds: Date().timeIntervalSince(child.started))
            return true
        }
        unlink(partial)
        if interrupted {
            return true
        }
        record(child.input, logName: child.logName, status: Int(ending.status),
               error: Self.message(child.errorText, ending: ending), progress: progress)
        return false
    }

    /// What a failed scan said: its `Error:` lines joined, or how it died when it said nothing (a crash).
    private static func message(_ errorText: String, ending: ChildScan.Ending) -> String {
        let lines = errorText.split(separator: "\n").map(String.init).filter { $0.hasPrefix("Error: ") }
            .map { String($0.dropFirst("Error: ".count)) }
        if !lines.isEmpty {
            return lines.joined(separator: "; ")
        }
        switch ending {
        case let .killed(signal):
            return "the scan was killed by signal \(signal) (\(String(cString: strsignal(signal))))"
        case let .exited(code):
            return "the scan ended with status \(code) and no log" + (errorText.isEmpty ? "" : ": " + errorText)
        }
    }

    /// Reports a failed input on stderr and appends it to `DIR/failures.jsonl`.
    private func record(_ input: ArchiveInput, logName: String, status: Int, error: String,
                        progress: ArchiveProgress) {
        progress.failed(input)
        progress.eraseLine()
        // A scan's own errors name its file already; a failure to start one does not.
        let named = error.hasPrefix(input.absolutePath + ":") ? error : "\(input.absolutePath): \(error)"
        Diagnostics.printError("Error: " + TerminalSafeText.escape(named))
        let failure = ArchiveFailure(input: input.absolutePath, log: logName, error: error, status: status,
                                     time: Date())
        let path = logPath(ArchiveFailure.fileName)
        let descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            Diagnostics.printError("Error: " + TerminalSafeText.escape("\(path): " + String(cString: strerror(errno))))
            return
        }
        defer { close(descriptor) }
        let line = Array((failure.line + "\n").utf8)
        // One write: O_APPEND places it whole at the end, whatever other runs append beside it.
        if line.withUnsafeBytes({ write(descriptor, $0.baseAddress, $0.count) }) != line.count {
            Diagnostics.printError("Error: " + TerminalSafeText.escape("\(path): " + String(cString: strerror(errno))))
        }
    }
}
