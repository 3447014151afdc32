import Foundation
import Testing
import LiveScan
import LiveScanScenes

/// What the outputs of a scan and a report promise: no output is ever written over an input, a failed write is
/// one error line, a closed terminal still ends the log, and nothing scanned reaches a terminal raw.
@Suite(.serialized) struct OutputSafetyTests {
    let folder: URL
    /// Owns `folder`: it goes with this test.
    private let scratch: ScratchFolder

    init() throws {
        scratch = try ScratchFolder()
        folder = scratch.url
    }

    private func contents(_ file: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: file)) }

    // MARK: - Outputs are never inputs

    /// An image of a folder or a frame of an image sequence is an input as much as a SOURCE named on its own:
    /// `--annotate` and `--events` onto it are refused, `--force` or not, and the file is left as it was.
    @Test func anOutputThatIsAFileOfAFolderOrSequenceIsRefused() throws {
        try FileManager.default.createDirectory(atPath: scratch.path("imgs"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: scratch.path("seq"), withIntermediateDirectories: true)
        let image = try scratch.qrStill("imgs/q0.png", payload: "first")
        _ = try scratch.qrStill("imgs/q1.png", payload: "second")
        let frame = try scratch.qrStill("seq/s_0001.png", payload: "frame one")
        _ = try scratch.qrStill("seq/s_0002.png", payload: "frame two")
        let originals = try [image, frame].map(contents)
        let folderSource = scratch.path("imgs")
        let sequence = scratch.path("seq/s_%04d.png")
        let refusals: [[String]] = [
            ["scan", folderSource, "--annotate", image],
            ["scan", folderSource + "/", "--events", image, "--force"],
            ["scan", sequence, "--annotate", frame],
            ["scan", sequence, "--events", frame, "--force"],
            // Through another spelling of the same file.
            ["scan", folderSource, "--annotate", scratch.path("imgs/./q0.png")],
        ]
        for arguments in refusals {
            let result = try Livescan.run(arguments)
            let output = arguments[arguments.firstIndex(where: { $0.hasPrefix("--") && $0 != "--force" })! + 1]
            #expect(result.status == 2, "\(arguments)")
            #expect(result.errorLines.first == "Error: \(arguments.contains("--events") ? "--events" : "--annotate") "
                    + "\(output) is one of the files the SOURCE \(arguments[1]) reads; give another output file",
                    "\(arguments)")
        }
        #expect(try [image, frame].map(contents) == originals)
        // Outputs beside the inputs, not among them, are written.
        #expect(try Livescan.run(["scan", folderSource, "--events", scratch.path("imgs.jsonl")]).status == 0)
        #expect(try Livescan.run(["scan", sequence, "--annotate", scratch.path("seq.mp4")]).status == 0)
    }

    // MARK: - Failed writes

    /// `report` checks every write, as `scan` does: a full disk and a closed standard output are one error line
    /// and exit 1; a reader that went away (SIGPIPE ignored) ends it quietly.
    @Test func reportSaysWhenItsOutputFails() throws {
        let log = scratch.path("r.jsonl")
        #expect(try Livescan.run(["scan", "--events", log, try scratch.qrStill("r.png")]).status == 0)
        let executable = try #require(Livescan.executable).path
        for format in ["", "--csv", "--json"] {
            let arguments = [executable, log] + (format.isEmpty ? [] : [format])
            let full = try Shell.run("exec \"$0\" report \"$@\" >/dev/full", arguments: arguments)
            #expect(full.status == 1, "\(format)")
            #expect(full.errorLines == ["Error: cannot write standard output: No space left on device"], "\(format)")
            let closed = try Shell.run("exec \"$0\" report \"$@\" >&-", arguments: arguments)
            #expect(closed.status == 1, "\(format)")
            #expect(closed.errorLines == ["Error: cannot write standard output: Bad file descriptor"], "\(format)")
            // The reader exits before the report is written; with SIGPIPE ignored the write fails with EPIPE.
            let script = "trap '' PIPE; (sleep 0.3; exec \"$0\" report \"$@\"; ) | true; echo $?"
            let gone = try Shell.run(script, arguments: arguments)
            #expect(gone.outputLines == ["0"], "\(format)")
            #expect(gone.standardError.isEmpty, "\(format): \(gone.standardError)")
        }
    }

    // MARK: - A closed terminal

    /// SIGHUP (a closed terminal, a dropped SSH session) ends the scan as SIGTERM does: the log gets its removes
    /// and its `end` line, and the status says which signal it was.
    @Test func aClosedTerminalEndsTheLog() throws {
        let video = scratch.path("hup.mp4")
        try SceneRenderer(scene: shortScene(frames: 150)).writeVideo(to: video)
        let log = scratch.path("hup.jsonl")
        let result = try Livescan.run(["scan", "--realtime", "--types", "qr", "--events", log, video]) { process in
            waitForLines(containing: "\"event\":\"add\"", in: URL(fileURLWithPath: log))
            kill(process.processIdentifier, SIGHUP)
        }
        #expect(result.status == 129)
        let events = try eventLog(at: URL(fileURLWithPath: log))
        #expect(events.last?["event"] as? String == "end")
        #expect(events.last?["reason"] as? String == "interrupted")
        let added = events.filter { $0["event"] as? String == "add" }.count
        let removed = events.filter { $0["event"] as? String == "remove" }.count
        #expect(added > 0 && removed == added)
    }

    // MARK: - Terminals

    /// JSON escapes C0 controls but may carry C1 controls (U+009B is CSI) and bidirectional overrides raw:
    /// on a terminal, `report --json` and `--events -` write them as `\u` escapes (the same JSON values);
    /// into a file or pipe the bytes stay exact.
    @Test func jsonOnATerminalCarriesNoRawControls() throws {
        let payload = "pay\u{9B}31m\u{202E}load"
        let image = try scratch.qrStill("c1.png", payload: payload)
        let log = scratch.path("c1.jsonl")
        #expect(try Livescan.run(["scan", "--events", log, image]).status == 0)
        #expect(try String(contentsOfFile: log, encoding: .utf8).contains(payload))
        let executable = try #require(Livescan.executable).path
        for command in [[executable, "report", "--json", log], [executable, "scan", "--events", "-", image]] {
            let shown = try Shell.runInTerminal(command)
            #expect(!shown.unicodeScalars.contains { $0.value == 0x9B || $0.value == 0x202E }, "\(command)")
            #expect(shown.contains("pay\\u009b31m\\u202eload"), "\(command): \(shown)")
            let line = try #require(shown.split(whereSeparator: \.isNewline).first { $0.contains("pay\\u009b") })
            // Escaped, the JSON still says the payload exactly.
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8))
            #expect(holds(object, payload), "\(command): \(line)")
        }
        // Into a pipe the log is exact.
        let piped = try Livescan.run(["scan", "--events", "-", image])
        #expect(piped.standardOutput.contains(payload))
    }

    /// Whether `json` (a decoded object) holds the string `value` anywhere.
    private func holds(_ json: Any, _ value: String) -> Bool {
        switch json {
        case let string as String: return string == value
        case let array as [Any]: return array.contains { holds($0, value) }
        case let object as [String: Any]: return object.values.contains { holds($0, value) }
        default: return false
        }
    }
}
