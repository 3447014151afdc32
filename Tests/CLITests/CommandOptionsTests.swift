import Foundation
import Testing
@testable import livescan
import LiveScan
import LiveScanScenes

/// The options of `livescan scan` as users reach for them: declared once (parser, `--help`, usage line, README),
/// the spellings VisionKit, Tesseract and zbar users bring, and mistakes named before anything is scanned.
@Suite(.serialized) struct CommandOptionsTests {
    let folder: URL
    /// Owns `folder`: it goes with this test.
    private let scratch: ScratchFolder

    init() throws {
        scratch = try ScratchFolder()
        folder = scratch.url
    }

    /// still720: 3 QR, an EAN-13, a Code 128 and 6 text lines.
    func stillImage() throws -> URL {
        let image = folder.appendingPathComponent("still.png")
        try SceneRenderer(scene: ScenePreset.still720.scene).writeImage(to: image.path)
        return image
    }

    /// The options' full table is docs/command.md's; the README's usage names every option, its short table the
    /// common ones.
    @Test func readmeHelpAndUsageLineComeFromTheOneTable() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let command = try String(contentsOf: root.appendingPathComponent("docs/command.md"), encoding: .utf8)
        let table = ScanOption.documentedTable.joined(separator: "\n")
        #expect(command.contains(table), "docs/command.md's options table should be:\n\(table)")
        let help = try Livescan.run(["--help"]).standardOutput
        #expect(help.contains(ScanOption.helpLines.joined(separator: "\n")))
        for option in ScanOption.all {
            for name in option.names {
                #expect(help.contains(name), "--help lacks \(name)")
            }
            #expect(ScanOption.usageLine.contains("[\(option.name)"), "the usage line lacks \(option.name)")
            #expect(readme.contains("[\(option.name)"), "README's usage lacks \(option.name)")
        }
        #expect(ScanOption.helpLines.allSatisfy { $0.count <= 80 }, "a --help line is wider than 80 columns")
        let usage = try Livescan.run(["scan", "--frobnicate", "a.png"]).errorLines
        #expect(usage.dropFirst().first == ScanOption.usageLine)
    }

    /// `livescan scan --events --raw demo.mp4` wrote a log named `--raw` and exited 0.
    @Test func aMissingValueIsAnError() throws {
        let result = try Livescan.run(["scan", "--events", "--raw", "nothing.mp4"])
        #expect(result.status == 2)
        #expect(result.errorLines.first == "Error: --events needs a value, got option --raw (--events=--raw if that "
            + "is the value)")
        #expect(!FileManager.default.fileExists(atPath: FileManager.default.currentDirectoryPath + "/--raw"))
    }

    @Test func anOptionForAnotherKindOfSourceIsAnError() throws {
        let image = try stillImage()
        let fps = try Livescan.run(["scan", "--fps", "10", image.path])
        #expect(fps.status == 2)
        #expect(fps.errorLines.first == "Error: --fps applies to a camera only, and \(image.path) is an image or a "
            + "folder of images")
        let timeout = try Livescan.run(["scan", "--timeout", "3", "--every", "2", "clip.mp4"])
        #expect(timeout.errorLines.first == "Error: --timeout applies to a stream only, and clip.mp4 is a video file")
        // Given for one source among several it applies to, it is fine.
        let mixed = try Livescan.run(["scan", "--every", "2", "--types", "qr", image.path, image.path])
        #expect(mixed.status == 2, "--every for two images is still for no video")
    }

    /// `--roi`: only items whose centre lies inside count; fractions and pixels name the same region; `--single`
    /// picks the item nearest its centre; the log says it in pixels; the annotation outlines it.
    @Test func aRegionOfInterestFromTheCommandLine() throws {
        let image = try stillImage()
        // still720's codes have their centres at x 213, 640, 1067 (QR), 329 (EAN-13), 950 (Code 128).
        let left = ["qr:https://example.com/livescan", "ean13:5901234123457"]
        for roi in ["0,0,0.4,1", "0,0,512,720"] {
            let result = try Livescan.run(["scan", "--types", "barcodes", "--roi", roi, image.path])
            #expect(result.status == 0 && Set(result.outputLines) == Set(left), "\(roi): \(result.outputLines)")
        }
        // The region's centre is (256, 360): the EAN-13 at (329, 370) is nearer than the QR code at (213, 150).
        let single = try Livescan.run(["scan", "--types", "barcodes", "--roi", "0,0,0.4,1", "--single", image.path])
        #expect(single.outputLines == ["ean13:5901234123457"])
        let log = folder.appendingPathComponent("roi.jsonl")
        _ = try Livescan.run(["scan", "--types", "qr", "--roi", "0,0,0.4,1", "--events", log.path, image.path])
        let config = try #require(eventLog(at: log).first?["config"] as? [String: Any])
        #expect(config["region_of_interest"] as? [Double] == [0, 0, 512, 720])

        let outside = try Livescan.run(["scan", "--roi", "2000,0,10,10", image.path])
        #expect(outside.status == 2 && outside.errorLines.first == "Error: --roi lies outside the 1280x720 frame of "
            + image.path)
        #expect(try Livescan.run(["scan", "--roi", "1,2,3", image.path]).status == 2)
        #expect(try Livescan.run(["scan", "--roi", "0,0,0,10", image.path]).status == 2)

        // Drawn: the region's left edge, at x 100 between y 100 and 500, in an empty part of the picture.
        let plain = folder.appendingPathComponent("plain.png"), outlined = folder.appendingPathComponent("roi.png")
        _ = try Livescan.run(["scan", "--types", "qr", "--annotate", plain.path, image.path])
        _ = try Livescan.run(["scan", "--types", "qr", "--roi", "100,100,400,400", "--annotate", outlined.path,
                              image.path])
        func gray(_ url: URL) throws -> [UInt8] {
            try #require(try ImageSource(path: url.path).nextFrame()).image.grayPixels()
        }
        let (before, after) = (try gray(plain), try gray(outlined))
        let edge = 450 * 1280 + 100
        #expect(abs(Int(before[edge]) - Int(after[edge])) > 30, "\(before[edge]) -> \(after[edge])")
        #expect(before[450 * 1280 + 700] == after[450 * 1280 + 700])
    }

    @Test func annotatingToAnUnknownExtensionFailsBeforeScanning() throws {
        let image = try stillImage()
        let result = try Livescan.run(["scan", "--annotate", folder.appendingPathComponent("out.txt").path,
                                       image.path])
        #expect(result.status == 2)
        let line = result.errorLines.first ?? ""
        for known in [".mp4", ".mkv", ".mov", ".avi", ".png", ".jpg", ".webp"] {
            #expect(line.contains(known), "\(line) lacks \(known)")
        }
        #expect(result.standardOutput.isEmpty)
    }

    /// VisionKit's tags and Tesseract's `+` lists name Tesseract's data; a missing one names the real Debian
    /// package (`tesseract-ocr-chi-tra`, not `tesseract-ocr-zh-Hant`). `make setup` installs Simplified Chinese
    /// and Japanese (ScriptTests read them), not these.
    @Test func languagesAsBCP47TagsOrTesseractNames() throws {
        let image = folder.appendingPathComponent("hello.png")
        try SceneRenderer(scene: SceneRenderer.still(text: "Order 4711 ships today").scene).writeImage(to: image.path)
        for languages in ["en-US", "en", "eng", "en-GB,eng"] {
            let result = try Livescan.run(["scan", "--types", "text", "--languages", languages, image.path])
            #expect(result.status == 0, "\(languages): \(result.standardError)")
            #expect(result.outputLines == ["text:Order 4711 ships today"], "\(languages)")
        }
        let chinese = try Livescan.run(["scan", "--languages", "en-US,zh-Hant", image.path])
        #expect(chinese.status == 2)
        #expect(chinese.errorLines.first?.contains("'chi_tra'") == true, "\(chinese.errorLines)")
        #expect(chinese.errorLines.first?.contains("apt install tesseract-ocr-chi-tra)") == true)
        let plus = try Livescan.run(["scan", "--languages", "eng+deu", image.path])
        #expect(plus.errorLines.first?.contains("tesseract-ocr-deu") == true, "\(plus.errorLines)")
    }

    /// Telepen and DX film edge are opt-in: `barcodes`, and no `--types` at all, leave them out; named, they are
    /// read, beside `barcodes` too, and the start line logs what was asked for.
    @Test func optInSymbologiesAreReadOnlyWhenNamed() throws {
        let every = try ScanOptions(["--types", "barcodes", "x.png"])
        #expect(every.recognizedDataTypes == [.barcode(symbologies: [])])
        let plain = try ScanOptions(["x.png"])
        #expect(plain.recognizedDataTypes == [.barcode(symbologies: []), .text(languages: ["eng"])])
        let both = try ScanOptions(["--types", "telepen,barcodes,qr", "x.png"])
        #expect(both.recognizedDataTypes == [.barcode(symbologies: Symbology.readByDefault + [.telepen])])
        #expect(both.eventLogConfig(tracker: TrackerConfiguration(), region: nil).types == ["all-barcodes", "telepen"])
        let named = try ScanOptions(["--types", "dxfilmedge,qr", "x.png"])
        #expect(named.recognizedDataTypes == [.barcode(symbologies: [.dxfilmedge, .qr])])

        // zxing-cpp's Telepen sample (BridgeTests' fixture), through the built binary.
        let sample = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("BridgeTests/Fixtures/telepen-alpha.png").path
        for types in [["--types", "barcodes"], ["--types", "barcodes,text"], []] {
            let result = try Livescan.run(["scan"] + types + ["--raw", sample])
            #expect(!result.outputLines.contains("TELEPEN"), "\(types): \(result.outputLines)")
        }
        let telepen = try Livescan.run(["scan", "--types", "barcodes,telepen", sample])
        #expect(telepen.status == 0 && telepen.outputLines == ["telepen:TELEPEN"], "\(telepen.outputLines)")
    }

    @Test func typeGroupsAndZbarSpellings() throws {
        let image = try stillImage()
        let barcodes = try Livescan.run(["scan", "--types", "barcodes", image.path])
        #expect(barcodes.status == 0)
        #expect(barcodes.outputLines.count == 5, "\(barcodes.outputLines)")
        #expect(!barcodes.outputLines.contains { $0.hasPrefix("text:") })
        let apple = try Livescan.run(["scan", "--types", "QR,dataMatrix,gs1DataBar,itf14", image.path])
        #expect(apple.status == 0 && apple.outputLines.count == 3, "\(apple.outputLines) \(apple.standardError)")
        let logged = try Livescan.run(["scan", "--types", "all-barcodes,text", "--raw", image.path])
        #expect(logged.outputLines.count == 11, "\(logged.outputLines)")

        for once in ["--once", "--oneshot", "-1"] {
            let result = try Livescan.run(["scan", "--types", "qr", once, image.path])
            #expect(result.status == 0 && result.outputLines.count == 1, "\(once): \(result.outputLines)")
        }
        for quiet in ["-q", "--quiet"] {
            let found = try Livescan.run(["scan", "--types", "qr", quiet, image.path])
            #expect(found.status == 0 && found.standardOutput.isEmpty && found.standardError.isEmpty)
        }
        let nothing = folder.appendingPathComponent("blank.png")
        try FrameImage(pixels: [UInt8](repeating: 255, count: 64 * 64), width: 64, height: 64, channels: 1)
            .write(to: nothing.path)
        let quietNothing = try Livescan.run(["scan", "-q", nothing.path])
        #expect(quietNothing.status == 4 && quietNothing.standardOutput.isEmpty)
    }
}
