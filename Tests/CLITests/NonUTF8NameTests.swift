import Foundation
import Testing
import LiveScanScenes

/// Linux file names are bytes: a name that is not valid UTF-8 (here with a 0xFF byte) is scanned like any other,
/// given directly or met in a folder, and printed with that byte escaped (`\xFF`).
@Suite struct NonUTF8NameTests {
    let folder: URL
    /// Owns `folder`: it goes with this test.
    private let scratch: ScratchFolder

    init() throws {
        scratch = try ScratchFolder()
        folder = scratch.url
    }

    /// A QR still of `payload` in `directory` (the test's folder unless given), named `prefix` + 0xFF + `.png`;
    /// cut to half its bytes if `cut`.
    private func still(_ prefix: String, payload: String, cut: Bool = false, in directory: URL? = nil) throws {
        let directory = directory ?? folder
        let written = directory.appendingPathComponent("\(prefix).png").path
        try SceneRenderer(scene: SceneRenderer.still(symbology: .qr, payload: payload).scene).writeImage(to: written)
        if cut {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: written))
            try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: written))
        }
        let raw = Array(directory.path.utf8) + Array("/\(prefix)".utf8) + [0xFF] + Array(".png".utf8)
        let renamed = (raw.map { CChar(bitPattern: $0) } + [0]).withUnsafeBufferPointer { rename(written, $0.baseAddress!) }
        #expect(renamed == 0)
    }

    /// `livescan ARGUMENTS...` run in `directory` by the shell, each argument given to printf(1) first, so that
    /// `\377` is the byte 0xFF (Process takes only Strings, which cannot hold it).
    private func livescan(_ arguments: [String], in directory: URL) throws -> CommandResult {
        let executable = try #require(Livescan.executable).path
        let quoted = arguments.map { "\"$(printf -- '\($0)')\"" }
        let script = "cd \"$1\" && exec \"$2\" " + quoted.joined(separator: " ")
        return try Shell.run(script, arguments: ["sh", directory.path, executable])
    }

    @Test func anImageNamedWithAByteThatIsNotUTF8Scans() throws {
        try still("q", payload: "named in bytes")
        let result = try livescan(["scan", "q\\377.png"], in: folder)
        #expect(result.status == 0)
        #expect(result.outputLines == ["qr:named in bytes"])
        #expect(result.errorLines == [])
    }

    @Test func aFolderEntryNamedWithAByteThatIsNotUTF8Scans() throws {
        let images = folder.appendingPathComponent("images")
        try FileManager.default.createDirectory(at: images, withIntermediateDirectories: true)
        try still("a", payload: "first", in: images)
        try still("b", payload: "broken", cut: true, in: images)
        let result = try livescan(["scan", "images"], in: folder)
        #expect(result.status == 1)
        #expect(result.outputLines == ["qr:first"])
        #expect(result.errorLines == ["Error: \(images.path)/b\\xFF.png: the file is truncated (cut short)"])
    }

    @Test func aBrokenImageIsNamedWithTheByteEscaped() throws {
        try still("b", payload: "broken", cut: true)
        let result = try livescan(["scan", "b\\377.png"], in: folder)
        #expect(result.status == 1)
        #expect(result.errorLines == ["Error: b\\xFF.png: the file is truncated (cut short)"])
        let missing = try livescan(["scan", "none\\377.png"], in: folder)
        #expect(missing.errorLines == ["Error: none\\xFF.png: no such file"])
    }

    @Test func anOutputNameThatIsNotUTF8IsRefused() throws {
        try still("q", payload: "named in bytes")
        let result = try livescan(["scan", "--events", "log\\377.jsonl", "q\\377.png"], in: folder)
        #expect(result.status == 2)
        #expect(result.errorLines.first == "Error: --events log\\xFF.jsonl: an output name must be valid UTF-8; "
                + "give another")
    }

    /// The event log names the source with the byte escaped: JSON text cannot hold it.
    @Test func theEventLogNamesTheSourceWithTheByteEscaped() throws {
        try still("q", payload: "named in bytes")
        #expect(try livescan(["scan", "--events", "log.jsonl", "q\\377.png"], in: folder).status == 0)
        let start = try eventLog(at: folder.appendingPathComponent("log.jsonl")).first
        #expect(start?["source"] as? String == "q\\xFF.png")
    }
}
