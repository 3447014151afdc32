import Foundation
import LiveScanScenes

/// What a run of the built `livescan` binary did.
struct CommandResult {
    let status: Int32
    let standardOutput: String
    let standardError: String

    var outputLines: [String] { standardOutput.split(separator: "\n").map(String.init) }
    var errorLines: [String] { standardError.split(separator: "\n").map(String.init) }
}

enum Livescan {
    /// The `livescan` binary SwiftPM built next to this test bundle.
    static let executable: URL? = {
        let candidates = [URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
                          Bundle.main.bundleURL, Bundle.main.bundleURL.deletingLastPathComponent()]
        return candidates.map { $0.appendingPathComponent("livescan") }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }()

    /// Runs `livescan arguments...`, in `environment` when given (else this process's); `whileRunning` gets the
    /// process once started (to signal it). Fails the run after `timeout` seconds: a hang is a bug.
    static func run(_ arguments: [String], environment: [String: String]? = nil, timeout: TimeInterval = 120,
                    whileRunning: ((Process) -> Void)? = nil) throws -> CommandResult {
        guard let executable else { throw CocoaError(.fileNoSuchFile) }
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let environment {
            process.environment = environment
        }
        let output = Pipe(), error = Pipe()
        process.standardOutput = output
        process.standardError = error
        try process.run()
        // Drain both pipes while the process runs so that a full pipe cannot stall it.
        let outputData = Collected(), errorData = Collected()
        let group = DispatchGroup()
        DispatchQueue.global().async(group: group) { outputData.data = output.fileHandleForReading.readDataToEndOfFile() }
        DispatchQueue.global().async(group: group) { errorData.data = error.fileHandleForReading.readDataToEndOfFile() }
        whileRunning?(process)
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline {
            usleep(20_000)
        }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)  // SIGTERM may be blocked: see LocalStream.stop
            process.waitUntilExit()
            throw CocoaError(.executableLoad, userInfo: [NSLocalizedDescriptionKey: "livescan hung: \(arguments)"])
        }
        process.waitUntilExit()
        group.wait()
        return CommandResult(status: process.terminationStatus,
                             standardOutput: String(decoding: outputData.data, as: UTF8.self),
                             standardError: String(decoding: errorData.data, as: UTF8.self))
    }
}

/// Bytes read on another thread; read back only after that thread is done (DispatchGroup.wait).
private final class Collected: @unchecked Sendable {
    var data = Data()
}

/// `/bin/sh -c SCRIPT ARGUMENTS...` for what a test must set up in a shell: closed descriptors, a terminal.
enum Shell {
    static func run(_ script: String, arguments: [String]) throws -> CommandResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", script] + arguments
        let output = Pipe(), error = Pipe()
        process.standardOutput = output
        process.standardError = error
        try process.run()
        // What a test runs prints little: it fits the pipes, so reading one after the other cannot stall.
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return CommandResult(status: process.terminationStatus,
                             standardOutput: String(decoding: outputData, as: UTF8.self),
                             standardError: String(decoding: errorData, as: UTF8.self))
    }

    /// `text` quoted for the shell.
    static func quote(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'" }

    /// What `command` prints when its standard output and standard error are a terminal: Python's `pty` runs it
    /// on a pseudo-terminal and copies everything from it until it exits (python3 is there: `make setup`
    /// installs python3-pip), so that standard error is the same terminal as standard output.
    static func runInTerminal(_ command: [String]) throws -> String {
        let relay = """
            import os, pty, sys
            pid, fd = pty.fork()
            if pid == 0:
                os.execv(sys.argv[1], sys.argv[1:])
            out = bytearray()
            while True:
                try:
                    chunk = os.read(fd, 65536)
                except OSError:
                    break
                if not chunk:
                    break
                out += chunk
            os.waitpid(pid, 0)
            sys.stdout.buffer.write(out)
            """
        return try run("exec /usr/bin/python3 -c \"$0\" \"$@\"", arguments: [relay] + command).standardOutput
    }
}

/// A fresh folder for one test's files, removed with everything in it when the last reference goes: a suite
/// that holds one (a suite's instance serves one test) leaves nothing behind. Each `make test` left about 60
/// folders of videos and logs in /tmp before (2.8 GB on the development machine).
final class ScratchFolder: Sendable {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("livescan-cli-\(UUID())")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    /// The path of `name` in this folder.
    func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    /// A still of one QR code holding `payload`, written as `name` in this folder (the extension picks the
    /// format); its path.
    func qrStill(_ name: String, payload: String = "still image") throws -> String {
        let image = path(name)
        try SceneRenderer(scene: SceneRenderer.still(symbology: .qr, payload: payload).scene).writeImage(to: image)
        return image
    }
}

/// The JSON objects of an event log, in order.
func eventLog(at url: URL) throws -> [[String: Any]] {
    try String(contentsOf: url, encoding: .utf8).split(separator: "\n").map {
        try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] ?? [:]
    }
}
