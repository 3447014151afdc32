import Foundation
import Testing
import LiveScanScenes

/// `livescan` outside its checkout: a binary copied elsewhere reads barcodes with no model at all, says in one line
/// where it looked for the text models (naming LIVESCAN_MODELS) when text is asked for, and `make install`'s copy
/// finds its models beside it.
@Suite(.serialized) struct ModelSearchTests {
    let folder: URL
    /// Owns `folder`: it goes with this test.
    private let scratch: ScratchFolder
    /// A folder with nothing in it, for XDG_DATA_HOME and XDG_DATA_DIRS: models installed on this machine in
    /// /usr/local/share or ~/.local/share must not be found by a test of a binary that has none.
    private let empty: String

    init() throws {
        scratch = try ScratchFolder()
        folder = scratch.url
        empty = folder.appendingPathComponent("empty").path
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
    }

    private var repository: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
    }

    /// Runs `binary arguments...` with no LIVESCAN_MODELS (or `models` as it) and empty XDG data folders.
    private func run(_ binary: String, _ arguments: [String], models: String? = nil) throws -> CommandResult {
        let models = models.map { "LIVESCAN_MODELS=\(Shell.quote($0))" } ?? "-u LIVESCAN_MODELS"
        return try Shell.run("exec env \(models) XDG_DATA_HOME=\"$0\" XDG_DATA_DIRS=\"$0\" \"$@\"",
                             arguments: [empty, binary] + arguments)
    }

    private func image(_ name: String, _ still: RenderedStill) throws -> String {
        let path = folder.appendingPathComponent(name).path
        try SceneRenderer(scene: still.scene).writeImage(to: path)
        return path
    }

    @Test func aCopiedBinaryReadsBarcodesWithoutModelsAndSaysWhereTextModelsGo() throws {
        let built = try #require(Livescan.executable)
        let alone = folder.appendingPathComponent("alone")
        try FileManager.default.createDirectory(at: alone, withIntermediateDirectories: true)
        let binary = alone.appendingPathComponent("livescan").path
        try FileManager.default.copyItem(atPath: built.path, toPath: binary)
        let qr = try image("qr.png", SceneRenderer.still(symbology: .qr, payload: "no models needed"))

        let barcodes = try run(binary, ["scan", "--types", "qr", qr])
        #expect(barcodes.status == 0, "\(barcodes.standardError)")
        #expect(barcodes.outputLines == ["qr:no models needed"])

        for types in ["text", "qr,text"] {
            let text = try run(binary, ["scan", "--types", types, qr])
            #expect(text.status == 2, "\(text.standardError)")
            #expect(text.errorLines.count == 1, "\(text.standardError)")
            let line = text.errorLines.first ?? ""
            #expect(line.hasPrefix("Error: the text detector model ppocr-v4-det.onnx is not installed: "
                                   + "LIVESCAN_MODELS is not set and none of \(alone.path)/models, "), "\(line)")
            #expect(line.contains("make install") && line.contains("set LIVESCAN_MODELS"), "\(line)")
        }
        // LIVESCAN_MODELS set to a folder without them: named as what was looked in.
        let wrong = try run(binary, ["scan", "--types", "text", qr], models: empty)
        #expect(wrong.status == 2)
        #expect(wrong.errorLines.first?.contains("none of LIVESCAN_MODELS=\(empty), ") == true, "\(wrong.errorLines)")
        // LIVESCAN_MODELS naming the checkout's models/ (make setup's): text is read.
        let line = try image("line.png", SceneRenderer.still(text: "Aisle 7 Shelf B", pixelHeight: 36))
        let found = try run(binary, ["scan", "--types", "text", line],
                            models: repository.appendingPathComponent("models").path)
        #expect(found.status == 0, "\(found.standardError)")
        #expect(found.outputLines == ["text:Aisle 7 Shelf B"])
    }

    /// The networks without the ONNX Runtime library that runs them, or with a file of its name that is no library:
    /// one error line each, naming the library and `make setup`, never a crash.
    @Test func aMissingOrBrokenOnnxRuntimeIsOneErrorLine() throws {
        let built = try #require(Livescan.executable)
        let alone = folder.appendingPathComponent("alone-runtime")
        let models = alone.appendingPathComponent("models")
        try FileManager.default.createDirectory(at: models, withIntermediateDirectories: true)
        let binary = alone.appendingPathComponent("livescan").path
        try FileManager.default.copyItem(atPath: built.path, toPath: binary)
        let checkoutModels = repository.appendingPathComponent("models")
        for name in [TextModelFiles.detector] + TextModelFiles.recogniser {
            try FileManager.default.createSymbolicLink(at: models.appendingPathComponent(name),
                                                       withDestinationURL: checkoutModels.appendingPathComponent(name))
        }
        let line = try image("runtime.png", SceneRenderer.still(text: "Aisle 7 Shelf B", pixelHeight: 36))
        let missing = try run(binary, ["scan", "--types", "text", line], models: models.path)
        #expect(missing.status == 2, "\(missing.standardError)")
        #expect(missing.errorLines.count == 1, "\(missing.standardError)")
        #expect(missing.errorLines.first?.hasPrefix("Error: the ONNX Runtime library libonnxruntime.so.1.32.0 is not "
                                                    + "installed: none of LIVESCAN_MODELS=\(models.path)") == true,
                "\(missing.errorLines)")
        try Data("not a library".utf8).write(to: models.appendingPathComponent("libonnxruntime.so.1.32.0"))
        let broken = try run(binary, ["scan", "--types", "text", line], models: models.path)
        #expect(broken.status == 2, "\(broken.standardError)")
        #expect(broken.errorLines.count == 1, "\(broken.standardError)")
        let message = broken.errorLines.first ?? ""
        #expect(message.hasPrefix("Error: the ONNX Runtime library \(models.path)/libonnxruntime.so.1.32.0 could not "
                                  + "be loaded (run `make setup` again): "), "\(message)")
    }

    /// `make install PREFIX=...` is `scripts/install.sh BIN_DIR PREFIX` over the release build; here over the
    /// binary the tests run.
    @Test func anInstalledBinaryFindsItsModelsInTheSharedFolderOfItsPrefix() throws {
        let built = try #require(Livescan.executable)
        let prefix = folder.appendingPathComponent("prefix").path
        let install = try Shell.run("bash \"$0\" \"$1\" \"$2\"", arguments: [
            repository.appendingPathComponent("scripts/install.sh").path, built.deletingLastPathComponent().path,
            prefix,
        ])
        #expect(install.status == 0, "\(install.standardError)")
        let models = URL(fileURLWithPath: prefix).appendingPathComponent("share/livescan/models")
        let installed = try FileManager.default.contentsOfDirectory(atPath: models.path).sorted()
        #expect(installed.contains("ppocr-v4-det.onnx") && installed.contains("README.md"), "\(installed)")
        // Files, not links into the checkout: the install outlives it.
        for name in installed {
            let attributes = try FileManager.default.attributesOfItem(atPath: models.appendingPathComponent(name).path)
            #expect(attributes[.type] as? FileAttributeType == .typeRegular, "\(name)")
        }
        let line = try image("line.png", SceneRenderer.still(text: "Aisle 7 Shelf B", pixelHeight: 36))
        let found = try run(prefix + "/bin/livescan", ["scan", "--types", "text", line])
        #expect(found.status == 0, "\(found.standardError)")
        #expect(found.outputLines == ["text:Aisle 7 Shelf B"])
    }
}

/// The text models but the ONNX Runtime library, by name (the CLI tests do not import the library).
private enum TextModelFiles {
    static let detector = "ppocr-v4-det.onnx"
    static let recogniser = ["ppocr-v6-rec.onnx", "ppocr-v6-rec-keys.txt"]
}
