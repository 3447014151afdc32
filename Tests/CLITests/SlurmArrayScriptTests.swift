import Foundation
import Testing
import LiveScan
import LiveScanScenes
@testable import livescan

/// `scripts/slurm/livescan-array.sh` run as Slurm runs an array's tasks (its `SLURM_ARRAY_*` variables set, one task
/// after another), without Slurm itself: each task scans its share, the shares cover every input once, the logs are
/// those of a plain scan, and a task run again skips what is done.
@Suite(.serialized) struct SlurmArrayScriptTests {
    let folder: URL
    /// Owns `folder`: it goes with this test.
    private let scratch: ScratchFolder
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("scripts/slurm/livescan-array.sh").path

    init() throws {
        scratch = try ScratchFolder()
        folder = scratch.url
    }

    /// Task `task` of `tasks` over the list `inputs` into `out`.
    func runTask(_ task: Int, of tasks: Int, inputs: String, out: String) throws -> CommandResult {
        try Shell.run("SLURM_ARRAY_TASK_ID=$1 SLURM_ARRAY_TASK_MIN=10 SLURM_ARRAY_TASK_COUNT=$2 SLURM_CPUS_PER_TASK=2 "
                      + "LIVESCAN=\"$3\" exec bash \"$0\" \"$4\" \"$5\" --types qr",
                      arguments: [Self.script, String(10 + task), String(tasks), try #require(Livescan.executable).path,
                                  inputs, out])
    }

    /// Each line's event, frame and value, ids aside.
    func eventsWithoutIDs(_ path: String) throws -> [String] {
        try eventLog(at: URL(fileURLWithPath: path)).map { line in
            "\(line["event"] ?? "") \(line["frame"] ?? "") \(line["payload"] ?? line["reason"] ?? "")"
        }
    }

    @Test func eachTaskScansItsShareAndTheSharesCoverEveryInputOnce() throws {
        let videos = scratch.path("videos")
        try FileManager.default.createDirectory(atPath: videos, withIntermediateDirectories: true)
        let paths = ["a.mp4", "b c.mp4", "d.mp4", "e.mp4"].map { videos + "/" + $0 }
        for (index, path) in paths.enumerated() {
            try SceneRenderer(scene: archiveClip("CODE-\(index)")).writeVideo(to: path)
        }
        let list = scratch.path("inputs.txt")
        try (paths.joined(separator: "\n") + "\n\n").write(toFile: list, atomically: false, encoding: .utf8)
        let out = scratch.path("logs")
        for (task, share) in [(0, 2), (1, 1), (2, 1)] {
            let result = try runTask(task, of: 3, inputs: list, out: out)
            #expect(result.status == 0, "task \(task): \(result.standardError)")
            #expect(result.standardError.contains("task \(task) of 3: \(share) of 4 inputs, 2 at a time"),
                    "\(result.standardError)")
            #expect(result.standardError.contains("\(share) scanned, 0 failed, 0 skipped"), "\(result.standardError)")
        }
        let logs = try FileManager.default.contentsOfDirectory(atPath: out).sorted()
        #expect(logs == paths.map { ArchiveLogName.name(forInputAt: $0) }.sorted())
        for path in paths {
            let alone = scratch.path("alone.jsonl")
            #expect(try Livescan.run(["scan", "--types", "qr", "-q", "--events", alone, path]).status == 0)
            let log = out + "/" + ArchiveLogName.name(forInputAt: path)
            #expect(try eventsWithoutIDs(log) == eventsWithoutIDs(alone), "\(path)")
        }

        let again = try runTask(0, of: 3, inputs: list, out: out)
        #expect(again.status == 0 && again.standardError.contains("0 scanned, 0 failed, 2 skipped"),
                "\(again.standardError)")
        let idle = try runTask(5, of: 6, inputs: list, out: out)
        #expect(idle.status == 0 && idle.standardError.contains("task 5 of 6 has no inputs"), "\(idle.standardError)")
    }

    @Test func aMissingListIsAnError() throws {
        let result = try runTask(0, of: 1, inputs: scratch.path("nope.txt"), out: scratch.path("logs"))
        #expect(result.status == 2 && result.standardError.contains("no such list of inputs"))
    }
}
