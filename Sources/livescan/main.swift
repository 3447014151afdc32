import Foundation
import LiveScan

let version = "0.1.0"

let help = """
livescan \(version): live barcode and text scanner, VisionKit's DataScanner on Linux

Usage: livescan scan [options] SOURCE...
       livescan scan --out DIR [--jobs N] [--redo] [options] SOURCE...
       livescan report [--csv | --json] EVENTS.jsonl | DIR | LOG...
       livescan sources
       livescan --help | --version

SOURCE is an image (by its name or what it holds; - reads one from standard
input), a folder of images (read in name order), a video file, an image-sequence
pattern (shot_%04d.png, read as a video at one frame a second), a camera
(/dev/video0, or its number; the default when no SOURCE is given) or a stream
URL (rtsp://, http://, tcp://, udp://...).
For files, each item found is printed once, as `symbology:payload` or
`text:transcript`; for cameras and streams, each event: `+ <id> qr <payload>`
added, `~` updated, `-` removed. When standard output is a terminal, videos,
cameras and streams are scanned under a live full-screen listing (arrows
select, Enter copies the value with OSC 52 and --open opens a URL; s snapshot,
p pause, q quit; Ctrl-Z suspends); the findings are printed when it closes.
TERM=dumb gets lines. Each image has its own items; images given one after
another are one scan, with one event log.

With --out DIR (an archive scan), each input file (SOURCEs are files, folders of
videos and images, and globs) is scanned into its own event log in DIR, written
under a hidden name and renamed when whole; inputs whose complete log is there
and newer are skipped (--redo scans them again), failures are listed in
DIR/failures.jsonl and the others go on; --jobs N scans N at once.

Options of scan:
\(ScanOption.helpLines.joined(separator: "\n"))
  --version          show the version

report reads an event log (- for standard input) and prints one row per item
(id, kind, value, first and last seen, dwell time, updates) and totals; bad or
cut lines are counted, never fatal. --csv and --json give the same as data.
Given a folder of logs (scan --out DIR) or several logs: a row per log, the
totals of them all, and the inputs that failed and have no log since.

sources lists the cameras present.

Exit status of scan: 0 something found, 4 nothing found, 1 an input could not
be read, 2 usage error (including a language whose data is not installed),
129/130/143 stopped by SIGHUP/SIGINT/SIGTERM (the event log is ended). With
--out: 0 every input has its log, 1 any input failed.
"""

/// Debian's Tesseract uses OpenMP, which reads OMP_THREAD_LIMIT only when it loads: set it and start
/// again, or OCR runs ~9x slower on 2 cores. Only worth a restart when text will be read.
func restartWithSingleThreadedOpenMPIfNeeded(readsText: Bool) {
    guard readsText, ProcessInfo.processInfo.environment["OMP_THREAD_LIMIT"] == nil else { return }
    setenv("OMP_THREAD_LIMIT", "1", 1)
    execv("/proc/self/exe", CommandLine.unsafeArgv)
    // execv returned: it failed; carry on, slower.
}

/// ONNX Runtime's library (the PyPI wheel's 1.32, which runs the text detector and line recogniser) records usage
/// events: the executable's path, the system, the machine's kind and a device id it keeps in
/// `~/.cache/Microsoft/DeveloperTools/.onnxruntime`, queued there for Microsoft's collector. Only
/// `ORT_DISABLE_TELEMETRY`, read once as the runtime starts, turns all of it off; the library alone can stop all but
/// the first event (`CBridge/OnnxRuntime.cpp`). The command owns its process, so it sets the variable before any
/// thread runs; a value the user gave is kept.
func turnOffRuntimeTelemetry() {
    setenv("ORT_DISABLE_TELEMETRY", "1", 0)
}

func runCommand(_ arguments: [String]) -> ExitCode {
    guard let command = arguments.first else {
        return Diagnostics.usage(UsageError(message: "no command given"))
    }
    switch command {
    case "-h", "--help", "help":
        print(help)
        return .found
    case "--version":
        print("livescan \(version)")
        return .found
    case "scan":
        let rest = Array(arguments.dropFirst())
        if rest.contains("-h") || rest.contains("--help") {
            print(help)
            return .found
        }
        do {
            let options = try ScanOptions(rest)
            restartWithSingleThreadedOpenMPIfNeeded(readsText: options.wantsText)
            AllocatorTuning.tune(readsText: options.wantsText, sources: options.sources)
            if let archive = options.archive {
                return ArchiveScan(options: options, settings: archive).run()
            }
            return ScanCommand(options: options).run()
        } catch let error as UsageError {
            return Diagnostics.usage(error)
        } catch {
            return Diagnostics.fail(error, code: .inputError)
        }
    case "report":
        return ReportCommand.run(Array(arguments.dropFirst()))
    case "sources":
        return SourcesCommand.run(Array(arguments.dropFirst()))
    default:
        return Diagnostics.usage(UsageError(message: "unknown command '\(command)'"))
    }
}

/// A descriptor 0, 1 or 2 that the caller closed (`livescan ... >&-`) would be handed to the next file
/// opened, and the event log would then receive what is printed on "standard output". Each closed one is
/// taken by /dev/null first: read-only for stdout, so that printing there fails as a closed stdout should,
/// write-only for stderr (messages are dropped) and read-only for stdin.
func reserveClosedStandardDescriptors() {
    for (descriptor, mode) in [(STDIN_FILENO, O_RDONLY), (STDOUT_FILENO, O_RDONLY), (STDERR_FILENO, O_WRONLY)]
    where fcntl(descriptor, F_GETFD) == -1 && errno == EBADF {
        let opened = open("/dev/null", mode)
        if opened >= 0, opened != descriptor {
            dup2(opened, descriptor)
            close(opened)
        }
    }
}

reserveClosedStandardDescriptors()
turnOffRuntimeTelemetry()
// The libraries' own warnings would print file names and stream URLs raw; the command reports each failure
// itself, in one escaped line.
LibraryLogging.silence()
// Not CommandLine.arguments: it replaces a byte that is not UTF-8 with U+FFFD, and a file named with one (Linux
// names are bytes) could then not be opened. FileNameBytes carries such bytes through.
let arguments = (1..<Int(CommandLine.argc)).map { index in
    FileNameBytes.string(fromBytes: UnsafeBufferPointer(
        start: UnsafeRawPointer(CommandLine.unsafeArgv[index]!).assumingMemoryBound(to: UInt8.self),
        count: strlen(CommandLine.unsafeArgv[index]!)))
}
exit(runCommand(arguments).rawValue)
