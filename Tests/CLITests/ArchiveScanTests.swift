import Foundation
import Testing
import LiveScan
import LiveScanScenes
@testable import livescan

/// A small video of one QR code holding `payload`: 320x240, `frames` frames at 30 fps, quick to render and to scan.
func archiveClip(_ payload: String, frames: Int = 20) -> Scene {
    Scene(name: "archive", width: 320, height: 240, fps: 30, frameCount: frames, background: .paper,
          items: [.barcode("qr-1", .qr, payload, moduleSize: 4, at: ScenePoint(x: 160, y: 120),
                           velocity: SceneVector(dx: 1, dy: 0))],
          noiseSigma: 2, seed: 3)
}

/// `livescan scan --out DIR SOURCE...`: a whole log per input, named from its path; runs that resume; failures
/// recorded without stopping the others; bad usage.
@Suite(.serialized) struct ArchiveScanTests {
    let folder: URL
    /// Owns `folder`: it goes with this test.
    private let scratch: ScratchFolder

    init() throws {
        scratch = try ScratchFolder()
        folder = scratch.url
    }

    /// Renders `archiveClip(payload)` at `name` (folders made as needed) in the scratch folder; its path.
    @discardableResult
    func clip(_ name: String, payload: String, frames: Int = 20) throws -> String {
        let path = scratch.path(name)
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent,
                                                withIntermediateDirectories: true)
        try SceneRenderer(scene: archiveClip(payload, frames: frames)).writeVideo(to: path)
        return path
    }

    /// The names in `folder`, hidden ones included, sorted.
    func names(in folder: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
    }

    func modified(_ path: String) throws -> Date {
        try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date ?? .distantPast
    }

    /// What a log says, ids aside: each line's event, frame and value, in order.
    func eventsWithoutIDs(_ path: String) throws -> [String] {
        try eventLog(at: URL(fileURLWithPath: path)).map { line in
            "\(line["event"] ?? "") \(line["frame"] ?? "") \(line["payload"] ?? line["reason"] ?? "")"
        }
    }

    @Test func eachInputGetsOneWholeLogNamedFromItsPath() throws {
        // Two inputs with one file name: their slugs differ by folder, their hashes by path.
        let first = try clip("videos/day1/cam.mp4", payload: "DAY-1")
        let second = try clip("videos/day2/cam.mp4", payload: "DAY-2")
        let still = try scratch.qrStill("videos/label.png", payload: "LABEL")
        let out = scratch.path("logs")
        let result = try Livescan.run(["scan", "--out", out, "--types", "qr", "--jobs", "2", scratch.path("videos")])
        #expect(result.status == 0, "stderr: \(result.standardError)")
        let logs = try names(in: out)
        #expect(logs.count == 3, "\(logs)")
        #expect(!logs.contains { $0.hasPrefix(".") }, "a partial log was left: \(logs)")
        for log in logs {
            #expect(log.wholeMatch(of: /[A-Za-z0-9._-]+\.[0-9a-f]{12}\.jsonl/) != nil, "\(log)")
            #expect(EventLogCompleteness.endsWithEndLine(path: out + "/" + log), "\(log) is not whole")
        }
        for (input, payload) in [(first, "DAY-1"), (second, "DAY-2"), (still, "LABEL")] {
            let name = ArchiveLogName.name(forInputAt: input)
            #expect(logs.contains(name), "\(name) not in \(logs)")
            let lines = try eventLog(at: URL(fileURLWithPath: out + "/" + name))
            #expect(lines.first?["source"] as? String == input)
            #expect(lines.contains { $0["event"] as? String == "add" && $0["payload"] as? String == payload })
        }
        #expect(logs.contains { $0.hasPrefix("day1_cam.mp4.") } && logs.contains { $0.hasPrefix("day2_cam.mp4.") })
        // The same as a scan of the file on its own, ids aside.
        let alone = scratch.path("alone.jsonl")
        let plain = try Livescan.run(["scan", "--types", "qr", "--quiet", "--events", alone, first])
        #expect(plain.status == 0, "stderr: \(plain.standardError)")
        #expect(try eventsWithoutIDs(alone) == eventsWithoutIDs(out + "/" + ArchiveLogName.name(forInputAt: first)))
    }

    /// The name is the absolute path's, whatever the working folder and however the path is spelled.
    @Test func theLogNameIsTheSameFromAnyWorkingFolder() throws {
        try clip("videos/a.mp4", payload: "A")
        let out = scratch.path("logs")
        let executable = try #require(Livescan.executable).path
        let fromScratch = try Shell.run("cd \"$1\" && \"$0\" scan --out \"$2\" --types qr -q videos/a.mp4",
                                        arguments: [executable, scratch.url.path, out])
        #expect(fromScratch.status == 0, "stderr: \(fromScratch.standardError)")
        let fromVideos = try Shell.run("cd \"$1\" && \"$0\" scan --out \"$2\" --types qr ./../videos/./a.mp4",
                                       arguments: [executable, scratch.path("videos"), out])
        #expect(fromVideos.status == 0, "stderr: \(fromVideos.standardError)")
        #expect(fromVideos.standardError.contains("1 skipped"), "stderr: \(fromVideos.standardError)")
        #expect(try names(in: out) == [ArchiveLogName.name(forInputAt: scratch.path("videos/a.mp4"))])
    }

    @Test func logNamesAreReadableAndKeepLikeNamedInputsApart() {
        #expect(ArchiveLogName.slug("/data/Day 1/cam 03 (front).MP4") == "Day_1_cam_03_front_.MP4")
        #expect(ArchiveLogName.slug("/.hidden/.x.mp4") == "hidden_.x.mp4")
        #expect(ArchiveLogName.name(forInputAt: "/a/x y.mp4") != ArchiveLogName.name(forInputAt: "/a/x_y.mp4"))
        #expect(ArchiveLogName.name(forInputAt: "/a/b/x.mp4") != ArchiveLogName.name(forInputAt: "/c/b/x.mp4"))
        // Fixed by the algorithm (FNV-1a), not seeded per process: every run and every node names a file alike.
        #expect(ArchiveLogName.hash("/a/b/x.mp4") == ArchiveLogName.hash("/a/b/x.mp4"))
        #expect(ArchiveLogName.hash("") == "cbf29ce48422")
        #expect(ArchiveInputs.absolutePath("./v/../w//x.mp4", workingFolder: "/data/run") == "/data/run/w/x.mp4")
    }

    @Test func aSecondRunSkipsCompleteLogsAndRescansWhatChangedOrWhatRedoAsks() throws {
        let a = try clip("videos/a.mp4", payload: "A")
        try clip("videos/b.mp4", payload: "B")
        let out = scratch.path("logs")
        let arguments = ["scan", "--out", out, "--types", "qr", scratch.path("videos")]
        #expect(try Livescan.run(arguments).status == 0)
        let logA = out + "/" + ArchiveLogName.name(forInputAt: a)
        let logB = out + "/" + ArchiveLogName.name(forInputAt: scratch.path("videos/b.mp4"))
        let (firstA, firstB) = (try modified(logA), try modified(logB))

        let again = try Livescan.run(arguments)
        #expect(again.status == 0 && again.standardError.contains("0 scanned, 0 failed, 2 skipped"),
                "stderr: \(again.standardError)")
        #expect(try modified(logA) == firstA && modified(logB) == firstB)

        // An input newer than its log is scanned again; the other is not.
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(60)], ofItemAtPath: a)
        let changed = try Livescan.run(arguments)
        #expect(changed.standardError.contains("1 scanned, 0 failed, 1 skipped"), "stderr: \(changed.standardError)")
        #expect(try modified(logA) > firstA && modified(logB) == firstB)
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-3600)], ofItemAtPath: a)

        // A log cut short (no end line) is not whole: scanned again.
        let cut = try String(contentsOfFile: logB, encoding: .utf8).split(separator: "\n").dropLast()
        try (cut.joined(separator: "\n") + "\n").write(toFile: logB, atomically: false, encoding: .utf8)
        let resumed = try Livescan.run(arguments)
        #expect(resumed.standardError.contains("1 scanned, 0 failed, 1 skipped"), "stderr: \(resumed.standardError)")
        #expect(EventLogCompleteness.endsWithEndLine(path: logB))

        let redone = try Livescan.run(arguments + ["--redo"])
        #expect(redone.standardError.contains("2 scanned, 0 failed, 0 skipped"), "stderr: \(redone.standardError)")
    }

    /// A run stopped mid-way (SIGTERM, as a reboot or `scancel` sends) leaves only whole logs; the next run scans
    /// only what is missing.
    @Test func aStoppedRunLeavesWholeLogsOnlyAndTheNextResumes() throws {
        for name in ["a", "b", "c"] {
            try clip("videos/\(name).mp4", payload: name.uppercased(), frames: 60)
        }
        let out = scratch.path("logs")
        // --realtime: each takes its 2 s of media time, long enough to be caught scanning.
        let arguments = ["scan", "--out", out, "--types", "qr", "--realtime", "--jobs", "1", scratch.path("videos")]
        let stopped = try Livescan.run(arguments) { process in
            let deadline = Date().addingTimeInterval(60)
            while Date() < deadline && ((try? names(in: out))?.filter { !$0.hasPrefix(".") }.isEmpty ?? true) {
                usleep(50_000)
            }
            usleep(300_000)
            kill(process.processIdentifier, SIGTERM)
        }
        #expect(stopped.status == 143, "stderr: \(stopped.standardError)")
        let left = try names(in: out)
        #expect(!left.contains { $0.hasPrefix(".") }, "a partial log was left: \(left)")
        #expect((1...2).contains(left.count), "\(left)")
        for log in left {
            #expect(EventLogCompleteness.endsWithEndLine(path: out + "/" + log))
        }
        #expect(!FileManager.default.fileExists(atPath: out + "/" + ArchiveFailure.fileName), "a stop is no failure")

        let resumed = try Livescan.run(arguments)
        #expect(resumed.status == 0, "stderr: \(resumed.standardError)")
        #expect(resumed.standardError.contains("\(3 - left.count) scanned, 0 failed, \(left.count) skipped"),
                "stderr: \(resumed.standardError)")
        #expect(try names(in: out).count == 3)
    }

    @Test func aFailingInputIsRecordedAndTheOthersAreScanned() throws {
        let good = try clip("videos/good.mp4", payload: "GOOD")
        let corrupt = scratch.path("videos/corrupt.mp4")
        try Data(try Data(contentsOf: URL(fileURLWithPath: good)).prefix(4000)).write(to: URL(fileURLWithPath: corrupt))
        let leftover = try clip("videos/late.mp4", payload: "LATE")
        let out = scratch.path("logs")
        // A partial log a killed run left behind is replaced, not a failure.
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        let partial = out + "/" + ArchiveLogName.partialName(of: ArchiveLogName.name(forInputAt: leftover))
        try #"{"event":"start","v":1,"source":"cut"}"#.write(toFile: partial, atomically: false, encoding: .utf8)

        let result = try Livescan.run(["scan", "--out", out, "--types", "qr", "--jobs", "2", scratch.path("videos")])
        #expect(result.status == 1, "stderr: \(result.standardError)")
        let errors = result.errorLines.filter { $0.hasPrefix("Error: ") }
        #expect(errors.count == 1 && errors[0].contains("corrupt.mp4"), "stderr: \(result.standardError)")
        #expect(result.standardError.contains("2 scanned, 1 failed, 0 skipped"), "stderr: \(result.standardError)")
        let logs = try names(in: out)
        #expect(logs.sorted() == [ArchiveFailure.fileName, ArchiveLogName.name(forInputAt: good),
                                  ArchiveLogName.name(forInputAt: leftover)].sorted(), "\(logs)")
        let failures = ArchiveFailure.records(at: out + "/" + ArchiveFailure.fileName)
        #expect(failures.count == 1)
        let failure = try #require(failures.first)
        #expect(failure.input == corrupt && failure.log == ArchiveLogName.name(forInputAt: corrupt))
        #expect(failure.status == 1 && failure.error.contains("corrupt.mp4") && !failure.error.hasPrefix("Error"))
        #expect(abs(failure.time.timeIntervalSinceNow) < 120)
        let line = try #require(try String(contentsOfFile: out + "/" + ArchiveFailure.fileName, encoding: .utf8)
            .split(separator: "\n").first)
        #expect(line.hasPrefix(#"{"v":1,"input":"#))

        // Run again: the failed input is tried again (and fails again), the others are skipped.
        let again = try Livescan.run(["scan", "--out", out, "--types", "qr", scratch.path("videos")])
        #expect(again.status == 1 && again.standardError.contains("0 scanned, 1 failed, 2 skipped"),
                "stderr: \(again.standardError)")
        #expect(ArchiveFailure.records(at: out + "/" + ArchiveFailure.fileName).count == 2)
    }

    /// Progress on a terminal: one line redrawn in place, files done of the total and time left.
    @Test func onATerminalProgressIsOneLineRedrawn() throws {
        try clip("videos/a.mp4", payload: "A")
        try clip("videos/b.mp4", payload: "B")
        let screen = try Shell.runInTerminal([try #require(Livescan.executable).path, "scan", "--out",
                                              scratch.path("logs"), "--types", "qr", "--jobs", "1",
                                              scratch.path("videos")])
        #expect(screen.contains("\r\u{1B}[K1/2 files, 1 running"), "\(screen.debugDescription)")
        #expect(screen.contains(" left"), "\(screen.debugDescription)")
        #expect(!screen.contains("livescan: 1/2 scanned"), "plain lines on a terminal: \(screen.debugDescription)")
        #expect(screen.contains("livescan: 2 scanned, 0 failed, 0 skipped"), "\(screen.debugDescription)")
    }

    @Test func badArchiveUsageIsOneErrorLine() throws {
        let video = try clip("a.mp4", payload: "A")
        let file = scratch.path("a-file")
        try Data("x".utf8).write(to: URL(fileURLWithPath: file))
        let cases: [([String], String)] = [
            (["--out", file, video], "is a file, not a folder"),
            (["--out", scratch.path("logs")], "--out needs the files to scan"),
            (["--out", scratch.path("logs"), "--jobs", "0", video], "--jobs takes a whole number"),
            (["--jobs", "2", video], "--jobs applies with --out DIR only"),
            (["--redo", video], "--redo applies with --out DIR only"),
            (["--out", scratch.path("logs"), "--events", scratch.path("x.jsonl"), video], "--events does not go"),
            (["--out", scratch.path("logs"), "rtsp://127.0.0.1:1/x"], "is a stream"),
            (["--out", scratch.path("logs"), "--fps", "5", video], "--fps applies to a camera only"),
        ]
        for (arguments, message) in cases {
            let result = try Livescan.run(["scan"] + arguments)
            #expect(result.status == 2, "\(arguments): \(result.standardError)")
            #expect(result.errorLines.first?.hasPrefix("Error: ") == true && result.errorLines[0].contains(message),
                    "\(arguments): \(result.standardError)")
            #expect(result.errorLines.filter { $0.hasPrefix("Error: ") }.count == 1, "\(result.standardError)")
        }
        let made = (try? names(in: scratch.path("logs"))) ?? []
        #expect(made.isEmpty, "a failed start wrote \(made)")
    }

    @Test func theDefaultJobsFollowCoresQualityAndMemory() {
        let plenty: UInt64 = 64 << 30
        #expect(ArchiveJobs.defaultCount(quality: .balanced, cores: 8, memory: plenty) == 8)
        #expect(ArchiveJobs.defaultCount(quality: .fast, cores: 2, memory: plenty) == 2)
        #expect(ArchiveJobs.defaultCount(quality: .accurate, cores: 8, memory: plenty) == 4)
        #expect(ArchiveJobs.defaultCount(quality: .accurate, cores: 1, memory: plenty) == 1)
        #expect(ArchiveJobs.defaultCount(quality: .balanced, cores: 32, memory: 4 << 30) == 8)
        #expect(ArchiveJobs.defaultCount(quality: .balanced, cores: 4, memory: 100 << 20) == 1)
        let online = ProcessInfo.processInfo.activeProcessorCount
        #expect(ProcessorCores.usable(status: "Name:\tlivescan\nCpus_allowed_list:\t0\n") == 1)
        #expect(ProcessorCores.usable(status: "Cpus_allowed_list:\t0-1,3\n") == min(3, online))
        #expect(ProcessorCores.usable(status: "no such line") == online)
    }
}
